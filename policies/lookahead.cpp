#include "policies/lookahead.hpp"

#include <cassert>

namespace carc {

std::unique_ptr<ScoringPolicy> make_lookahead_scoring() { return make_scoring_policy("best"); }

void apply_move(State& s, int type, const Move& m, ScoringPolicy& scoring, Rng& rng) {
  std::uint16_t done[kMaxCompleted];
  std::uint8_t free_mask = 0;
  const int n = s.place(type, m.at, m.seg, done, &free_mask);
  if (n > 1) scoring.order_features(Observation(s, type), {done, std::size_t(n)}, rng);
  for (int i = 0; i < n; ++i) s.score_feature(done[i]);
}

void play_to_afterstate(State& after, const State& s, int type, const Move& m,
                        ScoringPolicy& scoring, Rng& rng) {
  after.copy_from(s);
  apply_move(after, type, m, scoring, rng);
  after.end_turn();
}

void Redeal::deal(const State& s, Rng& rng) {
  int n = 0;
  for (int t = 0; t < kTileTypes; ++t)
    for (int k = s.unseen(t); k > 0; --k) tiles_[n++] = std::uint8_t(t);
  for (int i = n; i > 1; --i) {  // Fisher-Yates with Boost-identical numbers
    const int j = int(uniform_below(rng, std::uint32_t(i)));
    std::swap(tiles_[i - 1], tiles_[j]);
  }
  int at = 0;
  for (int c = 0; c < s.colors(); ++c) {
    begin_[c] = std::uint8_t(at);
    at += s.stack_left(c);
  }
  assert(at == n);  // every unseen tile is in some stack
  next_ = begin_;
}

}  // namespace carc
