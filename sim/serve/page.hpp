// The table page (docs/serve.md): one self-contained HTML document, no network access but
// its own server's API. Its tile and meeple pictures are the replay page's
// (sim/render/svg.hpp: tile_art, meeple_svg), embedded as JSON, and its ghost tiles wear
// the replay page's ghost style (sim/render/html_analysis.hpp).
//
// Stable hooks for tests: <body data-phase data-turn data-to-move data-actions data-busy
// data-advice data-ready data-game data-sel (the move chosen: "x,y,rot,meeple,large")
// data-kept (the actions count of the log last kept in storage)>, .pick[data-tile] (the tile
// pictures to tell a draw), .target[data-x][data-y] (cells where the tile in hand fits),
// .ghost[data-x][data-y][data-rank][data-ranks] (one marker per advised cell: its best rank,
// all its ranks), .label (a marker's "rank · value"), .cell-move[data-rank] (a marker's list
// of its cell's moves), .advice-row[data-rank], #rank-rule, .axis-x, .axis-y, .tile-name,
// #hover, #btn-rot, .meeple-opt[data-meeple], #btn-place, #btn-order, #btn-undo, #btn-new,
// #in-log (a log file to resume), #dl-log, #dl-analysis, #score-C, #supply-C, #message,
// #notice.
#pragma once
#include <string>

namespace carc::sim {

std::string table_page();

}  // namespace carc::sim
