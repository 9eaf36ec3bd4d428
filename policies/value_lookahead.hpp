// The learned value (policies/value_net.hpp) of afterstates, alone and as an expectation over
// the next draw: the pieces `value` and `search` share when they value positions by the net.
//
// Whose value: the net predicts the game's result (the lowest final score), the one
// objective of the solo game, the same whichever colour moves (one player plays them all).
// So after a draw the colour to move is valued by its best reply, a max, never a min.
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "policies/afterstate_features.hpp"
#include "policies/lookahead.hpp"
#include "policies/value_net.hpp"

namespace carc {

// One per policy (per thread): buffers kept, nothing allocated per call.
class NetValuer {
 public:
  // `net` must outlive the valuer (the policy that owns both keeps its context's net).
  explicit NetValuer(const ValueNet& net);

  // The net's value of `after`, the afterstate of colour `mover`'s decision.
  float afterstate(const State& after, int mover);

  // The expectation over the next colour's draw of the best reply: for every unseen type t,
  // weighted by its count (an exact chance node), the colour to move in `after` draws t,
  // its `replies` best moves by the heuristic (0: every move) are each played to their
  // afterstate, and the best net value among them counts. A type that fits nowhere (a
  // discard) is left out of the average, as search's filter does; when every type is, or
  // the game has ended, the net's value of `after` itself (`mover` its decision's colour).
  // Cost per unseen type: one heuristic evaluation of the draw's moves, then per reply a
  // State copy, the move, the features and one net evaluation.
  double next_draw(const State& after, int mover, int replies, Rng& rng);

 private:
  const ValueNet& net_;
  HeuristicEvaluator eval_;  // the replies' order (default weights)
  AfterstateFeatures features_;
  std::unique_ptr<ScoringPolicy> scoring_;
  State child_, reply_;
  std::vector<Placement> legal_;  // sized once
  std::vector<ScoredMove> moves_;  // sized once
  bool board_;  // the net reads the board block too (109 inputs)
  std::array<float, kAfterstateFeaturesBoard> x_{};
  ValueNet::Scratch scratch_;
};

}  // namespace carc
