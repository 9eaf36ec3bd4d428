// The replay page's analysis layer (sim/render/html.hpp): the best moves of each turn as
// ghost tiles, the played move's loss and a loss strip across the game, from one game of an
// analysis document (docs/analysis-format.md).
#pragma once
#include <nlohmann/json.hpp>

#include "sim/log/board_view.hpp"

namespace carc::sim {

// What the page's analysis script reads: per step (as in board_view.hpp) null or the
// decision's loss, played move and its `ghosts` best moves (by rank) with their art keys;
// the art of every (tile, rotation) drawn. Widens v's bounds to the ghosts' cells. Throws
// std::runtime_error when `game` is not an analysis of `log` (a turn the log lacks, or a
// played move other than the log's).
nlohmann::json analysis_view(const nlohmann::json& log, const nlohmann::json& game, int ghosts, BoardView& v);

// The files of sim/render/page/ compiled in (CMakeLists.txt, "The pages' files"): each one's
// text, ending with a newline. analysis.css and analysis.js:
extern const char kAnalysisCss[];
extern const char kAnalysisScript[];
// frame.css, the frame the replay page and the table page share: page, header, main row.
extern const char kPageFrameCss[];

}  // namespace carc::sim
