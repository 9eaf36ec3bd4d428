"""An independent implementation of the Carcassonne solo variant's rules, used by the
tests as an oracle for the engine: it replays the engine's game logs field by field
(`check`), plays its own random games (`sim`) and compares their distributions with the
engine's (`compare`).

Written from the rule and format documents only (docs/rules.md, game-log.md,
results-format.md, expansions.md), in the standard library: a bug shared with the engine
would need the same misreading twice, so it shares no code or data with the engine.
Tile sets: base, base+inns (Inns & Cathedrals: inns, cathedrals), base+river (The River
I) and base+inns+river, each with or without the large meeple.

Modules: tiles (the tile sets), board (placement and features), scoring (figures,
scores, goals), game (the random-policy game and its log), check and check_scoring, sim,
compare (the subcommands), cli, and selftest (the oracle's own tests).  Run it as
`python3 tests/refcheck SUBCOMMAND ...` (see cli.py)."""
