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

}  // namespace carc::sim
