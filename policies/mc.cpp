// `mc`: determinised look-ahead. The candidate moves (the `candidates` best by the
// heuristic, or all) are each played on a copy of the State and the game is continued to
// its end `rollouts` times under a fast rollout policy, with the unseen tiles re-dealt at
// random into stacks of the sizes the colours have left (the real order is never seen).
// The move with the best mean result wins; ties go to the heuristic's order.
//
// Rollout r uses the same re-deal for every candidate (common random numbers), so the
// comparison between candidates is not drowned by the luck of the deal. Nothing is
// allocated per decision or per rollout: the State copy, the deal and the move buffers
// are members.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "policies/heuristic.hpp"
#include "policies/lookahead.hpp"

namespace carc {
namespace {

const char* const kRolloutNames[] = {"random", "greedy", "heuristic"};

class MonteCarlo final : public PlacementPolicy {
 public:
  MonteCarlo(int rollouts, int candidates, int rollout_policy)
      : rollouts_(rollouts), candidates_(candidates), eval_(HeuristicWeights{}),
        rollout_(make_placement_policy(kRolloutNames[rollout_policy])),
        scoring_(make_lookahead_scoring()), moves_(kMaxMoves), sums_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    int n = eval_.evaluate(s, type, legal, moves_.data(), rng);
    std::stable_sort(moves_.begin(), moves_.begin() + n,
                     [](const ScoredMove& a, const ScoredMove& b) { return a.value > b.value; });
    if (candidates_ > 0) n = std::min(n, candidates_);
    if (n == 1 || rollouts_ == 0) return moves_[0].move;
    std::fill_n(sums_.begin(), n, 0L);
    RolloutEnv env{{}, &deal_, rollout_.get(), scoring_.get(), &rng};
    for (int r = 0; r < rollouts_; ++r) {
      deal_.deal(s, rng);
      for (int i = 0; i < n; ++i) {
        sim_ = s;
        apply_move(sim_, type, moves_[i].move, *scoring_, rng);
        sim_.end_turn();
        deal_.rewind();
        play_to_end(sim_, env);
        sums_[i] += sim_.result();
      }
    }
    const auto best = std::max_element(sums_.begin(), sums_.begin() + n);  // first of ties
    return moves_[std::size_t(best - sums_.begin())].move;
  }

 private:
  int rollouts_, candidates_;
  HeuristicEvaluator eval_;
  std::unique_ptr<PlacementPolicy> rollout_;
  std::unique_ptr<ScoringPolicy> scoring_;
  State sim_;
  Redeal deal_;
  std::vector<ScoredMove> moves_;  // sized once
  std::vector<long> sums_;
};

int whole(const Params& p, const char* key, int lo, int hi) {
  const double v = p.get(key);
  if (v != std::floor(v) || v < lo || v > hi)
    throw std::invalid_argument("placement policy 'mc': parameter '" + std::string(key) +
                                "' must be a whole number in " + std::to_string(lo) + ".." +
                                std::to_string(hi));
  return int(v);
}

const bool registered = register_placement(
    {"mc",
     "determinised Monte Carlo: each candidate move played out `rollouts` times with the "
     "unseen tiles re-dealt; best mean result",
     {{"rollouts", 4, "continuations per candidate move"},
      {"candidates", 3, "moves tried, best first by the heuristic (0: all)"},
      {"rollout", 1, "rollout policy: 0 random, 1 greedy, 2 heuristic"}}},
    [](const Params& p) {
      return std::make_unique<MonteCarlo>(whole(p, "rollouts", 0, 1000000),
                                          whole(p, "candidates", 0, kMaxMoves),
                                          whole(p, "rollout", 0, 2));
    });

}  // namespace
}  // namespace carc
