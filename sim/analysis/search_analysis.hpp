// A decision valued by the strong player's own search (policies/search.hpp) instead of
// rollouts to the game's end by a weaker player: the moves are those `search` gave
// rollouts (its beam) and the move played, valued on the same re-deals as search's choice;
// the loss of the played move is paired with the choice over every deal the choice saw;
// the held-out loss measures the two again on fresh deals that played no part in the
// choice. The values are search's: the heuristic's value of the position a few turns on,
// an estimate of the lowest final score in points. Every random number comes from the
// decision's key, so the analysis of a decision is a function of (position, key, spec).
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "policies/search.hpp"
#include "sim/analysis/analysis.hpp"

namespace carc::sim {

// Whether `spec` (canonical or not) names the placement policy `search`: such an analysing
// player values decisions by its own search.
bool is_search_spec(const std::string& spec);

class SearchDecisionAnalyser {
 public:
  explicit SearchDecisionAnalyser(const std::string& spec, const PolicyContext& context = PolicyContext{});
  // As DecisionAnalyser::analyse: fills out.moves (search's ranking, the choice first),
  // played, best (0, the choice), loss and its standard error, the held-out loss on
  // `heldout` fresh deals (0: the in-sample loss again), own (the choice) and own_loss (the
  // loss). `played` may be Move::none() (advice): the losses are then 0 and played -1.
  void analyse(const State& s, int type, std::span<const Placement> legal, Move played, std::uint64_t key,
               int heldout, DecisionAnalysis& out);

 private:
  SearchValuer valuer_;
  SearchReport report_;
};

}  // namespace carc::sim
