// The results file of `run` (carcassonne-solo-results/1, docs/results-format.md) and the
// summary it prints: one configuration's games, with the deal when one was given to every
// game and --until-ci's record.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/driver/deal.hpp"
#include "sim/driver/matrix.hpp"

namespace carc::sim {

// The document of the games of `r` under `rc` (its first game and games as played) on
// `threads` threads; `deal`: the deal every game played, or null; `goal`: --until-ci's.
nlohmann::json run_document(const MatrixOutcome& r, const RunConfig& rc, const ProgramInfo& program, int threads,
                            const Stacks* deal, const CiGoal& goal);

// The summary: the policies and configuration, the aim's line, the results, the speed, how
// to replay the first game (`replayable`: from the command line; `deal_path` the deal's
// file, or empty) and --until-ci's lines.
std::string run_summary(const MatrixOutcome& r, const RunConfig& rc, int threads, const std::string& deal_path,
                        const CiGoal& goal, bool replayable);

}  // namespace carc::sim
