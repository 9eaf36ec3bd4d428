"""A game stepped from Python: the same log as the engine's, the choice of scoring order,
plain-value observations, nothing that tells the stacks' order, clear errors."""
import json
import os
import random
import subprocess
import sys

import pytest

import carcsolo
from conftest import read_logs


def replay_through_game(log, **deal):
    """Plays a logged game's placements and figures through Game (of its set, on its seed's
    deal or on `deal`: stacks=..., river=...); scoring orders come from the Game's scoring
    policy (the log's), as in the engine."""
    cfg = log["config"]
    g = carcsolo.Game(colors=cfg["colors"], meeples=cfg["meeples"], seed=log["seed"],
                      game=log["game"], scoring=cfg["scoring_policy"], tileset=cfg["tileset"],
                      large_meeple=cfg.get("large_meeple", False), **deal)
    for turn in log["turns"]:
        if turn["discarded"]:
            continue
        assert g.tile == turn["tile"] and g.turn == turn["turn"] and g.to_move == turn["color"]
        g.play((turn["x"], turn["y"], turn["rot"]), turn["meeple"], turn.get("large", False))
        if g.ordering:
            g.order()
    assert g.over
    return g


@pytest.mark.parametrize("placement,scoring", [("greedy", "best"), ("random", "random"),
                                               ("heuristic", "lowest-first")])
def test_stepping_gives_the_engines_log(cli, tmp_path, placement, scoring):
    cli("run", "--games", 40, "--seed", 21, "--colors", 3, "--meeples", 6, "--placement", placement,
        "--scoring", scoring, "-q", "--log", tmp_path / "l.jsonl", "--log-games", 40)
    logs = read_logs(tmp_path / "l.jsonl")
    assert len(logs) == 40
    orders = 0
    for log in logs:
        g = replay_through_game(log)
        assert g.log(placement=log["config"]["placement_policy"]) == log
        orders += sum(len(t.get("scored", [])) > 1 for t in log["turns"])
    assert orders > 0  # some turns did have an order to choose


def test_replay_command_and_a_given_deal(cli):
    log = json.loads(cli("replay", "--seed", 7, "--game", 17, "--placement", "greedy",
                         "--scoring", "best").stdout)
    g = replay_through_game(log)
    assert g.log(placement=log["config"]["placement_policy"]) == log
    dealt = carcsolo.Game(stacks=["".join(s) for s in log["stacks"]], seed=7, game=17, scoring="best")
    for turn in log["turns"]:
        if not turn["discarded"]:
            dealt.play((turn["x"], turn["y"], turn["rot"]), turn["meeple"])
            if dealt.ordering:
                dealt.order()
    assert dealt.log(placement=log["config"]["placement_policy"]) == log


SETS = [("base+inns+river", 3), ("base+inns+river", 4), ("base+inns", 3), ("base+river", 4)]


@pytest.mark.parametrize("tileset,colors", SETS)
def test_a_game_of_every_set_is_the_command_lines_game(cli, tmp_path, tileset, colors):
    # The same seed, set and options: the command line's games, move for move, give its logs
    # (with the large meeple placed where the log says), and so do their stacks as a deal.
    cli("run", "--games", 12, "--seed", 8, "--colors", colors, "--meeples", 3, "--tileset", tileset,
        "--large-meeple", "--placement", "heuristic", "--scoring", "best", "-q",
        "--log", tmp_path / "l.jsonl", "--log-games", 12)
    logs = read_logs(tmp_path / "l.jsonl")
    assert len(logs) == 12
    river = "river" in tileset
    large = sum(t.get("large", False) for log in logs for t in log["turns"])
    assert large > 0  # the large meeple was placed
    for log in logs:
        assert ("river_stack" in log) == river
        g = replay_through_game(log)
        assert g.log(placement=log["config"]["placement_policy"]) == log
        # the log's stacks as a given deal (lists of names, as the log has them, and strings)
        dealt = replay_through_game(log, stacks=log["stacks"], river=log.get("river_stack"))
        assert dealt.log(placement=log["config"]["placement_policy"]) == log
        spelled = replay_through_game(log, stacks=[" ".join(s) for s in log["stacks"]],
                                      river=" ".join(log["river_stack"]) if river else None)
        assert spelled.log(placement=log["config"]["placement_policy"]) == log


def test_a_python_player_on_base_inns_river_with_the_large_meeple_plays_legal_moves_that_verify(cli, tmp_path):
    rng = random.Random(9)
    placed_large = river_tiles = 0
    with open(tmp_path / "mine.jsonl", "w") as f:
        for game in range(20):
            g = carcsolo.Game(seed=3, game=game, tileset="base+inns+river", large_meeple=True, meeples=4,
                              scoring="best")
            assert "tileset=base+inns+river, large_meeple" in repr(g)
            obs = g.observation()
            assert obs["river_left"] == 10 and obs["large_supply"] == [1, 1, 1]  # a river tile in hand
            assert obs["board"][0]["tile"] == "R0" and obs["board"][0]["large"] is False
            chosen = set()  # the turns on which the large meeple was chosen
            while not g.over:
                if g.ordering:
                    g.order()
                    continue
                if g.turn < 11:  # the river first (no river tile is ever discarded), the lake last
                    river_tiles += 1
                    assert g.tile[0] == "R" and len(g.tile) == 2 and (g.tile == "R9") == (g.turn == 10)
                m = rng.choice(g.moves)
                c = g.to_move
                large = bool(m.free) and g.observation()["large_supply"][c] == 1 and rng.random() < 0.3
                if large:
                    chosen.add(g.turn)
                g.play(m, rng.choice(m.free) if m.free else None, large)
            assert g.result == min(g.scores)
            log = g.log(placement="python-random")
            assert log["config"]["tileset"] == "base+inns+river" and log["config"]["large_meeple"] is True
            assert len(log["river_stack"]) == 11 and log["river_stack"][-1] == "R9"
            assert {t["turn"] for t in log["turns"] if t.get("large")} >= chosen  # the figure chosen, not a meeple
            placed_large += len(chosen)
            f.write(json.dumps(log) + "\n")
    assert placed_large > 0 and river_tiles == 20 * 11
    out = cli("verify", tmp_path / "mine.jsonl").stdout
    assert "20 consistent, 0 inconsistent" in out


def test_a_deal_of_another_set_is_refused():
    g = carcsolo.Game(seed=1, tileset="base+inns+river")
    assert g.observation()["stack_sizes"] == [30, 30, 30]  # the tile in hand is the river's
    base = ["".join("A" for _ in range(24))] * 3
    for kwargs, message in [
            (dict(stacks=base, tileset="base+inns+river"), "stack 0 must hold 30 tiles with 3 colours"),
            (dict(stacks=["CVHUELUSBEBJOBUNBDUMFEMW", "GWVUWNDPOVAKDVVKRRKFLJVH", "RHIEUUXQWVJPSPVIEVNATUL"],
                  river="R1 R9"), "a river stack, but this game's tile set has no river"),
            (dict(river="R1 R9"), "river= is the river stack of a given deal"),
            (dict(stacks=["I1 " + "CVHUELUSBEBJOBUNBDUMFEM", "GWVUWNDPOVAKDVVKRRKFLJVH", "RHIEUUXQWVJPSPVIEVNATUL"]),
             "stack 0: I1 is not in this game's tile set"),
            (dict(tileset="nosuch"), "--tileset: ")]:
        with pytest.raises(ValueError, match=message):
            carcsolo.Game(**kwargs)


def test_choosing_the_order(cli, tmp_path):
    # Every order of a turn's completed features is legal, and the log names the one chosen.
    cli("run", "--games", 60, "--seed", 3, "--placement", "greedy", "--scoring", "as-found", "-q",
        "--log", tmp_path / "l.jsonl", "--log-games", 60)
    seen = 0
    for log in read_logs(tmp_path / "l.jsonl"):
        g = carcsolo.Game(seed=log["seed"], game=log["game"], scoring="as-found")
        for turn in log["turns"]:
            if turn["discarded"]:
                continue
            g.play((turn["x"], turn["y"], turn["rot"]), turn["meeple"])
            if g.ordering:
                n = len(g.completed)
                assert all(set(f) == {"kind", "tiles", "pennants", "meeples"} for f in g.completed)
                g.order(list(reversed(range(n))))
                seen += 1
        assert g.over
        mine = g.log()
        for a, b in zip(mine["turns"], log["turns"]):
            if len(b.get("scored", [])) > 1:
                assert [s["kind"] for s in a["scored"]] == [s["kind"] for s in reversed(b["scored"])]
    assert seen > 0


def test_observation_is_plain_values_without_the_stacks():
    g = carcsolo.Game(colors=4, meeples=5, seed=11, game=3)
    obs = g.observation()
    assert obs["colors"] == 4 and obs["meeples"] == 5 and obs["tile"] == g.tile
    assert obs["stack_sizes"] == [17, 18, 18, 17]  # the tile in hand is drawn
    assert obs["scores"] == [1, 2, 3, 4] and obs["supply"] == [5, 5, 5, 5]
    assert obs["large_supply"] == [0, 0, 0, 0] and obs["river_left"] == 0  # no large meeple, no river
    assert sum(obs["unseen"].values()) == obs["unseen_total"] == 70  # and the tile in hand
    assert obs["board"] == [{"x": 0, "y": 0, "tile": "D", "rot": 0, "edges": "CRFR",
                             "meeple": None, "meeple_color": None, "large": False}]
    assert set(obs["open"]) == {(0, -1), (1, 0), (0, 1), (-1, 0)}
    json.dumps(obs)  # plain values only
    public = [n for n in dir(g) if not n.startswith("__")]
    assert not any("stack" in n or "deal" in n for n in public), public
    with pytest.raises(ValueError, match="once the game is over"):
        g.log()
    assert "stack" not in repr(g)


def play_randomly(g, rng):
    while not g.over:
        if g.ordering:
            order = list(range(len(g.completed)))
            rng.shuffle(order)
            g.order(order)
            continue
        m = rng.choice(g.moves)
        g.play(m, rng.choice(m.free) if m.free else None)


def test_a_python_player_writes_logs_that_verify(cli, tmp_path):
    rng = random.Random(5)
    with open(tmp_path / "mine.jsonl", "w") as f:
        for game in range(30):
            g = carcsolo.Game(seed=12, game=game, meeples=3)
            play_randomly(g, rng)
            assert g.result == min(g.scores)
            f.write(json.dumps(g.log(placement="python-random")) + "\n")
    out = cli("verify", tmp_path / "mine.jsonl").stdout
    assert "30 consistent, 0 inconsistent" in out


def test_bad_moves_raise_and_change_nothing():
    g = carcsolo.Game(seed=1, game=0)
    before = g.observation()
    for move, meeple, message in [((5, 5, 0), None, "no legal placement"),
                                  ((0, -1, 7), None, "no legal placement"),
                                  ("x", None, "a Move or an"),
                                  ((0, 0), None, "a Move or an"),
                                  (g.moves[0], None, "free segments"),
                                  (g.moves[0], "road:N,S,E,W", "no segment"),
                                  (g.moves[0], 3, "name of a free segment")]:
        with pytest.raises(ValueError, match=message):
            g.play(move, meeple)
    assert g.observation() == before
    with pytest.raises(ValueError, match="no completed features"):
        g.order([0])
    for kwargs, message in [(dict(colors=1), "colors"), (dict(meeples=13), "meeples"),
                            (dict(scoring="nope"), "unknown scoring policy"),
                            (dict(stacks=["AB", "C"]), "stack 0 must hold 36 tiles"),
                            (dict(stacks=["A" * 24] * 3), "one tile A too many"),
                            (dict(colors=4, stacks=["A"] * 3), "stack")]:
        with pytest.raises(ValueError, match=message):
            carcsolo.Game(**kwargs)
    with pytest.raises(TypeError):
        carcsolo.Game(seed=-1)


def test_the_cli_deal_message_is_the_games(cli, tmp_path):
    (tmp_path / "deal.txt").write_text("# two colours\nAB\nC\n")
    p = cli("run", "--deal", tmp_path / "deal.txt", check=False)
    assert p.returncode == 2
    with pytest.raises(ValueError) as e:
        carcsolo.Game(stacks=["AB", "C"])
    assert p.stderr.endswith(": " + str(e.value) + "\n")


def test_the_repr_of_a_given_deal_names_the_deal_not_a_seed(cli):
    log = json.loads(cli("replay", "--seed", 7, "--game", 17, "-q").stdout)
    g = carcsolo.Game(stacks=["".join(s) for s in log["stacks"]])
    assert repr(g) == "Game(colors=3, meeples=4, stacks=<given: 24, 24, 23 tiles>, turn=0, tile=%s)" % g.tile
    assert "seed" not in repr(g) and "".join(log["stacks"][0][:5]) not in repr(g)
    assert repr(carcsolo.Game(seed=7, game=17)).startswith("Game(colors=3, meeples=4, seed=7, game=17, turn=0")


def test_an_interpreter_without_numpy_is_told_which_one_the_module_was_built_for(tmp_path):
    # Another python3 (here: this one under another name, with numpy hidden) gets a message
    # naming the interpreter the module was built for, and itself.
    from carcsolo import _built_for
    assert os.path.abspath(_built_for.PYTHON) == os.path.abspath(sys.executable)  # ctest runs that one
    other = tmp_path / "python3"
    other.symlink_to(sys.executable)
    code = "import sys; sys.modules['numpy'] = None; import carcsolo"
    p = subprocess.run([str(other), "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert p.returncode == 1
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: carcsolo was built for %s; this is %s, which lacks numpy"
                           % (_built_for.PYTHON, other)), last
    # the interpreter it was built for, with numpy hidden: it says that this one lacks it
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: carcsolo needs numpy, which this interpreter (%s) lacks"
                           % sys.executable), last
