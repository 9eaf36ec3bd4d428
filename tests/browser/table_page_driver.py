"""What the table page's browser checks share (tests/browser/table_page_test.py runs them):
waiting for the page, running script in it, playing the advice, and starting a server."""
import socket
import subprocess
import time

from replay_page_test import fail

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # W3C WebDriver's key of an element reference


def wait_for(wd, what, cond, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if wd.attr("body", "data-busy") == "0" and cond():
            return
        time.sleep(0.05)
    fail("waited %d s for %s (phase %s)" % (timeout, what, wd.attr("body", "data-phase")))


def execute(wd, script, *args):
    """Runs `script` (a function body) in the page and answers its return value."""
    return wd.s("POST", "/execute/sync", {"script": script, "args": list(args)})


def leaving_asks(wd):
    """Whether leaving the page now would ask first: a cancelable beforeunload is cancelled."""
    return execute(wd, "const e = new Event('beforeunload', {cancelable: true}); dispatchEvent(e); return e.defaultPrevented;")


def no_console_errors(wd):
    errors = [e for e in wd.console() if e.get("level") == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)


def play_advised(wd, what):
    """Plays the advice's best move (its ghost tile) and the scoring order if one is asked."""
    actions = int(wd.attr("body", "data-actions"))
    wd.click('.ghost[data-rank="0"]')
    wd.click("#btn-place")
    wait_for(wd, what, lambda: int(wd.attr("body", "data-actions")) == actions + 1)
    if wd.attr("body", "data-phase") == "order":
        wd.click("#btn-order")
        wait_for(wd, "the order", lambda: wd.attr("body", "data-phase") != "order")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(carcsolo, port, *options):
    """A server on `port` and its address; -q: the refusals some checks provoke are not counted."""
    server = subprocess.Popen([carcsolo, "serve", "--port", str(port), "--analyser", "heuristic", "--rollouts", "2",
                               "-q"] + list(options), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    if not line.startswith("carcsolo serve: listening on http://127.0.0.1:"):
        server.terminate()
        fail("the server's first line: %r" % line)
    return server, line.split()[4]


def stop(server):
    server.terminate()
    server.wait(timeout=30)
