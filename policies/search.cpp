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
  int budget, candidates, depth, tail, mode, beam, width, samples;
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
    seed_ = rng();
    for (int i = 0; i < n; ++i) value_[i] = decision(s, type, moves_[i], 1, 0, rng);
    int best = 0;
    for (int i = 1; i < n; ++i)
      if (value_[i] > value_[best]) best = i;
    const int depth = std::min<int>(p_.depth, int(ply_.size()));
    if (depth <= 1) return best;
    // The `beam` best root moves looked at deeper.
    for (int i = 0; i < n; ++i) alive_[i] = i;
    const int b = std::min(n, p_.beam);
    std::partial_sort(alive_.begin(), alive_.begin() + b, alive_.begin() + n,
                      [&](int x, int y) { return value_[x] > value_[y]; });
    best = alive_[0];
    double best_v = -1e300;
    for (int k = 0; k < b; ++k) {
      const int i = alive_[k];
      const double v = decision(s, type, moves_[i], depth, 0, rng);
      if (v > best_v) {
        best_v = v;
        best = i;
      }
    }
    return best;
  }
  // The value of playing `m` (tile `type` in hand at `s`) with `left` draws still to
  // look at: the heuristic's value when the game ends, else the expectation over the
  // next draw.
  double decision(const State& s, int type, const ScoredMove& m, int left, int d, Rng& rng) {
    Ply& p = ply_[d];
    p.after = s;
    apply_move(p.after, type, m.move, *scoring_, rng);
    p.after.end_turn();
    if (p.after.ended()) return m.value;
    return chance(p.after, left, d, rng);
  }
  // Over the next colour's draw: its best heuristic value (left == 1), or the best value
  // of its `width` best moves looked at deeper. Deeper than the first draw, `samples`
  // draws stand for all (the same draws in every branch of one depth).
  double chance(const State& st, int left, int d, Rng& rng) {
    Ply& p = ply_[d];
    double sum = 0;
    int weight = 0;
    int types[kTileTypes], counts[kTileTypes], nt = 0;
    if (d > 0 && p_.samples > 0) {
      Rng pick(seed_ + std::uint64_t(d));
      const int total = st.unseen_total();
      for (int k = 0; k < p_.samples && total > 0; ++k) {
        int r = int(uniform_below(pick, std::uint32_t(total))), t = 0;
        while (r >= st.unseen(t)) r -= st.unseen(t++);
        int j = 0;
        while (j < nt && types[j] != t) ++j;
        if (j == nt) { types[nt] = t; counts[nt++] = 0; }
        ++counts[j];
      }
    } else {
      for (int t = 0; t < kTileTypes; ++t)
        if (st.unseen(t)) { types[nt] = t; counts[nt++] = st.unseen(t); }
    }
    for (int k = 0; k < nt; ++k) {
      const int t = types[k];
      p.child = st;
      p.child.draw(t);
      const int nl = p.child.legal_placements(t, p.legal.data());
      if (nl == 0) continue;
      double best = -1e300;
      if (left == 1) {
        const int ne = leaf_eval_.evaluate(p.child, t, {p.legal.data(), std::size_t(nl)}, p.moves.data(), rng);
        for (int j = 0; j < ne; ++j) best = std::max(best, p.moves[j].value);
      } else {
        const int ne = std::min(p_.width, ranked_candidates(leaf_eval_, p.child, t, {p.legal.data(), std::size_t(nl)}, p.moves.data(), rng));
        for (int j = 0; j < ne; ++j) best = std::max(best, decision(p.child, t, p.moves[j], left - 1, d + 1, rng));
      }
      sum += counts[k] * best;
      weight += counts[k];
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
  struct Ply {
    State after, child;
    std::vector<ScoredMove> moves = std::vector<ScoredMove>(kMaxMoves);
    std::vector<Placement> legal = std::vector<Placement>(kMaxPlacements);
  };
  std::array<Ply, 4> ply_;
  std::uint64_t seed_ = 0;
  std::vector<double> value_ = std::vector<double>(kMaxMoves);
  State sim_;
  HeuristicEvaluator leaf_eval_{HeuristicWeights{}};
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
        {"mode", 0, "0 halving, 1 expectimax"},
        {"beam", 4, ""}, {"width", 2, ""}, {"samples", 0, ""}}},
      [](const Params& p) {
        return std::make_unique<Search>(SearchParams{
            whole(p, "budget", 0, 1000000), whole(p, "candidates", 1, kMaxMoves),
            whole(p, "depth", 0, kMaxTiles), whole(p, "tail", 0, 3), whole(p, "mode", 0, 5), whole(p, "beam", 1, 1000), whole(p, "width", 1, 1000), whole(p, "samples", 0, 1000)});
      });
}

}  // namespace carc
