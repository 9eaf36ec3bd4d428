// The analysis layer of the replay page (sim/render/html.hpp): what the page's second
// script needs of one game's analysis, checked against the log, and that script.
#include "sim/render/html_analysis.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/tiles.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

std::string turn_text(const json& d) { return "analysis of turn " + d.at("turn").dump(); }

bool same_move(const json& a, const json& b) {
  return a.at("x") == b.at("x") && a.at("y") == b.at("y") && a.at("rot") == b.at("rot");
}

}  // namespace

json analysis_view(const json& log, const json& game, int ghosts, BoardView& v) {
  if (!game.is_object() || !game.contains("analysis") || !game.at("analysis").is_array())
    throw std::runtime_error("not one game of an analysis document (carcassonne-solo-analysis/1): no \"analysis\" list");
  const json& turns = log.at("turns");
  std::map<int, std::size_t> step_of_turn;  // the log's turn number -> its step (1-based)
  for (std::size_t i = 0; i < turns.size(); ++i) step_of_turn[turns[i].at("turn").get<int>()] = i + 1;
  json steps = json::array();
  for (int s = 0; s < v.steps; ++s) steps.push_back(nullptr);
  json art = json::object();
  for (const json& d : game.at("analysis")) {
    const auto at = step_of_turn.find(d.at("turn").get<int>());
    if (at == step_of_turn.end()) throw std::runtime_error(turn_text(d) + ": the log has no such turn");
    const json& t = turns[at->second - 1];
    const json& moves = d.at("moves");
    const json& played = moves.at(d.at("played").get<std::size_t>());
    if (t.value("discarded", false) || d.at("tile") != t.at("tile") || !same_move(played, t))
      throw std::runtime_error(turn_text(d) + ": its played move is not the log's (an analysis of another game?)");
    const int type = tile_type(d.at("tile").get<std::string>()[0]);
    // The best `ghosts` moves, by rank.
    std::vector<const json*> ranked;
    for (const json& m : moves) ranked.push_back(&m);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const json* a, const json* b) { return a->at("rank").get<int>() < b->at("rank").get<int>(); });
    json best = json::array();
    for (int i = 0; i < ghosts && i < int(ranked.size()); ++i) {
      const json& m = *ranked[std::size_t(i)];
      const int x = m.at("x").get<int>(), y = m.at("y").get<int>(), rot = m.at("rot").get<int>();
      if (rot < 0 || rot > 3) throw std::runtime_error(turn_text(d) + ": a move with rotation " + std::to_string(rot));
      const std::string key = d.at("tile").get<std::string>() + std::to_string(rot);
      if (!art.contains(key)) art[key] = tile_art(type, rot);
      v.min_x = std::min(v.min_x, x), v.max_x = std::max(v.max_x, x);
      v.min_y = std::min(v.min_y, y), v.max_y = std::max(v.max_y, y);
      best.push_back({{"x", x}, {"y", y}, {"rot", rot}, {"meeple", m.at("meeple")}, {"mean", m.at("mean")},
                      {"stderr", m.at("stderr")}, {"rank", m.at("rank")}, {"art", key},
                      {"played", &m == &played}});
    }
    // Moves on the same cell (other rotations, other meeples) share it: each drawn smaller
    // in a part of its own ("slot" of "share", in rank order), none hidden under another.
    for (json& m : best) {
      int slot = 0, share = 0;
      for (const json& o : best)
        if (o.at("x") == m.at("x") && o.at("y") == m.at("y")) {
          if (o.at("rank").get<int>() < m.at("rank").get<int>()) ++slot;
          ++share;
        }
      m["slot"] = slot;
      m["share"] = share;
    }
    steps[at->second] = {{"turn", d.at("turn")},
                         {"loss", d.at("loss")},
                         {"loss_stderr", d.at("loss_stderr")},
                         {"heldout", d.value("heldout", json())},
                         {"played_rank", moves.at(d.at("played").get<std::size_t>()).at("rank")},
                         {"moves", moves.size()},
                         {"played", {{"x", played.at("x")}, {"y", played.at("y")}, {"rot", played.at("rot")},
                                     {"meeple", played.at("meeple")}, {"mean", played.at("mean")}}},
                         {"best", best}};
  }
  return {{"steps", steps}, {"art", art}, {"ghosts", ghosts}};
}

const char* kPageFrameCss = R"CSS(
*{box-sizing:border-box}
body{margin:0;font:15px/1.4 "DejaVu Sans",Arial,sans-serif;color:#222;background:#f4f1e8}
header{padding:8px 16px;background:#3d5a2a;color:#fff}
header h1{font-size:18px;margin:0;display:inline}
header #meta{display:inline;margin-left:12px;font-size:13px;opacity:.9}
main{display:flex;gap:12px;padding:12px;align-items:flex-start}
)CSS";

const char* kAnalysisCss = R"CSS(
#loss-strip{padding:6px 12px 0}
#loss-strip svg{width:100%;height:56px;display:block;background:#fff;border:1px solid #ccc;border-radius:4px}
#loss-strip .caption{font-size:12px;color:#555;margin-bottom:2px}
.loss-slot{fill:transparent;cursor:pointer}
.loss-slot:hover{fill:#e8eefc}
.loss-bar{fill:#c0392b;pointer-events:none}
.loss-bar.current{fill:#2166ac}
.loss-cursor{fill:none;stroke:#2166ac;stroke-width:.15}
.ghost{opacity:.55}
.ghost .ghost-frame{fill:none;stroke:#1f3fbf;stroke-width:4;stroke-dasharray:8 5}
.ghost.played .ghost-frame{stroke:#18a018;stroke-dasharray:none}
.ghost.shared .ghost-frame{stroke-width:8}
.ghost text{font:bold 26px "DejaVu Sans",Arial,sans-serif;fill:#fff;stroke:#1f3fbf;stroke-width:1;text-anchor:middle}
#analysis table td{font-size:13px}
)CSS";

const char* kAnalysisScript = R"JS(
"use strict";
// The analysis layer: ghosts of the best moves on the board, the played move's loss, the
// loss strip. Called by the page's script (analysisInit once, analysisShow every step).
function analysisInit() {
  const A = JSON.parse(document.getElementById("analysis-view").textContent);
  window.analysisData = A;
  const svg = document.getElementById("loss-svg");
  const n = A.steps.length;
  let max = 1;
  for (const e of A.steps) if (e) max = Math.max(max, e.loss);
  svg.setAttribute("viewBox", "0 0 " + n + " 100");
  svg.setAttribute("preserveAspectRatio", "none");
  const NS = "http://www.w3.org/2000/svg";
  A.steps.forEach((e, s) => {
    const slot = document.createElementNS(NS, "rect");
    slot.setAttribute("class", "loss-slot"); slot.dataset.step = s;
    slot.setAttribute("x", s); slot.setAttribute("y", 0); slot.setAttribute("width", 1); slot.setAttribute("height", 100);
    slot.addEventListener("click", () => go(s));
    const title = document.createElementNS(NS, "title");
    title.textContent = e ? "turn " + e.turn + ": loss " + e.loss.toFixed(2) : "step " + s + ": no decision";
    slot.appendChild(title);
    svg.appendChild(slot);
    if (!e) return;
    const bar = document.createElementNS(NS, "rect");
    const h = Math.max(1.5, 96 * e.loss / max);
    bar.setAttribute("class", "loss-bar"); bar.dataset.step = s; bar.dataset.loss = e.loss; bar.dataset.turn = e.turn;
    bar.setAttribute("x", s + 0.1); bar.setAttribute("y", 100 - h); bar.setAttribute("width", 0.8); bar.setAttribute("height", h);
    svg.appendChild(bar);
  });
  const cursor = document.createElementNS(NS, "rect");
  cursor.setAttribute("class", "loss-cursor"); cursor.id = "loss-cursor";
  cursor.setAttribute("y", 0.5); cursor.setAttribute("width", 1); cursor.setAttribute("height", 99);
  svg.appendChild(cursor);
  const ghosts = document.createElementNS(NS, "g");
  ghosts.id = "ghosts";
  board.insertBefore(ghosts, document.getElementById("overlay"));
}

function analysisShow(s) {
  const A = window.analysisData, NS = "http://www.w3.org/2000/svg";
  const e = A.steps[s];
  const ghosts = document.getElementById("ghosts");
  ghosts.replaceChildren();
  for (const bar of document.querySelectorAll(".loss-bar")) bar.classList.toggle("current", Number(bar.dataset.step) === s);
  document.getElementById("loss-cursor").setAttribute("x", s);
  const panel = document.getElementById("analysis");
  if (!e) {
    panel.innerHTML = '<span class="muted">no decision analysed at this step</span>';
    return;
  }
  const start = document.getElementById("tile-0");
  const ox = Number(start.dataset.px) - 100 * Number(start.dataset.x), oy = Number(start.dataset.py) - 100 * Number(start.dataset.y);
  const place = (m) => "(" + m.x + ", " + m.y + ") " + 90 * m.rot + "° " + (m.meeple ? "meeple " + m.meeple : "no meeple");
  e.best.slice().reverse().forEach((m) => {  // the best drawn last, on top
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", "ghost" + (m.played ? " played" : "") + (m.share > 1 ? " shared" : ""));
    for (const k of ["x", "y", "rot", "rank", "mean"]) g.dataset[k] = m[k];
    g.dataset.meeple = m.meeple === null ? "" : m.meeple;
    // a cell of several ghosts: a grid of cols x cols parts, ghost m in part m.slot
    const cols = Math.ceil(Math.sqrt(m.share)), part = 100 / cols;
    g.dataset.slot = m.slot; g.dataset.share = m.share;
    g.setAttribute("transform", "translate(" + (ox + 100 * m.x + part * (m.slot % cols)) + " " +
                   (oy + 100 * m.y + part * Math.floor(m.slot / cols)) + ") scale(" + 1 / cols + ")");
    g.innerHTML = A.art[m.art] + '<rect class="ghost-frame" x="3" y="3" width="94" height="94"/>' +
                  '<text x="50" y="60">' + (m.rank + 1) + "</text>";
    ghosts.appendChild(g);
  });
  let h = "<p>played: rank <b>" + (e.played_rank + 1) + "</b> of " + e.moves + " · loss <b>" + e.loss.toFixed(2) +
          "</b> ± " + (1.96 * e.loss_stderr).toFixed(2) + (e.heldout === null ? "" : " (held out " + e.heldout.toFixed(2) + ")") + "</p>";
  h += "<table><tr><th>#</th><th>move</th><th class=\"num\">mean</th></tr>";
  for (const m of e.best)
    h += "<tr><td>" + (m.rank + 1) + "</td><td>" + place(m) + (m.played ? " <b>played</b>" : "") + '</td><td class="num">' +
         m.mean.toFixed(2) + "</td></tr>";
  if (!e.best.some((m) => m.played))
    h += "<tr><td>" + (e.played_rank + 1) + "</td><td>" + place(e.played) + ' <b>played</b></td><td class="num">' +
         e.played.mean.toFixed(2) + "</td></tr>";
  panel.innerHTML = h + "</table>";
}
)JS";

}  // namespace carc::sim
