// HeuristicEvaluator, per cell and per placement: the board around a cell, the features a
// tile placed there joins, and how the colours' expectations change (heuristic_eval.hpp).
#include "policies/heuristic_eval.hpp"

namespace carc::heuristic {

// The cell's neighbourhood (what CellNeighbours::load finds, read off the turn's
// tables: the constraint code shows which edges have a tile) and what the heuristic
// asks of it.
void Evaluator::load_cell(int type, const Placement& pl) {
  CellView& v = cell;
  CellNeighbours& nb = v.nb;
  const int jx = open_of[pl.cell];
  v.code = s->open_cell(jx).code;
  nb.cell = pl.cell;
  nb.occupied = kOccupied[v.code];
  nb.empty = 4 - kBits4[nb.occupied];
  // The corners: empty or not, and for the tile's own monastery, hopeless or not.
  v.own = MonasteryCells{};
  for (int d = 4; d < 8; ++d) nb.empty += s->tile_near(step(pl.cell, d)) == kNoTile;
  if (kMonasterySeg[type] != kNoSeg) {
    for (int d = 4; d < 8; ++d) {
      const int c = step(pl.cell, d);
      if (s->tile_near(c) != kNoTile) continue;
      const int j = open_of[c];
      ++v.own.sides;
      v.own.zeros += j != kNoOpen && fit(s->open_cell(j).code) == 0;
    }
  }
  v.own.beside = std::uint8_t(~nb.occupied & 15u);  // the empty edges, which the tile constrains
  // Unfinished monasteries around, in the order of the 8 directions.
  nb.n_near = 0;
  nb.near_completes = false;
  std::array<std::uint8_t, 8> at;
  unsigned near_dirs = 0;
  for (int i = 0; i < n_monasteries; ++i) {
    const unsigned dx = unsigned(monasteries[i].x - pl.x + 1),
                   dy = unsigned(monasteries[i].y - pl.y + 1);
    if (dx <= 2 && dy <= 2) {
      const int d = kStepDir[dy][dx];
      at[d] = std::uint8_t(i);
      near_dirs |= 1u << d;
    }
  }
  if (near_dirs) {
    for (unsigned b = near_dirs; b; b &= b - 1) {
      const Unfinished& m = monasteries[at[std::size_t(std::countr_zero(b))]];
      nb.near[nb.n_near++] = NearMonastery{m.root, std::uint8_t(m.open - 1)};
      nb.near_completes |= m.open == 1;
    }
  }
  // Edges: the board feature behind each, and the open cells beside.
  v.n_sides = 0;
  v.active_edges = 0;
  std::array<std::uint8_t, 5> skip{std::uint8_t(jx), kNoOpen, kNoOpen, kNoOpen, kNoOpen};
  for (int d = 0; d < 4; ++d) {
    nb.root[d] = side_root[jx][d];
    nb.root_meeples[d] = 0;
  }
  v.open.fill(kNoOpen);
  v.code_near.fill(0);
  v.occ_near.fill(0);
  // The sides with a road or city behind them (side_root is set for exactly those).
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
                                    pack(f.meeples),
                                    is_marked[root] ? &odds[root] : &kNoOdds,
                                    open_side_factor[jx][d]};
    v.active_edges = std::uint8_t(v.active_edges | (active_of[root] != kNotActive) << d);
  }
  // The empty sides: the open cell there, if any (open_code and occ_of of kNoOpen are 0,
  // so a side without one has no feature sides to look at).
  for (unsigned b = ~nb.occupied & 15u; b; b &= b - 1) {
    const int d = std::countr_zero(b);
    const std::uint8_t j = open_of[step(pl.cell, d)];
    v.open[d] = j;
    skip[std::size_t(d + 1)] = j;
    v.code_near[d] = open_code[j];
    v.occ_near[d] = occ_of[j];
    for (unsigned b2 = kFeatureSides[v.code_near[d]]; b2; b2 &= b2 - 1) {
      const int d2 = std::countr_zero(b2);
      const int r = side_root[j][d2];
      if (active_of[r] != kNotActive)
        v.sides[v.n_sides++] = NearSide{std::uint8_t(d), std::uint8_t(d2), std::uint16_t(r)};
    }
  }
  nb.shared_root = false;
  for (int a = 1; a < 4; ++a)
    for (int b = 0; b < a; ++b) nb.shared_root |= nb.root[a] >= 0 && nb.root[a] == nb.root[b];
  // Absorbing types at every open cell but this one and those beside it: a type drops
  // out when all the open cells that absorb it are among those.
  TypeCounts here;
  for (const std::uint8_t j : skip)  // kNoOpen adds nothing
    here.add(nofree_of[j]);
  v.nofree_base = nofree_all & ~here.equal(nofree_cells);
  v.nofree_base_count = unseen.count(v.nofree_base);
  v.n_monasteries = 0;
  for (int i = 0; i < nb.n_near; ++i) {
    const NearMonastery& m = nb.near[i];
    if (active_of[m.root] != kNotActive)
      v.monasteries[v.n_monasteries++] = NearActive{
          m.root, m.open_after, monastery_cells(s->tile(m.root / kMaxSegs), pl)};
  }
}

// What analyse_placement and expect_features do, in one pass, when no board feature is
// behind two edges of the cell (then every segment is a feature of its own, and the
// features it joins are distinct): the same results in the same order.
void Evaluator::analyse_and_expect(int type, const Oriented& o) {
  const TileDef& def = kBaseTiles[type];
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
    Odds fo{};
    if (sd.kind == SegKind::monastery) {
      f.open = std::uint8_t(cell.nb.empty);
      f.tiles = 1;
      f.pennants = 0;
      f.meeple_total = 0;
      f.meeples.fill(0);
      free_mask |= f.segs;
      if (f.open == 0)
        completes = true;
      else
        fo = monastery_odds(cell.own, o);
      feat_odds[sg] = fo;
      continue;
    }
    const unsigned edges = o.seg_edges[sg], joined = edges & occupied;
    // A road or city segment touches an edge: one that joins no board feature is open.
    static_assert([] {
      for (const TileDef& t : kBaseTiles)
        for (int i = 0; i < t.nseg; ++i)
          if (t.segs[i].kind != SegKind::monastery && t.segs[i].edges == 0) return false;
      return true;
    }());
    if (joined == 0) {  // a feature of the tile alone: open on every edge, without meeples
      f.open = kBits4[edges];
      f.tiles = 1;
      f.pennants = sd.pennant;
      f.meeple_total = 0;
      f.meeples.fill(0);
      free_mask |= f.segs;
      for (unsigned b = edges; b; b &= b - 1) {
        const int d = std::countr_zero(b);
        apply(fo, opened(d, o.edge[d]), 1);
      }
      feat_odds[sg] = fo;
      continue;
    }
    int open = kBits4[edges & ~joined], tiles = 1, pennants = sd.pennant, total = 0;
    std::uint64_t meeples = 0;
    for (unsigned b = joined; b; b &= b - 1) {
      const EdgeFeature& ef = cell.edge_feature[std::size_t(std::countr_zero(b))];
      f.roots[f.n_roots++] = ef.root;
      open += ef.open - 1;
      tiles += ef.tiles;
      pennants += ef.pennants;
      total += ef.meeple_total;
      meeples += ef.meeples;
    }
    f.open = std::uint8_t(open);
    f.tiles = std::uint8_t(tiles);
    f.pennants = std::uint8_t(pennants);
    f.meeple_total = std::uint8_t(total);
    f.meeples = unpack(meeples);
    if (total == 0) free_mask |= f.segs;
    for (unsigned b = joined & cell.active_edges; b; b &= b - 1)
      retire(cell.edge_feature[std::size_t(std::countr_zero(b))].root);
    if (f.open == 0) {
      completes = true;
    } else {
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
            contrib(f.kind, fo, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
    }
    feat_odds[sg] = fo;
  }
  e.n_feats = nseg;
  e.free_mask = std::uint8_t(free_mask);
  e.completes = completes;
}

// The features the tile belongs to: the board features it joins give way to the joined
// feature, whose odds are theirs with this cell's sides taken out and the new open sides
// put in.
void Evaluator::expect_features(const Oriented& o) {
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
        const int code = cell.code_near[d] | o.edge[d] << (2 * opposite(d));
        apply(fo, side_factor(code, opposite(d)), 1);
      }
    }
    if (f.meeple_total)
      add(delta.points, delta.returns,
          contrib(f.kind, fo, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
  }
}

// Unfinished monasteries with meeples around the cell: one empty cell fewer.
void Evaluator::expect_monasteries(const Oriented& o) {
  for (int i = 0; i < cell.n_monasteries; ++i) {
    const NearActive& m = cell.monasteries[i];
    if (delta.is_gone(m.root)) continue;
    retire(m.root);
    if (m.open_after == 0) continue;
    const Feature& f = s->feature(m.root);
    add(delta.points, delta.returns,
        contrib(f.kind, monastery_odds(m.cells, o), 1, 0, f.meeples, f.meeple_total), 1);
  }
}

// Open cells beside the tile get its edges too: features on their other sides may now
// be harder (or impossible) to finish there.
void Evaluator::expect_neighbour_cells(const Oriented& o) {
  for (int i = 0; i < cell.n_sides; ++i) {
    const NearSide& ns = cell.sides[i];
    if (delta.is_gone(ns.root)) continue;
    const int code = cell.code_near[ns.d];
    const int code2 = code | o.edge[ns.d] << (2 * opposite(ns.d));
    const Factor& before = side_factor(code, ns.d2);
    const Factor& after = side_factor(code2, ns.d2);
    if (&before == &after) continue;  // as many closers as before
    Odds no = active[active_of[ns.root]].odds;
    apply(no, before, -1);
    apply(no, after, 1);
    retire(ns.root);
    const Feature& f = s->feature(ns.root);
    add(delta.points, delta.returns,
        contrib(f.kind, no, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
  }
}

}  // namespace carc::heuristic
