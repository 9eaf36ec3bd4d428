"""Whole games with the baseline random policies (rules.md): the deal, the colours' turns
with redraws after a discard, the river stack drawn first when the tile set has one, the
two end conditions, final scoring in a random order, and the game's log in
`carcassonne-solo-log/1` (game-log.md).

The random choices are made with Python's own generator, seeded per game from (seed,
index): these games are independent of the engine's, and compared with its games only
in distribution."""

import random

from .scoring import Game
from .tiles import (GOAL_IDS, LAKE, RIVER_SET, SPRING, START_TILE, VALID_ROTS, land_bag,
                    river_bag, stack_sizes, tileset_options)


def deal(rng, k, tileset="base"):
    """The land tiles shuffled and cut into k stacks (the first ones one tile longer)."""
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


class _RandomGame:
    """One game in play: the stacks and how far each has been drawn, whose turn it is,
    the counts the summary needs, and the log's turn entries when asked for."""

    def __init__(self, rng, k, m, want_log, tileset, large, stacks, river):
        self.rng = rng
        self.k = k
        self.large = large
        self.stacks = stacks
        self.river = river
        self.g = Game(k, m, None, large)
        self.ptr = [0] * k
        self.rptr = 0
        self.log_turns = [] if want_log else None
        self.turn = 0
        self.color = 0
        self.placed = 0
        self.discards = 0

    def play(self):
        """Play colour turns until the game ends; returns the end reason."""
        k = self.k
        while True:
            # next colour with a non-empty stack (one always exists here); while the river
            # stack holds tiles every colour draws from it
            if self.rptr >= len(self.river):
                while self.ptr[self.color] >= len(self.stacks[self.color]):
                    self.color = (self.color + 1) % k
            forced_fail = self._colour_turn()
            self.turn += 1
            if self.rptr >= len(self.river) and \
                    all(self.ptr[c] >= len(self.stacks[c]) for c in range(k)):
                return "tiles_exhausted"
            if forced_fail:
                return "no_meeple"
            self.color = (self.color + 1) % k

    def _draw(self):
        """The next tile of the river stack, else of the colour's own; None if both are
        empty."""
        if self.rptr < len(self.river):
            self.rptr += 1
            return self.river[self.rptr - 1]
        stk = self.stacks[self.color]
        if self.ptr[self.color] < len(stk):
            self.ptr[self.color] += 1
            return stk[self.ptr[self.color] - 1]
        return None

    def _colour_turn(self):
        """Draw until a tile can be placed (or the stacks run out), place it; returns
        whether the colour had a free segment but no figure (the game ends)."""
        g = self.g
        while True:
            t = self._draw()
            if t is None:
                return False
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
            if opts:
                return self._place(t, opts)
            self.discards += 1
            if self.log_turns is not None:
                ent = {"turn": self.turn, "color": self.color, "tile": t, "discarded": True,
                       "scores": list(g.scores), "supply": list(g.supply)}
                if self.large:
                    ent["large_supply"] = list(g.large_supply)
                self.log_turns.append(ent)

    def _place(self, t, opts):
        g, rng, color = self.g, self.rng, self.color
        (x, y), r = opts[rng.randrange(len(opts))]
        tr = g.place(t, x, y, r)
        self.placed += 1
        free = g.free_segments()
        meeple, big, forced_fail = self._figure(free)
        done = g.completed_features()
        if len(done) > 1:
            rng.shuffle(done)
        entries = [g.score_feature(f) for f in done]
        if self.log_turns is not None:
            ent = {
                "turn": self.turn, "color": color, "tile": t, "discarded": False,
                "x": x, "y": y, "rot": r, "edges": tr.edges,
                "free": [tr.segs[i].name for i in free],
                "meeple": tr.segs[meeple].name if meeple is not None else None,
                "scored": entries, "scores": list(g.scores), "supply": list(g.supply)}
            if self.large:
                ent["large"] = big
                ent["large_supply"] = list(g.large_supply)
            self.log_turns.append(ent)
        return forced_fail

    def _figure(self, free):
        """A figure on a random free segment when the colour has one: (segment or None,
        large, forced_fail).  With the large meeple, the kind of figure is drawn after the
        segment, uniform over the kinds in supply."""
        g, rng, color = self.g, self.rng, self.color
        if not free:
            return None, False, False
        if not g.has_figure(color):
            return None, False, True
        meeple = free[rng.randrange(len(free))] if len(free) > 1 else free[0]
        big = False
        if self.large:
            kinds = ([False] if g.supply[color] > 0 else []) + \
                ([True] if g.large_supply[color] > 0 else [])
            big = kinds[rng.randrange(2)] if len(kinds) == 2 else kinds[0]
        g.put_meeple(meeple, color, big)
        return meeple, big, False

    def final_scoring(self):
        """Every figure left on the board scored once, in a random order."""
        g = self.g
        if self.large:
            left = g.figures_on_board()
            self.rng.shuffle(left)
            final = []
            for c, big in left:
                ent = g.final_score_one(c)
                ent["large"] = big
                final.append(ent)
            return final
        left = g.meeples_on_board()
        self.rng.shuffle(left)
        return [g.final_score_one(c) for c in left]


def _log_doc(game, m, seed, index, tileset, start, reason, final, goals):
    """The game as a `carcassonne-solo-log/1` document."""
    g = game.g
    cfg = {"colors": game.k, "meeples": m, "start_scores": list(range(1, game.k + 1)),
           "tileset": tileset, "placement_policy": "random",
           "scoring_policy": "random"}
    if tileset != "base" or game.large:
        cfg["large_meeple"] = game.large
    doc = {
        "format": "carcassonne-solo-log/1",
        "config": cfg,
        "seed": seed, "game": index,
        "stacks": game.stacks,
    }
    if tileset_options(tileset)[1]:
        doc["river_stack"] = game.river
    doc.update({
        "start": {"tile": start, "x": 0, "y": 0, "rot": 0},
        "turns": game.log_turns,
        "final_scoring": final,
        "end": {"reason": reason, "turns": game.turn, "tiles_placed": game.placed,
                "discarded": game.discards},
        "scores": list(g.scores),
        "result": min(g.scores),
        "goals": [x for x in GOAL_IDS if x in goals],
    })
    return doc


def play_game(rng, k, m, want_log=False, seed=None, index=None, stacks=None,
              tileset="base", large=False, river=None):
    """One game with the baseline random policies.  With a river tileset the shared
    river stack (top first, R9 last) is dealt after the land stacks unless given.
    Returns ((result, end reason, tiles placed, discards, goals, scores), log or None)."""
    has_river = tileset_options(tileset)[1]
    if stacks is None:
        stacks = deal(rng, k, tileset)
    if has_river and river is None:
        river = deal_river(rng)
    river = list(river) if has_river else []
    game = _RandomGame(rng, k, m, want_log, tileset, large, stacks, river)
    start = SPRING if has_river else START_TILE
    game.g.place(start, 0, 0, 0)
    reason = game.play()
    final = game.final_scoring()
    goals = game.g.final_goals(reason)
    summary = (min(game.g.scores), reason, game.placed, game.discards, goals,
               tuple(game.g.scores))
    if not want_log:
        return summary, None
    return summary, _log_doc(game, m, seed, index, tileset, start, reason, final, goals)
