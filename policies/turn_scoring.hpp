// One turn's scoring as a small abstract problem (policies/scoring_orders.cpp says why a
// turn reduces to it): the scores before the turn's features are scored and, per completed
// feature in the engine's as-found order, its points and its majority colours. The
// scoring orders solve it, and `heuristic` and `greedy` use it to know the exact outcome of
// a move without playing it on a State copy (move_outcome).
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "core/state.hpp"
#include "policies/placement_analysis.hpp"

namespace carc {

using Scores = std::array<int, kMaxColors>;

struct TurnScoring {
  int colors = 0;
  int n = 0;  // completed features
  Scores start{};
  std::array<int, kMaxCompleted> points{};
  std::array<std::uint8_t, kMaxCompleted> majority{};  // colour bit mask, 0: no meeple
};

// The colours with the most meeples on a feature (none when it has no meeple), as
// State::score_feature finds them.
inline std::uint8_t majority_of(const std::array<std::uint8_t, kMaxColors>& meeples, int colors) {
  int most = 0;
  for (int c = 0; c < colors; ++c) most = meeples[c] > most ? meeples[c] : most;
  std::uint8_t m = 0;
  for (int c = 0; c < colors; ++c)
    if (most > 0 && meeples[c] == most) m = std::uint8_t(m | 1u << c);
  return m;
}

// The problem of a turn whose completed features are `completed` (roots, as found), read
// off the State's feature records.
TurnScoring turn_scoring(const State& s, std::span<const std::uint16_t> completed);

// The colours at the lowest of `s`, as a bit mask.
std::uint8_t lowest_mask(const Scores& s, int colors);

// Scores `s` after the features at positions order[0..t.n) are scored in that order: each
// awards its majority when a majority colour is lowest just before (rules.md step 3).
void score_in_order(const TurnScoring& t, std::span<const std::uint8_t> order, Scores& s);

// `lowest-first`: repeatedly the first feature (as found) whose majority holds a lowest
// colour, then the rest as found. Writes t.n positions.
void lowest_first_order(const TurnScoring& t, std::span<std::uint8_t> order);

// `best`: the order maximising the lowest score after the turn, then the total; among
// optimal orders the lexicographically first by as-found position. Exact up to kExact
// features with meeples (every turn of the base game), lowest-first beyond. Holds a memo
// table (a few hundred KiB): make one per thread and reuse it.
class BestOrder {
 public:
  static constexpr int kExact = 10;
  // Writes t.n positions.
  void solve(const TurnScoring& t, std::span<std::uint8_t> order);

 private:
  static constexpr std::array<int, kExact + 1> kPow3 = [] {
    std::array<int, kExact + 1> p{};
    p[0] = 1;
    for (int i = 1; i <= kExact; ++i) p[i] = 3 * p[i - 1];
    return p;
  }();
  int value(const Scores& s) const;
  int step(int i, Scores& s) const;
  int search(int code, std::uint32_t rem, const Scores& s);

  const TurnScoring* t_ = nullptr;
  int m_ = 0;
  std::array<int, kExact> rel_{};        // relevant features' as-found positions
  std::array<int, kPow3[kExact]> memo_;  // best value from a position, -1: not yet known
};

// Scores and supplies after a move and its turn's scoring in the `best` order, exactly as
// State::place and scoring in that order leave them, read off the placement's analysis:
// `e` from analyse_placement (or what gives the same) at the cell `nb` was loaded for,
// the figure on segment `seg` (Move::kNoMeeple: none) and `large` as Move::large says (the
// large meeple when asked for and in supply, or when it is the colour's only figure),
// `s` the State before the move. Points at the inn and cathedral rates, majorities by the
// figures' weights, and `supply` counts figures (a large meeple back is one).
// `best` is the caller's solver (it holds a memo table: one per policy, reused).
inline void move_outcome(const State& s, const PlacementEffect& e, const CellNeighbours& nb,
                         int seg, BestOrder& best, Scores& score, Scores& supply,
                         bool large = false) {
  const int k = s.colors(), mover = s.to_move();
  // The figure the engine places (State::place): the large meeple weighs 2.
  const bool big = seg != Move::kNoMeeple && s.large_supply(mover) != 0 && (large || s.supply(mover) == 0);
  TurnScoring t;
  t.colors = k;
  for (int c = 0; c < k; ++c) {
    t.start[c] = s.score(c);
    supply[c] = s.figures(c) - (c == mover && seg != Move::kNoMeeple);
  }
  int relevant = 0;
  auto completed = [&](int points, const std::array<std::uint8_t, kMaxColors>& meeples,
                       unsigned large_mask) {
    t.points[t.n] = points;
    t.majority[t.n] = majority_of(meeples, k);
    relevant += t.majority[t.n] != 0;
    ++t.n;
    for (int c = 0; c < k; ++c) supply[c] += meeples[c] - int(large_mask >> c & 1);  // figures back
  };
  for (int i = 0; i < e.n_feats; ++i) {
    const JoinedFeature& f = e.feats[i];
    if (!f.complete()) continue;
    std::array<std::uint8_t, kMaxColors> meeples = f.meeples;
    unsigned large_mask = f.large;
    if (seg != Move::kNoMeeple && (f.segs >> seg & 1)) {
      meeples[mover] = std::uint8_t(meeples[mover] + 1 + big);
      large_mask |= unsigned(big) << mover;
    }
    // The analysis may count a tile twice when it joins several board features.
    const int tiles = f.n_roots > 1 ? 1 + s.distinct_tiles({f.roots.data(), f.n_roots}) : f.tiles;
    completed(feature_points(f.kind, tiles, f.pennants, f.marks), meeples, large_mask);
  }
  for (int i = 0; i < nb.n_near; ++i)
    if (nb.near[i].open_after == 0) {
      const int root = nb.near[i].root;
      completed(9, s.feature(root).meeples, s.large_meeple() ? s.feature_large(root) : 0u);
    }
  std::array<std::uint8_t, kMaxCompleted> order;
  if (relevant > 1) {
    best.solve(t, order);
  } else {  // one feature awards at most: the order does not matter
    for (int i = 0; i < t.n; ++i) order[i] = std::uint8_t(i);
  }
  score_in_order(t, {order.data(), std::size_t(t.n)}, score);
}

}  // namespace carc
