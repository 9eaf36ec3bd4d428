#include "policies/candidates.hpp"

#include <algorithm>

namespace carc {

int ranked_candidates(HeuristicEvaluator& eval, const State& s, int type,
                      std::span<const Placement> legal, ScoredMove* out, Rng& rng) {
  return rank_moves(type, out, eval.evaluate(s, type, legal, out, rng), rng);
}

int ranked_candidates(AimedEvaluator& eval, const State& s, int type,
                      std::span<const Placement> legal, ScoredMove* out, Rng& rng) {
  return rank_moves(type, out, eval.evaluate(s, type, legal, out, rng), rng);
}

int rank_moves(int type, ScoredMove* out, int n, Rng& rng) {
  for (int i = n; i > 1; --i) std::swap(out[i - 1], out[uniform_below(rng, std::uint32_t(i))]);
  // Insertion sort: stable, and unlike std::stable_sort it needs no temporary buffer.
  for (int i = 1; i < n; ++i) {
    const ScoredMove m = out[i];
    int j = i;
    for (; j > 0 && out[j - 1].value < m.value; --j) out[j] = out[j - 1];
    out[j] = m;
  }
  // Duplicates have equal values up to rounding, so they sit close together; the first
  // of each is kept. Quadratic only over a window of equal-valued neighbours.
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t key = move_key(type, out[i].move);
    bool dup = false;
    for (int j = kept - 1; j >= 0 && !dup && out[j].value - out[i].value < 1e-6; --j)
      dup = move_key(type, out[j].move) == key;
    if (!dup) out[kept++] = out[i];
  }
  return kept;
}

}  // namespace carc
