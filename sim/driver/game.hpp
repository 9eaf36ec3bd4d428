// One game from a (seed, game index) pair, with the given policies; optionally recorded
// as a game log (game-log.md).
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/state.hpp"
#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct GameSpec {
  Config cfg;
  std::uint64_t seed = 1;
  std::uint64_t game = 0;
  const Stacks* stacks = nullptr;  // a given deal; none: dealt from (seed, game)
};

// What a finished game's State says: scores, result, end, tiles, discards, goals.
GameOutcome outcome_of(const State& s);

GameOutcome play_game(const GameSpec& spec, PlacementPolicy& placement, ScoringPolicy& scoring);

// The same game, recorded. `placement_name` and `scoring_name` go into the log's config.
nlohmann::json play_logged_game(const GameSpec& spec, PlacementPolicy& placement,
                                ScoringPolicy& scoring, const std::string& placement_name,
                                const std::string& scoring_name, GameOutcome* outcome = nullptr);

}  // namespace carc::sim
