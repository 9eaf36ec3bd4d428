// `mc`: determinised look-ahead. The candidate moves (the `candidates` best by the
// heuristic, or all) are each played on a copy of the State and the game is continued to
// its end `rollouts` times under a fast rollout policy, with the unseen tiles re-dealt at
// random into stacks of the sizes the colours have left (the real order is never seen).
// A move replaces the heuristic's first choice only when its mean result is better by more
// than `z` standard errors of the paired difference (few rollouts are noisy, and the
// heuristic's choice is a good prior).
//
// With `head` > 0 the first `head` turns of every rollout are played by the heuristic
// (the turns right after the candidate move weigh most), the rest by the rollout policy.
//
// Under an aim (docs/aim.md) the candidates are the aimed evaluation's best and a rollout's
// value is the aim's outcome of the game it finishes (the goal reached or not, the goals
// reached), with aim_tie_break times its result; the rollout policies play as without an aim.
//
// Rollout r uses the same re-deal for every candidate (common random numbers), so the
// comparison between candidates is not drowned by the luck of the deal. Nothing is
// allocated per decision or per rollout: the State copy, the deal and the move buffers
// are members.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "policies/aim.hpp"
#include "policies/heuristic/heuristic.hpp"
#include "policies/lookahead.hpp"

namespace carc {
namespace {

// Rollout policies by number (parameters are numbers).
const char* const kRolloutSpecs[] = {"random", "greedy:snug=1", "heuristic", "greedy"};

class MonteCarlo final : public PlacementPolicy {
 public:
  MonteCarlo(int rollouts, int candidates, int rollout_policy, double z, int head, const PolicyContext& context)
      : rollouts_(rollouts), candidates_(candidates), head_(head), z_(z), aim_(context.aim),
        eval_(HeuristicWeights{}, context.aim),
        rollout_(make_placement_policy(kRolloutSpecs[rollout_policy], for_the_score(context))),
        head_policy_(make_placement_policy("heuristic", for_the_score(context))),
        scoring_(make_lookahead_scoring()), moves_(kMaxMoves), sum_(kMaxMoves), sq_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    int n = eval_.evaluate(s, type, legal, moves_.data(), rng);
    // Equal values (mirror-image placements, say) in a random order, then best first.
    for (int i = n; i > 1; --i) std::swap(moves_[i - 1], moves_[uniform_below(rng, std::uint32_t(i))]);
    // Insertion sort: stable, and unlike std::stable_sort it needs no temporary buffer.
    for (int i = 1; i < n; ++i) {
      const ScoredMove m = moves_[i];
      int j = i;
      for (; j > 0 && moves_[j - 1].value < m.value; --j) moves_[j] = moves_[j - 1];
      moves_[j] = m;
    }
    if (candidates_ > 0) n = std::min(n, candidates_);
    if (n == 1 || rollouts_ == 0) return moves_[0].move;
    // Paired differences to the heuristic's first choice, rollout by rollout.
    std::fill_n(sum_.begin(), n, 0.0);
    std::fill_n(sq_.begin(), n, 0.0);
    RolloutEnv env{{}, &deal_, rollout_.get(), scoring_.get(), &rng};
    RolloutEnv head_env{{}, &deal_, head_policy_.get(), scoring_.get(), &rng};
    for (int r = 0; r < rollouts_; ++r) {
      deal_.deal(s, rng);
      double first = 0;
      for (int i = 0; i < n; ++i) {
        play_to_afterstate(sim_, s, type, moves_[i].move, *scoring_, rng);
        deal_.rewind();
        for (int t = 0; t < head_ && !sim_.ended(); ++t) play_turn(sim_, head_env);
        play_to_end(sim_, env);
        const double v = aim_.is_score() ? double(sim_.result())
                                         : aim_.outcome(sim_.goals(), sim_.result()) + aim_tie_break(aim_) * sim_.result();
        if (i == 0) first = v;
        const double d = v - first;
        sum_[i] += d;
        sq_[i] += d * d;
      }
    }
    // A candidate replaces the first choice only when it is better by more than z standard
    // errors of the mean difference (z = 0: the best mean, ties to the heuristic's order).
    int best = 0;
    double best_gain = 0;
    for (int i = 1; i < n; ++i) {
      const double mean = sum_[i] / rollouts_;
      const double var = rollouts_ > 1 ? (sq_[i] - rollouts_ * mean * mean) / (rollouts_ - 1) : 0;
      if (mean > best_gain && mean > z_ * std::sqrt(std::max(0.0, var) / rollouts_)) {
        best = i;
        best_gain = mean;
      }
    }
    return moves_[best].move;
  }

 private:
  // The rollouts' own players play for the result.
  static PolicyContext for_the_score(PolicyContext c) {
    c.aim = Aim::score();
    return c;
  }
  int rollouts_, candidates_, head_;
  double z_;
  Aim aim_;
  AimedEvaluator eval_;
  std::unique_ptr<PlacementPolicy> rollout_;
  std::unique_ptr<PlacementPolicy> head_policy_;  // plays the first `head_` rollout turns
  std::unique_ptr<ScoringPolicy> scoring_;
  State sim_;
  Redeal deal_;
  std::vector<ScoredMove> moves_;  // sized once
  std::vector<double> sum_, sq_;  // per candidate: paired differences and their squares
};

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_mc() {
  PolicyInfo info{
      "mc",
       "determinised Monte Carlo: each candidate move played out `rollouts` times with the "
       "unseen tiles re-dealt; best mean result (or aim: --aim)",
       {{"rollouts", 8, "continuations per candidate move (0: no rollouts, play the heuristic's best move)", true},
        {"candidates", 3, "moves tried, best first by the heuristic (0: all)", true},
        {"rollout", 1, "rollout policy: 0 random, 1 greedy:snug=1, 2 heuristic, 3 greedy", true},
        {"z", 1, "standard errors by which a move must beat the heuristic's choice"},
        {"head", 2, "first turns of every rollout played by the heuristic (then the rollout policy)", true}}};
  info.aims = true;
  register_placement(std::move(info),
      [](const Params& p, const PolicyContext& context) {
        return std::make_unique<MonteCarlo>(p.whole("mc", "rollouts", 0, 1000000),
                                            p.whole("mc", "candidates", 0, kMaxMoves),
                                            p.whole("mc", "rollout", 0, 3), std::max(0.0, p.get("z")),
                                            p.whole("mc", "head", 0, kMaxTiles), context);
      });
}

}  // namespace carc
