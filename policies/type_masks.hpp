// Tile types as bit masks (bit t: type t), and the questions policies ask of the board as
// ands and table look-ups instead of loops over open cells and types. Per open cell, the
// engine's kFits (core/tiles.hpp) already holds the (type, rotation) pairs that fit its
// constraint code, a nibble per type; here the same per type, and the derived tables:
// which types would end a feature on a side of a cell, or could be placed there without a
// free segment. All built at compile time (no_free_table() once, at first use).
#pragma once
#include <array>
#include <bit>
#include <cstdint>

#include "core/state.hpp"

namespace carc {

using TypeMask = std::uint64_t;  // bit t: tile type t
static_assert(kTileTypes <= 64);

// A table of type masks stored as two parts, the base types' 32 bits and the bits above
// (the expansions' types, 32..47): a base game reads only the first, and keeps the tables
// as small in the cache as before the expansions. at(i, ext): the mask, the high part read
// when `ext` (the game deals types beyond the base set's).
template <std::size_t N>
struct SplitMasks {
  std::array<std::uint32_t, N> lo{};
  std::array<std::uint16_t, N> hi{};
  constexpr void set(std::size_t i, TypeMask m) {
    lo[i] = std::uint32_t(m);
    hi[i] = std::uint16_t(m >> 32);
  }
  constexpr TypeMask at(std::size_t i, bool ext) const {
    return ext ? TypeMask(lo[i]) | TypeMask(hi[i]) << 32 : TypeMask(lo[i]);
  }
};
static_assert(kFirstRiver <= 48, "SplitMasks holds types 0..47 (river types fit no code)");

// kCloses: tile types that, in some rotation fitting an open cell of this code, end the
// feature on side d there (index code * 4 + d): the tile's segment facing d has no edge
// toward a side without a neighbour, so it opens nothing new.
inline constexpr auto kCloses = [] {
  SplitMasks<kCodes * 4> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d) {
      TypeMask mask = 0;
      for (int t = 0; t < kTileTypes; ++t)
        for (int r = 0; r < 4; ++r) {
          if (!(kFits[code][t] >> r & 1)) continue;
          const int s = kOriented[t][r].seg[d];
          if (s == kNoSeg) continue;
          bool closes = true;
          for (int e = 0; e < 4; ++e)
            if ((kOriented[t][r].seg_edges[s] >> e & 1) && e != d &&
                code_edge(std::uint8_t(code), e) == kNone)
              closes = false;
          if (closes) mask |= TypeMask(1) << t;
        }
      m.set(std::size_t(code * 4 + d), mask);
    }
  return m;
}();
constexpr TypeMask closes(int code, int d, bool ext) { return kCloses.at(std::size_t(code * 4 + d), ext); }
// A lone city edge to the north is ended by E (a city cap); a lone road end by A (a
// monastery's road end), never by U (a straight road, which leaves the far end open).
static_assert(closes(kCity, 0, false) >> tile_type('E') & 1);
static_assert(closes(kRoad, 0, false) >> tile_type('A') & 1);
static_assert(!(closes(kRoad, 0, false) >> tile_type('U') & 1));
static_assert(closes(kCity, 0, true) >> tile_type("I10") & 1);

// kFitMask[code]: tile types that fit an open cell of this code in some rotation.
inline constexpr auto kFitMask = [] {
  std::array<TypeMask, kCodes> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int t = 0; t < kTileTypes; ++t)
      if (kFits[code][t]) m[code] |= TypeMask(1) << t;
  return m;
}();

// no_free_table()[code][occ]: tile types that fit an open cell of this code in some
// rotation where every road/city segment touches a side whose neighbour's feature holds a
// meeple (bit d of occ), and that have no monastery: placed there, they need no meeple.
// (Two segments on one unoccupied feature, or a meeple that reaches the cell's features by
// a merge, are not seen: an estimate.)
// Index code * 16 + occ.
using NoFreeTable = SplitMasks<kCodes * 16>;
const NoFreeTable& no_free_table();

// A count per tile type, as bit planes (bit t of plane i: bit i of type t's count), so
// that adding a type mask is a few ands and xors. A count that reaches 16 is only known
// to be that large.
class TypeCounts {
 public:
  void add(TypeMask m) {
    for (TypeMask& p : plane_) {
      const TypeMask carry = p & m;
      p ^= m;
      m = carry;
    }
    over_ |= m;
  }
  // The types whose counts are equal in both (and below 16).
  TypeMask equal(const TypeCounts& o) const {
    TypeMask differ = over_ | o.over_;
    for (std::size_t i = 0; i < plane_.size(); ++i) differ |= plane_[i] ^ o.plane_[i];
    return ~differ;
  }

 private:
  std::array<TypeMask, 4> plane_{};
  TypeMask over_ = 0;  // types that reached 16
};

// The types of the unseen tiles, and of those that fit some open cell now: a drawn tile
// whose type is in unseen & ~placeable would be discarded.
inline TypeMask unseen_types(const State& s) {
  TypeMask m = 0;
  for (int t = 0; t < s.type_end(); ++t) m |= TypeMask(s.unseen(t) > 0) << t;
  return m;
}
inline TypeMask placeable_types(const State& s) {
  TypeMask m = 0;
  for (int j = 0; j < s.open_count(); ++j) m |= kFitMask[s.open_cell(j).code];
  return m;
}

// Unseen tiles of the types in a mask, by table: per group of 4 types (a nibble of the
// mask) the sum for each of its 16 subsets, so a count is 6 look-ups and 5 additions.
class UnseenCounts {
 public:
  // The counts of `s`. Only the nibbles whose types' counts changed since the last load
  // are rebuilt (a turn usually changes one type; the first load rebuilds all).
  void load(const State& s) {
    // Nibbles past the game's types hold 0 (from the first load on: counts_ starts at 0).
    const int nibbles = s.type_end() <= 24 ? 6 : kNibbles;
    for (int n = 0; n < nibbles; ++n) {
      bool same = true;
      for (int i = 0; i < 4; ++i) {
        const int t = 4 * n + i;
        const std::uint8_t c = t < kTileTypes ? std::uint8_t(s.unseen(t)) : 0;
        same &= counts_[std::size_t(t)] == c;
        counts_[std::size_t(t)] = c;
      }
      if (same) continue;
      table_[n][0] = 0;
      for (int m = 1; m < 16; ++m) {
        const int t = 4 * n + std::countr_zero(unsigned(m));
        table_[n][m] = std::uint8_t(table_[n][m & (m - 1)] + counts_[std::size_t(t)]);
      }
    }
  }
  int count(TypeMask mask) const {
    if (!mask) return 0;
    int n = table_[0][mask & 15] + table_[1][(mask >> 4) & 15] + table_[2][(mask >> 8) & 15] +
            table_[3][(mask >> 12) & 15] + table_[4][(mask >> 16) & 15] +
            table_[5][(mask >> 20) & 15];
    // The expansions' types (24 and up): none in a base game, so one test there.
    if (mask >> 24) [[unlikely]]
      for (int k = 6; k < kNibbles; ++k) n += table_[std::size_t(k)][(mask >> (4 * k)) & 15];
    return n;
  }
 private:
  static constexpr int kNibbles = (kTileTypes + 3) / 4;
  std::array<std::array<std::uint8_t, 16>, kNibbles> table_{};
  // The counts the tables were built from (all 0 at first, as the tables are).
  std::array<std::uint8_t, 4 * kNibbles> counts_{};
};

}  // namespace carc
