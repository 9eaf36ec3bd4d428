// `search`: a planning policy (README "Placement policies").
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <cstdio>
#include <cstdlib>

#include "policies/candidates.hpp"
#include "policies/lookahead.hpp"

namespace carc {
namespace {

const char* const kTailSpecs[] = {"random", "greedy:snug=1", "heuristic", "greedy"};

struct SearchParams {
  int budget, candidates, depth, tail, mode;
};

class Search final : public PlacementPolicy {
 public:
  explicit Search(const SearchParams& p)
      : p_(p), eval_(HeuristicWeights{}), head_(make_placement_policy("heuristic")),
        tail_(make_placement_policy(kTailSpecs[p.tail])), scoring_(make_lookahead_scoring()),
        moves_(kMaxMoves), sum_(kMaxMoves), alive_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    const int n = std::min(ranked_candidates(eval_, s, type, legal, moves_.data(), rng),
                           std::max(1, p_.candidates));
    if (n == 1 || p_.budget == 0) return moves_[0].move;
    if (getenv("SVAR") && s.turn() % 7 == 3) variance_probe(s, type, n, rng);
    if (p_.mode == 1) return moves_[expectimax(s, type, n, rng)].move;
    return moves_[halving(s, type, n, rng)].move;
  }

 private:
  int expectimax(const State& s, int type, int n, Rng& rng) {
    int best = 0;
    double best_v = -1e300;
    for (int i = 0; i < n; ++i) {
      after_ = s;
      apply_move(after_, type, moves_[i].move, *scoring_, rng);
      after_.end_turn();
      const double v = after_.ended() ? moves_[i].value : chance_value(after_, rng);
      if (v > best_v) {
        best_v = v;
        best = i;
      }
    }
    return best;
  }
  // The expected best heuristic value of the next colour's move over its draw.
  double chance_value(const State& st, Rng& rng) {
    double sum = 0;
    int weight = 0;
    for (int t = 0; t < kTileTypes; ++t) {
      if (st.unseen(t) == 0) continue;
      child_ = st;
      child_.draw(t);
      const int nl = child_.legal_placements(t, legal_.data());
      if (nl == 0) continue;
      const int ne = leaf_eval_.evaluate(child_, t, {legal_.data(), std::size_t(nl)}, leaf_moves_.data(), rng);
      double best = -1e300;
      for (int j = 0; j < ne; ++j) best = std::max(best, leaf_moves_[j].value);
      sum += st.unseen(t) * best;
      weight += st.unseen(t);
    }
    return weight ? sum / weight : -1e300;
  }
  void variance_probe(const State& s, int type, int n, Rng& rng) {
    const int R = atoi(getenv("SVAR"));
    std::vector<double> m(n), d(n), d2(n);
    for (int r = 0; r < R; ++r) {
      const std::uint64_t seed = rng();
      Rng deal_rng(seed);
      deal_.deal(s, deal_rng);
      double first = 0;
      for (int i = 0; i < n; ++i) {
        const double v = rollout(s, type, moves_[i].move, seed);
        if (i == 0) first = v;
        m[i] += v; d[i] += v - first; d2[i] += (v - first) * (v - first);
      }
    }
    fprintf(stderr, "turn %d:", s.turn());
    for (int i = 0; i < n; ++i) {
      const double md = d[i] / R, sd = std::sqrt(d2[i] / R - md * md);
      fprintf(stderr, " [%.1f h%.2f d%+.2f sd%.1f]", m[i] / R, moves_[i].value, md, sd);
    }
    fprintf(stderr, "\n");
  }
  // Successive halving: rounds of rollouts, the same deals for every surviving
  // candidate, the better half kept after each round. Returns the winner's index.
  int halving(const State& s, int type, int n, Rng& rng) {
    int rounds = 0;
    while ((1 << rounds) < n) ++rounds;
    int alive = n, spent = 0;
    for (int i = 0; i < n; ++i) {
      alive_[i] = i;
      sum_[i] = 0;
    }
    for (int round = 0; round < rounds && alive > 1; ++round) {
      const int per = std::max(1, (p_.budget - spent) / (alive * (rounds - round)));
      for (int r = 0; r < per; ++r) {
        const std::uint64_t seed = rng();
        Rng deal_rng(seed);
        deal_.deal(s, deal_rng);
        for (int a = 0; a < alive; ++a) sum_[alive_[a]] += rollout(s, type, moves_[alive_[a]].move, seed);
      }
      spent += per * alive;
      // Stable: equal sums keep the heuristic's order.
      std::stable_sort(alive_.begin(), alive_.begin() + alive,
                       [&](int a, int b) { return sum_[a] > sum_[b]; });
      alive = (alive + 1) / 2;
    }
    if (getenv("SDEBUG")) { for (int i = 0; i < n; ++i) fprintf(stderr, "%d h=%.2f sum=%.1f cell=%d rot=%d seg=%d\n", i, moves_[i].value, sum_[i], moves_[i].move.at.cell, moves_[i].move.at.rot, moves_[i].move.seg); fprintf(stderr, "-> %d\n", alive_[0]); }
    return alive_[0];
  }

  double rollout(const State& s, int type, const Move& m, std::uint64_t seed) {
    Rng rng(seed ^ 0x5DEECE66Dull);
    sim_ = s;
    apply_move(sim_, type, m, *scoring_, rng);
    sim_.end_turn();
    deal_.rewind();
    RolloutEnv head{{}, &deal_, head_.get(), scoring_.get(), &rng};
    RolloutEnv tail{{}, &deal_, tail_.get(), scoring_.get(), &rng};
    for (int t = 0; t < p_.depth && !sim_.ended(); ++t) play_turn(sim_, head);
    play_to_end(sim_, tail);
    return sim_.result();
  }

  SearchParams p_;
  HeuristicEvaluator eval_;
  std::unique_ptr<PlacementPolicy> head_, tail_;
  std::unique_ptr<ScoringPolicy> scoring_;
  State sim_, after_, child_;
  HeuristicEvaluator leaf_eval_{HeuristicWeights{}};
  std::vector<ScoredMove> leaf_moves_ = std::vector<ScoredMove>(kMaxMoves);
  std::vector<Placement> legal_ = std::vector<Placement>(kMaxPlacements);
  Redeal deal_;
  std::vector<ScoredMove> moves_;  // sized once
  std::vector<double> sum_;
  std::vector<int> alive_;
};

int whole(const Params& p, const char* key, int lo, int hi) {
  const double v = p.get(key);
  if (v != std::floor(v) || v < lo || v > hi)
    throw std::invalid_argument("placement policy 'search': parameter '" + std::string(key) +
                                "' must be a whole number in " + std::to_string(lo) + ".." +
                                std::to_string(hi));
  return int(v);
}

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_search() {
  register_placement(
      {"search",
       "plans ahead with the draws as chance: candidate moves by the heuristic, rollouts on "
       "re-dealt unseen tiles allocated by successive halving",
       {{"budget", 256, "rollouts per decision"},
        {"candidates", 8, "moves considered, best first by the heuristic, duplicates removed"},
        {"depth", 72, "turns of every rollout played by the heuristic (then the tail policy)"},
        {"tail", 1, "tail policy: 0 random, 1 greedy:snug=1, 2 heuristic, 3 greedy"},
        {"mode", 0, "0 halving, 1 expectimax"}}},
      [](const Params& p) {
        return std::make_unique<Search>(SearchParams{
            whole(p, "budget", 0, 1000000), whole(p, "candidates", 1, kMaxMoves),
            whole(p, "depth", 0, kMaxTiles), whole(p, "tail", 0, 3), whole(p, "mode", 0, 5)});
      });
}

}  // namespace carc
