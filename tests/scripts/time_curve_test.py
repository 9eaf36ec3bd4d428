"""ctest: scripts/plot.py --time-curve (results/mc-curve.png) keeps every point label and
legend inside its panel and off the points, on the study's own file and on one whose
labelled point is the leftmost, and writes NAME.png. Exit 77 (skipped) without matplotlib.

Usage: time_curve_test.py PLOT_PY MC_CURVE_JSON
"""
import copy
import importlib.util
import json
import os
import subprocess
import sys
import tempfile


def load(path):
    spec = importlib.util.spec_from_file_location("plot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def inside(inner, outer):
    return (inner.x0 >= outer.x0 - 0.5 and inner.x1 <= outer.x1 + 0.5 and
            inner.y0 >= outer.y0 - 0.5 and inner.y1 <= outer.y1 + 0.5)


def check_layout(plot, doc, what):
    fig = plot.time_curve_figure(doc)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    labelled = 0
    for ax in fig.axes:
        box = ax.get_window_extent(renderer)
        points = [ax.transData.transform(xy) for line in ax.get_lines()
                  for xy in zip(*line.get_data()) if line.get_marker() == "o"]
        for text in ax.texts:
            tb = text.get_window_extent(renderer)
            check(inside(tb, box), f"{what}: label {text.get_text()!r} runs out of its panel: {tb} not in {box}")
            for x, y in points:
                check(not (tb.x0 < x < tb.x1 and tb.y0 < y < tb.y1),
                      f"{what}: label {text.get_text()!r} covers the point at {x:.0f},{y:.0f}")
            labelled += 1
        legend = ax.get_legend().get_window_extent(renderer)
        check(inside(legend, box), f"{what}: the legend runs out of its panel")
    check(labelled == 2 * sum(1 for lab in plot.point_labels(
        [r["config"]["placement_policy"] for r in doc["runs"]]) if lab), f"{what}: a label is missing")
    plot.plt.close(fig)


def main():
    plot_py, curve = sys.argv[1], sys.argv[2]
    plot = load(plot_py)
    if not plot.plotting_available():
        print("SKIP: matplotlib and numpy are not installed (Debian packages python3-matplotlib python3-numpy)")
        sys.exit(77)
    with open(curve) as f:
        doc = json.load(f)
    check_layout(plot, doc, "the study's curve")
    # Without the unlabelled heuristic, the leftmost point carries a label.
    no_heuristic = copy.deepcopy(doc)
    keep = [i for i, r in enumerate(doc["runs"]) if not r["config"]["placement_policy"].startswith("heuristic")]
    no_heuristic["runs"] = [doc["runs"][i] for i in keep]
    check(len(no_heuristic["runs"]) >= 2, "the study's curve has runs besides the heuristic")
    check_layout(plot, no_heuristic, "a curve without the heuristic")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "curve.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        r = subprocess.run([sys.executable, plot_py, "--time-curve", path], capture_output=True, text=True)
        check(r.returncode == 0 and r.stdout.strip() == os.path.join(d, "curve.png"), f"plot.py: {r}")
        with open(os.path.join(d, "curve.png"), "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", "curve.png is a PNG")
        r = subprocess.run([sys.executable, plot_py, "--time-curve", os.path.join(os.path.dirname(curve), "headline.json")],
                           capture_output=True, text=True)
        check(r.returncode == 1 and "--time-curve needs a comparison file" in r.stderr, f"a results file: {r}")
    print("ok")


if __name__ == "__main__":
    main()
