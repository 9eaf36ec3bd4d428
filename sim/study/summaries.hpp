// What `compare` and `sweep` print of a study, which `merge` prints for a merged file too:
// the tables, the summaries around them and the words of their progress lines.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/driver/matrix.hpp"
#include "sim/study/matrix_files.hpp"

namespace carc::sim {

// compare: each policy's mean with its CI and p10/p50/p90, each paired difference against
// the first with wins/draws/losses, and every goal's rates and paired differences.
void print_compare_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r);
// sweep: the table of options (a heading per placement when there are several).
void print_sweep_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r);

// The whole summaries: a heading line, the table, (sweep) the options closest to each
// target of `closest` (matrix_document's), and the speed on `threads` threads.
void print_compare_summary(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r,
                           std::uint64_t first_game, int threads);
void print_sweep_summary(std::ostream& os, const MatrixStudy& study, const MatrixOutcome& r,
                         const nlohmann::json& closest, int threads);

// The progress line's words: "difference +1.234 ± 0.567" (the second run against the
// first) and "means 3.31..6.70, widest CI ± 0.071".
std::string compare_progress_text(const MatrixOutcome& o);
std::string sweep_progress_text(const MatrixOutcome& o);

}  // namespace carc::sim
