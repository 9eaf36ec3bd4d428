// Pictures of tiles and of the board as plain text, for a terminal: `carcsolo advise`'s
// `board` and the tile table of docs/advise.md.
//
// A tile is 3 rows of 3 pixels, NW N NE / W centre E / SW S SE, each pixel a letter and a
// mark. Letters: C city, * city with a pennant, R road, + roads that end at a crossing,
// M monastery, . field. An edge pixel is the edge's kind; the centre is the feature that
// passes through the tile (a road joining two edges, a city joining opposite edges or
// three or four); a corner is C when one city joins the two edges beside it. So F (C*C
// across the middle), G (CCC) and H (C.C), which share the edges F C F C, look apart.
// The mark is a space, or the colour number of the meeple standing on the segment, after
// the segment's first pixel (the monastery's centre, else its first edge in N E S W).
#pragma once
#include <array>
#include <string>

#include "core/state.hpp"

namespace carc::sim {

// Tile `type` turned `rot`: 3 rows of 6 characters. `meeple_seg` kNoSegment: no meeple.
std::array<std::string, 3> tile_text(int type, int rot, int meeple_seg = kNoSegment, int meeple_color = 0);

// The board of `s` around cell (x, y), `radius` cells each way, clipped to the tiles placed:
// a line of x numbers, then 3 lines per board row (y on the middle one), 8 characters a
// cell; the tile at (x, y) between [ and ]; meeples still standing marked with their colour.
std::string board_text(const State& s, int x, int y, int radius);

}  // namespace carc::sim
