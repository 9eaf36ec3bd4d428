// --per-game FILE.csv (run, compare, sweep): one row per game and configuration, for pandas
// or R. Columns: run (the configuration's index in the file's `runs`; 0 for `run`), game,
// colors, meeples, placement, scoring, result, score_0..score_5 (empty past the colours in
// play), tiles_placed, discards, end_reason, then one 0/1 column per goal id.
#pragma once
#include <string>
#include <vector>

#include "sim/driver/matrix.hpp"
#include "sim/log/io.hpp"

namespace carc::sim {

// Writes the header line and the rows (not committed: the caller commits with the results).
void write_per_game_csv(AtomicFile& file, const std::vector<RunConfig>& configs,
                        const PerGameRows& rows);

}  // namespace carc::sim
