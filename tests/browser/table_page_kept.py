"""The table page keeps its game (run by tests/browser/table_page_test.py): reopened from the
browser's storage, resumed from the log it kept when a restarted server forgot the id, and
resumed from a log file chosen or dropped on the page; an undo says what it took back."""
import json
import os
import urllib.request

from replay_page_test import WebDriver, fail
from table_page_driver import execute, free_port, leaving_asks, play_advised, serve, stop, wait_for


def shown_game(wd):
    """What the page shows of the game: phase, turn, scores, supplies, the tiles on the board."""
    return (wd.attr("body", "data-phase"), wd.attr("body", "data-turn"), wd.text("#scoreboard"),
            len(wd.elements("#tiles .tile")))


def kept(carcsolo, work):
    """The game outlives the page and the server: a practice game reopened from the bare address
    (the browser's storage names it), resumed from the log the page kept when a restarted
    server no longer knows its id, and resumed from a log file chosen or dropped on the page.
    An undo says what it took back."""
    port = free_port()
    server, url = serve(carcsolo, port, "--candidates", "4")
    wd = WebDriver(os.path.join(work, "profile-kept"), logs=True)
    try:
        wd.s("POST", "/url", {"url": url})
        wd.click("#mode-practice")
        wd.click("#btn-new")
        wait_for(wd, "the practice game", lambda: wd.attr("body", "data-phase") == "play")
        for _ in range(4):
            wait_for(wd, "the advice", lambda: wd.attr("body", "data-advice") == "ready")
            wd.click('.ghost[data-rank="0"]')
            x, y = wd.attr("body", "data-sel").split(",")[:2]
            play_advised(wd, "a practice move")
        game = wd.attr("body", "data-game")
        actions = int(wd.attr("body", "data-actions"))
        wd.click("#btn-undo")
        wait_for(wd, "the undo", lambda: int(wd.attr("body", "data-actions")) < actions)
        undone = wd.text("#notice")
        with urllib.request.urlopen(urllib.request.Request(url + "api/state?id=" + game), timeout=60) as r:
            state = json.load(r)
        if "(%s, %s)" % (x, y) not in undone:  # the server's sentence names the move taken back
            fail("the undo does not say it took back the move at (%s, %s): %r" % (x, y, undone))
        if state["actions"] != int(wd.attr("body", "data-actions")):
            fail("the page shows %s actions after the undo, the server has %d" % (wd.attr("body", "data-actions"), state["actions"]))
        wait_for(wd, "the advice", lambda: wd.attr("body", "data-advice") == "ready")
        play_advised(wd, "the move again")
        wait_for(wd, "the log kept", lambda: wd.attr("body", "data-kept") == wd.attr("body", "data-actions"))
        before = shown_game(wd)

        wd.s("POST", "/url", {"url": url})  # the page opened again, its address naming no game
        wait_for(wd, "the page opened again", lambda: wd.attr("body", "data-ready") == "1")
        if wd.attr("body", "data-game") != game or shown_game(wd) != before:
            fail("the page opened again shows game %s at %s, not game %s at %s"
                 % (wd.attr("body", "data-game"), shown_game(wd), game, before))
        if not execute(wd, "return location.search;") == "?game=" + game:
            fail("the page opened again does not put the game in its address")

        log_path = os.path.join(work, "unfinished.json")
        with urllib.request.urlopen(url + "api/log?id=" + game, timeout=60) as r:
            unfinished = json.load(r)
        if not unfinished.get("unfinished"):
            fail("the log of a game in play is not marked unfinished")
        with open(log_path, "w") as f:
            json.dump(unfinished, f)

        wd.click("#status")  # a gesture: Chromium lets a page that had none leave without asking (and says so)
        stop(server)  # a new server on the same address knows no game
        server, _ = serve(carcsolo, port, "--candidates", "4")
        wd.s("POST", "/refresh", {})
        wait_for(wd, "the page after the restart", lambda: wd.attr("body", "data-ready") == "1" and
                 wd.attr("body", "data-phase") is not None)
        said = wd.text("#notice")
        if "resumed from the log this browser kept" not in said:
            fail("the page does not say it resumed from the kept log: %r (message %r)" % (said, wd.text("#message")))
        resumed = wd.attr("body", "data-game")
        if resumed == game or shown_game(wd) != before:
            fail("after the restart the page shows game %s at %s; before it game %s at %s"
                 % (resumed, shown_game(wd), game, before))
        if execute(wd, "return location.search;") != "?game=" + resumed:
            fail("the resumed game's id is not in the address")
        wait_for(wd, "the advice", lambda: wd.attr("body", "data-advice") == "ready")
        play_advised(wd, "a move of the resumed game")

        wd.click("#mode-table")
        wd.click("#btn-new")
        wait_for(wd, "a new game", lambda: wd.attr("body", "data-phase") == "draw")
        wd.s("POST", "/element/%s/value" % wd.element("#in-log"), {"text": log_path})  # the file input
        wait_for(wd, "the log file resumed", lambda: "unfinished.json" in wd.text("#notice"))
        if shown_game(wd) != before:
            fail("the log file chosen resumed %s, the game was at %s" % (shown_game(wd), before))
        chosen = wd.attr("body", "data-game")

        wd.click("#btn-new")
        wait_for(wd, "a new game", lambda: wd.attr("body", "data-phase") == "draw")
        with open(log_path) as f:
            text = f.read()
        execute(wd, """const t = new DataTransfer();
            t.items.add(new File([arguments[0]], "dropped.json", {type: "application/json"}));
            document.getElementById("board").dispatchEvent(new DragEvent("drop", {dataTransfer: t, bubbles: true, cancelable: true}));""", text)
        wait_for(wd, "the log file dropped", lambda: "dropped.json" in wd.text("#notice"))
        if shown_game(wd) != before or wd.attr("body", "data-game") in (chosen, resumed):
            fail("the log file dropped resumed %s in game %s, the game was at %s" % (shown_game(wd), wd.attr("body", "data-game"), before))
        if not leaving_asks(wd):
            fail("leaving a resumed game in play does not ask first")
        console = [e for e in wd.console() if e.get("level") == "SEVERE"]
        expected = [e for e in console if "/api/state?id=" + game in e.get("message", "") and " 404 " in e.get("message", "")]
        if len(expected) != 1 or len(console) != 1:  # the restarted server's 404 for the forgotten id, and nothing else
            fail("console errors: %s" % console)
    finally:
        wd.close()
        stop(server)
    print("ok the game kept: an undo says %r; reopened from storage, resumed after a server restart from the "
          "kept log (game %s, then %s), and from a log file chosen and dropped, each at %s"
          % (undone, game, resumed, before[:2]))
