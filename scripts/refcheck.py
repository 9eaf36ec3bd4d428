#!/usr/bin/env python3
"""Independent reference implementation of the Carcassonne solo variant rules.

Written from docs/{rules,game-log,results-format,expansions}.md only (standard library,
Python 3.11).  It is meant to catch bugs in the C++ engine, so it deliberately shares no
code or data with it.  Tile sets: base, base+inns (Inns & Cathedrals: inns, cathedrals),
base+river (The River I) and base+inns+river, each with or without the large meeple.

Subcommands
  refcheck.py check LOG.jsonl [LOG2.jsonl ...]
      Replay every `carcassonne-solo-log/1` game and verify every field, for every
      config.tileset above and config.large_meeple true/false (absent: base, false).
      Exit 0: no problems, 1: problems found, 2: unreadable input.
  refcheck.py sim --games N --seed S --colors K --meeples M [--jobs J] --out FILE
                  [--first-game F] [--log LOG.jsonl] [--tileset NAME] [--large-meeple]
      Play N games with the baseline random policies and write a JSON summary
      (same key layout as `carcassonne-solo-results/1` where it overlaps).
      --log also writes every game as a `carcassonne-solo-log/1` line.
      --tileset base (default), base+inns, base+river or base+inns+river;
      --large-meeple gives each colour the large meeple too.  Any option other than the
      plain base game adds config.large_meeple (and logs the expansion keys).
  refcheck.py compare REF.json RESULTS.json
      Statistical comparison of two summaries (ours vs the C++ tool's).
      Prints `compare: OK` (exit 0) or `compare: MISMATCH` (exit 1); refuses with one
      line (exit 2) if config.tileset or config.large_meeple differ (absent: base, false).
  refcheck.py selftest
      Hand-built rule scenarios (base and expansions), flood-fill cross-checks and
      sim -> log -> check round trips.
"""

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections import Counter

# ---------------------------------------------------------------------------
# Tile set (rules.md, "Base tile set").  Edges N, E, S, W unrotated.
# Segment spec: (kind, edges) ; kind "city*" = city with a pennant.
# ---------------------------------------------------------------------------
TILE_TABLE = {
    "A": (2, "FFRF", [("monastery", ""), ("road", "S")]),
    "B": (4, "FFFF", [("monastery", "")]),
    "C": (1, "CCCC", [("city*", "NESW")]),
    "D": (4, "CRFR", [("city", "N"), ("road", "EW")]),
    "E": (5, "CFFF", [("city", "N")]),
    "F": (2, "FCFC", [("city*", "EW")]),
    "G": (1, "FCFC", [("city", "EW")]),
    "H": (3, "FCFC", [("city", "E"), ("city", "W")]),
    "I": (2, "FCCF", [("city", "E"), ("city", "S")]),
    "J": (3, "CRRF", [("city", "N"), ("road", "ES")]),
    "K": (3, "CFRR", [("city", "N"), ("road", "SW")]),
    "L": (3, "CRRR", [("city", "N"), ("road", "E"), ("road", "S"), ("road", "W")]),
    "M": (2, "CFFC", [("city*", "NW")]),
    "N": (3, "CFFC", [("city", "NW")]),
    "O": (2, "CRRC", [("city*", "NW"), ("road", "ES")]),
    "P": (3, "CRRC", [("city", "NW"), ("road", "ES")]),
    "Q": (1, "CCFC", [("city*", "NEW")]),
    "R": (3, "CCFC", [("city", "NEW")]),
    "S": (2, "CCRC", [("city*", "NEW"), ("road", "S")]),
    "T": (1, "CCRC", [("city", "NEW"), ("road", "S")]),
    "U": (8, "RFRF", [("road", "NS")]),
    "V": (9, "FFRR", [("road", "SW")]),
    "W": (4, "FRRR", [("road", "E"), ("road", "S"), ("road", "W")]),
    "X": (1, "RRRR", [("road", "N"), ("road", "E"), ("road", "S"), ("road", "W")]),
}
BASE_TYPES = sorted(TILE_TABLE)

# expansions.md, "1. Inns & Cathedrals" and "2. The River (I)".  Marks: "road+inn" is a
# road segment with an inn, "city+cathedral" a city segment with a cathedral.  Edge letter
# A is water (matches only A; never a segment).
INN_TABLE = {
    "I1": (2, "CCCC", [("city+cathedral", "NESW")]),
    "I2": (1, "FFRR", [("road+inn", "SW")]),
    "I3": (1, "FRFR", [("road+inn", "EW")]),
    "I4": (1, "FRRR", [("road+inn", "E"), ("road", "S"), ("road", "W")]),
    "I5": (1, "CFRR", [("city", "N"), ("road+inn", "SW")]),
    "I6": (1, "CFRC", [("city", "NW"), ("road+inn", "S")]),
    "I7": (1, "CRRC", [("city*", "NW"), ("road+inn", "ES")]),
    "I8": (1, "FRFR", [("monastery", ""), ("road", "E"), ("road", "W")]),
    "I9": (1, "RRRR", [("road", "NW"), ("road", "ES")]),
    "I10": (1, "CFFF", [("city", "N")]),
    "I11": (1, "CFRF", [("city", "N"), ("road", "S")]),
    "I12": (1, "CRFC", [("city", "NW"), ("road", "E")]),
    "I13": (1, "RCRC", [("city*", "EW"), ("road", "N"), ("road", "S")]),
    "I14": (1, "CRCR", [("city", "N"), ("road", "E"), ("city", "S"), ("road", "W")]),
    "I15": (1, "CFCC", [("city*", "NW"), ("city", "S")]),
    "I16": (1, "CCFC", [("city", "N"), ("city", "E"), ("city", "W")]),
    "I17": (1, "CCCC", [("city", "N"), ("city", "E"), ("city", "S"), ("city", "W")]),
}
RIVER_TABLE = {
    "R0": (1, "FAFF", []),
    "R1": (1, "CACA", [("city", "N"), ("city", "S")]),
    "R2": (1, "CARA", [("city", "N"), ("road", "S")]),
    "R3": (1, "FARA", [("monastery", ""), ("road", "S")]),
    "R4": (1, "RARA", [("road", "NS")]),
    "R5": (2, "FAFA", []),
    "R6": (1, "CCAA", [("city", "NE")]),
    "R7": (1, "RRAA", [("road", "NE")]),
    "R8": (2, "FFAA", []),
    "R9": (1, "FFFA", []),
}
INN_TYPES = ["I%d" % i for i in range(1, 18)]
RIVER_TYPES = ["R%d" % i for i in range(10)]
RIVER_SET = frozenset(RIVER_TYPES)
SPRING = "R0"
LAKE = "R9"
TILE_TABLE.update(INN_TABLE)
TILE_TABLE.update(RIVER_TABLE)
TILE_TYPES = BASE_TYPES + INN_TYPES + RIVER_TYPES
assert sorted(TILE_TYPES) == sorted(TILE_TABLE)
TILESETS = ["base", "base+inns", "base+river", "base+inns+river"]
DIRNAMES = "NESW"
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
LETTER_CODE = {"C": 1, "R": 2, "F": 3, "A": 4}     # 3 bits per direction in a frontier code
NEIGH8 = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))

GOAL_IDS = ["road_10", "road_10_2c", "road_10_3c", "road_5_3c",
            "city_16", "city_16_2c", "city_16_3c", "city_8_10_3c",
            "monastery_3", "monastery_4", "total_40", "total_50", "total_60",
            "all_tiles"]
END_REASONS = ["no_meeple", "tiles_exhausted"]
TOTAL_TILES = 72
START_TILE = "D"


def tileset_options(name):
    """(inns, river) for a tileset name of expansions.md; None if unknown."""
    if name not in TILESETS:
        return None
    return ("inns" in name.split("+"), "river" in name.split("+"))


class Seg:
    __slots__ = ("kind", "dirs", "pennant", "name", "inn", "cathedral")

    def __init__(self, kind, dirs, pennant, inn=False, cathedral=False):
        self.kind = kind            # "road" | "city" | "monastery"
        self.dirs = dirs            # sorted tuple of board directions 0..3
        self.pennant = pennant      # 0/1
        self.inn = inn              # road with an inn (I&C)
        self.cathedral = cathedral  # city with a cathedral (I&C)
        if kind == "monastery":
            self.name = "monastery"
        else:
            self.name = kind + ":" + ",".join(DIRNAMES[d] for d in dirs)


class TileRot:
    __slots__ = ("type", "rot", "edges", "segs", "dir2seg", "monastery")

    def __init__(self, ttype, rot):
        count, edges, segspec = TILE_TABLE[ttype]
        self.type = ttype
        self.rot = rot
        # rotation r: the edge at unrotated direction d moves to (d + r) % 4
        self.edges = "".join(edges[(d - rot) % 4] for d in range(4))
        self.segs = []
        self.dir2seg = [-1, -1, -1, -1]
        self.monastery = False
        for kind, es in segspec:
            pennant = 0
            inn = cathedral = False
            if kind == "city*":
                kind, pennant = "city", 1
            elif kind == "road+inn":
                kind, inn = "road", True
            elif kind == "city+cathedral":
                kind, cathedral = "city", True
            dirs = tuple(sorted((DIRNAMES.index(e) + rot) % 4 for e in es))
            idx = len(self.segs)
            self.segs.append(Seg(kind, dirs, pennant, inn, cathedral))
            if kind == "monastery":
                self.monastery = True
            for d in dirs:
                assert self.dir2seg[d] == -1
                self.dir2seg[d] = idx
        # sanity: every road/city edge belongs to exactly one segment of that kind;
        # field and water edges to none
        for d in range(4):
            letter = self.edges[d]
            if letter in "FA":
                assert self.dir2seg[d] == -1, (ttype, rot, d)
            else:
                s = self.segs[self.dir2seg[d]]
                assert s.kind == ("city" if letter == "C" else "road"), (ttype, rot, d)
        names = [s.name for s in self.segs]
        assert len(names) == len(set(names)), (ttype, names)


ROT = {t: [TileRot(t, r) for r in range(4)] for t in TILE_TYPES}


class _RotTable(dict):
    """Frontier code -> tuple of the rotations of one tile type that fit (filled lazily)."""

    def __init__(self, t):
        super().__init__()
        self.edges = [ROT[t][r].edges for r in range(4)]

    def __missing__(self, code):
        rots = []
        for r in range(4):
            e = self.edges[r]
            ok = True
            for d in range(4):
                v = (code >> (3 * d)) & 7
                if v and v != LETTER_CODE[e[d]]:
                    ok = False
                    break
            if ok:
                rots.append(r)
        rots = tuple(rots)
        self[code] = rots
        return rots


VALID_ROTS = {t: _RotTable(t) for t in TILE_TYPES}
assert sum(TILE_TABLE[t][0] for t in BASE_TYPES) == TOTAL_TILES
assert sum(TILE_TABLE[t][0] for t in INN_TYPES) == 18
assert sum(TILE_TABLE[t][0] for t in RIVER_TYPES) == 12


def base_bag():
    """The 71 tiles that are shuffled (all tiles minus the start D)."""
    bag = []
    for t in BASE_TYPES:
        n = TILE_TABLE[t][0] - (1 if t == START_TILE else 0)
        bag.extend([t] * n)
    return bag


def land_bag(tileset):
    """The land tiles dealt into the colours' stacks (expansions.md, section 3): the base
    tiles (one D fewer without the river, whose spring is the start tile instead), plus
    the I&C tiles with inns.  For "base" exactly base_bag(), in the same order."""
    inns, river = tileset_options(tileset)
    if river:
        bag = []
        for t in BASE_TYPES:
            bag.extend([t] * TILE_TABLE[t][0])
    else:
        bag = base_bag()
    if inns:
        for t in INN_TYPES:
            bag.extend([t] * TILE_TABLE[t][0])
    return bag


def river_bag():
    """R1..R8, the river tiles shuffled over the lake R9 (the spring R0 is the start)."""
    bag = []
    for t in RIVER_TYPES:
        if t not in (SPRING, LAKE):
            bag.extend([t] * TILE_TABLE[t][0])
    return bag


def stack_sizes(k, n=TOTAL_TILES - 1):
    q, rem = divmod(n, k)
    return [q + (1 if c < rem else 0) for c in range(k)]


# ---------------------------------------------------------------------------
# Engine
# ---------------------------------------------------------------------------
class Game:
    """Board, features (union-find), figures and scores.  With large=True each colour
    also has one large meeple (expansions.md); the river's open end is tracked when
    river tiles are placed."""

    def __init__(self, k, m, start_scores=None, large=False):
        self.k = k
        self.m = m
        self.large = large
        self.scores = list(start_scores) if start_scores is not None else list(range(1, k + 1))
        self.supply = [m] * k
        self.large_supply = [1 if large else 0] * k
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
        self.monk_awarded = 0
        self.goals = set()
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

    # -- placement
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
        if not (_is_int(r) and 0 <= r <= 3):
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

    def place(self, t, x, y, r):
        """Put tile t at (x, y) with rotation r (legality is the caller's business,
        but touching edges must match).  Joins features."""
        tr = ROT[t][r]
        cell = (x, y)
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
        dirnode = [segnodes[i] if i >= 0 else -1 for i in tr.dir2seg]
        self.cells[cell] = (tr, dirnode, segnodes)
        self.frontier.pop(cell, None)
        edges = tr.edges
        for d in range(4):
            n = (x + DX[d], y + DY[d])
            od = (d + 2) % 4
            nc = self.cells.get(n)
            if nc is None:
                self.frontier[n] = self.frontier.get(n, 0) | (LETTER_CODE[edges[d]] << (3 * od))
            else:
                if nc[0].edges[od] != edges[d]:
                    raise ValueError("edge mismatch placing %s at %s rot %d" % (t, cell, r))
                a = dirnode[d]
                if a >= 0:
                    root = self._union(a, nc[1][od])
                    self.f_open[root] -= 2
        if t in RIVER_SET:
            if self.river_open is not None:
                turn = self.river_turn(tr, self.river_open[1])
                if turn is not None:
                    self.last_curve = turn
            outs = [d for d in range(4) if edges[d] == "A"
                    and (x + DX[d], y + DY[d]) not in self.cells]
            self.river_open = (cell, outs[0]) if len(outs) == 1 else None
        self.last_cell = cell
        self.last_nodes = segnodes
        return tr

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

    def has_figure(self, color):
        return self.supply[color] > 0 or self.large_supply[color] > 0

    def put_meeple(self, seg_index, color, large=False):
        tr = self.cells[self.last_cell][0]
        s = tr.segs[seg_index]
        if s.kind == "monastery":
            self.monks[self.last_cell] = color
            if large:
                self.monk_large.add(self.last_cell)
        else:
            root = self.find(self.last_nodes[seg_index])
            self.f_meeples[root].append(color)
            if large:
                self.f_large[root].append(color)
        if large:
            self.large_supply[color] -= 1
        else:
            self.supply[color] -= 1

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

    def score_feature(self, f):
        """Score one completed feature; returns the log entry dict."""
        kind, tiles, pen, pts, meeples = self.feature_info(f)
        large = self.feature_large(f)
        scores = self.scores
        low = min(scores)
        majority = []
        if meeples:
            cnt = Counter(meeples)
            for c in large:          # a large meeple weighs 2
                cnt[c] += 1
            best = max(cnt.values())
            majority = sorted(c for c, n in cnt.items() if n == best)
        awarded = []
        if any(scores[c] == low for c in majority):
            awarded = majority
            for c in majority:
                scores[c] += pts
        for c in meeples:
            self.supply[c] += 1
        for c in large:
            self.supply[c] -= 1
            self.large_supply[c] += 1
        if kind == "monastery":
            del self.monks[f[1]]
            self.monk_large.discard(f[1])
        else:
            self.f_meeples[f[1]] = []
            self.f_large[f[1]] = []
        n = len(awarded)
        if n:
            if kind == "road":
                if pts >= 10:
                    self.goals.add("road_10")
                    if n >= 2:
                        self.goals.add("road_10_2c")
                    if n >= 3:
                        self.goals.add("road_10_3c")
                if pts == 5 and n >= 3:
                    self.goals.add("road_5_3c")
            elif kind == "city":
                if pts >= 16:
                    self.goals.add("city_16")
                    if n >= 2:
                        self.goals.add("city_16_2c")
                    if n >= 3:
                        self.goals.add("city_16_3c")
                if 8 <= pts <= 10 and n >= 3:
                    self.goals.add("city_8_10_3c")
            else:
                self.monk_awarded += 1
        ent = {"kind": kind, "tiles": tiles, "pennants": pen, "points": pts,
               "meeples": meeples, "majority": majority, "low_before": low,
               "awarded": list(awarded), "scores_after": list(scores)}
        if self.large:
            ent["large_meeples"] = large
        return ent

    def meeples_on_board(self):
        """Colours of the (ordinary) meeples on the board, one entry each."""
        out = []
        for c in range(self.k):
            out.extend([c] * (self.m - self.supply[c]))
        return out

    def figures_on_board(self):
        """(colour, large) for every figure on the board."""
        out = []
        for c in range(self.k):
            out.extend([(c, False)] * (self.m - self.supply[c]))
            if self.large and self.large_supply[c] == 0:
                out.append((c, True))
        return out

    def final_score_one(self, c):
        awarded = self.scores[c] == min(self.scores)
        if awarded:
            self.scores[c] += 2
        return {"color": c, "points": 2, "awarded": awarded,
                "scores_after": list(self.scores)}

    def final_goals(self, reason):
        g = set(self.goals)
        if self.monk_awarded >= 3:
            g.add("monastery_3")
        if self.monk_awarded >= 4:
            g.add("monastery_4")
        res = min(self.scores)
        for t in (40, 50, 60):
            if res >= t:
                g.add("total_%d" % t)
        if reason == "tiles_exhausted":
            g.add("all_tiles")
        return g


# ---------------------------------------------------------------------------
# Random-policy game (sim)
# ---------------------------------------------------------------------------
def deal(rng, k, tileset="base"):
    bag = land_bag(tileset)
    rng.shuffle(bag)
    stacks = []
    pos = 0
    for n in stack_sizes(k, len(bag)):
        stacks.append(bag[pos:pos + n])
        pos += n
    return stacks


def deal_river(rng):
    """The shared river stack, top first: R1..R8 shuffled, the lake R9 under them."""
    bag = river_bag()
    rng.shuffle(bag)
    return bag + [LAKE]


def game_rng(seed, index):
    return random.Random("refcheck:%d:%d" % (seed, index))


def play_game(rng, k, m, want_log=False, seed=None, index=None, stacks=None,
              tileset="base", large=False, river=None):
    """One game with the baseline random policies.  With a river tileset the shared
    river stack (top first, R9 last) is dealt after the land stacks unless given."""
    has_river = tileset_options(tileset)[1]
    if stacks is None:
        stacks = deal(rng, k, tileset)
    if has_river and river is None:
        river = deal_river(rng)
    river = list(river) if has_river else []
    g = Game(k, m, None, large)
    start = SPRING if has_river else START_TILE
    g.place(start, 0, 0, 0)
    ptr = [0] * k
    rptr = 0
    log_turns = [] if want_log else None
    turn = 0
    color = 0
    placed = 0
    discards = 0
    reason = None
    while True:
        # next colour with a non-empty stack (one always exists here); while the river
        # stack holds tiles every colour draws from it
        if rptr >= len(river):
            while ptr[color] >= len(stacks[color]):
                color = (color + 1) % k
        forced_fail = False
        stk = stacks[color]
        while True:
            if rptr < len(river):
                t = river[rptr]
                rptr += 1
            elif ptr[color] < len(stk):
                t = stk[ptr[color]]
                ptr[color] += 1
            else:
                break
            if t in RIVER_SET:
                opts = [((x, y), r) for x, y, r in g.river_placements(t)]
            else:
                vt = VALID_ROTS[t]
                opts = []
                for cell, code in g.frontier.items():
                    rs = vt[code]
                    if rs:
                        for r in rs:
                            opts.append((cell, r))
            if not opts:
                discards += 1
                if want_log:
                    ent = {"turn": turn, "color": color, "tile": t, "discarded": True,
                           "scores": list(g.scores), "supply": list(g.supply)}
                    if large:
                        ent["large_supply"] = list(g.large_supply)
                    log_turns.append(ent)
                continue
            (x, y), r = opts[rng.randrange(len(opts))]
            tr = g.place(t, x, y, r)
            placed += 1
            free = g.free_segments()
            meeple = None
            big = False
            if free:
                if g.has_figure(color):
                    meeple = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
                    if large:
                        # the figure after the segment, uniform over the kinds in supply
                        kinds = ([False] if g.supply[color] > 0 else []) + \
                            ([True] if g.large_supply[color] > 0 else [])
                        big = kinds[rng.randrange(2)] if len(kinds) == 2 else kinds[0]
                    g.put_meeple(meeple, color, big)
                else:
                    forced_fail = True
            done = g.completed_features()
            if len(done) > 1:
                rng.shuffle(done)
            entries = [g.score_feature(f) for f in done]
            if want_log:
                ent = {
                    "turn": turn, "color": color, "tile": t, "discarded": False,
                    "x": x, "y": y, "rot": r, "edges": tr.edges,
                    "free": [tr.segs[i].name for i in free],
                    "meeple": tr.segs[meeple].name if meeple is not None else None,
                    "scored": entries, "scores": list(g.scores), "supply": list(g.supply)}
                if large:
                    ent["large"] = big
                    ent["large_supply"] = list(g.large_supply)
                log_turns.append(ent)
            break
        turn += 1
        if rptr >= len(river) and all(ptr[c] >= len(stacks[c]) for c in range(k)):
            reason = "tiles_exhausted"
            break
        if forced_fail:
            reason = "no_meeple"
            break
        color = (color + 1) % k
    if large:
        left = g.figures_on_board()
        rng.shuffle(left)
        final = []
        for c, big in left:
            ent = g.final_score_one(c)
            ent["large"] = big
            final.append(ent)
    else:
        left = g.meeples_on_board()
        rng.shuffle(left)
        final = [g.final_score_one(c) for c in left]
    goals = g.final_goals(reason)
    result = min(g.scores)
    summary = (result, reason, placed, discards, goals, tuple(g.scores))
    if not want_log:
        return summary, None
    cfg = {"colors": k, "meeples": m, "start_scores": list(range(1, k + 1)),
           "tileset": tileset, "placement_policy": "random",
           "scoring_policy": "random"}
    if tileset != "base" or large:
        cfg["large_meeple"] = large
    doc = {
        "format": "carcassonne-solo-log/1",
        "config": cfg,
        "seed": seed, "game": index,
        "stacks": stacks,
    }
    if has_river:
        doc["river_stack"] = river
    doc.update({
        "start": {"tile": start, "x": 0, "y": 0, "rot": 0},
        "turns": log_turns,
        "final_scoring": final,
        "end": {"reason": reason, "turns": turn, "tiles_placed": placed, "discarded": discards},
        "scores": list(g.scores),
        "result": result,
        "goals": [x for x in GOAL_IDS if x in goals],
    })
    return summary, doc


def new_acc(k):
    return {"games": 0, "result_hist": Counter(), "tiles_hist": Counter(),
            "reasons": Counter(), "goals": Counter(), "discards": 0,
            "games_with_discard": 0, "color_sums": [0] * k}


def merge_acc(a, b):
    a["games"] += b["games"]
    a["result_hist"].update(b["result_hist"])
    a["tiles_hist"].update(b["tiles_hist"])
    a["reasons"].update(b["reasons"])
    a["goals"].update(b["goals"])
    a["discards"] += b["discards"]
    a["games_with_discard"] += b["games_with_discard"]
    a["color_sums"] = [x + y for x, y in zip(a["color_sums"], b["color_sums"])]


def run_chunk(args):
    seed, k, m, lo, hi, want_log, tileset, large = args
    acc = new_acc(k)
    logs = [] if want_log else None
    for i in range(lo, hi):
        (result, reason, placed, discards, goals, scores), doc = play_game(
            game_rng(seed, i), k, m, want_log, seed, i, tileset=tileset, large=large)
        acc["games"] += 1
        acc["result_hist"][result] += 1
        acc["tiles_hist"][placed] += 1
        acc["reasons"][reason] += 1
        for gid in goals:
            acc["goals"][gid] += 1
        acc["discards"] += discards
        if discards:
            acc["games_with_discard"] += 1
        for c in range(k):
            acc["color_sums"][c] += scores[c]
        if want_log:
            logs.append(json.dumps(doc, separators=(",", ":")))
    return acc, logs


def hist_stats(hist):
    n = sum(hist.values())
    if n == 0:
        return 0.0, 0.0
    s = sum(v * c for v, c in hist.items())
    mean = s / n
    if n > 1:
        ss = sum(c * (v - mean) ** 2 for v, c in hist.items())
        std = math.sqrt(ss / (n - 1))
    else:
        std = 0.0
    return mean, std


def wilson(c, n, z=1.959963984540054):
    if n == 0:
        return [0.0, 1.0]
    p = c / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return [max(0.0, centre - half), min(1.0, centre + half)]


def summarize(acc, cfg, seconds, jobs):
    n = acc["games"]
    mean, std = hist_stats(acc["result_hist"])
    tmean, tstd = hist_stats(acc["tiles_hist"])
    rh = sorted(acc["result_hist"].items())
    out = {
        "format": "refcheck-sim/1",
        "program": {"name": "refcheck.py", "version": "1"},
        "config": cfg,
        "games": n,
        "result": {"mean": mean, "std": std, "stderr": std / math.sqrt(n) if n else 0.0,
                   "min": rh[0][0] if rh else None, "max": rh[-1][0] if rh else None,
                   "histogram": [[v, c] for v, c in rh]},
        "colors": [{"mean_score": s / n if n else 0.0} for s in acc["color_sums"]],
        "end_reasons": {r: {"count": acc["reasons"][r],
                            "rate": acc["reasons"][r] / n if n else 0.0,
                            "wilson95": wilson(acc["reasons"][r], n)} for r in END_REASONS},
        "tiles_placed": {"mean": tmean, "std": tstd,
                         "histogram": [[v, c] for v, c in sorted(acc["tiles_hist"].items())]},
        "discards": {"total": acc["discards"], "mean": acc["discards"] / n if n else 0.0,
                     "games_with_discard": acc["games_with_discard"]},
        "goals": {gid: {"count": acc["goals"][gid], "rate": acc["goals"][gid] / n if n else 0.0,
                        "wilson95": wilson(acc["goals"][gid], n)} for gid in GOAL_IDS},
        "performance": {"jobs": jobs, "seconds": seconds,
                        "games_per_second": n / seconds if seconds > 0 else None},
    }
    return out


def cmd_sim(args):
    k, m = args.colors, args.meeples
    if not (2 <= k <= 6) or not (1 <= m <= 12):
        print("sim: colors must be 2..6 and meeples 1..12", file=sys.stderr)
        return 2
    n = args.games
    lo0 = args.first_game
    tileset, large = args.tileset, bool(args.large_meeple)
    if tileset_options(tileset) is None:
        print("sim: --tileset must be one of %s" % ", ".join(TILESETS), file=sys.stderr)
        return 2
    chunk = max(1, min(2000, n // (args.jobs * 8) or 1))
    tasks = [(args.seed, k, m, lo, min(lo + chunk, lo0 + n), bool(args.log), tileset, large)
             for lo in range(lo0, lo0 + n, chunk)]
    t0 = time.time()
    acc = new_acc(k)
    logf = open(args.log, "w") if args.log else None
    if args.jobs <= 1:
        results = map(run_chunk, tasks)
        pool = None
    else:
        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap(run_chunk, tasks)
    for a, logs in results:
        merge_acc(acc, a)
        if logf:
            for line in logs:
                logf.write(line + "\n")
    if pool:
        pool.close()
        pool.join()
    if logf:
        logf.close()
    secs = time.time() - t0
    cfg = {"colors": k, "meeples": m, "start_scores": list(range(1, k + 1)), "tileset": tileset,
           "placement_policy": "random", "scoring_policy": "random",
           "seed": args.seed, "first_game": lo0, "games": n}
    if tileset != "base" or large:
        cfg["large_meeple"] = large
    out = summarize(acc, cfg, secs, args.jobs)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    r = out["result"]
    tag = "" if tileset == "base" and not large else " (%s%s)" % (
        tileset, ", large meeple" if large else "")
    print("sim%s: %d games in %.1fs (%.0f games/s); result mean %.4f std %.4f; "
          "tiles_placed mean %.3f; no_meeple %.4f; discards %d"
          % (tag, n, secs, n / secs if secs else 0, r["mean"], r["std"],
             out["tiles_placed"]["mean"], out["end_reasons"]["no_meeple"]["rate"],
             acc["discards"]))
    return 0


# ---------------------------------------------------------------------------
# check: replay logs
# ---------------------------------------------------------------------------
class StopGame(Exception):
    pass


def fmt(v):
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(str(x) for x in v)) + "}"
    try:
        return json.dumps(v, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(v)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class Checker:
    def __init__(self, out=print):
        self.out = out
        self.problems = 0
        self.games = 0

    def run_game(self, doc, gid):
        self.games += 1
        self.gid = gid
        try:
            self._check_game(doc)
        except StopGame as e:
            self.out("game %s turn %s: replay stopped: %s" % (gid, self.cur_turn, e))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            self.problems += 1
            self.out("game %s turn %s: malformed log (%s: %s); replay stopped"
                     % (gid, self.cur_turn, type(e).__name__, e))

    def prob(self, what, exp, got):
        self.problems += 1
        self.out("game %s turn %s: %s expected %s got %s"
                 % (self.gid, self.cur_turn, what, fmt(exp), fmt(got)))

    def eq(self, what, exp, got):
        if exp != got or type(exp) is not type(got) and not (
                isinstance(exp, (int, float)) and isinstance(got, (int, float))
                and not isinstance(got, bool) and not isinstance(exp, bool)):
            self.prob(what, exp, got)
            return False
        return True

    def fatal(self, what, exp, got):
        self.prob(what, exp, got)
        raise StopGame(what)

    def _check_game(self, doc):
        self.cur_turn = "setup"
        if not isinstance(doc, dict):
            self.fatal("document type", "object", type(doc).__name__)
        self.eq("format", "carcassonne-solo-log/1", doc.get("format"))
        cfg = doc["config"]
        k = cfg["colors"]
        m = cfg["meeples"]
        if not _is_int(k) or not 2 <= k <= 6:
            self.fatal("config.colors in 2..6", "2..6", k)
        if not _is_int(m) or not 1 <= m <= 12:
            self.fatal("config.meeples in 1..12", "1..12", m)
        start_scores = list(range(1, k + 1))
        self.eq("config.start_scores", start_scores, cfg.get("start_scores"))
        tileset = cfg.get("tileset", "base")
        opts = tileset_options(tileset) if isinstance(tileset, str) else None
        if opts is None:
            self.fatal("config.tileset", " or ".join(TILESETS), tileset)
        has_river = opts[1]
        large = cfg.get("large_meeple", False)
        if large is not True and large is not False:
            self.fatal("config.large_meeple", "true/false", large)
        stacks = doc["stacks"]
        if not isinstance(stacks, list) or len(stacks) != k:
            self.fatal("number of stacks", k, len(stacks) if isinstance(stacks, list) else stacks)
        land = land_bag(tileset)
        self.eq("stack sizes", stack_sizes(k, len(land)), [len(s) for s in stacks])
        got_ms = Counter(t for s in stacks for t in s)
        exp_ms = Counter(land)
        if got_ms != exp_ms:
            missing = exp_ms - got_ms
            extra = got_ms - exp_ms
            self.prob("stack tile multiset (base set minus one D): missing/extra"
                      if tileset == "base" else
                      "stack tile multiset (land tiles of %s): missing/extra" % tileset,
                      dict(sorted(missing.items())), dict(sorted(extra.items())))
        land_types = set(land)
        for s in stacks:
            for t in s:
                if t not in land_types:
                    self.fatal("tile type", "A..X" if tileset == "base" else
                               "a land tile type of " + tileset, t)
        river = []
        if has_river:
            river = doc.get("river_stack")
            if not isinstance(river, list):
                self.fatal("river_stack (the river tiles, top first)", "list", river)
            for t in river:
                if t not in RIVER_SET or t == SPRING:
                    self.fatal("river_stack tile type", "R1..R9", t)
            exp_rs = Counter(river_bag() + [LAKE])
            got_rs = Counter(river)
            if got_rs != exp_rs:
                self.prob("river_stack tile multiset (R1..R9): missing/extra",
                          dict(sorted((exp_rs - got_rs).items())),
                          dict(sorted((got_rs - exp_rs).items())))
            if not river or river[-1] != LAKE:
                self.prob("river_stack last tile (the lake)", LAKE, river[-1] if river else None)
        elif doc.get("river_stack") not in (None, []):
            self.prob("river_stack (tileset without the river)", [], doc.get("river_stack"))
        start_tile = SPRING if has_river else START_TILE
        st = doc.get("start")
        if st is not None:
            self.eq("start", {"tile": start_tile, "x": 0, "y": 0, "rot": 0},
                    {kk: st.get(kk) for kk in ("tile", "x", "y", "rot")})

        g = Game(k, m, start_scores, large)
        g.place(start_tile, 0, 0, 0)
        ptr = [0] * k
        rptr = 0
        turns = doc["turns"]
        if not isinstance(turns, list):
            self.fatal("turns", "list", type(turns).__name__)
        cur_turn = -1
        color = -1
        in_turn = False
        ended = None
        forced_fail = False
        placed = 0
        discards = 0
        n_turns = 0

        def stacks_empty():
            return rptr >= len(river) and all(ptr[c] >= len(stacks[c]) for c in range(k))

        def check_supplies(e):
            self.eq("scores", g.scores, e.get("scores"))
            self.eq("supply", g.supply, e.get("supply"))
            if large:
                self.eq("large_supply", g.large_supply, e.get("large_supply"))
            elif "large_supply" in e:
                self.eq("large_supply (no large meeples)", g.large_supply, e.get("large_supply"))

        for e in turns:
            if not in_turn:
                if ended:
                    self.cur_turn = e.get("turn") if isinstance(e, dict) else "?"
                    self.fatal("game already ended (%s); further turn entries" % ended,
                               "none", "entry for turn %s" % (e.get("turn") if isinstance(e, dict) else "?"))
                c = (color + 1) % k
                if rptr >= len(river):
                    while ptr[c] >= len(stacks[c]):
                        c = (c + 1) % k
                color = c
                cur_turn += 1
                n_turns += 1
                forced_fail = False
            self.cur_turn = cur_turn
            if not isinstance(e, dict):
                self.fatal("turn entry type", "object", type(e).__name__)
            self.eq("turn number", cur_turn, e.get("turn"))
            if e.get("color") != color:
                self.fatal("color (draw order)", color, e.get("color"))
            if rptr < len(river):
                t = river[rptr]
                if e.get("tile") != t:
                    self.fatal("tile drawn from the river stack position %d" % rptr,
                               t, e.get("tile"))
                rptr += 1
            else:
                t = stacks[color][ptr[color]]
                if e.get("tile") != t:
                    self.fatal("tile drawn from stack %d position %d" % (color, ptr[color]),
                               t, e.get("tile"))
                ptr[color] += 1
            legal = g.legal_placements(t)
            disc = e.get("discarded")
            if disc is not True and disc is not False:
                self.fatal("discarded flag", "true/false", disc)
            if disc:
                if legal:
                    self.prob("discard of tile %s with legal placements (e.g. x,y,rot=%s); "
                              "number of legal placements" % (t, fmt(list(legal[0]))),
                              0, len(legal))
                discards += 1
                check_supplies(e)
                if rptr < len(river) or ptr[color] < len(stacks[color]):
                    in_turn = True
                    continue
                in_turn = False
            else:
                in_turn = False
                if not legal:
                    self.fatal("tile %s has no legal placement; discarded" % t, True, False)
                x, y, r = e["x"], e["y"], e["rot"]
                if (x, y, r) not in set(legal):
                    if t in RIVER_SET:
                        why = g.river_refusal(t, x, y, r)
                    else:
                        why = "cell occupied" if (x, y) in g.cells else (
                            "not adjacent to a placed tile" if (x, y) not in g.frontier
                            else "edges do not match")
                    self.fatal("legal placement of %s (%s); x,y,rot" % (t, why),
                               "one of %d legal placements" % len(legal), [x, y, r])
                tr = g.place(t, x, y, r)
                placed += 1
                self.eq("edges", tr.edges, e.get("edges"))
                free = g.free_segments()
                free_names = [tr.segs[i].name for i in free]
                got_free = e.get("free")
                if not isinstance(got_free, list) or set(got_free) != set(free_names) \
                        or len(got_free) != len(set(got_free)):
                    self.prob("free segments", set(free_names),
                              set(got_free) if isinstance(got_free, list) else got_free)
                mp = e.get("meeple", "<missing>")
                big = e.get("large", False)
                if big is not True and big is not False:
                    self.prob("large (the figure placed is the large meeple)", "true/false", big)
                    big = False
                if not free or not g.has_figure(color):
                    if mp is not None:
                        self.fatal("meeple (no free segment or empty supply)", None, mp)
                    if big:
                        self.prob("large (no figure placed)", False, big)
                    if free:
                        forced_fail = True
                else:
                    if mp not in free_names:
                        self.fatal("meeple on one of the free segments", free_names, mp)
                    if big and not large:
                        self.fatal("large (config.large_meeple is false)", False, big)
                    if big and g.large_supply[color] == 0:
                        self.fatal("large (colour %d's large meeple is not in supply)" % color,
                                   False, big)
                    if not big and g.supply[color] == 0:
                        self.fatal("large (colour %d has no meeple in supply: its lone large "
                                   "meeple must be placed)" % color, True, big)
                    g.put_meeple(free[free_names.index(mp)], color, big)
                self._check_scored(g, e.get("scored"))
                check_supplies(e)
            # the colour turn is over
            if stacks_empty():
                ended = "tiles_exhausted"
            elif forced_fail:
                ended = "no_meeple"

        self.cur_turn = "end"
        if in_turn:
            self.fatal("redraw after discard (log ends mid-turn)", "another entry", "end of log")
        if not ended:
            self.fatal("log ends before the game is over (no end condition met); turn entries",
                       "more", "end of log")
        end = doc["end"]
        self.eq("end.reason", ended, end.get("reason"))
        self.eq("end.turns", n_turns, end.get("turns"))
        self.eq("end.tiles_placed", placed, end.get("tiles_placed"))
        self.eq("end.discarded", discards, end.get("discarded"))

        # final scoring
        self.cur_turn = "final"
        fs = doc["final_scoring"]
        if not isinstance(fs, list):
            self.fatal("final_scoring", "list", type(fs).__name__)
        if large:
            self._check_final_large(g, fs)
        else:
            left = Counter(g.meeples_on_board())
            if len(fs) != sum(left.values()):
                self.prob("number of final_scoring entries (meeples left on board)",
                          sum(left.values()), len(fs))
            for j, fe in enumerate(fs):
                c = fe.get("color") if isinstance(fe, dict) else None
                if not _is_int(c) or left[c] <= 0:
                    self.prob("final_scoring[%d].color (a colour with a meeple still on the board)"
                              % j, dict(sorted((cc, n) for cc, n in left.items() if n > 0)), c)
                    continue
                left[c] -= 1
                ent = g.final_score_one(c)
                self.eq("final_scoring[%d].points" % j, 2, fe.get("points"))
                self.eq("final_scoring[%d].awarded" % j, ent["awarded"], fe.get("awarded"))
                self.eq("final_scoring[%d].scores_after" % j, ent["scores_after"],
                        fe.get("scores_after"))
                if fe.get("large", False) is not False:
                    self.prob("final_scoring[%d].large (config.large_meeple is false)" % j,
                              False, fe.get("large"))
            for c in sorted(left):
                for _ in range(left[c]):
                    g.final_score_one(c)   # keep going with something sensible
        self.cur_turn = "end"
        self.eq("scores", g.scores, doc.get("scores"))
        self.eq("result", min(g.scores), doc.get("result"))
        exp_goals = g.final_goals(ended)
        got_goals = doc.get("goals")
        if not isinstance(got_goals, list) or set(got_goals) != exp_goals \
                or len(set(got_goals)) != len(got_goals):
            self.prob("goals", exp_goals, set(got_goals) if isinstance(got_goals, list)
                      else got_goals)

    def _check_final_large(self, g, fs):
        """final_scoring with the large meeple: one entry per figure, `large` naming it."""
        left = Counter(g.figures_on_board())

        def figs():
            return dict(sorted(("%d%s" % (c, " large" if big else ""), n)
                               for (c, big), n in left.items() if n > 0))

        if len(fs) != sum(left.values()):
            self.prob("number of final_scoring entries (figures left on board)",
                      sum(left.values()), len(fs))
        for j, fe in enumerate(fs):
            c = fe.get("color") if isinstance(fe, dict) else None
            big = fe.get("large", False) if isinstance(fe, dict) else None
            if not _is_int(c) or (big is not True and big is not False) or left[(c, big)] <= 0:
                self.prob("final_scoring[%d].color/large (a figure still on the board)" % j,
                          figs(), {"color": c, "large": big})
                continue
            left[(c, big)] -= 1
            ent = g.final_score_one(c)
            self.eq("final_scoring[%d].points" % j, 2, fe.get("points"))
            self.eq("final_scoring[%d].awarded" % j, ent["awarded"], fe.get("awarded"))
            self.eq("final_scoring[%d].scores_after" % j, ent["scores_after"],
                    fe.get("scores_after"))
        for c, big in sorted(left):
            for _ in range(left[(c, big)]):
                g.final_score_one(c)   # keep going with something sensible

    def _check_scored(self, g, scored):
        done = g.completed_features()
        infos = [g.feature_info(f) for f in done]
        larges = [g.feature_large(f) for f in done]
        if not isinstance(scored, list):
            self.prob("scored", "list", scored)
            scored = []
        remaining = list(range(len(done)))
        for j, se in enumerate(scored):
            if not isinstance(se, dict) or not remaining:
                self.prob("scored[%d] (a feature completed by this placement)" % j,
                          "none left" if not remaining else "object", se)
                continue
            key = (se.get("kind"), se.get("tiles"), se.get("pennants"), se.get("points"),
                   sorted(se.get("meeples")) if isinstance(se.get("meeples"), list)
                   and all(_is_int(v) for v in se.get("meeples")) else se.get("meeples"))
            pick = None
            got_lm = se.get("large_meeples", [])
            got_lm = sorted(got_lm) if isinstance(got_lm, list) and \
                all(_is_int(v) for v in got_lm) else got_lm
            for tests in ((0, 1, 2, 3, 4), (0, 4), (0,)):
                # features alike but for their large meeples: match those too if possible
                for same_large in ((True, False) if g.large else (False,)):
                    for i in remaining:
                        if all(infos[i][q] == key[q] for q in tests) and \
                                (not same_large or larges[i] == got_lm):
                            pick = i
                            break
                    if pick is not None:
                        break
                if pick is not None:
                    break
            if pick is None:
                self.prob("scored[%d].kind (features left: %s)"
                          % (j, fmt([infos[i][0] for i in remaining])),
                          [infos[i][0] for i in remaining], se.get("kind"))
                continue
            remaining.remove(pick)
            kind, tiles, pen, pts, meeples = infos[pick]
            pre = "scored[%d] (%s)" % (j, kind)
            self.eq(pre + ".kind", kind, se.get("kind"))
            self.eq(pre + ".tiles", tiles, se.get("tiles"))
            self.eq(pre + ".pennants", pen, se.get("pennants"))
            self.eq(pre + ".points", pts, se.get("points"))
            self.eq(pre + ".meeples", meeples, se.get("meeples"))
            if g.large or "large_meeples" in se:
                self.eq(pre + ".large_meeples", larges[pick], got_lm)
            ent = g.score_feature(done[pick])
            self.eq(pre + ".majority", ent["majority"], se.get("majority"))
            self.eq(pre + ".low_before", ent["low_before"], se.get("low_before"))
            aw = se.get("awarded")
            self.eq(pre + ".awarded", ent["awarded"],
                    sorted(aw) if isinstance(aw, list) and all(_is_int(v) for v in aw) else aw)
            self.eq(pre + ".scores_after", ent["scores_after"], se.get("scores_after"))
        for i in remaining:
            kind, tiles, pen, pts, meeples = infos[i]
            self.prob("completed feature in scored", {"kind": kind, "tiles": tiles,
                      "points": pts, "meeples": meeples}, "missing")
            g.score_feature(done[i])


def cmd_check(args, out=print):
    ck = Checker(out)
    unreadable = False
    for path in args.logs:
        try:
            f = open(path, "r", encoding="utf-8")
        except OSError as e:
            print("check: cannot read %s: %s" % (path, e), file=sys.stderr)
            unreadable = True
            continue
        with f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    doc = json.loads(line)
                except ValueError as e:
                    print("check: %s line %d: not JSON: %s" % (path, lineno, e), file=sys.stderr)
                    unreadable = True
                    continue
                gid = doc.get("game") if isinstance(doc, dict) and "game" in doc else \
                    "%s:%d" % (os.path.basename(path), lineno)
                ck.run_game(doc, gid)
    out("checked %d games, %d problems" % (ck.games, ck.problems))
    if unreadable:
        return 2
    return 1 if ck.problems else 0


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------
def gammq(a, x):
    """Regularized upper incomplete gamma Q(a, x)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        ap = a
        s = d = 1.0 / a
        for _ in range(100000):
            ap += 1
            d *= x / ap
            s += d
            if abs(d) < abs(s) * 1e-15:
                break
        return max(0.0, 1.0 - s * math.exp(-x + a * math.log(x) - gln))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1 / d
        de = d * c
        h *= de
        if abs(de - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi2_sf(x, df):
    return gammq(df / 2.0, x / 2.0)


def chi2_two_sample(h1, h2):
    """Homogeneity test of two histograms (dict value->count); adjacent bins pooled so
    that every expected count is >= 5.  Returns (chi2, df, p, nbins)."""
    n1, n2 = sum(h1.values()), sum(h2.values())
    if n1 == 0 or n2 == 0:
        return 0.0, 0, 1.0, 0
    N = n1 + n2
    vals = sorted(set(h1) | set(h2))
    bins = []
    a = b = 0
    for v in vals:
        a += h1.get(v, 0)
        b += h2.get(v, 0)
        t = a + b
        if t * n1 / N >= 5 and t * n2 / N >= 5:
            bins.append((a, b))
            a = b = 0
    if a or b:
        if bins:
            pa, pb = bins.pop()
            bins.append((pa + a, pb + b))
        else:
            bins.append((a, b))
    # the first bins may still be fine; the tail pooling above guarantees every bin >= 5
    chi = 0.0
    for a, b in bins:
        t = a + b
        e1, e2 = t * n1 / N, t * n2 / N
        chi += (a - e1) ** 2 / e1 + (b - e2) ** 2 / e2
    df = len(bins) - 1
    p = chi2_sf(chi, df) if df > 0 else 1.0
    return chi, df, p, len(bins)


def _hist(doc, *path):
    d = doc
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    if not isinstance(d, list):
        return None
    return {int(v): int(c) for v, c in d}


def _get(doc, *path, default=None):
    d = doc
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return default
        d = d[p]
    return d


def cmd_compare(args):
    try:
        with open(args.ref) as f:
            A = json.load(f)
        with open(args.results) as f:
            B = json.load(f)
    except (OSError, ValueError) as e:
        print("compare: cannot read input: %s" % e, file=sys.stderr)
        return 2
    # different tile sets or large-meeple settings are different games: refuse
    for key, default in (("tileset", "base"), ("large_meeple", False)):
        va, vb = _get(A, "config", key, default=default), _get(B, "config", key, default=default)
        if va != vb:
            print("compare: refusing to compare different configs: config.%s is %s in %s but "
                  "%s in %s" % (key, fmt(va), args.ref, fmt(vb), args.results), file=sys.stderr)
            return 2
    ok = True
    bad = []
    na, nb = A.get("games"), B.get("games")
    shown = ("colors", "meeples", "placement_policy", "scoring_policy", "seed")
    if _get(A, "config", "tileset", default="base") != "base" or \
            _get(A, "config", "large_meeple", default=False):
        shown += ("tileset", "large_meeple")
    print("REF     %s: %s games, config %s" % (args.ref, na, fmt({k: v for k, v in
          (A.get("config") or {}).items() if k in shown})))
    print("RESULTS %s: %s games, config %s" % (args.results, nb, fmt({k: v for k, v in
          (B.get("config") or {}).items() if k in shown})))
    for key in ("colors", "meeples"):
        va, vb = _get(A, "config", key), _get(B, "config", key)
        if va != vb:
            print("config.%s differs: %s vs %s" % (key, va, vb))
            ok = False
            bad.append("config." + key)
    if not na or not nb:
        print("compare: MISMATCH (no games)")
        return 1
    zlim = 4.0
    print()
    print("%-28s %12s %12s %10s %8s  %s" % ("quantity", "ref", "results", "diff", "z", "verdict"))

    def mean_row(name, ma, sa, mb, sb):
        nonlocal ok
        if ma is None or mb is None:
            print("%-28s %12s %12s" % (name, ma, mb))
            return
        se = math.sqrt((sa or 0) ** 2 / na + (sb or 0) ** 2 / nb)
        d = mb - ma
        if se > 0:
            z = d / se
        else:
            z = 0.0 if d == 0 else float("inf")
        verdict = "ok" if abs(z) < zlim else "MISMATCH"
        if verdict != "ok":
            ok = False
            bad.append(name)
        print("%-28s %12.4f %12.4f %+10.4f %8.2f  %s" % (name, ma, mb, d, z, verdict))

    ha, hb = _hist(A, "result", "histogram"), _hist(B, "result", "histogram")
    sa = _get(A, "result", "std")
    sb = _get(B, "result", "std")
    if sa is None and ha:
        sa = hist_stats(ha)[1]
    if sb is None and hb:
        sb = hist_stats(hb)[1]
    mean_row("result mean", _get(A, "result", "mean"), sa, _get(B, "result", "mean"), sb)
    ta, tb = _hist(A, "tiles_placed", "histogram"), _hist(B, "tiles_placed", "histogram")
    tsa = _get(A, "tiles_placed", "std")
    if tsa is None and ta:
        tsa = hist_stats(ta)[1]
    tsb = _get(B, "tiles_placed", "std")
    if tsb is None and tb:
        tsb = hist_stats(tb)[1]
    if tsa is not None and tsb is not None:
        mean_row("tiles_placed mean", _get(A, "tiles_placed", "mean"), tsa,
                 _get(B, "tiles_placed", "mean"), tsb)
    else:
        print("%-28s %12s %12s  (no std: not judged)" % (
            "tiles_placed mean", _get(A, "tiles_placed", "mean"), _get(B, "tiles_placed", "mean")))
    print("%-28s %12s %12s" % ("discards mean", _fmtnum(_get(A, "discards", "mean")),
                               _fmtnum(_get(B, "discards", "mean"))))

    def rate_row(name, ca, cb):
        nonlocal ok
        if ca is None or cb is None:
            print("%-28s %12s %12s  missing" % (name, ca, cb))
            if cb is None:
                ok = False
                bad.append(name + " (missing)")
            return
        pa, pb = ca / na, cb / nb
        pool = (ca + cb) / (na + nb)
        se = math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
        d = pb - pa
        z = d / se if se > 0 else 0.0
        enough = (ca + cb) >= 10 and (na + nb - ca - cb) >= 10
        if not enough:
            verdict = "(few)"
        elif abs(z) < zlim:
            verdict = "ok"
        else:
            verdict = "MISMATCH"
            ok = False
            bad.append(name)
        print("%-28s %12.6f %12.6f %+10.6f %8.2f  %s" % (name, pa, pb, d, z, verdict))

    for r in END_REASONS:
        rate_row("end " + r, _get(A, "end_reasons", r, "count"), _get(B, "end_reasons", r, "count"))
    for gid in GOAL_IDS:
        rate_row("goal " + gid, _get(A, "goals", gid, "count"), _get(B, "goals", gid, "count"))
    gwa = _get(A, "discards", "games_with_discard")
    gwb = _get(B, "discards", "games_with_discard")
    if gwa is not None and gwb is not None:
        rate_row("games with discard", gwa, gwb)

    if ha and hb:
        chi, df, p, nbins = chi2_two_sample(ha, hb)
        verdict = "ok" if p > 0.001 else "MISMATCH"
        if verdict != "ok":
            ok = False
            bad.append("result histogram")
        print("result histogram chi2 = %.2f, df = %d (%d pooled bins), p = %.4g  %s"
              % (chi, df, nbins, p, verdict))
    else:
        print("result histogram missing")
        ok = False
        bad.append("result histogram")
    if ta and tb:
        chi, df, p, nbins = chi2_two_sample(ta, tb)
        verdict = "ok" if p > 0.001 else "MISMATCH"
        if verdict != "ok":
            ok = False
            bad.append("tiles_placed histogram")
        print("tiles_placed histogram chi2 = %.2f, df = %d (%d pooled bins), p = %.4g  %s"
              % (chi, df, nbins, p, verdict))
    if ok:
        print("compare: OK")
        return 0
    print("mismatches: " + ", ".join(bad))
    print("compare: MISMATCH")
    return 1


def _fmtnum(v):
    return "%.5f" % v if isinstance(v, (int, float)) else str(v)


# ---------------------------------------------------------------------------
# selftest
# ---------------------------------------------------------------------------
def _place_checked(g, t, x, y, r):
    tr = ROT[t][r]
    # edges must match where they touch; adjacency is not required in hand-built tests
    for d in range(4):
        nc = g.cells.get((x + DX[d], y + DY[d]))
        if nc is not None:
            assert nc[0].edges[(d + 2) % 4] == tr.edges[d], (t, x, y, r, d)
    assert (x, y) not in g.cells
    return g.place(t, x, y, r)


def _meeple_on(g, seg_name, color):
    tr = g.cells[g.last_cell][0]
    idx = [s.name for s in tr.segs].index(seg_name)
    g.put_meeple(idx, color)


def _crosscheck(n_games, tileset="base", large=False, salt="xcheck"):
    """Play random games; after every placement recompute legal placements, features,
    completion, points, majorities, free segments and figures by brute force and compare
    with the engine.  River legality is recomputed geometrically (cross products of the
    flow vectors), not with the engine's direction arithmetic."""
    errs = []
    has_river = tileset_options(tileset)[1]
    for gi in range(n_games):
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
        river_cells = [(0, 0)]
        last_sign = None
        meeples = {}          # (cell, seg index) -> colour
        bigs = set()          # nodes holding a large meeple
        color = 0
        for t in bag:
            # brute-force legality
            brute = set()
            cand = set()
            for (x, y) in g.cells:
                for d in range(4):
                    c = (x + DX[d], y + DY[d])
                    if c not in g.cells:
                        cand.add(c)
            for (x, y) in cand:
                for r in range(4):
                    e = ROT[t][r].edges
                    ok = True
                    for d in range(4):
                        nc = g.cells.get((x + DX[d], y + DY[d]))
                        if nc is not None and nc[0].edges[(d + 2) % 4] != e[d]:
                            ok = False
                    if ok and t in RIVER_SET:
                        lx, ly = river_cells[-1]
                        vin = (x - lx, y - ly)
                        if abs(vin[0]) + abs(vin[1]) != 1:
                            ok = False
                        else:
                            back = (-vin[0], -vin[1])
                            if e[[(DX[d], DY[d]) for d in range(4)].index(back)] != "A":
                                ok = False
                            outs = [(DX[d], DY[d]) for d in range(4)
                                    if e[d] == "A" and (DX[d], DY[d]) != back]
                            if ok and len(outs) == 1 and outs[0] != vin:
                                sign = vin[0] * outs[0][1] - vin[1] * outs[0][0]
                                if sign == last_sign:
                                    ok = False
                    if ok:
                        brute.add((x, y, r))
            eng = set(g.legal_placements(t))
            if eng != brute:
                errs.append(("legal", gi, t, sorted(eng ^ brute)[:4]))
                break
            if not eng:
                continue
            x, y, r = rng.choice(sorted(eng))
            g.place(t, x, y, r)
            cell = (x, y)
            if t in RIVER_SET:
                lx, ly = river_cells[-1]
                vin = (x - lx, y - ly)
                e = ROT[t][r].edges
                outs = [(DX[d], DY[d]) for d in range(4)
                        if e[d] == "A" and (DX[d], DY[d]) != (-vin[0], -vin[1])]
                if len(outs) == 1 and outs[0] != vin:
                    last_sign = vin[0] * outs[0][1] - vin[1] * outs[0][0]
                river_cells.append(cell)

            # flood fill components of (cell, seg) nodes
            def comp_of(start):
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

            tr = g.cells[cell][0]
            comps = {}
            for si, sg in enumerate(tr.segs):
                if sg.kind != "monastery":
                    comps[si] = comp_of((cell, si))
            free_b = []
            for si, sg in enumerate(tr.segs):
                if sg.kind == "monastery" or not any(nd in meeples for nd in comps[si][0]):
                    free_b.append(si)
            free_e = g.free_segments()
            if free_b != free_e:
                errs.append(("free", gi, t, free_b, free_e))
                break
            if free_e and g.has_figure(color):
                si = rng.choice(free_e)
                big = g.supply[color] == 0 or (g.large_supply[color] > 0 and rng.random() < 0.5)
                g.put_meeple(si, color, big)
                meeples[(cell, si)] = color
                if big:
                    bigs.add((cell, si))
            # brute-force completed features
            want = []
            seen_nodes = set()
            for si, (nodes, complete) in comps.items():
                if complete and not (nodes & seen_nodes):
                    seen_nodes |= nodes
                    kind = tr.segs[si].kind
                    tiles = {c0 for c0, _ in nodes}
                    pen = len({c0 for c0, si2 in nodes if g.cells[c0][0].segs[si2].pennant})
                    bonus = any(g.cells[c0][0].segs[si2].inn or g.cells[c0][0].segs[si2].cathedral
                                for c0, si2 in nodes)
                    if kind == "road":
                        pts = len(tiles) * (2 if bonus else 1)
                    else:
                        pts = (len(tiles) + pen) * (3 if bonus else 2)
                    mee = sorted(meeples[nd] for nd in nodes if nd in meeples)
                    want.append(((kind, len(tiles), pen, pts, mee), nodes))
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
            done = g.completed_features()
            got = sorted((g.feature_info(f)[0], g.feature_info(f)[1], g.feature_info(f)[2],
                          g.feature_info(f)[3], tuple(g.feature_info(f)[4])) for f in done)
            exp = sorted((a, b, c, d, tuple(e)) for (a, b, c, d, e), _ in want)
            if got != exp:
                errs.append(("completed", gi, t, exp, got))
                break
            # majorities by weight (meeple 1, large meeple 2), feature by feature
            exp_maj = []
            for _, nodes in want:
                w = Counter()
                for nd in nodes:
                    if nd in meeples:
                        w[meeples[nd]] += 2 if nd in bigs else 1
                exp_maj.append(tuple(sorted(c for c in w if w[c] == max(w.values()))))
            got_maj = [tuple(g.score_feature(f)["majority"]) for f in done]
            if sorted(exp_maj) != sorted(got_maj):
                errs.append(("majority", gi, t, sorted(exp_maj), sorted(got_maj)))
                break
            for _, nodes in want:
                for nd in nodes:
                    meeples.pop(nd, None)
                    bigs.discard(nd)
            figs = sorted((c, nd in bigs) for nd, c in meeples.items())
            if figs != sorted(g.figures_on_board()):
                errs.append(("figures", gi, figs, sorted(g.figures_on_board())))
                break
            color = (color + 1) % k
    return errs


def _road_line(g, mids, y=-5, figures=()):
    """A straight W-E road away from the start tile: A (road E end) at x=0, the tiles
    `mids` (each given as (type, rot)) at x=1.., A (road W end) last.  `figures` maps a
    middle index to (colour, large).  Returns the completed feature."""
    _place_checked(g, "A", 0, y, 3)
    for i, (t, r) in enumerate(mids):
        _place_checked(g, t, 1 + i, y, r)
        if i in dict(figures):
            c, big = dict(figures)[i]
            tr = g.cells[g.last_cell][0]
            name = [sg.name for sg in tr.segs if sg.kind == "road" and 1 in sg.dirs][0]
            idx = [sg.name for sg in tr.segs].index(name)
            g.put_meeple(idx, c, big)
    _place_checked(g, "A", 1 + len(mids), y, 1)
    done = g.completed_features()
    assert len(done) == 1, done
    return done[0]


def _river_path(doc):
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


def _selftest_expansions(expect):
    """Scenarios for expansions.md: tile data, set-up sizes, inn and cathedral scoring,
    the large meeple, the river, and log round trips with every option."""
    # tile data and set-up table
    expect("I&C tiles 18", len([t for t in land_bag("base+inns") if t in INN_TABLE]) == 18)
    inn_tiles = [t for t in INN_TYPES if any(sg.inn for sg in ROT[t][0].segs)]
    expect("inn tiles I2..I7", inn_tiles == ["I2", "I3", "I4", "I5", "I6", "I7"], inn_tiles)
    expect("I4 inn on E only", [sg.name for sg in ROT["I4"][0].segs if sg.inn] == ["road:E"])
    expect("I2 rot0 name", ROT["I2"][0].segs[0].name == "road:S,W" and ROT["I2"][0].segs[0].inn)
    expect("cathedral I1 x2", TILE_TABLE["I1"][0] == 2 and ROT["I1"][0].segs[0].cathedral)
    pen = sorted(t for t in INN_TYPES if any(sg.pennant for sg in ROT[t][0].segs))
    expect("I&C pennants", pen == ["I13", "I15", "I7"], pen)
    expect("river bag", sorted(river_bag()) == ["R1", "R2", "R3", "R4", "R5", "R5", "R6",
                                               "R7", "R8", "R8"], river_bag())
    expect("no pennant on the river (R6 has none)",
           not any(sg.pennant for t in RIVER_TYPES for sg in ROT[t][0].segs))
    expect("R2 rot1", ROT["R2"][1].edges == "ACAR" and
           [sg.name for sg in ROT["R2"][1].segs] == ["city:E", "road:W"])
    sizes = {("base", 3): [24, 24, 23], ("base", 4): [18, 18, 18, 17],
             ("base+inns", 3): [30, 30, 29], ("base+inns", 4): [23, 22, 22, 22],
             ("base+river", 3): [24, 24, 24], ("base+river", 4): [18, 18, 18, 18],
             ("base+inns+river", 3): [30, 30, 30], ("base+inns+river", 4): [23, 23, 22, 22]}
    for (ts, k), want in sizes.items():
        got = [len(x) for x in deal(random.Random(1), k, ts)]
        expect("stack sizes %s k=%d" % (ts, k), got == want, got)
    expect("river land has 4 D", Counter(land_bag("base+river"))["D"] == 4)
    expect("A matches only A", VALID_ROTS["R5"][LETTER_CODE["A"] << 3 * 3] == (0, 2)
           and VALID_ROTS["U"][LETTER_CODE["A"] << 3 * 3] == ())

    # inn road: 2 per tile (A, I3, U, A: 4 tiles -> 8)
    g = Game(3, 4, [1, 2, 3])
    g.place("D", 0, 0, 0)
    f = _road_line(g, [("I3", 0), ("U", 1)], figures={0: (0, False)})
    info = g.feature_info(f)
    expect("inn road 2/tile", info == ("road", 4, 0, 8, [0]), info)
    e = g.score_feature(f)
    expect("inn road awarded", e["awarded"] == [0] and g.scores == [9, 2, 3], (e, g.scores))
    # the same road without the inn: 1 per tile
    g = Game(3, 4)
    g.place("D", 0, 0, 0)
    info = g.feature_info(_road_line(g, [("U", 1), ("U", 1)]))
    expect("plain road 1/tile", info[3] == 4, info)
    # two inns (I3 and I2 kinds) on one road: still 2 per tile, not 3 or 4
    g = Game(3, 4)
    g.place("D", 0, 0, 0)
    f = _road_line(g, [("I3", 0), ("U", 1), ("I3", 2)])
    info = g.feature_info(f)
    expect("two inns do not stack", info[:4] == ("road", 5, 0, 10), info)
    e = g.score_feature(f)
    expect("inn road 10 goal needs award", "road_10" not in g.goals and e["awarded"] == [])
    # a 5-tile inn road with 3 colours: worth 10, so road_10_3c but not road_5_3c
    g = Game(3, 4, [1, 1, 1])
    g.place("D", 0, 0, 0)
    f = _road_line(g, [("I3", 0), ("U", 1), ("U", 1)],
                   figures={0: (0, False), 1: (1, False), 2: (2, False)})
    e = g.score_feature(f)
    expect("inn road goals", e["points"] == 10 and {"road_10", "road_10_3c"} <= g.goals
           and "road_5_3c" not in g.goals, (e, g.goals))

    # cathedral city: D, I1, E, E, M (pennant), E: 6 tiles + 1 pennant -> 3*6 + 3 = 21
    def cathedral_city(extra_cathedral=False):
        g = Game(3, 4, [1, 2, 3])
        g.place("D", 0, 0, 0)
        _place_checked(g, "I1", 0, -1, 0)
        _meeple_on(g, "city:N,E,S,W", 2)
        _place_checked(g, "E", -1, -1, 1)
        _place_checked(g, "E", 0, -2, 2)
        _place_checked(g, "M", 1, -1, 0)
        expect("cathedral city not early", not g.completed_features())
        _place_checked(g, "E", 1, -2, 2)
        done = g.completed_features()
        expect("cathedral city complete", len(done) == 1, done)
        return g, done[0]

    g, f = cathedral_city()
    info = g.feature_info(f)
    expect("cathedral city 3+3", info == ("city", 6, 1, 21, [2]), info)
    e = g.score_feature(f)
    expect("cathedral city scored", e["awarded"] == [] and e["points"] == 21, e)
    # two cathedrals in one city score as one: I1 next to I1 (an open city, rates only)
    g = Game(2, 4)
    g.place("D", 0, 0, 0)
    _place_checked(g, "I1", 0, -1, 0)
    _place_checked(g, "I1", 0, -2, 0)
    root = g.find(g.last_nodes[0])
    expect("two cathedrals do not stack", g.feature_info(("city", root))[:4] ==
           ("city", 3, 0, 9), g.feature_info(("city", root)))

    # large meeple majority: one large (weight 2) beats one meeple; ties with two
    for mids_figs, want_maj, want_scores in (
            ({0: (0, True), 1: (1, False)}, [0], [5, 2, 3]),
            ({0: (0, True), 1: (1, False), 2: (1, False)}, [0, 1], [6, 7, 3]),
            ({0: (1, True), 1: (0, False)}, [1], [1, 2, 3]),
            ({0: (1, True), 1: (0, False), 2: (0, False), 3: (0, False)}, [0], [7, 2, 3])):
        g = Game(3, 4, [1, 2, 3], large=True)
        g.place("D", 0, 0, 0)
        n = max(mids_figs) + 1
        f = _road_line(g, [("U", 1)] * n, figures=mids_figs)
        e = g.score_feature(f)
        cols = sorted(c for c, _ in mids_figs.values())
        expect("large majority %s" % mids_figs,
               e["majority"] == want_maj and e["meeples"] == cols and
               e["large_meeples"] == [c for c, big in mids_figs.values() if big] and
               g.scores == want_scores, (e, g.scores))
        # every figure goes home, the large meeple to its own supply
        expect("large meeple returns %s" % mids_figs,
               g.supply == [4, 4, 4] and g.large_supply == [1, 1, 1] and
               g.figures_on_board() == [], (g.supply, g.large_supply))
    # a large meeple on a monastery returns too, and in final scoring it is one figure
    g = Game(2, 3, [5, 5], large=True)
    g.place("D", 0, 0, 0)
    _place_checked(g, "B", 0, 2, 0)
    g.put_meeple(0, 1, True)
    expect("large on board", g.figures_on_board() == [(1, True)] and g.large_supply == [1, 0])
    ent = g.final_score_one(1)
    expect("large final 2 points", ent["points"] == 2 and g.scores == [5, 7], g.scores)
    g = Game(3, 4, [3, 3, 3], large=True)
    g.place("D", 0, 0, 0)
    for (x, y) in [(xx, yy) for yy in (1, 2, 3) for xx in (-1, 0, 1)]:
        _place_checked(g, "B", x, y, 0)
        if (x, y) == (0, 2):
            g.put_meeple(0, 2, True)
    done = g.completed_features()
    e = g.score_feature(done[0]) if done else {}
    expect("large on monastery", e.get("majority") == [2] and e.get("large_meeples") == [2]
           and g.large_supply == [1, 1, 1] and g.scores == [3, 3, 12], (e, g.large_supply))

    # a lone large meeple must be placed; no_meeple only with neither figure
    stk = [["B", "B", "B"], ["U", "U", "U"]]
    _, doc0 = play_game(random.Random(2), 2, 1, True, stacks=[list(x) for x in stk])
    expect("no large: no_meeple at turn 3", doc0["end"]["reason"] == "no_meeple" and
           doc0["end"]["turns"] == 3, doc0["end"])
    figs_seen = set()
    for sd in range(6):
        _, doc1 = play_game(random.Random(sd), 2, 1, True, stacks=[list(x) for x in stk],
                            large=True)
        mine = [t for t in doc1["turns"] if t["color"] == 0]
        expect("lone large forced %d" % sd, doc1["end"] == {
            "reason": "no_meeple", "turns": 5, "tiles_placed": 5, "discarded": 0} and
            [t["meeple"] for t in mine] == ["monastery", "monastery", None] and
            sorted(t["large"] for t in mine[:2]) == [False, True] and
            mine[1]["supply"][0] == 0 and mine[1]["large_supply"][0] == 0, doc1["turns"])
        lines = []
        ck = Checker(lines.append)
        ck.run_game(json.loads(json.dumps(doc1)), sd)
        lines = [x for x in lines if "stack" not in x]     # hand-made stacks aside
        expect("lone large log checks %d" % sd, ck.problems == 2 and not lines, lines[:3])
        # the forced placement left out, or the other figure claimed (a meeple when only
        # the large one is left, or the large one when it is already on the board)
        figs_seen.add(mine[1]["large"])
        for what, key, val in (("skipping the lone figure", "meeple", None),
                               ("the wrong figure", "large", not mine[1]["large"])):
            bad = json.loads(json.dumps(doc1))
            bad["turns"][2][key] = val
            lines = []
            Checker(lines.append).run_game(bad, what)
            lines = [x for x in lines if "stack" not in x]
            expect("%s refused %d" % (what, sd), any("turn 2:" in x for x in lines), lines)
    expect("lone figure both kinds", figs_seen == {False, True}, figs_seen)

    # the river: no U-turn, with or without straights between the curves
    g = Game(3, 4)
    g.place(SPRING, 0, 0, 0)
    expect("spring open end east", g.river_open == ((0, 0), 1), g.river_open)
    expect("first curve either way", sorted(g.river_placements("R8")) ==
           [(1, 0, 0), (1, 0, 1)], g.river_placements("R8"))
    g.place("R8", 1, 0, 1)                    # water W,N: flowing east, turns left (north)
    expect("left curve", g.last_curve == "L" and g.river_open == ((1, 0), 0))
    expect("U-turn refused", g.river_placements("R6") == [(1, -1, 3)],
           g.river_placements("R6"))
    expect("U-turn reason", "U-turn" in g.river_refusal("R6", 1, -1, 0),
           g.river_refusal("R6", 1, -1, 0))
    expect("straight two ways", sorted(g.river_placements("R5")) == [(1, -1, 1), (1, -1, 3)])
    expect("lake one way", g.river_placements("R9") == [(1, -1, 3)], g.river_placements("R9"))
    g.place("R5", 1, -1, 1)
    g.place("R4", 1, -2, 1)                   # two straights between the curves
    expect("straights keep the turn", g.last_curve == "L" and g.river_open == ((1, -2), 0))
    expect("same-way curve after straights refused",
           g.river_placements("R7") == [(1, -3, 3)], g.river_placements("R7"))
    expect("not at the open end", "open end" in g.river_refusal("R5", 2, -2, 1))
    g.place("R7", 1, -3, 3)                   # turns right (east)
    expect("right curve", g.last_curve == "R" and g.river_open == ((1, -3), 1))
    expect("then left again", [p[2] for p in g.river_placements("R8")] == [1])
    expect("land tile never at water", all(
        (x, y) != (2, -3) for x, y, _ in g.legal_placements("U")))

    # river logs: R9 last, colour order, alternation, nothing scored on the river
    first_ways = set()
    for k, lake_col, first_land in ((3, 1, 2), (4, 2, 3)):
        for i in range(25):
            _, d = play_game(game_rng(11, i), k, 4, True, 11, i, tileset="base+river")
            rs = d["river_stack"]
            rv = [t for t in d["turns"] if t["tile"] in RIVER_SET]
            cells, signs = _river_path(d)
            if signs:
                first_ways.add(signs[0])
            ok = (len(rs) == 11 and rs[-1] == LAKE and d["start"]["tile"] == SPRING and
                  all(signs[j] != signs[j + 1] for j in range(len(signs) - 1)) and
                  all(not t["discarded"] and not t["scored"] for t in rv) and
                  [t["color"] for t in rv] == [j % k for j in range(len(rv))])
            if d["end"]["turns"] > 11:
                ok = ok and len(rv) == 11 and rv[-1]["tile"] == LAKE and \
                    rv[-1]["color"] == lake_col and d["turns"][11]["color"] == first_land
            expect("river game k=%d %d" % (k, i), ok, (rs, signs, [t["color"] for t in rv]))
    expect("first curve turns both ways", first_ways == {1, -1}, first_ways)
    # tiles_exhausted needs the river stack empty too (no land tiles at all here)
    (res, reason, placed, disc, goals, sc), d = play_game(
        random.Random(3), 2, 12, True, stacks=[[], []], tileset="base+river")
    expect("river before tiles_exhausted", reason == "tiles_exhausted" and placed == 11 and
           d["end"]["turns"] == 11 and "all_tiles" in goals, d["end"])
    lines = []
    Checker(lines.append).run_game(d, "river-only")
    lines = [x for x in lines if "stack" not in x]      # hand-made (empty) land stacks aside
    expect("river before tiles_exhausted checks", not lines, lines[:3])
    bad = json.loads(json.dumps(d))
    bad["turns"], bad["end"]["turns"], bad["end"]["tiles_placed"] = bad["turns"][:1], 1, 1
    lines = []
    Checker(lines.append).run_game(bad, "river-cut")
    expect("river left over: not ended", any("before the game is over" in x for x in lines),
           lines)
    # no_meeple can end the game while the river is laid (3 colours, 1 meeple)
    reasons = Counter()
    for i in range(30):
        (res, reason, placed, disc, goals, sc), d = play_game(
            game_rng(12, i), 3, 1, True, 12, i, tileset="base+river")
        reasons[placed <= 11] += 1
    expect("no_meeple during the river", reasons[True] > 0, reasons)

    # round trips: our own expansion logs check clean; corruptions are caught
    for ts, big, k, m in (("base+inns", True, 3, 4), ("base+inns", True, 4, 6),
                          ("base+river", False, 3, 4), ("base+river", False, 4, 4),
                          ("base+river", True, 3, 2), ("base+inns+river", True, 4, 12),
                          ("base+inns", False, 2, 12), ("base", True, 3, 3)):
        docs = [play_game(game_rng(8, i), k, m, True, 8, i, tileset=ts, large=big)[1]
                for i in range(30)]
        lines = []
        ck = Checker(lines.append)
        for i, d in enumerate(docs):
            ck.run_game(json.loads(json.dumps(d)), i)
        tag = "%s%s k=%d m=%d" % (ts, " large" if big else "", k, m)
        expect("roundtrip %s clean" % tag, ck.problems == 0, lines[:5])
        if ts == "base+inns" and k == 4:
            expect("roundtrip %s uses large meeples" % tag, any(
                t.get("large") for d in docs for t in d["turns"]))

        def mut_large(d):
            for t in d["turns"]:
                if t.get("meeple") and not t["large"] and t["large_supply"][t["color"]] > 0:
                    t["large"] = True
                    return True
            return False

        def mut_large_supply(d):
            del d["turns"][-1]["large_supply"]
            return True

        def mut_large_meeples(d):
            for t in d["turns"]:
                for se in t.get("scored") or ():
                    if se["meeples"]:
                        se["large_meeples"] = [] if se["large_meeples"] else se["meeples"][:1]
                        return True
            return False

        def mut_final_large(d):
            if d["final_scoring"]:
                d["final_scoring"][0]["large"] = not d["final_scoring"][0]["large"]
                return True
            return False

        def mut_river_rot(d):
            for t in d["turns"]:
                if t["tile"] in ("R6", "R7", "R8") and not t["discarded"]:
                    t["rot"] = (t["rot"] + 1) % 4 if t["rot"] in (0, 2) else (t["rot"] + 3) % 4
                    return True
            return False

        def mut_river_order(d):
            rs = d["river_stack"]
            rs[-1], rs[-2] = rs[-2], rs[-1]
            return True

        def mut_tileset(d):
            d["config"]["tileset"] = "base+river" if ts == "base" else "base"
            return True

        muts = [("tileset", mut_tileset)]
        if big:
            muts += [("large", mut_large), ("large_supply", mut_large_supply),
                     ("large_meeples", mut_large_meeples), ("final large", mut_final_large)]
        if "river" in ts:
            muts += [("river rot", mut_river_rot), ("river order", mut_river_order)]
            lines = []
            bad = json.loads(json.dumps(docs[0]))
            mut_river_order(bad)
            Checker(lines.append).run_game(bad, 0)
            expect("R9 not last reported (%s)" % tag, any("the lake" in x for x in lines), lines)
        for name, mut in muts:
            n = p = 0
            for i, d in enumerate(docs):
                d2 = json.loads(json.dumps(d))
                if mut(d2):
                    n += 1
                    ck = Checker(lambda s: None)
                    ck.run_game(d2, i)
                    p += ck.problems >= 1
            expect("corruption %s detected (%s)" % (name, tag), n == p, (n, p))

    # two alike features completed together, only one holding a large meeple: the checker
    # must pair the log's entries with them by large_meeples too (game 1148 of seed 2)
    _, d = play_game(game_rng(2, 1148), 6, 12, True, 2, 1148, tileset="base+river",
                     large=True)
    alike = [j for j, t in enumerate(d["turns"]) if not t["discarded"] and
             len(t["scored"]) == 2 and t["scored"][0]["meeples"] == t["scored"][1]["meeples"]
             and t["scored"][0]["points"] == t["scored"][1]["points"] and
             t["scored"][0]["large_meeples"] != t["scored"][1]["large_meeples"]]
    expect("alike features scenario", alike, "game changed")
    lines = []
    Checker(lines.append).run_game(json.loads(json.dumps(d)), 1148)
    expect("alike features told apart", not lines, lines[:3])
    if alike:
        bad = json.loads(json.dumps(d))
        sc = bad["turns"][alike[0]]["scored"]
        sc[0]["large_meeples"] = sc[1]["large_meeples"] = []
        lines = []
        Checker(lines.append).run_game(bad, 1148)
        expect("alike features: a lost large meeple caught", lines, "not caught")

    # compare refuses different tile sets or large-meeple settings
    import contextlib
    import io
    import tempfile
    with tempfile.TemporaryDirectory() as td:
        base_sum = {"games": 10, "config": {"colors": 3, "meeples": 4, "tileset": "base"}}
        for other, want in (({"tileset": "base+inns"}, 2), ({"large_meeple": True}, 2),
                            ({"tileset": "base", "large_meeple": False}, 1)):
            pa, pb = os.path.join(td, "a.json"), os.path.join(td, "b.json")
            with open(pa, "w") as f:
                json.dump(base_sum, f)
            bsum = json.loads(json.dumps(base_sum))
            bsum["config"].update(other)
            with open(pb, "w") as f:
                json.dump(bsum, f)
            err, outp = io.StringIO(), io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(outp):
                rc = cmd_compare(argparse.Namespace(ref=pa, results=pb))
            nlines = len((err.getvalue() + outp.getvalue()).splitlines())
            expect("compare %s rc" % other, rc == want and (want != 2 or nlines == 1),
                   (rc, err.getvalue(), outp.getvalue()[:200]))

    # flood-fill cross-checks with the expansions
    for ts, big in (("base+inns", True), ("base+river", False), ("base+inns+river", True)):
        cc = _crosscheck(12, ts, big, "xcheck-" + ts)
        expect("flood-fill cross-check %s" % ts, not cc, cc[:5])


def selftest():
    import itertools
    import tempfile
    fails = []

    def expect(name, cond, detail=""):
        if not cond:
            fails.append(name + (": " + str(detail) if detail else ""))

    # rotation / naming
    expect("V rot1 edges", ROT["V"][1].edges == "RFFR", ROT["V"][1].edges)
    expect("V rot1 seg", ROT["V"][1].segs[0].name == "road:N,W", ROT["V"][1].segs[0].name)
    expect("D rot0", ROT["D"][0].edges == "CRFR")
    expect("I rot1", [s.name for s in ROT["I"][1].segs] == ["city:S", "city:W"],
           [s.name for s in ROT["I"][1].segs])
    expect("stack sizes 3", stack_sizes(3) == [24, 24, 23])
    expect("stack sizes 4", stack_sizes(4) == [18, 18, 18, 17])
    expect("stack sizes 6", stack_sizes(6) == [12, 12, 12, 12, 12, 11])
    expect("bag", len(base_bag()) == 71 and Counter(base_bag())["D"] == 3)

    # Example 3 of the seed text: colours Yellow=0, Red=1, Green=2
    Y, R, G = 0, 1, 2

    def example3():
        g = Game(3, 4, [1, 3, 4])
        g.place("D", 0, 0, 0)                      # road W-E, city N
        _place_checked(g, "U", -1, 0, 1)           # road W-E
        _meeple_on(g, "road:E,W", R)
        _place_checked(g, "A", -2, 0, 3)           # road ends at a monastery (road E)
        _place_checked(g, "E", 1, -1, 2)           # city S
        _meeple_on(g, "city:S", G)
        _place_checked(g, "U", 2, 0, 1)
        _meeple_on(g, "road:E,W", Y)
        _place_checked(g, "A", 3, 0, 1)            # road W end
        _place_checked(g, "L", 1, 0, 0)            # completes all three
        return g

    g = example3()
    done = g.completed_features()
    infos = {g.feature_info(f)[4][0]: (f, g.feature_info(f)) for f in done if g.feature_info(f)[4]}
    expect("ex3 three features", len(done) == 3, [g.feature_info(f) for f in done])
    expect("ex3 yellow road 3", infos.get(Y, (0, (0, 0, 0, 0)))[1][:4] == ("road", 3, 0, 3))
    expect("ex3 red road 4", infos.get(R, (0, (0, 0, 0, 0)))[1][:4] == ("road", 4, 0, 4))
    expect("ex3 green city 4", infos.get(G, (0, (0, 0, 0, 0)))[1][:4] == ("city", 2, 0, 4))
    all_three = []
    for order in itertools.permutations([Y, R, G]):
        g = example3()
        done = g.completed_features()
        bycol = {g.feature_info(f)[4][0]: f for f in done}
        ents = [g.score_feature(bycol[c]) for c in order]
        if all(e["awarded"] for e in ents):
            all_three.append(order)
        if order == (Y, R, G):
            expect("ex3 final scores", g.scores == [4, 7, 8], g.scores)
            expect("ex3 supplies back", g.supply == [4, 4, 4], g.supply)
            expect("ex3 low_before", [e["low_before"] for e in ents] == [1, 3, 4],
                   [e["low_before"] for e in ents])
    expect("ex3 only Y,R,G awards everyone", all_three == [(Y, R, G)], all_three)

    # free segments: L with its S road open; after placement the W road is Red's
    g = Game(3, 4)
    g.place("D", 0, 0, 0)
    _place_checked(g, "U", -1, 0, 1)
    _meeple_on(g, "road:E,W", R)
    _place_checked(g, "L", 1, 0, 0)
    names = [g.cells[(1, 0)][0].segs[i].name for i in g.free_segments()]
    expect("free L", sorted(names) == ["city:N", "road:E", "road:S"], names)

    # majority 2-1 with the majority not lowest (the game-log.md example)
    g = Game(3, 4, [4, 2, 3])
    g.place("D", 0, 0, 0)
    _place_checked(g, "A", -1, 0, 3)      # road E end
    _place_checked(g, "U", 1, 0, 1)
    _meeple_on(g, "road:E,W", 0)
    _place_checked(g, "U", 2, 0, 1)
    _meeple_on(g, "road:E,W", 0)
    _place_checked(g, "U", 3, 0, 1)
    _meeple_on(g, "road:E,W", 1)
    _place_checked(g, "A", 4, 0, 1)       # road W end, completes 6-tile road
    done = g.completed_features()
    expect("2-1 one feature", len(done) == 1)
    e = g.score_feature(done[0])
    expect("2-1 entry", (e["kind"], e["tiles"], e["points"], e["meeples"], e["majority"],
                         e["low_before"], e["awarded"], e["scores_after"])
           == ("road", 6, 6, [0, 0, 1], [0], 2, [], [4, 2, 3]), e)
    expect("2-1 supply", g.supply == [4, 4, 4], g.supply)

    # tie for majority, one tied colour is low -> both score
    g = Game(3, 4, [5, 2, 3])
    g.place("D", 0, 0, 0)
    _place_checked(g, "A", -1, 0, 3)
    _place_checked(g, "U", 1, 0, 1)
    _meeple_on(g, "road:E,W", 0)
    _place_checked(g, "U", 2, 0, 1)
    _meeple_on(g, "road:E,W", 1)
    _place_checked(g, "A", 3, 0, 1)
    e = g.score_feature(g.completed_features()[0])
    expect("tie entry", (e["points"], e["majority"], e["awarded"], e["scores_after"])
           == (5, [0, 1], [0, 1], [10, 7, 3]), e)

    # city ring through an I tile (I is twice in the city, counted once)
    g = Game(3, 4)
    g.place("D", 0, 0, 0)
    _place_checked(g, "I", 0, 1, 0)       # city E, city S
    _meeple_on(g, "city:E", 2)
    _place_checked(g, "N", 1, 1, 3)       # city S,W
    _place_checked(g, "N", 0, 2, 1)       # city N,E
    expect("ring not yet complete", not g.completed_features())
    _place_checked(g, "N", 1, 2, 0)       # city N,W
    done = g.completed_features()
    expect("ring complete", len(done) == 1, done)
    if done:
        info = g.feature_info(done[0])
        expect("ring info", info == ("city", 4, 0, 8, [2]), info)
    # free check: on the I tile both city segments were separate when placed
    g2 = Game(3, 4)
    g2.place("D", 0, 0, 0)
    _place_checked(g2, "I", 0, 1, 0)
    expect("I free", sorted(g2.cells[(0, 1)][0].segs[i].name for i in g2.free_segments())
           == ["city:E", "city:S"])

    # city ring through an H tile (H's two city segments end up in one city)
    ring = [("N", 2, 5, 0), ("N", 2, 4, 3), ("G", 1, 4, 0), ("N", 0, 4, 2), ("N", 0, 5, 1)]
    for h_last in (False, True):
        g = Game(3, 4)
        g.place("D", 0, 0, 0)
        order = ring + [("H", 1, 5, 0)] if h_last else [("H", 1, 5, 0)] + ring
        for i, (t, x, y, r) in enumerate(order):
            _place_checked(g, t, x, y, r)
            if i < len(order) - 1:
                expect("H ring early", not g.completed_features())
        names = sorted(g.cells[g.last_cell][0].segs[i].name for i in g.free_segments())
        expect("H ring free", names == (["city:E", "city:W"] if h_last else ["city:N,E"]), names)
        _meeple_on(g, names[0], 1)
        done = g.completed_features()
        expect("H ring one feature", len(done) == 1, done)
        if done:
            info = g.feature_info(done[0])
            expect("H ring info", info == ("city", 6, 0, 12, [1]), info)
        expect("H ring supply", g.supply == [4, 3, 4])

    # pennant city: M
    g = Game(2, 4)
    g.place("D", 0, 0, 0)
    _place_checked(g, "M", 0, -1, 2)           # city S,E (rot2 of N,W)
    _meeple_on(g, "city:E,S", 0)
    _place_checked(g, "E", 1, -1, 3)           # E rot3: city W
    done = g.completed_features()
    info = g.feature_info(done[0]) if done else None
    expect("pennant city", info == ("city", 3, 1, 8, [0]), info)

    # monastery completed by a neighbouring placement; its tiles are 9
    g = Game(3, 4, [3, 3, 3])
    g.place("D", 0, 0, 0)
    cells = [(x, y) for y in (1, 2, 3) for x in (-1, 0, 1)]
    for i, (x, y) in enumerate(cells[:-1]):
        _place_checked(g, "B", x, y, 0)
        if (x, y) == (0, 2):
            _meeple_on(g, "monastery", 1)
        expect("monastery not early %d" % i, not g.completed_features())
    _place_checked(g, "B", 1, 3, 0)
    done = g.completed_features()
    expect("monastery one", len(done) == 1 and done[0] == ("monastery", (0, 2)), done)
    if done:
        e = g.score_feature(done[0])
        expect("monastery entry", (e["kind"], e["tiles"], e["points"], e["awarded"],
                                   e["scores_after"]) == ("monastery", 9, 9, [1], [3, 12, 3]), e)
        expect("monastery goal counter", g.monk_awarded == 1)

    # completed feature with no meeple
    g = Game(3, 4)
    g.place("D", 0, 0, 0)
    _place_checked(g, "E", 0, -1, 2)
    e = g.score_feature(g.completed_features()[0])
    expect("empty feature", (e["points"], e["meeples"], e["majority"], e["awarded"],
                             e["scores_after"]) == (4, [], [], [], [1, 2, 3]), e)

    # final scoring order matters
    g = Game(3, 4, [10, 10, 11])
    g.supply = [3, 4, 2]              # meeples: colour 0 x1, colour 2 x2
    ents = [g.final_score_one(c) for c in (2, 0, 2)]
    expect("final", [x["awarded"] for x in ents] == [False, True, False] and
           g.scores == [12, 10, 11], (ents, g.scores))

    # goals: a 5-tile road (away from the start tile) with meeples of 3 colours
    for ncol, want in ((3, True), (2, False)):
        g = Game(3, 4, [1, 1, 1])
        g.place("D", 0, 0, 0)
        _place_checked(g, "A", 0, -5, 3)
        for x in (1, 2, 3):
            _place_checked(g, "U", x, -5, 1)
            _meeple_on(g, "road:E,W", (x - 1) % ncol)
        _place_checked(g, "A", 4, -5, 1)
        e = g.score_feature(g.completed_features()[0])
        expect("road_5_3c %d colours" % ncol, e["points"] == 5 and
               ("road_5_3c" in g.goals) == want and len(e["awarded"]) == (3 if want else 1),
               (e, g.goals))
    fg = Game(3, 4, [45, 52, 61])
    expect("totals", fg.final_goals("no_meeple") == {"total_40"}, fg.final_goals("no_meeple"))
    fg.monk_awarded = 4
    expect("monastery goals", fg.final_goals("tiles_exhausted") ==
           {"total_40", "monastery_3", "monastery_4", "all_tiles"})

    # chi-square survival sanity
    expect("chi2 sf df2", abs(chi2_sf(2.0, 2) - math.exp(-1)) < 1e-12, chi2_sf(2.0, 2))
    expect("chi2 sf df1", abs(chi2_sf(3.841458820694124, 1) - 0.05) < 1e-9,
           chi2_sf(3.841458820694124, 1))
    expect("chi2 sf df10", abs(chi2_sf(18.307038053275146, 10) - 0.05) < 1e-9,
           chi2_sf(18.307038053275146, 10))
    # even df: Q(n, x) = exp(-x) * sum_{i<n} x^i / i!
    for xx, df in ((100.0, 80), (30.0, 40), (7.5, 4), (300.0, 200)):
        exact = math.exp(-xx / 2) * sum((xx / 2) ** i / math.factorial(i) for i in range(df // 2))
        expect("chi2 sf x=%g df=%d" % (xx, df), abs(chi2_sf(xx, df) - exact) < 1e-10 * max(1, exact),
               (chi2_sf(xx, df), exact))

    # end reasons: forced meeple impossible on the very last tile -> tiles_exhausted (B);
    # the same with tiles left -> no_meeple (A); a final discard also ends by B
    for stk, want, turns in (([["B", "B"], ["U"]], "tiles_exhausted", 3),
                             ([["B", "B"], ["U", "U"]], "no_meeple", 3),
                             ([["B", "B", "B"], ["U"]], "no_meeple", 3),
                             ([["B"], ["U", "C"]], "tiles_exhausted", 3)):
        (res, reason, placed, disc, goals, sc), doc = play_game(
            random.Random(1), 2, 1, True, stacks=[list(x) for x in stk])
        expect("end reason %s" % stk, reason == want and doc["end"]["turns"] == turns,
               (reason, doc["end"]))
        if want == "tiles_exhausted":
            expect("all_tiles goal %s" % stk, "all_tiles" in goals, goals)
    # a final discard: E closes D's city, then C has no legal placement anywhere
    found = False
    for sd in range(200):
        (res, reason, placed, disc, goals, sc), doc = play_game(
            random.Random(sd), 2, 1, True, stacks=[["E"], ["C"]])
        if doc["turns"][0]["scored"]:
            found = True
            t1 = doc["turns"][1]
            expect("final discard", reason == "tiles_exhausted" and t1["discarded"] and
                   doc["end"] == {"reason": "tiles_exhausted", "turns": 2, "tiles_placed": 1,
                                  "discarded": 1} and "all_tiles" in goals, doc)
            break
    expect("final discard scenario found", found)

    # cross-check the union-find engine against a naive flood fill every turn
    cc = _crosscheck(60)
    expect("flood-fill cross-check", not cc, cc[:5])

    # round trip: our own logs must check clean; corrupted ones must not
    for k, m in ((3, 4), (2, 1), (4, 12), (6, 2)):
        docs = [play_game(game_rng(7, i), k, m, True, 7, i)[1] for i in range(40)]
        lines = []
        ck = Checker(lines.append)
        for i, d in enumerate(docs):
            ck.run_game(json.loads(json.dumps(d)), i)
        expect("roundtrip k=%d m=%d clean" % (k, m), ck.problems == 0, lines[:5])
    docs = [play_game(game_rng(9, i), 3, 4, True, 9, i)[1] for i in range(30)]

    def corrupt_count(mutator):
        lines = []
        ck = Checker(lines.append)
        n = 0
        for i, d in enumerate(docs):
            d2 = json.loads(json.dumps(d))
            if mutator(d2):
                n += 1
            ck.run_game(d2, i)
        return n, ck.problems, lines

    def mut_score(d):
        t = d["turns"][len(d["turns"]) // 2]
        t["scores"][0] += 1
        return True

    def mut_free(d):
        for t in d["turns"]:
            if not t["discarded"] and t["free"]:
                t["free"] = t["free"][1:]
                return True
        return False

    def mut_order(d):
        d["stacks"][0][0], d["stacks"][0][1] = d["stacks"][0][1], d["stacks"][0][0]
        return d["stacks"][0][0] != d["stacks"][0][1]

    def mut_goal(d):
        d["goals"] = d["goals"] + ["road_10"] if "road_10" not in d["goals"] else []
        return True

    def mut_final(d):
        if d["final_scoring"]:
            d["final_scoring"][0]["awarded"] = not d["final_scoring"][0]["awarded"]
            return True
        return False

    def mut_end(d):
        d["end"]["reason"] = "tiles_exhausted" if d["end"]["reason"] == "no_meeple" \
            else "no_meeple"
        return True

    def mut_scored_drop(d):
        for t in d["turns"]:
            if not t["discarded"] and t["scored"]:
                t["scored"] = t["scored"][1:]
                return True
        return False

    def mut_edges(d):
        t = d["turns"][0]
        if t["discarded"]:
            return False
        old = t["edges"]
        t["edges"] = old[1:] + old[0]
        return t["edges"] != old

    for name, mut in (("scores", mut_score), ("free", mut_free), ("order", mut_order),
                      ("goal", mut_goal), ("final", mut_final), ("end", mut_end),
                      ("scored", mut_scored_drop), ("edges", mut_edges)):
        n, p, lines = corrupt_count(mut)
        expect("corruption %s detected" % name, n == 0 or p >= 1, (n, p))

    # end-to-end command on a temp file
    with tempfile.TemporaryDirectory() as td:
        path = os.path.join(td, "l.jsonl")
        with open(path, "w") as f:
            for d in docs:
                f.write(json.dumps(d) + "\n")
        lines = []
        rc = cmd_check(argparse.Namespace(logs=[path]), lines.append)
        expect("check cmd rc", rc == 0 and lines[-1] == "checked 30 games, 0 problems", lines[-3:])
        with open(path, "a") as f:
            f.write("{not json\n")
        import contextlib
        import io
        with contextlib.redirect_stderr(io.StringIO()):
            rc = cmd_check(argparse.Namespace(logs=[path]), lambda s: None)
        expect("check cmd unreadable rc", rc == 2, rc)

    _selftest_expansions(expect)

    for f in fails:
        print("FAIL " + f)
    print("selftest: %d failures" % len(fails))
    return 1 if fails else 0


# ---------------------------------------------------------------------------
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("check", help="replay and verify game logs")
    p.add_argument("logs", nargs="+")
    p = sub.add_parser("sim", help="play random-policy games")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--colors", type=int, default=3)
    p.add_argument("--meeples", type=int, default=4)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--first-game", type=int, default=0)
    p.add_argument("--out", required=True)
    p.add_argument("--log", help="also write every game as a carcassonne-solo-log/1 line")
    p.add_argument("--tileset", default="base", choices=TILESETS,
                   help="tile set (expansions.md); default base")
    p.add_argument("--large-meeple", action="store_true",
                   help="each colour also has the Inns & Cathedrals large meeple")
    p = sub.add_parser("compare", help="compare a sim summary with a results file")
    p.add_argument("ref")
    p.add_argument("results")
    sub.add_parser("selftest", help="run built-in rule scenarios")
    args = ap.parse_args(argv)
    if args.cmd == "check":
        return cmd_check(args)
    if args.cmd == "sim":
        return cmd_sim(args)
    if args.cmd == "compare":
        return cmd_compare(args)
    return selftest()


if __name__ == "__main__":
    sys.exit(main())
