"""carcsolo from Python: studies at C++ speed, a game to step through, your own policy.

    import carcsolo
    r = carcsolo.run(games=20000, placement="heuristic", scoring="best", seed=3)
    print(r["result"]["mean"], r.games["result"][:10])
    g = carcsolo.Game(colors=3, meeples=4, seed=1, game=0)
    g.play(g.moves[0], g.moves[0].free[0] if g.moves[0].free else None)

run, compare, sweep and tune take the command line's options as keyword arguments (`first_game`
for --first-game; a list for an option given several times; True for a flag) and return
its document (what --out writes) as a dict, with `.games`: per-game numpy arrays (not kept
with arrays=False, for very long runs), and `.summary()`: the summary the command line
prints (tune returns its trajectory, docs/tune.md). load_positions reads the training data
that `carcsolo positions` writes (docs/positions-format.md) into numpy arrays. analyse (and
load_analysis for a file that `carcsolo analyse --out` wrote) gives every decision's loss as
numpy arrays.
"""
import json
import os
import sys
import threading
from typing import NamedTuple


def _interpreter_built_for():
    """The interpreter the module was built for (written into the build by CMake), or None."""
    try:
        from ._built_for import PYTHON
    except ImportError:
        return None
    return PYTHON


def _wrong_interpreter(lacks, error):
    built = _interpreter_built_for()
    if built and os.path.abspath(built) != os.path.abspath(sys.executable):
        return ImportError("carcsolo was built for %s; this is %s, which lacks %s (%s): run it with %s"
                           % (built, sys.executable, lacks, error, built))
    return ImportError("carcsolo needs %s, which this interpreter (%s) lacks (%s)"
                       % (lacks, sys.executable, error))


try:
    import numpy as np
except ImportError as e:
    raise _wrong_interpreter("numpy", e) from e

try:
    from . import _carcsolo
    from ._carcsolo import Game as _Game, Move
except ImportError as e:
    raise _wrong_interpreter("its compiled part (carcsolo._carcsolo)", e) from e

__all__ = ["run", "compare", "sweep", "tune", "Game", "Move", "Advice", "Results",
           "placement_policies", "scoring_policies", "GOAL_IDS", "END_REASONS", "load_positions",
           "Positions", "analyse", "load_analysis", "Analysis"]

GOAL_IDS = tuple(_carcsolo.goal_ids)
END_REASONS = ("none", "no_meeple", "tiles_exhausted")  # end_reason_code indexes this


class Results(dict):
    """The command's document (a dict, equal to its JSON file), with the games as arrays.

    `games`: for run, a dict of numpy arrays over the games in order: game, result, scores
    (games x colours), tiles_placed, discards, end_reason (strings), end_reason_code,
    goals (games x 14 booleans, columns in GOAL_IDS order); for compare and sweep, a list
    of such dicts, one per entry of the document's "runs". None with arrays=False (the
    arrays take 107 bytes per game and run at 3 colours, 4 more per extra colour; 60 of
    them are the end_reason strings).

    summary() (and str()): the text summary the command line prints; the repr shows its
    first line.
    """
    games = None
    _summary = ""

    def summary(self):
        """The summary the command line prints for this study, as text."""
        return self._summary

    def __repr__(self):
        head = self._summary.split("\n", 1)[0] if self._summary else "carcsolo results"
        return "<Results: %s; a dict of the document, .summary() for the whole summary>" % head

    def __str__(self):
        return self._summary or repr(self)


def _text(value):
    if isinstance(value, range):
        if value.step != 1 or len(value) == 0:
            raise ValueError("a range option must be a non-empty range with step 1")
        return "%d..%d" % (value.start, value.stop - 1)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _policy_name(policy):
    name = getattr(policy, "__qualname__", None) or type(policy).__qualname__
    return "<Python policy %s>" % name


def _shareable(path):
    """A path as the command line records it: relative to the working directory when inside
    it, else by its file name alone (documents are shared)."""
    path = os.fspath(path)
    if not os.path.isabs(path):
        return path
    rel = os.path.relpath(path)
    return os.path.basename(path) if rel == ".." or rel.startswith(".." + os.sep) else rel


def _call(name, options):
    """The Python call, for the document when a Python policy plays (no command line can)."""
    def shown(key, value):
        if isinstance(value, (list, tuple)):
            return "[%s]" % ", ".join(shown(key, v) for v in value)
        if key in ("placement", "scoring") and (callable(value) or hasattr(value, "order_features")):
            return _policy_name(value)
        if key in ("out", "log", "per_game", "deal") and isinstance(value, (str, os.PathLike)):
            return repr(_shareable(value))
        return repr(value)
    return "carcsolo.%s(%s)" % (name, ", ".join("%s=%s" % (k, shown(k, v)) for k, v in options.items()))


def _arguments(options, repeatable, lists):
    placement, scoring, args = [], [], []
    for key, value in options.items():
        if value is None or value is False:
            continue
        opt = "--" + key.replace("_", "-")
        if value is True:
            args.append(opt)
            continue
        many = isinstance(value, (list, tuple))
        if many and key in lists:  # --colors 3,4 --meeples 2..8
            args += [opt, ",".join(_text(v) for v in value)]
            continue
        if many and key not in repeatable:
            raise ValueError("%s takes one value (got %r)" % (opt, value))
        for v in (value if many else [value]):
            if key in ("placement", "scoring") and (callable(v) or hasattr(v, "order_features")):
                slots = placement if key == "placement" else scoring
                slots.append(v)
                v = "python:slot=%d" % (len(slots) - 1)
            args += [opt, _text(v)]
    if placement or scoring:
        threads = options.get("threads")
        if threads is not None and str(threads) != "1":
            raise ValueError("a Python policy plays on one thread: threads must be 1 (got %s)" % threads)
        if threads is None:
            args += ["--threads", "1"]
    return args, placement, scoring


def _arrays(d):
    d = dict(d)
    d["end_reason"] = np.array(END_REASONS)[d["end_reason_code"]]
    return d


def _study(name, options, repeatable=(), lists=()):
    options = dict(options)
    keep = options.pop("arrays", True)
    args, placement, scoring = _arguments(options, set(repeatable), set(lists))
    main = threading.current_thread() is threading.main_thread()
    status, doc, runs, summary = _carcsolo.command(name, args, placement, scoring, main, bool(keep),
                                                   _call(name, options))
    if not doc:  # help=True: the help went to stdout
        return None
    out = Results(json.loads(doc))
    out._summary = summary
    runs = [_arrays(r) for r in runs]
    if keep:
        out.games = runs[0] if name == "run" else runs
    if status == 130:  # Ctrl-C: what was played, over an exact game range
        stop = KeyboardInterrupt("%s interrupted; the games played are in this exception's "
                                 "`partial` (marked \"partial\": true)" % name)
        stop.partial = out
        raise stop
    return out


def run(**options):
    """carcsolo run with these options (games, first_game, seed, colors, meeples, tileset,
    large_meeple, placement, scoring, aim, threads, until_ci, out, log, log_games, per_game, deal:
    a deal file of the set, docs/run.md; aim: score, a goal id or goals, docs/aim.md): its results document,
    with `.games`. until_ci may be a list of rules ("mean=0.1", "total_60=0.01"), all to
    hold. placement and scoring may be Python callables (see Game.moves for what they get
    and return); they then play on one thread."""
    return _study("run", options, repeatable=("until_ci",))


def compare(**options):
    """carcsolo compare: placement and scoring are lists (one entry per policy, or one shared
    by all); entries may be Python callables. Returns the comparison document, `.games` one
    dict of arrays per run."""
    return _study("compare", options, repeatable=("placement", "scoring", "aim", "until_ci"))


def sweep(**options):
    """carcsolo sweep: colors and meeples are lists or ranges (range(2, 9) is 2..8),
    placement a list, target a list of "GOAL=RATE" strings."""
    return _study("sweep", options, repeatable=("placement", "target", "until_ci"),
                  lists=("colors", "meeples"))


def tune(**options):
    """carcsolo tune (docs/tune.md): placement is the start spec (a string), param the
    parameters to tune, as a list of "KEY=LO..HI" strings or a dict {key: (lo, hi)}; the
    other options as the command line's (budget, batch, checks, check_games, verify_seed,
    verify_games, c_end, r_end, seed, colors, meeples, scoring, threads, out). Returns the
    trajectory document (what --out writes) as a dict, with .summary(). Ctrl-C raises
    KeyboardInterrupt with the trajectory so far (status "interrupted") in `partial`."""
    options = dict(options)
    param = options.get("param")
    if isinstance(param, dict):
        options["param"] = ["%s=%s..%s" % (k, _text(lo), _text(hi)) for k, (lo, hi) in param.items()]
    for key in ("placement", "scoring"):
        if key in options and not isinstance(options[key], str):
            raise ValueError("tune searches the parameters of a policy spec: %s must be a string "
                             "such as \"heuristic:absorb=2\" (got %r)" % (key, options[key]))
    args, _, _ = _arguments(options, {"param"}, set())
    main = threading.current_thread() is threading.main_thread()
    status, doc, _, summary = _carcsolo.command("tune", args, [], [], main, False,
                                                _call("tune", options))
    if not doc:  # help=True: the help went to stdout
        return None
    out = Results(json.loads(doc))
    out._summary = summary
    if status == 130:
        stop = KeyboardInterrupt("tune interrupted; the trajectory so far is in this exception's "
                                 "`partial` (status \"interrupted\")")
        stop.partial = out
        raise stop
    return out


POSITIONS_FORMAT = "carcassonne-solo-positions/1"


class Positions(NamedTuple):
    """The rows of a `carcsolo positions` file (docs/positions-format.md), one per decision.

    features: float32 (rows x 74), columns header["feature_columns"]; targets: float32
    (rows x 21), columns header["target_columns"] (result, final_score_0..5, goal_*);
    game: uint64 game index; turn: uint16 turn number (a game log's `turn`); mover: uint16
    colour that decided (slot i of a row is colour (mover + 1 + i) mod colours); header:
    the file's JSON header as a dict.
    """
    features: np.ndarray
    targets: np.ndarray
    game: np.ndarray
    turn: np.ndarray
    mover: np.ndarray
    header: dict


def load_positions(path):
    """Reads a `carcsolo positions` file into numpy arrays (a Positions: features, targets,
    game, turn, mover, header). Raises ValueError when the file is not one, or is cut short."""
    with open(path, "rb") as f:
        line = f.readline()
    try:
        header = json.loads(line)
    except ValueError:
        raise ValueError("%s: not a positions file (no JSON header line)" % path) from None
    if not isinstance(header, dict) or header.get("format") != POSITIONS_FORMAT:
        raise ValueError("%s: not a %s file" % (path, POSITIONS_FORMAT))
    fields = []
    for field in header["record"]["fields"]:
        fields.append((field[0], field[1]) if len(field) == 2 else (field[0], field[1], (field[2],)))
    dtype = np.dtype(fields)
    if dtype.itemsize != header["record"]["bytes"]:
        raise ValueError("%s: the record fields add up to %d bytes, the header says %d"
                         % (path, dtype.itemsize, header["record"]["bytes"]))
    size = os.path.getsize(path) - len(line)
    if size != header["rows"] * dtype.itemsize:
        raise ValueError("%s: %d bytes of rows, the header says %d rows of %d bytes"
                         % (path, size, header["rows"], dtype.itemsize))
    rows = np.fromfile(path, dtype=dtype, offset=len(line))
    return Positions(np.ascontiguousarray(rows["features"]), np.ascontiguousarray(rows["targets"]),
                     np.ascontiguousarray(rows["game"]), np.ascontiguousarray(rows["turn"]),
                     np.ascontiguousarray(rows["mover"]), header)


ANALYSIS_FORMAT = "carcassonne-solo-analysis/1"
_STAGES = ("opening", "middle", "end")
_KINDS = ("none", "road", "city", "monastery")


class Analysis(Results):
    """An analysis document (docs/analysis-format.md) as a dict, with `.decisions`: one
    entry per decision of every game, in the document's order, as numpy arrays:
    game (the game's index: its position in the log file, or its game number when played),
    decision (its place among the game's placements), turn, color, tile (letter), stage and
    kind (strings) with stage_code (0 opening, 1 middle, 2 end) and kind_code (0 none,
    1 road, 2 city, 3 monastery), loss and loss_se (in-sample loss and its standard error),
    heldout and heldout_se, own_loss and own_loss_se (against the analysing player's own
    move), rank (the played move's rank, 0 the best) and moves (moves analysed). `.summary()`: the text the command line prints (empty when loaded)."""
    decisions = None


def _decision_arrays(doc):
    rows = [(g["index"], d) for g in doc["games"] for d in g["analysis"]]
    ints = lambda f, t=np.int32: np.array([f(i, d) for i, d in rows], dtype=t)
    floats = lambda key: np.array([d[key] for _, d in rows], dtype=np.float64)
    stage = np.array([d["stage"] for _, d in rows], dtype="U9")
    kind = np.array([d["kind"] for _, d in rows], dtype="U9")
    return {
        "game": ints(lambda i, d: i, np.int64),
        "decision": ints(lambda i, d: d["index"]),
        "turn": ints(lambda i, d: d["turn"]),
        "color": ints(lambda i, d: d["color"]),
        "tile": np.array([d["tile"] for _, d in rows], dtype="U1"),
        "stage": stage,
        "stage_code": ints(lambda i, d: _STAGES.index(d["stage"]), np.int8),
        "kind": kind,
        "kind_code": ints(lambda i, d: _KINDS.index(d["kind"]), np.int8),
        "loss": floats("loss"),
        "loss_se": floats("loss_stderr"),
        "heldout": floats("heldout"),
        "heldout_se": floats("heldout_stderr"),
        "own_loss": floats("own_loss"),
        "own_loss_se": floats("own_loss_stderr"),
        "rank": ints(lambda i, d: d["played_rank"]),
        "moves": ints(lambda i, d: len(d["moves"])),
    }


def analyse(file=None, **options):
    """carcsolo analyse. Without `file`: plays the games of `placement` (with games, seed,
    scoring, colors, meeples, first_game as run takes them) and analyses every decision;
    with `file` (a game log file): analyses its games (placement or analyser then names the
    analysing player, as on the command line). Other options: analyser, rollouts,
    candidates, threads, largest, out, log. Returns an Analysis: the document as a dict,
    `.decisions` per-decision numpy arrays, `.summary()`."""
    options = dict(options)
    args, placement, scoring = _arguments(options, set(), set())
    if placement or scoring:
        raise ValueError("analyse takes policies by name (a spec string), not Python callables")
    if file is not None:
        args = [os.fspath(file)] + args
    main = threading.current_thread() is threading.main_thread()
    shown = dict(options, **({"file": file} if file is not None else {}))
    status, doc, _, summary = _carcsolo.command("analyse", args, [], [], main, False, _call("analyse", shown))
    if status == 130 and not doc:  # Ctrl-C before the first game was analysed
        raise KeyboardInterrupt("analyse interrupted before any game was analysed")
    if not doc:  # help=True
        return None
    out = Analysis(json.loads(doc))
    out._summary = summary
    out.decisions = _decision_arrays(out)
    if status == 130:  # Ctrl-C: the games analysed to their end
        stop = KeyboardInterrupt("analyse interrupted; the games analysed are in this exception's "
                                 "`partial` (marked \"partial\": true)")
        stop.partial = out
        raise stop
    return out


def load_analysis(path):
    """Reads a file that `carcsolo analyse --out` wrote into an Analysis (the document, with
    `.decisions` as numpy arrays). Raises ValueError when it is not one."""
    with open(path) as f:
        try:
            doc = json.load(f)
        except ValueError:
            raise ValueError("%s: not a JSON analysis file" % path) from None
    if not isinstance(doc, dict) or doc.get("format") != ANALYSIS_FORMAT:
        raise ValueError("%s: not a %s file" % (path, ANALYSIS_FORMAT))
    out = Analysis(doc)
    out.decisions = _decision_arrays(out)
    return out


def placement_policies():
    """Every placement policy: name, help and params {key: (default, help)}."""
    return _carcsolo.placement_policies()


def scoring_policies():
    """Every scoring-order policy."""
    return _carcsolo.scoring_policies()


def _is_search(spec):
    """Whether a placement spec names the policy `search` (its own valuation)."""
    return spec.split(":", 1)[0].strip() == "search"


class Advice(NamedTuple):
    """One move of Game.advise(): rank (1 is the advice), x, y, rot, meeple (a segment name
    or None), mean (the expected result after it: the lowest final score), stderr (its
    standard error over the rollouts) and large (the meeple is the large meeple). `move` is
    (x, y, rot); g.play(advice) plays it."""
    rank: int
    x: int
    y: int
    rot: int
    meeple: object
    mean: float
    stderr: float
    large: bool = False

    @property
    def move(self):
        return (self.x, self.y, self.rot)


def _names(stack):
    """A stack as the engine reads it: a string of names (or of base letters), or a list of
    names (a game log's `stacks[c]` or `river_stack`), joined by spaces."""
    return stack if isinstance(stack, str) else " ".join(stack)


class Game(_Game):
    """One game to step through.

    Game(colors=3, meeples=4, seed=1, game=0, stacks=None, scoring="random", tileset="base",
    large_meeple=False, river=None): the deal of (seed, game), or `stacks`, one stack per
    colour (top first): a string of tile names separated by spaces ("D I3 U", or base letters
    without spaces, "DUV") or a list of names (a game log's `stacks`), with `river` the
    river stack's in the same spelling (a log's `river_stack`, the lake R9 last) when the set
    has the river. `tileset` and `large_meeple` are the command line's --tileset and
    --large-meeple (docs/expansions.md). `scoring` orders completed features when order() is
    given no order, and the final scoring.

    tile: the tile in hand (a name; None while ordering or once over). moves: its legal
    placements (Move: x, y, rot, free). play(move, meeple, large=False): a Move or (x, y,
    rot), and one of move.free (a meeple must go on a free segment when there is one and the
    colour has a figure) or None; large=True places the large meeple (the lone one is placed
    whatever `large` says). When the tile completed several features, `ordering` is True and
    `completed` lists them (kind, tiles, pennants, meeples per colour): order([indices]), or
    order() for the scoring policy's order. observation(): what a policy sees. goals,
    scores, result, turn, to_move, over. log(): the game log (game-log.md), once over.
    Nothing tells the order of the undrawn tiles.

    Game.table(colors=3, meeples=4, scoring="best", tileset="base", large_meeple=False): a
    game at the table, without a deal (docs/advise.md): `needs_draw` is True while the colour
    to move waits for its tile, and draw("V") tells which tile it drew (with the river, its
    tiles first, the lake R9 last; a ValueError when no such tile is left unseen or no draw
    is due; a tile that fits nowhere is discarded and the same colour draws again).
    observation()["unseen"] and ["stack_sizes"] say what is left to draw. advise(k) ranks the
    moves of the tile in hand, in any game, as `carcsolo analyse` values them.
    """

    def __init__(self, colors=None, meeples=4, seed=1, game=0, stacks=None, scoring="random",
                 table=False, tileset="base", large_meeple=False, river=None, aim="score"):
        if stacks is not None:
            stacks = [_names(s) for s in stacks]
        if river is not None:
            river = _names(river)
        _Game.__init__(self, colors=colors, meeples=meeples, seed=seed, game=game, stacks=stacks,
                       scoring=scoring, table=table, tileset=os.fspath(tileset),
                       large_meeple=large_meeple, river=river, aim=aim)

    @classmethod
    def table(cls, colors=3, meeples=4, scoring="best", seed=1, tileset="base", large_meeple=False,
              aim="score"):
        """A game at the table: no deal; draw() tells each tile drawn. `scoring` orders the
        features a move completes when order() is given no order (the advice assumes it), and
        the final scoring; `seed` seeds its random stream (the advice has its own). `tileset`
        and `large_meeple` as in Game(). `aim`: what advise() plays for (score, a goal id or
        goals, docs/aim.md); the `aim` attribute changes it during the game."""
        return cls(colors=colors, meeples=meeples, seed=seed, scoring=scoring, table=True,
                   tileset=tileset, large_meeple=large_meeple, aim=aim)

    def advise(self, k=5, analyser="search", rollouts=None, candidates=None, seed=1):
        """The k best moves of the tile in hand, best first, as Advice tuples. With a `search`
        analyser (the default) the moves are valued by search's own search and the first is
        search's choice (mean: its rollouts' mean value, stderr: their standard error); with
        any other placement spec, by `rollouts` (32) continuations of the game by that player
        from this position, the unseen tiles re-dealt at random (common random numbers), the
        `candidates` (8) best moves by the heuristic (0: all). The same as `carcsolo analyse
        --placement ANALYSER [--rollouts R --candidates C] --seed S` gives this decision in
        the game's log. The move's turn is scored in the game's scoring order. ValueError
        while no tile is in hand, and for rollouts or candidates with a search analyser."""
        if _is_search(analyser) and (rollouts is not None or candidates is not None):
            raise ValueError("rollouts and candidates are for a rollout analyser (such as 'heuristic'); "
                             "search's budget is in its spec (e.g. 'search:rollouts=48')")
        return [Advice(*a) for a in self._advise(k, analyser, 32 if rollouts is None else rollouts,
                                                 8 if candidates is None else candidates, seed)]

    def play(self, move, meeple=None, large=False):
        """Plays a Move, an (x, y, rot) tuple with `meeple` (`large`: the large meeple), or an
        Advice (its meeple and figure)."""
        if isinstance(move, Advice):
            move, meeple, large = move.move, move.meeple, move.large
        _Game.play(self, move, meeple, bool(large))

    def log(self, placement="python"):
        """The game log as a dict (once the game is over); `placement` names the player."""
        return json.loads(self._log(placement))
