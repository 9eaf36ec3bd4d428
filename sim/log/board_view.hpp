// The board of a game log (game-log.md) rebuilt from the log alone, for pictures: where
// every tile lies, where every meeple stood and when it went home, and which tiles made up
// each scored feature. Only the log and the tile catalogue are used, so any log of the
// format can be drawn, whichever program wrote it.
//
// Steps number the log's events: step 0 is the start tile, step k (1..turns) is the log's
// turns[k-1] (a placement or a discard), step turns+1 is the final scoring.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace carc::sim {

struct ViewTile {
  int type = 0, x = 0, y = 0, rot = 0;
  int step = 0;   // the step that placed it (0: the start tile)
  int turn = -1;  // the log's turn number (-1: the start tile)
  int color = -1; // the colour that placed it (-1: the start tile)
};

struct ViewMeeple {
  int color = 0;
  int tile = 0;  // index into BoardView::tiles
  int seg = 0;   // segment index of the tile type (core/tiles.hpp)
  int placed_step = 0;
  int returned_step = -1;  // the step whose scoring sent it home; -1: on the board at the end
  bool large = false;      // the large meeple (expansions.md)
};

struct ViewSegment {
  int tile = 0, seg = 0;
};

struct BoardView {
  int colors = 0;
  int steps = 0;  // turns + 2 (start, every turn entry, final scoring)
  std::vector<ViewTile> tiles;  // in placing order, the start tile first
  std::vector<ViewMeeple> meeples;  // in placing order
  // scored[k][j]: the segments of the j-th feature scored at step k, in the log's order.
  std::vector<std::vector<std::vector<ViewSegment>>> scored;
  int min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  // The log's policies as captions show them: only the parameters that differ from their
  // defaults (short_placement_spec); "?" when the log names none.
  std::string placement = "?", scoring = "?";
};

// Throws std::runtime_error naming the turn when the log is not a consistent game: an
// unknown tile or segment, a tile on an occupied or unconnected cell, edges that do not
// match, an `edges` string that disagrees with the tile and rotation, scored features that
// the board does not complete, or meeples left over that final_scoring does not list.
BoardView rebuild_board(const nlohmann::json& log);

}  // namespace carc::sim
