#!/usr/bin/env python3
"""The HTTP API of `carcsolo serve` (run by ctest): serve_api_test.py CARCSOLO

Bad options exit 2 with one line; a server on a free loopback port answers malformed,
oversized, wrongly typed and out-of-order requests each with an error status, a JSON
{"error": ...} and exactly one line on stderr; two games played interleaved keep their own
state (one dealt for practice, played to its end on the advice: its log passes `verify`
and its analysis is given; one at the table, told its draws); undo gives back the state
before the last action; the server still answers afterwards and SIGTERM stops it with exit
status 130 and one line. Every request goes to 127.0.0.1, with a timeout.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CARCSOLO = None
ADVICE = ["--analyser", "heuristic", "--rollouts", "2", "--candidates", "3"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


class Served:
    """A `carcsolo serve --port 0` in the background, its stderr in a file."""

    def __init__(self, work, extra=()):
        self.err_path = os.path.join(work, "serve-%d.err" % time.monotonic_ns())
        self.err = open(self.err_path, "w")
        self.proc = subprocess.Popen([CARCSOLO, "serve", "--port", "0"] + ADVICE + list(extra),
                                     stdout=subprocess.PIPE, stderr=self.err, text=True)
        line = self.proc.stdout.readline()
        check(line.startswith("carcsolo serve: listening on http://"), "first line: %r" % line)
        self.base = line.split()[4].rstrip("/")
        self.port = int(self.base.rsplit(":", 1)[1])
        self.refused = 0  # requests answered with an error status: one stderr line each

    def stderr_lines(self):
        self.err.flush()
        with open(self.err_path) as f:
            return f.read().splitlines()

    def request(self, method, path, body=None, raw_body=None, want=200):
        data = raw_body if raw_body is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        if status >= 400:
            self.refused += 1
        check(status == want, "%s %s %s: status %d, wanted %d: %s" % (method, path, body, status, want, text[:300]))
        if status >= 400:
            j = json.loads(text)
            check(isinstance(j.get("error"), str) and j["error"], "%s %s: no error text" % (method, path))
        return json.loads(text) if text.startswith("{") else text

    def raw(self, data):
        """Bytes sent as they are; the status of the answer (read to its end: the connection stays open)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            s.sendall(data)
            answer = b""
            while b"\r\n\r\n" not in answer:
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
            while length and len(body) < length[0]:
                chunk = s.recv(65536)
                if not chunk:
                    break
                body += chunk
        self.refused += 1
        check(json.loads(body).get("error"), "no error text in the answer to %r" % data[:40])
        return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("the server did not stop on SIGTERM")
        return rc


def bad_options(work):
    for args, word in ((["--port", "70000"], "port"), (["--rollouts", "0"], "rollouts"),
                       (["--analyser", "nosuch"], "nosuch"), (["--host", "no.such.host.invalid", "--port", "0"], "listen"),
                       (["stray"], "stray"), (["--tileset", "nosuchset"], "--tileset"),
                       (["--tileset", "base+inns", "--analyser", "value"], "--analyser")):
        r = subprocess.run([CARCSOLO, "serve"] + args, capture_output=True, text=True, timeout=60)
        lines = r.stderr.splitlines()
        check(r.returncode == 2 and len(lines) == 1 and lines[0].startswith("carcsolo serve: ") and word in lines[0],
              "serve %s: exit %d, stderr %r" % (args, r.returncode, r.stderr))
    print("ok bad options: exit 2, one line each")


def malformed(sv):
    check(sv.raw(b"GARBAGE\r\n\r\n") == 400, "a request line that is no HTTP: not 400")
    check(sv.raw(b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n") in (400, 414), "a 10 kB URI: not refused")
    big = b"{" + b" " * 100000 + b"}"
    check(sv.raw(b"POST /api/new HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                 % len(big) + big) == 413, "a 100 kB body: not 413")
    sv.request("POST", "/api/new", raw_body=b"{not json", want=400)
    sv.request("POST", "/api/new", raw_body=b"[1, 2]", want=400)
    sv.request("POST", "/api/new", {"colors": "3"}, want=400)
    sv.request("POST", "/api/new", {"colors": 9}, want=400)
    sv.request("POST", "/api/new", {"meeples": 2.5}, want=400)
    sv.request("POST", "/api/new", {"mode": "tournament"}, want=400)
    sv.request("POST", "/api/new", {"seed": -1}, want=400)
    sv.request("POST", "/api/new", {"seed": 10 ** 30}, want=400)
    sv.request("POST", "/api/draw", {"tile": "A"}, want=400)  # no id
    sv.request("POST", "/api/draw", {"id": 7, "tile": "A"}, want=400)
    sv.request("POST", "/api/draw", {"id": "0" * 32, "tile": "A"}, want=404)
    sv.request("GET", "/api/state?id=nosuchgame", want=404)
    sv.request("GET", "/api/state", want=400)
    sv.request("GET", "/nosuchpage", want=404)
    sv.request("DELETE", "/api/new", want=404)
    print("ok malformed, oversized and wrongly typed requests refused")


def out_of_order(sv):
    t = sv.request("POST", "/api/new", {"colors": 2, "meeples": 3, "mode": "table"})
    tid = t["id"]
    check(t["state"]["phase"] == "draw", "a table game does not start with a draw")
    sv.request("POST", "/api/play", {"id": tid, "x": 1, "y": 0, "rot": 0}, want=409)
    sv.request("GET", "/api/advice?id=" + tid, want=409)
    sv.request("POST", "/api/order", {"id": tid, "order": []}, want=409)
    sv.request("POST", "/api/undo", {"id": tid}, want=409)
    sv.request("GET", "/api/log?id=" + tid, want=409)
    sv.request("GET", "/api/analysis?id=" + tid, want=409)
    sv.request("POST", "/api/draw", {"id": tid, "tile": "Z"}, want=400)
    sv.request("POST", "/api/draw", {"id": tid, "tile": "AB"}, want=400)
    sv.request("POST", "/api/draw", {"id": tid, "tile": 3}, want=400)
    s = sv.request("POST", "/api/draw", {"id": tid, "tile": "V"})["state"]
    check(s["phase"] == "play" and s["tile"] == "V", "after drawing V: %s" % s["phase"])
    sv.request("POST", "/api/draw", {"id": tid, "tile": "V"}, want=409)  # a tile already in hand
    sv.request("POST", "/api/play", {"id": tid, "x": 40, "y": 40, "rot": 0}, want=409)  # not legal
    sv.request("POST", "/api/play", {"id": tid, "x": 1, "y": 0, "rot": 7}, want=400)
    sv.request("POST", "/api/play", {"id": tid, "x": "1", "y": 0, "rot": 0}, want=400)
    p = sv.request("POST", "/api/new", {"mode": "practice", "seed": 5})
    sv.request("POST", "/api/draw", {"id": p["id"], "tile": "A"}, want=409)  # a dealt game draws itself
    print("ok out-of-order requests: 409 each")
    return tid


def play_advised(sv, gid, state):
    """Plays the advice's best move (or, for scoring orders, the reversed order); the new state."""
    if state["phase"] == "order":
        n = len(state["completed"])
        return sv.request("POST", "/api/order", {"id": gid, "order": list(range(n))[::-1]})["state"]
    a = sv.request("GET", "/api/advice?id=" + gid)
    check(a["tile"] == state["tile"] and a["moves"], "advice for the wrong tile or no moves")
    m = a["moves"][0]
    body = {"id": gid, "x": m["x"], "y": m["y"], "rot": m["rot"], "meeple": m["meeple"]}
    if "large" in m:
        body["large"] = m["large"]
    return sv.request("POST", "/api/play", body)["state"]


def interleaved(sv, work, tid):
    """Practice game P played to its end, the table game T (V in hand) told its draws, in turns."""
    p = sv.request("POST", "/api/new", {"colors": 3, "meeples": 4, "mode": "practice", "seed": 7, "game": 17})
    pid, ps = p["id"], p["state"]
    ts = sv.request("GET", "/api/state?id=" + tid)
    check(pid != tid, "two games got one id")
    t_tiles = len(ts["board"])
    moves = 0
    undone = False
    while ps["phase"] != "over":
        before = ps
        ps = play_advised(sv, pid, ps)
        moves += 1
        if not undone and moves == 5:  # undo gives back the state before the last action
            back = sv.request("POST", "/api/undo", {"id": pid})["state"]
            check(back == before, "after undo: %s, before the move: %s" % (back, before))
            ps = play_advised(sv, pid, back)
            undone = True
        check(moves < 400, "the practice game does not end")
        # the table game between two of P's actions: its own board, its own tile
        ts2 = sv.request("GET", "/api/state?id=" + tid)
        check(len(ts2["board"]) == t_tiles, "the table game's board changed by the practice game's move")
        if ts2["phase"] == "play" and moves % 10 == 0:
            ts2 = play_advised(sv, tid, ts2)
            check(len(ts2["board"]) == t_tiles + 1, "the table game's move did not land on its board")
            t_tiles += 1
        elif ts2["phase"] == "draw":
            letters = [t for t, n in ts2["unseen"].items() if n > 0]
            ts2 = sv.request("POST", "/api/draw", {"id": tid, "tile": letters[moves % len(letters)]})["state"]
        check(ts2["mode"] == "table", "the table game's state is not a table game's")
    check(ps["mode"] == "practice" and ps["seed"] == 7 and ps["game"] == 17, "the practice game's setup changed")
    log = sv.request("GET", "/api/log?id=" + pid)
    path = os.path.join(work, "practice.jsonl")
    with open(path, "w") as f:
        f.write(json.dumps(log) + "\n")
    r = subprocess.run([CARCSOLO, "verify", path], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, "verify of the practice game's log: %s %s" % (r.stdout, r.stderr))
    check(log["result"] == ps["result"] and log["seed"] == 7 and log["game"] == 17,
          "the log's result or deal is not the game's")
    a = sv.request("GET", "/api/analysis?id=" + pid)
    check(len(a["games"]) == 1 and len(a["games"][0]["analysis"]) > 0, "the analysis has no decision")
    print("ok two games interleaved: the practice game (%d actions, result %d) verified and analysed; "
          "the table game kept its %d tiles" % (moves, ps["result"], t_tiles))


def expansions(work):
    """A server of base+inns+river with the large meeple: the river drawn first at the table, a
    practice game played to its end on the advice (large meeples placed), its log verified."""
    sv = Served(work, ["--tileset", "base+inns+river", "--large-meeple"])
    try:
        t = sv.request("POST", "/api/new", {"colors": 3, "meeples": 2})
        tid, ts = t["id"], t["state"]
        check(ts["tileset"] == "base+inns+river" and ts["large_meeple"] and ts["river_left"] == 11,
              "the table game's state does not name its set: %s" % {k: ts.get(k) for k in ("tileset", "river_left")})
        check("I1" in ts["unseen"] and "R1" in ts["unseen"] and "R0" not in ts["unseen"],
              "the unseen tiles are not the set's (R0 is the spring, on the board)")
        err = sv.request("POST", "/api/draw", {"id": tid, "tile": "V"}, want=409)
        check("river is laid first" in err["error"], "a land tile while the river flows: %s" % err)
        ts = sv.request("POST", "/api/draw", {"id": tid, "tile": "R1"})["state"]
        check(ts["phase"] == "play" and ts["tile"] == "R1" and ts["river_left"] == 10, "R1 was not taken")
        rots = ts["legal"][0]["rots"][0]
        check(rots["large"] and not rots["only_large"], "the large meeple is not offered: %s" % rots)
        seg = rots["meeples"][0]["name"]
        ts = sv.request("POST", "/api/play", {"id": tid, "x": ts["legal"][0]["x"], "y": ts["legal"][0]["y"],
                                              "rot": rots["rot"], "meeple": seg, "large": True})["state"]
        placed = [b for b in ts["board"] if b["meeple"]]
        check(len(placed) == 1 and placed[0]["meeple"].get("large") and ts["large_supply"][0] == 0,
              "the large meeple is not on the board: %s" % placed)
        p = sv.request("POST", "/api/new", {"colors": 3, "meeples": 2, "mode": "practice", "seed": 3, "game": 5})
        pid, ps = p["id"], p["state"]
        moves = 0
        while ps["phase"] != "over":
            ps = play_advised(sv, pid, ps)
            moves += 1
            check(moves < 400, "the practice game does not end")
        log = sv.request("GET", "/api/log?id=" + pid)
        check(log["config"]["tileset"] == "base+inns+river" and log["config"]["large_meeple"] and
              "river_stack" in log, "the log does not record the set: %s" % log["config"])
        large = sum(1 for turn in log["turns"] if turn.get("large"))
        check(large > 0, "no large meeple was placed in the practice game")
        path = os.path.join(work, "practice-expansions.jsonl")
        with open(path, "w") as f:
            f.write(json.dumps(log) + "\n")
        r = subprocess.run([CARCSOLO, "verify", path], capture_output=True, text=True, timeout=120)
        check(r.returncode == 0, "verify of the expansions practice game: %s %s" % (r.stdout, r.stderr))
        a = sv.request("GET", "/api/analysis?id=" + pid)
        check(len(a["games"][0]["analysis"]) > 0, "the expansions game's analysis has no decision")
    finally:
        sv.stop()
    print("ok base+inns+river with the large meeple: the river first at the table, a practice game of "
          "%d actions (%d large meeples) verified and analysed" % (moves, large))


def main():
    global CARCSOLO
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    CARCSOLO = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="carcsolo-serve-") as work:
        bad_options(work)
        sv = Served(work)
        try:
            malformed(sv)
            tid = out_of_order(sv)
            interleaved(sv, work, tid)
            check(sv.proc.poll() is None, "the server is not running")
            page = sv.request("GET", "/")
            check("<title>carcsolo at the table</title>" in page, "the page is not served after all that")
            lines = sv.stderr_lines()
            check(len(lines) == sv.refused and all(l.startswith("carcsolo serve: ") for l in lines),
                  "%d requests refused, %d lines on stderr:\n%s" % (sv.refused, len(lines), "\n".join(lines)))
        finally:
            rc = sv.stop()
        lines = sv.stderr_lines()
        check(rc == 130 and lines[-1].startswith("carcsolo serve: interrupted after"),
              "SIGTERM: exit %d, last line %r" % (rc, lines[-1:]))
        print("ok %d refused requests, one line each; SIGTERM: exit 130" % sv.refused)
        # --host other than loopback: a warning line (no request is sent to it)
        wide = Served(work, ["--host", "0.0.0.0", "-q"])
        rc = wide.stop()
        check(rc == 130 and any("warning" in l and "0.0.0.0" in l for l in wide.stderr_lines()),
              "--host 0.0.0.0: no warning line: %s" % wide.stderr_lines())
        print("ok --host 0.0.0.0 warns")
        expansions(work)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
