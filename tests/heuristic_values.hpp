// Every value HeuristicEvaluator::evaluate gives over seeded games, as one hash: the check
// that a change to the evaluator (a speed-up, say) leaves every value bit for bit the same
// (tests/tools/heuristic_values.cpp prints it; results/performance.md says how it is used).
// The decisions come from games of 5 configurations under `heuristic` at 8 weight settings
// and under `greedy` (positions off the heuristic's line), so that values that no
// heuristic game's decision shows are covered too.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "policies/heuristic/heuristic.hpp"
#include "tests/seeded_games.hpp"

namespace carc::test {

struct ValueHash {
  std::uint64_t hash = 1469598103934665603ull;
  std::uint64_t values = 0;
  void add(std::uint64_t v) {
    hash ^= v;
    hash *= 1099511628211ull;
    hash ^= hash >> 29;
  }
};

// The weight settings: the defaults and one or two weights moved each.
inline std::vector<std::vector<std::pair<std::string, double>>> value_hash_weights() {
  return {{},
          {{"low", 0.35}},
          {{"absorb", 0}},
          {{"share", 0.3}, {"compact", 0.15}},
          {{"horizon", 5}, {"points_horizon", 20}},
          {{"sink", 0}, {"urgent", 0}},
          {{"monastery_q", 0.65}},
          {{"balance", 5}}};
}

// Games 0..games-1 of seed 11 in each configuration and setting.
inline ValueHash heuristic_value_hash(int games) {
  ValueHash h;
  const Config configs[] = {{3, 4}, {4, 5}, {2, 3}, {6, 2}, {3, 1}};
  std::vector<ScoredMove> out(kMaxMoves);
  for (const char* driver_name : {"heuristic", "greedy"})
    for (const Config& cfg : configs)
      for (const auto& weights : value_hash_weights()) {
        if (std::string(driver_name) == "greedy" && !weights.empty()) continue;
        auto driver = make_placement_policy(driver_name);
        auto scoring = make_scoring_policy("best");
        Params p;
        p.values = weights;
        p.info = HeuristicWeights::params();
        HeuristicEvaluator eval(HeuristicWeights::from(p));
        for (int g = 0; g < games; ++g)
          for_each_decision(cfg, 11, std::uint64_t(g), *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng& rng) {
                              Rng own = rng;  // the driver's move draws from the game's stream
                              const int n = eval.evaluate(s, type, legal, out.data(), own);
                              for (int i = 0; i < n; ++i) {
                                h.add(std::bit_cast<std::uint64_t>(out[i].value));
                                h.add(std::uint64_t(out[i].move.at.cell) << 16 |
                                      std::uint64_t(out[i].move.at.rot) << 8 | out[i].move.seg);
                                ++h.values;
                              }
                            });
      }
  return h;
}

}  // namespace carc::test
