// The files of `compare` (carcassonne-solo-compare/1) and `sweep`
// (carcassonne-solo-sweep/1): written from a MatrixOutcome by their commands, and read back
// by `merge`, which joins shards of one study into the file one run over their union
// writes. One writer for both, so the two cannot drift apart.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/driver/matrix.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

inline constexpr const char* kCompareFormat = "carcassonne-solo-compare/1";
inline constexpr const char* kSweepFormat = "carcassonne-solo-sweep/1";

// sweep --target: the option whose `key` (a goal id, or "mean") comes closest to `value`.
struct Target {
  std::string key;
  double value = 0;
};

// What a compare or sweep file is of, but for its game range.
struct MatrixStudy {
  std::string format;                // kCompareFormat or kSweepFormat
  std::vector<RunConfig> configs;    // one per run, in the file's order
  std::uint64_t first_game = 0;
  // --until-ci (compare, sweep): its rules (empty without), the cap and the first batch
  // (0: not known, in files of versions that did not record it). Written to `config` as
  // until_ci (the mean rule's half-width, or null), until_ci_goals ({goal id: half-width},
  // only with goal rules) and max_games (the cap, or null): compare always writes until_ci
  // and max_games, sweep only with --until-ci. The document's `until_ci` record is ci_record's.
  std::vector<CiRule> ci_rules;
  std::uint64_t ci_cap = 0, ci_first_batch = 0;
  CiGoal ci_goal() const;
  // compare --sprt: the test and its cap; the document then has the `sprt` record
  // (sprt_record). Not read back: `merge` refuses such files.
  std::optional<SprtTest> sprt;
  std::uint64_t sprt_cap = 0;
  // compare --pairs all: the paired difference of every pair of runs, not only of each
  // against the first. Written as config.pairs "all" (absent otherwise) and the document's
  // `pair_differences`: every pair (first < second) in matrix_pairs order, each as
  // `differences` writes one; `differences` stays each run against the first.
  bool all_pairs = false;
  // sweep: the lists (configs: placement outer, then colours, meeples inner) and the
  // targets. One placement: the file has no `config.placements` (config.placement_policy names it).
  std::vector<std::string> placements;
  std::vector<int> colors, meeples;
  std::vector<Target> targets;
};

// The document of `study` over the games of `r`. Performance: `threads` and r's seconds;
// "partial": true when r is.
nlohmann::json matrix_document(const MatrixStudy& study, const MatrixOutcome& r, int threads,
                               const ProgramInfo& program);

// A file read back: its study, its outcome (accumulators, differences, per-run and total
// seconds) and its threads. Throws std::runtime_error with one line naming the key when
// the document is malformed or its parts disagree.
struct MatrixFile {
  MatrixStudy study;
  MatrixOutcome outcome;
  int threads = 0;
};
MatrixFile read_matrix_file(const nlohmann::json& doc);

// The first thing in which two files' studies differ ("config.seed", "runs[1].config.
// placement_policy", "targets", ...), or "" when they are of one study.
std::string study_difference(const MatrixStudy& a, const MatrixStudy& b);

// The first key in which two runs' configurations differ but for their game range, or ""
// (the value net by its hash: a file of the built-in net and one of an equal user file are
// of one study).
std::string config_difference(const RunConfig& a, const RunConfig& b);

}  // namespace carc::sim
