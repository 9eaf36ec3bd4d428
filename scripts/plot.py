#!/usr/bin/python3
"""PNG plots of carcsolo output files (needs Debian's python3-matplotlib and python3-numpy).

    scripts/plot.py FILE... [--out-dir DIR] [--time-curve]

Per input file NAME.json, by its "format":
  carcassonne-solo-results/1  NAME-hist.png   result histogram, p10/p50/p90 and mean marked
                              NAME-goals.png  goal rates with their Wilson 95% intervals
  carcassonne-solo-compare/1  NAME-hist.png   the policies' histograms overlaid
                              NAME-goals.png  each later policy's paired goal-rate difference
                                              against the first, with its paired 95% CI
  carcassonne-solo-sweep/1    NAME-curve.png  mean result (95% CI) and goal rates against
                                              meeples, one line per colour count
  carcassonne-solo-tune/1     NAME-tune.png   the tuned parameters against games used (each
                              step's estimate, the checks' points marked) above the
                              checks' gain against the start with its paired 95% CI,
                              and the verification's gain at the end
With --time-curve, a comparison file NAME.json gives NAME.png instead: strength against
time per move, the mean result and the total_60 rate of every run against its milliseconds
per move of one thread (scripts/study's mc-curve.png).
A document with a "runs" list of results documents and any other format id (a policy
table) gets NAME-hist.png like a comparison and NAME-goals.png with every policy's goal
rates and Wilson 95% intervals. Legends name each policy with only the parameters that
differ among the policies of that name shown together; where one histogram's peak is more
than three times the lowest peak, the axis is cut there and the peaks above it labelled.
Every interval drawn is read from the file; nothing is re-estimated. Prints what it wrote.
"""
import argparse
import json
import os
import sys

# Loaded by main() after the arguments are read: --help works without them, and their
# absence is one line, not a traceback.
plt = np = None


def plotting_available():
    """Loads matplotlib and numpy; False when either is missing (scripts/study_report.py
    then leaves its picture out)."""
    global plt, np
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
        import numpy
    except ImportError:
        return False
    plt, np = pyplot, numpy
    return True


def load_plotting():
    if not plotting_available():
        print("plot.py: needs matplotlib and numpy (Debian packages python3-matplotlib "
              "python3-numpy)", file=sys.stderr)
        sys.exit(2)

RESULTS = "carcassonne-solo-results/1"
COMPARE = "carcassonne-solo-compare/1"
SWEEP = "carcassonne-solo-sweep/1"
TUNE = "carcassonne-solo-tune/1"
CURVE_GOALS = ["total_40", "total_50", "total_60", "all_tiles"]
# The goals in the order of docs/rules.md (JSON objects do not keep an order).
GOALS = ["road_10", "road_10_2c", "road_10_3c", "road_5_3c", "city_16", "city_16_2c",
         "city_16_3c", "city_8_10_3c", "monastery_3", "monastery_4", "total_40", "total_50",
         "total_60", "all_tiles"]


def split_spec(spec):
    """'mc:rollouts=8,candidates=3' -> ('mc', {'rollouts': '8', 'candidates': '3'})."""
    name, _, params = spec.partition(":")
    return name, dict(p.split("=", 1) for p in params.split(",") if "=" in p)


def short_labels(specs):
    """Legend labels for policy specs plotted together: the policy's name, with only the
    parameters whose values differ among the specs of that name (the files hold the full
    spec), e.g. 'mc rollouts=2' beside 'mc rollouts=8', and 'greedy', not 'greedy(0)'."""
    parsed = [split_spec(s) for s in specs]
    out = []
    for name, params in parsed:
        same_name = [p for n, p in parsed if n == name]
        varying = [k for k in params if len({p.get(k) for p in same_name}) > 1]
        out.append(" ".join([name] + [f"{k}={params[k]}" for k in varying]))
    return out


def run_labels(runs):
    """'placement / scoring' per run, each shortened among the runs shown together."""
    placements = short_labels([r["config"]["placement_policy"] for r in runs])
    scorings = short_labels([r["config"]["scoring_policy"] for r in runs])
    return [f"{p} / {s}" for p, s in zip(placements, scorings)]


def label(run):
    return run_labels([run])[0]


def ceiling_runs(doc):
    """A ceiling file (a results document with `reference` and `against`): the reference's
    results and the policy's played on the same games, their legend labels, and a title
    with the beam width. The reference is labelled as one: it sees the stacks."""
    width = doc["ceiling"]["width"]
    against = doc["against"]["results"]
    labels = [f"reference: beam width {width:,} (sees the stacks)", label(against)]
    title = (f"clairvoyant reference, beam width {width:,} (a lower bound on each deal's optimum)\n"
             f"beside {label(against)}, {doc['games']:,} games")
    return [doc, against], labels, title


def paired_goal_differences(doc):
    """Per later policy k of a compare file: its label against the first's and, per goal
    (in GOALS order), the paired rate difference and its 95% CI, in percent."""
    labels = run_labels(doc["runs"])
    out = []
    for d in doc["differences"]:
        rows = [(g, 100 * d["goals"][g]["difference"], 100 * d["goals"][g]["ci95"][0],
                 100 * d["goals"][g]["ci95"][1]) for g in GOALS if g in d["goals"]]
        out.append((f'{labels[d["second"]]} - {labels[d["first"]]}', rows))
    return out


def clipped_ylim(peaks):
    """Histograms overlaid: a narrow distribution (random's) peaks many times higher than a
    wide one and flattens it. The axis stops where the lowest peak fills a third of it
    (1.05 times three times that peak) when a higher peak would pass that; the peaks cut
    are labelled. None when nothing needs cutting."""
    positive = [p for p in peaks if p > 0]
    if len(positive) < 2:
        return None
    top = 3 * min(positive) * 1.05
    return top if max(positive) > top else None


def bin_width(runs):
    """Integer bins, at most about 40 over the range of all the runs' results."""
    lo = min(r["result"]["min"] for r in runs)
    hi = max(r["result"]["max"] for r in runs)
    return max(1, -(-(hi - lo + 1) // 40))


def histogram(run, width, lo, hi):
    """Fractions of games per bin [lo + i*width, lo + (i+1)*width), zeros included;
    returns the bins' left edges and the fractions."""
    edges = np.arange(lo, hi + width + 1, width)
    freq = np.zeros(len(edges) - 1)
    total = max(1, run["games"])
    for v, c in run["result"]["histogram"]:
        freq[(v - lo) // width] += c / total
    return edges[:-1], freq


def ylabel(width):
    return "fraction of games" + ("" if width == 1 else f" per {width} points")


def plot_histogram(run, path):
    w = bin_width([run])
    lo = run["result"]["min"] // w * w
    left, freq = histogram(run, w, lo, run["result"]["max"])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    # Bars centred on the values they count (a bin of width 1 is the value itself).
    ax.bar(left + (w - 1) / 2, freq, width=w, color="#4c72b0", edgecolor="none")
    q = run["result"]["quantiles"]
    for key, style in (("p10", ":"), ("p50", "--"), ("p90", ":")):
        ax.axvline(q[key], color="black", linestyle=style, linewidth=1)
        ax.annotate(key, (q[key], ax.get_ylim()[1] * 0.95), ha="center", fontsize=8,
                    backgroundcolor="white")
    mean = run["result"]["mean"]
    ax.axvline(mean, color="#c44e52", linewidth=1.5, label=f"mean {mean:.2f}")
    ax.set_xlabel("result (lowest colour's final score)")
    ax.set_ylabel(ylabel(w))
    ax.set_title(f'{label(run)}: {run["games"]:,} games, {run["config"]["colors"]} colours x '
                 f'{run["config"]["meeples"]} meeples')
    ax.legend()
    save(fig, path)


def plot_overlaid(runs, path, title, labels=None):
    w = bin_width(runs)
    lo = min(r["result"]["min"] for r in runs) // w * w
    hi = max(r["result"]["max"] for r in runs)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    peaks = []
    for run, name in zip(runs, labels or run_labels(runs)):
        left, freq = histogram(run, w, lo, hi)
        x = np.append(left, left[-1] + w) - 0.5  # edges, so each step spans its bin
        y = np.append(freq, freq[-1])
        line, = ax.step(x, y, where="post", linewidth=1.5,
                        label=f'{name} (mean {run["result"]["mean"]:.2f})')
        ax.fill_between(x, y, step="post", alpha=0.15, color=line.get_color())
        ax.axvline(run["result"]["mean"], color=line.get_color(), linestyle="--", linewidth=1)
        peaks.append((freq.max(), name, left[freq.argmax()] + (w - 1) / 2, line.get_color()))
    top = clipped_ylim([p[0] for p in peaks])
    if top is not None:
        ax.set_ylim(0, top)
        row = 0
        for peak, name, at, color in peaks:
            if peak > top:
                ax.annotate(f"{name}: peak {peak:.2f} (cut)", (at, top * (0.97 - 0.06 * row)),
                            ha="left", va="top", fontsize=8, color=color)
                row += 1
    ax.set_xlabel("result (lowest colour's final score)")
    ax.set_ylabel(ylabel(w))
    ax.set_title(title)
    ax.legend(fontsize=8)
    save(fig, path)


def plot_goals(runs, path, title, labels=None):
    goals = [g for g in GOALS if g in runs[0]["goals"]]
    x = np.arange(len(goals))
    width = 0.8 / len(runs)
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for i, (run, name) in enumerate(zip(runs, labels or run_labels(runs))):
        rates = np.array([run["goals"][g]["rate"] for g in goals]) * 100
        lo = np.array([run["goals"][g]["wilson95"][0] for g in goals]) * 100
        hi = np.array([run["goals"][g]["wilson95"][1] for g in goals]) * 100
        ax.bar(x + (i - (len(runs) - 1) / 2) * width, rates, width,
               yerr=[rates - lo, hi - rates], capsize=2, label=name)
    ax.set_xticks(x, goals, rotation=45, ha="right")
    ax.set_ylabel("games achieving the goal (%), Wilson 95% interval")
    ax.set_title(title)
    if len(runs) > 1:
        ax.legend(fontsize=8)
    save(fig, path)


def plot_paired_goals(doc, path, title):
    """compare: what it exists for, the paired goal-rate differences with their 95% CIs."""
    diffs = paired_goal_differences(doc)
    goals = [g for g, *_ in diffs[0][1]]
    x = np.arange(len(goals))
    width = 0.8 / len(diffs)
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for i, (name, rows) in enumerate(diffs):
        d = np.array([r[1] for r in rows])
        lo = np.array([r[2] for r in rows])
        hi = np.array([r[3] for r in rows])
        ax.bar(x + (i - (len(diffs) - 1) / 2) * width, d, width, yerr=[d - lo, hi - d], capsize=2,
               label=name)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, goals, rotation=45, ha="right")
    ax.set_ylabel("rate difference (% points), paired 95% CI")
    ax.set_title(title)
    ax.legend(fontsize=8)
    save(fig, path)


def plot_sweep(doc, path):
    runs = doc["runs"]
    colors = sorted({r["config"]["colors"] for r in runs})
    fig = plt.figure(figsize=(13, 7))
    grid = fig.add_gridspec(2, 3)
    axes = [fig.add_subplot(grid[:, 0])] + [fig.add_subplot(grid[i // 2, 1 + i % 2])
                                             for i in range(len(CURVE_GOALS))]
    for k in colors:
        rs = sorted((r for r in runs if r["config"]["colors"] == k),
                    key=lambda r: r["config"]["meeples"])
        m = [r["config"]["meeples"] for r in rs]
        mean = np.array([r["result"]["mean"] for r in rs])
        lo = np.array([r["result"]["ci95"][0] for r in rs])
        hi = np.array([r["result"]["ci95"][1] for r in rs])
        axes[0].errorbar(m, mean, yerr=[mean - lo, hi - mean], marker="o", capsize=3,
                         label=f"{k} colours")
        for ax, g in zip(axes[1:], CURVE_GOALS):
            rate = np.array([r["goals"][g]["rate"] for r in rs]) * 100
            glo = np.array([r["goals"][g]["wilson95"][0] for r in rs]) * 100
            ghi = np.array([r["goals"][g]["wilson95"][1] for r in rs]) * 100
            ax.errorbar(m, rate, yerr=[rate - glo, ghi - rate], marker="o", capsize=3,
                        label=f"{k} colours")
    axes[0].set_title("mean result (95% CI)")
    axes[0].set_ylabel("result")
    for ax, g in zip(axes[1:], CURVE_GOALS):
        ax.set_title(f"{g} (%, Wilson 95%)")
        ax.set_ylabel("games achieving it (%)")
    for ax in axes:
        ax.set_xlabel("meeples per colour")
        ax.legend(fontsize=8)
    fig.suptitle(sweep_title(doc))
    save(fig, path)


def wrap_spec(spec, width):
    """A policy spec broken after commas into lines of at most `width` characters (a
    longer single parameter alone on its line)."""
    lines, line = [], ""
    for item in spec.split(","):
        if line and len(line) + 1 + len(item) > width - 1:  # room for the comma
            lines.append(line + ",")
            line = item
        else:
            line = f"{line},{item}" if line else item
    return "\n".join(lines + [line])


def sweep_title(doc, width=110):
    """A sweep's title: the placement spec as the file's config records it, every
    parameter (the policy's name alone hid which setting played: the cheap search with the
    learned value at its leaves was titled 'search'), wrapped after commas, then the
    scoring order and the games per option."""
    c = doc["config"]
    return (wrap_spec(f'difficulty: {c["placement_policy"]} / {c["scoring_policy"]}', width)
            + f', {c["games"]:,} games per option')


def ms_per_move(run):
    """Milliseconds of one thread per move: the run's threads were busy for its seconds."""
    perf = run["performance"]
    moves = run["games"] * run["tiles_placed"]["mean"]
    return 1000 * perf["seconds"] * perf["threads"] / moves if moves else 0


def point_labels(specs, width=24):
    """Per placement spec: the parameters whose values differ among the specs of its name
    (as short_labels picks them), comma-separated and wrapped after a comma into lines of
    at most `width` characters (a single longer parameter alone on its line), so a label
    stays narrow beside its point."""
    parsed = [split_spec(s) for s in specs]
    out = []
    for name, params in parsed:
        same_name = [p for n, p in parsed if n == name]
        items = [f"{k}={params[k]}" for k in params if len({p.get(k) for p in same_name}) > 1]
        out.append(wrap_spec(",".join(items), width))
    return out


def plot_time_curve(doc, path):
    save(time_curve_figure(doc), path)


def time_curve_figure(doc):
    """Strength against time per move (a comparison of policies at rising budgets): mean
    result and total_60 rate of each run against its milliseconds per move, one line per
    policy name, each point labelled with the parameters that tell it from the others of
    its name (wrapped, above and to the left of the point, inside the panel)."""
    runs = doc["runs"]
    specs = [r["config"]["placement_policy"] for r in runs]
    names = [split_spec(s)[0] for s in specs]
    labels = point_labels(specs)
    xs = [max(ms_per_move(r), 1e-3) for r in runs]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    panels = ((lambda r: r["result"]["mean"], lambda r: r["result"]["ci95"],
               "mean result (95% CI)", "mean result"),
              (lambda r: 100 * r["goals"]["total_60"]["rate"],
               lambda r: [100 * v for v in r["goals"]["total_60"]["wilson95"]],
               "games reaching total_60, % (Wilson 95%)", "total_60"))
    for ax, (value, ci, ylabel, title) in zip(axes, panels):
        for name in dict.fromkeys(names):
            idx = sorted((i for i, n in enumerate(names) if n == name), key=lambda i: xs[i])
            ys = [value(runs[i]) for i in idx]
            err = [[y - ci(runs[i])[0] for i, y in zip(idx, ys)],
                   [ci(runs[i])[1] - y for i, y in zip(idx, ys)]]
            ax.errorbar([xs[i] for i in idx], ys, yerr=err, marker="o", capsize=3, label=name)
            for i, y in zip(idx, ys):
                if labels[i]:
                    # Above and to the left first: the line of a policy that gets stronger
                    # with time runs up to the right of its points, the weaker ones lie
                    # below. Moved by place_labels when that covers another point.
                    ax.annotate(labels[i], (xs[i], y), textcoords="offset points", xytext=(-6, 4),
                                ha="right", va="bottom", fontsize=7, linespacing=1.1)
        ax.set_xscale("log")
        # Room for the labels: a decade left of a labelled leftmost point, an eighth more
        # above the highest value (errorbars included).
        leftmost = min(range(len(xs)), key=lambda i: xs[i])
        ax.set_xlim(xs[leftmost] / (10 if labels[leftmost] else 2), max(xs) * 3)
        lo, hi = ax.get_ylim()
        ax.set_ylim(lo, hi + (hi - lo) / 8)
        ax.set_xlabel("milliseconds per move (one thread)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{title} against time per move")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper left")
    c = doc["config"]
    fig.suptitle(f'strength against time per move: {c["games"]:,} games of seed {c["seed"]}, '
                 f'scoring {split_spec(runs[0]["config"]["scoring_policy"])[0]}')
    fig.tight_layout()
    for ax in axes:
        place_labels(fig, ax)
    return fig


# Where a point's label may go, in the order tried: offset in points and alignment.
LABEL_PLACES = (((-6, 4), "right", "bottom"), ((6, -4), "left", "top"),
                ((6, 4), "left", "bottom"), ((-6, -4), "right", "top"))


def place_labels(fig, ax):
    """Moves each point label of `ax` to the first of LABEL_PLACES where it covers no point
    and no label placed before it, and stays inside the panel (the first place when none
    does)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = ax.get_window_extent(renderer)
    points = [ax.transData.transform(xy) for line in ax.get_lines()
              for xy in zip(*line.get_data()) if line.get_marker() == "o"]

    placed = []  # the boxes of the labels placed so far

    def fits(tb):
        inside = (tb.x0 >= box.x0 and tb.x1 <= box.x1 and tb.y0 >= box.y0 and tb.y1 <= box.y1)
        return (inside and not any(tb.x0 < x < tb.x1 and tb.y0 < y < tb.y1 for x, y in points)
                and not any(tb.overlaps(other) for other in placed))

    for text in ax.texts:
        for offset, ha, va in LABEL_PLACES:
            text.set_position(offset)
            text.set_ha(ha)
            text.set_va(va)
            if fits(text.get_window_extent(renderer)):
                break
        else:
            offset, ha, va = LABEL_PLACES[0]
            text.set_position(offset)
            text.set_ha(ha)
            text.set_va(va)
        placed.append(text.get_window_extent(renderer))


def tune_line(steps, checks, key, start):
    """One tuned parameter's line against games used, and its checks' marks on it. The line
    goes through each step's estimate at the games used after the step and, where a check
    follows the step, stays level to the games used after the check (the estimate does not
    move while the check plays). A check's mark is that level point: the games its gain is
    drawn at below, and the estimate it played (unrounded, as the line is; the trajectory
    file's `params` round a whole-number parameter). Returns xs, ys, [(x, y) per check]."""
    after = {t["step"]: t for t in checks}
    xs, ys, marks = [0], [start], []
    if 0 in after:
        marks.append((0, start))
    for s in steps:
        y = s["theta"][key]
        xs.append(s["games"])
        ys.append(y)
        t = after.get(s["step"])
        if t is not None and s["step"] > 0:
            xs.append(t["games"])
            ys.append(y)
            marks.append((t["games"], y))
    return xs, ys, marks


def plot_tune(doc, path):
    """A tune trajectory: each parameter (as a share of its range) against games used, then
    the checks' gain against the start with its paired 95% CI (and the verification's)."""
    params = doc["params"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    steps = doc["steps"]
    checks = doc["trajectory"]
    for p in params:
        lo, hi = p["lo"], p["hi"]
        xs, ys, marks = tune_line(steps, checks, p["key"], p["start"])
        line, = top.plot(xs, [(y - lo) / (hi - lo) for y in ys], lw=1.2,
                         label="%s in [%g, %g]: %g -> %g" % (p["key"], lo, hi, p["start"],
                                                             doc["final"]["params"][p["key"]]))
        top.plot([x for x, _ in marks], [(y - lo) / (hi - lo) for _, y in marks],
                 "o", color=line.get_color(), ms=4, zorder=3)  # above every line
    top.set_ylabel("parameter, share of its range")
    top.set_ylim(-0.02, 1.02)
    top.legend(fontsize=8)
    # The scoring order too: the games' results, and so the tuned point, depend on it.
    c = doc["config"]
    top.set_title("tune %s: %s, scoring %s, %s games (seed %d)"
                  % (doc["status"], c["placement_start"].split(":")[0], c["scoring_policy"],
                     "{:,}".format(doc["games"]), c["seed"]))
    checks = [t for t in doc["trajectory"] if t["gain"]]
    if checks:
        xs = [t["games"] for t in checks]
        m = np.array([t["gain"]["mean"] for t in checks])
        lo = np.array([t["gain"]["ci95"][0] for t in checks])
        hi = np.array([t["gain"]["ci95"][1] for t in checks])
        bottom.errorbar(xs, m, yerr=[m - lo, hi - m], fmt="o-", capsize=3,
                        label="check: %d paired games of the tuning seed" % checks[0]["gain"]["games"])
    if "verify" in doc:
        v = doc["verify"]["difference"]
        x = doc["games"] * 1.03
        bottom.errorbar([x], [v["mean"]], yerr=[[v["mean"] - v["ci95"][0]], [v["ci95"][1] - v["mean"]]],
                        fmt="s", color="black", capsize=3,
                        label="verification: %d paired games of seed %d" % (v["games"], doc["verify"]["seed"]))
    bottom.axhline(0, color="grey", lw=0.8)
    bottom.set_xlabel("games used")
    bottom.set_ylabel("gain over the start (points, 95% CI)")
    bottom.legend(fontsize=8)
    save(fig, path)


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)


def plot_file(path, out_dir, time_curve=False):
    with open(path) as f:
        doc = json.load(f)
    stem = os.path.join(out_dir or os.path.dirname(path) or ".",
                        os.path.splitext(os.path.basename(path))[0])
    fmt = doc.get("format")
    if time_curve:
        if fmt != COMPARE:
            raise ValueError(f"{path}: --time-curve needs a comparison file")
        plot_time_curve(doc, stem + ".png")
    elif fmt == RESULTS and "reference" in doc and "against" in doc:
        runs, labels, title = ceiling_runs(doc)
        plot_overlaid(runs, stem + "-hist.png", title, labels)
        plot_goals(runs, stem + "-goals.png", "goal rates of the " + title, labels)
    elif fmt == RESULTS:
        plot_histogram(doc, stem + "-hist.png")
        plot_goals([doc], stem + "-goals.png", f"goal rates: {label(doc)}, {doc['games']:,} games")
    elif fmt == SWEEP:
        plot_sweep(doc, stem + "-curve.png")
    elif fmt == TUNE:
        plot_tune(doc, stem + "-tune.png")
    elif isinstance(doc.get("runs"), list) and doc["runs"] and \
            all(r.get("format") == RESULTS for r in doc["runs"]):
        games = doc["runs"][0]["games"]
        what = "comparison" if fmt == COMPARE else "policies"
        plot_overlaid(doc["runs"], stem + "-hist.png", f"{what}: {games:,} games each")
        if fmt == COMPARE:
            plot_paired_goals(doc, stem + "-goals.png",
                              f"goal rates against the first policy, {games:,} paired games")
        else:
            plot_goals(doc["runs"], stem + "-goals.png", f"goal rates, {games:,} games each")
    else:
        raise ValueError(f"{path}: not a carcsolo results, comparison, sweep or tune file")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="results, compare, sweep or tune JSON files")
    ap.add_argument("--out-dir", help="where the PNGs go (default: next to each file)")
    ap.add_argument("--time-curve", action="store_true",
                    help="instead: NAME.png, strength against time per move of a comparison "
                         "(scripts/study's mc-curve.png)")
    args = ap.parse_args()
    load_plotting()
    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
    for path in args.files:
        try:
            plot_file(path, args.out_dir, args.time_curve)
        except (OSError, ValueError, KeyError) as e:
            print(f"plot.py: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
