// The moves a look-ahead policy considers: every option of the tile in hand valued by the
// heuristic, best first, with duplicates removed. Two moves are duplicates when they leave
// the same position: the same cell, rotations that show the same edges with the same
// segments (a symmetric tile turned a half or a quarter turn), and the meeple on the
// segment touching the same board edges (or on the monastery, or none), the same figure.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "policies/aim.hpp"
#include "policies/heuristic/heuristic.hpp"

namespace carc {

// kCanonicalRot[type][rot]: the smallest rotation that gives the same oriented tile.
inline constexpr auto kCanonicalRot = [] {
  std::array<std::array<std::uint8_t, 4>, kTileTypes> c{};
  for (int t = 0; t < kTileTypes; ++t)
    for (int r = 0; r < 4; ++r) {
      c[t][r] = std::uint8_t(r);
      for (int q = 0; q < r; ++q) {
        bool same = kOriented[t][q].edge == kOriented[t][r].edge;
        for (int d = 0; d < 4 && same; ++d) {  // the segment at each edge spans the same edges
          const int a = kOriented[t][q].seg[d], b = kOriented[t][r].seg[d];
          same = (a < 0) == (b < 0) &&
                 (a < 0 || kOriented[t][q].seg_edges[a] == kOriented[t][r].seg_edges[b]);
        }
        if (same) {
          c[t][r] = c[t][q];
          break;
        }
      }
    }
  return c;
}();
static_assert(kCanonicalRot[tile_type('B')][3] == 0, "a monastery looks the same every way");
static_assert(kCanonicalRot[tile_type('U')][2] == 0 && kCanonicalRot[tile_type('U')][1] == 1);
static_assert(kCanonicalRot[tile_type('H')][2] == 0, "H turned a half turn is H");
static_assert(kCanonicalRot[tile_type('V')][2] == 2, "a curve has no symmetry");

// A key equal for two moves of `type` exactly when they are duplicates.
constexpr std::uint32_t move_key(int type, const Move& m) {
  const Oriented& o = kOriented[type][m.at.rot];
  std::uint32_t meeple = 0xFF;
  if (m.seg != Move::kNoMeeple)
    meeple = (m.seg == kMonasterySeg[type] ? 0x10u : o.seg_edges[m.seg]) | (m.large ? 0x20u : 0u);
  return std::uint32_t(m.at.cell) << 16 | std::uint32_t(kCanonicalRot[type][m.at.rot]) << 8 | meeple;
}

// Values every option with `eval`, puts them best first (equal values in a random order)
// and drops duplicates. Writes at most kMaxMoves entries to `out`; returns the count.
int ranked_candidates(HeuristicEvaluator& eval, const State& s, int type,
                      std::span<const Placement> legal, ScoredMove* out, Rng& rng);
// The same by the aimed evaluation (policies/aim.hpp).
int ranked_candidates(AimedEvaluator& eval, const State& s, int type,
                      std::span<const Placement> legal, ScoredMove* out, Rng& rng);
// The moves out[0, n) of `type` put best first and their duplicates dropped, as above.
int rank_moves(int type, ScoredMove* out, int n, Rng& rng);

}  // namespace carc
