"""The table page's advice readable (run by tests/browser/table_page_test.py): on a decision
where two advised moves share a cell, every advised move chosen by clicks, no label meeting
another or a meeple, the coordinates over the markers, the list's rows highlighting their move."""
import json
import os
import urllib.request

from replay_page_test import WebDriver, fail
from table_page_driver import ELEMENT, execute, no_console_errors, play_advised, serve, stop, wait_for


def rects(wd, css):
    """The client rectangles of the elements `css` selects: [left, top, right, bottom]."""
    return execute(wd, "return [...document.querySelectorAll(arguments[0])].map((e) => { const r = e.getBoundingClientRect(); "
                       "return [r.left, r.top, r.right, r.bottom]; });", css)


def meet(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def labels_clear(wd, what):
    """No marker's label meets another's or a meeple on the board (placed, advised or chosen)."""
    labels, meeples = rects(wd, "#labels .label-box"), rects(wd, "#board .meeple:not(#hover *)")
    texts = rects(wd, "#labels .value")
    if not labels or len(texts) != len(labels):
        fail("%s: %d labels, %d label texts" % (what, len(labels), len(texts)))
    for t, b in zip(texts, labels):
        if t[0] < b[0] - 1 or t[2] > b[2] + 1 or t[1] < b[1] - 1 or t[3] > b[3] + 1:
            fail("%s: a label's text %s runs out of its box %s" % (what, t, b))
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if meet(a, b):
                fail("%s: two labels meet: %s and %s" % (what, a, b))
        for m in meeples:
            if meet(a, m):
                fail("%s: a label %s lies under a meeple %s" % (what, a, m))
    return len(labels), len(meeples)


def selected(m):
    return "%d,%d,%d,%s,%d" % (m["x"], m["y"], m["rot"], m["meeple"] or "", 1 if m.get("large") else 0)


def markers(carcsolo, work):
    """The advice readable: on a practice deal (seed 1, game 0), the advice followed until a
    decision where two advised moves share a cell with a meeple on the board. There every
    advised move is chosen by clicks (its cell's marker, then the marker's list when it is not
    the cell's best), no label meets another or a meeple after each choice, the coordinates on
    the axes stand over each marker, the list's rows highlight their move on hover and the
    ranking's rule is said beside them; tiles show their names."""
    server, url = serve(carcsolo, 0, "--candidates", "8")
    wd = WebDriver(os.path.join(work, "profile-markers"), logs=True)
    try:
        wd.s("POST", "/url", {"url": url})
        wd.click("#mode-practice")
        wd.click("#btn-new")
        wait_for(wd, "the practice game", lambda: wd.attr("body", "data-phase") == "play")
        for move in range(30):
            wait_for(wd, "the advice", lambda: wd.attr("body", "data-advice") == "ready")
            shared = [g for g in wd.elements(".ghost") if " " in wd.element_attr(g, "data-ranks")]
            if shared and wd.elements("#meeples .meeple"):
                break
            play_advised(wd, "a move on the advice")
        else:
            fail("no decision with two advised moves on one cell and a meeple on the board in 30 moves")
        game = wd.attr("body", "data-game")
        with urllib.request.urlopen(url + "api/advice?id=" + game, timeout=60) as r:
            advice = json.load(r)
        cells = {}
        for m in advice["moves"]:
            cells.setdefault((m["x"], m["y"]), []).append(m)
        if len(wd.elements(".ghost")) != len(cells) or len(wd.elements("#labels .label")) != len(cells):
            fail("%d markers and %d labels for the %d cells advised"
                 % (len(wd.elements(".ghost")), len(wd.elements("#labels .label")), len(cells)))
        n_labels, n_meeples = labels_clear(wd, "the advice shown")
        for (x, y), moves in cells.items():  # the coordinates along the axes stand over the marker
            marker = rects(wd, '.ghost[data-x="%d"][data-y="%d"]' % (x, y))[0]
            col = [r for r, t in zip(rects(wd, ".axis-x"), execute(wd, "return [...document.querySelectorAll('.axis-x')].map((e) => e.textContent);")) if t == str(x)]
            row = [r for r, t in zip(rects(wd, ".axis-y"), execute(wd, "return [...document.querySelectorAll('.axis-y')].map((e) => e.textContent);")) if t == str(y)]
            if len(col) != 1 or len(row) != 1 or not marker[0] < (col[0][0] + col[0][2]) / 2 < marker[2] or \
                    not marker[1] < (row[0][1] + row[0][3]) / 2 < marker[3]:
                fail("the axes do not show the coordinates (%d, %d) of a marker" % (x, y))
        chosen = 0
        for m in advice["moves"]:
            wd.click('.ghost[data-x="%d"][data-y="%d"]' % (m["x"], m["y"]))
            if m is not cells[(m["x"], m["y"])][0]:
                items = wd.elements('#cell-moves:not(.hidden) .cell-move[data-rank="%d"]' % m["rank"])
                if len(items) != 1:
                    fail("the marker of (%d, %d) does not list its move of rank %d" % (m["x"], m["y"], m["rank"] + 1))
                wd.s("POST", "/element/%s/click" % items[0], {})
            if wd.attr("body", "data-sel") != selected(m):
                fail("clicks chose %s, not the advised move %s" % (wd.attr("body", "data-sel"), selected(m)))
            labels_clear(wd, "the move of rank %d chosen" % (m["rank"] + 1))
            if wd.elements("#cell-moves:not(.hidden)"):
                wd.click("#cell-moves-close")
            chosen += 1
        rows = wd.elements(".advice-row")
        for row in rows:
            rank = int(wd.element_attr(row, "data-rank"))
            m = next(q for q in advice["moves"] if q["rank"] == rank)
            wd.s("POST", "/actions", {"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                                                   "actions": [{"type": "pointerMove", "origin": {ELEMENT: row}, "x": 0, "y": 0}]}]})
            hl = wd.elements('#hover .hl[data-x="%d"][data-y="%d"][data-rot="%d"]' % (m["x"], m["y"], m["rot"]))
            on = execute(wd, "return [...document.querySelectorAll('.axis.on')].map((e) => e.textContent);")
            if len(hl) != 1 or sorted(on) != sorted([str(m["x"]), str(m["y"])]):
                fail("hovering the row of rank %d does not highlight its move (%d, %d) (axes marked %s)"
                     % (rank + 1, m["x"], m["y"], on))
        rule = wd.text("#rank-rule")
        if not rule.startswith("Ranked by the analyser") or "higher value" not in rule:
            fail("the ranking's rule is not said beside the list: %r" % rule)
        names = execute(wd, "return [...document.querySelectorAll('#tiles .tile')].map((t) => "
                            "[t.dataset.tile, t.querySelector('.tile-name').textContent]);")
        if not names or any(a != b for a, b in names):
            fail("the board's tiles do not show their names: %s" % names)
        no_console_errors(wd)
    finally:
        wd.close()
        stop(server)
    print("ok advice readable at turn %s: %d advised moves on %d cells, %d sharing a cell, each chosen by clicks; "
          "%d labels and %d meeples, none meeting; the axes over every marker, %d rows highlighting their move on hover"
          % (advice["turn"], chosen, len(cells), sum(len(v) for v in cells.values() if len(v) > 1), n_labels, n_meeples,
             len(rows)))
