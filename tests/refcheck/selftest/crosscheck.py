"""The union-find board checked against brute force: random games in which, after every
placement, the legal placements, free segments, completed features with their points,
majorities and the figures on the board are recomputed naively (flood fill over the
placed tiles) and compared with the Board's.  River legality is recomputed geometrically
(cross products of the flow vectors), not with the Board's direction arithmetic."""

import random
from collections import Counter

from ..scoring import Game
from ..tiles import (DX, DY, LAKE, NEIGH8, RIVER_SET, ROT, SPRING, START_TILE, land_bag,
                     river_bag, tileset_options)

_STEPS = [(DX[d], DY[d]) for d in range(4)]


class _River:
    """The river laid so far: its cells in order and the sign of its last curve."""

    def __init__(self):
        self.cells = [(0, 0)]
        self.last_sign = None

    def _flow(self, x, y, edges):
        """(vector in, the water's other exits) of a river tile at (x, y)."""
        lx, ly = self.cells[-1]
        vin = (x - lx, y - ly)
        back = (-vin[0], -vin[1])
        outs = [_STEPS[d] for d in range(4) if edges[d] == "A" and _STEPS[d] != back]
        return vin, back, outs

    def allows(self, x, y, edges):
        """Next to the last river cell, water on the edge it comes in by, and a curve that
        does not turn the way the last one did."""
        vin, back, outs = self._flow(x, y, edges)
        if abs(vin[0]) + abs(vin[1]) != 1:
            return False
        if edges[_STEPS.index(back)] != "A":
            return False
        if len(outs) == 1 and outs[0] != vin:
            return vin[0] * outs[0][1] - vin[1] * outs[0][0] != self.last_sign
        return True

    def follow(self, x, y, edges):
        vin, _, outs = self._flow(x, y, edges)
        if len(outs) == 1 and outs[0] != vin:
            self.last_sign = vin[0] * outs[0][1] - vin[1] * outs[0][0]
        self.cells.append((x, y))


def _brute_legal(g, t, river):
    cand = set()
    for (x, y) in g.cells:
        for d in range(4):
            c = (x + DX[d], y + DY[d])
            if c not in g.cells:
                cand.add(c)
    brute = set()
    for (x, y) in cand:
        for r in range(4):
            e = ROT[t][r].edges
            ok = True
            for d in range(4):
                nc = g.cells.get((x + DX[d], y + DY[d]))
                if nc is not None and nc[0].edges[(d + 2) % 4] != e[d]:
                    ok = False
            if ok and t in RIVER_SET:
                ok = river.allows(x, y, e)
            if ok:
                brute.add((x, y, r))
    return brute


def _component(g, start):
    """The (cell, segment) nodes joined to `start` by flood fill, and whether no edge of
    them is open."""
    seen = {start}
    stack = [start]
    complete = True
    while stack:
        c0, si = stack.pop()
        tr0 = g.cells[c0][0]
        for d in tr0.segs[si].dirs:
            nb = (c0[0] + DX[d], c0[1] + DY[d])
            nc = g.cells.get(nb)
            if nc is None:
                complete = False
                continue
            node = (nb, nc[0].dir2seg[(d + 2) % 4])
            if node not in seen:
                seen.add(node)
                stack.append(node)
    return seen, complete


def _feature_points(g, kind, nodes):
    """(tiles, pennants, points) of a road or city given as its nodes."""
    tiles = {c0 for c0, _ in nodes}
    pen = len({c0 for c0, si2 in nodes if g.cells[c0][0].segs[si2].pennant})
    bonus = any(g.cells[c0][0].segs[si2].inn or g.cells[c0][0].segs[si2].cathedral
                for c0, si2 in nodes)
    if kind == "road":
        pts = len(tiles) * (2 if bonus else 1)
    else:
        pts = (len(tiles) + pen) * (3 if bonus else 2)
    return len(tiles), pen, pts


def _brute_completed(g, cell, comps, meeples):
    """Features completed by the tile at `cell`: ((kind, tiles, pennants, points,
    colours), nodes) each."""
    tr = g.cells[cell][0]
    want = []
    seen_nodes = set()
    for si, (nodes, complete) in comps.items():
        if complete and not (nodes & seen_nodes):
            seen_nodes |= nodes
            kind = tr.segs[si].kind
            tiles, pen, pts = _feature_points(g, kind, nodes)
            mee = sorted(meeples[nd] for nd in nodes if nd in meeples)
            want.append(((kind, tiles, pen, pts, mee), nodes))
    x, y = cell
    for dx, dy in ((0, 0),) + NEIGH8:
        c0 = (x + dx, y + dy)
        if c0 in g.cells and g.cells[c0][0].monastery:
            near = [(c0[0] + ex, c0[1] + ey) for ex, ey in NEIGH8]
            if all(c1 in g.cells for c1 in near):
                # complete now; newly complete iff the new tile is c0 or a neighbour
                si = [i for i, sg in enumerate(g.cells[c0][0].segs)
                      if sg.kind == "monastery"][0]
                mee = [meeples[(c0, si)]] if (c0, si) in meeples else []
                want.append((("monastery", 9, 0, 9, mee), {(c0, si)}))
    return want


def _brute_majorities(want, meeples, bigs):
    """Majorities by weight (meeple 1, large meeple 2), feature by feature."""
    exp_maj = []
    for _, nodes in want:
        w = Counter()
        for nd in nodes:
            if nd in meeples:
                w[meeples[nd]] += 2 if nd in bigs else 1
        exp_maj.append(tuple(sorted(c for c in w if w[c] == max(w.values()))))
    return exp_maj


def _check_after_placement(g, rng, gi, t, cell, color, meeples, bigs):
    """Free segments, a random figure, completed features, majorities and the figures
    left, each against brute force; returns the first difference or None."""
    tr = g.cells[cell][0]
    comps = {si: _component(g, (cell, si)) for si, sg in enumerate(tr.segs)
             if sg.kind != "monastery"}
    free_b = [si for si, sg in enumerate(tr.segs)
              if sg.kind == "monastery" or not any(nd in meeples for nd in comps[si][0])]
    free_e = g.free_segments()
    if free_b != free_e:
        return ("free", gi, t, free_b, free_e)
    if free_e and g.has_figure(color):
        si = rng.choice(free_e)
        big = g.supply[color] == 0 or (g.large_supply[color] > 0 and rng.random() < 0.5)
        g.put_meeple(si, color, big)
        meeples[(cell, si)] = color
        if big:
            bigs.add((cell, si))
    want = _brute_completed(g, cell, comps, meeples)
    done = g.completed_features()
    got = sorted((g.feature_info(f)[0], g.feature_info(f)[1], g.feature_info(f)[2],
                  g.feature_info(f)[3], tuple(g.feature_info(f)[4])) for f in done)
    exp = sorted((a, b, c, d, tuple(e)) for (a, b, c, d, e), _ in want)
    if got != exp:
        return ("completed", gi, t, exp, got)
    exp_maj = _brute_majorities(want, meeples, bigs)
    got_maj = [tuple(g.score_feature(f)["majority"]) for f in done]
    if sorted(exp_maj) != sorted(got_maj):
        return ("majority", gi, t, sorted(exp_maj), sorted(got_maj))
    for _, nodes in want:
        for nd in nodes:
            meeples.pop(nd, None)
            bigs.discard(nd)
    figs = sorted((c, nd in bigs) for nd, c in meeples.items())
    if figs != sorted(g.figures_on_board()):
        return ("figures", gi, figs, sorted(g.figures_on_board()))
    return None


def _crosscheck_game(gi, tileset, large, salt):
    has_river = tileset_options(tileset)[1]
    rng = random.Random("%s:%d" % (salt, gi))
    k = 2 + gi % 5
    m = 1 + (gi * 7) % 12
    g = Game(k, m, None, large)
    g.place(SPRING if has_river else START_TILE, 0, 0, 0)
    bag = land_bag(tileset)
    rng.shuffle(bag)
    if has_river:
        rb = river_bag()
        rng.shuffle(rb)
        bag = rb + [LAKE] + bag
    river = _River()
    meeples = {}          # (cell, seg index) -> colour
    bigs = set()          # nodes holding a large meeple
    color = 0
    for t in bag:
        brute = _brute_legal(g, t, river)
        eng = set(g.legal_placements(t))
        if eng != brute:
            return ("legal", gi, t, sorted(eng ^ brute)[:4])
        if not eng:
            continue
        x, y, r = rng.choice(sorted(eng))
        g.place(t, x, y, r)
        if t in RIVER_SET:
            river.follow(x, y, ROT[t][r].edges)
        err = _check_after_placement(g, rng, gi, t, (x, y), color, meeples, bigs)
        if err:
            return err
        color = (color + 1) % k
    return None


def crosscheck(n_games, tileset="base", large=False, salt="xcheck"):
    """Differences found in n_games random games (an empty list when none)."""
    errs = []
    for gi in range(n_games):
        err = _crosscheck_game(gi, tileset, large, salt)
        if err:
            errs.append(err)
    return errs
