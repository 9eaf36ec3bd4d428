"""run, compare and sweep from Python: the CLI's documents, per-game arrays that agree with
them, the CLI's messages as exceptions, and --per-game files that agree with the results."""
import csv
import json

import numpy as np
import pytest

import carcsolo
from conftest import load, read_logs, without_performance


def test_run_equals_the_cli_file(cli, tmp_path):
    options = dict(games=1000, placement="heuristic", scoring="best", seed=3)
    py = carcsolo.run(**options)
    cli("run", "--games", 1000, "--placement", "heuristic", "--scoring", "best", "--seed", 3,
        "-q", "--out", tmp_path / "r.json")
    assert without_performance(py) == without_performance(load(tmp_path / "r.json"))
    assert py["games"] == 1000
    assert py["performance"]["command_line"] == ["carcsolo", "run", "--games", "1000",
                                                 "--placement", "heuristic", "--scoring", "best",
                                                 "--seed", "3"]


def test_run_arrays_agree_with_the_document():
    r = carcsolo.run(games=1500, first_game=100, placement="greedy", scoring="best", seed=5,
                     colors=4, meeples=3)
    g = r.games
    assert list(g["game"]) == list(range(100, 1600))
    assert g["scores"].shape == (1500, 4)
    assert g["result"].sum() == r["result"]["sum"]
    assert (g["result"] == g["scores"].min(axis=1)).all()
    for i, goal in enumerate(carcsolo.GOAL_IDS):
        assert g["goals"][:, i].sum() == r["goals"][goal]["count"]
    for reason in ("no_meeple", "tiles_exhausted"):
        assert (g["end_reason"] == reason).sum() == r["end_reasons"][reason]["count"]
    assert g["discards"].sum() == r["discards"]["total"]


def test_without_arrays():
    a = carcsolo.run(games=300, placement="greedy", seed=9, arrays=False)
    assert a.games is None
    assert without_performance(a) == without_performance(carcsolo.run(games=300, placement="greedy", seed=9))


def test_threads_do_not_change_the_numbers():
    a = carcsolo.run(games=800, placement="greedy", seed=9, threads=1)
    b = carcsolo.run(games=800, placement="greedy", seed=9, threads=2)
    assert without_performance(a) == without_performance(b)
    assert (a.games["result"] == b.games["result"]).all()


def test_compare_equals_the_cli_file(cli, tmp_path):
    py = carcsolo.compare(placement=["random", "greedy"], scoring="best", games=600, seed=4)
    cli("compare", "--placement", "random", "--placement", "greedy", "--scoring", "best",
        "--games", 600, "--seed", 4, "-q", "--out", tmp_path / "c.json")
    assert without_performance(py) == without_performance(load(tmp_path / "c.json"))
    assert len(py.games) == 2
    d = py.games[1]["result"] - py.games[0]["result"]
    assert d.sum() == py["difference"]["sum"]
    assert (d * d).sum() == py["difference"]["sum_of_squares"]


def test_sweep_equals_the_cli_file(cli, tmp_path):
    py = carcsolo.sweep(colors=[3, 4], meeples=range(2, 4), placement=["greedy"], games=300,
                        seed=2, target=["total_40=0.5"])
    cli("sweep", "--colors", "3,4", "--meeples", "2..3", "--placement", "greedy", "--games", 300,
        "--seed", 2, "--target", "total_40=0.5", "-q", "--out", tmp_path / "s.json")
    assert without_performance(py) == without_performance(load(tmp_path / "s.json"))
    assert [g["scores"].shape[1] for g in py.games] == [3, 3, 4, 4]


BAD = [
    (dict(games=0), ["--games", "0"]),
    (dict(games="x"), ["--games", "x"]),
    (dict(colors=9), ["--colors", "9"]),
    (dict(placement="nope"), ["--placement", "nope"]),
    (dict(placement="heuristic:nope=1"), ["--placement", "heuristic:nope=1"]),
    (dict(scoring="best", seed=-1), ["--scoring", "best", "--seed", "-1"]),
    (dict(no_such_option=1), ["--no-such-option", "1"]),
    (dict(log_games=3), ["--log-games", "3"]),
    (dict(out="/nonexistent-dir/r.json"), ["--out", "/nonexistent-dir/r.json"]),
    (dict(deal="/nonexistent-dir/deal.txt"), ["--deal", "/nonexistent-dir/deal.txt"]),
]


@pytest.mark.parametrize("options,args", BAD)
def test_bad_arguments_raise_the_cli_message(cli, options, args):
    if "games" not in options:
        options["games"], args = 10, ["--games", "10", *args]
    p = cli("run", *args, check=False)
    assert p.returncode == 2
    with pytest.raises(ValueError) as e:
        carcsolo.run(**options)
    assert p.stderr == "carcsolo run: " + str(e.value) + "\n"


def test_bad_compare_and_sweep_arguments(cli):
    p = cli("compare", "--placement", "random", "--games", 10, check=False)
    with pytest.raises(ValueError) as e:
        carcsolo.compare(placement=["random"], games=10)
    assert p.returncode == 2 and p.stderr == "carcsolo compare: " + str(e.value) + "\n"
    p = cli("sweep", "--meeples", "3..2", check=False)
    with pytest.raises(ValueError) as e:
        carcsolo.sweep(meeples="3..2")
    assert p.returncode == 2 and p.stderr == "carcsolo sweep: " + str(e.value) + "\n"
    with pytest.raises(ValueError):
        carcsolo.run(games=[1, 2])  # one value only


def per_game_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_per_game_rows_agree_with_the_results_file(cli, tmp_path):
    cli("run", "--games", 2500, "--seed", 8, "--placement", "greedy", "--scoring", "lowest-first",
        "-q", "--out", tmp_path / "r.json", "--per-game", tmp_path / "r.csv")
    doc, rows = load(tmp_path / "r.json"), per_game_rows(tmp_path / "r.csv")
    assert len(rows) == doc["games"] == 2500
    assert [int(r["game"]) for r in rows] == list(range(2500))
    results = np.array([int(r["result"]) for r in rows])
    assert results.sum() == doc["result"]["sum"]
    assert results.mean() == pytest.approx(doc["result"]["mean"], abs=1e-12)
    for goal in carcsolo.GOAL_IDS:
        assert sum(int(r[goal]) for r in rows) == doc["goals"][goal]["count"]
    for reason in ("no_meeple", "tiles_exhausted"):
        assert sum(r["end_reason"] == reason for r in rows) == doc["end_reasons"][reason]["count"]
    assert all(r["score_3"] == "" for r in rows)  # three colours
    assert all(int(r["result"]) == min(int(r["score_%d" % c]) for c in range(3)) for r in rows)


def test_per_game_rows_of_a_comparison(cli, tmp_path):
    cli("compare", "--placement", "random", "--placement", "greedy", "--games", 400, "--seed", 6,
        "-q", "--out", tmp_path / "c.json", "--per-game", tmp_path / "c.csv")
    doc, rows = load(tmp_path / "c.json"), per_game_rows(tmp_path / "c.csv")
    assert len(rows) == 800
    for k in range(2):
        mine = [r for r in rows if r["run"] == str(k)]
        assert len(mine) == doc["runs"][k]["games"]
        assert mine[0]["placement"] == doc["runs"][k]["config"]["placement_policy"]
        assert sum(int(r["result"]) for r in mine) == doc["runs"][k]["result"]["sum"]
        for goal in carcsolo.GOAL_IDS:
            assert sum(int(r[goal]) for r in mine) == doc["runs"][k]["goals"][goal]["count"]


def test_per_game_rows_of_a_sweep(cli, tmp_path):
    cli("sweep", "--colors", "2,5", "--meeples", "3", "--placement", "greedy", "--games", 200,
        "--seed", 6, "-q", "--out", tmp_path / "s.json", "--per-game", tmp_path / "s.csv")
    doc, rows = load(tmp_path / "s.json"), per_game_rows(tmp_path / "s.csv")
    assert len(rows) == 400
    for k, run in enumerate(doc["runs"]):
        mine = [r for r in rows if r["run"] == str(k)]
        assert {int(r["colors"]) for r in mine} == {run["config"]["colors"]}
        assert sum(int(r["result"]) for r in mine) == run["result"]["sum"]
        assert all((r["score_%d" % c] == "") == (c >= run["config"]["colors"]) for r in mine
                   for c in range(6))


def test_per_game_bad_paths(cli, tmp_path):
    p = cli("run", "--games", 5, "--per-game", "/nonexistent-dir/x.csv", check=False)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--per-game" in p.stderr
    p = cli("run", "--games", 5, "--per-game", tmp_path / "x", "--out", tmp_path / "x", check=False)
    assert p.returncode == 2 and p.stderr.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_a_given_deal_plays_the_game_of_the_seed_that_dealt_it(cli, tmp_path):
    log = json.loads(cli("replay", "--seed", 7, "--game", 17, "--placement", "greedy",
                         "--scoring", "best", "-q").stdout)
    (tmp_path / "deal.txt").write_text("# seed 7, game 17\n" +
                                       "\n".join(" ".join(s) for s in log["stacks"]) + "\n")
    cli("run", "--deal", tmp_path / "deal.txt", "--seed", 7, "--first-game", 17, "--placement",
        "greedy", "--scoring", "best", "-q", "--out", tmp_path / "d.json", "--log", tmp_path / "d.jsonl")
    cli("run", "--seed", 7, "--first-game", 17, "--games", 1, "--placement", "greedy",
        "--scoring", "best", "-q", "--out", tmp_path / "s.json")
    dealt, seeded = without_performance(load(tmp_path / "d.json")), without_performance(load(tmp_path / "s.json"))
    assert dealt.pop("deal") == ["".join(s) for s in log["stacks"]]
    assert dealt == seeded
    assert read_logs(tmp_path / "d.jsonl") == [log]
    py = carcsolo.run(deal=str(tmp_path / "deal.txt"), seed=7, first_game=17, placement="greedy",
                      scoring="best")
    assert without_performance(py) == without_performance(load(tmp_path / "d.json"))
    assert "3 stacks but --colors is 4" in cli("run", "--deal", tmp_path / "deal.txt", "--colors", 4,
                                                check=False).stderr


def without_speed(text):
    """A summary but for its speed line (timings differ from run to run)."""
    return [line for line in text.splitlines() if not line.startswith("speed: ")]


def test_results_carry_the_command_lines_summary(cli, tmp_path):
    # summary() (and str()) is the text the command line prints; the repr its first line.
    r = carcsolo.run(games=300, placement="greedy", scoring="best", seed=3)
    out = cli("run", "--games", 300, "--placement", "greedy", "--scoring", "best", "--seed", 3).stdout
    assert without_speed(r.summary()) == without_speed(out)
    assert str(r) == r.summary()
    assert repr(r).startswith("<Results: carcsolo run: greedy / best, 3 colours x 4 meeples, seed 3;")
    assert len(repr(r)) < 200
    c = carcsolo.compare(placement=["random", "greedy"], scoring="best", games=200, seed=4)
    out = cli("compare", "--placement", "random", "--placement", "greedy", "--scoring", "best",
              "--games", 200, "--seed", 4).stdout
    assert without_speed(c.summary()) == without_speed(out)
    assert "[1] - [0]: mean difference" in c.summary()
    assert repr(c).startswith("<Results: carcsolo compare: 3 colours x 4 meeples, seed 4")
    s = carcsolo.sweep(colors=[3], meeples=range(2, 4), placement="greedy", games=100,
                       target=["mean=5"])
    out = cli("sweep", "--colors", 3, "--meeples", "2..3", "--placement", "greedy", "--games", 100,
              "--target", "mean=5").stdout
    assert without_speed(s.summary()) == without_speed(out)
    assert "closest to mean = 5" in s.summary()


def test_the_summary_of_a_deal_names_it_and_its_replay(cli, tmp_path):
    log = json.loads(cli("replay", "--seed", 7, "--game", 17, "-q").stdout)
    (tmp_path / "deal.txt").write_text("\n".join("".join(s) for s in log["stacks"]) + "\n")
    r = carcsolo.run(deal=str(tmp_path / "deal.txt"), seed=7, first_game=2, placement="greedy")
    head = r.summary().splitlines()[0]
    assert "deal " + str(tmp_path / "deal.txt") + " in every game" in head
    assert ("replay a game: carcsolo replay --deal " + str(tmp_path / "deal.txt") +
            " --seed 7 --colors 3 --meeples 4 --placement greedy --scoring random --game 2") in r.summary()


def test_until_ci_rules_repeat_as_on_the_command_line(cli, tmp_path):
    rules = ["mean=2", "total_40=0.05"]
    py = carcsolo.run(games=20000, placement="greedy", scoring="best", seed=4, until_ci=rules)
    cli("run", "--games", 20000, "--placement", "greedy", "--scoring", "best", "--seed", 4,
        "--until-ci", rules[0], "--until-ci", rules[1], "-q", "--out", tmp_path / "r.json")
    assert without_performance(py) == without_performance(load(tmp_path / "r.json"))
    assert len(py["until_ci"]["rules"]) == 2
    assert all(r["met"] for r in py["until_ci"]["rules"])
