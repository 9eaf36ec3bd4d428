// `carcsolo ceiling`'s games: beside a policy, the clairvoyant reference of each deal
// (sim/reference/ceiling.hpp), a REFERENCE THAT CHEATS (it sees the dealt stacks), played on
// the driver's threads, and the ceiling file and summary of what was played.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/driver/game.hpp"
#include "sim/study/ceiling_file.hpp"

namespace carc::sim {

struct CeilingGame {
  GameOutcome ceiling, against;
  int beam_alone = -1;     // CeilingLine::beam_alone_result
  std::vector<Move> line;  // the best line's moves, kept for the games --log records
};

// The games [rc.first_game, rc.first_game + rc.games) of rc.seed.
struct CeilingRun {
  RunConfig rc;  // the games; placement names the ceiling, scoring "best"
  std::string against;
  int width = 64, threads = 1;
  std::uint64_t logged = 0;    // the first games, whose lines --log writes
  std::vector<CeilingGame> games;  // [0, done) are played
  std::uint64_t done = 0;
  double seconds = 0;
  const std::atomic<bool>* stop = nullptr;  // set: the games stop after those begun
  bool progress = false;                    // "done/games" on stderr
};

// Plays the games of `run` on run.threads threads: for each the policy's line (`against`,
// scoring best), then the beam seeded with it; fills run.games, done and seconds. An
// internal error when the beam lost the policy's line.
void play_ceiling(CeilingRun& run);

// The file of the games played ([0, done)).
CeilingFile ceiling_file_of(const CeilingRun& run);

// The summary: what the reference is, the configuration, under an aim its rate and the
// policy's, the reference's results and ceiling_summary's lines.
std::string ceiling_run_summary(const CeilingRun& run, const CeilingFile& f);

// The game logs of the first min(logged, done) games' best lines (JSON Lines).
std::string ceiling_run_logs(const CeilingRun& run);

}  // namespace carc::sim
