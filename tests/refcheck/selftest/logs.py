"""The checker checked: this package's own logs (every tile set and figure option) must
check clean, and each kind of corruption of them must be reported; the `check` command's
exit statuses; features alike but for their large meeples told apart."""

import argparse
import contextlib
import io
import json
import os
import tempfile

from ..check import Checker, cmd_check
from ..game import game_rng, play_game
from .helpers import copy


def _check_all(docs):
    """A checker that has replayed copies of docs, and its lines."""
    lines = []
    ck = Checker(lines.append)
    for i, d in enumerate(docs):
        ck.run_game(copy(d), i)
    return ck, lines


def base_roundtrips(expect):
    for k, m in ((3, 4), (2, 1), (4, 12), (6, 2)):
        docs = [play_game(game_rng(7, i), k, m, True, 7, i)[1] for i in range(40)]
        ck, lines = _check_all(docs)
        expect("roundtrip k=%d m=%d clean" % (k, m), ck.problems == 0, lines[:5])


def _mut_score(d):
    t = d["turns"][len(d["turns"]) // 2]
    t["scores"][0] += 1
    return True


def _mut_free(d):
    for t in d["turns"]:
        if not t["discarded"] and t["free"]:
            t["free"] = t["free"][1:]
            return True
    return False


def _mut_order(d):
    d["stacks"][0][0], d["stacks"][0][1] = d["stacks"][0][1], d["stacks"][0][0]
    return d["stacks"][0][0] != d["stacks"][0][1]


def _mut_goal(d):
    d["goals"] = d["goals"] + ["road_10"] if "road_10" not in d["goals"] else []
    return True


def _mut_final(d):
    if d["final_scoring"]:
        d["final_scoring"][0]["awarded"] = not d["final_scoring"][0]["awarded"]
        return True
    return False


def _mut_end(d):
    d["end"]["reason"] = "tiles_exhausted" if d["end"]["reason"] == "no_meeple" \
        else "no_meeple"
    return True


def _mut_scored_drop(d):
    for t in d["turns"]:
        if not t["discarded"] and t["scored"]:
            t["scored"] = t["scored"][1:]
            return True
    return False


def _mut_edges(d):
    t = d["turns"][0]
    if t["discarded"]:
        return False
    old = t["edges"]
    t["edges"] = old[1:] + old[0]
    return t["edges"] != old


def base_corruptions(expect):
    """Each corruption applied to every game that has the field: at least one problem."""
    docs = [play_game(game_rng(9, i), 3, 4, True, 9, i)[1] for i in range(30)]
    for name, mut in (("scores", _mut_score), ("free", _mut_free), ("order", _mut_order),
                      ("goal", _mut_goal), ("final", _mut_final), ("end", _mut_end),
                      ("scored", _mut_scored_drop), ("edges", _mut_edges)):
        ck = Checker(lambda s: None)
        n = 0
        for i, d in enumerate(docs):
            d2 = copy(d)
            if mut(d2):
                n += 1
            ck.run_game(d2, i)
        expect("corruption %s detected" % name, n == 0 or ck.problems >= 1, (n, ck.problems))
    return docs


def check_command(expect, docs):
    """The command on a file: 0 with the summary line when clean, 2 with a line that is
    not JSON."""
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
        with contextlib.redirect_stderr(io.StringIO()):
            rc = cmd_check(argparse.Namespace(logs=[path]), lambda s: None)
        expect("check cmd unreadable rc", rc == 2, rc)


def _mut_large(d):
    for t in d["turns"]:
        if t.get("meeple") and not t["large"] and t["large_supply"][t["color"]] > 0:
            t["large"] = True
            return True
    return False


def _mut_large_supply(d):
    del d["turns"][-1]["large_supply"]
    return True


def _mut_large_meeples(d):
    for t in d["turns"]:
        for se in t.get("scored") or ():
            if se["meeples"]:
                se["large_meeples"] = [] if se["large_meeples"] else se["meeples"][:1]
                return True
    return False


def _mut_final_large(d):
    if d["final_scoring"]:
        d["final_scoring"][0]["large"] = not d["final_scoring"][0]["large"]
        return True
    return False


def _mut_river_rot(d):
    for t in d["turns"]:
        if t["tile"] in ("R6", "R7", "R8") and not t["discarded"]:
            t["rot"] = (t["rot"] + 1) % 4 if t["rot"] in (0, 2) else (t["rot"] + 3) % 4
            return True
    return False


def _mut_river_order(d):
    rs = d["river_stack"]
    rs[-1], rs[-2] = rs[-2], rs[-1]
    return True


def _expansion_corruptions(expect, docs, ts, big, tag):
    """Each corruption that applies to the options: every corrupted game reported."""
    def mut_tileset(d):
        d["config"]["tileset"] = "base+river" if ts == "base" else "base"
        return True

    muts = [("tileset", mut_tileset)]
    if big:
        muts += [("large", _mut_large), ("large_supply", _mut_large_supply),
                 ("large_meeples", _mut_large_meeples), ("final large", _mut_final_large)]
    if "river" in ts:
        muts += [("river rot", _mut_river_rot), ("river order", _mut_river_order)]
        lines = []
        bad = copy(docs[0])
        _mut_river_order(bad)
        Checker(lines.append).run_game(bad, 0)
        expect("R9 not last reported (%s)" % tag, any("the lake" in x for x in lines), lines)
    for name, mut in muts:
        n = p = 0
        for i, d in enumerate(docs):
            d2 = copy(d)
            if mut(d2):
                n += 1
                ck = Checker(lambda s: None)
                ck.run_game(d2, i)
                p += ck.problems >= 1
        expect("corruption %s detected (%s)" % (name, tag), n == p, (n, p))


def expansion_roundtrips(expect):
    for ts, big, k, m in (("base+inns", True, 3, 4), ("base+inns", True, 4, 6),
                          ("base+river", False, 3, 4), ("base+river", False, 4, 4),
                          ("base+river", True, 3, 2), ("base+inns+river", True, 4, 12),
                          ("base+inns", False, 2, 12), ("base", True, 3, 3)):
        docs = [play_game(game_rng(8, i), k, m, True, 8, i, tileset=ts, large=big)[1]
                for i in range(30)]
        ck, lines = _check_all(docs)
        tag = "%s%s k=%d m=%d" % (ts, " large" if big else "", k, m)
        expect("roundtrip %s clean" % tag, ck.problems == 0, lines[:5])
        if ts == "base+inns" and k == 4:
            expect("roundtrip %s uses large meeples" % tag, any(
                t.get("large") for d in docs for t in d["turns"]))
        _expansion_corruptions(expect, docs, ts, big, tag)


def alike_features(expect):
    """Two alike features completed together, only one holding a large meeple: the
    checker must pair the log's entries with them by large_meeples too (game 1148 of
    seed 2)."""
    _, d = play_game(game_rng(2, 1148), 6, 12, True, 2, 1148, tileset="base+river",
                     large=True)
    alike = [j for j, t in enumerate(d["turns"]) if not t["discarded"] and
             len(t["scored"]) == 2 and t["scored"][0]["meeples"] == t["scored"][1]["meeples"]
             and t["scored"][0]["points"] == t["scored"][1]["points"] and
             t["scored"][0]["large_meeples"] != t["scored"][1]["large_meeples"]]
    expect("alike features scenario", alike, "game changed")
    lines = []
    Checker(lines.append).run_game(copy(d), 1148)
    expect("alike features told apart", not lines, lines[:3])
    if alike:
        bad = copy(d)
        sc = bad["turns"][alike[0]]["scored"]
        sc[0]["large_meeples"] = sc[1]["large_meeples"] = []
        lines = []
        Checker(lines.append).run_game(bad, 1148)
        expect("alike features: a lost large meeple caught", lines, "not caught")
