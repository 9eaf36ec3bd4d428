"""The examples in python/examples run, and say what they should."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PROGRAM, load

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_example(name, *args, cwd):
    p = subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)],
                       capture_output=True, text=True, cwd=cwd, env=dict(os.environ))
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def test_my_heuristic_against_the_builtin(tmp_path):
    out = run_example("my_heuristic.py", 100, cwd=tmp_path)
    assert "snug - heuristic:" in out and "95% CI" in out and "over 100 paired games" in out


def test_per_game_summary_agrees_with_the_file(cli, tmp_path):
    cli("compare", "--placement", "random", "--placement", "greedy", "--scoring", "best",
        "--games", 500, "--seed", 3, "-q", "--out", tmp_path / "c.json", "--per-game", tmp_path / "c.csv")
    out = run_example("per_game_summary.py", tmp_path / "c.csv", cwd=tmp_path)
    assert "greedy" in out and "total_40" in out
    spec = importlib.util.spec_from_file_location("per_game_summary", EXAMPLES / "per_game_summary.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import pandas as pd
    table = module.summary(pd.read_csv(tmp_path / "c.csv"))
    doc = load(tmp_path / "c.json")
    for k, run in enumerate(doc["runs"]):
        assert table.loc[k, "games"] == run["games"]
        assert table.loc[k, "mean"] == pytest.approx(run["result"]["mean"])
        assert table.loc[k, "p50"] == run["result"]["quantiles"]["p50"]
        assert table.loc[k, "total_40"] == pytest.approx(run["goals"]["total_40"]["rate"])
        assert table.loc[k, "no_meeple"] == pytest.approx(run["end_reasons"]["no_meeple"]["rate"])


def test_verified_player(tmp_path):
    out = run_example("verified_player.py", PROGRAM, 120, tmp_path / "p.jsonl", cwd=tmp_path)
    assert "verify: 120 games, 120 consistent, 0 inconsistent" in out
