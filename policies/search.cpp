// `search`: expectimax over the draws, with the heuristic's values at the leaves.
//
// To the player the next tile of any colour is uniform over the multiset of unseen tiles
// (the stacks are shuffled and face down), so what it knows is a Markov state and a tree
// with a chance node per draw is exact: the chance node averages over the unseen tile
// types, weighted by their counts. Nothing is sampled at the first draw; deeper draws may
// be (`samples`).
//
// A move is valued by what the next colour can make of it: the expectation, over its
// draw, of its best move's heuristic value (`depth` 1: two plies). The `beam` best root
// moves by that value are looked at deeper: at each later decision the `width` best moves
// by the heuristic are played and valued the same way, `depth` draws in all. The
// heuristic values the meeple economy many turns ahead from the unseen tiles (features'
// odds to finish, tiles placeable without a meeple); the search sees the draws that decide
// the next turns exactly. Rollouts to the game's end were measured too, and lose: one
// rollout's result varies by about 15 points between candidate moves that differ by 1, so
// a few hundred rollouts cannot rank them (README, "Placement policies").
//
// The cost is fixed by the parameters (heuristic evaluations, not time), so a game is a
// pure function of (seed, game, spec). Nothing is allocated per decision: the States of
// each ply and the move buffers are members.
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "policies/candidates.hpp"
#include "policies/lookahead.hpp"

namespace carc {
namespace {

struct SearchParams {
  int candidates, beam, width, depth, samples, rollouts, horizon;
  double future;
};

inline constexpr int kMaxDepth = 4;

class Search final : public PlacementPolicy {
 public:
  Search(const SearchParams& p, const HeuristicWeights& w)
      : p_(p), eval_(w), leaf_(w), scoring_(make_lookahead_scoring()), moves_(kMaxMoves),
        value_(kMaxMoves), order_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    const int n = std::min(ranked_candidates(eval_, s, type, legal, moves_.data(), rng), p_.candidates);
    if (n == 1 || p_.depth == 0) return moves_[0].move;
    seed_ = rng();
    return moves_[best_root(s, type, n, rng)].move;
  }

 private:
  struct Ply {
    State after, child;
    std::vector<ScoredMove> moves = std::vector<ScoredMove>(kMaxMoves);
    std::vector<Placement> legal = std::vector<Placement>(kMaxPlacements);
  };

  // Every candidate at depth 1, then the beam's best at full depth.
  int best_root(const State& s, int type, int n, Rng& rng) {
    for (int i = 0; i < n; ++i) value_[i] = after_move(s, type, moves_[i], 1, 0, rng);
    for (int i = 0; i < n; ++i) order_[i] = i;
    const int b = p_.depth > 1 ? std::min(n, p_.beam) : 1;
    // Equal values keep the heuristic's order (std::stable_sort would allocate).
    std::sort(order_.begin(), order_.begin() + n, [&](int x, int y) {
      return value_[x] != value_[y] ? value_[x] > value_[y] : x < y;
    });
    if (b == 1) return order_[0];
    int best = order_[0];
    double best_v = -HUGE_VAL;
    for (int k = 0; k < b; ++k) {
      const double v = p_.rollouts ? rollouts(s, type, moves_[order_[k]], rng)
                                   : after_move(s, type, moves_[order_[k]], p_.depth, 0, rng);
      if (v > best_v) {
        best_v = v;
        best = order_[k];
      }
    }
    return best;
  }

  double rollouts(const State& s, int type, const ScoredMove& m, Rng& rng) {
    double sum = 0;
    for (int r = 0; r < p_.rollouts; ++r) {
      Rng deal_rng(seed_ * 0x9E3779B97F4A7C15ull + std::uint64_t(r));
      deal_.deal(s, deal_rng);
      sum += truncated(s, type, m, rng);
    }
    return sum / p_.rollouts;
  }
  double truncated(const State& s, int type, const ScoredMove& m, Rng& rng) {
    Ply& p = ply_[0];
    State& st = p.after;
    st.copy_from(s);
    apply_move(st, type, m.move, *scoring_, rng);
    st.end_turn();
    double v = m.value;
    for (int t = 0; t < p_.horizon && !st.ended(); ++t) {
      const int c = st.to_move();
      int tile = -1, nl = 0;
      while (st.stack_left(c) > 0) {
        tile = deal_.draw(c);
        st.draw(tile);
        nl = st.legal_placements(tile, p.legal.data());
        if (nl) break;
        st.discard(tile);
      }
      if (nl == 0) {
        st.end_turn();
        continue;
      }
      const int ne = leaf_.evaluate(st, tile, {p.legal.data(), std::size_t(nl)}, p.moves.data(), rng);
      int best = 0;
      for (int j = 1; j < ne; ++j)
        if (p.moves[j].value > p.moves[best].value) best = j;
      v = p.moves[best].value;
      apply_move(st, tile, p.moves[best].move, *scoring_, rng);
      st.end_turn();
      if (t + 1 == p_.horizon) break;
    }
    return st.ended() ? v : v + p_.future * st.unseen_total();
  }

  // The value of playing `m` (tile `type` in hand at `s`) with `left` draws to look at:
  // its heuristic value when it ends the game, else the expectation over the next draw.
  double after_move(const State& s, int type, const ScoredMove& m, int left, int d, Rng& rng) {
    State& after = ply_[d].after;
    after.copy_from(s);
    apply_move(after, type, m.move, *scoring_, rng);
    after.end_turn();
    return after.ended() ? m.value : chance(after, left, d, rng);
  }

  // Over the next colour's draw: its best heuristic value (left == 1), or the best value
  // of its `width` best moves looked at deeper.
  double chance(const State& st, int left, int d, Rng& rng) {
    Ply& p = ply_[d];
    std::array<int, kTileTypes> types, counts;
    const int nt = draws(st, d, types, counts);
    double sum = 0;
    int weight = 0;
    for (int k = 0; k < nt; ++k) {
      p.child.copy_from(st);
      p.child.draw(types[k]);
      const int nl = p.child.legal_placements(types[k], p.legal.data());
      if (nl == 0) continue;  // a discard: rare enough to leave out of the average
      sum += counts[k] * decision(p, types[k], nl, left, d, rng);
      weight += counts[k];
    }
    return weight ? sum / weight : -HUGE_VAL;
  }

  // The colour to move at p.child holds `type`: its best value.
  double decision(Ply& p, int type, int nl, int left, int d, Rng& rng) {
    const std::span<const Placement> legal(p.legal.data(), std::size_t(nl));
    double best = -HUGE_VAL;
    if (left == 1) {
      const int ne = leaf_.evaluate(p.child, type, legal, p.moves.data(), rng);
      for (int j = 0; j < ne; ++j) best = std::max(best, p.moves[j].value);
      return best;
    }
    const int ne = std::min(p_.width, ranked_candidates(leaf_, p.child, type, legal, p.moves.data(), rng));
    for (int j = 0; j < ne; ++j) best = std::max(best, after_move(p.child, type, p.moves[j], left - 1, d + 1, rng));
    return best;
  }

  // The draws a chance node averages over, as tile types and weights: every unseen type
  // by its count, or (below the first draw, with `samples` > 0) that many draws from the
  // unseen tiles, the same ones at every node of a depth (common random numbers).
  int draws(const State& st, int d, std::array<int, kTileTypes>& types,
            std::array<int, kTileTypes>& counts) const {
    int nt = 0;
    if (d == 0 || p_.samples == 0) {
      for (int t = 0; t < kTileTypes; ++t)
        if (st.unseen(t)) {
          types[nt] = t;
          counts[nt++] = st.unseen(t);
        }
      return nt;
    }
    Rng pick(seed_ + std::uint64_t(d));
    const int total = st.unseen_total();
    std::array<int, kTileTypes> per{};
    for (int k = 0; k < p_.samples && total > 0; ++k) {
      int r = int(uniform_below(pick, std::uint32_t(total))), t = 0;
      while (r >= st.unseen(t)) r -= st.unseen(t++);
      ++per[t];
    }
    for (int t = 0; t < kTileTypes; ++t)
      if (per[t]) {
        types[nt] = t;
        counts[nt++] = per[t];
      }
    return nt;
  }

  SearchParams p_;
  HeuristicEvaluator eval_;  // the root's candidates
  HeuristicEvaluator leaf_;
  std::unique_ptr<ScoringPolicy> scoring_;
  std::array<Ply, kMaxDepth> ply_;
  std::uint64_t seed_ = 0;
  Redeal deal_;
  std::vector<ScoredMove> moves_;  // sized once
  std::vector<double> value_;
  std::vector<int> order_;
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
  std::vector<ParamInfo> params = {
      {"candidates", 200, "root moves, best first by the heuristic, duplicates removed"},
      {"depth", 2, "draws looked at (0: the heuristic's move; 1: the next colour's draw)"},
      {"beam", 6, "root moves looked at to full depth, best first by their depth-1 value"},
      {"width", 1, "moves per later decision looked at deeper, best first by the heuristic"},
      {"samples", 0, "draws sampled per chance node below the first (0: every unseen type)"},
      {"rollouts", 0, ""}, {"horizon", 6, ""}, {"future", 0, ""}};
  for (const ParamInfo& i : HeuristicWeights::params()) params.push_back(i);
  register_placement(
      {"search",
       "expectimax over the draws (chance nodes weighted by the unseen tiles), heuristic "
       "values at the leaves; the best root moves looked at deeper",
       params},
      [](const Params& p) {
        return std::make_unique<Search>(
            SearchParams{whole(p, "candidates", 1, kMaxMoves), whole(p, "beam", 1, kMaxMoves),
                         whole(p, "width", 1, kMaxMoves), whole(p, "depth", 0, kMaxDepth),
                         whole(p, "samples", 0, 1000), whole(p, "rollouts", 0, 100000), whole(p, "horizon", 1, 72), p.get("future")},
            HeuristicWeights::from(p));
      });
}

}  // namespace carc
