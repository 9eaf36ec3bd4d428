#include "policies/lookahead.hpp"

#include <cassert>

namespace carc {

std::unique_ptr<ScoringPolicy> make_lookahead_scoring() { return make_scoring_policy("best"); }

void apply_move(State& s, int type, const Move& m, ScoringPolicy& scoring, Rng& rng) {
  RolloutEnv env{{}, nullptr, nullptr, &scoring, &rng};  // orders the features, draws nothing
  play_move(s, env, type, m);
}

void play_to_afterstate(State& after, const State& s, int type, const Move& m,
                        ScoringPolicy& scoring, Rng& rng) {
  after.copy_from(s);
  apply_move(after, type, m, scoring, rng);
  after.end_turn();
}

Move position_move(const State& s, int type, Move m) {
  const int c = s.to_move();
  const bool meeple = s.supply(c) > 0, large = s.large_supply(c) > 0;
  if ((!meeple && !large) || s.free_segments(type, m.at) == 0 || m.seg == Move::kNoMeeple) {
    m.seg = Move::kNoMeeple;
    m.large = false;
  } else {
    m.large = large && (m.large || !meeple);  // the figure the engine places
  }
  return m;
}

void Redeal::deal_numbered(const State& s, std::uint64_t seed, int k) {
  Rng rng(seed + 0x9E3779B97F4A7C15ull * std::uint64_t(k + 1));
  deal(s, rng);
}

void Redeal::deal(const State& s, Rng& rng) {
  int n = 0;
  for (int t = 0; t < kFirstRiver; ++t)
    for (int k = s.unseen(t); k > 0; --k) tiles_[n++] = std::uint8_t(t);
  shuffle(rng, tiles_.data(), n);
  int at = 0;
  for (int c = 0; c < s.colors(); ++c) {
    begin_[c] = std::uint8_t(at);
    at += s.stack_left(c);
  }
  assert(at == n);  // every unseen land tile is in some stack
  // The river stack (expansions.md): its unseen tiles re-dealt, the lake (public) last.
  begin_[kRiverStack] = std::uint8_t(at);
  if (s.river_left() > 0) [[unlikely]]
    at += lay_river_stack([&](int t) { return s.unseen(t); }, &tiles_[std::size_t(at)],
                          [&](std::uint8_t* first, int m) { shuffle(rng, first, m); });
  next_ = begin_;
}

void mean_se(const double* x, std::size_t n, double& mean, double& se) {
  mean = se = std::numeric_limits<double>::quiet_NaN();
  if (n < 1) return;
  double sum = 0, sq = 0;
  for (std::size_t i = 0; i < n; ++i) sum += x[i];
  mean = sum / double(n);
  for (std::size_t i = 0; i < n; ++i) sq += (x[i] - mean) * (x[i] - mean);
  if (n > 1) se = std::sqrt(sq / double(n - 1) / double(n));
}

void paired_se(const double* a, const double* b, std::size_t from, std::size_t step, std::size_t n,
               double& mean, double& se) {
  mean = se = std::numeric_limits<double>::quiet_NaN();
  double sum = 0, sq = 0;
  std::size_t m = 0;
  for (std::size_t i = from; i < n; i += step, ++m) sum += a[i] - b[i];
  if (m == 0) return;
  mean = sum / double(m);
  for (std::size_t i = from; i < n; i += step) sq += (a[i] - b[i] - mean) * (a[i] - b[i] - mean);
  if (m > 1) se = std::sqrt(sq / double(m - 1) / double(m));
}

}  // namespace carc
