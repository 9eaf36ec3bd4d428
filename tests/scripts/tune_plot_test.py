"""ctest: scripts/plot.py draws a tune trajectory (results/tuning/bar.json) as NAME-tune.png:
one line per tuned parameter, labelled with its range and its start and final values, with
each check marked on the line at the games of its gain, and the checks' gains with the
intervals read from the file. Exit 77 (skipped) without
matplotlib.

Usage: tune_plot_test.py PLOT_PY TUNE_JSON
"""
import importlib.util
import json
import os
import sys
import tempfile


def main():
    spec = importlib.util.spec_from_file_location("plot", sys.argv[1])
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)
    if not plot.plotting_available():
        print("SKIP: no matplotlib")
        return 77
    with open(sys.argv[2]) as f:
        doc = json.load(f)
    drawn = []
    plot.save = lambda fig, path: drawn.append((fig, path))  # keep the figure to look at it
    with tempfile.TemporaryDirectory() as d:
        plot.plot_file(sys.argv[2], d)
    (fig, path), = drawn
    assert path.endswith("bar-tune.png"), path
    top, bottom = fig.axes[:2]
    # the title names the scoring order the games were played in (bar.json: random)
    title = top.get_title()
    check_scoring = "scoring %s," % doc["config"]["scoring_policy"]
    assert check_scoring in title, title
    labels = [t.get_text() for t in top.get_legend().get_texts()]
    assert labels == ["absorb in [0, 20]: 2 -> %g" % doc["final"]["params"]["absorb"],
                      "meeple in [0, 4]: 0.5 -> %g" % doc["final"]["params"]["meeple"]], labels
    # the checks' means, as in the file
    line = bottom.get_lines()[0]
    checks = [t for t in doc["trajectory"] if t["gain"]]
    assert list(line.get_ydata()) == [t["gain"]["mean"] for t in checks], line.get_ydata()
    assert list(line.get_xdata()) == [t["games"] for t in checks]
    # Each parameter's check marks lie on its line, at the games of the check's gain below,
    # and at the estimate of the step the check followed (as a share of the range).
    lines = [l for l in top.get_lines() if l.get_marker() in ("None", "", None)]
    marks = [l for l in top.get_lines() if l.get_marker() == "o"]
    assert len(lines) == len(marks) == len(doc["params"]), (len(lines), len(marks))
    theta = {s["step"]: s["theta"] for s in doc["steps"]}
    for p, l, m in zip(doc["params"], lines, marks):
        lo, hi = p["lo"], p["hi"]
        on_line = set(zip(l.get_xdata(), l.get_ydata()))
        assert len(m.get_xdata()) == len(doc["trajectory"]), (p["key"], len(m.get_xdata()))
        for t, x, y in zip(doc["trajectory"], m.get_xdata(), m.get_ydata()):
            assert (x, y) in on_line, (p["key"], t["step"], x, y)
            assert x == t["games"], (p["key"], t["step"], x, t["games"])
            want = theta[t["step"]][p["key"]] if t["step"] else p["start"]
            assert abs(y - (want - lo) / (hi - lo)) < 1e-12, (p["key"], t["step"], y, want)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
