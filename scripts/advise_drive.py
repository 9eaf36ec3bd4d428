#!/usr/bin/env python3
"""Drives `carcsolo advise` through whole seeded deals, as a program at the table would.

For each seed: the deal of (seed, game 0) comes from `carcsolo replay` (the driver knows it;
the advisor sees only the letters typed in, one per draw, in the order the deal gives them),
and the advice ranked first is always played. Then checks, and prints one line per deal:
  - `carcsolo verify` accepts the advisor's log;
  - the log's stacks are the deal (every tile drawn as dealt);
  - `carcsolo analyse` of that log, with the advisor's options, finds the move played best
    at every decision (the advice is the analysis's choice) with the same values to the
    printed precision, and a loss of 0.
Exit status 0 when every deal passes, 1 otherwise.

With --aim GOAL the advisor aims at the goal (docs/aim.md; a search analyser), and the last
line counts the deals on which the person who always played the advice reached it. With
--games N the deals are games 0..N-1 of the first seed (the deals `carcsolo run --seed S
--games N` plays), and --no-analyse leaves out the analysis (the aim's rate is what counts).

usage: scripts/advise_drive.py CARCSOLO [--seeds 1,2,3] [--games N] [--colors 3] [--meeples 4]
       [--analyser heuristic] [--rollouts 32] [--candidates 8] [--advice-seed 1]
       [--aim GOAL] [--no-analyse]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def deal_of(carcsolo, seed, colors, game=0):
    log = json.loads(subprocess.run([carcsolo, "replay", "--seed", str(seed), "--game", str(game),
                                     "--colors", str(colors)], check=True, capture_output=True,
                                    text=True).stdout)
    return ["".join(s) for s in log["stacks"]]


def drive(carcsolo, stacks, options, log_path):
    """Plays the deal through the advisor; returns the advice ranked first at each decision
    as (x, y, rot, meeple, mean), the advisor's last line and how many tiles each colour drew."""
    p = subprocess.Popen([carcsolo, "advise", *options, "--log", log_path], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
    next_tile = [0] * len(stacks)
    advice, first = [], None
    for line in p.stdout:
        words = line.split()
        if words[0] == "draw":
            c = int(words[1])
            p.stdin.write(stacks[c][next_tile[c]] + "\n")
            next_tile[c] += 1
        elif words[0] == "move" and words[1] == "1":
            x, y, rot = map(int, words[2].split(","))
            first = (x, y, rot, None if words[3] == "-" else words[3], float(words[4]))
        elif words[0] == "play":
            advice.append(first)
            p.stdin.write("1\n")
        elif words[0] == "over":
            last = line.strip()
        p.stdin.flush()
    p.stdin.close()
    if p.wait() != 0:
        raise RuntimeError("carcsolo advise exited with status %d" % p.returncode)
    return advice, last, next_tile


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("carcsolo")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--colors", type=int, default=3)
    ap.add_argument("--meeples", type=int, default=4)
    ap.add_argument("--analyser", default="heuristic")
    ap.add_argument("--rollouts", type=int, default=32)
    ap.add_argument("--candidates", type=int, default=8)
    ap.add_argument("--advice-seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--aim", default="score")
    ap.add_argument("--no-analyse", action="store_true")
    a = ap.parse_args()
    # A search analyser values by its own search: no rollouts or candidates of the rollout analysis.
    budget = [] if a.analyser.split(":")[0] == "search" else [
        "--rollouts", str(a.rollouts), "--candidates", str(a.candidates)]
    options = ["--colors", str(a.colors), "--meeples", str(a.meeples), "--analyser", a.analyser] + budget + [
               "--seed", str(a.advice_seed), "--aim", a.aim, "-q"]
    seeds = [int(s) for s in a.seeds.split(",")]
    deals = [(seeds[0], g) for g in range(a.games)] if a.games > 0 else [(s, 0) for s in seeds]
    failed = reached = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed, game in deals:
            stacks = deal_of(a.carcsolo, seed, a.colors, game)
            log_path = os.path.join(tmp, "advised-%d-%d.jsonl" % (seed, game))
            t0 = time.monotonic()
            advice, last, taken = drive(a.carcsolo, stacks, options, log_path)
            seconds = time.monotonic() - t0
            problems = []
            v = subprocess.run([a.carcsolo, "verify", log_path], capture_output=True, text=True)
            if v.returncode != 0:
                problems.append("verify: " + (v.stdout + v.stderr).strip().splitlines()[-1])
            with open(log_path) as f:
                log = json.load(f)
            drawn = ["".join(s) for s in log["stacks"]]
            if any(d[:n] != s[:n] for d, s, n in zip(drawn, stacks, taken)):
                problems.append("the log's draws are not the deal's")
            reached += a.aim in log["goals"]
            decisions = advice  # --no-analyse: nothing to compare with
            if not a.no_analyse:
                analysis = os.path.join(tmp, "analysis-%d-%d.json" % (seed, game))
                subprocess.run([a.carcsolo, "analyse", log_path, "--placement", a.analyser] + budget +
                               ["--seed", str(a.advice_seed), "--aim", a.aim, "--out", analysis, "-q"], check=True)
                with open(analysis) as f:
                    decisions = json.load(f)["games"][0]["analysis"]
            if len(decisions) != len(advice):
                problems.append("%d decisions analysed, %d advised" % (len(decisions), len(advice)))
            agree = len(advice) if a.no_analyse else 0
            for d, adv in zip([] if a.no_analyse else decisions, advice):
                played = d["moves"][d["played"]]
                same = (d["played_rank"] == 0 and d["loss"] == 0 and
                        (played["x"], played["y"], played["rot"], played["meeple"]) == adv[:4] and
                        abs(played["mean"] - adv[4]) < 0.006)
                agree += same
            if agree != len(advice):
                problems.append("%d of %d advised moves are not the analysis's best" % (len(advice) - agree, len(advice)))
            if log["advisor"]["followed"] != log["advisor"]["decisions"]:
                problems.append("the log says the advice was not always played")
            failed += bool(problems)
            print("%s: %s; %d decisions, advice = analyse's best at %d, verify %s, %.1f s%s"
                  % ("seed %d game %d" % (seed, game) if a.games > 0 else "seed %d" % seed, last, len(advice), agree, "ok" if v.returncode == 0 else "FAILED", seconds,
                     "".join("; " + p for p in problems)), flush=True)
    if a.aim not in ("score", "goals"):
        print("%s reached on %d of %d deals by always playing the advice" % (a.aim, reached, len(deals)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
