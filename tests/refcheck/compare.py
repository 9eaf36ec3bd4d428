"""The `compare` subcommand: two summaries of random play (this package's `sim` and the
engine's results file) set side by side.  Means and rates are judged by their z-score
(|z| < 4), the result and tiles-placed histograms by a chi-square homogeneity test
(p > 0.001): wide enough that two correct implementations pass, narrow enough that a
rule played differently shows at the usual sample sizes."""

import json
import math
import sys

from .sim import hist_stats
from .tiles import END_REASONS, GOAL_IDS
from .values import fmt

Z_LIMIT = 4.0
P_LIMIT = 0.001


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
    # the tail is pooled into the last bin, so every bin's expected counts are >= 5
    chi = 0.0
    for a, b in bins:
        t = a + b
        e1, e2 = t * n1 / N, t * n2 / N
        chi += (a - e1) ** 2 / e1 + (b - e2) ** 2 / e2
    df = len(bins) - 1
    p = chi2_sf(chi, df) if df > 0 else 1.0
    return chi, df, p, len(bins)


def histogram(doc, *path):
    """The histogram [[value, count], ...] at `path` as {value: count}; None if absent."""
    d = doc
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    if not isinstance(d, list):
        return None
    return {int(v): int(c) for v, c in d}


def get(doc, *path, default=None):
    d = doc
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return default
        d = d[p]
    return d


def fmtnum(v):
    return "%.5f" % v if isinstance(v, (int, float)) else str(v)


class _Table:
    """The comparison table being printed, and the quantities judged a mismatch."""

    def __init__(self, na, nb):
        self.na, self.nb = na, nb
        self.ok = True
        self.bad = []

    def mismatch(self, name):
        self.ok = False
        self.bad.append(name)

    def mean_row(self, name, ma, sa, mb, sb):
        if ma is None or mb is None:
            print("%-28s %12s %12s" % (name, ma, mb))
            return
        se = math.sqrt((sa or 0) ** 2 / self.na + (sb or 0) ** 2 / self.nb)
        d = mb - ma
        if se > 0:
            z = d / se
        else:
            z = 0.0 if d == 0 else float("inf")
        verdict = "ok" if abs(z) < Z_LIMIT else "MISMATCH"
        if verdict != "ok":
            self.mismatch(name)
        print("%-28s %12.4f %12.4f %+10.4f %8.2f  %s" % (name, ma, mb, d, z, verdict))

    def rate_row(self, name, ca, cb):
        """Two counts out of na and nb games: a two-proportion z-test, judged only when
        both outcomes are seen at least 10 times in all."""
        na, nb = self.na, self.nb
        if ca is None or cb is None:
            print("%-28s %12s %12s  missing" % (name, ca, cb))
            if cb is None:
                self.mismatch(name + " (missing)")
            return
        pa, pb = ca / na, cb / nb
        pool = (ca + cb) / (na + nb)
        se = math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
        d = pb - pa
        z = d / se if se > 0 else 0.0
        enough = (ca + cb) >= 10 and (na + nb - ca - cb) >= 10
        if not enough:
            verdict = "(few)"
        elif abs(z) < Z_LIMIT:
            verdict = "ok"
        else:
            verdict = "MISMATCH"
            self.mismatch(name)
        print("%-28s %12.6f %12.6f %+10.6f %8.2f  %s" % (name, pa, pb, d, z, verdict))

    def histogram_row(self, name, ha, hb):
        chi, df, p, nbins = chi2_two_sample(ha, hb)
        verdict = "ok" if p > P_LIMIT else "MISMATCH"
        if verdict != "ok":
            self.mismatch(name + " histogram")
        print("%s histogram chi2 = %.2f, df = %d (%d pooled bins), p = %.4g  %s"
              % (name, chi, df, nbins, p, verdict))


def _std(doc, key, hist):
    """The summary's std of `key`, else the histogram's."""
    s = get(doc, key, "std")
    if s is None and hist:
        s = hist_stats(hist)[1]
    return s


def _refusal(A, B, args):
    """A line saying why the two summaries are different games, or None."""
    for key, default in (("tileset", "base"), ("large_meeple", False)):
        va, vb = get(A, "config", key, default=default), get(B, "config", key, default=default)
        if va != vb:
            return ("compare: refusing to compare different configs: config.%s is %s in %s but "
                    "%s in %s" % (key, fmt(va), args.ref, fmt(vb), args.results))
    return None


def _print_configs(A, B, args, table):
    shown = ("colors", "meeples", "placement_policy", "scoring_policy", "seed")
    if get(A, "config", "tileset", default="base") != "base" or \
            get(A, "config", "large_meeple", default=False):
        shown += ("tileset", "large_meeple")
    print("REF     %s: %s games, config %s" % (args.ref, table.na, fmt({k: v for k, v in
          (A.get("config") or {}).items() if k in shown})))
    print("RESULTS %s: %s games, config %s" % (args.results, table.nb, fmt({k: v for k, v in
          (B.get("config") or {}).items() if k in shown})))
    for key in ("colors", "meeples"):
        va, vb = get(A, "config", key), get(B, "config", key)
        if va != vb:
            print("config.%s differs: %s vs %s" % (key, va, vb))
            table.mismatch("config." + key)


def _compare_rows(A, B, table):
    print()
    print("%-28s %12s %12s %10s %8s  %s" % ("quantity", "ref", "results", "diff", "z", "verdict"))
    ha, hb = histogram(A, "result", "histogram"), histogram(B, "result", "histogram")
    table.mean_row("result mean", get(A, "result", "mean"), _std(A, "result", ha),
                   get(B, "result", "mean"), _std(B, "result", hb))
    ta, tb = histogram(A, "tiles_placed", "histogram"), histogram(B, "tiles_placed", "histogram")
    tsa, tsb = _std(A, "tiles_placed", ta), _std(B, "tiles_placed", tb)
    if tsa is not None and tsb is not None:
        table.mean_row("tiles_placed mean", get(A, "tiles_placed", "mean"), tsa,
                       get(B, "tiles_placed", "mean"), tsb)
    else:
        print("%-28s %12s %12s  (no std: not judged)" % (
            "tiles_placed mean", get(A, "tiles_placed", "mean"), get(B, "tiles_placed", "mean")))
    print("%-28s %12s %12s" % ("discards mean", fmtnum(get(A, "discards", "mean")),
                               fmtnum(get(B, "discards", "mean"))))
    for r in END_REASONS:
        table.rate_row("end " + r, get(A, "end_reasons", r, "count"),
                       get(B, "end_reasons", r, "count"))
    for gid in GOAL_IDS:
        table.rate_row("goal " + gid, get(A, "goals", gid, "count"), get(B, "goals", gid, "count"))
    gwa = get(A, "discards", "games_with_discard")
    gwb = get(B, "discards", "games_with_discard")
    if gwa is not None and gwb is not None:
        table.rate_row("games with discard", gwa, gwb)
    if ha and hb:
        table.histogram_row("result", ha, hb)
    else:
        print("result histogram missing")
        table.mismatch("result histogram")
    if ta and tb:
        table.histogram_row("tiles_placed", ta, tb)


def cmd_compare(args):
    """0: the distributions agree, 1: a mismatch, 2: unreadable input or different games."""
    try:
        with open(args.ref) as f:
            A = json.load(f)
        with open(args.results) as f:
            B = json.load(f)
    except (OSError, ValueError) as e:
        print("compare: cannot read input: %s" % e, file=sys.stderr)
        return 2
    refusal = _refusal(A, B, args)
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    table = _Table(A.get("games"), B.get("games"))
    _print_configs(A, B, args, table)
    if not table.na or not table.nb:
        print("compare: MISMATCH (no games)")
        return 1
    _compare_rows(A, B, table)
    if table.ok:
        print("compare: OK")
        return 0
    print("mismatches: " + ", ".join(table.bad))
    print("compare: MISMATCH")
    return 1
