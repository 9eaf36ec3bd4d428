// Plays one game with named policies through carcsolo::sim and prints its result, so that
// tests/install/run.cmake can compare it with the carcsolo program's own log of that game.
#include <cstdio>
#include <cstdlib>

#include "policies/policy.hpp"
#include "sim/driver/game.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: consumer PLACEMENT SCORING SEED GAME\n");
    return 2;
  }
  auto placement = carc::make_placement_policy(argv[1]);
  auto scoring = carc::make_scoring_policy(argv[2]);
  const carc::sim::GameSpec spec{carc::Config{3, 4}, std::strtoull(argv[3], nullptr, 10),
                                 std::strtoull(argv[4], nullptr, 10)};
  const carc::sim::GameOutcome o = carc::sim::play_game(spec, *placement, *scoring);
  std::printf("result %d scores %d %d %d tiles %d\n", o.result, o.scores[0], o.scores[1],
              o.scores[2], o.tiles_placed);
  return 0;
}
