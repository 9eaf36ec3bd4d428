"""A game at the table from Python (Game.table, draw, advise, play): the advice is the
command line's, a whole deal played on the advice writes a log that verifies, bad letters
and untimely calls raise one clear ValueError; scripts/advise_drive.py passes on a deal."""
import json
import os
import subprocess
import sys

import pytest

import carcsolo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def deal(cli, seed):
    log = json.loads(cli("replay", "--seed", seed, "--game", 0, "-q").stdout)
    return ["".join(s) for s in log["stacks"]]


def test_a_deal_played_on_the_advice_verifies_and_the_advice_is_the_command_lines(cli, tmp_path):
    stacks = deal(cli, 6)
    g = carcsolo.Game.table(colors=3, meeples=4)
    assert g.at_the_table and g.needs_draw and g.tile is None
    assert repr(g) == "Game(colors=3, meeples=4, table, turn=0, draw for colour 0)"
    taken = [0, 0, 0]
    first = []
    while not g.over:
        if g.needs_draw:
            c = g.to_move
            unseen = g.observation()["unseen_total"]
            g.draw(stacks[c][taken[c]].lower() if taken[c] % 2 else stacks[c][taken[c]])
            taken[c] += 1
            assert g.observation()["unseen_total"] == unseen - 1
            continue
        advice = g.advise(3, analyser="heuristic", rollouts=4, candidates=4, seed=3)
        assert 1 <= len(advice) <= 3
        assert [a.rank for a in advice] == list(range(1, len(advice) + 1))
        assert all(a.mean >= b.mean for a, b in zip(advice, advice[1:]))
        assert all(a.stderr >= 0 for a in advice)
        first.append(advice[0])
        g.play(advice[0])
        if g.ordering:
            g.order()
    log = g.log("advise")
    assert log["deal"] == "table" and "seed" not in log
    (tmp_path / "g.jsonl").write_text(json.dumps(log) + "\n")
    assert "1 consistent, 0 inconsistent" in cli("verify", tmp_path / "g.jsonl").stdout
    # The command line, fed the same letters and always the first move, advised the same.
    letters, taken = [], [0, 0, 0]
    for turn in log["turns"]:
        letters.append(turn["tile"])
        if not turn["discarded"]:
            letters.append("1")
    p = subprocess.run([os.environ["CARCSOLO"], "advise", "--analyser", "heuristic", "--rollouts", "4", "--candidates", "4",
                        "--seed", "3", "-k", "3", "-q"], input="\n".join(letters) + "\n",
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = [line.split() for line in p.stdout.splitlines() if line.startswith("move 1 ")]
    assert len(lines) == len(first)
    for words, a in zip(lines, first):
        assert words[2] == "%d,%d,%d" % a.move
        assert words[3] == (a.meeple or "-")
        assert float(words[4]) == pytest.approx(a.mean, abs=0.005)
        assert float(words[5]) == pytest.approx(a.stderr, abs=0.005)


def test_a_river_game_with_the_large_meeple_at_the_table_is_the_command_lines(cli, tmp_path):
    # base+inns+river with the large meeple: the river's tiles told first (the lake last), the
    # advice played; the log verifies and the command line's advisor, told the same tiles,
    # advised the same moves and figures.
    log = json.loads(cli("replay", "--seed", 4, "--game", 0, "--tileset", "base+inns+river", "--large-meeple",
                         "-q").stdout)
    stacks, river = log["stacks"], log["river_stack"]
    g = carcsolo.Game.table(colors=3, meeples=3, tileset="base+inns+river", large_meeple=True)
    assert repr(g) == ("Game(colors=3, meeples=3, tileset=base+inns+river, large_meeple, table, turn=0, "
                       "draw for colour 0)")
    with pytest.raises(ValueError, match="the river is laid first"):
        g.draw(stacks[0][0])
    with pytest.raises(ValueError, match="the lake"):
        g.draw("R9")
    with pytest.raises(ValueError, match=r"'R12' is no tile name \(A..X, I1..I17, R0..R9\)"):
        g.draw("R12")
    taken, laid = [0, 0, 0], 0
    first = []
    while not g.over:
        if g.needs_draw:
            c = g.to_move
            if g.observation()["river_left"] > 0:
                g.draw(river[laid].lower())
                laid += 1
            else:
                g.draw(stacks[c][taken[c]])
                taken[c] += 1
            continue
        if not first:  # the analyser plays the game's set: the learned value knows only the base game's
            with pytest.raises(ValueError, match="the learned value knows the base game only"):
                g.advise(1, analyser="value")
        advice = g.advise(3, analyser="heuristic", rollouts=4, candidates=4, seed=3)
        first.append(advice[0])
        g.play(advice[0])
        if g.ordering:
            g.order()
    assert laid == 11
    log = g.log("advise")
    assert log["config"]["tileset"] == "base+inns+river" and log["config"]["large_meeple"] is True
    assert log["river_stack"] == river
    assert any(t.get("large") for t in log["turns"])  # the large meeple was placed
    (tmp_path / "g.jsonl").write_text(json.dumps(log) + "\n")
    assert "1 consistent, 0 inconsistent" in cli("verify", tmp_path / "g.jsonl").stdout
    letters = []
    for turn in log["turns"]:
        letters.append(turn["tile"])
        if not turn["discarded"]:
            letters.append("1")
    p = subprocess.run([os.environ["CARCSOLO"], "advise", "--tileset", "base+inns+river", "--large-meeple",
                        "--meeples", "3", "--analyser", "heuristic", "--rollouts", "4", "--candidates", "4",
                        "--seed", "3", "-k", "3", "-q"], input="\n".join(letters) + "\n",
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = [line.split() for line in p.stdout.splitlines() if line.startswith("move 1 ")]
    assert len(lines) == len(first)
    for words, a in zip(lines, first):
        assert words[2] == "%d,%d,%d" % a.move
        figure = ["large", a.meeple] if a.large else [a.meeple or "-"]
        assert words[3:3 + len(figure)] == figure
        assert float(words[3 + len(figure)]) == pytest.approx(a.mean, abs=0.005)


def test_advice_in_a_dealt_game_values_every_move_with_candidates_0():
    g = carcsolo.Game(seed=2, game=5, scoring="best")
    a = g.advise(50, analyser="heuristic", rollouts=3, candidates=0, seed=4)  # every legal move
    assert 1 < len(a) <= sum(max(1, len(m.free)) for m in g.moves)  # the same position once
    assert a[0].rank == 1
    # a different analyser values the same moves otherwise
    b = g.advise(50, analyser="greedy", rollouts=3, candidates=0, seed=4)
    assert sorted((x.move, x.meeple) for x in a) == sorted((x.move, x.meeple) for x in b)
    assert [x.mean for x in a] != [x.mean for x in b]


def test_bad_letters_and_untimely_calls_raise_one_clear_value_error():
    g = carcsolo.Game.table()
    for letter, message in [("Z", "'Z' is no tile letter (one of A..X, as in rules.md)"),
                            ("VV", "'VV' is no tile letter"), ("", "'' is no tile letter")]:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            g.draw(letter)
    with pytest.raises(ValueError, match="no tile in hand: draw"):
        g.advise()
    g.draw("C")
    with pytest.raises(ValueError, match="colour 0 has tile C in hand: play it first"):
        g.draw("V")
    for kwargs, message in [(dict(k=0), "k must be at least 1"), (dict(analyser="heuristic", rollouts=0), "rollouts must be"),
                            (dict(analyser="nope"), "nope"), (dict(analyser="heuristic", candidates=-1), "candidates must be"),
                            (dict(rollouts=8), "rollouts and candidates are for a rollout analyser")]:
        with pytest.raises(ValueError, match=message):
            g.advise(**kwargs)
    g.play(g.advise(1, analyser="heuristic", rollouts=2)[0])
    with pytest.raises(ValueError, match=r"no tile C is left to draw \(all 1 are seen\)"):
        g.draw("C")
    assert g.needs_draw and g.to_move == 1
    with pytest.raises(ValueError, match="this game has a deal"):
        carcsolo.Game(seed=1).draw("V")
    with pytest.raises(ValueError, match="a game at the table has no stacks"):
        carcsolo.Game(stacks=["A"] * 3, table=True)
    with pytest.raises(ValueError, match="once the game is over"):
        g.log()


def test_the_drive_script_passes_on_a_deal():
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "advise_drive.py"),
                        os.environ["CARCSOLO"], "--seeds", "4", "--rollouts", "4", "--candidates", "4"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.startswith("seed 4: over result ")
    assert "verify ok" in p.stdout and "advice = analyse's best at" in p.stdout
