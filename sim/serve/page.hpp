// The table page (docs/serve.md): one self-contained HTML document, no network access but
// its own server's API. Its tile and meeple pictures are the replay page's
// (sim/render/svg.hpp: tile_art, meeple_svg), embedded as JSON, and its ghost tiles wear
// the replay page's ghost style (sim/render/html_analysis.hpp).
//
// Stable hooks for tests: <body data-phase data-turn data-to-move data-actions data-busy data-advice
// data-ready>,
// .pick[data-tile] (the tile pictures to tell a draw), .target[data-x][data-y] (cells
// where the tile in hand fits), .ghost[data-rank] (the advice), #btn-rot, .meeple-opt
// [data-meeple], #btn-place, #btn-order, #btn-undo, #btn-new, #dl-log, #dl-analysis,
// #score-C, #supply-C, #message.
#pragma once
#include <string>

namespace carc::sim {

std::string table_page();

}  // namespace carc::sim
