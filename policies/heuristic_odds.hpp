// The heuristic's chances that unfinished features finish (heuristic.hpp): which unseen
// tile types would end a feature at an open cell, or let the next colour place a tile
// without a free segment, as 24-bit masks over tile types (bit t: type t), built at
// compile time; and the chance of a feature, kept as a sum of logarithms so that one
// factor can be taken out again.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "core/state.hpp"

namespace carc::heuristic {

using TypeMask = std::uint32_t;  // bit t: tile type t

// kCloses[code][d]: tile types that, in some rotation fitting an open cell of this code,
// end the feature on side d there: the tile's segment facing d has no edge toward a side
// without a neighbour, so it opens nothing new.
inline constexpr auto kCloses = [] {
  std::array<std::array<TypeMask, 4>, kCodes> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d)
      for (int t = 0; t < kTileTypes; ++t)
        for (int r = 0; r < 4; ++r) {
          if (!(kFits[code][t] >> r & 1)) continue;
          const int s = kOriented[t][r].seg[d];
          if (s < 0) continue;
          bool closes = true;
          for (int e = 0; e < 4; ++e)
            if ((kOriented[t][r].seg_edges[s] >> e & 1) && e != d &&
                code_edge(std::uint8_t(code), e) == kNone)
              closes = false;
          if (closes) m[code][d] |= 1u << t;
        }
  return m;
}();
// A lone city edge to the north is ended by E (a city cap); a lone road end by A (a
// monastery's road end), never by U (a straight road, which leaves the far end open).
static_assert(kCloses[kCity][0] >> tile_type('E') & 1);
static_assert(kCloses[kRoad][0] >> tile_type('A') & 1);
static_assert(!(kCloses[kRoad][0] >> tile_type('U') & 1));

// kFitMask[code]: tile types that fit an open cell of this code in some rotation.
inline constexpr auto kFitMask = [] {
  std::array<TypeMask, kCodes> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int t = 0; t < kTileTypes; ++t)
      if (kFits[code][t]) m[code] |= 1u << t;
  return m;
}();

// no_free_table()[code][occ]: tile types that fit an open cell of this code in some
// rotation where every road/city segment touches a side whose neighbour's feature holds a
// meeple (bit d of occ), and that have no monastery: placed there, they need no meeple.
// (Two segments on one unoccupied feature, or a meeple that reaches the cell's features by
// a merge, are not seen: an estimate.)
using NoFreeTable = std::array<std::array<TypeMask, 16>, kCodes>;
const NoFreeTable& no_free_table();

inline constexpr int kMaxSides = 63;  // beyond, q^sides is as good as 0

// Chance that a feature finishes, kept as log-product plus count of zero factors so a
// factor can be taken out again; `sides` counts the open sides (a monastery: empty cells)
// for the q^sides discount.
struct Odds {
  double log_m = 0, log_p = 0;  // meeple horizon, points horizon
  int zeros = 0;
  int sides = 0;
  // Times q^sides, given as a table of powers. exp(0) is 1 exactly, so it is skipped.
  double meeple(const double* qpow) const { return zeros ? 0 : scaled(qpow, log_m); }
  double points(const double* qpow) const { return zeros ? 0 : scaled(qpow, log_p); }
  int clamped() const { return std::clamp(sides, 0, kMaxSides); }
  double scaled(const double* qpow, double log) const {
    return log == 0 ? qpow[clamped()] : qpow[clamped()] * std::exp(log);
  }
};

// One open side's chance to be closed within the horizons, as logarithms.
struct Factor {
  double log_m = 0, log_p = 0;
  bool zero = false;   // no unseen tile closes it
  bool counts = true;  // one more open side (false: a monastery's filled cell)
};

inline void apply(Odds& o, const Factor& f, int sign) {
  if (f.counts) o.sides += sign;
  if (f.zero) {
    o.zeros += sign;
  } else {
    o.log_m += sign * f.log_m;
    o.log_p += sign * f.log_p;
  }
}

// The unseen tiles as bit planes: unseen(t) = sum over b of bit t of plane[b], times 2^b.
// count(mask) is the number of unseen tiles of the types in mask.
struct UnseenPlanes {
  std::array<TypeMask, 4> plane{};  // counts up to 15 per type (the base game: 9)
  void load(const State& s) {
    plane.fill(0);
    for (int t = 0; t < kTileTypes; ++t)
      for (int b = 0; b < 4; ++b) plane[b] |= TypeMask((s.unseen(t) >> b) & 1) << t;
  }
  int count(TypeMask mask) const {
    return popcount(mask & plane[0]) + 2 * popcount(mask & plane[1]) +
           4 * popcount(mask & plane[2]) + 8 * popcount(mask & plane[3]);
  }
  // Bit counting without a library call (no popcnt instruction is assumed).
  static int popcount(TypeMask x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return int((x * 0x01010101u) >> 24);
  }
};

}  // namespace carc::heuristic
