// A planted mistake (the analysis bar of docs/analyse.md): a player's game in which one
// decision, at a random place, is swapped for the worst legal move by the analysing
// player's own valuation (every legal move, the lowest mean result), the rest played by the
// player on the board that move leaves; then the game analysed, and the planted decision
// compared with the analysis' largest mistake. Used by tests/test_analyse.cpp and
// tests/tools/planted_mistakes.cpp (scripts/planted_mistakes).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "rng/rng.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/driver/game.hpp"

namespace carc::test {

struct PlantedOptions {
  std::string player = "heuristic", scoring = "best";
  std::uint64_t seed = 1;
  int colors = 3, meeples = 4;
  int first = 0, last = 36;       // the planted decision: uniform in [first, last) of the game's placements
  int plant_rollouts = 64;        // rollouts per legal move of the planting's valuation
  // The planting's valuation: rollouts to the game's end by this player (empty: the
  // analysing player's, when that is no search). With min_cost > 0 the planted move is
  // drawn uniformly from the moves that cost at least min_cost points against the best by
  // that valuation (the decision postponed while there is none); with 0 it is the worst.
  std::string plant_player;
  double min_cost = 0;
  sim::AnalysisOptions analysis;  // the analysis that must find it (its seed apart from the planting's)
};

struct PlantedGame {
  nlohmann::json log;
  int decision = -1, turn = -1;  // the planted decision (-1: the game ended before it)
  int moves = 0;                 // legal moves valued when planting
  double cost = 0;               // best mean - worst mean when planted
  int largest_turn = -1;         // the analysis' largest loss: its turn, loss and standard error
  double largest_loss = 0, largest_stderr = 0;
  double planted_loss = 0, planted_stderr = 0;  // the analysis' loss at the planted turn
  int planted_rank = 0;                          // of the planted loss among the game's (0: largest)
  bool found() const { return decision >= 0 && largest_turn == turn; }
};

// The player, but at decision `target` (a placement) the worst legal move by the analysing
// player's valuation; postponed to the next decision when every move leaves the same value.
class Planter final : public PlacementPolicy {
 public:
  Planter(const PlantedOptions& o, std::uint64_t game, int target)
      : o_(o), game_(game), target_(target), player_(make_placement_policy(o.player)),
        valuer_(canonical_placement(o.plant_player.empty() ? o.analysis.placement : o.plant_player),
                canonical_scoring(o.scoring)) {}
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const Move own = player_->choose(obs, legal, rng);
    if (done.decision >= 0 || decision_++ < target_) return own;
    sim::DecisionAnalysis a;
    valuer_.analyse(obs.state(), obs.tile(), legal, own,
                    sim::decision_key(o_.seed ^ 0x706C616E74ull, game_, decision_ - 1), o_.plant_rollouts, 0, a);
    int worst = 0;
    for (int i = 0; i < int(a.moves.size()); ++i)
      if (a.moves[std::size_t(i)].mean < a.moves[std::size_t(worst)].mean) worst = i;
    const double best = a.moves[std::size_t(a.best)].mean;
    if (o_.min_cost > 0) {  // one of the moves that cost enough, at random
      std::vector<int> costly;
      for (int i = 0; i < int(a.moves.size()); ++i)
        if (best - a.moves[std::size_t(i)].mean >= o_.min_cost) costly.push_back(i);
      if (costly.empty()) return own;  // no such move here: the next decision
      Rng pick(sim::decision_key(o_.seed ^ 0x7069636Bull, game_, decision_ - 1));
      worst = costly[uniform_below(pick, std::uint32_t(costly.size()))];
    }
    const double cost = best - a.moves[std::size_t(worst)].mean;
    if (cost <= 0) return own;  // nothing worse to play here: the next decision
    done.decision = decision_ - 1;
    done.turn = obs.state().turn();
    done.moves = int(a.moves.size());
    done.cost = cost;
    return a.moves[std::size_t(worst)].move;
  }
  PlantedGame done;

 private:
  const PlantedOptions& o_;
  std::uint64_t game_;
  int target_, decision_ = 0;
  std::unique_ptr<PlacementPolicy> player_;
  sim::DecisionAnalyser valuer_;
};

inline PlantedGame planted_game(const PlantedOptions& o, std::uint64_t game) {
  Rng pick(sim::decision_key(o.seed ^ 0x7461726765ull, game, 0));
  const int target = o.first + int(uniform_below(pick, std::uint32_t(o.last - o.first)));
  Planter planter(o, game, target);
  auto scoring = make_scoring_policy(o.scoring);
  PlantedGame g;
  const nlohmann::json log = sim::play_logged_game({{o.colors, o.meeples}, o.seed, game}, planter, *scoring,
                                                   "planted:" + o.player, canonical_scoring(o.scoring));
  g = planter.done;
  g.log = log;
  if (g.decision < 0) return g;
  const sim::GameAnalysis a = sim::analyse_game(log, game, o.analysis);
  const sim::DecisionAnalysis* largest = &a.decisions.front();
  for (const auto& d : a.decisions)
    if (d.loss > largest->loss) largest = &d;
  g.largest_turn = largest->turn;
  g.largest_loss = largest->loss;
  g.largest_stderr = largest->loss_stderr;
  for (const auto& d : a.decisions)
    if (d.turn == g.turn) {
      g.planted_loss = d.loss;
      g.planted_stderr = d.loss_stderr;
    }
  for (const auto& d : a.decisions) g.planted_rank += d.loss > g.planted_loss;
  return g;
}

}  // namespace carc::test
