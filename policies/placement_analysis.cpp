#include "policies/placement_analysis.hpp"

namespace carc {

void CellNeighbours::load(const State& s, const Placement& p) {
  cell = p.cell;
  empty = 0;
  occupied = 0;
  n_near = 0;
  near_completes = false;
  auto monastery = [&](int v) {
    const int ms = kMonasterySeg[s.tile(v).type];
    if (ms < 0) return;
    const int r = s.feature_of(v, ms);
    const Feature& m = s.feature(r);
    if (m.open == 0) return;  // finished earlier
    near[n_near++] = NearMonastery{std::uint16_t(r), std::uint8_t(m.open - 1)};
    near_completes |= m.open == 1;
  };
  for (int d = 0; d < 4; ++d) {  // edges
    const int v = s.tile_near(step(p.cell, d));
    tile[d] = std::int16_t(v);
    root[d] = -1;
    root_meeples[d] = 0;
    if (v < 0) {
      ++empty;
      continue;
    }
    occupied = std::uint8_t(occupied | 1u << d);
    const PlacedTile& u = s.tile(v);
    const int us = kOriented[u.type][u.rot].seg[opposite(d)];
    if (us >= 0) {
      root[d] = std::int16_t(s.feature_of(v, us));
      root_meeples[d] = s.feature(root[d]).meeple_total;
    }
    monastery(v);
  }
  for (int d = 4; d < 8; ++d) {  // corners
    const int v = s.tile_near(step(p.cell, d));
    tile[d] = std::int16_t(v);
    if (v < 0) {
      ++empty;
      continue;
    }
    monastery(v);
  }
  shared_root = false;
  for (int a = 1; a < 4; ++a)
    for (int b = 0; b < a; ++b) shared_root |= root[a] >= 0 && root[a] == root[b];
}

bool surely_quiet(int type, int rot, const CellNeighbours& nb, std::uint8_t& free_mask) {
  if (nb.near_completes) return false;
  const Oriented& o = kOriented[type][rot];
  const TileDef& def = kTiles[type];
  free_mask = 0;
  std::uint8_t roots_seen = 0;  // directions whose root was met
  for (int sg = 0; sg < def.nseg; ++sg) {
    if (def.segs[sg].kind == SegKind::monastery) {
      if (nb.empty == 0) return false;
      free_mask = std::uint8_t(free_mask | 1u << sg);
      continue;
    }
    const std::uint8_t edges = o.seg_edges[sg];
    if ((edges & ~nb.occupied) == 0) return false;  // enclosed: may complete
    bool taken = false;
    for (int d = 0; d < 4; ++d) {
      if (!(edges >> d & 1) || nb.root[d] < 0) continue;
      for (int e = 0; e < 4; ++e)  // one board feature on two segments: merging, ask analyse
        if ((roots_seen >> e & 1) && nb.root[e] == nb.root[d] && !(edges >> e & 1)) return false;
      roots_seen = std::uint8_t(roots_seen | 1u << d);
      taken |= nb.root_meeples[d] != 0;
    }
    if (!taken) free_mask = std::uint8_t(free_mask | 1u << sg);
  }
  return true;
}

void analyse_placement(const State& s, int type, const Placement& p, const CellNeighbours& nb,
                       PlacementEffect& out) {
  const Oriented& o = kOriented[type][p.rot];
  const TileDef& def = kTiles[type];

  // The board feature behind each edge of the tile (-1: no tile there, or a field edge).
  std::array<std::int16_t, 4>& root = out.edge_root;
  for (int d = 0; d < 4; ++d) root[d] = o.seg[d] < 0 ? std::int16_t(-1) : nb.root[d];
  // Segments of the tile that touch one board feature become one feature.
  std::array<int, kMaxSegs> group{0, 1, 2, 3};
  if (nb.shared_root)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < a; ++b) {
        if (root[a] < 0 || root[a] != root[b]) continue;
        const int ga = group[o.seg[a]], gb = group[o.seg[b]];
        if (ga == gb) continue;
        for (int& g : group)
          if (g == ga) g = gb;
      }

  out.n_feats = 0;
  std::array<int, kMaxSegs> feat_of_group{-1, -1, -1, -1};
  for (int sg = 0; sg < def.nseg; ++sg) {
    int& fi = feat_of_group[group[sg]];
    if (fi < 0) {
      fi = out.n_feats++;
      JoinedFeature& f = out.feats[fi];
      f.kind = def.segs[sg].kind;
      f.segs = 0;
      f.open = f.kind == SegKind::monastery ? std::uint8_t(nb.empty) : 0;
      f.tiles = 1;
      f.pennants = 0;
      f.meeple_total = 0;
      f.meeples.fill(0);
      f.marks = 0;
      f.large = 0;
      f.n_roots = 0;
    }
    JoinedFeature& f = out.feats[fi];
    f.segs = std::uint8_t(f.segs | 1u << sg);
    f.pennants = std::uint8_t(f.pennants + def.segs[sg].pennant);
    f.marks = std::uint8_t(f.marks | def.segs[sg].marks);  // 0 on every base tile
    out.feat_of_seg[sg] = std::int8_t(fi);
  }
  // Open edges: a new edge opens where no tile is, and each joined edge closes one of the
  // board feature's. Values stay small, so int arithmetic then one narrowing.
  std::array<int, kMaxSegs> open{};
  for (int i = 0; i < out.n_feats; ++i) open[i] = out.feats[i].open;
  for (int d = 0; d < 4; ++d) {
    if (o.seg[d] < 0) continue;
    const int fi = out.feat_of_seg[o.seg[d]];
    JoinedFeature& f = out.feats[fi];
    if (root[d] < 0) {
      ++open[fi];
      continue;
    }
    --open[fi];
    bool seen = false;
    for (int r = 0; r < f.n_roots; ++r) seen |= f.roots[r] == root[d];
    if (seen) continue;
    const Feature& bf = s.feature(root[d]);
    f.roots[f.n_roots++] = std::uint16_t(root[d]);
    open[fi] += bf.open;
    f.tiles = std::uint8_t(f.tiles + bf.tiles);
    f.pennants = std::uint8_t(f.pennants + bf.pennants);
    f.meeple_total = std::uint8_t(f.meeple_total + bf.meeple_total);
    for (int c = 0; c < kMaxColors; ++c) f.meeples[c] = std::uint8_t(f.meeples[c] + bf.meeples[c]);
    if (s.beyond_base()) [[unlikely]]
      f.marks = std::uint8_t(f.marks | s.feature_marks(root[d]));
    if (s.large_meeple()) [[unlikely]]
      f.large = std::uint8_t(f.large | s.feature_large(root[d]));
  }
  out.free_mask = 0;
  out.completes = false;
  for (int i = 0; i < out.n_feats; ++i) {
    JoinedFeature& f = out.feats[i];
    f.open = std::uint8_t(open[i]);
    if (f.kind == SegKind::monastery || f.meeple_total == 0) out.free_mask |= f.segs;
    out.completes |= f.open == 0;
  }
  out.completes |= nb.near_completes;
}

int facing_features(const State& s, int type, const Placement& p, const PlacementEffect& e,
                    int seg, std::array<std::uint16_t, 12>& out) {
  const Oriented& o = kOriented[type][p.rot];
  const JoinedFeature& f = e.feats[std::size_t(e.feat_of_seg[std::size_t(seg)])];
  int n = 0;
  if (f.kind == SegKind::monastery) return 0;
  for (int d = 0; d < 4; ++d) {
    if (o.seg[d] < 0 || !(f.segs >> o.seg[d] & 1)) continue;
    const int x = step(p.cell, d);
    if (s.tile_near(x) != kNoTile) continue;  // a joined edge: not open
    for (int d2 = 0; d2 < 4; ++d2) {
      if (d2 == opposite(d)) continue;  // the placed tile
      const int v = s.tile_near(step(x, d2));
      if (v == kNoTile) continue;
      const PlacedTile& u = s.tile(v);
      const int us = kOriented[u.type][u.rot].seg[opposite(d2)];
      if (us < 0) continue;
      const int root = s.feature_of(v, us);
      const Feature& g = s.feature(root);
      if (g.kind != f.kind || g.meeple_total == 0) continue;
      bool seen = false;
      for (int i = 0; i < n; ++i) seen |= out[std::size_t(i)] == root;
      if (!seen) out[std::size_t(n++)] = std::uint16_t(root);
    }
  }
  return n;
}

}  // namespace carc
