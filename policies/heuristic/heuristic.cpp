// `heuristic`: the move with the best HeuristicEvaluator value (heuristic.hpp; the
// evaluator is in eval.hpp and its .cpp files).
#include "policies/heuristic/heuristic.hpp"

#include <vector>

namespace carc {

namespace {

class Heuristic final : public PlacementPolicy {
 public:
  explicit Heuristic(const HeuristicWeights& w) : eval_(w), moves_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const int n = eval_.evaluate(obs.state(), obs.tile(), legal, moves_.data(), rng);
    // The best value; ties (mirror-image placements, say) uniformly at random.
    int best = 0, ties = 1;
    for (int i = 1; i < n; ++i) {
      if (moves_[i].value > moves_[best].value) {
        best = i;
        ties = 1;
      } else if (moves_[i].value == moves_[best].value &&
                 uniform_below(rng, std::uint32_t(++ties)) == 0) {
        best = i;
      }
    }
    return moves_[best].move;
  }

 private:
  HeuristicEvaluator eval_;
  std::vector<ScoredMove> moves_;  // sized once
};

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_heuristic() {
  register_placement(
      {"heuristic",
       "best weighted evaluation: balanced expected scores, meeples in supply, features "
       "likely to finish given the unseen tiles",
       HeuristicWeights::params()},
      [](const Params& p, const PolicyContext&) { return std::make_unique<Heuristic>(HeuristicWeights::from(p)); });
}

}  // namespace carc
