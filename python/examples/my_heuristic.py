#!/usr/bin/env python3
"""A placement heuristic written in Python, compared with the built-in `heuristic` on the
same deals (paired 95% CI). Usage: my_heuristic.py [GAMES] (default 500)."""
import sys

import carcsolo


def snug(obs, moves):
    """Keep meeples: prefer moves that need no meeple, then few free segments; among those,
    cells with many neighbours; put the meeple on a city before a road."""
    board = {(t["x"], t["y"]) for t in obs["board"]}
    me = obs["to_move"]
    low = obs["scores"][me] == min(obs["scores"])

    def value(m):
        neighbours = sum((m.x + dx, m.y + dy) in board
                         for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
        cost = len(m.free) if obs["supply"][me] > 1 else 10 * len(m.free)
        return (-cost if not low else 0) + neighbours

    best = max(moves, key=value)
    if not best.free:
        return best, None
    cities = [s for s in best.free if s.startswith("city")]
    return best, (cities or sorted(best.free, key=len))[0]


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    c = carcsolo.compare(placement=["heuristic", snug], scoring="best", games=games, seed=1)
    d = c["difference"]
    print("heuristic: mean %.2f   snug (Python): mean %.2f"
          % (c["runs"][0]["result"]["mean"], c["runs"][1]["result"]["mean"]))
    print("snug - heuristic: %+.2f, 95%% CI [%.2f, %.2f] over %d paired games (wins %d, losses %d)"
          % (d["mean"], d["ci95"][0], d["ci95"][1], d["games"], d["wins"], d["losses"]))
