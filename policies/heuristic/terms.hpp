// The terms of the heuristic's value of a move (the formula is in heuristic.hpp), one
// function each. Their inputs are what the evaluator reads off the position after the
// move: scores, supplies, the points each colour can expect from the unfinished features
// it leads and the expected returns of meeples on the board, the board around the placed
// tile, and the unseen tiles. A penalty is returned as a negative value.
#pragma once
#include <algorithm>
#include <array>
#include <limits>

#include "core/state.hpp"
#include "policies/heuristic/heuristic.hpp"
#include "policies/placement_analysis.hpp"

namespace carc::heuristic {

// low * min_c E_c + mean * mean_c E_c, with E_c = score of colour c plus the points it can
// expect (`expect`); once the game has ended, the scores alone.
inline double expected_scores_term(const HeuristicWeights& w, int colors, const int* score,
                                   const double* expect, bool ended) {
  double lo = std::numeric_limits<double>::max(), sum = 0;
  for (int c = 0; c < colors; ++c) {
    const double e = score[c] + (ended ? 0 : expect[c]);
    lo = std::min(lo, e);
    sum += e;
  }
  return w.low * lo + w.mean * sum / colors;
}

// meeple * (meeples in all supplies) + the expected returns of meeples on the board (those
// are already valued: meeple * chance of return within `horizon` draws, per meeple).
inline double supply_term(double meeple_w, int in_supply, double returns) {
  return meeple_w * in_supply + returns;
}

// -empty per colour whose supply is empty (its next forced meeple ends the game).
inline double empty_term(double empty_w, int empty_supplies) { return -(empty_w * empty_supplies); }

// -one per colour with exactly one meeple in supply.
inline double one_term(double one_w, int single_supplies) { return -(one_w * single_supplies); }

// -urgent when the next colour to move has an empty supply (else -0.0: adding it leaves
// any sum as subtracting nothing would).
inline double urgent_term(double urgent_w, bool next_empty) {
  return next_empty ? -urgent_w : -0.0;
}

// compact per tile among the 8 cells around the placed tile.
inline double compact_term(const HeuristicWeights& w, int tiles_around) {
  return w.compact * tiles_around;
}

// sink * the change in the open road/city edges of features holding meeples, in two parts.
// The placement's: the occupied features the tile belongs to afterwards count their open
// edges, the occupied board features it joins no longer count theirs.
inline double sink_placement(double sink_w, const State& s, const PlacementEffect& e) {
  double edges = 0;
  for (int i = 0; i < e.n_feats; ++i) {
    const JoinedFeature& f = e.feats[i];
    if (f.kind == SegKind::monastery) continue;
    if (f.meeple_total) edges += sink_w * f.open;
    for (int r = 0; r < f.n_roots; ++r) {
      const Feature& before = s.feature(f.roots[r]);
      if (before.meeple_total) edges -= sink_w * before.open;
    }
  }
  return edges;
}
// The whole term: plus the open edges of the feature the meeple goes to (none: nullptr).
inline double sink_term(double placement_part, double sink_w, const JoinedFeature* meeple_on) {
  if (meeple_on && meeple_on->kind != SegKind::monastery)
    return placement_part + sink_w * meeple_on->open;
  return placement_part;
}

// The large meeple's weight on a feature that an occupied feature faces (heuristic.hpp):
// the expected-scores term with `with_large` (the expected points per colour when each
// facing feature's joined points go to the majority the large meeple gives) less the
// term as the meeple leaves it (`scores`).
inline double large_term(const HeuristicWeights& w, int colors, const int* score,
                         const double* with_large, double scores) {
  return expected_scores_term(w, colors, score, with_large, false) - scores;
}

// absorb_w * the share of the unseen tiles the next colour could place with no free
// segment.
inline double absorb_term(double absorb_w, int absorbing_unseen, int unseen_total) {
  return absorb_w * absorbing_unseen / unseen_total;
}

// The weight of `absorb`: times 1 + absorb_empty when the next colour's supply is empty.
inline double absorb_weight(const HeuristicWeights& w, bool next_empty) {
  return w.absorb * (next_empty ? 1 + w.absorb_empty : 1);
}

}  // namespace carc::heuristic
