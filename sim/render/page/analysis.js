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
