// When `run`, `compare` and `sweep` stop, and how long they take: --until-ci's rules and
// summary lines, compare's --sprt, and --dry-run's measure. One place for the three.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/driver/matrix.hpp"

namespace carc::sim {

// --until-ci SPEC, each given: "W" or "mean=W" (the mean result's 95% CI half-width, in
// points, > 0), or "GOAL=W" (a goal id of rules.md; W a proportion in (0, 1], or a
// percentage such as "1%" for 0.01). The rules come back mean first, then in goal order;
// anything else (a target named twice, an unknown goal, a bad number) is a UsageError
// naming the option.
std::vector<CiRule> parse_until_ci(const std::vector<std::string>& specs);

// compare --sprt D0,D1 with --sprt-alpha and --sprt-beta (each a number in (0, 1), their
// sum below 1): D0 < D1, any real numbers of points. Anything else is a UsageError naming
// the option.
SprtTest parse_sprt(const std::string& spec, const std::string& alpha, const std::string& beta);

// The summary's --sprt line after the games of `r`, with the cap `cap`: the decision (or
// why none), the LLR and its bounds, the hypotheses, alpha and beta.
std::string sprt_summary(const MatrixOutcome& r, const SprtTest& test, std::uint64_t cap);

// The --games default of compare and sweep with --until-ci (the cap; run keeps its own).
inline constexpr const char* kUntilCiGamesDefault = "1000000";
// The games of --until-ci's first batch, and its least step after it (the cap if fewer).
inline constexpr std::uint64_t kFirstBatch = 1000;

// The summary's --until-ci lines, one per rule (sim/study/texts.hpp: until_ci_line), after the games
// of `r` and with the cap `cap`.
std::string until_ci_summary(const MatrixOutcome& r, const CiGoal& goal, std::uint64_t cap);

// --dry-run: plays the first games of req's range for about `seconds` (at least one game
// per thread and process, at most the range), then returns what it measured and what it
// predicts, for process 0 to print: the games played and their rate (of game indices, each
// played under every configuration, which `each` names: "policies"), and the time the
// whole range takes at that rate; under --until-ci (goal has rules) the time to the cap
// and a rough guess of the games the rules need, from the spread the dry run saw (a
// half-width shrinks as 1/sqrt(games)). No progress line, no per-game rows.
struct DryRun {
  MatrixOutcome played;
  std::string report;  // lines, each ending in "\n"
};
DryRun dry_run(MatrixRequest req, const CiGoal& goal, const std::string& each, double seconds = 5);

}  // namespace carc::sim
