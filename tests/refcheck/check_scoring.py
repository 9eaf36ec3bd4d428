"""The scoring half of a game's replay: the features a placement completes paired with the
log's scored entries and each entry's fields, and final scoring figure by figure.  A mixin
of check.Checker, reporting through its prob, eq and fatal."""

from collections import Counter

from .values import fmt, is_int


class ScoringChecks:
    """Checks of scored entries and final scoring (with check.Checker)."""

    def _check_scored(self, g, scored):
        """The log's scored entries, paired with the features the placement completed in
        any order, each scored in the log's order."""
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
            pick, got_lm = self._pair_scored(g, se, infos, larges, remaining)
            if pick is None:
                self.prob("scored[%d].kind (features left: %s)"
                          % (j, fmt([infos[i][0] for i in remaining])),
                          [infos[i][0] for i in remaining], se.get("kind"))
                continue
            remaining.remove(pick)
            self._check_one_scored(g, j, se, infos[pick], larges[pick], got_lm, done[pick])
        for i in remaining:
            kind, tiles, pen, pts, meeples = infos[i]
            self.prob("completed feature in scored", {"kind": kind, "tiles": tiles,
                      "points": pts, "meeples": meeples}, "missing")
            g.score_feature(done[i])

    @staticmethod
    def _pair_scored(g, se, infos, larges, remaining):
        """The completed feature a scored entry stands for: the first left alike in kind,
        tiles, pennants, points and figures, else in kind and figures, else in kind;
        features alike but for their large meeples told apart by those when possible.
        Returns (index or None, the entry's large_meeples)."""
        key = (se.get("kind"), se.get("tiles"), se.get("pennants"), se.get("points"),
               sorted(se.get("meeples")) if isinstance(se.get("meeples"), list)
               and all(is_int(v) for v in se.get("meeples")) else se.get("meeples"))
        got_lm = se.get("large_meeples", [])
        got_lm = sorted(got_lm) if isinstance(got_lm, list) and \
            all(is_int(v) for v in got_lm) else got_lm
        for tests in ((0, 1, 2, 3, 4), (0, 4), (0,)):
            for same_large in ((True, False) if g.large else (False,)):
                for i in remaining:
                    if all(infos[i][q] == key[q] for q in tests) and \
                            (not same_large or larges[i] == got_lm):
                        return i, got_lm
        return None, got_lm

    def _check_one_scored(self, g, j, se, info, large, got_lm, feature):
        kind, tiles, pen, pts, meeples = info
        pre = "scored[%d] (%s)" % (j, kind)
        self.eq(pre + ".kind", kind, se.get("kind"))
        self.eq(pre + ".tiles", tiles, se.get("tiles"))
        self.eq(pre + ".pennants", pen, se.get("pennants"))
        self.eq(pre + ".points", pts, se.get("points"))
        self.eq(pre + ".meeples", meeples, se.get("meeples"))
        if g.large or "large_meeples" in se:
            self.eq(pre + ".large_meeples", large, got_lm)
        ent = g.score_feature(feature)
        self.eq(pre + ".majority", ent["majority"], se.get("majority"))
        self.eq(pre + ".low_before", ent["low_before"], se.get("low_before"))
        aw = se.get("awarded")
        self.eq(pre + ".awarded", ent["awarded"],
                sorted(aw) if isinstance(aw, list) and all(is_int(v) for v in aw) else aw)
        self.eq(pre + ".scores_after", ent["scores_after"], se.get("scores_after"))

    # -- final scoring
    def _check_final(self, rp, doc):
        self.cur_turn = "final"
        fs = doc["final_scoring"]
        if not isinstance(fs, list):
            self.fatal("final_scoring", "list", type(fs).__name__)
        if rp.large:
            self._check_final_large(rp.g, fs)
        else:
            self._check_final_meeples(rp.g, fs)

    def _check_final_meeples(self, g, fs):
        """final_scoring without the large meeple: one entry per meeple on the board."""
        left = Counter(g.meeples_on_board())
        if len(fs) != sum(left.values()):
            self.prob("number of final_scoring entries (meeples left on board)",
                      sum(left.values()), len(fs))
        for j, fe in enumerate(fs):
            c = fe.get("color") if isinstance(fe, dict) else None
            if not is_int(c) or left[c] <= 0:
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
            if not is_int(c) or (big is not True and big is not False) or left[(c, big)] <= 0:
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

