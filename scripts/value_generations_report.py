#!/usr/bin/python3
"""The strength-against-time table and plot of the learned value's generations
(results/value-generations.md, results/value-generations.png) from the compare files of
scripts/value_generations:

  scripts/value_generations_report.py results/value-generations GENERATIONS [--plot] > results/value-generations.md

--plot also draws results/value-generations.png (matplotlib); the table is the same without it.

Each eval-genK.json is one `compare` (the same games for every player; `search` first). A
player's time per move is its run's seconds x threads / (mean tiles placed x games); the
ratio is to `search` in the same file, so the machine's speed on the day cancels out.
"""
import json
import os
import sys


def short(spec):
    """The spec as summaries print it: the name and the parameters off their defaults."""
    defaults = {"search": ("candidates=200,filter=1,beam=10,rollouts=24,turns=6,halving=1,low=0.5,mean=0.5,"
                           "meeple=2,empty=6,balance=12,one=1,urgent=5,absorb=10,absorb_empty=1,sink=0.25,"
                           "compact=0.3,share=0,horizon=3,points_horizon=30,road_q=0.95,city_q=0.82,"
                           "monastery_q=0.75").split(","),
                "value": ["candidates=10", "replies=2"]}
    name, _, params = spec.partition(":")
    keep = [p for p in params.split(",") if p and p not in defaults.get(name, [])]
    return name + (":" + ",".join(keep) if keep else "")


def rows_of(path):
    d = json.load(open(path))
    runs = d["runs"]
    out = []
    ms = []
    for r in runs:
        perf = r["performance"]
        moves = r["tiles_placed"]["mean"] * r["games"]
        ms.append(perf["seconds"] * perf["threads"] * 1000.0 / moves)
    diffs = {x["second"]: x for x in d["differences"] if x["first"] == 0}
    for i, r in enumerate(runs):
        res = r["result"]
        goals = r["goals"].get("total_60", {})
        row = {"spec": short(r["config"]["placement_policy"]), "mean": res["mean"], "ci": res["ci95"],
               "ms": ms[i], "ratio": ms[i] / ms[0], "games": r["games"],
               "total_60": goals.get("rate") if isinstance(goals, dict) else None}
        if i in diffs:
            row["diff"] = diffs[i]["mean"]
            row["diff_ci"] = diffs[i]["ci95"]
        out.append(row)
    net = d["config"].get("value_net", {}) or {}
    return out, net, d


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--plot"):
        print(__doc__)
        return 2
    folder, gens, plot = sys.argv[1], int(sys.argv[2]), len(sys.argv) == 4
    table = []
    for k in range(0, gens + 1):
        path = os.path.join(folder, "eval-gen%d.json" % k)
        if not os.path.exists(path):
            break
        rows, net, doc = rows_of(path)
        table.append((k, rows, net, doc))
    if not table:
        print("no eval-gen0.json in " + folder, file=sys.stderr)
        return 2
    first_doc = table[0][3]
    cmd = " ".join(first_doc["performance"]["command_line"])
    print("# The learned value by generation: strength against time\n")
    print("Written by `scripts/value_generations` (expert iteration: `search:leaf=1` plays with the")
    print("previous generation's net at its leaves, every decision is written with the board block and")
    print("search's own value of its move, and every other move of its beam with search's value of it; the")
    print("next net is fitted to the last two generations' data: the moves played to the mean of the result")
    print("and search's value, the other moves to search's value; generation 0 is the built-in net, fitted on")
    print("heuristic games). The data, nets and measurements: `results/value-generations/`; the commands are")
    print("in the script, each file's `performance.command_line` and each net's `info` lines. Each generation is measured in")
    print("one `compare` of %d games of seed %s at 3 colours x 4 meeples, scoring `best`, a seed no"
          % (table[0][1][0]["games"], first_doc["config"]["seed"] if "seed" in first_doc["config"] else "?"))
    print("generation trained on; ms per move = the run's seconds x threads x 1000 / (mean tiles x games),")
    print("the ratio is to `search` in the same run. The paired difference is against `search` on the same")
    print("games (95% CI).\n")
    print("The generation-0 command (the others add `--value-net results/value-generations/genK.net`):\n")
    print("```sh\n%s\n```\n" % cmd)
    print("| generation | net | player | mean (95% CI) | ms per move | x search | paired difference to `search` (95% CI) |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for k, rows, net, _ in table:
        for r in rows:
            diff = ("%+.2f (%+.2f, %+.2f)" % (r["diff"], r["diff_ci"][0], r["diff_ci"][1])) if "diff" in r else ""
            print("| %d | %s | `%s` | %.2f (%.2f-%.2f) | %.2f | %.3fx | %s |" %
                  (k, net.get("hash", "?")[:8], r["spec"], r["mean"], r["ci"][0], r["ci"][1], r["ms"], r["ratio"], diff))
    print()
    # The bars: the best player within 1/10 and within 1x of `search`'s time, generation by generation.
    print("Best player within 1/10 and within 1x of `search`'s time, by generation:\n")
    print("| generation | best at <= 0.1x (mean) | best at <= 1x other than `search` (mean, paired difference) |")
    print("|---:|---|---|")
    for k, rows, _, _ in table:
        cheap = [r for r in rows[1:] if r["ratio"] <= 0.1]
        strong = [r for r in rows[1:] if r["ratio"] <= 1.0]
        c = max(cheap, key=lambda r: r["mean"]) if cheap else None
        s = max(strong, key=lambda r: r["mean"]) if strong else None
        print("| %d | %s | %s |" % (
            k, "`%s` %.2f" % (c["spec"], c["mean"]) if c else "none",
            "`%s` %.2f, %+.2f (%+.2f, %+.2f)" % (s["spec"], s["mean"], s["diff"], s["diff_ci"][0], s["diff_ci"][1])
            if s else "none"))
    first = os.path.join(folder, "chosen-only", "eval-gen1.json")
    if os.path.exists(first):
        rows, net, doc = rows_of(first)
        print("\nThe first attempt (kept in `chosen-only/`): generation 1 fitted on the moves played only, 3,000")
        print("games of `search:leaf=1` with the built-in net, `--board` without `--candidates`, 12 epochs, the")
        print("same measurement (generation 0's figures are the same games as above):\n")
        print("| generation | net | player | mean (95% CI) | ms per move | x search | paired difference to `search` (95% CI) |")
        print("|---:|---|---|---:|---:|---:|---:|")
        for r in rows:
            diff = ("%+.2f (%+.2f, %+.2f)" % (r["diff"], r["diff_ci"][0], r["diff_ci"][1])) if "diff" in r else ""
            print("| 1 (moves played only) | %s | `%s` | %.2f (%.2f-%.2f) | %.2f | %.3fx | %s |" %
                  (net.get("hash", "?")[:8], r["spec"], r["mean"], r["ci"][0], r["ci"][1], r["ms"], r["ratio"], diff))
    options = []
    for name in ("4x3", "3x6"):
        path = os.path.join(folder, "options-%s.json" % name)
        if os.path.exists(path):
            rows, net, doc = rows_of(path)
            options.append((name, rows, net))
    if options:
        print("\nThe other options, with generation %d's net (one net for all: colours and meeples are among its"
              % gens)
        print("inputs), %d games each on the same seed, paired against `search`:\n" % options[0][1][0]["games"])
        print("| colours x meeples | net | player | mean (95% CI) | ms per move | x search | paired difference to `search` (95% CI) |")
        print("|---|---|---|---:|---:|---:|---:|")
        for name, rows, net in options:
            for r in rows:
                diff = ("%+.2f (%+.2f, %+.2f)" % (r["diff"], r["diff_ci"][0], r["diff_ci"][1])) if "diff" in r else ""
                print("| %s | %s | `%s` | %.2f (%.2f-%.2f) | %.2f | %.3fx | %s |" %
                      (name.replace("x", " x "), net.get("hash", "?")[:8], r["spec"], r["mean"], r["ci"][0],
                       r["ci"][1], r["ms"], r["ratio"], diff))
    print("\n![strength against time by generation](value-generations.png)")
    if not plot:
        return 0
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for k, rows, _, _ in table:  # the searches with the net at the leaves as a line, the 1-ply value apart
        pts = sorted((r["ratio"], r["mean"]) for r in rows[1:] if r["spec"].startswith("search"))
        line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                        label="generation %d: search with the net at the leaves" % k)
        ones = [(r["ratio"], r["mean"]) for r in rows[1:] if r["spec"].startswith("value")]
        ax.plot([p[0] for p in ones], [p[1] for p in ones], marker="s", linestyle="none", color=line.get_color(),
                label="generation %d: value:expect=1" % k)
    ax.axhline(table[0][1][0]["mean"], color="grey", linestyle="--", label="search (generation 0's run)")
    ax.set_xscale("log")
    ax.set_xlabel("time per move, x search's")
    ax.set_ylabel("mean result (3 x 4, %d games)" % table[0][1][0]["games"])
    ax.set_title("The learned value by generation: strength against time")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(os.path.dirname(os.path.abspath(folder)), "value-generations.png"), dpi=110,
                metadata={"Software": None})
    return 0


if __name__ == "__main__":
    sys.exit(main())
