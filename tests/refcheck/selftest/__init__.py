"""The oracle's own tests (`refcheck selftest`): rule scenarios on boards built by hand,
the board against brute force, and the checker against this package's logs and their
corruptions.  Every group records its failed expectations; the run prints them and the
count, and fails if there is any."""

from . import base_rules, crosscheck, expansions, logs, statistics
from .helpers import Expect


def _crosscheck_base(expect):
    cc = crosscheck.crosscheck(60)
    expect("flood-fill cross-check", not cc, cc[:5])


def _crosscheck_expansions(expect):
    for ts, big in (("base+inns", True), ("base+river", False), ("base+inns+river", True)):
        cc = crosscheck.crosscheck(12, ts, big, "xcheck-" + ts)
        expect("flood-fill cross-check %s" % ts, not cc, cc[:5])


def _logs_base(expect):
    logs.base_roundtrips(expect)
    docs = logs.base_corruptions(expect)
    logs.check_command(expect, docs)


GROUPS = [
    base_rules.tile_data, base_rules.example3, base_rules.free_and_majority,
    base_rules.city_rings, base_rules.pennant_monastery_final, base_rules.goals,
    statistics.chi2, base_rules.end_reasons, _crosscheck_base, _logs_base,
    expansions.tile_data, expansions.inns, expansions.cathedrals, expansions.large_meeple,
    expansions.lone_large, expansions.river_rules, expansions.river_games,
    logs.expansion_roundtrips, logs.alike_features, statistics.compare_refusals,
    _crosscheck_expansions,
]


def selftest():
    expect = Expect()
    for group in GROUPS:
        group(expect)
    for f in expect.fails:
        print("FAIL " + f)
    print("selftest: %d failures" % len(expect.fails))
    return 1 if expect.fails else 0
