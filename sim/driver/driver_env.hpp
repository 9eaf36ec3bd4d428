// The Env of core/turn.hpp that the driver plays games with: draws from the dealt stacks,
// decisions from the policies with the game's own streams, Hooks told what happened. Shared
// by play_game, play_logged_game (game.cpp) and the positions driver (positions.cpp), so
// that a game is the same game whichever of them plays it.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/turn.hpp"
#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"

namespace carc::sim {

template <class Hooks>
struct DriverEnv : Hooks {
  Stacks& stacks;
  PlacementPolicy& placement;
  ScoringPolicy& scoring;
  Rng placement_rng, scoring_rng;

  DriverEnv(Stacks& st, PlacementPolicy& p, ScoringPolicy& s, const GameSpec& spec)
      : stacks(st), placement(p), scoring(s),
        placement_rng(spec.seed, spec.game, Stream::placement),
        scoring_rng(spec.seed, spec.game, Stream::scoring) {}

  int draw(int c) { return stacks.pop(c); }
  Move choose(const State& s, int type, const Placement* legal, int n) {
    return placement.choose(Observation(s, type), {legal, std::size_t(n)}, placement_rng);
  }
  void order(const State& s, int type, std::uint16_t* done, int n) {
    scoring.order_features(Observation(s, type), {done, std::size_t(n)}, scoring_rng);
  }
  void order_final(const State& s, std::uint8_t* colors, int n) {
    scoring.order_final(Observation(s, -1), {colors, std::size_t(n)}, scoring_rng);
  }
};

}  // namespace carc::sim
