"""What the self-tests share: the collector of failed expectations, and boards built by
hand (placements checked for matching edges but not adjacency)."""

import json

from ..scoring import Game
from ..tiles import DX, DY, RIVER_SET, ROT


class Expect:
    """expect(name, cond, detail): records `name: detail` when cond is false."""

    def __init__(self):
        self.fails = []

    def __call__(self, name, cond, detail=""):
        if not cond:
            self.fails.append(name + (": " + str(detail) if detail else ""))


def copy(doc):
    """A deep copy of a log document, as a reader of its JSON would see it."""
    return json.loads(json.dumps(doc))


def new_game(k, m, scores=None, large=False):
    """A game of k colours and m meeples with the start tile D at (0, 0)."""
    g = Game(k, m, scores, large)
    g.place("D", 0, 0, 0)
    return g


def place_checked(g, t, x, y, r):
    tr = ROT[t][r]
    # edges must match where they touch; adjacency is not required in hand-built tests
    for d in range(4):
        nc = g.cells.get((x + DX[d], y + DY[d]))
        if nc is not None:
            assert nc[0].edges[(d + 2) % 4] == tr.edges[d], (t, x, y, r, d)
    assert (x, y) not in g.cells
    return g.place(t, x, y, r)


def meeple_on(g, seg_name, color):
    tr = g.cells[g.last_cell][0]
    idx = [s.name for s in tr.segs].index(seg_name)
    g.put_meeple(idx, color)


def road_line(g, mids, y=-5, figures=()):
    """A straight W-E road away from the start tile: A (road E end) at x=0, the tiles
    `mids` (each given as (type, rot)) at x=1.., A (road W end) last.  `figures` maps a
    middle index to (colour, large).  Returns the completed feature."""
    place_checked(g, "A", 0, y, 3)
    for i, (t, r) in enumerate(mids):
        place_checked(g, t, 1 + i, y, r)
        if i in dict(figures):
            c, big = dict(figures)[i]
            tr = g.cells[g.last_cell][0]
            name = [sg.name for sg in tr.segs if sg.kind == "road" and 1 in sg.dirs][0]
            idx = [sg.name for sg in tr.segs].index(name)
            g.put_meeple(idx, c, big)
    place_checked(g, "A", 1 + len(mids), y, 1)
    done = g.completed_features()
    assert len(done) == 1, done
    return done[0]


def river_path(doc):
    """Turn signs (cross products of the flow vectors, +1 / -1) of the river's curves,
    from the logged positions only."""
    cells = [(0, 0)] + [(t["x"], t["y"]) for t in doc["turns"]
                        if not t["discarded"] and t["tile"] in RIVER_SET]
    signs = []
    for i in range(1, len(cells) - 1):
        vin = (cells[i][0] - cells[i - 1][0], cells[i][1] - cells[i - 1][1])
        vout = (cells[i + 1][0] - cells[i][0], cells[i + 1][1] - cells[i][1])
        if vin != vout:
            signs.append(vin[0] * vout[1] - vin[1] * vout[0])
    return cells, signs
