// Many games in parallel (OpenMP over games). Game i of seed s is the same game whatever
// the thread count, and the accumulators are exact, so the output does not depend on
// threads or scheduling.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "sim/stats/stats.hpp"

namespace carc::sim {

struct RunRequest {
  RunConfig config;      // colors, meeples, policies (specs), seed, first_game, games
  int threads = 1;
  bool progress = false;  // a progress line on stderr
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: finish early
};

struct RunOutcome {
  Accumulator acc;
  std::uint64_t games_done = 0;  // games [first_game, first_game + games_done) are in acc
  double seconds = 0;
  bool partial = false;
};

RunOutcome run_games(const RunRequest& req);

// Plays req.config's games in batches from req.config.first_game on: first `first_batch`
// games, then as next_checkpoint (sim/paired.hpp) says, until the mean's 95% CI half-width
// is at most `half_width` or req.config.games (the cap) are played. The outcome covers
// [first_game, first_game + games_done) like run_games'; partial only when stopped.
RunOutcome run_until_ci(const RunRequest& req, double half_width, std::uint64_t first_batch = 1000);

int default_threads();

}  // namespace carc::sim
