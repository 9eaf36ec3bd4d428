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

// The base set (rules.md, "Base tile set": 24 types, 72 tiles), read at compile time from
// its data (core/tilesets/builtin.hpp, the tile-set format of core/tileset.hpp).
inline constexpr tileset::Set kBaseSet = tileset::parse(tilesets::kBase);
static_assert(kBaseSet.ok(), "the built-in base set reads (core/tilesets/builtin.hpp)");
static_assert(kBaseSet.ntypes == 24 && kBaseSet.river_tiles() == 0);

inline constexpr std::array<TileDef, 24> kBaseTiles = [] {
  std::array<TileDef, 24> out{};
  for (int t = 0; t < 24; ++t) {
    const tileset::Type& x = kBaseSet.types[t];
    TileDef& d = out[t];
    d.name = x.name[0];
    d.count = std::uint8_t(x.count);
    for (int e = 0; e < 4; ++e)
      d.edges[e] = x.edges[e] == tileset::Letter::city ? kCity : x.edges[e] == tileset::Letter::road ? kRoad : kField;
    d.nseg = std::uint8_t(x.nseg);
    for (int s = 0; s < kMaxSegs; ++s)
      d.segs[s] = s < x.nseg ? SegDef{x.segs[s].kind, x.segs[s].edges, x.segs[s].pennant}
                             : SegDef{SegKind::road, 0, false};
  }
  return out;
}();

inline constexpr int kTileTypes = 24;
inline constexpr int kStartType = 3;  // D
inline constexpr int kMaxTiles = 72;  // including the start tile

constexpr int total_tiles(const std::array<TileDef, 24>& set) {
  int n = 0;
  for (const auto& t : set) n += t.count;
  return n;
}
static_assert(total_tiles(kBaseTiles) == 72, "the base game has 72 tiles");
static_assert(kBaseTiles[kStartType].name == 'D' && kBaseSet.start == kStartType);

// Structural checks on the catalogue: segments touch exactly the edges of their kind,
// every road/city edge belongs to exactly one segment, pennants only on cities.
constexpr bool catalogue_consistent(const std::array<TileDef, 24>& set) {
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
      if ((t.edges[d] != kField) != bool(covered >> d & 1)) return false;
    if (monasteries > 1) return false;
  }
  return true;
}
static_assert(catalogue_consistent(kBaseTiles));

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
        x.edge[rotate_dir(d, r)] = kBaseTiles[t].edges[d];
        x.seg[d] = kNoSeg;
      }
      for (int s = 0; s < kMaxSegs; ++s) {
        std::uint8_t m = 0;
        if (s < kBaseTiles[t].nseg)
          for (int d = 0; d < 4; ++d)
            if (kBaseTiles[t].segs[s].edges >> d & 1) m |= std::uint8_t(1u << rotate_dir(d, r));
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
    for (int s = 0; s < kBaseTiles[t].nseg; ++s)
      if (kBaseTiles[t].segs[s].kind == SegKind::monastery) m[t] = std::int8_t(s);
  }
  return m;
}();

// An open cell's constraint code: 2 bits per direction d (bits 2d..2d+1), holding the
// edge letter our tile must show at d (kNone where no neighbour). 256 codes.
inline constexpr int kCodes = 256;
constexpr std::uint8_t code_edge(std::uint8_t code, int d) { return (code >> (2 * d)) & 3; }

// kFits[code][type]: bit r set when type in rotation r satisfies code.
inline constexpr auto kFits = [] {
  std::array<std::array<std::uint8_t, kTileTypes>, kCodes> f{};
  for (int c = 0; c < kCodes; ++c)
    for (int t = 0; t < kTileTypes; ++t)
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

constexpr char tile_name(int type) { return kBaseTiles[type].name; }
constexpr int tile_type(char name) {
  for (int t = 0; t < kTileTypes; ++t)
    if (kBaseTiles[t].name == name) return t;
  return kNoType;
}

// "road:E,S", "city:N", "monastery" for segment s of type t in rotation r (rules.md).
std::string segment_name(int type, int rot, int seg);
// "CRFR": edge letters N,E,S,W after rotation.
std::string edge_string(int type, int rot);

}  // namespace carc
