#!/usr/bin/env python3
"""results/expansions.md from the expansions study's files (scripts/expansions_study).

    expansions_report.py DIR > results/expansions.md

DIR holds sweep-SET[-large].json (the heuristic, 3 colours, meeples 2..8) and
strong-SET[-large].json (search at 3 colours x 4 meeples). Every figure is read from
those files; the commands that made them are printed from their performance.command_line.
"""
import csv
import json
import math
import os
import sys

SETS = ["base", "base+inns", "base+river", "base+inns+river"]
GOALS = ["road_10", "road_10_2c", "road_10_3c", "road_5_3c", "city_16", "city_16_2c",
         "city_16_3c", "city_8_10_3c", "monastery_3", "monastery_4", "total_40", "total_50",
         "total_60", "all_tiles"]


def name(s, large):
    return s.replace("+", "-") + ("-large" if large else "")


def load(path):
    with open(path) as f:
        return json.load(f)


def ci(r):
    lo, hi = r["result"]["ci95"]
    return f"{r['result']['mean']:.2f} [{lo:.2f}, {hi:.2f}]"


def results(path):
    """Game index -> result, from a --per-game CSV; None when the file is missing."""
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return {int(r["game"]): int(r["result"]) for r in csv.DictReader(f)}


def paired(a, b):
    """Mean and 95% CI of b - a over the games both hold (normal approximation)."""
    games = sorted(set(a) & set(b))
    d = [b[g] - a[g] for g in games]
    n = len(d)
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else float("nan")
    h = 1.96 * sd / math.sqrt(n)
    return n, m, m - h, m + h


def label(s, large):
    return s + (" + large meeple" if large else "")


def main():
    d = sys.argv[1]
    sweeps, strong = {}, {}
    for s in SETS:
        for large in (False, True):
            p = os.path.join(d, f"sweep-{name(s, large)}.json")
            q = os.path.join(d, f"strong-{name(s, large)}.json")
            if os.path.exists(p):
                sweeps[(s, large)] = {run["config"]["meeples"]: run for run in load(p)["runs"]}
                sweeps[(s, large)]["_file"] = load(p)
            if os.path.exists(q):
                strong[(s, large)] = load(q)
    out = []
    w = out.append
    w("# The expansions: Inns & Cathedrals, the large meeple and The River\n")
    w("What each expansion of `../shared/spec/expansions.md` does to the solo game (3 colours), "
      "written by `scripts/expansions_study` (the commands at the end) from the files in "
      "`results/expansions/`. Means with 95% confidence intervals; goal rates with Wilson 95% intervals "
      "in the files. The heuristic plays 3 colours at meeples 2..8; strong play is `search` at its "
      "defaults (3 colours x 4 meeples). Scoring order `best` throughout.\n")
    w("The sets deal different tiles, so two sets' games are different games: their comparison is of "
      "independent samples. A set with and without the large meeple deals the same stacks for the same "
      "seed and game (the figure changes no tile), so those two are the same deals played twice.\n")
    base4 = sweeps.get(("base", False), {}).get(4)
    w("## Difficulty at the rules' 4 meeples\n")
    w("| set | heuristic mean | total_50 | all_tiles | search mean | search total_50 |")
    w("|---|---|---|---|---|---|")
    for s in SETS:
        for large in (False, True):
            sw = sweeps.get((s, large), {}).get(4)
            st = strong.get((s, large))
            if not sw and not st:
                continue
            cells = [label(s, large)]
            cells.append(ci(sw) if sw else "—")
            cells.append(f"{sw['goals']['total_50']['rate']:.3f}" if sw else "—")
            cells.append(f"{sw['goals']['all_tiles']['rate']:.3f}" if sw else "—")
            cells.append(f"{ci(st)} ({st['games']} games)" if st else "—")
            cells.append(f"{st['goals']['total_50']['rate']:.3f}" if st else "—")
            w("| " + " | ".join(cells) + " |")
    w("")
    if base4:
        target = base4["result"]["mean"]
        w("## Meeples that bring each set back to the base game's difficulty\n")
        w(f"The heuristic's mean in the base game at 3 x 4 is {target:.2f}. Per set, its mean at each "
          "meeple count, and the count whose mean is closest to it:\n")
        counts = sorted(k for k in sweeps[("base", False)] if k != "_file")
        w("| set | " + " | ".join(f"m={m}" for m in counts) + " | closest to base 3 x 4 |")
        w("|---|" + "---|" * len(counts) + "---|")
        for s in SETS:
            for large in (False, True):
                sw = sweeps.get((s, large))
                if not sw:
                    continue
                means = {m: sw[m]["result"]["mean"] for m in counts if m in sw}
                best = min(means, key=lambda m: abs(means[m] - target))
                w("| " + label(s, large) + " | " + " | ".join(f"{means[m]:.1f}" for m in counts if m in means) +
                  f" | {best} ({means[best]:.1f}) |")
        w("")
    w("## The large meeple on the same deals (paired)\n")
    w("A set with and without the large meeple deals the same stacks for each seed and game: the "
      "difference game by game (with - without), its mean and 95% CI, at 3 x 4.\n")
    w("| set | heuristic: games, with - without [95% CI] | search: games, with - without [95% CI] |")
    w("|---|---|---|")
    for s in SETS:
        cells = [s]
        for who in ("heuristic", "strong"):
            a = results(os.path.join(d, f"{who}-{name(s, False)}.csv"))
            b = results(os.path.join(d, f"{who}-{name(s, True)}.csv"))
            if a and b:
                n, m, lo, hi = paired(a, b)
                cells.append(f"{n}: {m:+.2f} [{lo:+.2f}, {hi:+.2f}]")
            else:
                cells.append("—")
        w("| " + " | ".join(cells) + " |")
    w("")
    w("## The 14 goals at 3 x 4 (rates, heuristic; search in brackets)\n")
    cols = [(s, large) for s in SETS for large in (False, True) if (s, large) in sweeps]
    w("| goal | " + " | ".join(label(s, l) for s, l in cols) + " |")
    w("|---|" + "---|" * len(cols))
    for g in GOALS:
        row = [g]
        for key in cols:
            sw = sweeps[key].get(4)
            st = strong.get(key)
            cell = f"{sw['goals'][g]['rate']:.3f}" if sw else "—"
            if st:
                cell += f" ({st['goals'][g]['rate']:.3f})"
            row.append(cell)
        w("| " + " | ".join(row) + " |")
    w("")
    w("## Commands\n")
    w("```")
    w("scripts/expansions_study        # EXP_GAMES, EXP_STRONG_GAMES: the sizes below")
    seen = set()
    for key in cols:
        for doc in (sweeps[key].get("_file"), strong.get(key)):
            if doc:
                cmd = " ".join(doc.get("performance", {}).get("command_line", []))
                if cmd and cmd not in seen:
                    seen.add(cmd)
                    w(cmd)
        s, large = key
        w(f"carcsolo run --placement heuristic --scoring best --tileset {s}" + (" --large-meeple" if large else "") +
          f" --games {sweeps[key][4]['games']} --seed 1 -q --per-game {d}/heuristic-{name(s, large)}.csv --out /dev/null")
    w("```")
    print("\n".join(out))


if __name__ == "__main__":
    main()
