"""The `sim` subcommand: many random-policy games, their distributions summarised in the
layout of `carcassonne-solo-results/1` where the two overlap (results-format.md), so that
`compare` can set them against the engine's own random games."""

import json
import math
import multiprocessing
import sys
import time
from collections import Counter

from .game import game_rng, play_game
from .tiles import END_REASONS, GOAL_IDS, TILESETS, tileset_options


def new_acc(k):
    return {"games": 0, "result_hist": Counter(), "tiles_hist": Counter(),
            "reasons": Counter(), "goals": Counter(), "discards": 0,
            "games_with_discard": 0, "color_sums": [0] * k}


def merge_acc(a, b):
    a["games"] += b["games"]
    a["result_hist"].update(b["result_hist"])
    a["tiles_hist"].update(b["tiles_hist"])
    a["reasons"].update(b["reasons"])
    a["goals"].update(b["goals"])
    a["discards"] += b["discards"]
    a["games_with_discard"] += b["games_with_discard"]
    a["color_sums"] = [x + y for x, y in zip(a["color_sums"], b["color_sums"])]


def run_chunk(args):
    """Games lo..hi-1 (each seeded by its own index, so chunks may run anywhere):
    their accumulator and, if asked, their log lines."""
    seed, k, m, lo, hi, want_log, tileset, large = args
    acc = new_acc(k)
    logs = [] if want_log else None
    for i in range(lo, hi):
        (result, reason, placed, discards, goals, scores), doc = play_game(
            game_rng(seed, i), k, m, want_log, seed, i, tileset=tileset, large=large)
        acc["games"] += 1
        acc["result_hist"][result] += 1
        acc["tiles_hist"][placed] += 1
        acc["reasons"][reason] += 1
        for gid in goals:
            acc["goals"][gid] += 1
        acc["discards"] += discards
        if discards:
            acc["games_with_discard"] += 1
        for c in range(k):
            acc["color_sums"][c] += scores[c]
        if want_log:
            logs.append(json.dumps(doc, separators=(",", ":")))
    return acc, logs


def hist_stats(hist):
    """Mean and sample standard deviation of a histogram {value: count}."""
    n = sum(hist.values())
    if n == 0:
        return 0.0, 0.0
    s = sum(v * c for v, c in hist.items())
    mean = s / n
    if n > 1:
        ss = sum(c * (v - mean) ** 2 for v, c in hist.items())
        std = math.sqrt(ss / (n - 1))
    else:
        std = 0.0
    return mean, std


def wilson(c, n, z=1.959963984540054):
    """Wilson score interval (95%) of a rate c / n."""
    if n == 0:
        return [0.0, 1.0]
    p = c / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return [max(0.0, centre - half), min(1.0, centre + half)]


def summarize(acc, cfg, seconds, jobs):
    n = acc["games"]
    mean, std = hist_stats(acc["result_hist"])
    tmean, tstd = hist_stats(acc["tiles_hist"])
    rh = sorted(acc["result_hist"].items())
    out = {
        "format": "refcheck-sim/1",
        "program": {"name": "refcheck", "version": "1"},
        "config": cfg,
        "games": n,
        "result": {"mean": mean, "std": std, "stderr": std / math.sqrt(n) if n else 0.0,
                   "min": rh[0][0] if rh else None, "max": rh[-1][0] if rh else None,
                   "histogram": [[v, c] for v, c in rh]},
        "colors": [{"mean_score": s / n if n else 0.0} for s in acc["color_sums"]],
        "end_reasons": {r: {"count": acc["reasons"][r],
                            "rate": acc["reasons"][r] / n if n else 0.0,
                            "wilson95": wilson(acc["reasons"][r], n)} for r in END_REASONS},
        "tiles_placed": {"mean": tmean, "std": tstd,
                         "histogram": [[v, c] for v, c in sorted(acc["tiles_hist"].items())]},
        "discards": {"total": acc["discards"], "mean": acc["discards"] / n if n else 0.0,
                     "games_with_discard": acc["games_with_discard"]},
        "goals": {gid: {"count": acc["goals"][gid], "rate": acc["goals"][gid] / n if n else 0.0,
                        "wilson95": wilson(acc["goals"][gid], n)} for gid in GOAL_IDS},
        "performance": {"jobs": jobs, "seconds": seconds,
                        "games_per_second": n / seconds if seconds > 0 else None},
    }
    return out


def _play_all(args, tasks, k):
    """Run the chunks (in a process pool with --jobs > 1), merging in chunk order and
    writing the log lines as they come."""
    acc = new_acc(k)
    logf = open(args.log, "w") if args.log else None
    if args.jobs <= 1:
        results = map(run_chunk, tasks)
        pool = None
    else:
        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap(run_chunk, tasks)
    for a, logs in results:
        merge_acc(acc, a)
        if logf:
            for line in logs:
                logf.write(line + "\n")
    if pool:
        pool.close()
        pool.join()
    if logf:
        logf.close()
    return acc


def cmd_sim(args):
    k, m = args.colors, args.meeples
    if not (2 <= k <= 6) or not (1 <= m <= 12):
        print("sim: colors must be 2..6 and meeples 1..12", file=sys.stderr)
        return 2
    n = args.games
    lo0 = args.first_game
    tileset, large = args.tileset, bool(args.large_meeple)
    if tileset_options(tileset) is None:
        print("sim: --tileset must be one of %s" % ", ".join(TILESETS), file=sys.stderr)
        return 2
    chunk = max(1, min(2000, n // (args.jobs * 8) or 1))
    tasks = [(args.seed, k, m, lo, min(lo + chunk, lo0 + n), bool(args.log), tileset, large)
             for lo in range(lo0, lo0 + n, chunk)]
    t0 = time.time()
    acc = _play_all(args, tasks, k)
    secs = time.time() - t0
    cfg = {"colors": k, "meeples": m, "start_scores": list(range(1, k + 1)), "tileset": tileset,
           "placement_policy": "random", "scoring_policy": "random",
           "seed": args.seed, "first_game": lo0, "games": n}
    if tileset != "base" or large:
        cfg["large_meeple"] = large
    out = summarize(acc, cfg, secs, args.jobs)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    r = out["result"]
    tag = "" if tileset == "base" and not large else " (%s%s)" % (
        tileset, ", large meeple" if large else "")
    print("sim%s: %d games in %.1fs (%.0f games/s); result mean %.4f std %.4f; "
          "tiles_placed mean %.3f; no_meeple %.4f; discards %d"
          % (tag, n, secs, n / secs if secs else 0, r["mean"], r["std"],
             out["tiles_placed"]["mean"], out["end_reasons"]["no_meeple"]["rate"],
             acc["discards"]))
    return 0
