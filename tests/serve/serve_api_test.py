#!/usr/bin/env python3
"""The HTTP API of `carcsolo serve` (run by ctest): serve_api_test.py CARCSOLO

Bad options exit 2 with one line; a server on a free loopback port answers malformed,
oversized, wrongly typed and out-of-order requests each with an error status, a JSON
{"error": ...} and exactly one line on stderr; two games played interleaved keep their own
state (one dealt for practice, played to its end on the advice: its log passes `verify`
and its analysis is given; one at the table, told its draws); undo gives back the state
before the last action; the server still answers afterwards and SIGTERM stops it with exit
status 130 and one line. Every request goes to 127.0.0.1, with a timeout.

The server holds (server_holds): a chunked body over the limit gets 413 and makes no game;
a second server on the same port exits 2; 16 clients sending their headers a byte a second
do not keep a normal request waiting 2 s; a Host or Origin of another site is refused; a
field holding a newline, an escape or a NUL leaves one log line with no raw control
character, and the reason of a refusal is logged whatever the client accepts; a wrong
method gets 405. A game resumes from its log (resumed): at the table and in practice, by
POST /api/resume and by `serve --resume`.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
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
        self.created = 0  # games started (/api/new, /api/resume)

    def stderr_lines(self, at_least=0):
        """The lines on stderr, waiting up to 5 s for `at_least` of them (the server logs a
        request after it has answered)."""
        deadline = time.monotonic() + 5
        while True:
            with open(self.err_path) as f:
                lines = f.read().splitlines()
            if len(lines) >= at_least or time.monotonic() > deadline:
                return lines
            time.sleep(0.05)

    def request(self, method, path, body=None, raw_body=None, want=200, headers=None):
        data = raw_body if raw_body is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers=dict({"Content-Type": "application/json"}, **(headers or {})))
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        if status >= 400:
            self.refused += 1
        elif path in ("/api/new", "/api/resume"):
            self.created += 1
        check(status == want, "%s %s %s: status %d, wanted %d: %s" % (method, path, body, status, want, text[:300]))
        if status >= 400:
            j = json.loads(text)
            check(isinstance(j.get("error"), str) and j["error"], "%s %s: no error text" % (method, path))
        return json.loads(text) if text.startswith("{") else text

    def host(self):
        return b"Host: 127.0.0.1:%d\r\n" % self.port

    def raw(self, data):
        """Bytes sent as they are; the status of the answer (read to its end)."""
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
    check(sv.raw(b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\n" + sv.host() + b"\r\n") in (400, 414),
          "a 10 kB URI: not refused")
    big = b"{" + b" " * 100000 + b"}"
    check(sv.raw(b"POST /api/new HTTP/1.1\r\n" + sv.host() + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
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
    sv.request("DELETE", "/api/new", want=405)
    sv.request("GET", "/api/new", want=405)
    sv.request("POST", "/api/state", {"id": "x"}, want=405)
    sv.request("PUT", "/nosuchpage", {"id": "x"}, want=404)
    err = sv.request("POST", "/api/new", raw_body=b'{"colors": -0}', want=400)
    check("-0" in err["error"], "-0 refused without saying so: %s" % err)
    t = sv.request("POST", "/api/new", {"mode": None})
    check(t["state"]["mode"] == "table", '{"mode": null} is not a table game')
    print("ok malformed, oversized and wrongly typed requests refused")


def out_of_order(sv):
    t = sv.request("POST", "/api/new", {"colors": 2, "meeples": 3, "mode": "table"})
    tid = t["id"]
    check(t["state"]["phase"] == "draw", "a table game does not start with a draw")
    sv.request("POST", "/api/play", {"id": tid, "x": 1, "y": 0, "rot": 0}, want=409)
    sv.request("GET", "/api/advice?id=" + tid, want=409)
    sv.request("POST", "/api/order", {"id": tid, "order": []}, want=409)
    sv.request("POST", "/api/undo", {"id": tid}, want=409)
    log = sv.request("GET", "/api/log?id=" + tid)
    check(log.get("unfinished") is True and log["turns"] == [] and log["advisor"]["decisions"] == 0,
          "the log of a game going on is not marked unfinished: %s" % list(log))
    sv.request("GET", "/api/analysis?id=" + tid, want=409)
    err = sv.request("POST", "/api/draw", {"id": tid, "tile": "Z"}, want=400)
    check("R1..R9" in err["error"], "the names said are not the drawable ones: %s" % err)
    sv.request("POST", "/api/draw", {"id": tid, "tile": "AB"}, want=400)
    sv.request("POST", "/api/draw", {"id": tid, "tile": 3}, want=400)
    check(sorted(t["state"]["drawable"]) == sorted(k for k, n in t["state"]["unseen"].items() if n > 0),
          "drawable is not the unseen tiles of the base game: %s" % t["state"]["drawable"])
    s = sv.request("POST", "/api/draw", {"id": tid, "tile": "V"})["state"]
    check(s["phase"] == "play" and s["tile"] == "V" and "drawable" not in s, "after drawing V: %s" % s["phase"])
    sv.request("POST", "/api/draw", {"id": tid, "tile": "V"}, want=409)  # a tile already in hand
    sv.request("POST", "/api/play", {"id": tid, "x": 40, "y": 40, "rot": 0}, want=409)  # not legal
    sv.request("POST", "/api/play", {"id": tid, "x": 1, "y": 0, "rot": 7}, want=400)
    sv.request("POST", "/api/play", {"id": tid, "x": 1, "y": 0, "rot": 4}, want=400)  # not a conflict: no such rotation
    sv.request("POST", "/api/play", {"id": tid, "x": "1", "y": 0, "rot": 0}, want=400)
    p = sv.request("POST", "/api/new", {"mode": "practice", "seed": 5})
    sv.request("POST", "/api/draw", {"id": p["id"], "tile": "A"}, want=409)  # a dealt game draws itself
    print("ok out-of-order requests: 409 each")
    return tid


def verified(work, name, log):
    """`carcsolo verify` of `log` written to the file `name`: its completed process."""
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write(json.dumps(log) + "\n")
    return subprocess.run([CARCSOLO, "verify", path], capture_output=True, text=True, timeout=120)


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


def play_turn(sv, gid, state):
    """play_advised, and the order of the features the move completed if it asks for one."""
    state = play_advised(sv, gid, state)
    while state["phase"] == "order":
        state = play_advised(sv, gid, state)
    return state


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
            undo = sv.request("POST", "/api/undo", {"id": pid})
            back = undo["state"]
            check(back == before, "after undo: %s, before the move: %s" % (back, before))
            check(undo["undone"].startswith("Undone: colour %d" % before["to_move"]) and before["tile"] in undo["undone"],
                  "the undo does not say what it undid: %r" % undo["undone"])
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
    r = verified(work, "practice.jsonl", log)
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
        # the river to its end: the lake R9 only as its last tile
        while ts["river_left"] > 2:
            check(ts["phase"] == "draw" and "R9" not in ts["drawable"] and all(n.startswith("R") for n in ts["drawable"]),
                  "while the river flows, drawable is not its tiles but the lake: %s" % ts.get("drawable"))
            ts = sv.request("POST", "/api/draw", {"id": tid, "tile": ts["drawable"][0]})["state"]
            ts = play_turn(sv, tid, ts)
        err = sv.request("POST", "/api/draw", {"id": tid, "tile": "R9"}, want=409)
        check("lake" in err["error"], "the lake as the second-to-last river tile: %s" % err)
        ts = sv.request("POST", "/api/draw", {"id": tid, "tile": ts["drawable"][0]})["state"]
        ts = play_turn(sv, tid, ts)
        check(ts["river_left"] == 1 and ts["drawable"] == ["R9"], "the last river tile is not the lake alone: %s"
              % ts.get("drawable"))
        ts = sv.request("POST", "/api/draw", {"id": tid, "tile": "R9"})["state"]
        ts = play_turn(sv, tid, ts)
        check(ts["river_left"] == 0 and "R1" not in ts["drawable"] and "V" in ts["drawable"],
              "after the lake the land tiles are not drawable: %s" % ts.get("drawable"))
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
        r = verified(work, "practice-expansions.jsonl", log)
        check(r.returncode == 0, "verify of the expansions practice game: %s %s" % (r.stdout, r.stderr))
        a = sv.request("GET", "/api/analysis?id=" + pid)
        check(len(a["games"][0]["analysis"]) > 0, "the expansions game's analysis has no decision")
    finally:
        sv.stop()
    print("ok base+inns+river with the large meeple: the river first at the table, a practice game of "
          "%d actions (%d large meeples) verified and analysed" % (moves, large))


def games_started(lines):
    """The count the last stderr line (SIGTERM) gives: '... N games started ...'."""
    words = lines[-1].split()
    i = words.index("games")
    return int(words[i - 1])


def chunked(sv, path, total):
    """A chunked POST of `total` bytes of a JSON object (a valid /api/new body if read whole)."""
    head = (b"POST " + path + b" HTTP/1.1\r\n" + sv.host() +
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    body = b'{"colors": 3' + b" " * (total - 13) + b"}"
    out = [head]
    for i in range(0, len(body), 65536):
        piece = body[i:i + 65536]
        out.append(b"%x\r\n" % len(piece) + piece + b"\r\n")
    out.append(b"0\r\n\r\n")
    return b"".join(out)


def slow_client(port, stop):
    """Sends a request's headers a byte a second until told to stop."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            data = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port + b"a" * 100
            for b in data:
                if stop.is_set():
                    return
                s.sendall(bytes([b]))
                stop.wait(1.0)
    except OSError:
        pass


def server_holds(work):
    """The server against what a machine or another page may send it."""
    sv = Served(work)
    try:
        # a chunked body over the limit: 413, and no game made of it
        check(sv.raw(chunked(sv, b"/api/new", 1000000)) == 413, "a 1 MB chunked POST: not 413")
        check(sv.raw(chunked(sv, b"/api/new", 20000)) == 413, "a 20 kB chunked POST: not 413")
        check(sv.raw(chunked(sv, b"/nowhere", 1000000)) == 413, "a 1 MB chunked POST to no page: not 413")
        # a second server on the same port: one line, exit 2
        r = subprocess.run([CARCSOLO, "serve", "--port", str(sv.port)] + ADVICE, capture_output=True, text=True,
                           timeout=60)
        check(r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "cannot listen" in r.stderr,
              "a second serve on port %d: exit %d, %r" % (sv.port, r.returncode, r.stderr))
        # 16 slow clients do not hold a normal request
        stop = threading.Event()
        slow = [threading.Thread(target=slow_client, args=(sv.port, stop)) for _ in range(16)]
        for t in slow:
            t.start()
        try:
            time.sleep(1.5)
            t0 = time.monotonic()
            page = sv.request("GET", "/")
            waited = time.monotonic() - t0
        finally:
            stop.set()
            for t in slow:
                t.join()
        check("<title>carcsolo at the table</title>" in page and waited < 2.0,
              "with 16 slow clients a page took %.2f s" % waited)
        # Host and Origin of another site
        check(sv.raw(b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n") == 403, "Host: evil.example: not 403")
        check(sv.raw(b"GET /api/state?id=x HTTP/1.1\r\nHost: evil.example:%d\r\n\r\n" % sv.port) == 403,
              "Host: evil.example with the port: not 403")
        check(sv.raw(b"POST /api/new HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 2\r\n\r\n{}") == 403,
              "a POST with Host evil.example: not 403")
        sv.request("POST", "/api/new", {}, headers={"Origin": "http://evil.example"}, want=403)
        sv.request("POST", "/api/new", {}, headers={"Origin": "null"}, want=403)
        t = sv.request("POST", "/api/new", {}, headers={"Origin": sv.base})
        tid = t["id"]
        sv.request("POST", "/api/draw", {"id": tid, "tile": "V"})
        # control characters: one log line each, none raw; a NUL is kept, escaped
        before = len(sv.stderr_lines())
        forged = "road\ncarcsolo serve: 200 POST /api/new: forged\x1b[31mred"
        err = sv.request("POST", "/api/play", {"id": tid, "x": 1, "y": 0, "rot": 1, "meeple": forged}, want=409)
        check("\\n" in err["error"] and "\\x1b" in err["error"] and "\n" not in err["error"] and "\x1b" not in err["error"],
              "the answer keeps raw control characters: %r" % err["error"])
        err = sv.request("POST", "/api/play", {"id": tid, "x": 1, "y": 0, "rot": 1, "meeple": "ro\u0000ad:E"}, want=409)
        check("ro\\x00ad:E' is no segment" in err["error"], "a NUL cut the message: %r" % err["error"])
        lines = sv.stderr_lines(before + 2)
        check(len(lines) == before + 2, "two refusals, %d new log lines: %r" % (len(lines) - before, lines[before:]))
        check(all(not any(ord(ch) < 0x20 or ord(ch) == 0x7f for ch in l) for l in lines),
              "a log line with a raw control character: %r" % lines[before:])
        check(lines[before].startswith("carcsolo serve: 409 POST /api/play: ") and
              "\\ncarcsolo serve: 200" in lines[before] and "\\x00ad" in lines[before + 1],
              "the log lines do not show the fields escaped: %r" % lines[before:])
        # the reason is logged for a client that accepts compressed answers (every browser)
        req = urllib.request.Request(sv.base + "/api/advice?id=" + tid + "x", headers={"Accept-Encoding": "gzip, br"})
        try:
            urllib.request.urlopen(req, timeout=30)
            fail("an unknown id was answered")
        except urllib.error.HTTPError as e:
            check(e.code == 404, "an unknown id: %d" % e.code)
        sv.refused += 1
        lines = sv.stderr_lines(before + 3)
        check("no game with this id" in lines[-1], "the reason is not logged for a gzip client: %r" % lines[-1])
        check(sv.proc.poll() is None, "the server is not running after all that")
        sv.request("GET", "/api/state?id=" + tid)
    finally:
        rc = sv.stop()
    lines = sv.stderr_lines()
    check(rc == 130 and games_started(lines) == sv.created,
          "%d games started, %d asked for: %r" % (games_started(lines), sv.created, lines[-1]))
    print("ok the server holds: chunked 1 MB -> 413 and no game; a second server on the port exits 2; "
          "16 slow clients, a page in %.2f s; foreign Host and Origin 403; control characters escaped in one "
          "line; NUL kept; the reason logged for gzip clients" % waited)


def same_game(a, b, what):
    keys = ("phase", "turn", "to_move", "scores", "supply", "stack_left", "unseen", "board", "tile", "legal", "mode")
    diff = [k for k in keys if a.get(k) != b.get(k)]
    check(not diff, "%s: the resumed game differs in %s" % (what, diff))


def resumed(work):
    """Games resumed from their logs: at the table and in practice, by /api/resume and --resume."""
    sv = Served(work)
    try:
        t = sv.request("POST", "/api/new", {"colors": 2, "meeples": 3})
        tid, ts = t["id"], t["state"]
        for i in range(12):
            if ts["phase"] == "draw":
                ts = sv.request("POST", "/api/draw", {"id": tid, "tile": ts["drawable"][i % len(ts["drawable"])]})["state"]
            else:
                ts = play_advised(sv, tid, ts)
        log = sv.request("GET", "/api/log?id=" + tid)
        check(log["unfinished"] and log["advisor"]["decisions"] == 6 and log["advisor"]["followed"] == 6,
              "the table game's log so far (every move the advice's first): %s" % log.get("advisor"))
        # advise's log carries the same advisor block (one table session type)
        r = subprocess.run([CARCSOLO, "advise", "--log", os.path.join(work, "advise.json"), "-q"] + ADVICE,
                           input="V\n1\nquit\n", capture_output=True, text=True, timeout=120)
        with open(os.path.join(work, "advise.json")) as f:
            alog = json.loads(f.read())
        check(r.returncode == 0 and sorted(alog["advisor"]) == sorted(log["advisor"]) and
              alog["advisor"]["decisions"] == 1 and alog["advisor"]["followed"] == 1,
              "advise's advisor block %s, serve's %s" % (alog.get("advisor"), log["advisor"]))
        r = verified(work, "table-so-far.json", log)
        check(r.returncode == 0 and "unfinished" in r.stdout, "verify of the log so far: %s %s" % (r.stdout, r.stderr))
        again = sv.request("POST", "/api/resume", log)
        check(again["id"] != tid, "a resumed game took the id of its original")
        same_game(ts, again["state"], "at the table")
        # a practice game: its log so far names its deal, not the tiles to come
        p = sv.request("POST", "/api/new", {"mode": "practice", "seed": 11, "game": 3})
        pid, ps = p["id"], p["state"]
        for _ in range(7):
            ps = play_advised(sv, pid, ps)
        plog = sv.request("GET", "/api/log?id=" + pid)
        check(plog["unfinished"] and plog["practice"] == {"seed": 11, "game": 3} and "seed" not in plog,
              "the practice game's log so far: %s" % {k: plog.get(k) for k in ("unfinished", "practice", "seed")})
        q = sv.request("POST", "/api/resume", plog)
        same_game(ps, q["state"], "practice")
        qid, qs = q["id"], q["state"]
        moves = 0
        while qs["phase"] != "over":
            qs = play_advised(sv, qid, qs)
            moves += 1
            check(moves < 400, "the resumed practice game does not end")
        final = sv.request("GET", "/api/log?id=" + qid)
        r = verified(work, "practice-resumed.json", final)
        check(r.returncode == 0 and final["seed"] == 11 and final["game"] == 3 and "unfinished" not in final,
              "verify of the resumed practice game's log: %s %s" % (r.stdout, r.stderr))
        # what cannot be resumed
        sv.request("POST", "/api/resume", {"format": "something else"}, want=400)
        bad = dict(log, turns=log["turns"][:-1] + [dict(log["turns"][-1], x=99)])
        sv.request("POST", "/api/resume", bad, want=400)
        other = dict(log, config=dict(log["config"], tileset="base+inns"))
        sv.request("POST", "/api/resume", other, want=400)
    finally:
        sv.stop()
    # serve --resume LOG: the game at the address it prints
    proc = subprocess.Popen([CARCSOLO, "serve", "--port", "0", "--resume", os.path.join(work, "table-so-far.json")] + ADVICE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        proc.stdout.readline()
        line = proc.stdout.readline()
        check("/?game=" in line, "serve --resume: no address of the game: %r" % line)
        url = line.split()[-1]
        gid = url.split("?game=")[1]
        with urllib.request.urlopen(url.split("/?")[0] + "/api/state?id=" + gid, timeout=60) as r:
            same_game(ts, json.loads(r.read().decode()), "serve --resume")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    r = subprocess.run([CARCSOLO, "serve", "--port", "0", "--resume", os.path.join(work, "nosuch.json")],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 2 and len(r.stderr.splitlines()) == 1, "--resume of no file: %d %r" % (r.returncode, r.stderr))
    print("ok games resumed from their logs: at the table, in practice (then finished and verified), by serve --resume")


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
            lines = sv.stderr_lines(sv.refused)
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
        server_holds(work)
        resumed(work)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
