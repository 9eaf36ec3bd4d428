// The tile catalogue and every table derived from it, built at compile time.
//
// Contract: a tile set is data in the tile-set format (core/tileset.hpp,
// docs/tileset-format.md); the base set's (rules.md, "Base tile set") is read at compile
// time into one constexpr array of TileDef. Everything else here (rotated edges, edge ->
// segment maps, the "which type+rotation fits this edge constraint" table) is derived
// from it by constexpr code and checked by static_assert.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/tiles_base.hpp"
#include "core/tileset.hpp"
#include "core/tilesets/builtin.hpp"

namespace carc {

// The built-in sets (core/tilesets/builtin.hpp, the tile-set format of core/tileset.hpp),
// read at compile time: the base game (rules.md, "Base tile set": 24 types, 72 tiles),
// Inns & Cathedrals (17 types, 18 tiles) and The River (I) (10 types, 12 tiles), per
// expansions.md. The engine knows every type of the three as one catalogue, in that order
// (base A..X are types 0..23); a game plays the types its tile set deals (Config::tiles),
// the others have count 0 there.
inline constexpr tileset::Set kBaseSet = tileset::parse(tilesets::kBase);
inline constexpr tileset::Set kInnsSet = tileset::parse(tilesets::kInns);
inline constexpr tileset::Set kRiverSet = tileset::parse(tilesets::kRiver);
static_assert(kBaseSet.ok() && kInnsSet.ok() && kRiverSet.ok(),
              "the built-in sets read (core/tilesets/builtin.hpp)");
static_assert(kBaseSet.ntypes == 24 && kBaseSet.river_tiles() == 0);

inline constexpr int kBaseTypes = 24;
inline constexpr int kFirstInn = kBaseTypes;
inline constexpr int kFirstRiver = kFirstInn + kInnsSet.ntypes;
inline constexpr int kTileTypes = kFirstRiver + kRiverSet.ntypes;
static_assert(kTileTypes == 51);

inline constexpr std::array<TileDef, kTileTypes> kTiles = [] {
  std::array<TileDef, kTileTypes> out{};
  int t = 0;
  for (const tileset::Set* set : {&kBaseSet, &kInnsSet, &kRiverSet})
    for (int i = 0; i < set->ntypes; ++i, ++t) {
      const tileset::Type& x = set->types[i];
      TileDef& d = out[t];
      for (int k = 0; k < 4; ++k) d.name[k] = x.name[k];
      d.count = std::uint8_t(x.count);
      for (int e = 0; e < 4; ++e)
        d.edges[e] = x.edges[e] == tileset::Letter::city    ? kCity
                     : x.edges[e] == tileset::Letter::road  ? kRoad
                     : x.edges[e] == tileset::Letter::water ? kWater
                                                            : kField;
      d.nseg = std::uint8_t(x.nseg);
      for (int s = 0; s < kMaxSegs; ++s)
        d.segs[s] = s < x.nseg ? SegDef{x.segs[s].kind, x.segs[s].edges, x.segs[s].pennant,
                                        x.segs[s].marks}
                               : SegDef{SegKind::road, 0, false, 0};
    }
  return out;
}();

inline constexpr int kStartType = 3;                              // D
inline constexpr int kSpringType = kFirstRiver + kRiverSet.start;  // R0
inline constexpr int kLakeType = kFirstRiver + kRiverSet.last;     // R9
// Tiles on the board at most: base, Inns & Cathedrals and the whole river.
inline constexpr int kMaxTiles = kBaseSet.tiles() + kInnsSet.tiles() + kRiverSet.tiles();
static_assert(kMaxTiles == 102);

constexpr bool is_river(int type) { return type >= kFirstRiver; }

constexpr int total_tiles(const std::array<TileDef, kTileTypes>& set, int from, int to) {
  int n = 0;
  for (int t = from; t < to; ++t) n += set[t].count;
  return n;
}
static_assert(total_tiles(kTiles, 0, kBaseTypes) == 72, "the base game has 72 tiles");
static_assert(kTiles[kStartType].name[0] == 'D' && kBaseSet.start == kStartType);
static_assert(kTiles[kSpringType].name[1] == '0' && kTiles[kLakeType].name[1] == '9');

// The tiles a game deals (a tile set as the engine plays it): a count per type, the start
// tile's type among them. With the river (the spring as the start tile), the other river
// types form the river stack, the lake last; the rest are land tiles, dealt to the colours.
struct TileCounts {
  std::array<std::uint8_t, kTileTypes> count{};
  std::uint8_t start = kStartType;
  constexpr bool river() const { return start == kSpringType; }
  constexpr int land() const {  // tiles dealt to the colours' stacks
    int n = 0;
    for (int t = 0; t < kFirstRiver; ++t) n += count[t];
    return n - (start == kStartType ? 1 : 0);
  }
  constexpr int river_stack() const {
    int n = 0;
    for (int t = kFirstRiver; t < kTileTypes; ++t) n += count[t];
    return river() ? n - 1 : 0;
  }
  constexpr bool operator==(const TileCounts&) const = default;
};
inline constexpr TileCounts kBaseCounts = [] {
  TileCounts c;
  for (int t = 0; t < kBaseTypes; ++t) c.count[t] = kTiles[t].count;
  return c;
}();
static_assert(kBaseCounts.land() == 71);

// The river stack as dealt (expansions.md, "Set-up"): the river tiles but the spring in a
// shuffled order, the lake under them. `count(t)` is how many of type t go in (a set's
// counts, or the tiles a player has not seen); `shuffle(first, n)` orders the first n
// written (a deal's stream, or a look-ahead's re-deal). Writes to `out` and returns how
// many tiles it wrote. The one place that lays the river stack: the deal and the re-deals.
static_assert(kLakeType == kTileTypes - 1, "the lake is the catalogue's last type");
template <class Count, class Shuffle>
constexpr int lay_river_stack(Count&& count, std::uint8_t* out, Shuffle&& shuffle) {
  int n = 0;
  for (int t = kFirstRiver; t < kLakeType; ++t)
    if (t != kSpringType)
      for (int k = count(t); k > 0; --k) out[n++] = std::uint8_t(t);
  shuffle(out, n);
  for (int k = count(kLakeType); k > 0; --k) out[n++] = std::uint8_t(kLakeType);
  return n;
}

// Structural checks on the catalogue: segments touch exactly the edges of their kind,
// every road/city edge belongs to exactly one segment, pennants only on cities.
constexpr bool catalogue_consistent(const std::array<TileDef, kTileTypes>& set) {
  for (const auto& t : set) {
    std::uint8_t covered = 0;
    int monasteries = 0;
    for (int s = 0; s < t.nseg; ++s) {
      const SegDef& g = t.segs[s];
      if (g.kind == SegKind::monastery) {
        if (g.edges != 0) return false;
        ++monasteries;
        continue;
      }
      if (g.edges == 0 || (covered & g.edges)) return false;
      if (g.pennant && g.kind != SegKind::city) return false;
      covered |= g.edges;
      for (int d = 0; d < 4; ++d)
        if ((g.edges >> d & 1) && t.edges[d] != (g.kind == SegKind::city ? kCity : kRoad))
          return false;
    }
    for (int d = 0; d < 4; ++d)
      if ((t.edges[d] != kField && t.edges[d] != kWater) != bool(covered >> d & 1)) return false;
    if (monasteries > 1) return false;
  }
  return true;
}
static_assert(catalogue_consistent(kTiles));

// A tile type in a given rotation, with everything in board directions.
struct Oriented {
  std::array<Edge, 4> edge;         // edge letter at board direction d
  std::array<std::int8_t, 4> seg;   // segment index touching board edge d, kNoSeg for field
  std::array<std::uint8_t, kMaxSegs> seg_edges;  // rotated edge mask of each segment
};

constexpr int rotate_dir(int d, int rot) { return (d + rot) & 3; }

inline constexpr auto kOriented = [] {
  std::array<std::array<Oriented, 4>, kTileTypes> o{};
  for (int t = 0; t < kTileTypes; ++t)
    for (int r = 0; r < 4; ++r) {
      Oriented& x = o[t][r];
      for (int d = 0; d < 4; ++d) {
        x.edge[rotate_dir(d, r)] = kTiles[t].edges[d];
        x.seg[d] = kNoSeg;
      }
      for (int s = 0; s < kMaxSegs; ++s) {
        std::uint8_t m = 0;
        if (s < kTiles[t].nseg)
          for (int d = 0; d < 4; ++d)
            if (kTiles[t].segs[s].edges >> d & 1) m |= std::uint8_t(1u << rotate_dir(d, r));
        x.seg_edges[s] = m;
        for (int d = 0; d < 4; ++d)
          if (m >> d & 1) x.seg[d] = std::int8_t(s);
      }
    }
  return o;
}();

// Index of the tile type's monastery segment, or kNoSeg.
inline constexpr auto kMonasterySeg = [] {
  std::array<std::int8_t, kTileTypes> m{};
  for (int t = 0; t < kTileTypes; ++t) {
    m[t] = kNoSeg;
    for (int s = 0; s < kTiles[t].nseg; ++s)
      if (kTiles[t].segs[s].kind == SegKind::monastery) m[t] = std::int8_t(s);
  }
  return m;
}();

// An open cell's constraint code: 2 bits per direction d (bits 2d..2d+1), holding the
// edge letter our tile must show at d (kNone where no neighbour). 256 codes.
inline constexpr int kCodes = 256;
constexpr std::uint8_t code_edge(std::uint8_t code, int d) { return (code >> (2 * d)) & 3; }

// kFits[code][type]: bit r set when type in rotation r satisfies code. A river tile goes
// only at the river's open end (State::legal_placements), so it fits no code here.
inline constexpr auto kFits = [] {
  std::array<std::array<std::uint8_t, kTileTypes>, kCodes> f{};
  for (int c = 0; c < kCodes; ++c)
    for (int t = 0; t < kFirstRiver; ++t)
      for (int r = 0; r < 4; ++r) {
        bool ok = true;
        for (int d = 0; d < 4; ++d) {
          std::uint8_t need = code_edge(std::uint8_t(c), d);
          if (need != kNone && need != kOriented[t][r].edge[d]) ok = false;
        }
        if (ok) f[c][t] |= std::uint8_t(1u << r);
      }
  return f;
}();
static_assert(kFits[0][0] == 0xF, "no constraint fits every rotation");
static_assert(kFits[0b01][3] == 0b0001, "D's city faces N only unrotated");

constexpr std::string_view tile_name(int type) {
  const auto& n = kTiles[type].name;
  return {n.data(), n[1] == '\0' ? 1u : n[2] == '\0' ? 2u : 3u};
}
constexpr int tile_type(std::string_view name) {
  for (int t = 0; t < kTileTypes; ++t)
    if (tile_name(t) == name) return t;
  return kNoType;
}
constexpr int tile_type(char name) { return tile_type(std::string_view(&name, 1)); }

// "road:E,S", "city:N", "monastery" for segment s of type t in rotation r (rules.md).
std::string segment_name(int type, int rot, int seg);
// "CRFR": edge letters N,E,S,W after rotation.
std::string edge_string(int type, int rot);

}  // namespace carc
