"""Python callables as policies in run and compare: the Observation only, the same games as
the built-in policies (common random numbers), errors that surface as Python exceptions."""
import math
import random

import numpy as np
import pytest

import carcsolo
from conftest import load, read_logs


class PythonRandom:
    """The built-in `random` in Python: uniform over the legal moves, the meeple uniform
    over the free segments."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.calls = 0

    def __call__(self, obs, moves):
        self.calls += 1
        assert obs["tile"] is not None and "stacks" not in obs
        m = self.rng.choice(moves)
        return m, (self.rng.choice(m.free) if m.free else None)


def ks_statistic(a, b):
    grid = np.union1d(a, b)
    fa = np.searchsorted(np.sort(a), grid, side="right") / len(a)
    fb = np.searchsorted(np.sort(b), grid, side="right") / len(b)
    return np.abs(fa - fb).max()


def test_python_random_matches_the_builtin_distribution():
    # Same deals (common random numbers), independent policy randomness: the per-game
    # difference has mean 0 and the two result distributions are the same. Tested at the
    # 0.1% level: a paired z-test on the mean and a two-sample Kolmogorov-Smirnov test.
    n = 2000
    mine = PythonRandom(17)
    c = carcsolo.compare(placement=["random", mine], scoring="best", games=n, seed=13)
    assert mine.calls > 10 * n
    assert c["runs"][1]["config"]["placement_policy"] == "python:slot=0"
    d = c["difference"]
    assert d["games"] == n
    assert abs(d["mean"]) < 3.29 * d["stderr"], d
    a, b = c.games[0]["result"], c.games[1]["result"]
    assert not (a == b).all()  # the policies did differ game by game
    crit = 1.95 * math.sqrt(2 / n)  # KS critical value at alpha = 0.001, equal sizes
    assert ks_statistic(a, b) < crit
    # and the test can fail: against greedy the same test rejects
    g = carcsolo.run(placement="greedy", scoring="best", games=n, seed=13).games["result"]
    assert ks_statistic(g, b) > crit


def test_a_python_scoring_policy():
    orders = []

    class Reverse:
        def order_features(self, obs, features):
            orders.append(len(features))
            assert all(f["kind"] in ("road", "city", "monastery") for f in features)
            return list(reversed(range(len(features))))

        def order_final(self, obs, colors):
            assert obs["tile"] is None
            return list(range(len(colors)))

    r = carcsolo.run(placement="greedy", scoring=Reverse(), games=200, seed=4)
    assert r["games"] == 200 and orders and min(orders) >= 2
    plain = carcsolo.run(placement="greedy", scoring=lambda obs, fs: list(range(len(fs))),
                         games=200, seed=4)
    af = carcsolo.run(placement="greedy", scoring="as-found", games=200, seed=4)
    assert (plain.games["result"] == af.games["result"]).all()  # as found, and as found at the end


def first_move(obs, moves):
    return moves[0], (moves[0].free[-1] if moves[0].free else None)


def test_a_python_policy_logs_like_any_other(cli, tmp_path):
    # The logs are played first, by the same callable (whose own state, if any, goes on).
    r = carcsolo.run(placement=first_move, scoring="best", games=50, seed=8,
                     log=str(tmp_path / "p.jsonl"), log_games=50)
    logs = read_logs(tmp_path / "p.jsonl")
    assert [l["result"] for l in logs] == list(r.games["result"])
    assert "50 consistent, 0 inconsistent" in cli("verify", tmp_path / "p.jsonl").stdout


def test_a_python_policy_plays_every_set_and_its_large_meeple_is_placed_once_no_meeple_is_left(cli, tmp_path):
    # The colour whose only figure left is the large meeple owes it: the policy names the
    # segment, the engine places the large meeple (expansions.md).
    policy = PythonRandom(4)
    r = carcsolo.run(placement=policy, scoring="best", games=30, seed=5, meeples=2, tileset="base+inns+river",
                     large_meeple=True, log=str(tmp_path / "p.jsonl"), log_games=30)
    assert r["config"]["tileset"] == "base+inns+river" and r["config"]["large_meeple"] is True
    logs = read_logs(tmp_path / "p.jsonl")
    assert sum(t.get("large", False) for log in logs for t in log["turns"]) > 0
    assert "30 consistent, 0 inconsistent" in cli("verify", tmp_path / "p.jsonl").stdout


def test_errors_in_python_policies_surface_as_python_exceptions():
    def broken(obs, moves):
        if obs["turn"] > 5:
            raise ZeroDivisionError("boom")
        return moves[0], (moves[0].free[0] if moves[0].free else None)

    with pytest.raises(ZeroDivisionError, match="boom"):
        carcsolo.run(placement=broken, games=20)
    with pytest.raises(ValueError, match="not among the legal"):
        carcsolo.run(placement=lambda obs, moves: ((30, 30, 0), None), games=3)
    with pytest.raises(ValueError, match="free segments"):
        carcsolo.run(placement=lambda obs, moves: (moves[0], None), games=3)
    with pytest.raises(ValueError, match="one thread"):
        carcsolo.run(placement=broken, threads=2)
    with pytest.raises(ValueError, match="permutation"):
        carcsolo.run(placement="greedy", scoring=lambda obs, fs: [0], games=100)
    assert carcsolo.run(placement="greedy", games=10)["games"] == 10  # still fine afterwards


def test_python_placement_in_a_file_equals_the_builtin_by_name(tmp_path):
    # A Python policy's run writes the same kind of document as any other.
    r = carcsolo.run(placement=PythonRandom(1), games=30, seed=2, out=str(tmp_path / "o.json"))
    assert load(tmp_path / "o.json")["result"] == r["result"]


def test_ctrl_c_returns_what_was_played():
    # The policy itself sends SIGINT on its 200th move: the run stops after the block of
    # games in play and raises KeyboardInterrupt carrying the partial document.
    import os
    import signal
    calls = [0]

    def interrupting(obs, moves):
        calls[0] += 1
        if calls[0] == 200:
            os.kill(os.getpid(), signal.SIGINT)
        return first_move(obs, moves)

    with pytest.raises(KeyboardInterrupt) as e:
        carcsolo.run(placement=interrupting, games=100000, seed=3)
    part = e.value.partial
    assert part["partial"] is True
    assert 0 < part["games"] < 100000 and part["config"]["games"] == part["games"]
    assert len(part.games["result"]) == part["games"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    whole = carcsolo.run(placement=first_move, games=part["games"], seed=3)
    assert whole["result"] == part["result"]


def test_a_bare_move_is_told_to_return_a_pair():
    # A Move alone where a meeple is due: the message says what to return, not that the
    # meeple is misplaced; a pair with a wrong meeple keeps the meeple's message.
    with pytest.raises(ValueError, match=r"must return a pair \(move, meeple\).*\(got Move\(") as e:
        carcsolo.run(placement=lambda obs, moves: moves[0], games=3)
    assert "free segments" not in str(e.value)
    with pytest.raises(ValueError, match=r"must return a pair \(move, meeple\)"):
        carcsolo.run(placement=lambda obs, moves: 0, games=3)  # an index alone
    with pytest.raises(ValueError, match="one of the move's free segments"):
        carcsolo.run(placement=lambda obs, moves: (moves[0], None), games=3)


def test_a_python_study_records_its_call_not_a_command_line(tmp_path, monkeypatch):
    # No command line can play a Python callable: such a document names the call instead.
    monkeypatch.chdir(tmp_path)
    r = carcsolo.run(placement=PythonRandom(1), scoring="best", games=20, seed=2, out="o.json")
    for doc in (r, load(tmp_path / "o.json")):
        perf = doc["performance"]
        assert "command_line" not in perf
        assert perf["python_call"] == ("carcsolo.run(placement=<Python policy PythonRandom>, "
                                       "scoring='best', games=20, seed=2, out='o.json')")
    c = carcsolo.compare(placement=["greedy", first_move], games=10)
    assert "command_line" not in c["performance"]
    assert c["performance"]["python_call"] == ("carcsolo.compare(placement=['greedy', "
                                               "<Python policy first_move>], games=10)")
    assert all("command_line" not in run["performance"] for run in c["runs"])
    # the replay line of the summary says there is none rather than give one that fails
    assert "replay a game: not from the command line" in r.summary()
    # built-in policies only: the command line, and no call
    b = carcsolo.run(placement="greedy", games=10)
    assert b["performance"]["command_line"][:2] == ["carcsolo", "run"]
    assert "python_call" not in b["performance"]
    assert "replay a game: carcsolo replay --seed 1 " in b.summary()
