// The look-ahead kit: the pieces every part that looks at what a move does is made of
// (`mc`, `search`, `value`, the learned value's expectation, the analysis and the advice):
//   - a move played to its afterstate (apply_move, play_to_afterstate), and a move as the
//     position it leaves (position_move);
//   - the exact expectation over the next draw: a chance node over the unseen tile types,
//     each weighted by its count (expect_next_draw);
//   - the same re-deals for every move: stacks re-dealt from the unseen tiles (the real
//     stacks are never seen), rewound for each move, numbered when a decision needs deal k
//     again (Redeal);
//   - a rollout environment for core/turn.hpp, and the mean and standard error of values
//     and of paired differences over the same deals (mean_se, paired_se).
#pragma once
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
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

// The move as the position it leaves: no meeple when none can go (no supply, or no free
// segment on the placed tile), so that two spellings of one position compare equal.
Move position_move(const State& s, int type, Move m);

// The exact expectation over the next draw after `after` (a position before a draw): for
// every unseen tile type t, weighted by its count, `best(child, t, legal, n)` is the value
// of the colour to move drawing t, where `child` is `after` with t drawn and legal[0, n)
// its placements. A type that fits nowhere (a discard) is left out of the average. NaN
// when none fits (the caller says what stands instead). `child` is scratch, `legal` holds
// kMaxPlacements.
template <class Best>
double expect_next_draw(const State& after, State& child, Placement* legal, Best&& best) {
  double sum = 0;
  int weight = 0;
  const DrawTypes types = after.draw_types();  // a land tile, or a river tile while it flows
  for (int t = types.first; t < types.end; ++t) {
    const int count = after.unseen(t);
    if (count == 0) continue;
    child.copy_from(after);
    child.draw(t);
    const int n = child.legal_placements(t, legal);
    if (n == 0) continue;
    sum += count * double(best(child, t, static_cast<const Placement*>(legal), n));
    weight += count;
  }
  return weight ? sum / weight : std::numeric_limits<double>::quiet_NaN();
}

// Stacks re-dealt from the unseen tiles of a State: each colour gets as many tiles as its
// stack holds, in a uniformly random order; with the river, the river stack's unseen
// tiles in a random order with the lake last. A plain value: re-dealing allocates nothing.
class Redeal {
 public:
  // Shuffles the unseen multiset of `s` with `rng` and cuts it by s.stack_left(c).
  void deal(const State& s, Rng& rng);
  // Deal number `k` of a decision whose deals come from `seed`: the same tiles each time
  // it is asked for, so every move that meets deal k meets the same stacks.
  void deal_numbered(const State& s, std::uint64_t seed, int k);
  // Restart drawing from the same deal (common random numbers across candidate moves).
  void rewind() { next_ = begin_; }
  int draw(int c) { return tiles_[next_[c]++]; }

 private:
  std::array<std::uint8_t, kMaxTiles> tiles_{};
  std::array<std::uint8_t, kMaxColors + 1> begin_{}, next_{};  // [kRiverStack]: the river stack
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

// Mean and standard error of x[0, n): NaN mean when n = 0, NaN error when n < 2.
void mean_se(const double* x, std::size_t n, double& mean, double& se);

// The same of the paired differences a[i] - b[i] over i = from, from + step, ... < n: two
// moves valued on the same deals.
void paired_se(const double* a, const double* b, std::size_t from, std::size_t step, std::size_t n,
               double& mean, double& se);

}  // namespace carc
