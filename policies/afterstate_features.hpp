// The features of an afterstate, the input of a learned value (policies/value_net.hpp) and
// the feature columns of `carcsolo positions` (docs/positions-format.md lists them). One
// definition for both, so a value plays on exactly the numbers it was trained on.
//
// The afterstate of a decision is the State after the colour's placement, meeple and the
// scoring of what it completed, and after State::end_turn (which only decides whether the
// game ended and whose turn is next), before the next draw. The features read nothing but
// that State, which holds what a player may know (board, scores, supplies, stack sizes,
// unseen tile counts) and never the order of the stacks.
//
// Colour slots: slot i (0..5) is colour (mover + 1 + i) mod k, so slot 0 is the colour after
// the mover in turn order and slot k-1 the mover; slots k..5 are zero.
#pragma once
#include <string>
#include <vector>

#include "core/state.hpp"
#include "policies/heuristic/heuristic.hpp"

namespace carc {

// Feature columns: 8 of the position, 24 unseen counts (base tile types A..X: the learned
// value is of the base set), then 7 per-colour
// quantities, each over the 6 slots (quantity-major: score_0..score_5, supply_0..supply_5, ...).
inline constexpr int kAfterstateGlobal = 8;
inline constexpr int kAfterstatePerSlot = 7;
inline constexpr int kAfterstateFeatures =
    kAfterstateGlobal + kBaseTypes + kAfterstatePerSlot * kMaxColors;
static_assert(kAfterstateFeatures == 74,
              "a change of columns is a new positions format and a new value format");

// The board block, after those 74 (the second feature set: a value that sees the board's
// local structure, docs/positions-format.md): 5 of the frontier (open cells, those with two
// and with three or four neighbours, those no unseen tile fits, the mean share of unseen
// tiles that fit an open cell), then 5 per-colour quantities over the 6 slots (figures on
// unfinished roads, cities and monasteries; the open edges of the features its figures
// stand on, a monastery's empty neighbours counted as its open edges; the tiles of the
// unfinished features it leads, alone or tied).
inline constexpr int kBoardGlobal = 5;
inline constexpr int kBoardPerSlot = 5;
inline constexpr int kBoardFeatures = kBoardGlobal + kBoardPerSlot * kMaxColors;
inline constexpr int kAfterstateFeaturesBoard = kAfterstateFeatures + kBoardFeatures;
static_assert(kAfterstateFeaturesBoard == 109);

// A feature set's width: 74 (the first) or 109 (with the board block); a net's inputs must be one.
constexpr bool known_feature_width(int n) { return n == kAfterstateFeatures || n == kAfterstateFeaturesBoard; }

// Column names, in order: the 74, then with `board` the board block's 35.
std::vector<std::string> afterstate_feature_columns(bool board = false);

// The features of afterstates. Keeps the heuristic evaluator's tables (default weights):
// one per thread. extract() allocates nothing.
class AfterstateFeatures {
 public:
  AfterstateFeatures();
  // kAfterstateFeatures floats for `after`, the afterstate of colour `mover`'s decision;
  // with `board`, kAfterstateFeaturesBoard (the board block after them).
  void extract(const State& after, int mover, float* out, bool board = false);

 private:
  HeuristicEvaluator eval_;
};

}  // namespace carc
