"use strict";
const D = JSON.parse(document.getElementById("page-data").textContent);
const NS = "http://www.w3.org/2000/svg", GHOSTS = 3, LISTED = 5;
const $ = (id) => document.getElementById(id);
const board = $("board");
let gameId = null, st = null, advice = null, sel = null, order = [], busy = 0;

function swatch(c) { return '<span class="swatch" style="background:' + D.colors[c].fill + '"></span>'; }
function who(c) { return swatch(c) + D.colors[c].name; }
function message(t) { $("message").textContent = t || ""; }
function notice(t) { $("notice").textContent = t || ""; }
function setBusy(d) { busy += d; document.body.dataset.busy = busy > 0 ? "1" : "0"; }

// One request, no word to the person: {ok, status, json}. `raw`: a body sent as it is.
async function request(method, path, body, raw) {
  setBusy(1);
  try {
    const r = await fetch(path, {method, headers: body || raw ? {"Content-Type": "application/json"} : {},
                                 body: raw !== undefined ? raw : body ? JSON.stringify(body) : undefined});
    let j = null;
    try { j = await r.json(); } catch (e) { j = {error: "error " + r.status}; }
    return {ok: r.ok, status: r.status, json: j};
  } catch (e) {
    return {ok: false, status: 0, json: {error: "the server did not answer (" + e.message + ")"}};
  } finally {
    setBusy(-1);
  }
}

// A request whose failure the person is told of (#message); its answer, or null.
async function api(method, path, body, raw) {
  const r = await request(method, path, body, raw);
  message(r.ok ? "" : (r.json && r.json.error) || "error " + r.status);
  return r.ok ? r.json : null;
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
function moveText(m) {
  return "(" + m.x + ", " + m.y + ") " + 90 * m.rot + "° " +
         (m.meeple ? (m.large ? "large meeple " : "meeple ") + m.meeple : "no meeple");
}
function value(m, digits) { return m.mean.toFixed(advice.aim && advice.aim !== "score" ? 2 : digits); }

// The board: the tiles with their names, the meeples, the cells where the tile in hand fits,
// the coordinates along the top and the left; then the layers the advice and the move draw on.
function renderBoard() {
  board.replaceChildren();
  board.insertAdjacentHTML("afterbegin", D.style);
  const cells = st.board.map((t) => [t.x, t.y]).concat((st.legal || []).map((c) => [c.x, c.y]));
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const x0 = minX - 0.35, y0 = minY - 0.35;
  board.setAttribute("viewBox", [100 * x0, 100 * y0, 100 * (maxX - x0 + 1.1), 100 * (maxY - y0 + 1.1)].join(" "));
  const axes = el("g", {id: "axes"});
  for (let x = minX; x <= maxX; ++x)
    axes.appendChild(Object.assign(el("text", {class: "axis axis-x", x: 100 * x + 50, y: 100 * minY - 10}), {textContent: x}));
  for (let y = minY; y <= maxY; ++y)
    axes.appendChild(Object.assign(el("text", {class: "axis axis-y", x: 100 * minX - 17, y: 100 * y + 56}), {textContent: y}));
  const tiles = el("g", {id: "tiles"}), meeples = el("g", {id: "meeples"});
  for (const t of st.board) {
    const g = tileAt(t.x, t.y, D.art[t.tile + t.rot] + '<text class="tile-name" x="5" y="17">' + t.tile + "</text>", "tile");
    g.dataset.x = t.x; g.dataset.y = t.y; g.dataset.tile = t.tile; g.dataset.rot = t.rot;
    tiles.appendChild(g);
    if (t.meeple) meeples.appendChild(meepleAt(t.meeple.color, t.x, t.y, t.meeple.spot, t.meeple.large));
  }
  board.append(axes, tiles, meeples);
  const targets = el("g", {id: "targets"});
  for (const c of st.legal || []) {
    const r = el("rect", {class: "target", x: 100 * c.x + 3, y: 100 * c.y + 3, width: 94, height: 94});
    r.dataset.x = c.x; r.dataset.y = c.y;
    r.addEventListener("click", () => chooseCell(c.x, c.y));
    targets.appendChild(r);
  }
  board.append(targets, el("g", {id: "ghosts"}), el("g", {id: "pending"}), el("g", {id: "hover"}), el("g", {id: "labels"}));
  renderGhosts();
}

// The advised moves by cell, each cell's best first (the advice comes best first).
function advisedCells() {
  const cells = new Map();
  for (const m of advice.moves) {
    const k = m.x + "," + m.y;
    if (!cells.has(k)) cells.set(k, []);
    cells.get(k).push(m);
  }
  return cells;
}

// One marker per cell that holds advised moves: the cell's best move drawn as a ghost tile
// when it is among the GHOSTS best, a frame otherwise, and one label, "rank · value" of that
// move (+N: N more moves there, listed on a click). The label sits in the half of the cell
// away from the meeple drawn on it (the ghost's, or the chosen move's), so no meeple covers
// it, and inside its cell, so no two labels meet.
function renderGhosts() {
  const g = $("ghosts"), labels = $("labels");
  if (!g) return;
  g.replaceChildren(); labels.replaceChildren();
  if (!advice) return;
  const top = new Set(advice.moves.slice(0, GHOSTS).map((m) => m.x + "," + m.y));
  for (const [k, moves] of advisedCells()) {
    const m = moves[0], chosen = sel && sel.x === m.x && sel.y === m.y, drawn = top.has(k) && !chosen;
    const t = tileAt(m.x, m.y, (drawn ? D.art[advice.tile + m.rot] : "") +
                     '<rect class="ghost-frame" x="3" y="3" width="94" height="94"/>', "ghost" + (top.has(k) ? "" : " ghost-more"));
    if (drawn && m.meeple) t.appendChild(el("g", {class: "ghost-meeple"}, meepleAt(st.to_move, 0, 0, m.spot, m.large).outerHTML));
    for (const key of ["x", "y", "rot", "rank", "mean"]) t.dataset[key] = m[key];
    t.dataset.meeple = m.meeple || "";
    t.dataset.ranks = moves.map((q) => q.rank).join(" ");
    t.addEventListener("click", (e) => { e.stopPropagation(); pickCell(moves, t); });
    g.appendChild(t);
    const spot = chosen ? selSpot() : drawn && m.meeple ? m.spot : null;
    const label = el("g", {class: "label", transform: "translate(" + 100 * m.x + " " + (100 * m.y + (spot && spot.y > 50 ? 0 : 72)) + ")"});
    label.dataset.x = m.x; label.dataset.y = m.y; label.dataset.rank = m.rank;
    const text = el("text", {class: "value", x: 50, y: 19},
                    (m.rank + 1) + " · " + value(m, 1) + (moves.length > 1 ? '<tspan class="more"> +' + (moves.length - 1) + "</tspan>" : ""));
    label.append(el("rect", {class: "label-box", rx: 4, y: 4, height: 20}), text,
                 el("title", {}, moves.length > 1 ? moves.length + " moves advised here: click to list them" : moveText(m)));
    label.addEventListener("click", (e) => { e.stopPropagation(); pickCell(moves, t); });
    labels.appendChild(label);
    const w = text.getComputedTextLength() + 10;
    label.firstChild.setAttribute("x", 50 - w / 2);
    label.firstChild.setAttribute("width", w);
  }
}

// A marker clicked: its cell's best move is chosen; when the cell holds more, a small list of
// them opens beside it, each a button that chooses that move.
function pickCell(moves, marker) {
  const m = moves[0], r = marker.getBoundingClientRect();  // before choose() draws the markers again
  choose(m.x, m.y, m.rot, m.meeple, m.large);
  closeCellMoves();
  if (moves.length < 2) return;
  const box = $("cell-moves"), wrap = $("board-wrap").getBoundingClientRect();
  box.replaceChildren(Object.assign(document.createElement("div"), {className: "muted", textContent: moves.length + " moves advised on (" + m.x + ", " + m.y + ")"}));
  for (const q of moves) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "cell-move"; b.dataset.rank = q.rank;
    b.textContent = (q.rank + 1) + " · " + moveText(q) + " · " + value(q, 2);
    b.addEventListener("click", () => { choose(q.x, q.y, q.rot, q.meeple, q.large); closeCellMoves(); });
    box.appendChild(b);
  }
  const close = Object.assign(document.createElement("button"), {type: "button", id: "cell-moves-close", textContent: "close"});
  close.addEventListener("click", closeCellMoves);
  box.appendChild(close);
  box.classList.remove("hidden");
  const right = r.right - wrap.left + 6, w = box.offsetWidth;
  box.style.left = (right + w <= wrap.width ? right : Math.max(0, r.left - wrap.left - w - 6)) + "px";
  box.style.top = Math.max(0, Math.min(r.top - wrap.top, wrap.height - box.offsetHeight)) + "px";
}
function closeCellMoves() { $("cell-moves").classList.add("hidden"); }

// A row of the advice list hovered: its move drawn on its cell, and the cell's coordinates marked.
function highlight(m) {
  const h = $("hover");
  if (!h) return;
  h.replaceChildren();
  for (const a of board.querySelectorAll(".axis.on")) a.classList.remove("on");
  if (!m) return;
  const t = tileAt(m.x, m.y, D.art[advice.tile + m.rot] + '<rect class="hl-frame" x="2" y="2" width="96" height="96"/>', "hl");
  if (m.meeple) t.appendChild(meepleAt(st.to_move, 0, 0, m.spot, m.large));
  t.dataset.x = m.x; t.dataset.y = m.y; t.dataset.rot = m.rot; t.dataset.rank = m.rank;
  h.appendChild(t);
  for (const a of board.querySelectorAll(".axis"))
    if (a.textContent === String(a.classList.contains("axis-x") ? m.x : m.y)) a.classList.add("on");
}

function cellOf(x, y) { return (st.legal || []).find((c) => c.x === x && c.y === y); }

// A cell clicked: the advice's best move there, else its first rotation with the meeple
// the rules ask for (none when free, the first free segment when one must be placed).
function chooseCell(x, y) {
  closeCellMoves();
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
  renderGhosts();
}

function rotOf() { return sel && cellOf(sel.x, sel.y).rots.find((r) => r.rot === sel.rot); }
function selSpot() { return sel && sel.meeple ? rotOf().meeples.find((m) => m.name === sel.meeple).spot : null; }

function renderMove() {
  for (const t of board.querySelectorAll(".target"))
    t.classList.toggle("chosen", !!sel && Number(t.dataset.x) === sel.x && Number(t.dataset.y) === sel.y);
  const pending = $("pending");
  pending.replaceChildren();
  $("hand").innerHTML = D.art[st.tile + (sel ? sel.rot : 0)];
  $("btn-place").disabled = $("btn-rot").disabled = !sel;
  $("meeple-opts").innerHTML = "";
  document.body.dataset.sel = sel ? [sel.x, sel.y, sel.rot, sel.meeple || "", sel.large ? 1 : 0].join(",") : "";
  if (!sel) {
    $("move-text").textContent = "click a cell or a ghost tile on the board";
    return;
  }
  const r = rotOf(), spot = selSpot();
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

// The tiles that may be told, in the catalogue's order (A..X, I1..I17, R1..R9), each with its
// name; while the river is laid only the river tiles the server allows (state.drawable), and
// after it no river tile.
function renderPalette() {
  const p = $("palette");
  p.replaceChildren();
  const allowed = st.drawable ? new Set(st.drawable) : null;
  const names = Object.keys(st.unseen).sort((a, b) => D.order.indexOf(a) - D.order.indexOf(b))
                      .filter((t) => st.river_left > 0 && allowed ? allowed.has(t) : !(t[0] === "R" && st.unseen[t] === 0));
  for (const t of names) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "pick"; b.dataset.tile = t;
    b.disabled = allowed ? !allowed.has(t) : st.unseen[t] === 0;
    b.title = "tile " + t + ": " + st.unseen[t] + " not seen yet";
    b.innerHTML = '<svg viewBox="0 0 100 100">' + D.art[t + "0"] + '</svg><span class="name">' + t +
                  '</span><span class="count">' + st.unseen[t] + "</span>";
    b.addEventListener("click", () => draw(t));
    p.appendChild(b);
  }
}

function renderAdvice() {
  if (!advice) { $("advice").innerHTML = '<span class="muted">thinking…</span>'; return; }
  const aim = advice.aim || "score";
  const unit = aim === "score" ? "expected result" : aim === "goals" ? "expected goals" : "chance of " + aim;
  const t = document.createElement("table");
  t.innerHTML = '<tr><th>#</th><th>move</th><th class="num">' + unit + "</th></tr>";
  for (const m of advice.moves.slice(0, LISTED)) {
    const tr = t.insertRow();
    tr.className = "advice-row"; tr.dataset.rank = m.rank;
    tr.innerHTML = "<td>" + (m.rank + 1) + "</td><td>" + moveText(m) + '</td><td class="num">' + value(m, 2) + " ± " +
                   (1.96 * m.stderr).toFixed(2) + "</td>";
    tr.addEventListener("mouseenter", () => highlight(m));
    tr.addEventListener("mouseleave", () => highlight(null));
    tr.addEventListener("click", () => { closeCellMoves(); choose(m.x, m.y, m.rot, m.meeple, m.large); });
  }
  $("advice").replaceChildren(t, Object.assign(document.createElement("div"), {id: "rank-rule", className: "muted small",
      textContent: "Ranked by the analyser's rounds: a move dropped early, on fewer rollouts, ranks lower even at a higher value."}));
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
  closeCellMoves();
  document.body.dataset.phase = st.phase;
  document.body.dataset.turn = st.turn;
  document.body.dataset.toMove = st.to_move;
  document.body.dataset.actions = st.actions;
  document.body.dataset.advice = "none";
  document.body.dataset.game = gameId || "";
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
  const asked = st.actions, id = gameId;
  document.body.dataset.advice = "pending";
  const r = await api("GET", "/api/advice?id=" + id);
  if (!r || id !== gameId || st.actions !== asked || st.phase !== "play") return;
  advice = r;
  renderAdvice();
  renderGhosts();
  if (sel) renderMove();
  document.body.dataset.advice = "ready";
}

// An action of the game; its answer (the state shown, the log kept), or null.
async function act(path, body) {
  notice("");
  const r = await api("POST", path, Object.assign({id: gameId}, body));
  if (r) {
    show(r.state);
    keepLog();
  }
  return r;
}
function draw(t) { act("/api/draw", {tile: t}); }
