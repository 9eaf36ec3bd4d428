// The clairvoyant ceiling: a REFERENCE THAT CHEATS, never a policy. A beam search over
// the dealt stacks (it knows every colour's next tiles, which no player may) gives, per
// deal, a score the deal allows; the gap to a policy's score on the same deal is "what
// knowing the order is worth". It lives apart from policies/ because it reads the stacks.
//
// Per turn, every state of the beam draws its colour's next tile from the real stack
// (discarding forced ones as the rules say); every move (placement, meeple segment) of
// every state is valued by the heuristic's evaluation (policies/heuristic.hpp) and
// scored with the `best` order; the `width` best distinct children form the next beam.
// Children that are the same position are kept once: tiles that look the same in two
// rotations, same-type tiles placed in swapped order, the same meeples. A game's answer
// is the best final result any line reached, with that line's moves.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/state.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct CeilingLine {
  GameOutcome outcome;
  std::vector<Move> moves;  // one per placed tile, in turn order (discards place nothing)
};

// The best line of game `game` of `seed` at beam width `width` (>= 1). Deterministic.
CeilingLine clairvoyant_ceiling(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                                int width);

// The game log (game-log.md) of a line, played again through the driver with the line's
// moves and the `best` order; its config names the placement `label`. Throws
// std::logic_error when the replay does not end as the search did.
nlohmann::json ceiling_log(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                           const CeilingLine& line, const std::string& label);

}  // namespace carc::sim
