"""The game's state around the board: scores, supplies of meeples (and with the
expansion, the one large meeple per colour), placing a figure, scoring a completed
feature (rules.md: the majority scores only if one of its colours is lowest; a large
meeple weighs 2), the goals a scoring reaches, and final scoring."""

from collections import Counter

from .board import Board


class Game(Board):
    """Board, features, figures and scores of one game.  With large=True each colour also
    has one large meeple (expansions.md)."""

    def __init__(self, k, m, start_scores=None, large=False):
        super().__init__()
        self.k = k
        self.m = m
        self.large = large
        self.scores = list(start_scores) if start_scores is not None else list(range(1, k + 1))
        self.supply = [m] * k
        self.large_supply = [1 if large else 0] * k
        self.monk_awarded = 0
        self.goals = set()

    def has_figure(self, color):
        return self.supply[color] > 0 or self.large_supply[color] > 0

    def put_meeple(self, seg_index, color, large=False):
        """Put a figure of `color` on a segment of the tile placed last."""
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

    @staticmethod
    def majority(meeples, large):
        """Sorted colours with the most weight on a feature (meeple 1, large meeple 2)."""
        if not meeples:
            return []
        cnt = Counter(meeples)
        for c in large:          # a large meeple weighs 2
            cnt[c] += 1
        best = max(cnt.values())
        return sorted(c for c, n in cnt.items() if n == best)

    def score_feature(self, f):
        """Score one completed feature, send its figures home; returns the log entry."""
        kind, tiles, pen, pts, meeples = self.feature_info(f)
        large = self.feature_large(f)
        scores = self.scores
        low = min(scores)
        majority = self.majority(meeples, large)
        awarded = []
        if any(scores[c] == low for c in majority):
            awarded = majority
            for c in majority:
                scores[c] += pts
        self._return_figures(f, meeples, large)
        if awarded:
            self._record_goals(kind, pts, len(awarded))
        ent = {"kind": kind, "tiles": tiles, "pennants": pen, "points": pts,
               "meeples": meeples, "majority": majority, "low_before": low,
               "awarded": list(awarded), "scores_after": list(scores)}
        if self.large:
            ent["large_meeples"] = large
        return ent

    def _return_figures(self, f, meeples, large):
        for c in meeples:
            self.supply[c] += 1
        for c in large:
            self.supply[c] -= 1
            self.large_supply[c] += 1
        if f[0] == "monastery":
            del self.monks[f[1]]
            self.monk_large.discard(f[1])
        else:
            self.f_meeples[f[1]] = []
            self.f_large[f[1]] = []

    def _record_goals(self, kind, pts, n):
        """Goals reached by a feature of `pts` points awarded to n colours."""
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
        """Final scoring of one figure of colour c: 2 points if c is lowest."""
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
