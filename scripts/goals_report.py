#!/usr/bin/env python3
"""results/goals.md (and its plot) from the goals study's files (scripts/goals_study).

    goals_report.py DIR POLICIES_JSON PLOT.png > results/goals.md

DIR holds compare-3x4.json (search for the score, then aimed at each of the 14 goals, then
at `goals`, on the same deals), ceiling-GOAL.json (the aimed clairvoyant ceiling: a
REFERENCE THAT CHEATS) and compare-3xM.json (the rarest goals at other meeple counts).
POLICIES_JSON is results/policies.json (the heuristic's goal rates). Every figure is read
from those files; the commands that made them are printed from performance.command_line.
"""
import json
import os
import sys

GOALS = ["road_10", "road_10_2c", "road_10_3c", "road_5_3c", "city_16", "city_16_2c",
         "city_16_3c", "city_8_10_3c", "monastery_3", "monastery_4", "total_40", "total_50",
         "total_60", "all_tiles"]
RARE = ["road_5_3c", "city_8_10_3c", "road_10_3c", "monastery_4"]


def load(path):
    with open(path) as f:
        return json.load(f)


def pct(x):
    return f"{100 * x:.1f}%"


def rate(r, g):
    x = r["goals"][g]
    lo, hi = x["wilson95"]
    return f"{pct(x['rate'])} [{pct(lo)}, {pct(hi)}]"


def per_game(r):
    return sum(r["goals"][g]["rate"] for g in GOALS)


def aim_of(run):
    return run["config"].get("aim", "score")


def command(doc):
    line = doc.get("performance", {}).get("command_line")
    return " ".join(line) if line else "(not recorded)"


def diff_of(doc, second):
    for d in doc["differences"]:
        if d["first"] == 0 and d["second"] == second:
            return d
    return None


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir, policies_path, plot_path = sys.argv[1:]
    cmp = load(os.path.join(out_dir, "compare-3x4.json"))
    runs = cmp["runs"]
    by_aim = {aim_of(r): (i, r) for i, r in enumerate(runs)}
    score = by_aim["score"][1]
    games = score["games"]
    heuristic = next(r for r in load(policies_path)["runs"]
                     if r["config"]["placement_policy"].startswith("heuristic"))
    ceilings = {}
    for g in GOALS + ["goals"]:
        p = os.path.join(out_dir, f"ceiling-{g}.json")
        if os.path.exists(p):
            ceilings[g] = load(p)

    width = next((c["config"]["placement_policy"] for c in ceilings.values()), "ceiling")
    ceil_games = next((c["games"] for c in ceilings.values()), 0)
    print("# The goals when a player tries\n")
    print("Written by `scripts/goals_report.py` from the files of `scripts/goals_study` "
          "(results/goals/). 3 colours x 4 meeples, scoring `best`, `search` at its defaults; "
          "aimed: `--aim GOAL` (docs/aim.md). Every aimed run and the score run play the same "
          f"{games} deals (seed {cmp['config']['seed'] if 'seed' in cmp['config'] else score['config']['seed']}); "
          "differences are paired game by game. The aimed ceiling is a REFERENCE THAT CHEATS "
          f"(`{width}`, a beam that sees the dealt stacks, kept on aimed `search`'s own line, "
          f"on the first {ceil_games} of those deals): a lower bound on how many deals allow the goal. "
          "The heuristic's rates are of its 10,000 games of seed 1 (results/policies.json), playing "
          "for the score.\n")
    # What it found, in numbers read from the files.
    i3, r3 = by_aim["road_10_3c"]
    found = []
    for g in ("road_5_3c", "city_8_10_3c", "road_10_3c", "monastery_4"):
        found.append(f"{g} {pct(score['goals'][g]['rate'])} -> {pct(by_aim[g][1]['goals'][g]['rate'])}")
    gi0, gr0 = by_aim["goals"]
    events = GOALS[:10]  # the feature and monastery goals
    costs = [-diff_of(cmp, by_aim[g][0])["mean"] for g in events]
    exact = [f"{g} {pct(ceilings[g]['goals'][g]['rate'])}" for g in ("road_5_3c", "city_8_10_3c") if g in ceilings]
    print("**Found:** aimed at a goal, `search` reaches it more often, paired on the same deals ("
          + ", ".join(found) + f"); each feature or monastery goal aimed at costs {min(costs):.1f} to "
          f"{max(costs):.1f} points of the mean result. `--aim goals` reaches {per_game(gr0):.2f} goals per game "
          f"against {per_game(score):.2f} for the score, at {gr0['result']['mean']:.1f} against "
          f"{score['result']['mean']:.1f} points."
          + (" The reference that sees the stacks reaches the exact-size goals little more often ("
             + ", ".join(exact) + ")." if exact else "") + "\n")
    print("## Each goal: playing for the score against aiming at it\n")
    print("| goal | heuristic (score) | `search` for the score | `search` aimed at it | aimed less score, points of rate "
          "(paired 95%% CI) | mean result, aimed (score: %.1f) | aimed ceiling (reference, cheats) |" % score["result"]["mean"])
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = []
    for g in GOALS:
        i, r = by_aim[g]
        d = diff_of(cmp, i)
        gd = d["goals"][g]
        lo, hi = gd["ci95"]
        c = ceilings.get(g)
        ceil_text = f"{rate(c, g)} of {c['games']} deals" if c else "not run"
        print(f"| {g} | {rate(heuristic, g)} | {rate(score, g)} | {rate(r, g)} | "
              f"{100 * gd['difference']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] | "
              f"{r['result']['mean']:.1f} ({d['mean']:+.1f}) | {ceil_text} |")
        rows.append((g, heuristic["goals"][g]["rate"], score["goals"][g]["rate"], r["goals"][g]["rate"],
                     c["goals"][g]["rate"] if c else None))
    print()
    gi, gr = by_aim["goals"]
    gdiff = diff_of(cmp, gi)
    print("## All 14: goals reached per game\n")
    print("| player | goals per game | mean result |")
    print("|---|---:|---:|")
    print(f"| heuristic (score) | {per_game(heuristic):.2f} | {heuristic['result']['mean']:.1f} |")
    print(f"| `search` for the score | {per_game(score):.2f} | {score['result']['mean']:.1f} |")
    print(f"| `search --aim goals` | {per_game(gr):.2f} | {gr['result']['mean']:.1f} ({gdiff['mean']:+.1f}) |")
    if "goals" in ceilings:
        c = ceilings["goals"]
        print(f"| aimed ceiling (reference, cheats; {c['games']} deals) | {per_game(c):.2f} | {c['result']['mean']:.1f} |")
    print()
    print("## The rarest goals at other meeple counts\n")
    print("| meeples | " + " | ".join(f"{g}: score / aimed" for g in RARE) + " |")
    print("|---:|" + "---:|" * len(RARE))
    for m in (3, 4, 5, 6):
        p = os.path.join(out_dir, f"compare-3x{m}.json")
        if not os.path.exists(p):
            continue
        doc = load(p)
        aims = {aim_of(r): r for r in doc["runs"]}
        cells = [f"{pct(aims['score']['goals'][g]['rate'])} / {pct(aims[g]['goals'][g]['rate'])}" for g in RARE]
        print(f"| {m} ({aims['score']['games']} deals) | " + " | ".join(cells) + " |")
    print()
    print("## How it was made\n")
    print(f"- `{command(cmp)}`")
    for g, c in ceilings.items():
        print(f"- `{command(c)}`")
    for m in (3, 5, 6):
        p = os.path.join(out_dir, f"compare-3x{m}.json")
        if os.path.exists(p):
            print(f"- `{command(load(p))}`")
    print("- heuristic: results/policies.json")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("goals_report.py: no matplotlib (Debian: python3-matplotlib): no plot", file=sys.stderr)
        return 1
    fig, ax = plt.subplots(figsize=(13, 4.5))
    width = 0.2
    xs = range(len(rows))
    for k, (label, color) in enumerate([("heuristic (score)", "#bbbbbb"), ("search for the score", "#6baed6"),
                                        ("search aimed at the goal", "#08519c"),
                                        ("aimed ceiling (reference, cheats)", "#fd8d3c")]):
        vals = [100 * (r[k + 1] if r[k + 1] is not None else 0) for r in rows]
        ax.bar([x + (k - 1.5) * width for x in xs], vals, width, label=label, color=color)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([r[0] for r in rows], rotation=45, ha="right")
    ax.set_ylabel("games reaching the goal (%)")
    ax.set_title(f"Each goal when search plays for the score and when it aims at it ({games} deals, 3 x 4)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(plot_path, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
