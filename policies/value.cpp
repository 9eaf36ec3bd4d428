// `value`: the move whose afterstate a learned value rates best (a first version).
//
//   1. The `candidates` best moves by the heuristic (duplicates removed: rotations that give
//      the same tile), or every move with `candidates=0`.
//   2. Each is played on a copy of the State: placement, meeple, the scoring of what it
//      completes in the `best` order, the end of the turn. That is the move's afterstate,
//      known exactly before the next draw (the randomness comes after it).
//   3. Its features (policies/afterstate_features.hpp, the columns of `carcsolo positions`)
//      go through the net (policies/value_net.hpp: the built-in one, or the user's file of
//      `--value-net`), which predicts the game's result; the move with the highest
//      prediction is played, equal ones in the heuristic's order.
//   3'. With `expect=1` a move's value is instead the expectation over the next colour's
//      draw (every unseen type weighted by its count: the exact chance node of search's
//      filter) of the best net value among that colour's `replies` best replies by the
//      heuristic (NetValuer::next_draw, policies/value_lookahead.hpp). The net predicts the
//      one result all colours play for, so the next colour's reply is the best, not the
//      worst, for it.
// Why an afterstate value: choosing argmax V(afterstate) needs no model of the draw, and in
// 2048 afterstate values learned from play beat state and action values for 1-ply play
// (Szubert and Jaśkowski 2014). The heuristic's hand-set terms cannot see how the meeple
// economy decides games many turns later; a value fitted to games' outcomes can. The net is
// trained by scripts/train on `positions` data of seeds no evaluation uses (docs/policies.md
// gives the commands, the data and its measured strength).
//
// Cost: per candidate one State copy, one move, the features (one heuristic expectations()
// of the afterstate) and one net evaluation of a few thousand multiply-adds; with
// `expect=1`, per candidate and unseen type (about 20) one heuristic evaluation of the
// draw's moves and `replies` times that. The budget is fixed by the parameters and the net
// is chosen before the games start, so a game is a pure function of (seed, game, spec, net).
// Nothing is allocated per decision: the States and buffers are members.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "policies/candidates.hpp"
#include "policies/lookahead.hpp"
#include "policies/value_lookahead.hpp"

namespace carc {
namespace {

struct ValueParams {
  int candidates;
  bool expect;
  int replies;
};

class Value final : public PlacementPolicy {
 public:
  Value(const ValueParams& p, const PolicyContext& context)
      : p_(p), net_(context.net), eval_(HeuristicWeights{}), valuer_(context.value_net()),
        scoring_(make_lookahead_scoring()), moves_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    int n = ranked_candidates(eval_, s, type, legal, moves_.data(), rng);
    if (p_.candidates > 0) n = std::min(n, p_.candidates);
    if (n == 1) return moves_[0].move;
    const int mover = s.to_move();
    int best = 0;
    double best_value = 0;
    for (int i = 0; i < n; ++i) {
      play_to_afterstate(after_, s, type, moves_[std::size_t(i)].move, *scoring_, rng);
      const double v = p_.expect ? valuer_.next_draw(after_, mover, p_.replies, rng)
                                 : double(valuer_.afterstate(after_, mover));
      if (i == 0 || v > best_value) {
        best = i;
        best_value = v;
      }
    }
    return moves_[std::size_t(best)].move;
  }

 private:
  ValueParams p_;
  std::shared_ptr<const ValueNet> net_;  // kept alive while the policy lives (null: built-in)
  HeuristicEvaluator eval_;
  NetValuer valuer_;
  std::unique_ptr<ScoringPolicy> scoring_;
  std::vector<ScoredMove> moves_;  // sized once
  State after_;
};

}  // namespace

void register_value() {
  register_placement(
      {"value",
       "the move whose afterstate the learned value (trained on positions; the built-in net or "
       "--value-net FILE) rates best, or with expect=1 the best expectation over the next draw",
       {{"candidates", 10, "moves valued, best first by the heuristic, duplicates removed (0: all)", true},
        {"expect", 0, "1: value a move by the expectation over the next colour's draw of its best reply's value", true, true},
        {"replies", 2, "with expect=1: replies valued per draw, best first by the heuristic (0: all)", true, true}}},
      [](const Params& p, const PolicyContext& context) {
        return std::make_unique<Value>(ValueParams{p.whole("value", "candidates", 0, kMaxMoves),
                                                   p.whole("value", "expect", 0, 1) == 1,
                                                   p.whole("value", "replies", 0, kMaxMoves)},
                                       context);
      });
}

}  // namespace carc
