// carcsolo_planted [--games N --seed S --player P --analyser A --rollouts R --candidates K
//                   --plant-player Q --plant-rollouts R --min-cost C --threads T]: the
// planted-mistake bar (tests/planted.hpp, docs/analyse.md): in each of N games of P one
// decision swapped for a costly legal move, the game analysed; prints one line a game and
// "found k of n".
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <omp.h>

#include "tests/planted.hpp"

int main(int argc, char** argv) {
  carc::test::PlantedOptions o;
  o.analysis.rollouts = 128;
  o.analysis.candidates = 8;
  int games = 20, threads = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "carcsolo_planted: %s needs a value\n", k.c_str());
      return 2;
    }
    const std::string v = argv[++i];
    if (k == "--games") games = std::atoi(v.c_str());
    else if (k == "--seed") o.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--player") o.player = v;
    else if (k == "--scoring") o.scoring = v;
    else if (k == "--rollouts") o.analysis.rollouts = std::atoi(v.c_str());
    else if (k == "--candidates") o.analysis.candidates = std::atoi(v.c_str());
    else if (k == "--plant-rollouts") o.plant_rollouts = std::atoi(v.c_str());
    else if (k == "--plant-player") o.plant_player = v;
    else if (k == "--min-cost") o.min_cost = std::atof(v.c_str());
    else if (k == "--analyser") o.analysis.placement = v;
    else if (k == "--threads") threads = std::atoi(v.c_str());
    else {
      std::fprintf(stderr, "carcsolo_planted: unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (games < 1 || threads < 1 || o.analysis.rollouts < 1 || o.plant_rollouts < 1) {
    std::fprintf(stderr, "carcsolo_planted: --games, --threads and the rollouts must be >= 1\n");
    return 2;
  }
  o.analysis.seed = o.seed;
  o.analysis.scoring = carc::canonical_scoring(o.scoring);
  std::vector<carc::test::PlantedGame> out(static_cast<std::size_t>(games));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int g = 0; g < games; ++g) out[std::size_t(g)] = carc::test::planted_game(o, std::uint64_t(g));
  int planted = 0, found = 0;
  for (int g = 0; g < games; ++g) {
    const auto& p = out[std::size_t(g)];
    if (p.decision < 0) {
      std::printf("game %d: ended before the planted decision\n", g);
      continue;
    }
    ++planted;
    found += p.found();
    std::printf("game %d: planted at turn %d (decision %d, of %d moves, %.2f below the best when planted); "
                "analysis there %.2f +- %.2f (rank %d); largest %.2f +- %.2f at turn %d: %s\n",
                g, p.turn, p.decision, p.moves, p.cost, p.planted_loss, p.planted_stderr, p.planted_rank + 1,
                p.largest_loss, p.largest_stderr, p.largest_turn, p.found() ? "found" : "missed");
  }
  std::printf("found %d of %d planted mistakes (player %s, analyser %s, planting %d rollouts of %s, cost >= %g)\n",
              found, planted, o.player.c_str(), carc::short_placement_spec(o.analysis.placement).c_str(),
              o.plant_rollouts, o.plant_player.empty() ? o.analysis.placement.c_str() : o.plant_player.c_str(),
              o.min_cost);
  return 0;
}
