// Where a player loses, over many games (docs/analysis-format.md, "aggregate"): the
// decisions' losses of every game analysed (sim/analysis/analysis.hpp) summed per game,
// and the per-game sums taken as the independent units. A game's decisions share its
// board, so they are not independent of each other; its games are.
//
// Two means per group of decisions (every decision, a stage, a meeple kind, a stage and
// kind together, a tile type):
//   per game:     the mean over games of the group's loss summed in each game, and its
//                 standard error sd / sqrt(games);
//   per decision: the ratio sum of the group's losses / number of its decisions, and its
//                 standard error by the delta method over games:
//                 sqrt(sum_g (L_g - r n_g)^2 / (G (G - 1))) / mean_g n_g.
// Both for the in-sample loss (biased upwards: a maximum over noisy means) and the held-out
// one. With one game no standard error exists (null in the document).
//
// Played games: analyse_played_games plays the games of a run configuration (as `run`
// plays them: game i of seed s) and analyses each, in parallel over the games; every random
// number comes from (seed, game, decision, rollout), so the result does not depend on the
// thread count.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/analysis/analysis.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

// The aggregate section of the analysis document; `largest`: decisions listed by loss.
nlohmann::ordered_json aggregate_json(const std::vector<GameAnalysis>& games, int largest);
// Its text: totals per game and per decision with 95% CIs, by stage, by meeple kind, the
// costliest situations (stage and kind) and the largest mistakes.
std::string aggregate_summary(const std::vector<GameAnalysis>& games, int largest);

// Plays games rc.first_game .. + rc.games - 1 of rc (its seed, colours, meeples, placement
// and scoring policies) and analyses each with `opt` (opt.placement the analysing player;
// the rollouts' scoring order the games' own when opt.scoring is empty; opt.threads
// threads over the games). Game analysis i has index rc.first_game + i and draws its
// random numbers from (opt.seed, that index, decision, rollout). `logs`, when given,
// receives the games' logs in order. Stopped by opt.stop, it returns the games before the
// first one not analysed to its end (fewer than rc.games; the logs alike): games
// rc.first_game .. + size - 1, as a run of that many games would give them.
std::vector<GameAnalysis> analyse_played_games(const RunConfig& rc, const AnalysisOptions& opt,
                                               std::vector<nlohmann::json>* logs = nullptr);

}  // namespace carc::sim
