// Pictures of a game: the final board of a game log (game-log.md) as SVG text drawn by
// the program itself (fields, cities with walls and pennants, roads, monasteries, meeples),
// and PNG through Debian's rsvg-convert when it is installed.
//
// Geometry: a tile is 100 x 100 SVG units; board cell (x, y) is drawn at
// ((x - min_x) * 100 + margin, (y - min_y) * 100 + margin), so north is up (y grows to the
// south, as in the log). Every shape is placed from the segment's rotated edges
// (core/tiles.hpp kOriented), never by rotating a picture of the tile.
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "sim/log/board_view.hpp"

namespace carc::sim {

struct ColorStyle {
  const char* name;  // shown in captions and on the HTML page
  const char* fill;
};
// Colour c of a game is drawn as kColorStyles[c].
inline constexpr ColorStyle kColorStyles[6] = {{"red", "#d7301f"},   {"blue", "#2166ac"},
                                               {"yellow", "#f1c40f"}, {"black", "#252525"},
                                               {"purple", "#8e44ad"}, {"orange", "#e67e22"}};

struct SvgOptions {
  bool turn_numbers = false;      // each placed tile shows the log's turn number
  bool returned_meeples = false;  // meeples that went home are drawn faintly where they stood
  // For the HTML page (sim/html.hpp): no caption, no fixed size, every meeple and every
  // turn label present (the page's script shows those of the current step).
  bool page = false;
};

// The board after the game, with a caption (seed, policies, scores, result, end reason).
// Elements carry data for tests and for the page: `<g class="tile" data-step=...>` once per
// tile on the board (the start tile included), `<g class="meeple" data-color=...
// data-from=STEP data-until=STEP|-1>` per meeple, `<tspan id="caption-score-C"
// data-score=...>`. Throws std::runtime_error when the log is inconsistent (rebuild_board).
std::string board_svg(const nlohmann::json& log, const SvgOptions& opt = {});
std::string board_svg(const nlohmann::json& log, const BoardView& view, const SvgOptions& opt);

// One tile type in a rotation, as SVG elements covering (0,0)-(100,100), north up.
std::string tile_art(int type, int rot);
// The <style> element that tile_art's and meeple_svg's classes need inside an <svg>.
std::string tile_style();
// Where a meeple on segment `seg` of `type` turned `rot` stands, in tile units.
struct Point {
  double x, y;
};
Point meeple_spot(int type, int rot, int seg);
// A meeple of colour c standing at (x, y): a <g class="CLS" ATTRS> (attrs start with a space).
// `large`: the large meeple (expansions.md), drawn half as large again.
std::string meeple_svg(int color, Point at, const std::string& attrs, const std::string& cls = "meeple",
                       bool large = false);

// True when rsvg-convert (Debian package librsvg2-bin) is on PATH.
bool rsvg_convert_available();
// PNG bytes of an SVG document, through rsvg-convert. Throws std::runtime_error with one
// line (naming the package to install when rsvg-convert is missing).
std::string svg_to_png(const std::string& svg);

std::string xml_escape(const std::string& s);

}  // namespace carc::sim
