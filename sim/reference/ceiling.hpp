// The clairvoyant ceiling: a REFERENCE THAT CHEATS, never a policy. A beam search over
// the dealt stacks (it knows every colour's next tiles, which no player may) gives, per
// deal, a score the deal allows; the gap to a policy's score on the same deal is "what
// knowing the order is worth". It lives apart from policies/ because it reads the stacks.
//
// Per turn, every state of the beam draws its colour's next tile from the real stack
// (discarding forced ones as the rules say); every move (placement, meeple segment) of
// every state is valued by the heuristic's evaluation (policies/heuristic/heuristic.hpp) and
// scored with the `best` order; the `width` best distinct children form the next beam.
// Children that are the same position are kept once: tiles that look the same in two
// rotations, same-type tiles placed in swapped order, the same meeples. A game's answer
// is the best final result any line reached, with that line's moves.
//
// A beam finds *a* good line: its result is a lower bound on the deal's optimum, and on
// its own it can end below a real player on some deals. So the search can be given a
// policy's own line of the game (its moves, from `policy_line`): each turn, that line's
// position is kept in the beam beside the `width` best (it is the one extra position when
// it did not make the width on its value), so its children compete like any others and
// the line itself reaches the end. The answer is then at least the policy's result on
// every deal, and "what knowing the order is worth" is never negative.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/state.hpp"
#include "policies/policy.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct CeilingLine {
  GameOutcome outcome;
  std::vector<Move> moves;  // one per placed tile, in turn order (discards place nothing)
  // With a policy's line: the best result of the lines that never went through a position
  // kept only for being on the policy's line (what the beam found on its own merit), or -1
  // when none of them reached the end. Without one: outcome.result.
  int beam_alone_result = -1;
};

// The best line of game `game` of `seed` at beam width `width` (>= 1), keeping the
// positions of `policy_line` (a policy's moves of the same game, one per placed tile; empty:
// none) as described above. Deterministic. Throws std::logic_error when a move of
// `policy_line` is not legal where it comes.
// Under an aim (core/goals.hpp, docs/aim.md) the moves are valued by the aimed evaluation
// (policies/aim.hpp) and the best line is the one with the best outcome under the aim (the
// goal reached, the most goals), then the best result: with a policy's line, it reaches
// the goal on every deal on which the policy does.
CeilingLine clairvoyant_ceiling(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                                int width, std::span<const Move> policy_line = {},
                                const Aim& aim = Aim::score());

// The moves (one per placed tile) of game `game` of `seed` played by `placement` with
// `scoring`, and its outcome in `outcome`: the line to give clairvoyant_ceiling.
std::vector<Move> policy_line(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                              PlacementPolicy& placement, ScoringPolicy& scoring,
                              GameOutcome* outcome);

// The game log (game-log.md) of a line, played again through the driver with the line's
// moves and the `best` order; its config names the placement `label`. Throws
// std::logic_error when the replay does not end as the search did.
nlohmann::json ceiling_log(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                           const CeilingLine& line, const std::string& label);

}  // namespace carc::sim
