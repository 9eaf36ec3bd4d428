"""ctest: what scripts/plot.py puts in its legends, axes and titles, mostly without drawing
(matplotlib is loaded only to draw): legend labels keep only the parameters that tell
policies apart, compare's goal plot is of the paired differences in the file, a narrow
histogram's peak is cut so the wide ones stay readable, the strength-against-time curve's
point labels are wrapped into narrow lines, and a sweep's title names its whole placement
spec (checked on a drawn figure too when matplotlib is there).

Usage: plot_legends_test.py PLOT_PY
"""
import importlib.util
import sys


def load(path):
    spec = importlib.util.spec_from_file_location("plot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def main():
    plot = load(sys.argv[1])
    check(plot.plt is None, "matplotlib must not be loaded before drawing")
    labels = plot.short_labels(["mc:rollouts=8,candidates=3,rollout=1", "greedy:snug=0",
                                "mc:rollouts=2,candidates=3,rollout=1", "heuristic:low=0.5,mean=0.5"])
    check(labels == ["mc rollouts=8", "greedy", "mc rollouts=2", "heuristic"], f"labels {labels}")
    run = {"config": {"placement_policy": "greedy:snug=0", "scoring_policy": "best"}}
    check(plot.label(run) == "greedy / best", f"label {plot.label(run)}")

    goals = {g: {"difference": 0.0, "ci95": [0.0, 0.0]} for g in plot.GOALS}
    goals["total_40"] = {"difference": 0.12, "ci95": [0.10, 0.14]}
    doc = {"runs": [{"config": {"placement_policy": p, "scoring_policy": "best"}}
                    for p in ("heuristic:low=0.5", "mc:rollouts=8")],
           "differences": [{"first": 0, "second": 1, "goals": goals}]}
    (name, rows), = plot.paired_goal_differences(doc)
    check(name == "mc / best - heuristic / best", f"difference label {name}")
    check([r[0] for r in rows] == plot.GOALS, "every goal in the rules' order")
    row = dict((r[0], r[1:]) for r in rows)["total_40"]
    check(all(abs(a - b) < 1e-9 for a, b in zip(row, (12.0, 10.0, 14.0))), f"total_40 {row}")

    ceiling = {"games": 50, "reference": "...", "ceiling": {"width": 1024},
               "config": {"placement_policy": "ceiling:width=1024", "scoring_policy": "best"},
               "against": {"results": {"config": {"placement_policy": "search:beam=10",
                                                  "scoring_policy": "best"}}}}
    runs, names, title = plot.ceiling_runs(ceiling)
    check(runs == [ceiling, ceiling["against"]["results"]], "a ceiling file: the reference and the policy")
    check(names == ["reference: beam width 1,024 (sees the stacks)", "search / best"], f"names {names}")
    check("width 1,024" in title and "search / best" in title and "lower bound" in title, f"title {title}")
    # The strength-against-time curve labels each point with what tells it from the others
    # of its name, wrapped into narrow lines (the full specs ran out of the panel).
    heuristic = "heuristic:low=0.5,mean=0.5,meeple=2"
    cheap = "search:candidates=10,filter=0,beam=8,rollouts=10,turns=3,halving=0,low=0.5,mean=0.5"
    default = "search:candidates=200,filter=1,beam=10,rollouts=24,turns=6,halving=1,low=0.5,mean=0.5"
    labels = plot.point_labels([heuristic, "mc:rollouts=2,candidates=3", "mc:rollouts=64,candidates=3",
                                cheap, default])
    check(labels[:3] == ["", "rollouts=2", "rollouts=64"], f"point labels {labels[:3]}")
    check(labels[4] == "candidates=200,filter=1,\nbeam=10,rollouts=24,\nturns=6,halving=1",
          f"wrapped label {labels[4]!r}")
    for lab in labels:
        check(all(len(line) <= 24 for line in lab.split("\n")), f"a line over 24 characters: {lab!r}")
    check(labels[3].replace("\n", "") == "candidates=10,filter=0,beam=8,rollouts=10,turns=3,halving=0",
          f"every differing parameter, in the spec's order: {labels[3]!r}")
    run = {"games": 10, "tiles_placed": {"mean": 50.0}, "performance": {"seconds": 2.0, "threads": 2}}
    check(abs(plot.ms_per_move(run) - 8.0) < 1e-12, "thread-milliseconds per move")

    check(plot.clipped_ylim([0.48, 0.25, 0.075, 0.065]) is not None, "random's peak must be cut")
    check(abs(plot.clipped_ylim([0.48, 0.25, 0.075, 0.065]) - 3 * 0.065 * 1.05) < 1e-12, "cut height")
    check(plot.clipped_ylim([0.08, 0.07]) is None, "similar peaks need no cut")

    # A sweep's title names the setting that played, every parameter of the file's spec
    # ('search / best' alone would not tell the cheap search from one with the learned value
    # at its leaves), wrapped after commas.
    strong = cheap + ",horizon=3,points_horizon=30,road_q=0.95,city_q=0.82,monastery_q=0.75,leaf=1"
    sweep = {"config": {"placement_policy": strong, "scoring_policy": "best", "games": 1000},
             "runs": []}
    title = plot.sweep_title(sweep)
    check(title.replace("\n", "") == f"difficulty: {strong} / best, 1,000 games per option",
          f"sweep title {title!r}")
    check(title.count("\n") >= 1 and all(len(line) <= 110 for line in title.split("\n")[:-1]),
          f"the sweep title wrapped: {title!r}")
    # ... and it is the title drawn (when matplotlib is here to draw it).
    if plot.plotting_available():
        drawn = []
        plot.save = lambda fig, path: drawn.append(fig)
        run = {"config": {"colors": 3, "meeples": 4},
               "result": {"mean": 48.75, "ci95": [47.57, 49.93]},
               "goals": {g: {"rate": 0.5, "wilson95": [0.4, 0.6]} for g in plot.CURVE_GOALS}}
        sweep["runs"] = [run]
        plot.plot_sweep(sweep, "unused.png")
        (fig,) = drawn
        check(fig._suptitle is not None and fig._suptitle.get_text() == title,
              f"drawn title {fig._suptitle and fig._suptitle.get_text()!r}")
    print("ok")


if __name__ == "__main__":
    main()
