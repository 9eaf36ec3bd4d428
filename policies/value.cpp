// `value`: the move whose afterstate a learned value rates best (a first version).
//
//   1. The `candidates` best moves by the heuristic (duplicates removed: rotations that give
//      the same tile), or every move with `candidates=0`.
//   2. Each is played on a copy of the State: placement, meeple, the scoring of what it
//      completes in the `best` order, the end of the turn. That is the move's afterstate,
//      known exactly before the next draw (the randomness comes after it).
//   3. Its features (policies/afterstate_features.hpp, the columns of `carcsolo positions`)
//      go through the built-in net (policies/value_net.hpp), which predicts the game's
//      result; the move with the highest prediction is played, equal ones in the heuristic's
//      order.
// Why an afterstate value: choosing argmax V(afterstate) needs no model of the draw, and in
// 2048 afterstate values learned from play beat state and action values for 1-ply play
// (Szubert and Jaśkowski 2014). The heuristic's hand-set terms cannot see how the meeple
// economy decides games many turns later; a value fitted to games' outcomes can. The net is
// trained by scripts/train on `positions` data of seeds no evaluation uses (docs/policies.md
// gives the commands, the data and its measured strength).
//
// Cost: per candidate one State copy, one move, the features (one heuristic expectations()
// of the afterstate) and one net evaluation of a few thousand multiply-adds. The budget is
// fixed by the parameters and the net is built in, so a game is a pure function of
// (seed, game, spec). Nothing is allocated per decision: the States and buffers are members.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "policies/afterstate_features.hpp"
#include "policies/candidates.hpp"
#include "policies/lookahead.hpp"
#include "policies/value_net.hpp"

namespace carc {
namespace {

class Value final : public PlacementPolicy {
 public:
  explicit Value(int candidates)
      : candidates_(candidates), eval_(HeuristicWeights{}), net_(ValueNet::builtin()),
        scoring_(make_lookahead_scoring()), moves_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    int n = ranked_candidates(eval_, s, type, legal, moves_.data(), rng);
    if (candidates_ > 0) n = std::min(n, candidates_);
    if (n == 1) return moves_[0].move;
    const int mover = s.to_move();
    int best = 0;
    float best_value = 0;
    for (int i = 0; i < n; ++i) {
      play_to_afterstate(after_, s, type, moves_[std::size_t(i)].move, *scoring_, rng);
      features_.extract(after_, mover, x_.data());
      const float v = net_.evaluate(x_.data(), scratch_);
      if (i == 0 || v > best_value) {
        best = i;
        best_value = v;
      }
    }
    return moves_[std::size_t(best)].move;
  }

 private:
  int candidates_;
  HeuristicEvaluator eval_;
  AfterstateFeatures features_;
  const ValueNet& net_;
  std::unique_ptr<ScoringPolicy> scoring_;
  std::vector<ScoredMove> moves_;  // sized once
  State after_;
  std::array<float, kAfterstateFeatures> x_{};
  ValueNet::Scratch scratch_;
};

int whole(const Params& p, const char* key, int lo, int hi) {
  const double v = p.get(key);
  if (v != std::floor(v) || v < lo || v > hi)
    throw std::invalid_argument("placement policy 'value': parameter '" + std::string(key) +
                                "' must be a whole number in " + std::to_string(lo) + ".." +
                                std::to_string(hi));
  return int(v);
}

}  // namespace

void register_value() {
  register_placement(
      {"value",
       "the move whose afterstate the built-in learned value (trained on positions) rates best "
       "(a first version)",
       {{"candidates", 10, "moves valued, best first by the heuristic, duplicates removed (0: all)", true}}},
      [](const Params& p) { return std::make_unique<Value>(whole(p, "candidates", 0, kMaxMoves)); });
}

}  // namespace carc
