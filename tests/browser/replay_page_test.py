#!/usr/bin/env python3
"""End-to-end test of `carcsolo replay --html` in headless Chromium (run by ctest).

  replay_page_test.py dump-dom CARCSOLO   the page's own navigation: URL hashes that pick a
                                          step or click the step buttons, read back with
                                          chromium --dump-dom
  replay_page_test.py clicks CARCSOLO     real clicks and key presses through chromedriver
                                          (W3C WebDriver on a loopback port)
  replay_page_test.py analysis CARCSOLO   the page with `--analysis`: through chromedriver, no
                                          console errors, clicking the loss strip goes to the
                                          turn, and the ghost tiles are the analysis' best moves

Both check, for a few seeded games, that the scoreboard shown (#score-C, #supply-C) equals
the log's: the start scores at the first step, turns[k].scores after step k+1, the final
scores at the last step. Exit status 77 (ctest SKIP_RETURN_CODE) when Chromium, or for
`clicks` chromedriver, is not installed; scripts/test installs both.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

SKIP = 77
GAMES = [  # colours, meeples, seed, game: short and long games, a discard, 2..4 colours
    (3, 4, 7, 17),
    (4, 5, 9, 1),
    (2, 8, 3, 7),  # draws a tile that fits nowhere
]
CHROMIUM_FLAGS = ["--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000"]
if os.geteuid() == 0:
    CHROMIUM_FLAGS.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def make_pages(carcsolo, work):
    pages = []
    for colors, meeples, seed, game in GAMES:
        stem = os.path.join(work, "g%d-%d" % (seed, game))
        subprocess.run([carcsolo, "replay", "--colors", str(colors), "--meeples", str(meeples), "--seed", str(seed),
                        "--game", str(game), "--html", stem + ".html", "--out", stem + ".json"],
                       check=True, timeout=120)
        with open(stem + ".json") as f:
            log = json.load(f)
        pages.append(("file://" + stem + ".html", log))
    return pages


def expected(log, step):
    """Scores and supplies the page must show after `step`."""
    k = log["config"]["colors"]
    turns = log["turns"]
    if step == 0:
        return log["config"].get("start_scores", list(range(1, k + 1))), [log["config"]["meeples"]] * k
    if step <= len(turns):
        return turns[step - 1]["scores"], turns[step - 1]["supply"]
    return log["scores"], (turns[-1]["supply"] if turns else [log["config"]["meeples"]] * k)


# ---------------------------------------------------------------------------------------
# dump-dom: the page's hash navigation
# ---------------------------------------------------------------------------------------
def dump_dom(url, profile):
    r = subprocess.run(["chromium"] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile, "--dump-dom", url],
                       capture_output=True, text=True, timeout=180)
    if r.returncode != 0 or "<body" not in r.stdout:
        fail("chromium --dump-dom %s: exit %d\n%s" % (url, r.returncode, r.stderr[-3000:]))
    return r.stdout


def shown(dom, k):
    body = re.search(r"<body([^>]*)>", dom).group(1)
    step = re.search(r'data-step="(\d+)"', body)
    ready = 'data-ready="1"' in body
    scores = [re.search(r'id="score-%d"[^>]*data-value="(-?\d+)"' % c, dom) for c in range(k)]
    supply = [re.search(r'id="supply-%d"[^>]*data-value="(-?\d+)"' % c, dom) for c in range(k)]
    if not ready or not step or not all(scores) or not all(supply):
        fail("the page did not render its scoreboard (script error?)")
    return int(step.group(1)), [int(m.group(1)) for m in scores], [int(m.group(1)) for m in supply]


def run_dump_dom(pages, work):
    checks = 0
    for n, (url, log) in enumerate(pages):
        k, last = log["config"]["colors"], len(log["turns"]) + 1
        cases = [("#step=last", last), ("#steps=next,next,next", 3), ("#steps=last,prev,prev,first,next", 1)]
        for i, (hash_, step) in enumerate(cases):
            dom = dump_dom(url + hash_, os.path.join(work, "profile-%d-%d" % (n, i)))
            got = shown(dom, k)
            want = (step,) + expected(log, step)
            if got != (step, list(want[1]), list(want[2])):
                fail("%s%s: shown step/scores/supplies %s, the log says %s" % (url, hash_, got, want))
            checks += 1
            if step == last:
                final = re.search(r'<div id="final">(.*?)</div>', dom, re.S).group(1)
                if final.count("<li>") != len(log["final_scoring"]):
                    fail("%s: %d final scoring entries shown, the log has %d"
                         % (url, final.count("<li>"), len(log["final_scoring"])))
                if "Result %d" % log["result"] not in final:
                    fail("%s: the final result %d is not shown" % (url, log["result"]))
                shown_discards = re.search(r'<div id="discards">(.*?)</div>', dom, re.S).group(1).count("turn ")
                if shown_discards != log["end"]["discarded"]:
                    fail("%s: %d discards listed, the log has %d" % (url, shown_discards, log["end"]["discarded"]))
        print("ok %s: %d steps, final scores %s" % (url.rsplit("/", 1)[1], last, log["scores"]))
    return checks


# ---------------------------------------------------------------------------------------
# clicks: chromedriver
# ---------------------------------------------------------------------------------------
class WebDriver:
    KEYS = {"End": "\ue010", "Home": "\ue011", "ArrowLeft": "\ue012", "ArrowRight": "\ue014"}

    def __init__(self, profile, logs=False):
        with socket.socket() as s:  # a free loopback port for chromedriver
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(["chromedriver", "--port=%d" % self.port],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = "http://127.0.0.1:%d" % self.port
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.call("GET", "/status")["value"].get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError):
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                fail("chromedriver did not start")
            time.sleep(0.2)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": shutil.which("chromium"), "args": CHROMIUM_FLAGS + ["--user-data-dir=" + profile]}}}}
        if logs:  # the browser console, read back by console()
            caps["capabilities"]["alwaysMatch"]["goog:loggingPrefs"] = {"browser": "ALL"}
        self.session = self.call("POST", "/session", caps)["value"]["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            fail("WebDriver %s %s: %s" % (method, path, e.read().decode(errors="replace")[:2000]))

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.session, path), body)["value"]

    def element(self, css):
        v = self.s("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(v.values()))

    def click(self, css):
        self.s("POST", "/element/%s/click" % self.element(css), {})

    def key(self, name):
        k = self.KEYS[name]
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]}]})

    def elements(self, css):
        v = self.s("POST", "/elements", {"using": "css selector", "value": css})
        return [next(iter(e.values())) for e in v]

    def element_attr(self, element, name):
        return self.s("GET", "/element/%s/attribute/%s" % (element, name))

    def console(self):
        """The browser console's entries since the last call (chromedriver's log endpoint)."""
        return self.s("POST", "/se/log", {"type": "browser"})

    def text(self, css):
        return self.s("GET", "/element/%s/text" % self.element(css))

    def attr(self, css, name):
        return self.s("GET", "/element/%s/attribute/%s" % (self.element(css), name))

    def close(self):
        try:
            if getattr(self, "session", None):
                self.s("DELETE", "")
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def run_clicks(pages, work):
    wd = WebDriver(os.path.join(work, "profile-wd"))
    checks = 0
    try:
        for url, log in pages:
            k, last = log["config"]["colors"], len(log["turns"]) + 1
            wd.s("POST", "/url", {"url": url})

            def check(what, step):
                nonlocal checks
                got_step = int(wd.attr("body", "data-step"))
                scores = [int(wd.text("#score-%d" % c)) for c in range(k)]
                supply = [int(wd.text("#supply-%d" % c)) for c in range(k)]
                want_scores, want_supply = expected(log, step)
                if (got_step, scores, supply) != (step, list(want_scores), list(want_supply)):
                    fail("%s after %s: shown step %d, scores %s, supplies %s; the log says step %d, %s, %s"
                         % (url, what, got_step, scores, supply, step, want_scores, want_supply))
                checks += 1

            check("loading", 0)
            wd.click("#btn-next")
            wd.click("#btn-next")
            check("clicking next twice", 2)
            wd.key("End")
            check("pressing End", last)
            if wd.text("#step-label").split(" (")[0] != "Final scoring":
                fail("%s: the last step is not labelled as the final scoring" % url)
            wd.key("ArrowLeft")
            check("pressing Left", last - 1)
            wd.click("#btn-prev")
            check("clicking prev", last - 2)
            wd.key("Home")
            check("pressing Home", 0)
            wd.key("ArrowRight")
            check("pressing Right", 1)
            wd.click("#btn-last")
            check("clicking last", last)
            wd.click("#btn-first")
            check("clicking first", 0)
            print("ok %s: clicks and keys, final scores %s" % (url.rsplit("/", 1)[1], log["scores"]))
    finally:
        wd.close()
    return checks


# ---------------------------------------------------------------------------------------
# analysis: the page of `replay --analysis`
# ---------------------------------------------------------------------------------------
GHOSTS = 3


def make_analysis_pages(carcsolo, work):
    """Two games of a player, analysed (few rollouts: the page is tested, not the figures)."""
    subprocess.run([carcsolo, "analyse", "--analyser", "heuristic", "--placement", "greedy", "--scoring", "best", "--games", "2", "--seed", "7",
                    "--rollouts", "3", "--candidates", "5", "--threads", "1", "-q",
                    "--out", os.path.join(work, "a.json"), "--log", os.path.join(work, "g.jsonl")],
                   check=True, timeout=600)
    with open(os.path.join(work, "a.json")) as f:
        analysis = json.load(f)
    pages = []
    for game in range(2):
        html = os.path.join(work, "a%d.html" % game)
        subprocess.run([carcsolo, "replay", "--from", os.path.join(work, "g.jsonl"), "--game", str(game),
                        "--analysis", os.path.join(work, "a.json"), "--ghosts", str(GHOSTS), "--html", html, "-q"],
                       check=True, timeout=120)
        with open(os.path.join(work, "g.jsonl")) as f:
            log = json.loads(f.read().splitlines()[game])
        pages.append(("file://" + html, log, analysis["games"][game]))
    return pages


def best_moves(decision):
    """The decision's GHOSTS best moves, by rank, as the ghosts' data attributes spell them."""
    ranked = sorted(decision["moves"], key=lambda m: m["rank"])[:GHOSTS]
    return sorted((m["x"], m["y"], m["rot"], m["meeple"] or "", m["rank"]) for m in ranked)


def run_analysis(pages, work):
    wd = WebDriver(os.path.join(work, "profile-analysis"), logs=True)
    checks = 0
    try:
        for url, log, game in pages:
            wd.s("POST", "/url", {"url": url})
            if wd.attr("body", "data-ready") != "1":
                fail("%s: the page did not finish its script" % url)
            step_of_turn = {t["turn"]: k + 1 for k, t in enumerate(log["turns"])}
            bars = wd.elements(".loss-bar")
            if len(bars) != len(game["analysis"]):
                fail("%s: %d bars in the loss strip, %d decisions analysed" % (url, len(bars), len(game["analysis"])))
            decisions = game["analysis"]
            # a few turns: the first, the costliest, the last, reached by clicking their slot
            costliest = max(decisions, key=lambda d: d["loss"])
            # and the first whose best moves put two ghosts on one cell (other rotations)
            shared = [d for d in decisions if len({(x, y) for x, y, *_ in best_moves(d)}) < len(best_moves(d))]
            if not shared:
                fail("%s: no decision with two best moves on one cell: the test of shared cells cannot run" % url)
            for d in (decisions[0], costliest, decisions[-1], shared[0]):
                step = step_of_turn[d["turn"]]
                wd.click('.loss-slot[data-step="%d"]' % step)
                if int(wd.attr("body", "data-step")) != step:
                    fail("%s: clicking turn %d's slot shows step %s, not %d"
                         % (url, d["turn"], wd.attr("body", "data-step"), step))
                shown = sorted((int(wd.element_attr(e, "data-x")), int(wd.element_attr(e, "data-y")),
                                int(wd.element_attr(e, "data-rot")), wd.element_attr(e, "data-meeple"),
                                int(wd.element_attr(e, "data-rank"))) for e in wd.elements("#ghosts .ghost"))
                if shown != best_moves(d):
                    fail("%s turn %d: ghosts %s, the analysis' best moves %s" % (url, d["turn"], shown, best_moves(d)))
                # every ghost visible: none covers another (ghosts of one cell share it)
                rects = [wd.s("GET", "/element/%s/rect" % e) for e in wd.elements("#ghosts .ghost")]
                for i, a in enumerate(rects):
                    for b in rects[:i]:
                        w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
                        h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
                        if w > 1 and h > 1:
                            fail("%s turn %d: two ghosts overlap (%s and %s)" % (url, d["turn"], a, b))
                played = wd.elements("#ghosts .ghost.played")
                if (d["played_rank"] < GHOSTS) != (len(played) == 1):
                    fail("%s turn %d: %d ghosts marked played, the played move's rank is %d"
                         % (url, d["turn"], len(played), d["played_rank"]))
                if "loss %.2f" % d["loss"] not in wd.text("#analysis"):
                    fail("%s turn %d: the panel does not show the loss %.2f" % (url, d["turn"], d["loss"]))
                checks += 1
            wd.key("Home")
            if wd.elements("#ghosts .ghost"):
                fail("%s: ghosts at the start, where no decision was analysed" % url)
            errors = [e for e in wd.console() if e.get("level") == "SEVERE"]
            if errors:
                fail("%s: console errors: %s" % (url, errors))
            checks += 1
            print("ok %s: %d decisions, ghosts and strip as analysed" % (url.rsplit("/", 1)[1], len(decisions)))
    finally:
        wd.close()
    return checks


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("dump-dom", "clicks", "analysis"):
        print(__doc__)
        return 2
    mode, carcsolo = sys.argv[1], sys.argv[2]
    if not shutil.which("chromium"):
        print("SKIP: chromium is not installed (Debian package chromium)")
        return SKIP
    if mode in ("clicks", "analysis") and not shutil.which("chromedriver"):
        print("SKIP: chromedriver is not installed (Debian package chromium-driver)")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="carcsolo-browser-") as work:
        if mode == "analysis":
            checks = run_analysis(make_analysis_pages(carcsolo, work), work)
        else:
            pages = make_pages(carcsolo, work)
            checks = run_dump_dom(pages, work) if mode == "dump-dom" else run_clicks(pages, work)
    print("all %d checks passed" % checks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
