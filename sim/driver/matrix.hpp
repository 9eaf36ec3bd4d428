// The driver: every configuration of a matrix (placement x scoring x colours x meeples)
// plays every game index of one range, in parallel (OpenMP threads, and MPI processes
// under mpirun). `run` is a matrix of one configuration, `compare` one of policies, `sweep`
// one of colour and meeple counts.
//
// Game i of seed s deals the same tile order under every configuration (common random
// numbers), so the per-game difference between two configurations varies far less than
// the difference of two independent runs. Every accumulator is exact integers, so the
// outcome does not depend on the thread count, the process count or scheduling.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/stats/paired_diff.hpp"
#include "sim/stats/sprt.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct MatrixOutcome {
  std::vector<Accumulator> acc;  // per configuration
  // diff[k - 1]: configuration k against configuration 0; with MatrixRequest::all_pairs
  // every pair follows, as matrix_pairs lists them.
  std::vector<PairedDiff> diff;
  std::vector<double> config_seconds;  // wall time spent in each configuration's games
  // Game indices [first_game, first_game + games_done) are in every acc and diff.
  std::uint64_t games_done = 0;
  double seconds = 0;
  bool partial = false;  // stopped before the requested range was complete

  // Appends the outcome of the game range that follows this one.
  void append(const MatrixOutcome& next);
  // The results document of configuration k (`config` with this outcome's range), with
  // `program` and its share of the time; "partial": true when partial.
  nlohmann::json run_json(const RunConfig& config, std::uint64_t first_game,
                          const ProgramInfo& program, int threads, std::size_t k) const;
};

// A few words on the outcome so far (part of the games), for the progress line: e.g.
// "mean 4.123 ± 0.051".
using ProgressText = std::function<std::string(const MatrixOutcome& so_far)>;

// What one progress line describes: a snapshot of whole games taken at one moment, so the
// line's count and its statistics are of the same games.
struct ProgressView {
  const MatrixOutcome* so_far = nullptr;  // the games shown; null (or none) before the first
  std::uint64_t range = 0;                // games of the range they belong to
  double seconds = 0;                     // since the range started
  int processes = 1;  // > 1: mid-range, so_far and range are process 0's share of an MPI job
};
using ProgressLine = std::function<std::string(const ProgressView&)>;

// play_matrix's line: "D/N games  R games/s  TEXT  ETA Xs", D the games in v.so_far (every
// game index counted once, whatever the number of configurations), TEXT text(*v.so_far);
// "process 0: " first when v.processes > 1. Just "0/N games" before the first game.
std::string progress_line(const ProgressView& v, const ProgressText& text);
// "3h 05m", "12m 40s", "41s", "0.3s": a duration for people.
std::string duration_text(double seconds);

// Every game's outcome under every configuration (--per-game, the Python module's arrays):
// row (game - first_game) * configs + k. The caller sets first_game and configs; play_matrix
// grows `rows` to cover its range, and each game writes its own rows (no locking).
struct PerGameRows {
  std::uint64_t first_game = 0;
  std::size_t configs = 1;
  std::vector<GameOutcome> rows;
  std::uint64_t games() const { return rows.size() / configs; }
};

// Policies made otherwise than from their spec (the Python module's policies): called once
// per thread and configuration with that configuration; nullptr means "from its spec".
struct PolicyMakers {
  std::function<std::unique_ptr<PlacementPolicy>(const RunConfig&)> placement;
  std::function<std::unique_ptr<ScoringPolicy>(const RunConfig&)> scoring;
};

struct MatrixRequest {
  // K >= 1 configurations; their seed, colours, meeples and policies are used, their
  // first_game and games are not (the request's range applies to all).
  std::vector<RunConfig> configs;
  std::uint64_t first_game = 0, games = 0;
  int threads = 1;  // per process
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: finish early
  // When set, process 0 keeps one line on stderr up to date from the start, a few times a
  // second: progress_line (game indices done, each played under every configuration, their
  // rate, this text, ETA), or `line` when that is set (play_until_ci sets it).
  ProgressText progress;
  ProgressLine line;
  PerGameRows* per_game = nullptr;  // when set: every game's outcome (one process only)
  const Stacks* deal = nullptr;     // when set: every game plays this deal (run --deal)
  PolicyMakers makers;
  // Every pair's paired difference, not only each configuration's against the first
  // (compare --pairs all): MatrixOutcome::diff as matrix_pairs(configs, true) lists them.
  bool all_pairs = false;
};

// The pairs (first, second) whose differences second - first MatrixOutcome::diff holds, in
// its order: (0, 1) ... (0, K-1), then with `all` (1, 2), (1, 3) ... (K-2, K-1).
std::vector<std::pair<std::size_t, std::size_t>> matrix_pairs(std::size_t configs, bool all);

// Plays the request; every process of an MPI job calls it with the same request and gets
// the same outcome. Games go in blocks, dealt to the processes in turn; a stop request only
// keeps new blocks from being taken, then the processes agree on the first block none has
// taken and finish the blocks below it, so the outcome always covers a prefix of the range
// (partial = true when it is shorter). An exception in any thread of any process stops the
// work and is thrown here, after the threads have ended, as an InternalError
// (sim/driver/errors.hpp).
MatrixOutcome play_matrix(const MatrixRequest& req);

// "Play until the 95% CI is this narrow" on top of play_matrix (--until-ci).
//
// One rule: the 95% CI half-width of the mean result (goal < 0) or of goal `goal`'s rate
// (kGoalIds order) must be at most half_width.
struct CiRule {
  int goal = -1;
  double half_width = 0;
  bool operator==(const CiRule&) const = default;
};
// Which intervals the rules read, always the widest of them:
// - runs: every configuration's own (run, sweep): the mean's normal interval (1.96 s/sqrt n),
//   a goal rate's 95% Wilson interval (half its width: it is not symmetric);
// - differences: every configuration's paired difference against configuration 0 (compare):
//   the mean difference's interval, a goal-rate difference's paired interval (0 wide while
//   the two never disagree on the goal).
enum class CiOf { runs, differences };
struct CiGoal {
  std::vector<CiRule> rules;  // all of them must be met
  CiOf of = CiOf::runs;
  std::uint64_t first_batch = 1000;  // games of the first batch, and the least step after it
};
// The rule's current half-width (the widest of those it reads).
double ci_width(const MatrixOutcome& o, CiOf of, const CiRule& rule);
bool ci_met(const MatrixOutcome& o, const CiGoal& goal);
// "mean" or the goal id.
std::string ci_rule_name(const CiRule& rule);
// "mean ± 0.310 (to 0.05), total_60 ± 1.21% (to 1%)": each rule's current half-width and
// target (goal rates in percentage points).
std::string ci_status(const MatrixOutcome& o, const CiGoal& goal);
// The file's `until_ci` record: `cap`, `first_batch` (unless 0), `met` (every rule), `half_width` (the
// mean rule's, when there is one) and `rules` (per rule: `target`, `half_width`,
// `interval`, `achieved`, `met`).
nlohmann::json ci_record(const MatrixOutcome& o, const CiGoal& goal, std::uint64_t cap);

// Plays req.games as a cap: first `first_batch` games, then as next_checkpoint
// (sim/stats/paired_diff.hpp) says for the rule that needs the most games, until every rule
// is met or the cap is reached. The rules read only exact counts, so a command always
// stops at the same game. Covers [first_game, first_game + games_done) like play_matrix;
// partial only when stopped. Without rules it plays the whole range in one batch. Its
// progress line counts every game played so far, shows each rule's half-width and the
// next checkpoint.
MatrixOutcome play_until_ci(const MatrixRequest& req, const CiGoal& goal);
// play_until_ci's progress line over `so_far` (every batch so far), `seconds` since the
// first batch started, `check_at` the end of the current batch.
std::string until_ci_progress_line(const MatrixOutcome& so_far, double seconds, std::uint64_t check_at,
                                   const CiGoal& goal, const ProgressText& text, int processes);

// compare --sprt: plays req.games as a cap in batches that end at the test's checkpoints
// (sprt_next_checkpoint), reading it on configuration 1's paired difference against
// configuration 0 after each, until a bound is crossed or the cap is reached. Exact sums
// only, so it stops at the same game whatever the threads or processes. Covers
// [first_game, first_game + games_done) like play_matrix; partial only when stopped.
MatrixOutcome play_sprt(const MatrixRequest& req, const SprtTest& test);
// play_sprt's progress line: progress_line over `so_far` (every batch so far; none: "0/N
// games") toward `check_at`, then the LLR read at the last checkpoint `llr_at` with its
// bounds (once there is one) and the next checkpoint.
std::string sprt_progress_line(const MatrixOutcome& so_far, double seconds, std::uint64_t check_at,
                               const SprtTest& test, double llr, std::uint64_t llr_at,
                               const ProgressText& text, int processes);
// The LLR of `o`'s first paired difference, and the decision at its games (inconclusive
// when partial: it stopped between checkpoints).
double sprt_llr(const SprtTest& test, const MatrixOutcome& o);
SprtDecision sprt_decision(const SprtTest& test, const MatrixOutcome& o);
// The file's `sprt` record: d0, d1, alpha, beta, lower, upper, llr, result, games, cap.
nlohmann::json sprt_record(const MatrixOutcome& o, const SprtTest& test, std::uint64_t cap);

int default_threads();

}  // namespace carc::sim
