// HeuristicEvaluator, per placement and per meeple option: the terms of every move, and
// the evaluator's public calls (eval.hpp).
#include "policies/heuristic/eval.hpp"
#include "policies/heuristic/terms.hpp"

namespace carc {
namespace heuristic {

// Tile types the next colour could place with no free segment: at every other open cell
// as they are (cell.nofree_base), at the cells beside this one as the move leaves them;
// a meeple on a feature adds the sides of those cells on it.
template <MaskWidth M>
inline void Evaluator<M>::absorbing(const Oriented& o) {
  pv.absorb_mask = cell.nofree_base;
  pv.absorb_extra.fill(0);
  for (unsigned b = ~cell.nb.occupied & 15u; b; b &= b - 1) {
    const int d = std::countr_zero(b);
    const int od = opposite(d);
    const int code = cell.code_near[d] | (o.edge[d] & 3) << (2 * od);  // a water edge leaves no code (kWater & 3)
    const int occ = cell.occ_near[d];
    if (o.seg[d] >= 0) {
      const int fi = e.feat_of_seg[o.seg[d]];
      if (e.feats[fi].meeple_total) {
        pv.absorb_mask |= no_free[std::size_t(code * 16 + (occ | 1 << od))];
      } else {
        pv.absorb_mask |= no_free[std::size_t(code * 16 + occ)];
        pv.absorb_extra[fi] |= no_free[std::size_t(code * 16 + (occ | 1 << od))];
      }
    } else {
      pv.absorb_mask |= no_free[std::size_t(code * 16 + occ)];
    }
  }
  pv.absorb_count = cell.nofree_base_count + unseen.count(pv.absorb_mask & ~cell.nofree_base);
}

// The terms of the option with the meeple on segment `seg` (kNoMeeple: none), and with
// `large` the large meeple's option there (eval.hpp).
template <MaskWidth M>
inline HeuristicTerms Evaluator<M>::terms(int seg, HeuristicTerms* large) {
  std::array<double, kMaxColors> p = pv.expect;
  double r = pv.returns;
  const JoinedFeature* meeple_on = nullptr;
  int absorbing_unseen = pv.absorb_count;
  if (seg != Move::kNoMeeple) {
    const int fi = e.feat_of_seg[seg];
    const JoinedFeature& f = e.feats[fi];
    meeple_on = &f;
    if (!f.complete()) {
      const Contrib c = fresh_contrib(f.kind, feat_odds[fi], f.tiles, f.pennants, f.marks);
      p[mover] += 1.0 * c.gain;  // add(p, r, c, 1): the mover is its only majority colour
      r += 1.0 * c.ret;
    }
    absorbing_unseen += unseen.count(pv.absorb_extra[fi] & ~pv.absorb_mask);
  }
  HeuristicTerms v;
  Scores after;  // the scores after a move that completes something
  const int* score = scores_now.data();
  if (e.completes) [[unlikely]] {
    outcome_terms(seg, p, r, v, after);
    score = after.data();
  } else {
    const Supplies& q = quiet[seg != Move::kNoMeeple];
    v.scores = expected_scores_term(w, k, score, p.data(), pv.ends);
    v.supply = supply_term(meeple_w, q.total, r);
    v.empty = empty_term(empty_w, q.empties);
    v.one = one_term(one_w, q.ones);
    v.urgent = urgent_term(urgent_w, q.supply[next] == 0);
  }
  v.ended = pv.ends;
  v.compact = pv.compact;
  v.sink = sink_term(pv.sink, w.sink, meeple_on);
  if (w.absorb != 0 && tiles_left > 0)
    v.absorb = absorb_term(absorb_w, absorbing_unseen, tiles_left);
  if (large) [[unlikely]] {
    // The same move but for the figure's weight: only the `large` term differs (both are one
    // figure, and the feature holds no other figure yet).
    *large = v;
    large_found = large_weight(seg, p, score, v.scores, large->large);
  }
  return v;
}

template <MaskWidth M>
bool Evaluator<M>::large_weight(int seg, const std::array<double, kMaxColors>& p, const int* score,
                                double scores, double& out) {
  const JoinedFeature& f = e.feats[std::size_t(e.feat_of_seg[std::size_t(seg)])];
  if (f.complete() || tiles_left == 0) return false;  // scored at once, or never joined
  if (f.kind == SegKind::monastery) {  // no other figure can ever join it
    out = w.large_monastery;
    return out > 0 && !large_only;
  }
  std::array<std::uint16_t, 12> facing;
  const int n = facing_features(*s, placing_type, *placing, e, seg, facing);
  if (n == 0) return false;
  std::array<double, kMaxColors> with = p;
  for (int i = 0; i < n; ++i) {
    const int root = facing[std::size_t(i)];
    const Feature& g = s->feature(root);
    std::array<std::uint8_t, kMaxColors> small = g.meeples, big = g.meeples;
    small[mover] = std::uint8_t(small[mover] + 1);
    big[mover] = std::uint8_t(big[mover] + 2);
    const std::uint8_t by_small = majority_of(small, k), by_big = majority_of(big, k);
    if (by_small == by_big) continue;
    const double points =
        w.large_merge * points_of(f.kind, f.tiles + g.tiles, f.pennants + g.pennants,
                                  std::uint8_t(f.marks | (ext ? s->feature_marks(root) : 0)));
    // Each majority colour gains the points times the award weight of the nearest of them to
    // the lowest score (contrib()).
    const auto award_of = [&](std::uint8_t m) {
      double a = 0;
      for (unsigned b = m; b; b &= b - 1) a = std::max(a, award[std::size_t(std::countr_zero(b))]);
      return a * (1 + w.share * (std::popcount(unsigned(m)) - 1));
    };
    const double a_small = award_of(by_small), a_big = award_of(by_big);
    for (unsigned b = by_small; b; b &= b - 1) with[std::size_t(std::countr_zero(b))] -= points * a_small;
    for (unsigned b = by_big; b; b &= b - 1) with[std::size_t(std::countr_zero(b))] += points * a_big;
  }
  out = large_term(w, k, score, with.data(), scores);
  return out > 0 || large_only;  // the lone large meeple goes wherever: its term counts
}

// The terms that read the scores and supplies, for a move that completes something.
template <MaskWidth M>
void Evaluator<M>::outcome_terms(int seg, const std::array<double, kMaxColors>& p, double r,
                                 HeuristicTerms& v, Scores& score) {
  Scores supply;
  move_outcome(*s, e, cell.nb, seg, best, score, supply);
  int in_supply = 0, empties = 0, ones = 0;
  for (int c = 0; c < k; ++c) {
    in_supply += supply[c];
    empties += supply[c] == 0;
    ones += supply[c] == 1;
  }
  v.scores = expected_scores_term(w, k, score.data(), p.data(), pv.ends);
  v.supply = supply_term(meeple_w, in_supply, r);
  v.empty = empty_term(empty_w, empties);
  v.one = one_term(one_w, ones);
  v.urgent = urgent_term(urgent_w, supply[next] == 0);
}

template <MaskWidth M>
template <class Emit>
void Evaluator<M>::placement(int type, const Placement& pl, Emit&& emit) {
  if (pl.cell != cell.nb.cell) load_cell(type, pl);
  const Oriented& o = kOriented[type][pl.rot];
  delta.points.fill(0);
  delta.returns = 0;
  delta.n_gone = 0;
  if (cell.nb.shared_root) {
    analyse_placement(*s, type, pl, cell.nb, e);
    expect_features(o);
  } else {
    analyse_and_expect(type, o);
  }
  if (cell.n_monasteries) expect_monasteries(o);
  if (cell.n_sides) expect_neighbour_cells(o);
  pv.expect = pend;
  for (int c = 0; c < kMaxColors; ++c) pv.expect[c] += delta.points[c];  // past k: unused
  pv.returns = ret + delta.returns;
  pv.sink = sink_placement(w.sink, *s, e);
  pv.ends = e.free_mask != 0 && !has_meeple && tiles_left > 0;
  pv.compact = compact_term(w, 8 - cell.nb.empty);
  absorbing(o);
  std::uint8_t options = has_meeple ? e.free_mask : 0;
  if (large_only && options) [[unlikely]] {
    // The figure is the large meeple whatever the move says: each segment valued with its
    // weight (the meeple's terms and the `large` term where it can decide a majority).
    placing = &pl;
    placing_type = type;
    HeuristicTerms large;
    do {
      Move m{pl, std::uint8_t(std::countr_zero(options)), true};
      options &= std::uint8_t(options - 1);
      const HeuristicTerms meeple = terms(m.seg, &large);
      emit(m, large_found ? large : meeple);
    } while (options);
    return;
  }
  if (two_figures && options) [[unlikely]] {
    placing = &pl;
    placing_type = type;
    HeuristicTerms large;
    do {
      Move m{pl, std::uint8_t(std::countr_zero(options))};
      options &= std::uint8_t(options - 1);
      emit(m, terms(m.seg, &large));
      if (large_found) {
        m.large = true;
        emit(m, large);
      }
    } while (options);
    return;
  }
  do {
    Move m{pl, Move::kNoMeeple};
    if (options) {
      m.seg = std::uint8_t(std::countr_zero(options));
      options &= std::uint8_t(options - 1);
    }
    emit(m, terms(m.seg));
  } while (options);
}

template <MaskWidth M>
inline int Evaluator<M>::evaluate(int type, std::span<const Placement> legal, ScoredMove* out) {
  int n = 0;
  cell.nb.cell = -1;
  // Where each rotation's options went at the current cell: a rotation that turns the
  // tile into the very same oriented tile as an earlier one (U turned twice, any turn
  // of B) has the same options with the same values.
  std::array<int, 4> first{}, count{};
  int at_cell = -1;
  std::uint8_t done = 0;
  for (const Placement& pl : legal) {
    if (pl.cell != at_cell) {
      at_cell = pl.cell;
      done = 0;
    }
    const int same = kSameRotation[type][pl.rot];
    if (done >> same & 1) {
      for (int i = 0; i < count[same]; ++i) {
        out[n] = out[first[same] + i];
        out[n++].move.at = pl;
      }
      continue;
    }
    first[pl.rot] = n;
    placement(type, pl, [&](const Move& m, const HeuristicTerms& t) {
      out[n++] = ScoredMove{m, t.total()};
    });
    count[pl.rot] = n - first[pl.rot];
    done = std::uint8_t(done | 1u << pl.rot);
  }
  return n;
}

}  // namespace heuristic

// An evaluator per mask width: the base game's, made with the policy, and the one for the
// expansions' types, made at the first position of a game that deals them (a policy that
// plays only base games never makes it).
struct HeuristicEvaluator::Impl {
  explicit Impl(const HeuristicWeights& w) : base(w) {}
  heuristic::Evaluator<BaseMask> base;
  std::unique_ptr<heuristic::Evaluator<TypeMask>> wide;
  // f(the evaluator for the positions of s's game).
  template <class F>
  decltype(auto) with(const State& s, F&& f) {
    if (!s.beyond_base()) return f(base);
    if (!wide) wide = std::make_unique<heuristic::Evaluator<TypeMask>>(base.w);
    return f(*wide);
  }
};

HeuristicEvaluator::HeuristicEvaluator(const HeuristicWeights& w)
    : impl_(std::make_unique<Impl>(w)) {}
HeuristicEvaluator::~HeuristicEvaluator() = default;

int HeuristicEvaluator::evaluate(const State& s, int type, std::span<const Placement> legal,
                                 ScoredMove* out, Rng&) {
  return impl_->with(s, [&](auto& e) {
    e.begin_turn(s);
    const int n = e.evaluate(type, legal, out);
    e.end_turn();
    return n;
  });
}

HeuristicTerms HeuristicEvaluator::terms(const State& s, int type, const Move& m) {
  return impl_->with(s, [&](auto& e) {
    e.begin_turn(s);
    e.cell.nb.cell = -1;
    HeuristicTerms found, first;
    bool matched = false, any = false;
    e.placement(type, m.at, [&](const Move& option, const HeuristicTerms& t) {
      if (!any) first = t;
      any = true;
      // The meeple's option, or the large meeple's where it is offered (it comes second).
      if (option.seg == m.seg && (!matched || option.large == m.large)) {
        found = t;
        matched = true;
      }
    });
    if (!matched) found = first;  // the only option is then the one without a meeple
    e.end_turn();
    return found;
  });
}

// begin_turn computes the position's own expectations for every move to start from: pend
// is the points per colour, and each active feature's odds give its meeples' chances (its
// `now.ret` is the same chance times `meeple` and the meeple count, summed over colours).
PositionExpectations HeuristicEvaluator::expectations(const State& s) {
  return impl_->with(s, [&](auto& e) {
    e.begin_turn(s);
    PositionExpectations out;
    for (int c = 0; c < e.k; ++c) out.points[c] = e.pend[c];
    for (int i = 0; i < e.n_active; ++i) {
      const heuristic::Active& a = e.active[i];
      const Feature& f = s.feature(a.root);
      const double chance =
          e.tiles_left > 0 ? e.meeple_odds(a.odds, e.qpow[int(f.kind)].data()) : 0;
      const unsigned large = e.large_game ? s.feature_large(a.root) : 0u;
      for (int c = 0; c < e.k; ++c) out.returns[c] += chance * (f.meeples[c] - int(large >> c & 1));  // figures
    }
    if (e.tiles_left > 0) out.absorb_share = double(e.nofree_all_count) / e.tiles_left;
    e.end_turn();
    return out;
  });
}

}  // namespace carc
