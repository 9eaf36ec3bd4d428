// `greedy`: the move with the best immediate outcome of this turn. Outcomes compare by
// the lowest score after the turn, then the total score, then whether the game goes on
// (a forced meeple the colour does not have ends it), then the meeples in all supplies;
// ties are broken uniformly at random (with snug=1 first toward placements with more
// tiles among the 8 cells around: a compact board finishes monasteries and features).
//
// With the large meeple (expansions.md), a colour that holds both figures is offered the
// large meeple on a feature that an occupied feature faces across an empty cell beside
// the tile (placement_analysis.hpp, facing_features): there a later tile can join them,
// and the large meeple's weight of 2 can decide the joined feature's majority. Its option
// counts, per facing feature, +1 where that majority (at today's scores) would hold a
// lowest colour with the large meeple and not with a meeple, -1 the other way round; it
// is played when that count is positive and the rest of its outcome (this turn's, the
// same as the meeple's) ties; otherwise the meeple goes and the large meeple stays in
// supply (a colour whose only figure it is places it as it would a meeple).
//
// Only a move that completes something can change the scores or the supplies this turn,
// and placement_analysis tells which those are (most at a glance: no segment of the tile is
// enclosed by tiles). Their outcome is read off the analysis, scored in the `best` order
// (turn_scoring.hpp, move_outcome); every other move has the outcome of "nothing scored".
// No move is played on a copy of the State.
#include <algorithm>
#include <bit>

#include "policies/placement_analysis.hpp"
#include "policies/policy.hpp"
#include "policies/turn_scoring.hpp"

namespace carc {
namespace {

struct Outcome {
  int low, total, alive, supply, snug;
  int weight = 0;  // the large meeple's count above (0: a meeple)
  int keep = 1;    // 1: the large meeple stays in supply (every option but the large one)
  auto operator<=>(const Outcome&) const = default;
};

// The outcome of the scores and supplies after a move (move_outcome gives them).
Outcome outcome_of(const Scores& score, const Scores& supply, int colors, bool alive) {
  Outcome o{*std::min_element(score.begin(), score.begin() + colors), 0, alive, 0, 0, 0, 1};
  for (int c = 0; c < colors; ++c) {
    o.total += score[c];
    o.supply += supply[c];
  }
  return o;
}

// The same, of the State as it stands (a move that completes nothing leaves the scores so).
Outcome outcome_of(const State& s, bool alive) {
  Scores score{}, supply{};
  for (int c = 0; c < s.colors(); ++c) {
    score[std::size_t(c)] = s.score(c);
    supply[std::size_t(c)] = s.figures(c);
  }
  return outcome_of(score, supply, s.colors(), alive);
}

// The large meeple's count on segment `seg` (see above): per facing feature, +1 where the
// joined feature's majority holds a lowest colour with the large meeple and not with a
// meeple, -1 the other way round; 0 when its feature completes now or none faces it.
int large_weight(const State& s, int type, const Placement& p, const PlacementEffect& e, int seg) {
  if (e.feats[std::size_t(e.feat_of_seg[std::size_t(seg)])].complete()) return 0;
  std::array<std::uint16_t, 12> facing;
  const int n = facing_features(s, type, p, e, seg, facing);
  const int k = s.colors(), mover = s.to_move();
  Scores now{};
  for (int c = 0; c < k; ++c) now[std::size_t(c)] = s.score(c);
  const std::uint8_t low = lowest_mask(now, k);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    std::array<std::uint8_t, kMaxColors> small = s.feature(facing[std::size_t(i)]).meeples, big = small;
    small[std::size_t(mover)] = std::uint8_t(small[std::size_t(mover)] + 1);
    big[std::size_t(mover)] = std::uint8_t(big[std::size_t(mover)] + 2);
    count += int((majority_of(big, k) & low) != 0) - int((majority_of(small, k) & low) != 0);
  }
  return count;
}

class Greedy final : public PlacementPolicy {
 public:
  explicit Greedy(bool snug) : snug_(snug) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    const bool has_meeple = s.figures(s.to_move()) > 0;
    const bool two_figures = s.supply(s.to_move()) > 0 && s.large_supply(s.to_move()) > 0;
    const Outcome quiet = outcome_of(s, true);
    Outcome best{-1, 0, 0, 0, 0, 0, 0};
    n_ties_ = 0;
    CellNeighbours nb;
    PlacementEffect e;
    for (const Placement& p : legal) {
      if (p.cell != nb.cell) nb.load(s, p);
      std::uint8_t free_mask = 0;
      bool analysed = false;
      const bool completes = !surely_quiet(type, p.rot, nb, free_mask) && [&] {
        analyse_placement(s, type, p, nb, e);
        analysed = true;
        free_mask = e.free_mask;
        return e.completes;
      }();
      const bool alive = has_meeple || free_mask == 0;
      std::uint8_t options = has_meeple ? free_mask : 0;
      do {
        Move m{p, Move::kNoMeeple};
        if (options) {
          m.seg = std::uint8_t(std::countr_zero(unsigned(options)));
          options &= std::uint8_t(options - 1);
        }
        Outcome o = quiet;
        o.alive = alive;
        o.supply -= m.seg != Move::kNoMeeple;
        if (completes) {
          Scores score, supply;
          move_outcome(s, e, nb, m.seg, best_order_, score, supply);
          o = outcome_of(score, supply, s.colors(), alive);
        }
        o.snug = snug_ ? 8 - nb.empty : 0;
        if (o > best) {
          best = o;
          n_ties_ = 0;
        }
        if (o == best) ties_[n_ties_++] = m;
        if (two_figures && m.seg != Move::kNoMeeple) [[unlikely]] {
          if (!analysed) {
            analyse_placement(s, type, p, nb, e);
            analysed = true;
          }
          if (const int w = large_weight(s, type, p, e, m.seg); w > 0) {
            o.weight = w;
            o.keep = 0;
            if (o > best) {
              best = o;
              n_ties_ = 0;
            }
            if (o == best) ties_[n_ties_++] = Move{p, m.seg, true};
          }
        }
      } while (options);
    }
    if (n_ties_ == 1) return ties_[0];
    return ties_[uniform_below(rng, std::uint32_t(n_ties_))];
  }

 private:
  bool snug_;
  BestOrder best_order_;
  int n_ties_ = 0;
  std::array<Move, kMaxPlacements * kMaxSegs * 2> ties_;  // with the large meeple's options
};

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_greedy() {
  register_placement(
      {"greedy",
       "best immediate outcome: lowest score after the turn, then total, then the game going "
       "on, then meeples in supply (turn scored with the 'best' order); ties at random",
       {{"snug", 0, "1: among equal outcomes, prefer placements with more tiles around"}}},
      [](const Params& p, const PolicyContext&) { return std::make_unique<Greedy>(p.get("snug") != 0); });
}

}  // namespace carc
