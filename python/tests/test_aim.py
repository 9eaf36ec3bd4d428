"""Playing for a goal from Python (docs/aim.md): run(aim=...) and compare(aim=[...]) record
the aim, Game.table(aim=...) and the Game.aim attribute give aimed advice whose values are
the goal's chances, and what cannot aim raises one clear ValueError."""
import pytest

import carcsolo

SEARCH = "search:candidates=8,beam=3,rollouts=4,turns=4"


def test_run_and_compare_record_the_aim():
    r = carcsolo.run(placement=SEARCH, scoring="best", aim="monastery_3", games=2, seed=3)
    assert r["config"]["aim"] == "monastery_3"
    c = carcsolo.compare(placement=[SEARCH, SEARCH], aim=["score", "road_10_3c"], scoring="best", games=2,
                         seed=3)
    assert "aim" not in c["runs"][0]["config"]
    assert c["runs"][1]["config"]["aim"] == "road_10_3c"


def test_a_player_that_cannot_aim_is_refused():
    with pytest.raises(ValueError, match="cannot aim"):
        carcsolo.run(placement="heuristic", aim="road_10_3c", games=1)
    with pytest.raises(ValueError, match="unknown aim"):
        carcsolo.Game.table(aim="road_11")


def test_aimed_advice_values_moves_by_the_goals_chance_and_the_aim_can_change():
    g = carcsolo.Game.table(aim="road_10")
    assert g.aim == "road_10"
    g.draw("D")  # a road and a city: several moves, valued by rollouts
    advice = g.advise(k=10, analyser=SEARCH)
    assert len(advice) > 1
    for a in advice:
        assert 0 <= a.mean <= 1, a
    scored = None
    g.aim = "score"
    assert g.aim == "score"
    scored = g.advise(k=10, analyser=SEARCH)
    assert max(a.mean for a in scored) > 1  # points again
    g.aim = "goals"
    goals = g.advise(k=3, analyser=SEARCH)
    assert all(0 <= a.mean <= 14 for a in goals)
    with pytest.raises(ValueError, match="cannot aim"):
        g.advise(k=3, analyser="heuristic")
    with pytest.raises(ValueError, match="unknown aim"):
        g.aim = "nothing"
    assert g.aim == "goals"
