// Pieces shared by the placement policies that look at what a move does: playing one move
// on a copy of the State with a scoring order, and a rollout environment for
// core/turn.hpp that re-deals the unseen tiles (the policy never sees the real stacks).
#pragma once
#include <array>
#include <cstdint>
#include <memory>

#include "core/turn.hpp"
#include "policies/policy.hpp"

namespace carc {

// The scoring order look-ahead uses: the registry's "best" (the order that maximises the
// lowest score after the turn, then the total).
std::unique_ptr<ScoringPolicy> make_lookahead_scoring();

// Steps 1-3 of a turn for an already drawn `type`: place with the meeple, then score the
// completed features in `scoring`'s order. The caller ends the turn (State::end_turn).
void apply_move(State& s, int type, const Move& m, ScoringPolicy& scoring, Rng& rng);

// The afterstate of a move: `after` becomes `s` with `m` played (apply_move) and the turn
// ended, before the next draw: the position whose features `carcsolo positions` writes for
// the decision (policies/afterstate_features.hpp).
void play_to_afterstate(State& after, const State& s, int type, const Move& m,
                        ScoringPolicy& scoring, Rng& rng);

// Stacks re-dealt from the unseen tiles of a State: each colour gets as many tiles as its
// stack holds, in a uniformly random order. A plain value: re-dealing allocates nothing.
class Redeal {
 public:
  // Shuffles the unseen multiset of `s` with `rng` and cuts it by s.stack_left(c).
  void deal(const State& s, Rng& rng);
  // Restart drawing from the same deal (common random numbers across candidate moves).
  void rewind() { next_ = begin_; }
  int draw(int c) { return tiles_[next_[c]++]; }

 private:
  std::array<std::uint8_t, kMaxTiles> tiles_{};
  std::array<std::uint8_t, kMaxColors> begin_{}, next_{};
};

// Rollout environment: draws from a Redeal, decisions from a placement policy and a
// scoring order, nothing recorded.
struct RolloutEnv : SilentHooks {
  Redeal* stacks;
  PlacementPolicy* placement;
  ScoringPolicy* scoring;
  Rng* rng;
  int draw(int c) { return stacks->draw(c); }
  Move choose(const State& s, int type, const Placement* legal, int n) {
    return placement->choose(Observation(s, type), {legal, std::size_t(n)}, *rng);
  }
  void order(const State& s, int type, std::uint16_t* done, int n) {
    scoring->order_features(Observation(s, type), {done, std::size_t(n)}, *rng);
  }
  void order_final(const State& s, std::uint8_t* colors, int n) {
    scoring->order_final(Observation(s, -1), {colors, std::size_t(n)}, *rng);
  }
};

}  // namespace carc
