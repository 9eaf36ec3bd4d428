"""The `check` subcommand: replay every `carcassonne-solo-log/1` game of a log file
(game-log.md) with this package's own rules and compare every field: the deal, the draw
order with redraws after a discard, each placement's legality, free segments, the figure
placed, every completed feature and its scoring, supplies and scores after each turn, the
end condition, final scoring and goals.

A problem is reported as one line naming the game, the turn, the field, what was expected
and what the log holds.  Where the log leaves the replay no sensible way on (a tile other
than the one due, an illegal placement), the game's replay stops."""

import json
import os
import sys
from collections import Counter

from .check_scoring import ScoringChecks
from .scoring import Game
from .tiles import (LAKE, RIVER_SET, SPRING, START_TILE, TILESETS, land_bag, river_bag,
                    stack_sizes, tileset_options)
from .values import fmt, is_int


class StopGame(Exception):
    pass


class _Replay:
    """A game being replayed: its stacks and how far each has been drawn, whose turn it
    is, and the counts the log's end block must match."""

    def __init__(self, g, stacks, river):
        self.g = g
        self.k = g.k
        self.large = g.large
        self.stacks = stacks
        self.river = river
        self.ptr = [0] * g.k
        self.rptr = 0
        self.turn = -1
        self.color = -1
        self.in_turn = False      # a redraw after a discard is due
        self.ended = None         # the end reason once the game is over
        self.forced_fail = False
        self.placed = 0
        self.discards = 0
        self.n_turns = 0

    def stacks_empty(self):
        return self.rptr >= len(self.river) and \
            all(self.ptr[c] >= len(self.stacks[c]) for c in range(self.k))

    def colour_has_tiles(self):
        """The colour in turn can draw again (from the river stack or its own)."""
        return self.rptr < len(self.river) or self.ptr[self.color] < len(self.stacks[self.color])


class Checker(ScoringChecks):
    """Replays games and counts the problems found; `out` receives one line per problem."""

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
        """Report unless equal and of one JSON type (an int and a float may compare)."""
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
        rp = self._check_setup(doc)
        self._replay_turns(rp, doc)
        self._check_end(rp, doc)
        self._check_final(rp, doc)
        self.cur_turn = "end"
        g = rp.g
        self.eq("scores", g.scores, doc.get("scores"))
        self.eq("result", min(g.scores), doc.get("result"))
        exp_goals = g.final_goals(rp.ended)
        got_goals = doc.get("goals")
        if not isinstance(got_goals, list) or set(got_goals) != exp_goals \
                or len(set(got_goals)) != len(got_goals):
            self.prob("goals", exp_goals, set(got_goals) if isinstance(got_goals, list)
                      else got_goals)

    # -- set-up: config, deal, start tile
    def _check_setup(self, doc):
        """Check the config, the stacks and the start; returns the replay at turn 0."""
        self.cur_turn = "setup"
        if not isinstance(doc, dict):
            self.fatal("document type", "object", type(doc).__name__)
        self.eq("format", "carcassonne-solo-log/1", doc.get("format"))
        k, m, tileset, has_river, large = self._check_config(doc["config"])
        stacks = self._check_stacks(doc, k, tileset)
        river = self._check_river_stack(doc, has_river)
        start_tile = SPRING if has_river else START_TILE
        st = doc.get("start")
        if st is not None:
            self.eq("start", {"tile": start_tile, "x": 0, "y": 0, "rot": 0},
                    {kk: st.get(kk) for kk in ("tile", "x", "y", "rot")})
        g = Game(k, m, list(range(1, k + 1)), large)
        g.place(start_tile, 0, 0, 0)
        return _Replay(g, stacks, river)

    def _check_config(self, cfg):
        """(colours, meeples, tile set, has the river, large meeple) of a valid config."""
        k = cfg["colors"]
        m = cfg["meeples"]
        if not is_int(k) or not 2 <= k <= 6:
            self.fatal("config.colors in 2..6", "2..6", k)
        if not is_int(m) or not 1 <= m <= 12:
            self.fatal("config.meeples in 1..12", "1..12", m)
        self.eq("config.start_scores", list(range(1, k + 1)), cfg.get("start_scores"))
        tileset = cfg.get("tileset", "base")
        opts = tileset_options(tileset) if isinstance(tileset, str) else None
        if opts is None:
            self.fatal("config.tileset", " or ".join(TILESETS), tileset)
        large = cfg.get("large_meeple", False)
        if large is not True and large is not False:
            self.fatal("config.large_meeple", "true/false", large)
        return k, m, tileset, opts[1], large

    def _check_stacks(self, doc, k, tileset):
        """The colours' stacks: k of them, sized as dealt, holding the set's land tiles."""
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
        return stacks

    def _check_river_stack(self, doc, has_river):
        """The shared river stack (R1..R8 in any order, the lake last), or none."""
        if not has_river:
            if doc.get("river_stack") not in (None, []):
                self.prob("river_stack (tileset without the river)", [], doc.get("river_stack"))
            return []
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
        return river

    # -- the turns
    def _replay_turns(self, rp, doc):
        """Replay every turn entry: one per tile drawn, a colour's turn ending with a
        placement or with a discard when its stacks are empty."""
        turns = doc["turns"]
        if not isinstance(turns, list):
            self.fatal("turns", "list", type(turns).__name__)
        for e in turns:
            if not rp.in_turn:
                self._next_colour(rp, e)
            self.cur_turn = rp.turn
            if not isinstance(e, dict):
                self.fatal("turn entry type", "object", type(e).__name__)
            self.eq("turn number", rp.turn, e.get("turn"))
            if e.get("color") != rp.color:
                self.fatal("color (draw order)", rp.color, e.get("color"))
            t = self._check_draw(rp, e)
            legal = rp.g.legal_placements(t)
            disc = e.get("discarded")
            if disc is not True and disc is not False:
                self.fatal("discarded flag", "true/false", disc)
            if disc:
                self._check_discard(rp, e, t, legal)
                if rp.in_turn:
                    continue
            else:
                rp.in_turn = False
                self._check_placement(rp, e, t, legal)
            # the colour turn is over
            if rp.stacks_empty():
                rp.ended = "tiles_exhausted"
            elif rp.forced_fail:
                rp.ended = "no_meeple"

    def _next_colour(self, rp, e):
        """A new colour turn: the next colour with tiles to draw (every colour while the
        river stack holds tiles)."""
        if rp.ended:
            self.cur_turn = e.get("turn") if isinstance(e, dict) else "?"
            self.fatal("game already ended (%s); further turn entries" % rp.ended,
                       "none", "entry for turn %s" % self.cur_turn)
        c = (rp.color + 1) % rp.k
        if rp.rptr >= len(rp.river):
            while rp.ptr[c] >= len(rp.stacks[c]):
                c = (c + 1) % rp.k
        rp.color = c
        rp.turn += 1
        rp.n_turns += 1
        rp.forced_fail = False

    def _check_draw(self, rp, e):
        """The tile due (river stack first, then the colour's own); it must be the
        entry's."""
        if rp.rptr < len(rp.river):
            t = rp.river[rp.rptr]
            if e.get("tile") != t:
                self.fatal("tile drawn from the river stack position %d" % rp.rptr,
                           t, e.get("tile"))
            rp.rptr += 1
        else:
            t = rp.stacks[rp.color][rp.ptr[rp.color]]
            if e.get("tile") != t:
                self.fatal("tile drawn from stack %d position %d" % (rp.color, rp.ptr[rp.color]),
                           t, e.get("tile"))
            rp.ptr[rp.color] += 1
        return t

    def _check_supplies(self, rp, e):
        g = rp.g
        self.eq("scores", g.scores, e.get("scores"))
        self.eq("supply", g.supply, e.get("supply"))
        if rp.large:
            self.eq("large_supply", g.large_supply, e.get("large_supply"))
        elif "large_supply" in e:
            self.eq("large_supply (no large meeples)", g.large_supply, e.get("large_supply"))

    def _check_discard(self, rp, e, t, legal):
        """A discard is legal only without a legal placement; a redraw follows while the
        colour has tiles."""
        if legal:
            self.prob("discard of tile %s with legal placements (e.g. x,y,rot=%s); "
                      "number of legal placements" % (t, fmt(list(legal[0]))),
                      0, len(legal))
        rp.discards += 1
        self._check_supplies(rp, e)
        rp.in_turn = rp.colour_has_tiles()

    def _check_placement(self, rp, e, t, legal):
        g = rp.g
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
        rp.placed += 1
        self.eq("edges", tr.edges, e.get("edges"))
        free = g.free_segments()
        free_names = [tr.segs[i].name for i in free]
        got_free = e.get("free")
        if not isinstance(got_free, list) or set(got_free) != set(free_names) \
                or len(got_free) != len(set(got_free)):
            self.prob("free segments", set(free_names),
                      set(got_free) if isinstance(got_free, list) else got_free)
        self._check_figure(rp, e, free, free_names)
        self._check_scored(g, e.get("scored"))
        self._check_supplies(rp, e)

    def _check_figure(self, rp, e, free, free_names):
        """The figure placed: none without a free segment or a figure in supply (the game
        then ends if a segment was free), else one on a free segment; the large meeple
        only if the colour still has it, and it when it is all the colour has."""
        g, color = rp.g, rp.color
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
                rp.forced_fail = True
            return
        if mp not in free_names:
            self.fatal("meeple on one of the free segments", free_names, mp)
        if big and not rp.large:
            self.fatal("large (config.large_meeple is false)", False, big)
        if big and g.large_supply[color] == 0:
            self.fatal("large (colour %d's large meeple is not in supply)" % color,
                       False, big)
        if not big and g.supply[color] == 0:
            self.fatal("large (colour %d has no meeple in supply: its lone large "
                       "meeple must be placed)" % color, True, big)
        g.put_meeple(free[free_names.index(mp)], color, big)

    # -- the end
    def _check_end(self, rp, doc):
        self.cur_turn = "end"
        if rp.in_turn:
            self.fatal("redraw after discard (log ends mid-turn)", "another entry", "end of log")
        if not rp.ended:
            self.fatal("log ends before the game is over (no end condition met); turn entries",
                       "more", "end of log")
        end = doc["end"]
        self.eq("end.reason", rp.ended, end.get("reason"))
        self.eq("end.turns", rp.n_turns, end.get("turns"))
        self.eq("end.tiles_placed", rp.placed, end.get("tiles_placed"))
        self.eq("end.discarded", rp.discards, end.get("discarded"))


def cmd_check(args, out=print):
    """Check every game of every log; 0: no problems, 1: problems, 2: unreadable input."""
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
