// Advice at the table (docs/advise.md): the legal moves of the tile in hand ranked by the
// analysis of `carcsolo analyse` (sim/analysis/analysis.hpp), from the position alone: the
// board, scores, supplies, stack sizes and unseen tiles, never an order of the stacks (at
// the table there is none to see). The random numbers of decision i (the game's i-th
// placement) are those `carcsolo analyse --seed S` uses for decision i of the first game
// of a file, so the advice at a position and the analysis of the game's log there agree
// move for move and value for value.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/analysis/search_analysis.hpp"

namespace carc::sim {

struct AdviceOptions {
  // The analysing player (a placement spec). `search` values the moves by its own search
  // (sim/analysis/search_analysis.hpp: the advice is search's choice); any other player by
  // rollouts to the game's end that it plays (DecisionAnalyser).
  std::string analyser = "search";
  std::string scoring = "best";        // the scoring order of the move's turn and the rollouts
  int rollouts = 32;                   // rollout analysers: continuations per move, >= 1
  int candidates = 8;                  // rollout analysers: the heuristic's K best (0: all)
  std::uint64_t seed = 1;              // the analysis's seed
  PolicyContext context;               // what the analyser is made from (its learned value)
};

class Advisor {
 public:
  // Throws std::invalid_argument for a bad placement or scoring spec.
  explicit Advisor(const AdviceOptions& opt);
  // The moves valued at this decision (State `s` with `type` in hand and its legal
  // placements), best mean first (ties in the heuristic's order); `rank` 0 is the advice.
  // Moves that leave the same position are one move; a move whose placement leaves no free
  // segment, or whose colour has no meeple, has no meeple (Move::kNoMeeple).
  std::vector<MoveEstimate> advise(const State& s, int type, std::span<const Placement> legal);
  const AdviceOptions& options() const { return opt_; }

 private:
  AdviceOptions opt_;
  std::unique_ptr<DecisionAnalyser> analyser_;        // a rollout analyser, or
  std::unique_ptr<SearchDecisionAnalyser> search_;    // search's own valuation
  DecisionAnalysis out_;
};

}  // namespace carc::sim
