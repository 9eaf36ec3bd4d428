"""ctest: scripts/plot.py draws a tune trajectory (results/tuning/bar.json) as NAME-tune.png:
one line per tuned parameter, labelled with its range and its start and final values, and
the checks' gains with the intervals read from the file. Exit 77 (skipped) without
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
    labels = [t.get_text() for t in top.get_legend().get_texts()]
    assert labels == ["absorb in [0, 20]: 2 -> %g" % doc["final"]["params"]["absorb"],
                      "meeple in [0, 4]: 0.5 -> %g" % doc["final"]["params"]["meeple"]], labels
    # the checks' means, as in the file
    line = bottom.get_lines()[0]
    checks = [t for t in doc["trajectory"] if t["gain"]]
    assert list(line.get_ydata()) == [t["gain"]["mean"] for t in checks], line.get_ydata()
    assert list(line.get_xdata()) == [t["games"] for t in checks]
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
