#!/usr/bin/env python3
"""A policy written in Python plays through carcsolo.Game and writes its game logs, which
`carcsolo verify` replays through the engine; its mean beside the built-in policy it imitates
(`random`) on the same deals. Usage: verified_player.py CARCSOLO_PROGRAM [GAMES] [LOG]"""
import json
import random
import subprocess
import sys

import carcsolo


def python_random(rng):
    def choose(obs, moves):
        m = rng.choice(moves)
        return m, (rng.choice(m.free) if m.free else None)
    return choose


def play(game, policy, seed):
    g = carcsolo.Game(seed=seed, game=game, scoring="best")
    while not g.over:
        if g.ordering:
            g.order()  # the scoring policy's (best) order
            continue
        move, meeple = policy(g.observation(), g.moves)
        g.play(move, meeple)
    return g


if __name__ == "__main__":
    program = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    log_path = sys.argv[3] if len(sys.argv) > 3 else "python-player.jsonl"
    policy, seed, results = python_random(random.Random(1)), 7, []
    with open(log_path, "w") as f:
        for i in range(games):
            g = play(i, policy, seed)
            results.append(g.result)
            f.write(json.dumps(g.log(placement="python-random")) + "\n")
    check = subprocess.run([program, "verify", log_path], capture_output=True, text=True)
    print(check.stdout.strip())
    builtin = carcsolo.run(games=games, seed=seed, placement="random", scoring="best")
    mean = sum(results) / games
    sd = (sum((r - mean) ** 2 for r in results) / (games - 1)) ** 0.5
    b = builtin["result"]
    diff = mean - b["mean"]
    se = (sd ** 2 / games + b["std"] ** 2 / games) ** 0.5
    print("Python player: mean %.3f +- %.3f; built-in random: mean %.3f +- %.3f; "
          "difference %+.3f (%.1f standard errors)"
          % (mean, 1.96 * sd / games ** 0.5, b["mean"], b["ci95"][1] - b["mean"], diff, diff / se))
    if check.returncode != 0 or abs(diff) > 3.29 * se:
        sys.exit(1)
