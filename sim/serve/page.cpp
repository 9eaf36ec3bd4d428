// The table page as three literals (style, markup, script) and the pictures it needs,
// built once when the server starts. The script keeps no rules: the server says what is
// legal (state.legal), and the page only lets the person pick among it.
#include "sim/serve/page.hpp"

#include <nlohmann/json.hpp>

#include "core/goals.hpp"
#include "core/tiles.hpp"
#include "sim/render/html_analysis.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

const char* kCss = R"CSS(
#board-wrap{flex:1 1 auto;min-width:0;border:1px solid #ccc;border-radius:6px;padding:6px;background:#f4f1e8}
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
#palette{display:grid;grid-template-columns:repeat(6,1fr);gap:4px}
.pick{padding:2px;position:relative}
.pick svg{width:100%;height:auto;display:block}
.pick .count{position:absolute;right:3px;bottom:2px;font-size:11px;background:#fff;border-radius:3px;padding:0 2px}
#hand{width:90px;height:90px;border:1px solid #999}
#move-row{display:flex;gap:10px;align-items:flex-start}
#meeple-opts{display:flex;flex-wrap:wrap;gap:4px;margin:4px 0}
.target{fill:#ffffff;fill-opacity:.35;stroke:#2166ac;stroke-width:2;stroke-dasharray:6 4;cursor:pointer}
.target:hover{fill-opacity:.7}
.target.chosen{stroke:#d7301f;stroke-width:4;stroke-dasharray:none}
.ghost{cursor:pointer}
.ghost .value{font:bold 15px "DejaVu Sans",Arial,sans-serif;fill:#fff;stroke:#1f3fbf;stroke-width:.6;text-anchor:middle}
#pending{pointer-events:none}
#pending .frame{fill:none;stroke:#d7301f;stroke-width:5}
.muted{color:#777}
#message{min-height:1.4em;color:#a02020}
#order-list li{margin-bottom:3px}
.hidden{display:none}
form#setup label{display:inline-block;margin:0 8px 4px 0}
form#setup input[type=number]{width:70px}
)CSS";

const char* kBody = R"HTML(
<header><h1>carcsolo at the table</h1><div id="meta">no game yet</div></header>
<main>
<section id="board-wrap"><svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300"></svg></section>
<aside>
<h2>Game</h2>
<form id="setup" onsubmit="return false">
<label>colours <select id="in-colors"><option>2</option><option selected>3</option><option>4</option><option>5</option><option>6</option></select></label>
<label>meeples <input type="number" id="in-meeples" min="1" max="12" value="4"></label><br>
<label><input type="radio" name="mode" id="mode-table" value="table" checked> real tiles (say what was drawn)</label><br>
<label><input type="radio" name="mode" id="mode-practice" value="practice"> practice (dealt: seed <input type="number" id="in-seed" min="0" value="1"> game <input type="number" id="in-game" min="0" value="0">)</label><br>
<label>aim <select id="in-aim" class="aim-choice"></select></label><br>
<button id="btn-new" type="button">new game</button>
<button id="btn-undo" type="button" disabled>undo</button>
</form>
<div id="message"></div>
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

const char* kScript = R"JS(
"use strict";
const D = JSON.parse(document.getElementById("page-data").textContent);
const NS = "http://www.w3.org/2000/svg", GHOSTS = 3;
const $ = (id) => document.getElementById(id);
const board = $("board");
let gameId = null, st = null, advice = null, sel = null, order = [], busy = 0;

function swatch(c) { return '<span class="swatch" style="background:' + D.colors[c].fill + '"></span>'; }
function who(c) { return swatch(c) + D.colors[c].name; }
function message(t) { $("message").textContent = t || ""; }
function setBusy(d) { busy += d; document.body.dataset.busy = busy > 0 ? "1" : "0"; }

async function api(method, path, body) {
  setBusy(1);
  try {
    const r = await fetch(path, {method, headers: body ? {"Content-Type": "application/json"} : {},
                                 body: body ? JSON.stringify(body) : undefined});
    const j = await r.json();
    if (!r.ok) { message(j.error || "error " + r.status); return null; }
    message("");
    return j;
  } catch (e) {
    message("the server did not answer (" + e.message + ")");
    return null;
  } finally {
    setBusy(-1);
  }
}

function el(tag, attrs, html) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (html) e.innerHTML = html;
  return e;
}
function tileAt(x, y, art, cls) { return el("g", {class: cls, transform: "translate(" + 100 * x + " " + 100 * y + ")"}, art); }
function meepleAt(c, x, y, spot, large) {
  return el("g", {transform: "translate(" + (100 * x + spot.x) + " " + (100 * y + spot.y) + ")"},
            (large ? D.large : D.meeple)[c]);
}

function renderBoard() {
  board.replaceChildren();
  board.insertAdjacentHTML("afterbegin", D.style);
  const cells = st.board.map((t) => [t.x, t.y]).concat((st.legal || []).map((c) => [c.x, c.y]));
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const x0 = Math.min(...xs) - 0.3, y0 = Math.min(...ys) - 0.3;
  const w = Math.max(...xs) - x0 + 1.3, h = Math.max(...ys) - y0 + 1.3;
  board.setAttribute("viewBox", [100 * x0, 100 * y0, 100 * w, 100 * h].join(" "));
  const tiles = el("g", {id: "tiles"}), meeples = el("g", {id: "meeples"});
  for (const t of st.board) {
    const g = tileAt(t.x, t.y, D.art[t.tile + t.rot], "tile");
    g.dataset.x = t.x; g.dataset.y = t.y; g.dataset.tile = t.tile; g.dataset.rot = t.rot;
    tiles.appendChild(g);
    if (t.meeple) meeples.appendChild(meepleAt(t.meeple.color, t.x, t.y, t.meeple.spot, t.meeple.large));
  }
  board.append(tiles, meeples);
  const targets = el("g", {id: "targets"});
  for (const c of st.legal || []) {
    const r = el("rect", {class: "target", x: 100 * c.x + 3, y: 100 * c.y + 3, width: 94, height: 94});
    r.dataset.x = c.x; r.dataset.y = c.y;
    r.addEventListener("click", () => chooseCell(c.x, c.y));
    targets.appendChild(r);
  }
  board.append(targets, el("g", {id: "ghosts"}), el("g", {id: "pending"}));
  renderGhosts();
}

function renderGhosts() {
  const g = $("ghosts");
  if (!g) return;
  g.replaceChildren();
  if (!advice) return;
  advice.moves.slice(0, GHOSTS).reverse().forEach((m) => {  // the best drawn last, on top
    const t = tileAt(m.x, m.y, D.art[advice.tile + m.rot] +
        '<rect class="ghost-frame" x="3" y="3" width="94" height="94"/><text x="50" y="52">' + (m.rank + 1) +
        '</text><text class="value" x="50" y="86">' + m.mean.toFixed(1) + "</text>", "ghost");
    if (m.meeple) t.appendChild(meepleAt(st.to_move, 0, 0, m.spot, m.large));
    for (const k of ["x", "y", "rot", "rank", "mean"]) t.dataset[k] = m[k];
    t.dataset.meeple = m.meeple || "";
    t.addEventListener("click", () => choose(m.x, m.y, m.rot, m.meeple, m.large));
    g.appendChild(t);
  });
}

function cellOf(x, y) { return (st.legal || []).find((c) => c.x === x && c.y === y); }

// A cell clicked: the advice's best move there, else its first rotation with the meeple
// the rules ask for (none when free, the first free segment when one must be placed).
function chooseCell(x, y) {
  const best = advice && advice.moves.find((m) => m.x === x && m.y === y);
  if (best) return choose(x, y, best.rot, best.meeple, best.large);
  const r = cellOf(x, y).rots[0];
  choose(x, y, r.rot, r.forced ? r.meeples[0].name : null);
}

// `large`: the large meeple (expansions.md); it goes whenever it is the colour's last figure.
function choose(x, y, rot, meeple, large) {
  const r = cellOf(x, y).rots.find((q) => q.rot === rot);
  sel = {x, y, rot, meeple, large: !!meeple && (!!large || !!(r && r.only_large))};
  renderMove();
}

function rotOf() { return sel && cellOf(sel.x, sel.y).rots.find((r) => r.rot === sel.rot); }

function renderMove() {
  for (const t of board.querySelectorAll(".target"))
    t.classList.toggle("chosen", !!sel && Number(t.dataset.x) === sel.x && Number(t.dataset.y) === sel.y);
  const pending = $("pending");
  pending.replaceChildren();
  $("hand").innerHTML = D.art[st.tile + (sel ? sel.rot : 0)];
  $("btn-place").disabled = $("btn-rot").disabled = !sel;
  $("meeple-opts").innerHTML = "";
  if (!sel) {
    $("move-text").textContent = "click a cell or a ghost tile on the board";
    return;
  }
  const r = rotOf();
  const spot = sel.meeple && r.meeples.find((m) => m.name === sel.meeple).spot;
  const g = tileAt(sel.x, sel.y, D.art[st.tile + sel.rot] + '<rect class="frame" x="2.5" y="2.5" width="95" height="95"/>', "");
  if (spot) g.appendChild(meepleAt(st.to_move, 0, 0, spot, sel.large));
  pending.appendChild(g);
  $("move-text").textContent = "(" + sel.x + ", " + sel.y + ") turned " + 90 * sel.rot + "°, " +
      (sel.meeple ? (sel.large ? "large meeple on " : "meeple on ") + sel.meeple : "no meeple");
  // [segment, large]: the meeples first (unless only the large one is left), then the large meeple
  const names = r.meeples.map((m) => m.name);
  const opts = (r.forced ? [] : [[null, false]]).concat(r.only_large ? [] : names.map((n) => [n, false]),
                                                        r.large ? names.map((n) => [n, true]) : []);
  for (const [name, large] of opts) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "meeple-opt" + (name === sel.meeple && large === sel.large ? " on" : "");
    b.dataset.meeple = name || "";
    if (large) b.dataset.large = "1";
    b.textContent = name ? (large ? "large meeple: " : "meeple: ") + name : "no meeple";
    b.addEventListener("click", () => choose(sel.x, sel.y, sel.rot, name, large));
    $("meeple-opts").appendChild(b);
  }
}

function rotate() {
  const rots = cellOf(sel.x, sel.y).rots;
  const r = rots[(rots.findIndex((q) => q.rot === sel.rot) + 1) % rots.length];
  choose(sel.x, sel.y, r.rot, r.forced ? r.meeples[0].name : null);
}

function renderScores() {
  let h = '<tr><th>colour</th><th class="num">score</th><th class="num">meeples</th><th class="num">stack</th></tr>';
  for (let c = 0; c < st.colors; ++c)
    h += '<tr class="' + (c === st.to_move && st.phase !== "over" ? "to-move" : "") + '"><td>' + who(c) +
         '</td><td class="num" id="score-' + c + '">' + st.scores[c] + '</td><td class="num" id="supply-' + c + '">' +
         st.supply[c] + (st.large_supply && st.large_supply[c] ? " + large" : "") + '</td><td class="num">' +
         st.stack_left[c] + "</td></tr>";
  $("scoreboard").innerHTML = h;
}

function renderPalette() {
  const p = $("palette");
  p.replaceChildren();
  for (const t of Object.keys(st.unseen)) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "pick"; b.dataset.tile = t; b.disabled = st.unseen[t] === 0;
    b.title = "tile " + t + ": " + st.unseen[t] + " not seen yet";
    b.innerHTML = '<svg viewBox="0 0 100 100">' + D.art[t + "0"] + '</svg><span class="count">' + st.unseen[t] + "</span>";
    b.addEventListener("click", () => draw(t));
    p.appendChild(b);
  }
}

function renderAdvice() {
  if (!advice) { $("advice").innerHTML = '<span class="muted">thinking…</span>'; return; }
  const aim = advice.aim || "score";
  const unit = aim === "score" ? "expected result" : aim === "goals" ? "expected goals" : "chance of " + aim;
  let h = '<table><tr><th>#</th><th>move</th><th class="num">' + unit + '</th></tr>';
  for (const m of advice.moves.slice(0, 5))
    h += "<tr><td>" + (m.rank + 1) + "</td><td>(" + m.x + ", " + m.y + ") " + 90 * m.rot + "° " +
         (m.meeple ? (m.large ? "large meeple " : "meeple ") + m.meeple : "no meeple") + '</td><td class="num">' + m.mean.toFixed(2) + " ± " +
         (1.96 * m.stderr).toFixed(2) + "</td></tr>";
  $("advice").innerHTML = h + "</table>";
}

function renderOrder() {
  const ol = $("order-list");
  ol.replaceChildren();
  order.forEach((i, k) => {
    const f = st.completed[i], li = document.createElement("li");
    li.innerHTML = f.kind + " · " + f.tiles + " tile" + (f.tiles === 1 ? "" : "s") +
        (f.pennants ? " · " + f.pennants + " pennant" + (f.pennants === 1 ? "" : "s") : "") + " · meeples " +
        (f.meeples.some((n) => n) ? f.meeples.map((n, c) => n ? n + " " + D.colors[c].name : "").filter(Boolean).join(", ") : "none") + " ";
    if (k > 0) {
      const up = document.createElement("button");
      up.type = "button"; up.className = "order-up"; up.textContent = "↑";
      up.addEventListener("click", () => { [order[k - 1], order[k]] = [order[k], order[k - 1]]; renderOrder(); });
      li.appendChild(up);
    }
    ol.appendChild(li);
  });
}

function show(state) {
  const before = st;
  st = state; advice = null; sel = null;
  document.body.dataset.phase = st.phase;
  document.body.dataset.turn = st.turn;
  document.body.dataset.toMove = st.to_move;
  document.body.dataset.actions = st.actions;
  document.body.dataset.advice = "none";
  $("meta").textContent = st.mode === "practice" ? "practice · seed " + st.seed + " · game " + st.game + " · " +
      st.colors + " colours, " + st.meeples + " meeples" : "at the table · " + st.colors + " colours, " + st.meeples + " meeples";
  if (st.tileset) $("meta").textContent += " · " + st.tileset + (st.large_meeple ? " · large meeple" : "");
  $("btn-undo").disabled = st.actions === 0;
  $("aim").value = st.aim;
  document.body.dataset.aim = st.aim;
  if (before && st.discards > before.discards && st.phase !== "over")
    message("that tile fits nowhere: discarded");
  const say = {draw: who(st.to_move) + " draws" + (st.river_left ? " from the river stack (" + st.river_left + " left, the lake last)" : "") +
                     ": click the tile drawn (" + st.unseen_total + " not seen yet)",
               play: who(st.to_move) + " plays tile <b>" + st.tile + "</b>",
               order: "several features completed: choose the order they score in",
               over: "game over"}[st.phase];
  $("status").innerHTML = "Turn " + st.turn + " · " + say;
  renderScores();
  for (const [panel, phase] of [["draw-panel", "draw"], ["play-panel", "play"], ["order-panel", "order"], ["end-panel", "over"]])
    $(panel).classList.toggle("hidden", st.phase !== phase);
  if (st.phase === "draw") renderPalette();
  renderBoard();
  if (st.phase === "play") {
    renderMove();
    renderAdvice();
    fetchAdvice();
  }
  if (st.phase === "order") {
    order = st.completed.map((_, i) => i);
    renderOrder();
  }
  if (st.phase === "over") {
    $("final").innerHTML = "<p>Result <b>" + st.result + "</b> (the lowest score) · ended: " + st.end_reason + "</p>";
    $("dl-log").href = "/api/log?id=" + gameId;
    $("dl-analysis").href = "/api/analysis?id=" + gameId;
  }
}

async function fetchAdvice() {
  const asked = st.actions;
  document.body.dataset.advice = "pending";
  const r = await api("GET", "/api/advice?id=" + gameId);
  if (!r || st.actions !== asked || st.phase !== "play") return;
  advice = r;
  renderAdvice();
  renderGhosts();
  if (sel) renderMove();
  document.body.dataset.advice = "ready";
}

async function act(path, body) {
  const r = await api("POST", path, Object.assign({id: gameId}, body));
  if (r) show(r.state);
}
function draw(t) { act("/api/draw", {tile: t}); }

$("btn-new").addEventListener("click", async () => {
  const practice = $("mode-practice").checked;
  const body = {colors: Number($("in-colors").value), meeples: Number($("in-meeples").value),
                mode: practice ? "practice" : "table", aim: $("in-aim").value};
  if (practice) { body.seed = Number($("in-seed").value); body.game = Number($("in-game").value); }
  const r = await api("POST", "/api/new", body);
  if (!r) return;
  gameId = r.id;
  show(r.state);
});
$("btn-undo").addEventListener("click", () => act("/api/undo", {}));
// The aims: the result, the number of goals, or one goal (chosen before the game, changed in it).
for (const sel of document.querySelectorAll(".aim-choice"))
  for (const a of D.aims) sel.appendChild(Object.assign(document.createElement("option"), {value: a, textContent: a}));
$("aim").addEventListener("change", () => act("/api/aim", {aim: $("aim").value}));
$("btn-rot").addEventListener("click", rotate);
$("btn-place").addEventListener("click", () => act("/api/play", {x: sel.x, y: sel.y, rot: sel.rot, meeple: sel.meeple,
                                                                 large: sel.large}));
$("btn-order").addEventListener("click", () => act("/api/order", {order}));
document.body.dataset.busy = "0";
document.body.dataset.ready = "1";
)JS";

std::string script_json(const json& j) {
  std::string s = j.dump();
  for (std::size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  return s;
}

// The pictures: every tile in every rotation, a meeple of each colour at (0,0), the style.
json page_data() {
  json art = json::object(), meeple = json::array(), large = json::array(), colors = json::array();
  for (int t = 0; t < kTileTypes; ++t)
    for (int rot = 0; rot < 4; ++rot) art[std::string(tile_name(t)) + std::to_string(rot)] = tile_art(t, rot);
  for (int c = 0; c < 6; ++c) {
    meeple.push_back(meeple_svg(c, {0, 0}, ""));
    large.push_back(meeple_svg(c, {0, 0}, "", "meeple", true));
    colors.push_back({{"name", kColorStyles[c].name}, {"fill", kColorStyles[c].fill}});
  }
  json aims = json::array({"score", "goals"});
  for (const std::string_view g : kGoalIds) aims.push_back(std::string(g));
  return {{"art", art}, {"meeple", meeple}, {"large", large}, {"colors", colors}, {"style", tile_style()}, {"aims", aims}};
}

}  // namespace

std::string table_page() {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<title>carcsolo at the table</title>\n<link rel=\"icon\" href=\"data:,\">\n";
  h += "<style>" + std::string(kAnalysisCss) + kPageFrameCss + kCss + "</style>\n</head>\n<body data-ready=\"0\">";
  h += kBody;
  h += "<script type=\"application/json\" id=\"page-data\">" + script_json(page_data()) + "</script>\n";
  h += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace carc::sim
