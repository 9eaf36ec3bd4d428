// The table page: its style and markup as literals here, its script from page_play.cpp and
// page_keep.cpp, and the pictures it needs, built once when the server starts. The script
// keeps no rules: the server says what is legal (state.legal, state.drawable), and the page
// only lets the person pick among it.
#include "sim/serve/page.hpp"

#include <nlohmann/json.hpp>

#include "core/goals.hpp"
#include "core/tiles.hpp"
#include "sim/render/html_analysis.hpp"
#include "sim/render/svg.hpp"
#include "sim/serve/page_script.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

const char* kCss = R"CSS(
#board-wrap{flex:1 1 auto;min-width:0;border:1px solid #ccc;border-radius:6px;padding:6px;background:#f4f1e8;position:relative}
body.dropping #board-wrap{outline:3px dashed #2166ac}
#board{width:100%;height:auto;max-height:calc(100vh - 90px);display:block}
aside{flex:0 0 400px;background:#fff;border:1px solid #ccc;border-radius:6px;padding:10px}
h2{font-size:14px;margin:12px 0 4px;border-bottom:1px solid #ddd}
button{padding:5px 8px;font-size:14px;cursor:pointer;border:1px solid #888;border-radius:4px;background:#f8f8f8}
button:hover{background:#e8eefc}
button:disabled{opacity:.4;cursor:default}
button.on{background:#cfe0ff;border-color:#2166ac}
table{border-collapse:collapse;width:100%}
td,th{padding:2px 6px;text-align:left;border-bottom:1px solid #eee}
td.num,th.num{text-align:right}
tr.to-move td:first-child{outline:2px solid #666;outline-offset:-2px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:50%;border:1px solid #333;margin-right:5px;vertical-align:-1px}
#palette{display:grid;grid-template-columns:repeat(8,1fr);gap:3px}
.pick{padding:2px;position:relative}
.pick svg{width:100%;height:auto;display:block}
.pick .count,.pick .name{position:absolute;font-size:11px;background:#fff;border-radius:3px;padding:0 2px;line-height:1.2}
.pick .count{right:3px;bottom:2px}
.pick .name{left:3px;top:2px;font-weight:bold}
#hand{width:90px;height:90px;border:1px solid #999}
#move-row{display:flex;gap:10px;align-items:flex-start}
#meeple-opts{display:flex;flex-wrap:wrap;gap:4px;margin:4px 0}
.target{fill:#ffffff;fill-opacity:.35;stroke:#2166ac;stroke-width:2;stroke-dasharray:6 4;cursor:pointer}
.target:hover{fill-opacity:.7}
.target.chosen{stroke:#d7301f;stroke-width:4;stroke-dasharray:none}
.ghost{cursor:pointer}
#ghosts .ghost-frame{pointer-events:all}
.ghost-more{opacity:.9}
.ghost-more .ghost-frame{fill:#ffffff;fill-opacity:.2;stroke-width:3}
.label{cursor:pointer}
.label-box{fill:#ffffff;fill-opacity:.92;stroke:#1f3fbf;stroke-width:1.2}
.label .value{font:bold 14px "DejaVu Sans",Arial,sans-serif;fill:#1f3fbf;text-anchor:middle}
.label .more{fill:#d7301f}
.axis{font:16px "DejaVu Sans",Arial,sans-serif;fill:#555;text-anchor:middle}
.axis.on{fill:#d7301f;font-weight:bold}
.tile-name{font:bold 13px "DejaVu Sans",Arial,sans-serif;fill:#222;stroke:#fff;stroke-width:3;paint-order:stroke}
#hover,#labels .value{pointer-events:none}
.hl{opacity:.9}
.hl-frame{fill:none;stroke:#ff8c00;stroke-width:6}
#cell-moves{position:absolute;z-index:5;display:flex;flex-direction:column;gap:3px;max-width:380px;background:#fff;
  border:1px solid #2166ac;border-radius:6px;padding:6px;box-shadow:0 2px 8px rgba(0,0,0,.25)}
#cell-moves button{text-align:left;font-size:13px}
tr.advice-row{cursor:pointer}
tr.advice-row:hover td{background:#fff3d6}
.small{font-size:12px}
#pending{pointer-events:none}
#pending .frame{fill:none;stroke:#d7301f;stroke-width:5}
.muted{color:#777}
#message{min-height:1.4em;color:#a02020}
#notice{color:#1f6f2f}
#order-list li{margin-bottom:3px}
.hidden,#cell-moves.hidden{display:none}
form#setup label{display:inline-block;margin:0 8px 4px 0}
form#setup input[type=number]{width:70px}
)CSS";

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
  h += "<style>" + std::string(kAnalysisCss) + kPageFrameCss + kCss + "</style>\n</head>\n<body data-ready=\"0\">";
  h += kBody;
  h += "<script type=\"application/json\" id=\"page-data\">" + script_json(page_data()) + "</script>\n";
  h += "<script>" + std::string(kTablePlayScript) + kTableKeepScript + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace carc::sim
