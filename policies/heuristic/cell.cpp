// HeuristicEvaluator, per cell and per placement: the board around a cell, the features a
// tile placed there joins, and how the colours' expectations change (eval.hpp).
#include "policies/heuristic/eval.hpp"

namespace carc::heuristic {

namespace {
// For the cell in direction k of a monastery: the cells around the monastery beside it
// (bit d: the one in direction d of the monastery), and the direction of each from it.
struct BesideOf {
  std::uint8_t mask = 0;
  std::array<std::uint8_t, 8> dir{};
};
constexpr auto kBesideOf = [] {
  std::array<BesideOf, 8> t{};
  for (int k = 0; k < 8; ++k)
    for (int d = 0; d < 8; ++d) {
      const int dx = kDx[std::size_t(d)] - kDx[std::size_t(k)],
                dy = kDy[std::size_t(d)] - kDy[std::size_t(k)];
      if ((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) != 1) continue;
      t[std::size_t(k)].mask = std::uint8_t(t[std::size_t(k)].mask | 1u << d);
      t[std::size_t(k)].dir[std::size_t(d)] = kStepDir[std::size_t(dy + 1)][std::size_t(dx + 1)];
    }
  return t;
}();
static_assert(kBesideOf[0].mask == (1u << 4 | 1u << 7), "north: beside NE and NW");
static_assert(kBesideOf[4].mask == (1u << 0 | 1u << 1), "north-east: beside N and E");

int bits8(unsigned m) { return kBits4[m & 15u] + kBits4[m >> 4 & 15u]; }
}  // namespace

// The corners: empty or not, and for the tile's own monastery, hopeless or not.
template <MaskWidth M>
void Evaluator<M>::load_corners(int type, int at) {
  CellNeighbours& nb = cell.nb;
  int empty = 4 - kBits4[nb.occupied];
  for (int d = 4; d < 8; ++d) empty += s->tile_near(step(at, d)) == kNoTile;
  nb.empty = empty;
  cell.own = MonasteryCells{};
  if (kMonasterySeg[type] != kNoSeg) {
    for (int d = 4; d < 8; ++d) {
      const int c = step(at, d);
      if (s->tile_near(c) != kNoTile) continue;
      const int j = open_of[c];
      ++cell.own.sides;
      cell.own.zeros += j != kNoOpen && fit(s->open_cell(j).code) == 0;
    }
  }
  cell.own.beside = std::uint8_t(~nb.occupied & 15u);  // the empty edges, which the tile constrains
}

// The cells around unfinished monastery i: which are empty, and which of those are open
// cells no unseen tile fits; found once a turn, when a cell near it first asks.
template <MaskWidth M>
auto Evaluator<M>::around_monastery(int i, int root) -> const Around& {
  Around& a = around[std::size_t(i)];
  if (!(around_known >> i & 1)) {
    around_known |= 1u << i;
    a = Around{0, 0};
    const int mc = s->tile(root / kMaxSegs).cell;
    for (int d = 0; d < 8; ++d) {
      const int c = step(mc, d);
      if (s->tile_near(c) != kNoTile) continue;
      a.empty = std::uint8_t(a.empty | 1u << d);
      const std::uint8_t j = open_of[std::size_t(c)];
      if (j != kNoOpen && fit(open_code[j]) == 0) a.zero = std::uint8_t(a.zero | 1u << d);
    }
  }
  return a;
}

// Unfinished monasteries around open cell jx, in the order of the 8 directions; those with
// meeples also with their cells as the tile leaves them (MonasteryCells).
template <MaskWidth M>
void Evaluator<M>::load_near_monasteries(int jx) {
  CellNeighbours& nb = cell.nb;
  nb.n_near = 0;
  nb.near_completes = false;
  cell.n_monasteries = 0;
  for (unsigned b = monastery_dirs[std::size_t(jx)]; b; b &= b - 1) {
    const int from = std::countr_zero(b);
    const int i = monastery_at[std::size_t(jx)][std::size_t(from)];
    const Unfinished& m = monasteries[std::size_t(i)];
    nb.near[nb.n_near++] = NearMonastery{m.root, std::uint8_t(m.open - 1)};
    nb.near_completes |= m.open == 1;
    if (active_of[m.root] == kNotActive) continue;
    const Around& a = around_monastery(i, m.root);
    const int k = from ^ 2;  // this cell's direction from the monastery
    const BesideOf& bo = kBesideOf[std::size_t(k)];
    const unsigned rest = a.empty & ~(1u << k) & ~unsigned(bo.mask);
    MonasteryCells cells;
    cells.sides = bits8(rest);
    cells.zeros = bits8(a.zero & rest);
    for (unsigned e = a.empty & bo.mask; e; e &= e - 1)
      cells.beside = std::uint8_t(cells.beside | 1u << bo.dir[std::size_t(std::countr_zero(e))]);
    cell.monasteries[cell.n_monasteries++] = NearActive{m.root, std::uint8_t(m.open - 1), cells};
  }
}

// Edges of open cell jx: the board feature behind each side with a road or city behind it
// (side_root is set for exactly those), and whether two sides are on the same feature.
template <MaskWidth M>
void Evaluator<M>::load_edge_features(int jx) {
  CellView<M>& v = cell;
  CellNeighbours& nb = v.nb;
  v.active_edges = 0;
  for (int d = 0; d < 4; ++d) {
    nb.root[d] = side_root[jx][d];
    nb.root_meeples[d] = 0;
  }
  for (unsigned b = kFeatureSides[v.code]; b; b &= b - 1) {
    const int d = std::countr_zero(b);
    const int root = side_root[jx][d];
    const Feature& f = s->feature(root);
    nb.root_meeples[d] = f.meeple_total;
    v.edge_feature[d] = EdgeFeature{std::uint16_t(root),
                                    f.open,
                                    f.tiles,
                                    f.pennants,
                                    f.meeple_total,
                                    std::uint8_t(ext ? s->feature_marks(root) : 0),
                                    std::uint8_t(large_game ? s->feature_large(root) : 0),
                                    pack(f.meeples),
                                    is_marked[root] ? &odds[root] : &kNoOdds,
                                    open_side_factor[jx][d]};
    v.active_edges = std::uint8_t(v.active_edges | (active_of[root] != kNotActive) << d);
  }
  nb.shared_root = false;
  if (const unsigned fs = kFeatureSides[v.code]; fs & (fs - 1))  // two roots or more
    for (int a = 1; a < 4; ++a)
      for (int b = 0; b < a; ++b) nb.shared_root |= nb.root[a] >= 0 && nb.root[a] == nb.root[b];
}

// The empty sides of the cell at `at`: the open cell there, if any (open_code and occ_of of
// kNoOpen are 0, so a side without one has no feature sides to look at), its sides on
// active features, and the types it absorbs (added to `here` and `in`, as absorbs()).
template <MaskWidth M>
void Evaluator<M>::load_empty_sides(int at, TypeCounts<M>& here, M& in) {
  CellView<M>& v = cell;
  v.n_sides = 0;
  v.open.fill(kNoOpen);
  v.code_near.fill(0);
  v.occ_near.fill(0);
  for (unsigned b = ~v.nb.occupied & 15u; b; b &= b - 1) {
    const int d = std::countr_zero(b);
    const std::uint8_t j = open_of[step(at, d)];
    v.open[d] = j;
    absorbs(j, here, in);
    v.code_near[d] = open_code[j];
    v.occ_near[d] = occ_of[j];
    for (unsigned b2 = kFeatureSides[v.code_near[d]]; b2; b2 &= b2 - 1) {
      const int d2 = std::countr_zero(b2);
      const int r = side_root[j][d2];
      if (active_of[r] != kNotActive)
        v.sides[v.n_sides++] = NearSide{std::uint8_t(d), std::uint8_t(d2), std::uint16_t(r)};
    }
  }
}

// The cell's neighbourhood (what CellNeighbours::load finds, read off the turn's
// tables: the constraint code shows which edges have a tile) and what the heuristic
// asks of it.
template <MaskWidth M>
void Evaluator<M>::load_cell(int type, const Placement& pl) {
  const int jx = open_of[pl.cell];
  cell.code = s->open_cell(jx).code;
  cell.nb.cell = pl.cell;
  cell.nb.occupied = kOccupied[cell.code];
  load_corners(type, pl.cell);
  load_near_monasteries(jx);
  // Absorbing types at every open cell but this one and those beside it: a type drops
  // out when all the open cells that absorb it are among those. Most of them absorb
  // nothing: only the types they absorb (`in`) can drop out.
  TypeCounts<M> here;
  M in = 0;
  absorbs(jx, here, in);
  load_edge_features(jx);
  load_empty_sides(pl.cell, here, in);
  // Those that drop out are usually none: their count is taken off nofree_all's.
  const M drop = in ? nofree_all & here.equal(nofree_cells) : 0;
  cell.nofree_base = nofree_all & ~drop;
  cell.nofree_base_count = nofree_all_count - unseen.count(drop);
}

// A road or city segment touches an edge: one that joins no board feature is open.
static_assert([] {
  for (const TileDef& t : kTiles)
    for (int i = 0; i < t.nseg; ++i)
      if (t.segs[i].kind != SegKind::monastery && t.segs[i].edges == 0) return false;
  return true;
}());

// analyse_and_expect's features, one per segment: the tile's own monastery, a road or city
// of the tile alone, and one that joins the board features on its edges `joined`. Each
// fills `f` and returns its odds (none when it completes).
template <MaskWidth M>
Odds Evaluator<M>::own_monastery(JoinedFeature& f, const Oriented& o) {
  f.open = std::uint8_t(cell.nb.empty);
  f.tiles = 1;
  f.pennants = 0;
  f.meeple_total = 0;
  f.meeples.fill(0);
  f.marks = 0;
  f.large = 0;
  return f.open == 0 ? Odds{} : monastery_odds(cell.own, o);
}

// Open on every edge, without meeples.
template <MaskWidth M>
Odds Evaluator<M>::lone_segment(const SegDef& sd, unsigned edges, JoinedFeature& f, const Oriented& o) {
  f.open = kBits4[edges];
  f.tiles = 1;
  f.pennants = sd.pennant;
  f.meeple_total = 0;
  f.meeples.fill(0);
  f.marks = sd.marks;
  f.large = 0;
  Odds fo{};
  for (unsigned b = edges; b; b &= b - 1) {
    const int d = std::countr_zero(b);
    apply(fo, opened(d, o.edge[d]), 1);
  }
  return fo;
}

// The board features joined retire; an unfinished feature with meeples brings its new
// contribution.
template <MaskWidth M>
Odds Evaluator<M>::joined_segment(const SegDef& sd, unsigned edges, unsigned joined, JoinedFeature& f,
                                  const Oriented& o) {
  int open = kBits4[edges & ~joined], tiles = 1, pennants = sd.pennant, total = 0;
  unsigned marks = sd.marks, large = 0;
  std::uint64_t meeples = 0;
  for (unsigned b = joined; b; b &= b - 1) {
    const EdgeFeature& ef = cell.edge_feature[std::size_t(std::countr_zero(b))];
    f.roots[f.n_roots++] = ef.root;
    open += ef.open - 1;
    tiles += ef.tiles;
    pennants += ef.pennants;
    total += ef.meeple_total;
    meeples += ef.meeples;
    marks |= ef.marks;
    large |= ef.large;
  }
  f.open = std::uint8_t(open);
  f.tiles = std::uint8_t(tiles);
  f.pennants = std::uint8_t(pennants);
  f.meeple_total = std::uint8_t(total);
  f.meeples = unpack(meeples);
  f.marks = std::uint8_t(marks);
  f.large = std::uint8_t(large);
  for (unsigned b = joined & cell.active_edges; b; b &= b - 1)
    retire(cell.edge_feature[std::size_t(std::countr_zero(b))].root);
  Odds fo{};
  if (f.open == 0) return fo;
  for (unsigned b = joined; b; b &= b - 1) {
    const Odds& ro = *cell.edge_feature[std::size_t(std::countr_zero(b))].odds;
    fo.log_m += ro.log_m;
    fo.log_p += ro.log_p;
    fo.zeros += ro.zeros;
  }
  for (unsigned b = edges; b; b &= b - 1) {
    const int d = std::countr_zero(b);
    if (joined >> d & 1)
      apply(fo, *cell.edge_feature[d].closed, -1);
    else
      apply(fo, opened(d, o.edge[d]), 1);
  }
  if (total)
    add(delta.points, delta.returns,
        contrib(f.kind, fo, f.tiles, f.pennants, f.marks, f.large, f.meeples, f.meeple_total), 1);
  return fo;
}

// What analyse_placement and expect_features do, in one pass, when no board feature is
// behind two edges of the cell (then every segment is a feature of its own, and the
// features it joins are distinct): the same results in the same order.
template <MaskWidth M>
void Evaluator<M>::analyse_and_expect(int type, const Oriented& o) {
  const TileDef& def = kTiles[type];
  const unsigned occupied = cell.nb.occupied;
  const int nseg = def.nseg;
  unsigned free_mask = 0;
  bool completes = cell.nb.near_completes;
  for (int sg = 0; sg < nseg; ++sg) {
    const SegDef& sd = def.segs[sg];
    JoinedFeature& f = e.feats[sg];  // built in place: no copy
    f.kind = sd.kind;
    f.segs = std::uint8_t(1u << sg);
    f.n_roots = 0;
    e.feat_of_seg[sg] = std::int8_t(sg);
    const unsigned edges = o.seg_edges[sg], joined = edges & occupied;
    if (sd.kind == SegKind::monastery)
      feat_odds[sg] = own_monastery(f, o);
    else if (joined == 0)
      feat_odds[sg] = lone_segment(sd, edges, f, o);
    else
      feat_odds[sg] = joined_segment(sd, edges, joined, f, o);
    if (f.meeple_total == 0) free_mask |= f.segs;
    completes |= f.open == 0;
  }
  e.n_feats = nseg;
  e.free_mask = std::uint8_t(free_mask);
  e.completes = completes;
}

// The features the tile belongs to: the board features it joins give way to the joined
// feature, whose odds are theirs with this cell's sides taken out and the new open sides
// put in.
template <MaskWidth M>
void Evaluator<M>::expect_features(const Oriented& o) {
  for (int i = 0; i < e.n_feats; ++i) {
    const JoinedFeature& f = e.feats[i];
    for (int r = 0; r < f.n_roots; ++r) retire(f.roots[r]);
    Odds& fo = feat_odds[i];
    fo = Odds{};
    if (f.complete()) continue;
    if (f.kind == SegKind::monastery) {
      fo = monastery_odds(cell.own, o);
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
          apply(fo, side_factor(cell.code, d), -1);
          continue;
        }
        const int code = cell.code_near[d] | (o.edge[d] & 3) << (2 * opposite(d));  // water leaves no code
        apply(fo, side_factor(code, opposite(d)), 1);
      }
    }
    if (f.meeple_total)
      add(delta.points, delta.returns,
          contrib(f.kind, fo, f.tiles, f.pennants, f.marks, f.large, f.meeples, f.meeple_total), 1);
  }
}

// Unfinished monasteries with meeples around the cell: one empty cell fewer.
template <MaskWidth M>
void Evaluator<M>::expect_monasteries(const Oriented& o) {
  for (int i = 0; i < cell.n_monasteries; ++i) {
    const NearActive& m = cell.monasteries[i];
    if (delta.is_gone(m.root)) continue;
    retire(m.root);
    if (m.open_after == 0) continue;
    const Feature& f = s->feature(m.root);
    add(delta.points, delta.returns,
        contrib(f.kind, monastery_odds(m.cells, o), 1, 0, 0,
                large_game ? s->feature_large(m.root) : std::uint8_t(0), f.meeples, f.meeple_total),
        1);
  }
}

// Open cells beside the tile get its edges too: features on their other sides may now
// be harder (or impossible) to finish there.
template <MaskWidth M>
void Evaluator<M>::expect_neighbour_cells(const Oriented& o) {
  for (int i = 0; i < cell.n_sides; ++i) {
    const NearSide& ns = cell.sides[i];
    if (delta.is_gone(ns.root)) continue;
    const int code = cell.code_near[ns.d];
    const int code2 = code | (o.edge[ns.d] & 3) << (2 * opposite(ns.d));  // water leaves no code
    const Factor& before = side_factor(code, ns.d2);
    const Factor& after = side_factor(code2, ns.d2);
    if (&before == &after) continue;  // as many closers as before
    Odds no = active[active_of[ns.root]].odds;
    apply(no, before, -1);
    apply(no, after, 1);
    retire(ns.root);
    const Feature& f = s->feature(ns.root);
    add(delta.points, delta.returns,
        contrib(f.kind, no, f.tiles, f.pennants, ext ? s->feature_marks(ns.root) : std::uint8_t(0),
                large_game ? s->feature_large(ns.root) : std::uint8_t(0), f.meeples, f.meeple_total),
        1);
  }
}

template void Evaluator<BaseMask>::load_cell(int, const Placement&);
template void Evaluator<BaseMask>::analyse_and_expect(int, const Oriented&);
template void Evaluator<BaseMask>::expect_features(const Oriented&);
template void Evaluator<BaseMask>::expect_monasteries(const Oriented&);
template void Evaluator<BaseMask>::expect_neighbour_cells(const Oriented&);
template void Evaluator<TypeMask>::load_cell(int, const Placement&);
template void Evaluator<TypeMask>::analyse_and_expect(int, const Oriented&);
template void Evaluator<TypeMask>::expect_features(const Oriented&);
template void Evaluator<TypeMask>::expect_monasteries(const Oriented&);
template void Evaluator<TypeMask>::expect_neighbour_cells(const Oriented&);

}  // namespace carc::heuristic
