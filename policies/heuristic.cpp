// `heuristic`: the move with the best HeuristicEvaluator value (heuristic.hpp).
//
// The work is split by what it depends on. Per turn: for each open cell and each feature
// beside it, how many unseen tiles would end the feature there, and from that the
// expectation of every unfinished feature with meeples. Per cell (every rotation of the
// tile there shares it): the board around the cell and the tiles the next colour could
// place without a free segment elsewhere. Per placement: the features the tile joins and
// their new expectations, as deltas to the turn's. Per meeple option: the terms
// (heuristic_terms.hpp), summed. A move that completes something is scored exactly
// without a State copy: its turn is the small problem of policies/turn_scoring.hpp,
// solved in the `best` order.
#include "policies/heuristic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "policies/heuristic_odds.hpp"
#include "policies/heuristic_terms.hpp"
#include "policies/turn_scoring.hpp"

namespace carc {

double HeuristicTerms::total() const {
  // The grouping is part of the definition: it fixes the rounding, so that equal moves
  // tie exactly and a run is the same on every machine.
  double v = scores;
  if (!ended) v += ((supply + empty) + one) + urgent;
  return (v + compact) + (sink + absorb);
}

namespace {

using namespace heuristic;

constexpr std::uint8_t kNone8 = 0xFF;
constexpr int kMaxActive = kMaxColors * kMaxMeeples;

// What an unfinished feature with meeples is expected to bring.
struct Contrib {
  double gain = 0;            // expected points for each majority colour
  double ret = 0;             // expected value of its meeples coming back
  std::uint8_t majority = 0;  // colour mask
};

struct Active {
  std::uint16_t root;
  Contrib now;
  Odds odds;
};

// The colours' expectations as a move changes them: the contributions of the features it
// touches taken out (each once: `gone`) and their new ones added, in a fixed order.
struct Delta {
  std::array<double, kMaxColors> points{};
  double returns = 0;
  std::array<std::uint16_t, 16> gone;
  int n_gone = 0;
  bool is_gone(int root) const {
    for (int i = 0; i < n_gone; ++i)
      if (gone[i] == root) return true;
    return false;
  }
};

// The board around a cell, shared by the placements there.
struct CellView {
  CellNeighbours nb;
  int code = 0;                       // the cell's constraint code
  std::array<std::uint8_t, 4> open{};  // open index of the neighbour at d, or kNone8
  std::array<std::uint8_t, 4> code_near{};  // its code (0: not open)
  std::array<std::uint8_t, 4> occ_near{};   // its sides on occupied features
  TypeMask nofree_base = 0;  // absorbing tile types at every other open cell
};

}  // namespace

struct HeuristicEvaluator::Impl {
  HeuristicWeights w;
  BestOrder best;
  std::array<std::array<double, kMaxSides + 1>, 3> qpow{};  // q^n per SegKind
  const NoFreeTable& no_free = no_free_table();

  // Per turn.
  const State* s = nullptr;
  int k = 0, tiles_left = 0, mover = 0, next = 0;
  bool has_meeple = false;
  double meeple_w = 0, empty_w = 0, one_w = 0, urgent_w = 0, absorb_w = 0;
  std::array<double, kMaxColors> award{};
  std::array<double, kMaxColors> pend{};  // expected points per colour
  double ret = 0;                         // expected returns of meeples on the board
  UnseenPlanes unseen;
  std::array<std::uint8_t, kCells> open_of;
  std::array<std::uint8_t, kMaxOpen> occ_of{};      // per open cell: sides on occupied features
  std::array<TypeMask, kMaxOpen> nofree_of{};       // per open cell: no_free of it
  std::array<std::uint8_t, kTileTypes> nofree_cells{};  // per type: open cells absorbing it
  TypeMask nofree_all = 0;
  std::array<std::int16_t, kCodes * 4> closers_cache;
  std::array<std::int16_t, kCodes> fit_cache;
  std::array<Factor, kMaxTiles + 1> factor_cache;
  std::array<bool, kMaxTiles + 1> factor_known;
  std::array<std::array<std::int16_t, 4>, kMaxOpen> side_root{};
  std::array<Odds, kSlots> odds;                     // per feature root, from its open cells
  std::array<std::uint16_t, 4 * kMaxOpen> marked{};  // roots whose odds are set
  int n_marked = 0;
  std::array<bool, kSlots> is_marked;
  std::array<std::uint8_t, kSlots> active_of;  // index into active, or kNone8
  std::array<Active, kMaxActive> active{};
  int n_active = 0;

  // Per cell and per placement.
  CellView cell;
  PlacementEffect e;
  Delta delta;
  std::array<Odds, kMaxSegs> feat_odds{};
  double sink_part = 0;

  explicit Impl(const HeuristicWeights& weights) : w(weights) {
    const std::array<double, 3> q{w.road_q, w.city_q, w.monastery_q};  // SegKind order
    for (int kind = 0; kind < 3; ++kind) {
      qpow[kind][0] = 1;
      for (int i = 1; i <= kMaxSides; ++i) qpow[kind][i] = qpow[kind][i - 1] * q[kind];
    }
    open_of.fill(kNone8);
    is_marked.fill(false);
    active_of.fill(kNone8);
  }

  // --- chances -----------------------------------------------------------------------

  int closers(int code, int d) {
    std::int16_t& c = closers_cache[code * 4 + d];
    if (c < 0) c = std::int16_t(unseen.count(kCloses[code][d]));
    return c;
  }
  int fit(int code) {
    std::int16_t& c = fit_cache[code];
    if (c < 0) c = std::int16_t(unseen.count(kFitMask[code]));
    return c;
  }
  // 1 - (1 - c/T)^h for both horizons, as logs.
  const Factor& factor(int c) {
    if (!factor_known[c]) {
      factor_known[c] = true;
      Factor& f = factor_cache[c];
      f.zero = c == 0;
      if (!f.zero) {
        const double miss = 1.0 - double(c) / tiles_left;
        f.log_m = std::log1p(-std::pow(miss, std::min<double>(w.horizon, tiles_left)));
        f.log_p = std::log1p(-std::pow(miss, std::min<double>(w.points_horizon, tiles_left)));
        if (!std::isfinite(f.log_m) || !std::isfinite(f.log_p)) f.zero = true;
      }
    }
    return factor_cache[c];
  }

  Odds& odds_of(int root) {
    if (!is_marked[root]) {
      is_marked[root] = true;
      odds[root] = Odds{};
      marked[n_marked++] = std::uint16_t(root);
    }
    return odds[root];
  }

  // A monastery at `mcell`: one open side per empty cell around it, hopeless when one of
  // them is open and no unseen tile fits it. `placed`: a tile about to go to `pcell` (that
  // cell is full then, and its edges constrain the cells beside it).
  Odds monastery_odds(int mcell, int pcell, const Oriented* placed) {
    Odds o;
    for (int d = 0; d < 8; ++d) {
      const int c = step(mcell, d);
      if ((placed && c == pcell) || s->tile_near(c) >= 0) continue;
      const int j = open_of[c];
      int code = j == kNone8 ? 0 : s->open_cell(j).code;
      bool open = j != kNone8;
      if (placed)
        for (int dd = 0; dd < 4; ++dd)
          if (step(pcell, dd) == c) {
            code |= placed->edge[dd] << (2 * opposite(dd));
            open = true;
          }
      ++o.sides;
      o.zeros += open && fit(code) == 0;
    }
    return o;
  }

  Contrib contrib(SegKind kind, const Odds& o, int tiles, int pennants,
                  const std::array<std::uint8_t, kMaxColors>& meeples, int meeple_total) const {
    Contrib c;
    if (meeple_total == 0) return c;
    const int points = kind == SegKind::road ? tiles : kind == SegKind::city ? 2 * (tiles + pennants) : 9;
    int most = 0;
    for (int i = 0; i < k; ++i) most = std::max<int>(most, meeples[i]);
    double a = 0;
    int shared = -1;
    for (int i = 0; i < k; ++i)
      if (meeples[i] == most) {
        c.majority = std::uint8_t(c.majority | 1u << i);
        a = std::max(a, award[i]);
        ++shared;
      }
    a *= 1 + w.share * shared;
    const double* q = qpow[int(kind)].data();
    c.gain = o.points(q) * a * points;
    c.ret = o.meeple(q) * meeple_w * meeple_total;
    return c;
  }

  void add(std::array<double, kMaxColors>& p, double& r, const Contrib& c, double sign) const {
    for (int i = 0; i < k; ++i)
      if (c.majority >> i & 1) p[i] += sign * c.gain;
    r += sign * c.ret;
  }
  void retire(int root) {
    const std::uint8_t a = active_of[root];
    if (a == kNone8 || delta.is_gone(root)) return;
    delta.gone[delta.n_gone++] = std::uint16_t(root);
    add(delta.points, delta.returns, active[a].now, -1);
  }

  // --- per turn ------------------------------------------------------------------------

  void begin_turn(const State& st) {
    s = &st;
    k = st.colors();
    mover = st.to_move();
    next = mover + 1 == k ? 0 : mover + 1;
    has_meeple = st.supply(mover) > 0;
    tiles_left = st.unseen_total();
    meeple_w = tiles_left > 0 ? w.meeple : 0;
    empty_w = tiles_left > 0 ? w.empty : 0;
    one_w = tiles_left > 0 ? w.one : 0;
    urgent_w = tiles_left > 0 ? w.urgent : 0;
    absorb_w = absorb_weight(w, st.supply(next) == 0);
    const int low = st.lowest_score();
    for (int c = 0; c < k; ++c) award[c] = std::exp(-(st.score(c) - low) / w.balance);
    unseen.load(st);
    closers_cache.fill(-1);
    fit_cache.fill(-1);
    factor_known.fill(false);
    n_marked = 0;
    for (int j = 0; j < st.open_count(); ++j) {
      const OpenCell& oc = st.open_cell(j);
      open_of[oc.cell] = std::uint8_t(j);
      occ_of[j] = 0;
      for (int d = 0; d < 4; ++d) {
        side_root[j][d] = -1;
        const int e = code_edge(oc.code, d);
        if (e == kField || e == kNone) continue;
        const int v = st.tile_near(step(oc.cell, d));
        const PlacedTile& u = st.tile(v);
        const int r = st.feature_of(v, kOriented[u.type][u.rot].seg[opposite(d)]);
        side_root[j][d] = std::int16_t(r);
        if (st.feature(r).meeple_total) occ_of[j] = std::uint8_t(occ_of[j] | 1u << d);
        apply(odds_of(r), factor(closers(oc.code, d)), 1);
      }
    }
    nofree_all = 0;
    nofree_cells.fill(0);
    for (int j = 0; j < st.open_count(); ++j) {
      const TypeMask m = no_free[st.open_cell(j).code][occ_of[j]];
      nofree_of[j] = m;
      nofree_all |= m;
      for (TypeMask b = m; b; b &= b - 1) ++nofree_cells[std::size_t(__builtin_ctz(b))];
    }
    n_active = 0;
    pend.fill(0);
    ret = 0;
    for (int i = 0; i < st.tiles_on_board(); ++i) {
      const PlacedTile& t = st.tile(i);
      if (t.meeple_seg == 0xFF) continue;
      const int r = st.feature_of(i, t.meeple_seg);
      const Feature& f = st.feature(r);
      if (f.meeple_total == 0 || active_of[r] != kNone8) continue;
      Active& a = active[n_active];
      active_of[r] = std::uint8_t(n_active++);
      a.root = std::uint16_t(r);
      a.odds = f.kind == SegKind::monastery ? monastery_odds(t.cell, -1, nullptr) : odds_of(r);
      a.now = contrib(f.kind, a.odds, f.tiles, f.pennants, f.meeples, f.meeple_total);
      add(pend, ret, a.now, 1);
    }
  }

  void end_turn() {
    for (int j = 0; j < s->open_count(); ++j) open_of[s->open_cell(j).cell] = kNone8;
    for (int i = 0; i < n_marked; ++i) is_marked[marked[i]] = false;
    for (int i = 0; i < n_active; ++i) active_of[active[i].root] = kNone8;
  }

  // --- per cell ------------------------------------------------------------------------

  void load_cell(const Placement& pl) {
    CellView& v = cell;
    v.nb.load(*s, pl);
    v.code = s->open_cell(open_of[pl.cell]).code;
    // Absorbing types at every open cell but this one and those beside it: a type drops
    // out when all the open cells that absorb it are among those.
    std::array<std::uint8_t, 5> skip{open_of[pl.cell], kNone8, kNone8, kNone8, kNone8};
    for (int d = 0; d < 4; ++d) {
      const std::uint8_t j = v.nb.tile[d] < 0 ? open_of[step(pl.cell, d)] : kNone8;
      v.open[d] = j;
      v.code_near[d] = j == kNone8 ? 0 : s->open_cell(j).code;
      v.occ_near[d] = j == kNone8 ? 0 : occ_of[j];
      skip[d + 1] = j;
    }
    TypeMask skipped = 0;
    for (const std::uint8_t j : skip)
      if (j != kNone8) skipped |= nofree_of[j];
    v.nofree_base = nofree_all;
    for (TypeMask b = skipped; b; b &= b - 1) {
      const int t = __builtin_ctz(b);
      int here = 0;
      for (const std::uint8_t j : skip) here += j != kNone8 && (nofree_of[j] >> t & 1);
      if (here == nofree_cells[t]) v.nofree_base &= ~(TypeMask(1) << t);
    }
  }

  // --- per placement: the colours' expectations ----------------------------------------

  // The features the tile belongs to: the board features it joins give way to the joined
  // feature, whose odds are theirs with this cell's sides taken out and the new open sides
  // put in.
  void expect_features(const Placement& pl, const Oriented& o) {
    for (int i = 0; i < e.n_feats; ++i) {
      const JoinedFeature& f = e.feats[i];
      for (int r = 0; r < f.n_roots; ++r) retire(f.roots[r]);
      Odds& fo = feat_odds[i];
      fo = Odds{};
      if (f.complete()) continue;
      if (f.kind == SegKind::monastery) {
        fo = monastery_odds(pl.cell, pl.cell, &o);
      } else {
        for (int r = 0; r < f.n_roots; ++r) {
          if (!is_marked[f.roots[r]]) continue;
          const Odds& ro = odds[f.roots[r]];
          fo.log_m += ro.log_m;
          fo.log_p += ro.log_p;
          fo.zeros += ro.zeros;
        }
        for (int d = 0; d < 4; ++d) {
          if (o.seg[d] < 0 || !(f.segs >> o.seg[d] & 1)) continue;
          if (e.edge_root[d] >= 0) {  // this side of the cell is no longer open
            apply(fo, factor(closers(cell.code, d)), -1);
            continue;
          }
          const int code = cell.code_near[d] | o.edge[d] << (2 * opposite(d));
          apply(fo, factor(closers(code, opposite(d))), 1);
        }
      }
      if (f.meeple_total)
        add(delta.points, delta.returns,
            contrib(f.kind, fo, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
    }
  }

  // Unfinished monasteries around the cell: one empty cell fewer.
  void expect_monasteries(const Placement& pl, const Oriented& o) {
    const CellNeighbours& nb = cell.nb;
    for (int i = 0; i < nb.n_near; ++i) {
      const int root = nb.near[i].root;
      if (active_of[root] == kNone8 || delta.is_gone(root)) continue;
      retire(root);
      if (nb.near[i].open_after == 0) continue;
      const Feature& m = s->feature(root);
      add(delta.points, delta.returns,
          contrib(m.kind, monastery_odds(s->tile(root / kMaxSegs).cell, pl.cell, &o), 1, 0,
                  m.meeples, m.meeple_total),
          1);
    }
  }

  // Open cells beside the tile get its edges too: features on their other sides may now
  // be harder (or impossible) to finish there.
  void expect_neighbour_cells(const Oriented& o) {
    for (int d = 0; d < 4; ++d) {
      const int j = cell.open[d];
      if (j == kNone8) continue;
      const int code = cell.code_near[d];
      const int code2 = code | o.edge[d] << (2 * opposite(d));
      for (int d2 = 0; d2 < 4; ++d2) {
        const int root = side_root[j][d2];
        if (root < 0 || d2 == opposite(d) || active_of[root] == kNone8 || delta.is_gone(root)) continue;
        const int before = closers(code, d2), after = closers(code2, d2);
        if (before == after) continue;
        Odds no = active[active_of[root]].odds;
        apply(no, factor(before), -1);
        apply(no, factor(after), 1);
        retire(root);
        const Feature& f = s->feature(root);
        add(delta.points, delta.returns,
            contrib(f.kind, no, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
      }
    }
  }

  // --- per meeple option -------------------------------------------------------------------

  // Tile types the next colour could place with no free segment: at every other open cell
  // as they are (cell.nofree_base), at the cells beside this one as the move leaves them.
  int absorbing(const Oriented& o, int seg) const {
    TypeMask mask = cell.nofree_base;
    for (int d = 0; d < 4; ++d) {
      if (cell.nb.tile[d] >= 0) continue;
      const int od = opposite(d);
      const int code = cell.code_near[d] | o.edge[d] << (2 * od);
      int occ = cell.occ_near[d];
      if (o.seg[d] >= 0) {
        const JoinedFeature& f = e.feats[e.feat_of_seg[o.seg[d]]];
        if (f.meeple_total || (seg != Move::kNoMeeple && (f.segs >> seg & 1))) occ |= 1 << od;
      }
      mask |= no_free[code][occ];
    }
    return unseen.count(mask);
  }

  // Scores and supplies after the move's turn, exactly as State::place and scoring in the
  // `best` order leave them.
  void outcome(int seg, Scores& score, Scores& supply) {
    TurnScoring t;
    t.colors = k;
    for (int c = 0; c < k; ++c) {
      t.start[c] = s->score(c);
      supply[c] = s->supply(c) - (c == mover && seg != Move::kNoMeeple);
    }
    int relevant = 0;
    auto completed = [&](int points, const std::array<std::uint8_t, kMaxColors>& meeples) {
      t.points[t.n] = points;
      t.majority[t.n] = majority_of(meeples, k);
      relevant += t.majority[t.n] != 0;
      ++t.n;
      for (int c = 0; c < k; ++c) supply[c] += meeples[c];
    };
    for (int i = 0; i < e.n_feats; ++i) {
      const JoinedFeature& f = e.feats[i];
      if (!f.complete()) continue;
      std::array<std::uint8_t, kMaxColors> meeples = f.meeples;
      if (seg != Move::kNoMeeple && (f.segs >> seg & 1)) ++meeples[mover];
      // The analysis may count a tile twice when it joins several board features.
      const int tiles = f.n_roots > 1 ? 1 + s->distinct_tiles({f.roots.data(), f.n_roots}) : f.tiles;
      completed(feature_points(f.kind, tiles, f.pennants), meeples);
    }
    for (int i = 0; i < cell.nb.n_near; ++i)
      if (cell.nb.near[i].open_after == 0) completed(9, s->feature(cell.nb.near[i].root).meeples);
    std::array<std::uint8_t, kMaxCompleted> order;
    if (relevant > 1) {
      best.solve(t, order);
    } else {  // one feature awards at most: the order does not matter
      for (int i = 0; i < t.n; ++i) order[i] = std::uint8_t(i);
    }
    score_in_order(t, {order.data(), std::size_t(t.n)}, score);
  }

  HeuristicTerms terms(const Oriented& o, int seg, bool ends, double compact) {
    HeuristicTerms v;
    std::array<double, kMaxColors> p = pend;
    for (int c = 0; c < k; ++c) p[c] += delta.points[c];
    double r = ret + delta.returns;
    const JoinedFeature* meeple_on = nullptr;
    if (seg != Move::kNoMeeple) {
      const int fi = e.feat_of_seg[seg];
      const JoinedFeature& f = e.feats[fi];
      meeple_on = &f;
      if (!f.complete()) {
        std::array<std::uint8_t, kMaxColors> mm = f.meeples;
        ++mm[mover];
        add(p, r, contrib(f.kind, feat_odds[fi], f.tiles, f.pennants, mm, f.meeple_total + 1), 1);
      }
    }
    Scores score, supply;
    if (e.completes) {
      outcome(seg, score, supply);
    } else {
      for (int c = 0; c < k; ++c) {
        score[c] = s->score(c);
        supply[c] = s->supply(c) - (c == mover && seg != Move::kNoMeeple);
      }
    }
    int in_supply = 0, empties = 0, ones = 0;
    for (int c = 0; c < k; ++c) {
      in_supply += supply[c];
      empties += supply[c] == 0;
      ones += supply[c] == 1;
    }
    v.ended = ends;
    v.scores = expected_scores_term(w, k, score.data(), p.data(), ends);
    v.supply = supply_term(meeple_w, in_supply, r);
    v.empty = empty_term(empty_w, empties);
    v.one = one_term(one_w, ones);
    v.urgent = urgent_term(urgent_w, supply[next] == 0);
    v.compact = compact;
    v.sink = sink_term(sink_part, w.sink, meeple_on);
    if (w.absorb != 0 && tiles_left > 0)
      v.absorb = absorb_term(absorb_w, absorbing(o, seg), tiles_left);
    return v;
  }

  // Every meeple option of one placement: emit(move, terms).
  template <class Emit>
  void placement(int type, const Placement& pl, Emit&& emit) {
    if (pl.cell != cell.nb.cell) load_cell(pl);
    analyse_placement(*s, type, pl, cell.nb, e);
    const Oriented& o = kOriented[type][pl.rot];
    delta.points.fill(0);
    delta.returns = 0;
    delta.n_gone = 0;
    expect_features(pl, o);
    expect_monasteries(pl, o);
    expect_neighbour_cells(o);
    sink_part = sink_placement(w.sink, *s, e);
    const bool ends = e.free_mask != 0 && !has_meeple && tiles_left > 0;
    const double compact = compact_term(w, 8 - cell.nb.empty);
    std::uint8_t options = has_meeple ? e.free_mask : 0;
    do {
      Move m{pl, Move::kNoMeeple};
      if (options) {
        m.seg = std::uint8_t(__builtin_ctz(options));
        options &= std::uint8_t(options - 1);
      }
      emit(m, terms(o, m.seg, ends, compact));
    } while (options);
  }

  int evaluate(int type, std::span<const Placement> legal, ScoredMove* out) {
    int n = 0;
    cell.nb.cell = -1;
    for (const Placement& pl : legal)
      placement(type, pl, [&](const Move& m, const HeuristicTerms& t) {
        out[n++] = ScoredMove{m, t.total()};
      });
    return n;
  }
};

HeuristicEvaluator::HeuristicEvaluator(const HeuristicWeights& w)
    : impl_(std::make_unique<Impl>(w)) {}
HeuristicEvaluator::~HeuristicEvaluator() = default;

int HeuristicEvaluator::evaluate(const State& s, int type, std::span<const Placement> legal,
                                 ScoredMove* out, Rng&) {
  impl_->begin_turn(s);
  const int n = impl_->evaluate(type, legal, out);
  impl_->end_turn();
  return n;
}

HeuristicTerms HeuristicEvaluator::terms(const State& s, int type, const Move& m) {
  impl_->begin_turn(s);
  impl_->cell.nb.cell = -1;
  HeuristicTerms found, first;
  bool matched = false, any = false;
  impl_->placement(type, m.at, [&](const Move& option, const HeuristicTerms& t) {
    if (!any) first = t;
    any = true;
    if (option.seg == m.seg) {
      found = t;
      matched = true;
    }
  });
  if (!matched) found = first;  // the only option is then the one without a meeple
  impl_->end_turn();
  return found;
}

namespace {

class Heuristic final : public PlacementPolicy {
 public:
  explicit Heuristic(const HeuristicWeights& w) : eval_(w), moves_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const int n = eval_.evaluate(obs.state(), obs.tile(), legal, moves_.data(), rng);
    // The best value; ties (mirror-image placements, say) uniformly at random.
    int best = 0, ties = 1;
    for (int i = 1; i < n; ++i) {
      if (moves_[i].value > moves_[best].value) {
        best = i;
        ties = 1;
      } else if (moves_[i].value == moves_[best].value &&
                 uniform_below(rng, std::uint32_t(++ties)) == 0) {
        best = i;
      }
    }
    return moves_[best].move;
  }

 private:
  HeuristicEvaluator eval_;
  std::vector<ScoredMove> moves_;  // sized once
};

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_heuristic() {
  register_placement(
      {"heuristic",
       "best weighted evaluation: balanced expected scores, meeples in supply, features "
       "likely to finish given the unseen tiles",
       HeuristicWeights::params()},
      [](const Params& p) { return std::make_unique<Heuristic>(HeuristicWeights::from(p)); });
}

}  // namespace carc
