// SPSA (simultaneous perturbation stochastic approximation) as fishtest runs it, for
// `carcsolo tune` (docs/tune.md). The core knows nothing of games: it proposes a pair of
// points (theta + c_k * delta, theta - c_k * delta), is told the sum over a batch of paired
// evaluations of f(plus) - f(minus), and steps theta. `carcsolo tune` evaluates with games;
// the tests with a synthetic noisy function.
//
// Parameters are scaled to their ranges: the core works on u = (x - lo) / (hi - lo) in
// [0, 1], so one gain serves parameters of any size. Schedules (k counts evaluation pairs
// done before the batch, N the pairs of the whole run):
//   c_k = c / (k + 1)^gamma,        c = c_end * N^gamma
//   a_k = a / (A + k + 1)^alpha,    a = r_end * c_end^2 * (A + N)^alpha,  A = a_ratio * N
//   u  <- clip(u + (a_k / c_k) * delta * sum over the batch of (f(plus) - f(minus)))
// so that at the end the perturbation is c_end and a_k / c_k^2 is r_end. delta is +1 or -1
// per parameter, drawn from Rng(seed, batch index, Stream::tune): a run is a function of the
// seed and the settings alone. A whole-number parameter is perturbed by at least one unit
// (else plus and minus would often round to the same value) and rounded in every point
// given out.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace carc::sim {

struct SpsaParam {
  std::string key;
  double lo = 0, hi = 1, start = 0;  // lo < hi, start in [lo, hi]
  bool whole = false;                // points carry it rounded to a whole number
};

struct SpsaSettings {
  std::uint64_t pairs = 1000;   // N: evaluation pairs of the whole run (>= 1)
  double c_end = 0.05;          // final perturbation, as a share of each range
  double r_end = 0.0005;        // final a_k / c_k^2, per unit of f
  double alpha = 0.602, gamma = 0.101, a_ratio = 0.1;
};

class Spsa {
 public:
  // Throws std::invalid_argument for an empty list, lo >= hi, a start outside [lo, hi] or
  // settings out of range.
  Spsa(std::vector<SpsaParam> params, SpsaSettings settings, std::uint64_t seed);

  // The points of the next batch, in raw units (clipped to the bounds, whole parameters
  // rounded), and its perturbation signs.
  struct Probe {
    std::vector<double> plus, minus;
    std::vector<int> delta;  // +1 or -1 per parameter
    std::vector<double> c;   // c_k per parameter, normalised units
  };
  Probe probe() const;
  // Applies a batch of `pairs` evaluations of the probe's points whose differences
  // f(plus) - f(minus) sum to `sum`: k advances by `pairs`.
  void update(const Probe& p, double sum, std::uint64_t pairs);

  // The current estimate: raw units, unrounded (theta) or as a point is made (rounded).
  std::vector<double> theta() const;
  std::vector<double> point() const;
  std::uint64_t pairs_done() const { return k_; }
  std::uint64_t batches_done() const { return batches_; }
  const std::vector<SpsaParam>& params() const { return params_; }
  const SpsaSettings& settings() const { return s_; }

  // A value in raw units as points carry it (whole parameters rounded, half away from 0).
  double as_point(std::size_t i, double raw) const;

 private:
  std::vector<SpsaParam> params_;
  SpsaSettings s_;
  std::uint64_t seed_;
  std::vector<double> u_;       // normalised estimate
  std::vector<double> c_end_;   // per parameter: c_end, or one unit for whole parameters
  std::vector<double> c_, a_;   // per parameter: c and a of the schedules
  double big_a_ = 0;
  std::uint64_t k_ = 0, batches_ = 0;
};

}  // namespace carc::sim
