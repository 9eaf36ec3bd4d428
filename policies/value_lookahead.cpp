#include "policies/value_lookahead.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace carc {

NetValuer::NetValuer(const ValueNet& net)
    : net_(net), eval_(HeuristicWeights{}), scoring_(make_lookahead_scoring()),
      legal_(kMaxPlacements), moves_(kMaxMoves), board_(net.inputs() == kAfterstateFeaturesBoard) {}

float NetValuer::afterstate(const State& after, int mover) {
  features_.extract(after, mover, x_.data(), board_);
  return net_.evaluate(x_.data(), scratch_);
}

double NetValuer::next_draw(const State& after, int mover, int replies, Rng& rng) {
  if (after.ended()) return afterstate(after, mover);
  const double v = expect_next_draw(after, child_, legal_.data(),
                                    [&](const State& child, int t, const Placement* legal, int nl) {
    const int who = child.to_move();
    int n = eval_.evaluate(child, t, {legal, std::size_t(nl)}, moves_.data(), rng);
    if (replies > 0 && replies < n) {
      // The `replies` best by the heuristic; equal values by the move's place, turn and
      // meeple, so that which of them is kept does not depend on the standard library.
      std::partial_sort(moves_.begin(), moves_.begin() + replies, moves_.begin() + n,
                        [](const ScoredMove& a, const ScoredMove& b) {
                          if (a.value != b.value) return a.value > b.value;
                          const Move& p = a.move;
                          const Move& q = b.move;
                          return std::tie(p.at.x, p.at.y, p.at.rot, p.seg) <
                                 std::tie(q.at.x, q.at.y, q.at.rot, q.seg);
                        });
      n = replies;
    }
    float best = -HUGE_VALF;
    for (int j = 0; j < n; ++j) {
      play_to_afterstate(reply_, child, t, moves_[std::size_t(j)].move, *scoring_, rng);
      best = std::max(best, afterstate(reply_, who));
    }
    return best;
  });
  return std::isnan(v) ? afterstate(after, mover) : v;
}

}  // namespace carc

static_assert(carc::kAfterstateFeatures == 74 && carc::kAfterstateFeaturesBoard == 109,
              "ValueNet::parse accepts these widths only");
