#!/usr/bin/env python3
"""Summarises a --per-game CSV file with pandas: per run (policy, colours, meeples) the games,
the mean result with its 95% CI, p10/p50/p90, the end reasons and the goal rates.
Usage: per_game_summary.py FILE.csv"""
import sys

import pandas as pd

GOALS = ["road_10", "road_10_2c", "road_10_3c", "road_5_3c", "city_16", "city_16_2c",
         "city_16_3c", "city_8_10_3c", "monastery_3", "monastery_4", "total_40", "total_50",
         "total_60", "all_tiles"]


def summary(df):
    by = df.groupby("run")
    out = pd.DataFrame({
        "placement": by["placement"].first().str.split(":").str[0],
        "scoring": by["scoring"].first(),
        "colors": by["colors"].first(),
        "meeples": by["meeples"].first(),
        "games": by.size(),
        "mean": by["result"].mean(),
        "ci95": 1.96 * by["result"].std() / by.size() ** 0.5,
        "p10": by["result"].quantile(0.1, interpolation="lower"),
        "p50": by["result"].quantile(0.5, interpolation="lower"),
        "p90": by["result"].quantile(0.9, interpolation="lower"),
        "no_meeple": by["end_reason"].apply(lambda s: (s == "no_meeple").mean()),
    })
    return out.join(by[GOALS].mean())


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: per_game_summary.py FILE.csv")
    table = summary(pd.read_csv(sys.argv[1]))
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(table.round(3).T)
