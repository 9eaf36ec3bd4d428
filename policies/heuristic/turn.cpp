// HeuristicEvaluator, per turn: what every move of the turn shares (eval.hpp).
#include "policies/heuristic/eval.hpp"
#include "policies/heuristic/terms.hpp"

namespace carc::heuristic {

// Every tile type without a monastery has a road or city segment, so no_free of (code, 0) is
// empty: begin_turn skips the open cells with no side on an occupied feature.
static_assert([] {
  for (int t = 0; t < kFirstRiver; ++t)  // river tiles fit no code (kFits)
    if (kMonasterySeg[t] < 0 && kTiles[t].nseg == 0) return false;
  return true;
}());

// The colours: who moves, what each holds, the weights that depend on the tiles left, and
// the award weight of each colour's score gap to the lowest.
template <MaskWidth M>
void Evaluator<M>::load_colours(const State& st) {
  k = st.colors();
  mover = st.to_move();
  next = mover + 1 == k ? 0 : mover + 1;
  has_meeple = st.figures(mover) > 0;
  assert(st.beyond_base() == (std::same_as<M, TypeMask>));  // HeuristicEvaluator::Impl::with
  ext = st.beyond_base();
  large_game = st.large_meeple();
  two_figures = st.supply(mover) > 0 && st.large_supply(mover) > 0;
  large_only = st.supply(mover) == 0 && st.large_supply(mover) > 0;
  unseen.load(st);
  tiles_left = unseen.count(~M(0));  // st.unseen_total(), off the tables just loaded
  meeple_w = tiles_left > 0 ? w.meeple : 0;
  empty_w = tiles_left > 0 ? w.empty : 0;
  one_w = tiles_left > 0 ? w.one : 0;
  urgent_w = tiles_left > 0 ? w.urgent : 0;
  absorb_w = absorb_weight(w, st.figures(next) == 0);
  factor_row = &factors[std::size_t(tiles_left * (kMaxTiles + 1))];
  const int low = st.lowest_score();
  for (int c = 0; c < k; ++c) {
    double& a = awards[std::size_t(st.score(c) - low)];
    if (a < 0) a = std::exp(-(st.score(c) - low) / w.balance);
    award[c] = a;
  }
  for (int c = 0; c < k; ++c) scores_now[c] = st.score(c);
  for (int used = 0; used < 2; ++used) {
    Supplies& q = quiet[used];
    q.total = q.empties = q.ones = 0;
    for (int c = 0; c < k; ++c) {
      const int n = st.figures(c) - (c == mover ? used : 0);
      q.supply[c] = n;
      q.total += n;
      q.empties += n == 0;
      q.ones += n == 1;
    }
  }
}

// One pass per open cell: its tables, the odds of the features on its sides and the tile
// types it absorbs (none without a side on an occupied feature: see above).
template <MaskWidth M>
void Evaluator<M>::load_open_cells(const State& st) {
  const int n_open = st.open_count();
  nofree_all = 0;
  nofree_cells = TypeCounts<M>{};
  for (int j = 0; j < n_open; ++j) {
    const OpenCell& oc = st.open_cell(j);
    const int code = oc.code;
    open_of[oc.cell] = std::uint8_t(j);
    open_code[j] = std::uint8_t(code);
    side_root[j].fill(kNoRoot);
    unsigned occ = 0;
    for (unsigned b = kFeatureSides[code]; b; b &= b - 1) {
      const int d = std::countr_zero(b);
      const int v = st.tile_near(step(oc.cell, d));
      const PlacedTile& u = st.tile(v);
      const int r = st.feature_of(v, kOriented[u.type][u.rot].seg[opposite(d)]);
      side_root[j][d] = std::int16_t(r);
      if (st.feature(r).meeple_total) occ |= 1u << d;
      const Factor& f = side_factor(code, d);
      open_side_factor[j][d] = &f;
      apply(odds_of(r), f, 1);
    }
    occ_of[j] = std::uint8_t(occ);
    M m = 0;
    if (occ) {
      m = no_free[std::size_t(code * 16 + occ)];
      nofree_all |= m;
      nofree_cells.add(m);
    }
    nofree_of[j] = m;
  }
}

// The features with meeples (active), each with its odds and what it is expected to bring
// now; their sum is pend and ret. The unfinished monasteries are listed first.
template <MaskWidth M>
void Evaluator<M>::load_active_features(const State& st) {
  n_active = 0;
  n_monasteries = 0;
  pend.fill(0);
  ret = 0;
  for (const int slot : st.unfinished_monasteries()) {
    const int i = slot / kMaxSegs;
    const PlacedTile& t = st.tile(i);
    const int r = st.feature_of(i, slot % kMaxSegs);
    monasteries[n_monasteries++] = Unfinished{std::uint16_t(r), t.x, t.y, st.feature(r).open};
  }
  for (int i = 0; i < st.tiles_on_board(); ++i) {
    const PlacedTile& t = st.tile(i);
    if (t.meeple_seg == kNoSegment) continue;
    const int r = st.feature_of(i, t.meeple_seg);
    const Feature& f = st.feature(r);
    if (f.meeple_total == 0 || active_of[r] != kNotActive) continue;
    Active& a = active[n_active];
    active_of[r] = std::uint8_t(n_active++);
    a.root = std::uint16_t(r);
    if (f.kind == SegKind::monastery) {
      // One open side per empty cell around it (its open count), hopeless when one of them
      // is an open cell that no unseen tile fits.
      a.odds = Odds{};
      a.odds.sides = f.open;
      for (int d = 0; d < 8; ++d) {
        const int j = open_of[step(t.cell, d)];
        a.odds.zeros += j != kNoOpen && fit(open_code[j]) == 0;
      }
    } else {
      a.odds = odds_of(r);
    }
    const std::uint8_t marks = ext ? st.feature_marks(r) : 0, large = large_game ? st.feature_large(r) : 0;
    a.now = contrib(f.kind, a.odds, f.tiles, f.pennants, marks, large, f.meeples, f.meeple_total);
    add(pend, ret, a.now, 1);
  }
}

static_assert([] {
  for (int d = 0; d < 8; ++d)
    if (kDx[std::size_t(d ^ 2)] != -kDx[std::size_t(d)] || kDy[std::size_t(d ^ 2)] != -kDy[std::size_t(d)])
      return false;
  return true;
}(), "d ^ 2 is the opposite direction of d");

// The unfinished monasteries around each open cell, for load_cell.
template <MaskWidth M>
void Evaluator<M>::load_monasteries_near(const State& st) {
  monastery_dirs.fill(0);
  around_known = 0;
  for (int i = 0; i < n_monasteries; ++i) {
    const int at = st.tile(monasteries[std::size_t(i)].root / kMaxSegs).cell;
    for (int d = 0; d < 8; ++d) {
      const std::uint8_t j = open_of[step(at, d)];
      if (j == kNoOpen) continue;
      const int from = d ^ 2;  // the monastery's direction from the cell: the opposite of d
      monastery_dirs[j] = std::uint8_t(monastery_dirs[j] | 1u << from);
      monastery_at[j][std::size_t(from)] = std::uint8_t(i);
    }
  }
}

template <MaskWidth M>
void Evaluator<M>::begin_turn(const State& st) {
  s = &st;
  load_colours(st);
  // The caches of the last turn: fit(), side_factor(), odds_of().
  std::memset(fit_cache.data(), 0xFF, sizeof fit_cache);  // all -1
  for (int i = 0; i < n_side_set; ++i) side_cache[side_set[std::size_t(i)]] = nullptr;
  n_side_set = 0;
  n_marked = 0;
  load_open_cells(st);
  load_active_features(st);
  // What load_cell's cells keep when no cell around them absorbs a type.
  nofree_all_count = unseen.count(nofree_all);
  load_monasteries_near(st);
}

template <MaskWidth M>
void Evaluator<M>::end_turn() {
  for (int j = 0; j < s->open_count(); ++j) open_of[s->open_cell(j).cell] = kNoOpen;
  for (int i = 0; i < n_marked; ++i) is_marked[marked[i]] = false;
  for (int i = 0; i < n_active; ++i) active_of[active[i].root] = kNotActive;
}

template void Evaluator<BaseMask>::begin_turn(const State&);
template void Evaluator<TypeMask>::begin_turn(const State&);
template void Evaluator<BaseMask>::end_turn();
template void Evaluator<TypeMask>::end_turn();

}  // namespace carc::heuristic
