"""The tiles: the base set (rules.md, "Base tile set"), Inns & Cathedrals and The River I
(expansions.md), their rotations, which rotations fit an edge pattern, and the bags and
stack sizes of each tile set.

A tile is (count, edges N E S W unrotated, segments).  A segment is (kind, edges it
touches); "city*" is a city with a pennant, "road+inn" a road with an inn,
"city+cathedral" a city with a cathedral.  Edge letters: C city, R road, F field, A water
(matches only A and is never a segment)."""

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


def _segment_marks(kind):
    """(kind, pennant, inn, cathedral) of a segment spec's kind."""
    if kind == "city*":
        return "city", 1, False, False
    if kind == "road+inn":
        return "road", 0, True, False
    if kind == "city+cathedral":
        return "city", 0, False, True
    return kind, 0, False, False


class TileRot:
    """One tile type at one rotation: its edges, segments and which segment each edge
    belongs to (-1 for fields and water)."""
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
            kind, pennant, inn, cathedral = _segment_marks(kind)
            dirs = tuple(sorted((DIRNAMES.index(e) + rot) % 4 for e in es))
            idx = len(self.segs)
            self.segs.append(Seg(kind, dirs, pennant, inn, cathedral))
            if kind == "monastery":
                self.monastery = True
            for d in dirs:
                assert self.dir2seg[d] == -1
                self.dir2seg[d] = idx
        self._assert_consistent()

    def _assert_consistent(self):
        """Every road/city edge belongs to exactly one segment of that kind; field and
        water edges to none; segment names are unique on the tile."""
        for d in range(4):
            letter = self.edges[d]
            if letter in "FA":
                assert self.dir2seg[d] == -1, (self.type, self.rot, d)
            else:
                s = self.segs[self.dir2seg[d]]
                assert s.kind == ("city" if letter == "C" else "road"), (self.type, self.rot, d)
        names = [s.name for s in self.segs]
        assert len(names) == len(set(names)), (self.type, names)


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
    """Sizes of k stacks dealt from n tiles: the first n % k stacks hold one more."""
    q, rem = divmod(n, k)
    return [q + (1 if c < rem else 0) for c in range(k)]
