// The `heuristic` placement policy's evaluation, shared with look-ahead policies that rank
// candidate moves by it.
//
// A position is valued as a good player would weigh it:
//   low * min_c E_c + mean * mean_c E_c          E_c = score of colour c plus the points it
//                                                can expect from its unfinished features
//   + meeple * (meeples in supply + expected returns of meeples on the board)
//   - empty * (colours with an empty supply)     (the next forced meeple ends the game)
// An unfinished feature with meeples is expected to finish with probability
//   p = q^open * T / (T + tau * open)            q per kind, T tiles left, open edges (a
//                                                monastery: empty cells around it)
// or `hopeless` when one of its open cells fits none of the unseen tiles (their multiset,
// never their order). Its points go to its majority colours, weighted by
// exp(-gap / balance) for the nearest of them to the lowest score (a feature scores only
// when a majority colour is lowest). Because the aggregate is the minimum of expected
// scores, setting up points for the lowest colour and sharing features between colours
// are worth most. Moves that complete something are played on a State copy (scored with
// the "best" order); the others are valued from placement_analysis without a copy.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "policies/placement_analysis.hpp"
#include "policies/policy.hpp"

namespace carc {

struct HeuristicWeights {
  double low = 1, mean = 0.5, meeple = 3, empty = 6, balance = 12;
  double road_q = 0.8, city_q = 0.75, monastery_q = 0.85, tau = 2, hopeless = 0;

  static std::vector<ParamInfo> params();  // registry entries, defaults as above
  static HeuristicWeights from(const Params& p);
};

struct ScoredMove {
  Move move;
  double value;
};

inline constexpr int kMaxMoves = kMaxPlacements * kMaxSegs;

class HeuristicEvaluator {
 public:
  explicit HeuristicEvaluator(const HeuristicWeights& w);
  ~HeuristicEvaluator();
  // Every (placement, meeple segment) option of the tile in hand with its value; writes
  // at most kMaxMoves entries to `out` and returns the count. `rng` only feeds the
  // scoring order (which may be random).
  int evaluate(const State& s, int type, std::span<const Placement> legal, ScoredMove* out,
               Rng& rng);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace carc
