"""carcsolo.analyse and load_analysis: the decisions as numpy arrays agree with the document
(and with the file the command line writes), and bad input is a ValueError."""
import numpy as np
import pytest

import carcsolo


def test_analyse_played_games_as_arrays(cli, tmp_path):
    opts = dict(analyser="heuristic", placement="greedy", scoring="best", games=3, seed=5, rollouts=2, candidates=3,
                threads=1)
    a = carcsolo.analyse(**opts)
    assert a["format"] == "carcassonne-solo-analysis/1"
    assert a["aggregate"]["games"] == 3
    assert "over 3 games" in a.summary()
    d = a.decisions
    decisions = [(g["index"], x) for g in a["games"] for x in g["analysis"]]
    n = len(decisions)
    assert n == a["aggregate"]["decisions"]
    for key in ("game", "decision", "turn", "color", "tile", "stage", "stage_code", "kind", "kind_code",
                "loss", "loss_se", "heldout", "heldout_se", "own_loss", "own_loss_se", "rank", "moves"):
        assert d[key].shape == (n,), key
    assert d["loss"].dtype == np.float64
    assert d["game"].tolist() == [i for i, _ in decisions] and sorted(set(d["game"].tolist())) == [0, 1, 2]
    assert d["turn"].tolist() == [x["turn"] for _, x in decisions]
    assert d["loss"].tolist() == [x["loss"] for _, x in decisions]
    assert d["heldout_se"].tolist() == [x["heldout_stderr"] for _, x in decisions]
    assert d["own_loss"].tolist() == [x["own_loss"] for _, x in decisions]
    assert d["rank"].tolist() == [x["played_rank"] for _, x in decisions]
    assert (np.array(["opening", "middle", "end"])[d["stage_code"]] == d["stage"]).all()
    assert (np.array(["none", "road", "city", "monastery"])[d["kind_code"]] == d["kind"]).all()
    # per-game sums: the aggregate's mean loss per game
    per_game = [d["loss"][d["game"] == g].sum() for g in range(3)]
    assert np.mean(per_game) == pytest.approx(a["aggregate"]["loss_per_game"]["mean"])
    # the command line writes the same document; load_analysis reads it into the same arrays
    cli("analyse", "--analyser", "heuristic", "--placement", "greedy", "--scoring", "best", "--games", 3, "--seed", 5, "--rollouts", 2,
        "--candidates", 3, "--threads", 2, "-q", "--out", tmp_path / "a.json")
    b = carcsolo.load_analysis(tmp_path / "a.json")
    assert b["games"] == a["games"] and b["aggregate"] == a["aggregate"]
    for key, value in a.decisions.items():
        assert (b.decisions[key] == value).all(), key


def test_analyse_bad_input(tmp_path):
    with pytest.raises(ValueError, match="log file"):
        carcsolo.analyse(games=2)
    with pytest.raises(ValueError):
        carcsolo.analyse(placement="nosuch", games=1)
    (tmp_path / "x.json").write_text('{"format": "something else"}')
    with pytest.raises(ValueError, match="not a carcassonne-solo-analysis/1 file"):
        carcsolo.load_analysis(tmp_path / "x.json")
