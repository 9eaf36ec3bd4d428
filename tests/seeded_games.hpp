// Tests walk the decisions of seeded games: every turn's draw, discards handled as the
// driver does, the check at each decision, then the driver policy's move.
#pragma once

#include <cstdint>
#include <span>

#include "core/turn.hpp"
#include "policies/lookahead.hpp"
#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"

namespace carc::test {

// Plays game `game` of `seed` under `driver` and `scoring`, dealing the tile set of `cfg`
// (not the river: its tiles come from a stack of their own); before each move calls
// at(state, type, legal, rng) with the tile drawn, its legal placements and the game's
// random stream (which the driver's move then draws from too).
template <class At>
void for_each_decision(Config cfg, std::uint64_t seed, std::uint64_t game, PlacementPolicy& driver,
                       ScoringPolicy& scoring, At&& at) {
  sim::Stacks st = sim::deal(cfg.colors, seed, game, cfg.tiles());
  State s = State::initial(cfg);
  Rng rng(game);
  while (!s.ended()) {
    const int c = s.to_move();
    const int type = st.pop(c);
    s.draw(type);
    Placement legal[kMaxPlacements];
    const int n = s.legal_placements(type, legal);
    if (n == 0) {
      s.discard(type);
      if (s.stack_left(c) == 0) s.end_turn();
      continue;
    }
    const std::span<const Placement> moves{legal, std::size_t(n)};
    at(s, type, moves, rng);
    apply_move(s, type, driver.choose(Observation(s, type), moves, rng), scoring, rng);
    s.end_turn();
  }
}

}  // namespace carc::test
