// Tile types as bit masks (bit t: type t), and the questions policies ask of the board as
// ands and table look-ups instead of loops over open cells and types. Per open cell, the
// engine's kFits (core/tiles.hpp) already holds the (type, rotation) pairs that fit its
// constraint code, a nibble per type; here the same per type, and the derived tables:
// which types would end a feature on a side of a cell, or could be placed there without a
// free segment. All built at compile time (no_free_table() once, at first use).
#pragma once
#include <array>
#include <bit>
#include <cassert>
#include <concepts>
#include <cstdint>

#include "core/state.hpp"

namespace carc {

// Masks come in two widths, each with its own tables. A game of the base set's types alone
// (State::beyond_base() false: types 0..23) asks with BaseMask, 32 bits of those types, so
// that its tables stay small in the cache and a count is 6 look-ups; a game with the
// expansions' types asks with TypeMask, 64 bits of every type. The two give the same counts
// on a base game (the other types are never unseen there); the heuristic's evaluator is
// compiled for each (policies/heuristic/).
using BaseMask = std::uint32_t;  // bit t: tile type t < kBaseTypes
using TypeMask = std::uint64_t;  // bit t: tile type t
static_assert(kTileTypes <= 64);
template <class M>
concept MaskWidth = std::same_as<M, BaseMask> || std::same_as<M, TypeMask>;
// The tile types a mask of width M holds: 0 .. kMaskTypes<M> - 1.
template <MaskWidth M>
inline constexpr int kMaskTypes = std::same_as<M, BaseMask> ? kBaseTypes : kTileTypes;
static_assert(kMaskTypes<BaseMask> <= 32 && kMaskTypes<TypeMask> <= 64);

// kCloses<M>: tile types that, in some rotation fitting an open cell of this code, end the
// feature on side d there (index code * 4 + d): the tile's segment facing d has no edge
// toward a side without a neighbour, so it opens nothing new.
template <MaskWidth M>
inline constexpr auto kCloses = [] {
  std::array<M, kCodes * 4> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d)
      for (int t = 0; t < kMaskTypes<M>; ++t)
        for (int r = 0; r < 4; ++r) {
          if (!(kFits[code][t] >> r & 1)) continue;
          const int s = kOriented[t][r].seg[d];
          if (s == kNoSeg) continue;
          bool closes = true;
          for (int e = 0; e < 4; ++e)
            if ((kOriented[t][r].seg_edges[s] >> e & 1) && e != d &&
                code_edge(std::uint8_t(code), e) == kNone)
              closes = false;
          if (closes) m[std::size_t(code * 4 + d)] |= M(1) << t;
        }
  return m;
}();
template <MaskWidth M>
constexpr M closes(int code, int d) { return kCloses<M>[std::size_t(code * 4 + d)]; }
// A lone city edge to the north is ended by E (a city cap); a lone road end by A (a
// monastery's road end), never by U (a straight road, which leaves the far end open).
static_assert(closes<BaseMask>(kCity, 0) >> tile_type('E') & 1);
static_assert(closes<BaseMask>(kRoad, 0) >> tile_type('A') & 1);
static_assert(!(closes<BaseMask>(kRoad, 0) >> tile_type('U') & 1));
static_assert(closes<TypeMask>(kCity, 0) >> tile_type("I10") & 1);
// The base width is the wide one cut to the base set's types.
static_assert([] {
  for (std::size_t i = 0; i < kCloses<BaseMask>.size(); ++i)
    if (kCloses<BaseMask>[i] != (kCloses<TypeMask>[i] & ((TypeMask(1) << kBaseTypes) - 1)))
      return false;
  return true;
}());

// kFitMask<M>[code]: tile types that fit an open cell of this code in some rotation.
template <MaskWidth M>
inline constexpr auto kFitMask = [] {
  std::array<M, kCodes> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int t = 0; t < kMaskTypes<M>; ++t)
      if (kFits[code][t]) m[code] |= M(1) << t;
  return m;
}();

// no_free_table<M>()[code * 16 + occ]: tile types that fit an open cell of this code in
// some rotation where every road/city segment touches a side whose neighbour's feature
// holds a meeple (bit d of occ), and that have no monastery: placed there, they need no
// meeple. (Two segments on one unoccupied feature, or a meeple that reaches the cell's
// features by a merge, are not seen: an estimate.) Built once, at first use (type_masks.cpp).
template <MaskWidth M>
using NoFreeTable = std::array<M, kCodes * 16>;
template <MaskWidth M>
const NoFreeTable<M>& no_free_table();

// A count per tile type, as bit planes (bit t of plane i: bit i of type t's count), so
// that adding a type mask is a few ands and xors. A count that reaches 16 is only known
// to be that large.
template <MaskWidth M>
class TypeCounts {
 public:
  void add(M m) {
    for (M& p : plane_) {
      const M carry = p & m;
      p ^= m;
      m = carry;
    }
    over_ |= m;
  }
  // The types whose counts are equal in both (and below 16).
  M equal(const TypeCounts& o) const {
    M differ = over_ | o.over_;
    for (std::size_t i = 0; i < plane_.size(); ++i) differ |= plane_[i] ^ o.plane_[i];
    return ~differ;
  }

 private:
  std::array<M, 4> plane_{};
  M over_ = 0;  // types that reached 16
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
  for (int j = 0; j < s.open_count(); ++j) m |= kFitMask<TypeMask>[s.open_cell(j).code];
  return m;
}

// Unseen tiles of the types in a mask of width M, by table: per group of 4 types (a nibble
// of the mask) the sum for each of its 16 subsets, so a count is a look-up a nibble (6 for
// the base width) and their sum. The base width reads a State of the base set's types only.
template <MaskWidth M>
class UnseenCounts {
 public:
  // The counts of `s`. Only the nibbles whose types' counts changed since the last load
  // are rebuilt (a turn usually changes one type; the first load rebuilds all).
  void load(const State& s) {
    assert(kMaskTypes<M> >= s.type_end());
    for (int n = 0; n < kNibbles; ++n) {
      bool same = true;
      for (int i = 0; i < 4; ++i) {
        const int t = 4 * n + i;
        const std::uint8_t c = t < kMaskTypes<M> ? std::uint8_t(s.unseen(t)) : 0;
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
  int count(M mask) const {
    if (!mask) return 0;
    int n = 0;
    for (int k = 0; k < kNibbles; ++k) n += table_[std::size_t(k)][(mask >> (4 * k)) & 15];
    return n;
  }

 private:
  static constexpr int kNibbles = (kMaskTypes<M> + 3) / 4;
  std::array<std::array<std::uint8_t, 16>, kNibbles> table_{};
  // The counts the tables were built from (all 0 at first, as the tables are).
  std::array<std::uint8_t, 4 * kNibbles> counts_{};
};

}  // namespace carc
