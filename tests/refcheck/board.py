"""The board: placed tiles, the frontier of empty cells with their edge constraints, the
road and city features (union-find over tile segments) and monasteries, which placements
are legal (land tiles by their edges; river tiles at the river's open end, without a
U-turn), and which features a placement completes."""

from .tiles import DX, DY, LETTER_CODE, NEIGH8, RIVER_SET, ROT, VALID_ROTS
from .values import is_int


class Board:
    """Tiles and features.  The figures on a feature are kept with it (f_meeples,
    f_large, monks) because "free" and "completed" are questions about the feature;
    the supplies and scores are the Game's."""

    def __init__(self):
        self.cells = {}          # (x, y) -> (TileRot, [node per direction or -1], [node per seg])
        self.frontier = {}       # empty cell next to a tile -> edge constraint code
        # union-find over road/city segments
        self.parent = []
        self.f_kind = []
        self.f_tiles = []        # root -> set of cells
        self.f_pen = []
        self.f_open = []         # root -> number of unmatched edges
        self.f_meeples = []      # root -> list of colours, one per figure
        self.f_large = []        # root -> list of colours of the large meeples among them
        self.f_bonus = []        # root -> holds an inn (road) or a cathedral (city)
        self.monks = {}          # cell -> meeple colour or -1 (monastery not yet completed)
        self.monk_large = set()  # cells whose monastery holds a large meeple
        self.last_cell = None
        self.last_nodes = None
        self.river_open = None   # (cell, direction) of the river's open end, or None
        self.last_curve = None   # "L" / "R": the way the last river curve turned

    # -- union find
    def find(self, a):
        parent = self.parent
        r = a
        while parent[r] != r:
            r = parent[r]
        while parent[a] != r:
            parent[a], a = r, parent[a]
        return r

    def _union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if len(self.f_tiles[ra]) < len(self.f_tiles[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.f_tiles[ra] |= self.f_tiles[rb]
        self.f_pen[ra] += self.f_pen[rb]
        self.f_open[ra] += self.f_open[rb]
        self.f_meeples[ra].extend(self.f_meeples[rb])
        self.f_large[ra].extend(self.f_large[rb])
        self.f_bonus[ra] = self.f_bonus[ra] or self.f_bonus[rb]
        self.f_tiles[rb] = None
        self.f_meeples[rb] = None
        self.f_large[rb] = None
        return ra

    # -- legality
    def legal_placements(self, t):
        if t in RIVER_SET:
            return self.river_placements(t)
        vt = VALID_ROTS[t]
        out = []
        for (x, y), code in self.frontier.items():
            for r in vt[code]:
                out.append((x, y, r))
        return out

    def has_legal(self, t):
        if t in RIVER_SET:
            return bool(self.river_placements(t))
        vt = VALID_ROTS[t]
        for code in self.frontier.values():
            if vt[code]:
                return True
        return False

    def is_legal(self, t, x, y, r):
        if t in RIVER_SET:
            return (x, y, r) in self.river_placements(t)
        code = self.frontier.get((x, y))
        return code is not None and r in VALID_ROTS[t][code]

    @staticmethod
    def river_turn(tr, d):
        """Way a river tile turns when the water flows in going direction d (entering by
        its edge (d + 2) % 4): None (straight, lake, or no water there), "L" or "R"."""
        entry = (d + 2) % 4
        exits = [e for e in range(4) if tr.edges[e] == "A" and e != entry]
        if tr.edges[entry] != "A" or len(exits) != 1 or exits[0] == d:
            return None
        return "L" if exits[0] == (d + 3) % 4 else "R"

    def river_placements(self, t):
        """Legal placements of river tile t: at the open end, water against water, the
        other edges matching, and no U-turn (a curve never turns the same way as the
        previous curve, whatever the straights between them)."""
        if self.river_open is None:
            return []
        (ox, oy), d = self.river_open
        x, y = ox + DX[d], oy + DY[d]
        code = self.frontier.get((x, y))
        if code is None:
            return []
        out = []
        for r in VALID_ROTS[t][code]:
            tr = ROT[t][r]
            if tr.edges[(d + 2) % 4] != "A":
                continue
            turn = self.river_turn(tr, d)
            if turn is not None and turn == self.last_curve:
                continue
            out.append((x, y, r))
        return out

    def river_refusal(self, t, x, y, r):
        """Why river tile t may not go at (x, y) rotation r (for messages)."""
        if self.river_open is None:
            return "no open river end"
        (ox, oy), d = self.river_open
        if (x, y) != (ox + DX[d], oy + DY[d]):
            return "not at the open end of the river"
        if not (is_int(r) and 0 <= r <= 3):
            return "rotation not 0..3"
        tr = ROT[t][r]
        if tr.edges[(d + 2) % 4] != "A":
            return "water does not continue the river"
        code = self.frontier.get((x, y))
        if code is None or r not in VALID_ROTS[t][code]:
            return "edges do not match"
        turn = self.river_turn(tr, d)
        if turn is not None and turn == self.last_curve:
            return "U-turn: curve turns %s like the previous curve" % (
                "left" if turn == "L" else "right")
        return "illegal"

    # -- placement
    def place(self, t, x, y, r):
        """Put tile t at (x, y) with rotation r (legality is the caller's business,
        but touching edges must match).  Joins features."""
        tr = ROT[t][r]
        cell = (x, y)
        segnodes = self._new_nodes(tr, cell)
        dirnode = [segnodes[i] if i >= 0 else -1 for i in tr.dir2seg]
        self.cells[cell] = (tr, dirnode, segnodes)
        self.frontier.pop(cell, None)
        self._join_neighbours(t, tr, cell, dirnode)
        if t in RIVER_SET:
            self._extend_river(tr, cell)
        self.last_cell = cell
        self.last_nodes = segnodes
        return tr

    def _new_nodes(self, tr, cell):
        """A feature of its own for each road and city segment of the new tile (-1 for a
        monastery, which is recorded in monks); returns the node per segment."""
        segnodes = []
        for s in tr.segs:
            if s.kind == "monastery":
                segnodes.append(-1)
                self.monks[cell] = -1
            else:
                nid = len(self.parent)
                self.parent.append(nid)
                self.f_kind.append(s.kind)
                self.f_tiles.append({cell})
                self.f_pen.append(s.pennant)
                self.f_open.append(len(s.dirs))
                self.f_meeples.append([])
                self.f_large.append([])
                self.f_bonus.append(s.inn or s.cathedral)
                segnodes.append(nid)
        return segnodes

    def _join_neighbours(self, t, tr, cell, dirnode):
        """Join each edge's feature with the neighbour's across it (two open edges fewer),
        or add the edge's constraint to the empty cell beyond it."""
        x, y = cell
        edges = tr.edges
        for d in range(4):
            n = (x + DX[d], y + DY[d])
            od = (d + 2) % 4
            nc = self.cells.get(n)
            if nc is None:
                self.frontier[n] = self.frontier.get(n, 0) | (LETTER_CODE[edges[d]] << (3 * od))
            else:
                if nc[0].edges[od] != edges[d]:
                    raise ValueError("edge mismatch placing %s at %s rot %d" % (t, cell, tr.rot))
                a = dirnode[d]
                if a >= 0:
                    root = self._union(a, nc[1][od])
                    self.f_open[root] -= 2

    def _extend_river(self, tr, cell):
        """The curve the new river tile makes and the river's new open end (none after
        the lake, or where the water runs into a placed tile)."""
        x, y = cell
        if self.river_open is not None:
            turn = self.river_turn(tr, self.river_open[1])
            if turn is not None:
                self.last_curve = turn
        outs = [d for d in range(4) if tr.edges[d] == "A"
                and (x + DX[d], y + DY[d]) not in self.cells]
        self.river_open = (cell, outs[0]) if len(outs) == 1 else None

    # -- features
    def free_segments(self):
        """Indices of the free segments of the tile placed last (rules.md step 2)."""
        cell = self.last_cell
        tr = self.cells[cell][0]
        out = []
        for i, s in enumerate(tr.segs):
            if s.kind == "monastery":
                out.append(i)
            elif not self.f_meeples[self.find(self.last_nodes[i])]:
                out.append(i)
        return out

    def completed_features(self):
        """Features completed by the tile placed last: list of ("road"|"city", root)
        or ("monastery", cell)."""
        out = []
        seen = set()
        for nid in self.last_nodes:
            if nid >= 0:
                r = self.find(nid)
                if r not in seen and self.f_open[r] == 0:
                    seen.add(r)
                    out.append((self.f_kind[r], r))
        x, y = self.last_cell
        cells = self.cells
        for dx, dy in ((0, 0),) + NEIGH8:
            c = (x + dx, y + dy)
            if c in self.monks:
                cx, cy = c
                if all((cx + ex, cy + ey) in cells for ex, ey in NEIGH8):
                    out.append(("monastery", c))
        return out

    def feature_info(self, f):
        """(kind, tiles, pennants, points, sorted colours, one per figure)"""
        kind, ref = f
        if kind == "monastery":
            col = self.monks[ref]
            return ("monastery", 9, 0, 9, [col] if col >= 0 else [])
        tiles = len(self.f_tiles[ref])
        pen = self.f_pen[ref]
        if kind == "road":
            pts = 2 * tiles if self.f_bonus[ref] else tiles          # inn: 2 per tile
        elif self.f_bonus[ref]:
            pts = 3 * tiles + 3 * pen                                 # cathedral
        else:
            pts = 2 * tiles + 2 * pen
        return (kind, tiles, pen, pts, sorted(self.f_meeples[ref]))

    def feature_large(self, f):
        """Sorted colours of the large meeples on a feature."""
        kind, ref = f
        if kind == "monastery":
            return [self.monks[ref]] if ref in self.monk_large else []
        return sorted(self.f_large[ref])
