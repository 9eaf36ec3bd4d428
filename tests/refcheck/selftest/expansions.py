"""Scenarios of the expansions (expansions.md): their tile data and set-up sizes, inn and
cathedral scoring, the large meeple (weight 2, its own supply, forced when alone), and the
river (laid at the open end, no U-turn, drawn before the land tiles, the lake last)."""

import random
from collections import Counter

from ..check import Checker
from ..game import deal, game_rng, play_game
from ..scoring import Game
from ..tiles import (INN_TABLE, INN_TYPES, LAKE, LETTER_CODE, RIVER_SET, RIVER_TYPES, ROT,
                     SPRING, TILE_TABLE, VALID_ROTS, land_bag, river_bag)
from .helpers import copy, meeple_on, new_game, place_checked, river_path, road_line


def tile_data(expect):
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


def inns(expect):
    # inn road: 2 per tile (A, I3, U, A: 4 tiles -> 8)
    g = new_game(3, 4, [1, 2, 3])
    f = road_line(g, [("I3", 0), ("U", 1)], figures={0: (0, False)})
    info = g.feature_info(f)
    expect("inn road 2/tile", info == ("road", 4, 0, 8, [0]), info)
    e = g.score_feature(f)
    expect("inn road awarded", e["awarded"] == [0] and g.scores == [9, 2, 3], (e, g.scores))
    # the same road without the inn: 1 per tile
    g = new_game(3, 4)
    info = g.feature_info(road_line(g, [("U", 1), ("U", 1)]))
    expect("plain road 1/tile", info[3] == 4, info)
    # two inns (I3 and I2 kinds) on one road: still 2 per tile, not 3 or 4
    g = new_game(3, 4)
    f = road_line(g, [("I3", 0), ("U", 1), ("I3", 2)])
    info = g.feature_info(f)
    expect("two inns do not stack", info[:4] == ("road", 5, 0, 10), info)
    e = g.score_feature(f)
    expect("inn road 10 goal needs award", "road_10" not in g.goals and e["awarded"] == [])
    # a 5-tile inn road with 3 colours: worth 10, so road_10_3c but not road_5_3c
    g = new_game(3, 4, [1, 1, 1])
    f = road_line(g, [("I3", 0), ("U", 1), ("U", 1)],
                  figures={0: (0, False), 1: (1, False), 2: (2, False)})
    e = g.score_feature(f)
    expect("inn road goals", e["points"] == 10 and {"road_10", "road_10_3c"} <= g.goals
           and "road_5_3c" not in g.goals, (e, g.goals))


def cathedrals(expect):
    # cathedral city: D, I1, E, E, M (pennant), E: 6 tiles + 1 pennant -> 3*6 + 3 = 21
    g = new_game(3, 4, [1, 2, 3])
    place_checked(g, "I1", 0, -1, 0)
    meeple_on(g, "city:N,E,S,W", 2)
    place_checked(g, "E", -1, -1, 1)
    place_checked(g, "E", 0, -2, 2)
    place_checked(g, "M", 1, -1, 0)
    expect("cathedral city not early", not g.completed_features())
    place_checked(g, "E", 1, -2, 2)
    done = g.completed_features()
    expect("cathedral city complete", len(done) == 1, done)
    f = done[0]
    info = g.feature_info(f)
    expect("cathedral city 3+3", info == ("city", 6, 1, 21, [2]), info)
    e = g.score_feature(f)
    expect("cathedral city scored", e["awarded"] == [] and e["points"] == 21, e)
    # two cathedrals in one city score as one: I1 next to I1 (an open city, rates only)
    g = new_game(2, 4)
    place_checked(g, "I1", 0, -1, 0)
    place_checked(g, "I1", 0, -2, 0)
    root = g.find(g.last_nodes[0])
    expect("two cathedrals do not stack", g.feature_info(("city", root))[:4] ==
           ("city", 3, 0, 9), g.feature_info(("city", root)))


def large_meeple(expect):
    # large meeple majority: one large (weight 2) beats one meeple; ties with two
    for mids_figs, want_maj, want_scores in (
            ({0: (0, True), 1: (1, False)}, [0], [5, 2, 3]),
            ({0: (0, True), 1: (1, False), 2: (1, False)}, [0, 1], [6, 7, 3]),
            ({0: (1, True), 1: (0, False)}, [1], [1, 2, 3]),
            ({0: (1, True), 1: (0, False), 2: (0, False), 3: (0, False)}, [0], [7, 2, 3])):
        g = new_game(3, 4, [1, 2, 3], large=True)
        n = max(mids_figs) + 1
        f = road_line(g, [("U", 1)] * n, figures=mids_figs)
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
    g = new_game(2, 3, [5, 5], large=True)
    place_checked(g, "B", 0, 2, 0)
    g.put_meeple(0, 1, True)
    expect("large on board", g.figures_on_board() == [(1, True)] and g.large_supply == [1, 0])
    ent = g.final_score_one(1)
    expect("large final 2 points", ent["points"] == 2 and g.scores == [5, 7], g.scores)
    g = new_game(3, 4, [3, 3, 3], large=True)
    for (x, y) in [(xx, yy) for yy in (1, 2, 3) for xx in (-1, 0, 1)]:
        place_checked(g, "B", x, y, 0)
        if (x, y) == (0, 2):
            g.put_meeple(0, 2, True)
    done = g.completed_features()
    e = g.score_feature(done[0]) if done else {}
    expect("large on monastery", e.get("majority") == [2] and e.get("large_meeples") == [2]
           and g.large_supply == [1, 1, 1] and g.scores == [3, 3, 12], (e, g.large_supply))


def lone_large(expect):
    """A lone large meeple must be placed; no_meeple only with neither figure."""
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
        ck.run_game(copy(doc1), sd)
        lines = [x for x in lines if "stack" not in x]     # hand-made stacks aside
        expect("lone large log checks %d" % sd, ck.problems == 2 and not lines, lines[:3])
        # the forced placement left out, or the other figure claimed (a meeple when only
        # the large one is left, or the large one when it is already on the board)
        figs_seen.add(mine[1]["large"])
        for what, key, val in (("skipping the lone figure", "meeple", None),
                               ("the wrong figure", "large", not mine[1]["large"])):
            bad = copy(doc1)
            bad["turns"][2][key] = val
            lines = []
            Checker(lines.append).run_game(bad, what)
            lines = [x for x in lines if "stack" not in x]
            expect("%s refused %d" % (what, sd), any("turn 2:" in x for x in lines), lines)
    expect("lone figure both kinds", figs_seen == {False, True}, figs_seen)


def river_rules(expect):
    """No U-turn, with or without straights between the curves."""
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


def river_games(expect):
    """River games: R9 last, colour order, alternating curves, nothing scored on the
    river; the game ends only with the river stack empty too, and may end by no_meeple
    while the river is laid."""
    first_ways = set()
    for k, lake_col, first_land in ((3, 1, 2), (4, 2, 3)):
        for i in range(25):
            _, d = play_game(game_rng(11, i), k, 4, True, 11, i, tileset="base+river")
            rs = d["river_stack"]
            rv = [t for t in d["turns"] if t["tile"] in RIVER_SET]
            cells, signs = river_path(d)
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
    bad = copy(d)
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
