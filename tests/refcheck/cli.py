"""refcheck: an independent implementation of the Carcassonne solo variant's rules, the
oracle the engine's tests check it against.

Subcommands
  check LOG.jsonl [LOG2.jsonl ...]
      Replay every `carcassonne-solo-log/1` game and verify every field, for every
      config.tileset and config.large_meeple true/false (absent: base, false).
      Exit 0: no problems, 1: problems found, 2: unreadable input.
  sim --games N --seed S --colors K --meeples M [--jobs J] --out FILE
      [--first-game F] [--log LOG.jsonl] [--tileset NAME] [--large-meeple]
      Play N games with the baseline random policies and write a JSON summary
      (same key layout as `carcassonne-solo-results/1` where it overlaps).
      --log also writes every game as a `carcassonne-solo-log/1` line.
      --tileset base (default), base+inns, base+river or base+inns+river;
      --large-meeple gives each colour the large meeple too.  Any option other than the
      plain base game adds config.large_meeple (and logs the expansion keys).
  compare REF.json RESULTS.json
      Statistical comparison of two summaries (ours vs the C++ tool's).
      Prints `compare: OK` (exit 0) or `compare: MISMATCH` (exit 1); refuses with one
      line (exit 2) if config.tileset or config.large_meeple differ (absent: base, false).
  selftest
      Hand-built rule scenarios (base and expansions), flood-fill cross-checks and
      sim -> log -> check round trips.
"""

import argparse

from .check import cmd_check
from .compare import cmd_compare
from .selftest import selftest
from .sim import cmd_sim
from .tiles import TILESETS


def _parser():
    ap = argparse.ArgumentParser(prog="refcheck", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("check", help="replay and verify game logs")
    p.add_argument("logs", nargs="+")
    p = sub.add_parser("sim", help="play random-policy games")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--colors", type=int, default=3)
    p.add_argument("--meeples", type=int, default=4)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--first-game", type=int, default=0)
    p.add_argument("--out", required=True)
    p.add_argument("--log", help="also write every game as a carcassonne-solo-log/1 line")
    p.add_argument("--tileset", default="base", choices=TILESETS,
                   help="tile set (expansions.md); default base")
    p.add_argument("--large-meeple", action="store_true",
                   help="each colour also has the Inns & Cathedrals large meeple")
    p = sub.add_parser("compare", help="compare a sim summary with a results file")
    p.add_argument("ref")
    p.add_argument("results")
    sub.add_parser("selftest", help="run built-in rule scenarios")
    return ap


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.cmd == "check":
        return cmd_check(args)
    if args.cmd == "sim":
        return cmd_sim(args)
    if args.cmd == "compare":
        return cmd_compare(args)
    return selftest()
