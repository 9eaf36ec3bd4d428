// The table page: its markup as a literal here, its style and script from the files of
// sim/serve/page/ (compiled in by CMake), and the pictures it needs, built once when the
// server starts. The script keeps no rules: the server says what is legal (state.legal,
// state.drawable), and the page only lets the person pick among it.
#include "sim/serve/page.hpp"

#include <nlohmann/json.hpp>

#include "core/goals.hpp"
#include "core/tiles.hpp"
#include "sim/render/html_analysis.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

// The page's files, their bytes written by CMake into the build's generated/ folder.
const char kCss[] = {
#include "sim/serve/page/table.css.inc"
    '\0'};
// The script in two parts, one <script> in this order; it expects the markup below and the
// #page-data JSON (the pictures, the colours, the aims, the tile names in catalogue order).
// play.js: the board (tiles with their names, coordinates), the advice as one marker per
// cell with its list of moves, the move chosen, the panels.
const char kPlayScript[] = {
#include "sim/serve/page/play.js.inc"
    '\0'};
// keep.js: the game kept across reloads (its id in the address and the browser's storage,
// its log kept after every action), resuming from a log, and the buttons' handlers; it runs
// last and opens the game the address or storage names.
const char kKeepScript[] = {
#include "sim/serve/page/keep.js.inc"
    '\0'};

const char* kBody = R"HTML(
<header><h1>carcsolo at the table</h1><div id="meta">no game yet</div></header>
<main>
<section id="board-wrap"><svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300"></svg>
<div id="cell-moves" class="hidden"></div></section>
<aside>
<h2>Game</h2>
<form id="setup" onsubmit="return false">
<label>colours <select id="in-colors"><option>2</option><option selected>3</option><option>4</option><option>5</option><option>6</option></select></label>
<label>meeples <input type="number" id="in-meeples" min="1" max="12" value="4"></label><br>
<label><input type="radio" name="mode" id="mode-table" value="table" checked> real tiles (say what was drawn)</label><br>
<label><input type="radio" name="mode" id="mode-practice" value="practice"> practice (dealt: seed <input type="number" id="in-seed" min="0" value="1"> game <input type="number" id="in-game" min="0" value="0">)</label><br>
<label>aim <select id="in-aim" class="aim-choice"></select></label><br>
<button id="btn-new" type="button">new game</button>
<button id="btn-undo" type="button" disabled>undo</button><br>
<label class="small">resume a game from its log <input type="file" id="in-log" accept=".json,.jsonl,application/json"></label>
<span class="small muted">(or drop the file on the page)</span>
</form>
<div id="message"></div><div id="notice"></div>
<div id="status" class="muted">Choose colours and meeples, then "new game".</div>
<table id="scoreboard"></table>
<div id="draw-panel" class="hidden"><h2>Tile drawn: click it</h2><div id="palette"></div></div>
<div id="play-panel" class="hidden">
<h2>Tile in hand: click where it went</h2>
<div id="move-row"><svg id="hand" viewBox="0 0 100 100"></svg><div>
<div id="move-text" class="muted">click a cell or a ghost tile on the board</div>
<button id="btn-rot" type="button" disabled>rotate &#x21BB;</button>
<div id="meeple-opts"></div>
<button id="btn-place" type="button" disabled>place</button></div></div>
<h2>Advice</h2><label>playing for <select id="aim" class="aim-choice"></select></label><div id="advice" class="muted"></div>
</div>
<div id="order-panel" class="hidden"><h2>Completed features: the order they score in</h2>
<ol id="order-list"></ol><button id="btn-order" type="button">score in this order</button></div>
<div id="end-panel" class="hidden"><h2>Game over</h2><div id="final"></div>
<p><a id="dl-log" download="carcsolo-game.json" href="#">download the game log</a> ·
<a id="dl-analysis" download="carcsolo-analysis.json" href="#">download its analysis</a></p></div>
</aside>
</main>
)HTML";


std::string script_json(const json& j) {
  std::string s = j.dump();
  for (std::size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  return s;
}

// The lake (R9) as a lake: tile_art draws its water as any river end, so the page lays a
// pond over the end, with its name.
const char* kLakeArt =
    "<g class=\"lake\"><ellipse cx=\"50\" cy=\"52\" rx=\"33\" ry=\"24\" fill=\"#4a90c8\" stroke=\"#2c6a9e\" "
    "stroke-width=\"2\"/><text x=\"50\" y=\"58\" fill=\"#ffffff\" text-anchor=\"middle\" "
    "style=\"font:bold 16px 'DejaVu Sans',Arial,sans-serif\">lake</text></g>";

// The pictures: every tile in every rotation, a meeple of each colour at (0,0), the style;
// the tile names in the catalogue's order (A..X, I1..I17, R0..R9), the picker's order.
json page_data() {
  json art = json::object(), meeple = json::array(), large = json::array(), colors = json::array();
  json order = json::array();
  for (int t = 0; t < kTileTypes; ++t) {
    order.push_back(std::string(tile_name(t)));
    for (int rot = 0; rot < 4; ++rot)
      art[std::string(tile_name(t)) + std::to_string(rot)] = tile_art(t, rot) + (t == kLakeType ? kLakeArt : "");
  }
  for (int c = 0; c < 6; ++c) {
    meeple.push_back(meeple_svg(c, {0, 0}, ""));
    large.push_back(meeple_svg(c, {0, 0}, "", "meeple", true));
    colors.push_back({{"name", kColorStyles[c].name}, {"fill", kColorStyles[c].fill}});
  }
  json aims = json::array({"score", "goals"});
  for (const std::string_view g : kGoalIds) aims.push_back(std::string(g));
  return {{"art", art}, {"meeple", meeple}, {"large", large}, {"colors", colors}, {"style", tile_style()}, {"aims", aims},
          {"order", order}};
}

}  // namespace

std::string table_page() {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<title>carcsolo at the table</title>\n<link rel=\"icon\" href=\"data:,\">\n";
  h += "<style>\n" + std::string(kAnalysisCss) + "\n" + kPageFrameCss + "\n" + kCss +
       "</style>\n</head>\n<body data-ready=\"0\">";
  h += kBody;
  h += "<script type=\"application/json\" id=\"page-data\">" + script_json(page_data()) + "</script>\n";
  h += "<script>\n" + std::string(kPlayScript) + "\n" + kKeepScript + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace carc::sim
