// Fishtest's SPSA (see spsa.hpp for the formulas). Why this and not a plain gradient or a
// grid: the objective is a mean over noisy games, and SPSA needs only two evaluations per
// step whatever the number of parameters; the paired games of the driver (the same deals
// for plus and minus) take most of the noise out of their difference.
#include "sim/driver/spsa.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "rng/rng.hpp"

namespace carc::sim {

Spsa::Spsa(std::vector<SpsaParam> params, SpsaSettings settings, std::uint64_t seed)
    : params_(std::move(params)), s_(settings), seed_(seed) {
  if (params_.empty()) throw std::invalid_argument("spsa: no parameter to tune");
  if (s_.pairs < 1) throw std::invalid_argument("spsa: no evaluation pairs");
  if (!(s_.c_end > 0 && s_.c_end <= 1) || !(s_.r_end > 0) || !(s_.alpha > 0) ||
      !(s_.gamma >= 0) || !(s_.a_ratio >= 0))
    throw std::invalid_argument("spsa: settings out of range");
  const double n = double(s_.pairs);
  big_a_ = s_.a_ratio * n;
  for (const SpsaParam& p : params_) {
    if (!(p.lo < p.hi) || !(p.start >= p.lo && p.start <= p.hi))
      throw std::invalid_argument("spsa: parameter '" + p.key + "' needs lo < hi and lo <= start <= hi");
    const double range = p.hi - p.lo;
    const double c_end = std::min(1.0, std::max(s_.c_end, p.whole ? 1.0 / range : 0.0));
    u_.push_back((p.start - p.lo) / range);
    c_.push_back(c_end * std::pow(n, s_.gamma));
    a_.push_back(s_.r_end * c_end * c_end * std::pow(big_a_ + n, s_.alpha));
  }
}

double Spsa::as_point(std::size_t i, double raw) const {
  const SpsaParam& p = params_[i];
  const double x = std::clamp(raw, p.lo, p.hi);
  return p.whole ? std::clamp(std::round(x), std::ceil(p.lo), std::floor(p.hi)) : x;
}

Spsa::Probe Spsa::probe() const {
  Probe pr;
  Rng rng(seed_, batches_, Stream::tune);
  const double kk = double(k_ + 1);
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const int d = (rng() >> 63) ? 1 : -1;
    const double c = c_[i] / std::pow(kk, s_.gamma);
    const double range = params_[i].hi - params_[i].lo;
    const auto raw = [&](double u) { return params_[i].lo + std::clamp(u, 0.0, 1.0) * range; };
    pr.delta.push_back(d);
    pr.c.push_back(c);
    pr.plus.push_back(as_point(i, raw(u_[i] + c * d)));
    pr.minus.push_back(as_point(i, raw(u_[i] - c * d)));
  }
  return pr;
}

void Spsa::update(const Probe& p, double sum, std::uint64_t pairs) {
  const double kk = double(k_ + 1);
  for (std::size_t i = 0; i < params_.size(); ++i) {
    const double a = a_[i] / std::pow(big_a_ + kk, s_.alpha);
    u_[i] = std::clamp(u_[i] + a / p.c[i] * p.delta[i] * sum, 0.0, 1.0);
  }
  k_ += pairs;
  ++batches_;
}

std::vector<double> Spsa::theta() const {
  std::vector<double> x;
  for (std::size_t i = 0; i < params_.size(); ++i)
    x.push_back(params_[i].lo + u_[i] * (params_[i].hi - params_[i].lo));
  return x;
}

std::vector<double> Spsa::point() const {
  std::vector<double> x = theta();
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = as_point(i, x[i]);
  return x;
}

}  // namespace carc::sim
