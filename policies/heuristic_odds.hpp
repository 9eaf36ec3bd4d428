// The heuristic's chances that unfinished features finish (heuristic.hpp): which unseen
// tile types would end a feature at an open cell, or let the next colour place a tile
// without a free segment, as 24-bit masks over tile types (bit t: type t), built at
// compile time; and the chance of a feature, kept as a sum of logarithms so that one
// factor can be taken out again.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
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
  int clamped() const { return std::clamp(sides, 0, kMaxSides); }
};

// exp() with a memory of recent arguments: the same chances recur from move to move (a
// feature extended from one cell in several rotations, say). Exact: a hit returns what
// std::exp returned for the very same argument.
class ExpCache {
 public:
  ExpCache() { key_.fill(~std::uint64_t(0)); }  // the bits of a NaN: never an argument
  double operator()(double x) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
    const std::size_t h = std::size_t((bits * 0x9E3779B97F4A7C15ull) >> (64 - kBits));
    if (key_[h] != bits) {
      key_[h] = bits;
      value_[h] = std::exp(x);
    }
    return value_[h];
  }

 private:
  static constexpr int kBits = 11;
  std::array<std::uint64_t, 1 << kBits> key_;
  std::array<double, 1 << kBits> value_{};
};

// One open side's chance to be closed within the horizons, as logarithms.
struct Factor {
  double log_m = 0, log_p = 0;
  bool zero = false;   // no unseen tile closes it
  bool counts = true;  // one more open side (false: a monastery's filled cell)
  bool known = false;  // computed (in a table filled as needed)
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

// Unseen tiles of the types in a mask, by table: per group of 4 types (a nibble of the
// mask) the sum for each of its 16 subsets, so a count is 6 look-ups and 5 additions.
class UnseenCounts {
 public:
  void load(const State& s) {
    for (int n = 0; n < kNibbles; ++n) {
      table_[n][0] = 0;
      for (int m = 1; m < 16; ++m) {
        const int t = 4 * n + std::countr_zero(unsigned(m));
        table_[n][m] = std::uint8_t(table_[n][m & (m - 1)] + (t < kTileTypes ? s.unseen(t) : 0));
      }
    }
  }
  int count(TypeMask mask) const {
    static_assert(kNibbles == 6);
    if (!mask) return 0;
    return table_[0][mask & 15] + table_[1][(mask >> 4) & 15] + table_[2][(mask >> 8) & 15] +
           table_[3][(mask >> 12) & 15] + table_[4][(mask >> 16) & 15] + table_[5][(mask >> 20) & 15];
  }

 private:
  static constexpr int kNibbles = (kTileTypes + 3) / 4;
  std::array<std::array<std::uint8_t, 16>, kNibbles> table_{};
};

}  // namespace carc::heuristic
