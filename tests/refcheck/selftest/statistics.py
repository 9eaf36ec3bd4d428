"""The comparison's own arithmetic and refusals: chi-square tail probabilities against
known values, and `compare` refusing summaries of different games."""

import argparse
import contextlib
import io
import json
import math
import os
import tempfile

from ..compare import chi2_sf, cmd_compare


def chi2(expect):
    expect("chi2 sf df2", abs(chi2_sf(2.0, 2) - math.exp(-1)) < 1e-12, chi2_sf(2.0, 2))
    expect("chi2 sf df1", abs(chi2_sf(3.841458820694124, 1) - 0.05) < 1e-9,
           chi2_sf(3.841458820694124, 1))
    expect("chi2 sf df10", abs(chi2_sf(18.307038053275146, 10) - 0.05) < 1e-9,
           chi2_sf(18.307038053275146, 10))
    # even df: Q(n, x) = exp(-x) * sum_{i<n} x^i / i!
    for xx, df in ((100.0, 80), (30.0, 40), (7.5, 4), (300.0, 200)):
        exact = math.exp(-xx / 2) * sum((xx / 2) ** i / math.factorial(i) for i in range(df // 2))
        expect("chi2 sf x=%g df=%d" % (xx, df),
               abs(chi2_sf(xx, df) - exact) < 1e-10 * max(1, exact), (chi2_sf(xx, df), exact))


def compare_refusals(expect):
    """Different tile sets or large-meeple settings: exit 2 and one line; the same
    options spelled out or left to their defaults: compared (here 1, no histograms)."""
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
