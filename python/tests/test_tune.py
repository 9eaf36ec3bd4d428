"""carcsolo.tune: the command line's trajectory as a dict, parameters as strings or a dict,
the command line's messages as exceptions."""
import pytest

import carcsolo
from conftest import load, without_performance

SMALL = dict(placement="heuristic:absorb=1", budget=4000, batch=50, checks=2, check_games=200,
             verify_games=200, seed=3, threads=2)


def test_tune_equals_the_cli_file(cli, tmp_path):
    py = carcsolo.tune(param=["absorb=0..20", "meeple=0..4"], **SMALL)
    cli("tune", "--placement", "heuristic:absorb=1", "--param", "absorb=0..20", "--param", "meeple=0..4",
        "--budget", 4000, "--batch", 50, "--checks", 2, "--check-games", 200, "--verify-games", 200,
        "--seed", 3, "--threads", 1, "-q", "--out", tmp_path / "t.json")
    assert without_performance(py) == without_performance(load(tmp_path / "t.json"))
    assert py["format"] == "carcassonne-solo-tune/1"
    assert py["status"] == "done"
    assert py["games"] == 4000
    assert [t["step"] for t in py["trajectory"]] == [0, 16, 32]
    assert set(py["final"]["params"]) == {"absorb", "meeple"}
    assert py["verify"]["seed"] == 4
    assert py.summary().startswith("carcsolo tune: heuristic:absorb=1 -> ")


def test_param_as_a_dict_is_the_same_run():
    a = carcsolo.tune(param={"absorb": (0, 20), "meeple": (0, 4)}, **SMALL)
    b = carcsolo.tune(param=["absorb=0..20", "meeple=0..4"], **SMALL)
    assert without_performance(a) == without_performance(b)


def test_bad_options_raise_value_error():
    with pytest.raises(ValueError) as e:
        carcsolo.tune(placement="heuristic", param=["nosuch=0..1"])
    assert "no parameter 'nosuch'" in str(e.value)
    with pytest.raises(ValueError) as e:
        carcsolo.tune(placement=lambda obs, moves: moves[0], param=["x=0..1"])
    assert "must be a string" in str(e.value)
