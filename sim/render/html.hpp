// A game log (game-log.md) as one self-contained HTML page that steps through the game:
// no network access at all (inline CSS and script, the log embedded as JSON, the board as
// inline SVG from sim/svg.hpp whose tiles and meeples the page's script shows step by step).
//
// Steps as in sim/board_view.hpp: 0 the start tile, k the log's turns[k-1], turns+1 the
// final scoring. Buttons #btn-first/#btn-prev/#btn-next/#btn-last, the keys Home, Left,
// Right, End, and the URL hash (#step=N, #step=last, #steps=next,next,last: those buttons
// clicked in order) pick the step. Stable hooks for tests: <body data-step data-steps>,
// #score-C / #supply-C (data-value) for colour C, #step-label, #scored, #discards, #final.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace carc::sim {

// Throws std::runtime_error when the log is inconsistent (rebuild_board).
std::string replay_html(const nlohmann::json& log);
// The same page with an analysis of the game (`analysis`: one entry of an analysis
// document's "games", docs/analysis-format.md; none: the page above): a loss strip across
// the game (#loss-svg, one .loss-bar per analysed turn with data-step, data-turn,
// data-loss; clicking a turn's slot goes to its step), an "Analysis" panel (#analysis)
// with the played move's rank and loss, and on the board the `ghosts` best moves of the
// step's decision as translucent tiles (<g class="ghost" data-x data-y data-rot
// data-meeple data-rank data-mean>, class "played" for the move played). Throws
// std::runtime_error when the analysis is not of this log.
std::string replay_html(const nlohmann::json& log, const nlohmann::json* analysis, int ghosts = 3);

}  // namespace carc::sim
