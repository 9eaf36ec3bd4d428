"""carcsolo.load_positions: the arrays of a `carcsolo positions` file (docs/positions-format.md)
agree with its header and with the game logs of the same games, and files that are not
positions files, or are cut short, are refused."""
import numpy as np
import pytest

import carcsolo
from conftest import read_logs


def columns(names):
    return {n: i for i, n in enumerate(names)}


def test_load_positions_agrees_with_the_game_logs(cli, tmp_path):
    game = ["--games", 6, "--first-game", 2, "--seed", 3, "--placement", "greedy", "--scoring", "best",
            "--colors", 4, "--meeples", 3]
    cli("positions", *game, "-q", "--out", tmp_path / "p.bin")
    cli("run", *game, "-q", "--log", tmp_path / "l.jsonl", "--log-games", 6)
    p = carcsolo.load_positions(tmp_path / "p.bin")
    h = p.header
    n = h["rows"]
    assert p.features.dtype == np.float32 and p.features.shape == (n, len(h["feature_columns"]))
    assert p.targets.dtype == np.float32 and p.targets.shape == (n, len(h["target_columns"]))
    assert p.game.shape == p.turn.shape == p.mover.shape == (n,)
    assert p.features.flags["C_CONTIGUOUS"]
    f, t = columns(h["feature_columns"]), columns(h["target_columns"])
    logs = read_logs(tmp_path / "l.jsonl")
    assert sorted(set(p.game.tolist())) == [log["game"] for log in logs] == list(range(2, 8))
    for log in logs:
        mine = np.flatnonzero(p.game == log["game"])
        placed = [e for e in log["turns"] if not e["discarded"]]
        assert len(mine) == len(placed) == log["end"]["tiles_placed"]
        assert p.turn[mine].tolist() == [e["turn"] for e in placed]
        assert p.mover[mine].tolist() == [e["color"] for e in placed]
        for row, e in zip(mine, placed):
            for s in range(4):
                c = (e["color"] + 1 + s) % 4
                assert p.features[row, f["score_%d" % s]] == e["scores"][c]
                assert p.features[row, f["supply_%d" % s]] == e["supply"][c]
                assert p.targets[row, t["final_score_%d" % s]] == log["scores"][c]
            assert p.features[row, f["present_4"]] == p.features[row, f["present_5"]] == 0
        assert (p.targets[mine, t["result"]] == log["result"]).all()
        for goal in carcsolo.GOAL_IDS:
            assert (p.targets[mine, t["goal_" + goal]] == (goal in log["goals"])).all()
    # The result is the lowest final score of the colours in play.
    present = p.features[:, f["present_0"]:f["present_0"] + 6] == 1
    finals = p.targets[:, t["final_score_0"]:t["final_score_0"] + 6]
    assert (np.where(present, finals, np.inf).min(axis=1) == p.targets[:, t["result"]]).all()


def test_load_positions_refuses_other_and_cut_files(cli, tmp_path):
    (tmp_path / "r.json").write_text('{"format": "carcassonne-solo-results/1"}\n')
    with pytest.raises(ValueError, match="not a carcassonne-solo-positions/1 file"):
        carcsolo.load_positions(tmp_path / "r.json")
    (tmp_path / "x.bin").write_bytes(b"\x00\x01binary\n")
    with pytest.raises(ValueError, match="no JSON header"):
        carcsolo.load_positions(tmp_path / "x.bin")
    cli("positions", "--games", 2, "-q", "--out", tmp_path / "p.bin")
    whole = (tmp_path / "p.bin").read_bytes()
    (tmp_path / "cut.bin").write_bytes(whole[:-10])
    with pytest.raises(ValueError, match="the header says"):
        carcsolo.load_positions(tmp_path / "cut.bin")
    assert len(carcsolo.load_positions(tmp_path / "p.bin").game) > 0
