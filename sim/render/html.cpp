#include "sim/render/html.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "core/tiles.hpp"
#include "sim/log/board_view.hpp"
#include "sim/render/html_analysis.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

// JSON inside <script>: "</" would end the element early.
std::string script_json(const json& j) {
  std::string s = j.dump();
  for (std::size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  return s;
}

// What the page's script needs beyond the log: the rebuilt board (which tiles each scored
// feature covered, where each tile is drawn), the colours, and the art of every tile type
// drawn in the game (north up, unrotated) for the "tile drawn" panel.
json view_json(const json& log, const BoardView& v) {
  json colors = json::array();
  for (int c = 0; c < v.colors; ++c) colors.push_back({{"name", kColorStyles[c].name}, {"fill", kColorStyles[c].fill}});
  json tile_of_step = json::array();
  for (int s = 0; s < v.steps; ++s) tile_of_step.push_back(nullptr);
  for (std::size_t i = 0; i < v.tiles.size(); ++i) tile_of_step[std::size_t(v.tiles[i].step)] = i;
  json scored = json::array();
  for (const auto& step : v.scored) {
    json features = json::array();
    for (const auto& f : step) {
      std::set<int> tiles;
      for (const auto& s : f) tiles.insert(s.tile);
      features.push_back(tiles);
    }
    scored.push_back(features);
  }
  std::set<std::string> types = {log.at("start").at("tile").get<std::string>()};
  for (const auto& t : log.at("turns")) types.insert(t.at("tile").get<std::string>());
  json art = json::object();
  for (const auto& name : types) art[name] = tile_art(tile_type(name[0]), 0);
  return {{"colors", colors}, {"tile_of_step", tile_of_step}, {"scored", scored}, {"art", art}};
}

const char* kCss = R"CSS(
#board-wrap{flex:1 1 auto;min-width:0;background:#f4f1e8;border:1px solid #ccc;border-radius:6px;padding:6px}
#board-wrap svg{width:100%;height:auto;max-height:calc(100vh - 90px);display:block}
aside{flex:0 0 370px;background:#fff;border:1px solid #ccc;border-radius:6px;padding:10px}
#controls{display:flex;gap:6px}
#controls button{flex:1;padding:6px 4px;font-size:14px;cursor:pointer;border:1px solid #888;border-radius:4px;background:#f8f8f8}
#controls button:hover{background:#e8eefc}
#controls button:disabled{opacity:.4;cursor:default}
#step-slider{width:100%;margin:8px 0 2px}
#step-label{font-weight:bold;margin:4px 0 8px}
h2{font-size:14px;margin:12px 0 4px;border-bottom:1px solid #ddd}
#draw{display:flex;gap:10px;align-items:flex-start}
#hand{width:72px;height:72px;flex:0 0 72px;border:1px solid #999}
#draw-text p{margin:0 0 3px}
table{border-collapse:collapse;width:100%}
td,th{padding:2px 6px;text-align:left;border-bottom:1px solid #eee}
td.num,th.num{text-align:right}
tr.lowest td.num:first-of-type{font-weight:bold}
tr.to-move td:first-child{outline:2px solid #666;outline-offset:-2px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:50%;border:1px solid #333;margin-right:5px;vertical-align:-1px}
ol{margin:2px 0;padding-left:22px}
li{margin-bottom:3px}
.muted{color:#777}
.award{font-weight:bold}
#turn-labels{display:none}
.show-turns #turn-labels{display:inline}
.meeple.returned{opacity:.35}
.meeple.final path{stroke-width:2.4}
#overlay .frame{fill:none;stroke-width:5}
#overlay .feature{fill:#ffffff;fill-opacity:.18;stroke-width:3;stroke-dasharray:7 4}
#overlay text{font:bold 14px "DejaVu Sans",Arial,sans-serif;fill:#fff;text-anchor:middle}
.keys{font-size:12px;color:#666;margin-top:10px}
)CSS";

const char* kScript = R"JS(
"use strict";
const log = JSON.parse(document.getElementById("game-log").textContent);
const view = JSON.parse(document.getElementById("board-view").textContent);
const turns = log.turns, K = log.config.colors, LAST = turns.length + 1;
const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const board = document.querySelector("#board-wrap svg");
let step = 0;

const startScores = log.config.start_scores || Array.from({length: K}, (_, c) => c + 1);
const fullSupply = Array(K).fill(log.config.meeples);
function colorName(c) { return view.colors[c].name; }
function swatch(c) { return '<span class="swatch" style="background:' + view.colors[c].fill + '"></span>'; }
function who(c) { return swatch(c) + colorName(c); }
function esc(s) { return String(s).replace(/[&<>"]/g, (ch) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[ch])); }

function stateAt(s) {  // scores and supplies after step s
  if (s === 0) return {scores: startScores, supply: fullSupply};
  if (s <= turns.length) return {scores: turns[s - 1].scores, supply: turns[s - 1].supply};
  const last = turns.length ? turns[turns.length - 1].supply : fullSupply;
  return {scores: log.scores, supply: last};
}

function buildScoreboard() {
  let h = '<tr><th>colour</th><th class="num">score</th><th class="num">meeples in supply</th></tr>';
  for (let c = 0; c < K; ++c)
    h += '<tr id="row-' + c + '" data-color="' + c + '"><td>' + who(c) + '</td><td class="num" id="score-' + c +
         '"></td><td class="num" id="supply-' + c + '"></td></tr>';
  $("scoreboard").innerHTML = h;
}

function showBoard(s) {
  for (const el of board.querySelectorAll("[data-step]"))
    el.style.display = Number(el.dataset.step) <= s ? "" : "none";
  for (const el of board.querySelectorAll(".meeple")) {
    const from = Number(el.dataset.from), until = Number(el.dataset.until);
    const on = from <= s && (until < 0 || s < until);
    el.style.display = on || s === until ? "" : "none";
    el.classList.toggle("returned", s === until);
    el.classList.toggle("final", on && s === LAST);
  }
  const overlay = $("overlay");
  overlay.replaceChildren();
  const tileIdx = view.tile_of_step[s];
  const color = s >= 1 && s <= turns.length ? turns[s - 1].color : -1;
  (view.scored[s] || []).forEach((tiles, j) => {
    const e = turns[s - 1].scored[j];
    const stroke = e.awarded.length ? view.colors[e.awarded[0]].fill : "#555";
    tiles.forEach((t, n) => {
      const g = $("tile-" + t);
      const r = document.createElementNS(NS, "rect");
      r.setAttribute("class", "feature");
      r.setAttribute("x", Number(g.dataset.px) + 4); r.setAttribute("y", Number(g.dataset.py) + 4);
      r.setAttribute("width", 92); r.setAttribute("height", 92); r.setAttribute("stroke", stroke);
      overlay.appendChild(r);
      if (n === 0) {
        const b = document.createElementNS(NS, "circle"), tx = document.createElementNS(NS, "text");
        const x = Number(g.dataset.px) + 82, y = Number(g.dataset.py) + 82;
        b.setAttribute("cx", x); b.setAttribute("cy", y); b.setAttribute("r", 11); b.setAttribute("fill", stroke);
        tx.setAttribute("x", x); tx.setAttribute("y", y + 5); tx.textContent = j + 1;
        overlay.append(b, tx);
      }
    });
  });
  if (tileIdx !== null && tileIdx !== undefined && s > 0) {
    const g = $("tile-" + tileIdx);
    const r = document.createElementNS(NS, "rect");
    r.setAttribute("class", "frame");
    r.setAttribute("x", Number(g.dataset.px) + 2.5); r.setAttribute("y", Number(g.dataset.py) + 2.5);
    r.setAttribute("width", 95); r.setAttribute("height", 95);
    r.setAttribute("stroke", color >= 0 ? view.colors[color].fill : "#000");
    overlay.appendChild(r);
  }
}

function handArt(letter, rot) {
  $("hand").style.visibility = letter ? "" : "hidden";
  $("hand").innerHTML = letter ? '<g transform="rotate(' + 90 * rot + ' 50 50)">' + view.art[letter] + "</g>" : "";
}

function scoredText(e) {
  let t = "<b>" + e.kind + "</b> · " + e.tiles + " tile" + (e.tiles === 1 ? "" : "s");
  if (e.pennants) t += " · " + e.pennants + " pennant" + (e.pennants === 1 ? "" : "s");
  t += " · worth " + e.points;
  if (!e.meeples.length) return t + ' · <span class="muted">no meeple: no one scores</span>';
  t += "<br>meeples " + e.meeples.map(colorName).join(", ") + " · majority " + e.majority.map(colorName).join(", ") +
       " · lowest score before: " + e.low_before + "<br>";
  t += e.awarded.length ? '<span class="award">+' + e.points + " to " + e.awarded.map(who).join(", ") + "</span>"
                        : '<span class="muted">no points: no majority colour is lowest</span>';
  return t + ' · scores after: ' + e.scores_after.join(" / ");
}

function render() {
  document.body.dataset.step = step;
  $("step-slider").value = step;
  const t = step >= 1 && step <= turns.length ? turns[step - 1] : null;
  $("step-label").textContent = step === 0 ? "Start (step 0 of " + LAST + ")"
      : step === LAST ? "Final scoring (step " + LAST + " of " + LAST + ")"
      : "Turn " + t.turn + " (step " + step + " of " + LAST + ")";
  let d = "", scored = "";
  if (step === 0) {
    d = "<p>Start tile <b>" + log.start.tile + "</b> at (" + log.start.x + ", " + log.start.y + ")</p>";
    handArt(log.start.tile, log.start.rot);
  } else if (t) {
    d = "<p>" + who(t.color) + " draws <b>" + t.tile + "</b></p>";
    if (t.discarded) {
      d += '<p class="award">no legal place: discarded</p>';
      handArt(t.tile, 0);
    } else {
      d += "<p>placed at (" + t.x + ", " + t.y + "), turned " + 90 * t.rot + "° (edges N E S W: " + t.edges + ")</p>";
      d += "<p>free: " + (t.free.length ? t.free.join(", ") : '<span class="muted">none</span>') + "</p>";
      d += "<p>meeple: " + (t.meeple ? who(t.color) + " on " + t.meeple
           : t.free.length ? '<span class="award">none left in supply: the game ends</span>'
           : '<span class="muted">none (no free segment)</span>') + "</p>";
      handArt(t.tile, t.rot);
      if (t.scored.length) scored = "<ol>" + t.scored.map((e) => "<li>" + scoredText(e) + "</li>").join("") + "</ol>";
    }
  } else {
    d = "<p>Game over: <b>" + esc(log.end.reason) + "</b> after " + log.end.turns + " turns, " + log.end.tiles_placed +
        " tiles placed, " + log.end.discarded + " discarded</p>";
    handArt(null, 0);
  }
  $("draw-text").innerHTML = d;
  $("scored").innerHTML = scored || '<span class="muted">nothing completed</span>';

  const st = stateAt(step);
  const low = Math.min(...st.scores);
  for (let c = 0; c < K; ++c) {
    $("score-" + c).textContent = st.scores[c];
    $("score-" + c).dataset.value = st.scores[c];
    $("supply-" + c).textContent = st.supply[c];
    $("supply-" + c).dataset.value = st.supply[c];
    $("row-" + c).classList.toggle("lowest", st.scores[c] === low);
    $("row-" + c).classList.toggle("to-move", !!t && t.color === c);
  }
  const discards = turns.slice(0, Math.min(step, turns.length)).filter((x) => x.discarded);
  $("discards").innerHTML = discards.length
      ? discards.map((x) => "turn " + x.turn + ": " + who(x.color) + " " + x.tile).join("<br>")
      : '<span class="muted">none so far</span>';
  if (step === LAST) {
    let f = log.final_scoring.length ? "<ol>" + log.final_scoring.map((e) => "<li>" + who(e.color) + " meeple: " +
        (e.awarded ? '<span class="award">+' + e.points + "</span>" : '<span class="muted">0 (not lowest)</span>') +
        " · scores after: " + e.scores_after.join(" / ") + "</li>").join("") + "</ol>"
        : '<span class="muted">no meeple left on the board</span>';
    f += "<p><b>Result " + log.result + "</b> (lowest score) · goals: " + (log.goals.length ? log.goals.join(", ") : "none") + "</p>";
    $("final").innerHTML = f;
  } else {
    $("final").innerHTML = '<span class="muted">after the last turn (each meeple on the board: 2 points if its colour is lowest)</span>';
  }
  $("btn-first").disabled = $("btn-prev").disabled = step === 0;
  $("btn-last").disabled = $("btn-next").disabled = step === LAST;
  showBoard(step);
  if (window.analysisShow) analysisShow(step);
  try { history.replaceState(null, "", "#step=" + step); } catch (e) { /* some file: URLs refuse */ }
}

function go(s) { step = Math.max(0, Math.min(LAST, s)); render(); }
$("btn-first").addEventListener("click", () => go(0));
$("btn-prev").addEventListener("click", () => go(step - 1));
$("btn-next").addEventListener("click", () => go(step + 1));
$("btn-last").addEventListener("click", () => go(LAST));
$("step-slider").max = LAST;
$("step-slider").addEventListener("input", (e) => go(Number(e.target.value)));
$("show-turns").addEventListener("change", (e) => $("board-wrap").classList.toggle("show-turns", e.target.checked));
document.addEventListener("keydown", (e) => {
  const to = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: LAST}[e.key];
  if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  go(to);
});

buildScoreboard();
if (window.analysisInit) analysisInit();
document.body.dataset.steps = LAST;
const hash = new URLSearchParams(location.hash.slice(1));
const first = hash.get("step") || hash.get("turn");
go(first === "last" ? LAST : Number(first) || 0);
for (const b of (hash.get("steps") || "").split(",").filter(Boolean)) {
  const button = $("btn-" + b);
  if (button) button.click();
}
document.body.dataset.ready = "1";
)JS";

}  // namespace

std::string replay_html(const json& log) { return replay_html(log, nullptr); }

std::string replay_html(const json& log, const json* analysis, int ghosts) {
  BoardView v = rebuild_board(log);
  const json aview = analysis ? analysis_view(log, *analysis, ghosts, v) : json();
  SvgOptions opt;
  opt.page = true;
  const json& cfg = log.at("config");
  std::string meta;
  if (log.contains("seed")) meta += "seed " + log["seed"].dump();
  if (log.contains("game")) meta += " · game " + log["game"].dump();
  meta += " · " + std::to_string(v.colors) + " colours, " + cfg.value("meeples", json(0)).dump() + " meeples · placement " +
          v.placement + " · scoring " + v.scoring;
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<title>carcsolo replay · " + xml_escape(meta) + "</title>\n<style>" + std::string(kPageFrameCss) + kCss + "</style>\n";
  if (analysis) h += "<style>" + std::string(kAnalysisCss) + "</style>\n";
  h += "</head>\n";
  h += "<body data-step=\"0\">\n<header><h1>carcsolo replay</h1><div id=\"meta\">" + xml_escape(meta) + "</div></header>\n";
  if (analysis)
    h += "<div id=\"loss-strip\"><div class=\"caption\">expected loss of each turn's move (click a turn to go there; "
         "ghost tiles on the board: the best moves by the analysis, numbered by rank, green when played)</div>"
         "<svg id=\"loss-svg\"></svg></div>\n";
  h += "<main>\n<section id=\"board-wrap\">\n" + board_svg(log, v, opt) + "</section>\n<aside>\n";
  h += "<div id=\"controls\"><button id=\"btn-first\" title=\"first (Home)\">&#x21E4; first</button>"
       "<button id=\"btn-prev\" title=\"previous (Left)\">&#x25C0; prev</button>"
       "<button id=\"btn-next\" title=\"next (Right)\">next &#x25B6;</button>"
       "<button id=\"btn-last\" title=\"last (End)\">last &#x21E5;</button></div>\n";
  h += "<input type=\"range\" id=\"step-slider\" min=\"0\" value=\"0\" aria-label=\"step\">\n";
  h += "<div id=\"step-label\"></div>\n";
  h += "<h2>Tile drawn</h2><div id=\"draw\"><svg id=\"hand\" viewBox=\"0 0 100 100\"></svg><div id=\"draw-text\"></div></div>\n";
  if (analysis) h += "<h2>Analysis</h2><div id=\"analysis\"></div>\n";
  h += "<h2>Scored this turn, in order</h2><div id=\"scored\"></div>\n";
  h += "<h2>Scoreboard after this step</h2><table id=\"scoreboard\"></table>\n";
  h += "<h2>Discards</h2><div id=\"discards\"></div>\n";
  h += "<h2>Final scoring</h2><div id=\"final\"></div>\n";
  h += "<p><label><input type=\"checkbox\" id=\"show-turns\"> turn numbers on tiles</label></p>\n";
  h += "<p class=\"keys\">Keys: Home, &#x2190;, &#x2192;, End. The frame marks the tile just placed; dashed "
       "boxes the tiles of each feature scored (numbered in scoring order, in the colour that got the points, "
       "grey if no one); faint meeples went home this step.</p>\n";
  h += "</aside>\n</main>\n";
  h += "<script type=\"application/json\" id=\"game-log\">" + script_json(log) + "</script>\n";
  h += "<script type=\"application/json\" id=\"board-view\">" + script_json(view_json(log, v)) + "</script>\n";
  if (analysis) {
    h += "<script type=\"application/json\" id=\"analysis-view\">" + script_json(aview) + "</script>\n";
    h += "<script>" + std::string(kAnalysisScript) + "</script>\n";
  }
  h += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace carc::sim
