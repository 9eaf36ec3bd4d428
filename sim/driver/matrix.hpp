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
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/stats/paired_diff.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct MatrixOutcome {
  std::vector<Accumulator> acc;  // per configuration
  std::vector<PairedDiff> diff;  // diff[k - 1]: configuration k against configuration 0
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

// A few words on the outcome so far (an estimate from part of the games), for the
// progress line: e.g. "mean 4.123 ± 0.051".
using ProgressText = std::function<std::string(const MatrixOutcome& so_far)>;

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
  // second: game indices done (each played under every configuration), their rate, this
  // text, ETA.
  ProgressText progress;
  PerGameRows* per_game = nullptr;  // when set: every game's outcome (one process only)
  const Stacks* deal = nullptr;     // when set: every game plays this deal (run --deal)
  PolicyMakers makers;
};

// Plays the request; every process of an MPI job calls it with the same request and gets
// the same outcome. Games go in blocks, dealt to the processes in turn; a stop request only
// keeps new blocks from being taken, then the processes agree on the first block none has
// taken and finish the blocks below it, so the outcome always covers a prefix of the range
// (partial = true when it is shorter). An exception in any thread of any process stops the
// work and is thrown here, after the threads have ended, as an InternalError
// (sim/driver/errors.hpp).
MatrixOutcome play_matrix(const MatrixRequest& req);

// "Play until the 95% CI is this narrow" on top of play_matrix.
struct CiGoal {
  double half_width = 0;             // stop once width(outcome) <= this
  std::uint64_t first_batch = 1000;  // games of the first batch, and the least step after it
  double (*width)(const MatrixOutcome&) = nullptr;
};
double mean_half_width(const MatrixOutcome& o);          // of configuration 0's mean result
double widest_difference_width(const MatrixOutcome& o);  // the widest paired difference's

// Plays req.games as a cap: first `first_batch` games, then as next_checkpoint
// (sim/stats/paired_diff.hpp) says, until goal.width is at most goal.half_width or the cap
// is reached. The rule reads only exact counts, so a command always stops at the same
// game. Covers [first_game, first_game + games_done) like play_matrix; partial only when
// stopped.
MatrixOutcome play_until_ci(const MatrixRequest& req, const CiGoal& goal);

int default_threads();

}  // namespace carc::sim
