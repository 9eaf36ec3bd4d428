// The `heuristic` placement policy's evaluation, shared with look-ahead policies that rank
// candidate moves by it.
//
// A position is valued as a good player would weigh it:
//   low * min_c E_c + mean * mean_c E_c      E_c = score of colour c plus the points it can
//                                            expect from unfinished features it leads
//   + meeple * (meeples in supply + expected returns of meeples on the board)
//   - empty * (colours whose supply is empty: their next forced meeple ends the game)
//   - one * (colours with a single meeple in supply)
//   - urgent (when the next colour to move has an empty supply: its tile ends the game
//             unless it has a placement with no free segment)
//   + absorb * (share of the unseen tiles that the next colour could place with no free
//             segment: some open cell where the tile fits and each of its road/city
//             segments touches a side whose feature holds a meeple; read per open cell
//             from a table over (cell constraint, occupied sides), the cells beside the
//             placed tile as the move leaves them), times 1 + absorb_empty when the
//             next colour's supply is empty (then a tile it cannot so place ends the game)
//   + sink * (open road/city edges of features holding meeples: a tile put there joins an
//             occupied feature, so it may need no meeple; a colour must place one whenever
//             the tile has a free segment, and meeple economy decides how long games last)
//   + large (only a move that places the large meeple, expansions.md): the change its
//             weight of 2 makes to the expected-scores term where it can decide a majority:
//             for each occupied feature of the same kind that faces the figure's feature
//             across an empty cell beside the tile (a later tile there joins them), the
//             joined feature's points times `large_merge` go to the majority the weights
//             give with the large meeple instead of with a meeple. A colour holding both
//             figures is offered the large meeple only on such a feature (elsewhere its
//             weight changes nothing, and it stays in supply); a colour whose only figure
//             is the large meeple places it as it would a meeple.
// A feature's points are at the rates of its marks (expansions.md). A move that completes
// one scores it exactly (an inn road 2 per tile, a cathedral city 3 per tile and pennant).
// An unfinished one is expected at `inn` per tile and `cathedral` per tile and pennant,
// times the chances below like any feature: the solo variant drops the usual final
// scoring, so one left unfinished scores nothing, as any other, and the risk is that of
// not finishing. The defaults (1.5 and 1) lie below the rules' rates: measured, the
// chances alone underprice that risk (a cathedral's four city edges make its city rarely
// finish, and its meeples stay).
// Whether an unfinished feature finishes is read off the unseen tiles (their multiset,
// never their order): for every open cell beside it, the number c of unseen tiles that
// would end the feature there (fit the cell and open nothing new on that side). With T
// tiles unseen, the cell is closed within h draws with chance 1 - (1 - c/T)^h; a feature
// finishes with q^sides times the product over its open sides (q per kind: roads, cities;
// a monastery: q^empty cells around it). A meeple's return is counted with h = `horizon`
// (a meeple back late is worth little), the points with h = `points_horizon`.
// A cell that no unseen tile can close (for a monastery: fill) makes the feature
// hopeless. The points go to the majority colours, weighted by exp(-gap / balance) for
// the nearest of them to the lowest score (a feature scores only when a majority colour
// is lowest). As the aggregate is the minimum of expected scores, setting up points for
// the lowest colour and sharing features between colours are worth most. Moves that
// complete something are valued with their exact scores and supplies after the turn
// (scored in the "best" order); no move is played on a State copy. A small bonus per tile
// around the placed one (`compact`) keeps the board snug, which finishes monasteries and
// features.
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
  double low = 0.5, mean = 0.5, meeple = 2, empty = 6, one = 1, balance = 12, share = 0;
  double compact = 0.3, sink = 0.25, urgent = 5, absorb = 10, absorb_empty = 1;
  double horizon = 3, points_horizon = 30, road_q = 0.95, city_q = 0.82, monastery_q = 0.75;
  // The expansions' terms (each changes nothing in a base game without the large meeple).
  // An unfinished inn road and cathedral city are expected at less than the rules' 2 and 3:
  // paired runs on base+inns with the large meeple (docs/policies.md) found the rules'
  // rates overvalue them (a cathedral city rarely finishes and holds its meeples).
  double inn = 1.5, cathedral = 1, large_merge = 1, large_monastery = 0;

  static std::vector<ParamInfo> params();  // registry entries, defaults as above
  static HeuristicWeights from(const Params& p);
};

// The value of one move in its terms (policies/heuristic/terms.hpp has one function each);
// evaluate() gives total(). Penalties are negative.
struct HeuristicTerms {
  double scores = 0;   // low * min_c E_c + mean * mean_c E_c
  double supply = 0;   // meeple * (meeples in supply) + expected returns of those on the board
  double empty = 0;    // -empty per colour with an empty supply
  double one = 0;      // -one per colour with one meeple in supply
  double urgent = 0;   // -urgent when the next colour's supply is empty
  double compact = 0;  // compact per tile around the placed one
  double sink = 0;     // sink * change in open edges of features with meeples
  double absorb = 0;   // absorb (weighted) * share of unseen tiles placeable with no free segment
  double large = 0;    // the large meeple's weight where it decides a majority (0: a meeple)
  bool ended = false;  // the move ends the game: supply, empty, one and urgent do not count
  // The grouping is part of the definition: it fixes the rounding, so that equal moves
  // tie exactly.
  double total() const {
    double v = scores;
    if (!ended) v += ((supply + empty) + one) + urgent;
    return (v + compact) + (sink + absorb) + large;  // + 0 leaves a value as it was
  }
};

struct ScoredMove {
  Move move;
  double value;
};

// What the evaluation reads off a position as it stands, with no move to make (an
// afterstate, say): the per-colour parts of its terms, computed afresh for the position. (A
// move's terms compute them as changes to the position before the move, which can differ
// from the afterstate's own: a meeple placed on a feature, say, changes what open cells far
// from the tile absorb.)
struct PositionExpectations {
  // Per colour (past colors(): 0): the points it can expect from the unfinished features it
  // leads (E_c of the formula less the colour's score)...
  std::array<double, kMaxColors> points{};
  // ...and the meeples it can expect back within `horizon` draws: the sum, over its meeples
  // on the board, of their chances of return. `meeple` times their sum over the colours is
  // the returns part of the supply term.
  std::array<double, kMaxColors> returns{};
  // The share of the unseen tiles that the colour to move could place with no free segment
  // (the `absorb` term before its weight); 0 when no tile is unseen.
  double absorb_share = 0;
};

// A placement's options: no meeple or one per free segment, and the large meeple on each.
inline constexpr int kMaxMoves = kMaxPlacements * kMaxSegs * 2;

class HeuristicEvaluator {
 public:
  explicit HeuristicEvaluator(const HeuristicWeights& w);
  ~HeuristicEvaluator();
  // Every (placement, meeple segment) option of the tile in hand with its value, and the
  // large meeple's options where it is offered (`large` above); writes at most kMaxMoves
  // entries to `out` and returns the count. Draws nothing from `rng`
  // (kept in the signature for evaluators that might).
  int evaluate(const State& s, int type, std::span<const Placement> legal, ScoredMove* out,
               Rng& rng);
  // The terms of one move of the tile in hand (`m.at` one of its legal placements). When
  // the placement takes no meeple (no free segment, or an empty supply), `m.seg` is
  // ignored; otherwise it must be one of the free segments. `m.large` where the large
  // meeple is not offered gives the meeple's terms (its weight changes nothing there).
  HeuristicTerms terms(const State& s, int type, const Move& m);
  // The per-colour expectations of the position `s` itself (no tile in hand). Allocates
  // nothing; leaves every value evaluate() and terms() give as it was.
  PositionExpectations expectations(const State& s);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace carc
