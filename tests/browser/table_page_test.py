#!/usr/bin/env python3
"""The table page of `carcsolo serve` in headless Chromium (run by ctest):

  table_page_test.py CARCSOLO

A whole game at the table played by clicks through chromedriver: the tiles of a known deal
(`carcsolo replay`'s seed 7, game 17) clicked as they are drawn; each move the advice's
best ghost, but every fourth a legal cell that no ghost covers, turned once; the scoring
order changed when several features complete; one move undone and played again; the page
reloaded after ten turns (leaving asks first; the same game comes back). The log and its
analysis downloaded: `carcsolo verify` accepts the log, whose stacks begin with the tiles
clicked and whose result is the one shown. Then a few moves of a dealt practice game on the
same page; the river of base+inns+river laid by clicks (the picker's river tiles alone and
in order, the lake last and drawn as a lake; then the land tiles in natural order); a
practice game whose goal is chosen before it and changed during it (docs/aim.md); a game
kept by the page (reopened, resumed after a server restart from the log the page kept, and
from a log file chosen and dropped; an undo says what it took back); and the advice's
markers on a decision where two advised moves share a cell (every advised move chosen by
clicks; no label meets another or a meeple). The browser console must stay free of errors,
and the server must refuse no request of the page. SHOT=FILE.png saves a screenshot at the
12th move. Exit status 77 (skipped) when Chromium or chromedriver is missing.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_page_test import SKIP, WebDriver, fail  # noqa: E402  (the same driver as the replay page's)
from table_page_advice import markers  # noqa: E402
from table_page_driver import execute, leaving_asks, no_console_errors, play_advised, wait_for  # noqa: E402
from table_page_kept import kept  # noqa: E402

COLORS, MEEPLES, SEED, GAME = 3, 4, 7, 17
RELOAD_AFTER = 10  # turns played before the page is reloaded
DEADLINE = 600  # seconds for the whole game


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    carcsolo = sys.argv[1]
    if not shutil.which("chromium"):
        print("SKIP: chromium is not installed (Debian package chromium)")
        return SKIP
    if not shutil.which("chromedriver"):
        print("SKIP: chromedriver is not installed (Debian package chromium-driver)")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="carcsolo-table-") as work:
        deal_log = os.path.join(work, "deal.json")
        subprocess.run([carcsolo, "replay", "--colors", str(COLORS), "--meeples", str(MEEPLES), "--seed", str(SEED),
                        "--game", str(GAME), "--out", deal_log], check=True, timeout=120, capture_output=True)
        with open(deal_log) as f:
            stacks = [list(s) for s in json.load(f)["stacks"]]
        err_path = os.path.join(work, "serve.err")
        with open(err_path, "w") as err:
            server = subprocess.Popen([carcsolo, "serve", "--port", "0", "--analyser", "heuristic", "--rollouts", "2", "--candidates", "4"],
                                      stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            line = server.stdout.readline()
            if not line.startswith("carcsolo serve: listening on http://127.0.0.1:"):
                fail("the server's first line: %r" % line)
            url = line.split()[4]
            play(carcsolo, url, stacks, work)
            if server.poll() is not None:
                fail("the server stopped during the game")
        finally:
            server.terminate()
            server.wait(timeout=30)
        with open(err_path) as f:
            refused = [l for l in f.read().splitlines() if "interrupted after" not in l]
        if refused:
            fail("the server refused requests of the page:\n" + "\n".join(refused))
        expansions(carcsolo, work)
        aimed(carcsolo, work)
        kept(carcsolo, work)
        markers(carcsolo, work)
    print("all checks passed")
    return 0


def play(carcsolo, url, stacks, work):
    downloads = os.path.join(work, "downloads")
    os.mkdir(downloads)
    wd = WebDriver(os.path.join(work, "profile"), logs=True)
    try:
        wd.s("POST", "/goog/cdp/execute", {"cmd": "Browser.setDownloadBehavior",
                                           "params": {"behavior": "allow", "downloadPath": downloads}})
        wd.s("POST", "/url", {"url": url})
        if wd.attr("body", "data-ready") != "1":
            fail("the page did not finish its script")
        wd.click("#btn-new")  # 3 colours and 4 meeples are the page's defaults, at the table
        wait_for(wd, "the new game", lambda: wd.attr("body", "data-phase") == "draw")
        start, decisions, draws, undone, reordered, reloaded = time.monotonic(), 0, 0, False, False, None
        game = wd.attr("body", "data-game")
        while True:
            if time.monotonic() - start > DEADLINE:
                fail("the game took more than %d s" % DEADLINE)
            phase = wd.attr("body", "data-phase")
            if phase == "over":
                break
            if not reloaded and int(wd.attr("body", "data-turn")) > RELOAD_AFTER:
                reloaded = reload(wd, game)
                continue
            if phase == "draw":
                c = int(wd.attr("body", "data-to-move"))
                tile = stacks[c].pop(0)
                actions = wd.attr("body", "data-actions")
                wd.click('.pick[data-tile="%s"]' % tile)
                draws += 1
                wait_for(wd, "the draw of " + tile, lambda: wd.attr("body", "data-actions") != actions)
            elif phase == "play":
                wait_for(wd, "the advice", lambda: wd.attr("body", "data-advice") == "ready")
                ghosts = wd.elements(".ghost")
                if not ghosts or wd.elements('.ghost[data-rank="0"]') == []:
                    fail("no ghost tile for the advice's best move")
                covered = {(wd.element_attr(g, "data-x"), wd.element_attr(g, "data-y")) for g in ghosts}
                free = [t for t in wd.elements(".target")
                        if (wd.element_attr(t, "data-x"), wd.element_attr(t, "data-y")) not in covered]
                if decisions % 4 != 1 or not free:
                    wd.click('.ghost[data-rank="0"]')
                else:
                    wd.s("POST", "/element/%s/click" % free[-1], {})
                    wd.click("#btn-rot")
                if not wd.elements(".target.chosen"):
                    fail("the clicked move is not marked on the board")
                turn, actions = wd.attr("body", "data-turn"), int(wd.attr("body", "data-actions"))
                if os.environ.get("SHOT") and decisions == 12:
                    with open(os.environ["SHOT"], "wb") as f:
                        f.write(base64.b64decode(wd.s("GET", "/screenshot")))
                wd.click("#btn-place")
                wait_for(wd, "the move", lambda: int(wd.attr("body", "data-actions")) == actions + 1)
                decisions += 1
                if decisions == 3 and not undone:
                    wd.click("#btn-undo")
                    wait_for(wd, "the undo", lambda: int(wd.attr("body", "data-actions")) == actions)
                    if wd.attr("body", "data-phase") != "play" or wd.attr("body", "data-turn") != turn:
                        fail("undo did not give back the move of turn %s" % turn)
                    undone = True
                    decisions -= 1
            elif phase == "order":
                actions = int(wd.attr("body", "data-actions"))
                ups = wd.elements(".order-up")
                if ups:
                    wd.s("POST", "/element/%s/click" % ups[-1], {})
                    reordered = True
                wd.click("#btn-order")
                wait_for(wd, "the order", lambda: int(wd.attr("body", "data-actions")) == actions + 1)
            else:
                fail("unknown phase %r" % phase)
        if not undone:
            fail("no move was undone")
        if not reloaded:
            fail("the page was never reloaded")
        if wd.attr("body", "data-game") != game or not wd.attr("#dl-log", "href").endswith("/api/log?id=" + game):
            fail("the game finished is not the game begun (%s)" % game)
        shown = wd.text("#final")
        wd.click("#dl-log")
        wd.click("#dl-analysis")
        files = {}
        end = time.monotonic() + 120
        while time.monotonic() < end and len(files) < 2:
            files = {n: os.path.join(downloads, n) for n in os.listdir(downloads) if n.endswith(".json")}
            time.sleep(0.2)
        if set(files) != {"carcsolo-game.json", "carcsolo-analysis.json"}:
            fail("downloaded %s, not the log and the analysis" % sorted(os.listdir(downloads)))
        practice(wd)
        no_console_errors(wd)
    finally:
        wd.close()
    with open(files["carcsolo-game.json"]) as f:
        log = json.load(f)
    log_path = os.path.join(work, "game.jsonl")
    with open(log_path, "w") as f:
        f.write(json.dumps(log) + "\n")
    r = subprocess.run([carcsolo, "verify", log_path], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail("verify of the downloaded log: %s %s" % (r.stdout, r.stderr))
    if "Result %d" % log["result"] not in shown:
        fail("the page shows %r, the log's result is %d" % (shown, log["result"]))
    with open(os.path.join(work, "deal.json")) as f:
        dealt = json.load(f)["stacks"]
    drawn = 0
    for c, s in enumerate(log["stacks"]):  # the tiles as drawn, then the unseen ones
        n = len(dealt[c]) - len(stacks[c])
        drawn += n
        if list(s)[:n] != list(dealt[c])[:n]:
            fail("colour %d's stack in the log is not the tiles clicked" % c)
    with open(files["carcsolo-analysis.json"]) as f:
        analysis = json.load(f)
    if len(analysis["games"]) != 1 or not analysis["games"][0]["analysis"]:
        fail("the analysis downloaded has no decision")
    print("ok a game at the table by clicks: %d draws, %d moves, %s, %d tiles drawn, result %d; "
          "the log verified, the analysis has %d decisions"
          % (draws, decisions, "scoring reordered" if reordered else "no order to choose", drawn, log["result"],
             len(analysis["games"][0]["analysis"])))
    print("ok %s; the game finished after it is the same game (id %s), its log verified" % (reloaded, game))


def where(wd):
    return tuple(wd.attr("body", k) for k in ("data-game", "data-phase", "data-turn", "data-actions"))


def reload(wd, game):
    """Reloads the page in the middle of the game: leaving asks first, and the page comes back
    to the same game (the id in the address) at the same turn, phase and actions."""
    wait_for(wd, "the log kept", lambda: wd.attr("body", "data-kept") == wd.attr("body", "data-actions"))
    before = where(wd)
    if not leaving_asks(wd):
        fail("leaving the page in the middle of the game does not ask first")
    url = execute(wd, "return location.href;")
    if not url.endswith("?game=" + game):
        fail("the address %r does not name the game %s" % (url, game))
    wd.s("POST", "/refresh", {})
    wait_for(wd, "the reloaded page", lambda: wd.attr("body", "data-ready") == "1" and wd.attr("body", "data-phase") is not None)
    after = where(wd)
    if after != before:
        fail("after the reload the page shows (game, phase, turn, actions) %s, before it %s" % (after, before))
    return "reloaded at turn %s (%s actions): the same game, phase and turn" % (before[2], before[3])


def practice(wd):
    """The same page deals a game for practice: a few moves on the advice, no tile to tell."""
    wd.click("#mode-practice")
    wd.click("#btn-new")
    wait_for(wd, "the practice game", lambda: wd.attr("body", "data-phase") == "play")
    if "practice · seed 1 · game 0" not in wd.text("#meta"):
        fail("the practice game's header says %r" % wd.text("#meta"))
    for move in range(3):
        wait_for(wd, "the advice", lambda: wd.attr("body", "data-advice") == "ready")
        play_advised(wd, "the practice move")
        if wd.attr("body", "data-phase") != "play" or wd.elements(".pick:not([disabled])") and \
                wd.attr("#draw-panel", "class") != "hidden":
            fail("a practice game asked for a draw")
    print("ok the practice game: 3 moves on the advice, its tiles dealt")


def picks(wd):
    return execute(wd, "return [...document.querySelectorAll('.pick')].map((b) => [b.dataset.tile, "
                       "b.querySelector('.name').textContent, b.disabled]);")


def expansions(carcsolo, work):
    """A server of base+inns+river with the large meeple: the page names the set; while the
    river is laid the picker offers the river tiles only, in order, the lake only as the last;
    the large meeple is offered and placed (the scoreboard says it left the supply); the lake is
    drawn as a lake; after the river the picker lists the land tiles in natural order
    (A..X, I1..I17), each with its name."""
    server = subprocess.Popen([carcsolo, "serve", "--port", "0", "--tileset", "base+inns+river", "--large-meeple",
                               "--analyser", "heuristic", "--rollouts", "2", "--candidates", "4", "-q"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    wd = WebDriver(os.path.join(work, "profile-expansions"), logs=True)
    river = ["R%d" % i for i in range(1, 10)]
    land = [chr(c) for c in range(ord("A"), ord("X") + 1)] + ["I%d" % i for i in range(1, 18)]
    try:
        url = server.stdout.readline().split()[4]
        wd.s("POST", "/url", {"url": url})
        wd.click("#btn-new")  # at the table: the river first
        wait_for(wd, "the new game", lambda: wd.attr("body", "data-phase") == "draw")
        if "base+inns+river · large meeple" not in wd.text("#meta") or "river stack" not in wd.text("#status"):
            fail("the page does not say the set or the river: %r, %r" % (wd.text("#meta"), wd.text("#status")))
        laid, lake_offered = [], None
        while wd.attr("body", "data-phase") != "over" and "river stack" in wd.text("#status"):
            if wd.attr("body", "data-phase") == "order":
                wd.click("#btn-order")
                wait_for(wd, "the order", lambda: wd.attr("body", "data-phase") != "order")
                continue
            offered = picks(wd)
            names = [t for t, _, _ in offered]
            if any(t not in river or t != name or off for t, name, off in offered) or \
                    names != sorted(names, key=river.index):
                fail("while the river is laid the picker offers %s" % offered)
            if "R9" in names:
                lake_offered = names
            tile = "R1" if not laid else names[0]
            actions = wd.attr("body", "data-actions")
            wd.click('.pick[data-tile="%s"]' % tile)
            wait_for(wd, "the draw of " + tile, lambda: wd.attr("body", "data-actions") != actions)
            laid.append(tile)
            wait_for(wd, "the advice", lambda: wd.attr("body", "data-advice") == "ready")
            wd.click('.ghost[data-rank="0"]')
            if len(laid) == 1:
                if "large" not in wd.text("#supply-0"):
                    fail("the scoreboard does not show colour 0's large meeple: %r" % wd.text("#supply-0"))
                large = wd.elements('.meeple-opt[data-large="1"]')
                if not large:
                    fail("no large-meeple option is offered")
                wd.s("POST", "/element/%s/click" % large[0], {})
                if "large meeple on" not in wd.text("#move-text"):
                    fail("the chosen move does not say large meeple: %r" % wd.text("#move-text"))
            actions = int(wd.attr("body", "data-actions"))
            wd.click("#btn-place")
            wait_for(wd, "the move", lambda: int(wd.attr("body", "data-actions")) == actions + 1)
            if len(laid) == 1 and "large" in wd.text("#supply-0"):
                fail("the large meeple is still in colour 0's supply: %r" % wd.text("#supply-0"))
        if lake_offered != ["R9"] or laid[-1] != "R9":
            fail("the lake was offered among %s, laid %s" % (lake_offered, laid))
        if not wd.elements('#tiles .tile[data-tile="R9"] .lake'):
            fail("the lake on the board is not drawn as a lake")
        while wd.attr("body", "data-phase") == "order":
            wd.click("#btn-order")
            wait_for(wd, "the order", lambda: wd.attr("body", "data-phase") != "order")
        offered = picks(wd)
        if [t for t, _, _ in offered] != land or any(t != name for t, name, _ in offered):
            fail("after the river the picker offers %s" % [t for t, _, _ in offered])
        no_console_errors(wd)
    finally:
        wd.close()
        server.terminate()
        server.wait(timeout=30)
    print("ok base+inns+river with the large meeple: the river offered alone and in order (%s), the lake last and "
          "drawn as a lake, the large meeple placed; then the land tiles A..X, I1..I17 in order, named" % " ".join(laid))


def aimed(carcsolo, work):
    """A goal chosen before the game (the setup's aim) and changed during it (the advice's): the
    advice says what it values, and the server answers every request of the page."""
    server = subprocess.Popen([carcsolo, "serve", "--port", "0",
                               "--analyser", "search:candidates=8,beam=3,rollouts=2,turns=2", "-q"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wd = WebDriver(os.path.join(work, "profile-aim"), logs=True)
    try:
        url = server.stdout.readline().split()[4]
        wd.s("POST", "/url", {"url": url})
        wd.click('#in-aim option[value="monastery_4"]')
        wd.click("#mode-practice")
        wd.click("#btn-new")
        wait_for(wd, "the aimed game", lambda: wd.attr("body", "data-phase") == "play")
        if wd.attr("body", "data-aim") != "monastery_4":
            fail("the game does not play for the goal chosen: %r" % wd.attr("body", "data-aim"))
        wait_for(wd, "the aimed advice", lambda: wd.attr("body", "data-advice") == "ready")
        if "chance of monastery_4" not in wd.text("#advice"):
            fail("the advice does not say it values the goal's chance: %r" % wd.text("#advice"))
        play_advised(wd, "the aimed move")
        wd.click('#aim option[value="goals"]')
        wait_for(wd, "the aim changed", lambda: wd.attr("body", "data-aim") == "goals")
        wait_for(wd, "the advice for the goals", lambda: wd.attr("body", "data-advice") == "ready")
        if "expected goals" not in wd.text("#advice"):
            fail("the advice after the change does not value the goals: %r" % wd.text("#advice"))
        no_console_errors(wd)
    finally:
        wd.close()
        server.terminate()
        _, err = server.communicate(timeout=30)
    refused = [l for l in err.splitlines() if "interrupted after" not in l]
    if refused:
        fail("the server refused requests of the aimed page:\n" + "\n".join(refused))
    print("ok a goal chosen before the game and changed during it: the advice values it")


if __name__ == "__main__":
    sys.exit(main())
