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
