"""Scenarios of the base game (rules.md) on boards built by hand: tile rotations and
segment names, the worked example 3, free segments, majorities, cities that close in a
ring, pennants, monasteries, final scoring, goals and the two end conditions."""

import itertools
import random
from collections import Counter

from ..game import play_game
from ..scoring import Game
from ..tiles import ROT, base_bag, stack_sizes
from .helpers import meeple_on, new_game, place_checked

Y, R, G = 0, 1, 2       # example 3's colours: Yellow, Red, Green


def tile_data(expect):
    expect("V rot1 edges", ROT["V"][1].edges == "RFFR", ROT["V"][1].edges)
    expect("V rot1 seg", ROT["V"][1].segs[0].name == "road:N,W", ROT["V"][1].segs[0].name)
    expect("D rot0", ROT["D"][0].edges == "CRFR")
    expect("I rot1", [s.name for s in ROT["I"][1].segs] == ["city:S", "city:W"],
           [s.name for s in ROT["I"][1].segs])
    expect("stack sizes 3", stack_sizes(3) == [24, 24, 23])
    expect("stack sizes 4", stack_sizes(4) == [18, 18, 18, 17])
    expect("stack sizes 6", stack_sizes(6) == [12, 12, 12, 12, 12, 11])
    expect("bag", len(base_bag()) == 71 and Counter(base_bag())["D"] == 3)


def _example3():
    g = new_game(3, 4, [1, 3, 4])              # D: road W-E, city N
    place_checked(g, "U", -1, 0, 1)            # road W-E
    meeple_on(g, "road:E,W", R)
    place_checked(g, "A", -2, 0, 3)            # road ends at a monastery (road E)
    place_checked(g, "E", 1, -1, 2)            # city S
    meeple_on(g, "city:S", G)
    place_checked(g, "U", 2, 0, 1)
    meeple_on(g, "road:E,W", Y)
    place_checked(g, "A", 3, 0, 1)             # road W end
    place_checked(g, "L", 1, 0, 0)             # completes all three
    return g


def example3(expect):
    """Example 3 of the rules: one tile completes three features; only the scoring order
    Y, R, G awards every colour."""
    g = _example3()
    done = g.completed_features()
    infos = {g.feature_info(f)[4][0]: (f, g.feature_info(f)) for f in done if g.feature_info(f)[4]}
    expect("ex3 three features", len(done) == 3, [g.feature_info(f) for f in done])
    expect("ex3 yellow road 3", infos.get(Y, (0, (0, 0, 0, 0)))[1][:4] == ("road", 3, 0, 3))
    expect("ex3 red road 4", infos.get(R, (0, (0, 0, 0, 0)))[1][:4] == ("road", 4, 0, 4))
    expect("ex3 green city 4", infos.get(G, (0, (0, 0, 0, 0)))[1][:4] == ("city", 2, 0, 4))
    all_three = []
    for order in itertools.permutations([Y, R, G]):
        g = _example3()
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


def free_and_majority(expect):
    # free segments: L with its S road open; after placement the W road is Red's
    g = new_game(3, 4)
    place_checked(g, "U", -1, 0, 1)
    meeple_on(g, "road:E,W", R)
    place_checked(g, "L", 1, 0, 0)
    names = [g.cells[(1, 0)][0].segs[i].name for i in g.free_segments()]
    expect("free L", sorted(names) == ["city:N", "road:E", "road:S"], names)

    # majority 2-1 with the majority not lowest (the game-log.md example)
    g = new_game(3, 4, [4, 2, 3])
    place_checked(g, "A", -1, 0, 3)      # road E end
    place_checked(g, "U", 1, 0, 1)
    meeple_on(g, "road:E,W", 0)
    place_checked(g, "U", 2, 0, 1)
    meeple_on(g, "road:E,W", 0)
    place_checked(g, "U", 3, 0, 1)
    meeple_on(g, "road:E,W", 1)
    place_checked(g, "A", 4, 0, 1)       # road W end, completes 6-tile road
    done = g.completed_features()
    expect("2-1 one feature", len(done) == 1)
    e = g.score_feature(done[0])
    expect("2-1 entry", (e["kind"], e["tiles"], e["points"], e["meeples"], e["majority"],
                         e["low_before"], e["awarded"], e["scores_after"])
           == ("road", 6, 6, [0, 0, 1], [0], 2, [], [4, 2, 3]), e)
    expect("2-1 supply", g.supply == [4, 4, 4], g.supply)

    # tie for majority, one tied colour is low -> both score
    g = new_game(3, 4, [5, 2, 3])
    place_checked(g, "A", -1, 0, 3)
    place_checked(g, "U", 1, 0, 1)
    meeple_on(g, "road:E,W", 0)
    place_checked(g, "U", 2, 0, 1)
    meeple_on(g, "road:E,W", 1)
    place_checked(g, "A", 3, 0, 1)
    e = g.score_feature(g.completed_features()[0])
    expect("tie entry", (e["points"], e["majority"], e["awarded"], e["scores_after"])
           == (5, [0, 1], [0, 1], [10, 7, 3]), e)


def city_rings(expect):
    """Cities that close in a ring, through tiles with two city segments."""
    # city ring through an I tile (I is twice in the city, counted once)
    g = new_game(3, 4)
    place_checked(g, "I", 0, 1, 0)       # city E, city S
    meeple_on(g, "city:E", 2)
    place_checked(g, "N", 1, 1, 3)       # city S,W
    place_checked(g, "N", 0, 2, 1)       # city N,E
    expect("ring not yet complete", not g.completed_features())
    place_checked(g, "N", 1, 2, 0)       # city N,W
    done = g.completed_features()
    expect("ring complete", len(done) == 1, done)
    if done:
        info = g.feature_info(done[0])
        expect("ring info", info == ("city", 4, 0, 8, [2]), info)
    # free check: on the I tile both city segments were separate when placed
    g2 = new_game(3, 4)
    place_checked(g2, "I", 0, 1, 0)
    expect("I free", sorted(g2.cells[(0, 1)][0].segs[i].name for i in g2.free_segments())
           == ["city:E", "city:S"])

    # city ring through an H tile (H's two city segments end up in one city)
    ring = [("N", 2, 5, 0), ("N", 2, 4, 3), ("G", 1, 4, 0), ("N", 0, 4, 2), ("N", 0, 5, 1)]
    for h_last in (False, True):
        g = new_game(3, 4)
        order = ring + [("H", 1, 5, 0)] if h_last else [("H", 1, 5, 0)] + ring
        for i, (t, x, y, r) in enumerate(order):
            place_checked(g, t, x, y, r)
            if i < len(order) - 1:
                expect("H ring early", not g.completed_features())
        names = sorted(g.cells[g.last_cell][0].segs[i].name for i in g.free_segments())
        expect("H ring free", names == (["city:E", "city:W"] if h_last else ["city:N,E"]), names)
        meeple_on(g, names[0], 1)
        done = g.completed_features()
        expect("H ring one feature", len(done) == 1, done)
        if done:
            info = g.feature_info(done[0])
            expect("H ring info", info == ("city", 6, 0, 12, [1]), info)
        expect("H ring supply", g.supply == [4, 3, 4])


def pennant_monastery_final(expect):
    # pennant city: M
    g = new_game(2, 4)
    place_checked(g, "M", 0, -1, 2)           # city S,E (rot2 of N,W)
    meeple_on(g, "city:E,S", 0)
    place_checked(g, "E", 1, -1, 3)           # E rot3: city W
    done = g.completed_features()
    info = g.feature_info(done[0]) if done else None
    expect("pennant city", info == ("city", 3, 1, 8, [0]), info)

    # monastery completed by a neighbouring placement; its tiles are 9
    g = new_game(3, 4, [3, 3, 3])
    cells = [(x, y) for y in (1, 2, 3) for x in (-1, 0, 1)]
    for i, (x, y) in enumerate(cells[:-1]):
        place_checked(g, "B", x, y, 0)
        if (x, y) == (0, 2):
            meeple_on(g, "monastery", 1)
        expect("monastery not early %d" % i, not g.completed_features())
    place_checked(g, "B", 1, 3, 0)
    done = g.completed_features()
    expect("monastery one", len(done) == 1 and done[0] == ("monastery", (0, 2)), done)
    if done:
        e = g.score_feature(done[0])
        expect("monastery entry", (e["kind"], e["tiles"], e["points"], e["awarded"],
                                   e["scores_after"]) == ("monastery", 9, 9, [1], [3, 12, 3]), e)
        expect("monastery goal counter", g.monk_awarded == 1)

    # completed feature with no meeple
    g = new_game(3, 4)
    place_checked(g, "E", 0, -1, 2)
    e = g.score_feature(g.completed_features()[0])
    expect("empty feature", (e["points"], e["meeples"], e["majority"], e["awarded"],
                             e["scores_after"]) == (4, [], [], [], [1, 2, 3]), e)

    # final scoring order matters
    g = Game(3, 4, [10, 10, 11])
    g.supply = [3, 4, 2]              # meeples: colour 0 x1, colour 2 x2
    ents = [g.final_score_one(c) for c in (2, 0, 2)]
    expect("final", [x["awarded"] for x in ents] == [False, True, False] and
           g.scores == [12, 10, 11], (ents, g.scores))


def goals(expect):
    # a 5-tile road (away from the start tile) with meeples of 3 colours
    for ncol, want in ((3, True), (2, False)):
        g = new_game(3, 4, [1, 1, 1])
        place_checked(g, "A", 0, -5, 3)
        for x in (1, 2, 3):
            place_checked(g, "U", x, -5, 1)
            meeple_on(g, "road:E,W", (x - 1) % ncol)
        place_checked(g, "A", 4, -5, 1)
        e = g.score_feature(g.completed_features()[0])
        expect("road_5_3c %d colours" % ncol, e["points"] == 5 and
               ("road_5_3c" in g.goals) == want and len(e["awarded"]) == (3 if want else 1),
               (e, g.goals))
    fg = Game(3, 4, [45, 52, 61])
    expect("totals", fg.final_goals("no_meeple") == {"total_40"}, fg.final_goals("no_meeple"))
    fg.monk_awarded = 4
    expect("monastery goals", fg.final_goals("tiles_exhausted") ==
           {"total_40", "monastery_3", "monastery_4", "all_tiles"})


def end_reasons(expect):
    """A forced meeple impossible on the very last tile ends by tiles_exhausted (B); the
    same with tiles left by no_meeple (A); a final discard also ends by B."""
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
