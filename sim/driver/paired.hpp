// Several configurations played on the same game indices (common random numbers): game i
// of seed s deals the same tile order under every placement and scoring policy, so the
// per-game difference between two policies varies far less than the difference of two
// independent runs. OpenMP over game indices; every accumulator is exact integers, so the
// outcome does not depend on the thread count or on scheduling.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/stats/paired_diff.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct MatrixOutcome;

// Every configuration plays every game index of [first_game, first_game + games).
struct MatrixRequest {
  // K >= 1 configurations; their seed, colours, meeples and policies are used, their
  // first_game and games are not (the request's range applies to all).
  std::vector<RunConfig> configs;
  std::uint64_t first_game = 0, games = 0;
  bool paired = false;  // also accumulate PairedDiff of each config k >= 1 against config 0
  int threads = 1;
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: finish early
  // When set, a progress line on stderr a few times a second: games, games/s, this
  // function's text (given an estimate of the totals so far), ETA.
  std::function<std::string(const MatrixOutcome&)> progress;
};

struct MatrixOutcome {
  std::vector<Accumulator> acc;  // per config
  std::vector<PairedDiff> diff;  // diff[k - 1]: config k against config 0 (when paired)
  std::vector<double> config_seconds;  // wall-time share spent in each config's games
  // Game indices [first_game, first_game + games_done) are in every acc and diff.
  std::uint64_t games_done = 0;
  double seconds = 0;
  bool partial = false;  // stopped before the requested range was complete

  // Appends the outcome of the game range that follows this one.
  void append(const MatrixOutcome& next);
  // The results document of config k with `program` and its share of the time.
  nlohmann::json run_json(const RunConfig& config, std::uint64_t first_game,
                          const ProgramInfo& program, int threads, std::size_t k) const;
};

// Plays the request. A stop request finishes the blocks already started, so the outcome
// always covers a prefix of the range (partial = true when it is shorter).
MatrixOutcome play_matrix(const MatrixRequest& req);

}  // namespace carc::sim
