// The game outlives the page: its id in the address (?game=ID) and in the browser's storage,
// and after every action its log so far, so that a reload, a reopened tab or a restarted
// server (which forgot the id) finds the game where it stood.
const KEY = "carcsolo.", KEPT_LOGS = 6, MAX_LOG = 256 * 1024;
function stored(k) { try { return localStorage.getItem(KEY + k); } catch (e) { return null; } }
function store(k, v) {
  try {
    if (v === null) localStorage.removeItem(KEY + k); else localStorage.setItem(KEY + k, v);
    return true;
  } catch (e) {
    return false;  // storage full or refused: the game goes on, only not kept
  }
}

function remember(id) {
  gameId = id;
  history.replaceState(null, "", location.pathname + "?game=" + id);
  store("game", id);
}
function forget(id) {
  if (stored("game") === id) store("game", null);
  history.replaceState(null, "", location.pathname);
  gameId = null;
}

// The log so far (GET /api/log answers during the game too), kept under the game's id; the
// logs of the KEPT_LOGS games played last are kept, the oldest dropped.
async function keepLog() {
  const id = gameId;
  if (document.body.dataset.phase === "order") return;  // a turn half scored has no log: kept after the order
  const r = await request("GET", "/api/log?id=" + id);
  if (!r.ok || id !== gameId) return;
  const ids = [id].concat(JSON.parse(stored("logs") || "[]").filter((k) => k !== id));
  for (const old of ids.splice(KEPT_LOGS)) store("log:" + old, null);
  if (store("log:" + id, JSON.stringify(r.json))) store("logs", JSON.stringify(ids));
  document.body.dataset.kept = st.actions;
}
function dropLog(id) {
  store("log:" + id, null);
  store("logs", JSON.stringify(JSON.parse(stored("logs") || "[]").filter((k) => k !== id)));
}

// A game log (finished or not) sent to POST /api/resume: the game replayed to where it ends.
async function resume(text, what) {
  if (text.length > MAX_LOG) { message("that log is larger than 256 KiB: not a game log of this page"); return false; }
  const r = await api("POST", "/api/resume", null, text);
  if (!r) return false;
  remember(r.id);
  show(r.state);
  notice(what + " (turn " + r.state.turn + ", " + r.state.actions + " actions replayed)");
  keepLog();
  return true;
}
async function resumeFile(file) {
  setBusy(1);
  try {
    if (file.size > MAX_LOG) { message(file.name + " is larger than 256 KiB: not a game log of this page"); return; }
    await resume(await file.text(), "resumed from the log " + file.name);
  } finally {
    setBusy(-1);
  }
}

// The game of the address, else the one this browser played last: asked of the server, and
// when the server no longer knows it (restarted, or the game expired), resumed from its log.
async function reopen() {
  const id = new URLSearchParams(location.search).get("game") || stored("game");
  if (!id || !/^[0-9a-f]{32}$/.test(id)) return;
  const r = await request("GET", "/api/state?id=" + id);
  if (r.ok) {
    remember(id);
    show(r.json);
    notice("game resumed where it stood");
    keepLog();
    return;
  }
  if (r.status !== 404) { message(r.json.error); return; }
  const log = stored("log:" + id);
  if (log && await resume(log, "the server no longer knew this game (restarted, or the game expired): " +
                              "resumed from the log this browser kept")) {
    dropLog(id);
    return;
  }
  if (!log) message("the server no longer knows the game " + id + " and this browser kept no log of it");
  forget(id);
}

addEventListener("beforeunload", (e) => {
  if (st && st.phase !== "over") { e.preventDefault(); e.returnValue = ""; }  // leaving asks first
});
$("in-log").addEventListener("change", () => {
  const f = $("in-log").files[0];
  if (f) resumeFile(f);
  $("in-log").value = "";
});
document.addEventListener("dragover", (e) => {
  if (!e.dataTransfer || !e.dataTransfer.types.includes("Files")) return;
  e.preventDefault();
  document.body.classList.add("dropping");
});
document.addEventListener("dragleave", (e) => { if (!e.relatedTarget) document.body.classList.remove("dropping"); });
document.addEventListener("drop", (e) => {
  document.body.classList.remove("dropping");
  if (!e.dataTransfer || !e.dataTransfer.files.length) return;
  e.preventDefault();
  resumeFile(e.dataTransfer.files[0]);
});

$("btn-new").addEventListener("click", async () => {
  const practice = $("mode-practice").checked;
  const body = {colors: Number($("in-colors").value), meeples: Number($("in-meeples").value),
                mode: practice ? "practice" : "table", aim: $("in-aim").value};
  if (practice) { body.seed = Number($("in-seed").value); body.game = Number($("in-game").value); }
  notice("");
  const r = await api("POST", "/api/new", body);
  if (!r) return;
  remember(r.id);
  show(r.state);
  keepLog();
});
$("btn-undo").addEventListener("click", async () => {
  const r = await act("/api/undo", {});
  if (r) notice(r.undone || "Undone: the last action.");
});
// The aims: the result, the number of goals, or one goal (chosen before the game, changed in it).
for (const s of document.querySelectorAll(".aim-choice"))
  for (const a of D.aims) s.appendChild(Object.assign(document.createElement("option"), {value: a, textContent: a}));
$("aim").addEventListener("change", () => act("/api/aim", {aim: $("aim").value}));
$("btn-rot").addEventListener("click", rotate);
$("btn-place").addEventListener("click", () => act("/api/play", {x: sel.x, y: sel.y, rot: sel.rot, meeple: sel.meeple,
                                                                 large: sel.large}));
$("btn-order").addEventListener("click", () => act("/api/order", {order}));
document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeCellMoves(); });
document.body.dataset.busy = "0";
reopen();
document.body.dataset.ready = "1";
