// Scoring orders that read the scoreboard: `lowest-first` (the seed text's Example 3) and
// `best` (the order that maximises the lowest score after the turn, then the total).
//
// Why a turn reduces to a small problem: once the tile is placed, every completed feature's
// points and majority are fixed (scoring one feature touches no other feature's tiles or
// meeples) and every meeple comes back whatever the order. An order changes only who is
// awarded. So a turn is: start scores, and per feature (points, majority colours). Both are
// read by scoring each feature once on a copy of the State, so the rules live in core/ only.
//
// Final scoring: lowest-first is optimal, and `best` uses it (no search needed). Proof.
// A move scores one meeple of colour c: +2 if c is lowest ("scoring move"), else nothing
// but the meeple is used up ("wasted move").
// (1) Unique greedy outcome. Let a != b be two scoring moves available in one position
//     (both colours at the lowest score L, both with meeples). After a, b is still at L,
//     which is still lowest, so b is still a scoring move, and vice versa; a-then-b and
//     b-then-a reach the same position. Every move uses a meeple, so play terminates, and
//     by Newman's lemma all maximal sequences of scoring moves end in the same scores
//     G(P). Hence the choice among tied lowest colours does not matter at all.
// (2) G(P) dominates every order, colour by colour (induction on the meeples left). If the
//     order starts with a scoring move m, the rest is dominated by G(after m) = G(P) (a
//     greedy play may start with m, and (1)). If it starts with a wasted move of c, scores
//     are unchanged and P' = P less one c meeple; the rest is dominated by G(P'). The
//     greedy play from P' is also a valid play from P (same scores, at least the same
//     meeples); it reaches G(P') with maybe one more c meeple left, and continuing can only
//     add points, so G(P') <= G(P).
// So scoring a lowest colour's meeple while one exists gives the colour-wise maximum,
// which maximises the lowest score and the total; ties go to the smaller colour index.
#include <algorithm>
#include <array>
#include <cstdint>

#include "policies/policy.hpp"
#include "policies/turn_scoring.hpp"

namespace carc {

TurnScoring turn_scoring(const State& s, std::span<const std::uint16_t> completed) {
  // Points and majority do not depend on the order, and scoring one feature touches no
  // other: both are read off the feature records as they are before the turn's scoring.
  TurnScoring t;
  t.colors = s.colors();
  t.n = int(completed.size());
  for (int c = 0; c < t.colors; ++c) t.start[c] = s.score(c);
  for (int i = 0; i < t.n; ++i) {
    const Feature& f = s.feature(completed[i]);
    const std::uint8_t marks = s.beyond_base() ? s.feature_marks(completed[i]) : 0;
    t.points[i] = feature_points(f.kind, f.tiles, f.pennants, marks);
    t.majority[i] = majority_of(f.meeples, t.colors);
  }
  return t;
}

std::uint8_t lowest_mask(const Scores& s, int colors) {
  int low = s[0];
  for (int c = 1; c < colors; ++c) low = std::min(low, s[c]);
  std::uint8_t mask = 0;
  for (int c = 0; c < colors; ++c)
    if (s[c] == low) mask |= std::uint8_t(1u << c);
  return mask;
}

namespace {

void award(Scores& s, int points, std::uint8_t majority, int colors) {
  for (int c = 0; c < colors; ++c)
    if (majority >> c & 1) s[c] += points;
}

}  // namespace

void score_in_order(const TurnScoring& t, std::span<const std::uint8_t> order, Scores& s) {
  s = t.start;
  for (int k = 0; k < t.n; ++k) {
    const int i = order[k];
    if (t.majority[i] & lowest_mask(s, t.colors)) award(s, t.points[i], t.majority[i], t.colors);
  }
}

void lowest_first_order(const TurnScoring& t, std::span<std::uint8_t> out) {
  Scores s = t.start;
  std::uint32_t left = (1u << t.n) - 1;
  int k = 0;
  for (;;) {
    const std::uint8_t low = lowest_mask(s, t.colors);
    int pick = -1;
    for (int i = 0; i < t.n && pick < 0; ++i)
      if ((left >> i & 1) && (t.majority[i] & low)) pick = i;
    if (pick < 0) break;
    award(s, t.points[pick], t.majority[pick], t.colors);
    left &= ~(1u << pick);
    out[k++] = std::uint8_t(pick);
  }
  for (int i = 0; i < t.n; ++i)
    if (left >> i & 1) out[k++] = std::uint8_t(i);
}

namespace {

// Completed roots permuted into `order` (positions).
void permute(std::span<std::uint16_t> completed, std::span<const std::uint8_t> order) {
  std::array<std::uint16_t, kMaxCompleted> was{};
  std::copy(completed.begin(), completed.end(), was.begin());
  for (std::size_t k = 0; k < completed.size(); ++k) completed[k] = was[order[k]];
}

// Final scoring, proved optimal above: a meeple of a lowest colour (smallest index) while
// one exists, then the rest by colour.
void lowest_first_final(const State& st, std::span<std::uint8_t> colors) {
  const int k = st.colors();
  Scores s{};
  std::array<int, kMaxColors> left{};
  for (int c = 0; c < k; ++c) s[c] = st.score(c);
  for (const std::uint8_t c : colors) ++left[c];
  std::size_t n = 0;
  for (;;) {
    const std::uint8_t low = lowest_mask(s, k);
    int pick = -1;
    for (int c = 0; c < k && pick < 0; ++c)
      if ((low >> c & 1) && left[c] > 0) pick = c;
    if (pick < 0) break;
    s[pick] += 2;
    --left[pick];
    colors[n++] = std::uint8_t(pick);
  }
  for (int c = 0; c < k; ++c)
    while (left[c]-- > 0) colors[n++] = std::uint8_t(c);
}

class LowestFirst final : public ScoringPolicy {
 public:
  void order_features(const Observation& obs, std::span<std::uint16_t> completed,
                      Rng&) override {
    std::array<std::uint8_t, kMaxCompleted> order{};
    lowest_first_order(turn_scoring(obs.state(), completed), order);
    permute(completed, {order.data(), completed.size()});
  }
  void order_final(const Observation& obs, std::span<std::uint8_t> colors, Rng&) override {
    lowest_first_final(obs.state(), colors);
  }
};

// Exact search over the orders of the features that carry meeples (the others award no
// one and change nothing, wherever they go). A position after some features is (R, A): the
// features remaining and those awarded; the scores are the start plus A's points, so
// (R, A) determines the best value reachable, memoised under the base-3 code sum(d_i 3^i),
// d_i = 0 remaining, 1 awarded, 2 scored unawarded (3^m codes for m features).
//
// Pruning, proved: an optimal order exists that never scores a feature unawarded while a
// remaining one would be awarded. Scoring a feature that does not qualify changes no score,
// so moving it from the front of an order to the end leaves every other step as it was,
// and at the end it adds points or nothing: no score goes down. From a position where some
// feature qualifies, move unawarded features from the front of an optimal order to its end
// until it starts with a qualifying one (then awarded): still optimal. Its rest may be
// replaced by an optimal order of the position reached, which has the same form by
// induction on the features left. So solve() branches only on qualifying features while
// there is one, and its values stay exact; the reconstruction still asks about every
// child, for the tie-break.
//
// Bound: m <= kExact = 10 features with meeples, so at most 3^10 = 59,049 positions of at
// most m steps each, and far fewer in practice: under the pruning A is all but R, so the
// search meets at most 2^m positions, plus those below the unawarded children the
// reconstruction asks about. The table is cleared per turn up to 3^m only. Every turn of
// the base game fits: a tile has at most 4 segments, plus at most the 6 monasteries of the
// tile set. A turn beyond kExact (only with
// larger tile sets) falls back to lowest-first.
//
// Ties: the lexicographically first optimal order, comparing positions in the as-found
// list. A meeple-less feature is always an optimal next choice; a feature with meeples is
// one when its child keeps the optimum; the smallest index among both wins.
class Best final : public ScoringPolicy {
 public:
  void order_features(const Observation& obs, std::span<std::uint16_t> completed,
                      Rng&) override {
    std::array<std::uint8_t, kMaxCompleted> order{};
    solver_.solve(turn_scoring(obs.state(), completed), order);
    permute(completed, {order.data(), completed.size()});
  }

  void order_final(const Observation& obs, std::span<std::uint8_t> colors, Rng&) override {
    lowest_first_final(obs.state(), colors);  // optimal, see the proof at the top
  }

 private:
  BestOrder solver_;
};

}  // namespace

void BestOrder::solve(const TurnScoring& t, std::span<std::uint8_t> order) {
  std::array<int, kMaxCompleted> quiet{};  // meeple-less, ascending
  int n_quiet = 0;
  m_ = 0;
  for (int i = 0; i < t.n; ++i) {
    if (t.majority[i] == 0) {
      quiet[n_quiet++] = i;
    } else if (m_ < kExact) {
      rel_[m_++] = i;
    } else {
      lowest_first_order(t, order);
      return;
    }
  }
  t_ = &t;
  std::fill_n(memo_.begin(), kPow3[m_], -1);
  // The optimal order of the features with meeples, smallest index first among ties.
  std::array<int, kExact> seq{};
  int code = 0;
  std::uint32_t rem = (1u << m_) - 1;
  Scores s = t.start;
  for (int k = 0; k < m_; ++k) {
    const int target = search(code, rem, s);
    for (int i = 0; i < m_; ++i) {
      if (!(rem >> i & 1)) continue;
      Scores child = s;
      const int child_code = code + step(i, child) * kPow3[i];
      if (search(child_code, rem & ~(1u << i), child) == target) {
        seq[k] = rel_[i];
        code = child_code;
        rem &= ~(1u << i);
        s = child;
        break;
      }
    }
  }
  // Merge with the meeple-less ones: the smaller index goes first.
  int a = 0, b = 0, k = 0;
  while (a < m_ || b < n_quiet) {
    const bool take_quiet = a == m_ || (b < n_quiet && quiet[b] < seq[a]);
    order[k++] = std::uint8_t(take_quiet ? quiet[b++] : seq[a++]);
  }
  t_ = nullptr;
}

// (lowest, total) as one number: totals stay below kMaxColors * kScoreLimit.
constexpr int kTotalRange = 16384;
static_assert(kMaxColors * kScoreLimit <= kTotalRange);

int BestOrder::value(const Scores& s) const {
  int low = s[0], total = 0;
  for (int c = 0; c < t_->colors; ++c) {
    low = std::min(low, s[c]);
    total += s[c];
  }
  return low * kTotalRange + total;
}

// Scores relevant feature i now; returns its base-3 digit (1 awarded, 2 not).
int BestOrder::step(int i, Scores& s) const {
  const int f = rel_[i];
  if (!(t_->majority[f] & lowest_mask(s, t_->colors))) return 2;
  award(s, t_->points[f], t_->majority[f], t_->colors);
  return 1;
}

int BestOrder::search(int code, std::uint32_t rem, const Scores& s) {
  if (memo_[code] >= 0) return memo_[code];
  // When no remaining feature qualifies now, none ever will: nothing changes any more.
  const std::uint8_t low = lowest_mask(s, t_->colors);
  bool any = false;
  for (int i = 0; i < m_; ++i) any |= (rem >> i & 1) && (t_->majority[rel_[i]] & low);
  int best = value(s);
  if (any) {
    best = -1;
    for (int i = 0; i < m_; ++i) {
      if (!(rem >> i & 1)) continue;
      Scores child = s;
      const int digit = step(i, child);
      if (digit == 2) continue;  // unawarded while another qualifies: pruned, see above
      best = std::max(best, search(code + digit * kPow3[i], rem & ~(1u << i), child));
    }
  }
  memo_[code] = best;
  return best;
}

// Called by the registry (policies/registry.cpp) before its first use.
void register_scoring_orders() {
  register_scoring(
      {"lowest-first",
       "repeatedly a feature whose majority holds a lowest colour, then the rest as found; "
       "final: a lowest colour's meeple first",
       {}},
      [](const Params&) { return std::make_unique<LowestFirst>(); });
  register_scoring(
      {"best",
       "exact: maximises the lowest score after the turn, then the total; final as "
       "lowest-first (optimal)",
       {}},
      [](const Params&) { return std::make_unique<Best>(); });
}

}  // namespace carc
