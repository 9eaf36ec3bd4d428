// The tile catalogue and every table derived from it, built at compile time.
//
// Contract: a tile set is one constexpr array of TileDef (rules.md, "Base tile set").
// Everything else here (rotated edges, edge -> segment maps, the "which type+rotation fits
// this edge constraint" table) is derived from it by constexpr code and checked by
// static_assert, so a new tile set is new data, not new code.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace carc {

// Edge letters. 0 is "no constraint" inside an open cell's code.
enum Edge : std::uint8_t { kNone = 0, kCity = 1, kRoad = 2, kField = 3 };
enum class SegKind : std::uint8_t { road, city, monastery };

// Directions: N=0, E=1, S=2, W=3 (board directions; y grows to the south).
inline constexpr int kDirs = 4;
constexpr int opposite(int d) { return (d + 2) & 3; }
inline constexpr char kDirName[4] = {'N', 'E', 'S', 'W'};

inline constexpr int kMaxSegs = 4;  // no tile has more than 4 scorable segments

// Named "none" values for the small ids used across the engine.
inline constexpr std::int8_t kNoSeg = -1;            // a field edge; a type without monastery
inline constexpr int kNoType = -1;                   // no such tile letter; no tile in hand
inline constexpr std::uint8_t kNoSegment = 0xFF;     // a tile placed without a meeple
inline constexpr std::uint8_t kNoColor = 0xFF;       // ... and so without a meeple colour

// "road", "city" or "monastery": the kind as rules.md and the game log spell it.
constexpr std::string_view kind_name(SegKind k) {
  return k == SegKind::road ? "road" : k == SegKind::city ? "city" : "monastery";
}

struct SegDef {
  SegKind kind;
  std::uint8_t edges;  // bit d set: touches edge d (unrotated); 0 for a monastery
  bool pennant;
};

struct TileDef {
  char name;
  std::uint8_t count;
  std::array<Edge, 4> edges;  // N, E, S, W unrotated
  std::uint8_t nseg;
  std::array<SegDef, kMaxSegs> segs;
};

namespace detail {
constexpr std::uint8_t E(std::string_view s) {  // "N,E" style edge set -> mask
  std::uint8_t m = 0;
  for (char ch : s)
    for (int d = 0; d < 4; ++d)
      if (ch == kDirName[d]) m |= std::uint8_t(1u << d);
  return m;
}
constexpr SegDef road(std::string_view e) { return {SegKind::road, E(e), false}; }
constexpr SegDef city(std::string_view e) { return {SegKind::city, E(e), false}; }
constexpr SegDef pcity(std::string_view e) { return {SegKind::city, E(e), true}; }
constexpr SegDef mon() { return {SegKind::monastery, 0, false}; }
constexpr SegDef none() { return {SegKind::road, 0, false}; }
inline constexpr Edge C = kCity, R = kRoad, F = kField;
}  // namespace detail

// rules.md, "Base tile set": 24 types, 72 tiles.
inline constexpr std::array<TileDef, 24> kBaseTiles = [] {
  using namespace detail;
  return std::array<TileDef, 24>{{
      {'A', 2, {F, F, R, F}, 2, {mon(), road("S"), none(), none()}},
      {'B', 4, {F, F, F, F}, 1, {mon(), none(), none(), none()}},
      {'C', 1, {C, C, C, C}, 1, {pcity("NESW"), none(), none(), none()}},
      {'D', 4, {C, R, F, R}, 2, {city("N"), road("EW"), none(), none()}},
      {'E', 5, {C, F, F, F}, 1, {city("N"), none(), none(), none()}},
      {'F', 2, {F, C, F, C}, 1, {pcity("EW"), none(), none(), none()}},
      {'G', 1, {F, C, F, C}, 1, {city("EW"), none(), none(), none()}},
      {'H', 3, {F, C, F, C}, 2, {city("E"), city("W"), none(), none()}},
      {'I', 2, {F, C, C, F}, 2, {city("E"), city("S"), none(), none()}},
      {'J', 3, {C, R, R, F}, 2, {city("N"), road("ES"), none(), none()}},
      {'K', 3, {C, F, R, R}, 2, {city("N"), road("SW"), none(), none()}},
      {'L', 3, {C, R, R, R}, 4, {city("N"), road("E"), road("S"), road("W")}},
      {'M', 2, {C, F, F, C}, 1, {pcity("NW"), none(), none(), none()}},
      {'N', 3, {C, F, F, C}, 1, {city("NW"), none(), none(), none()}},
      {'O', 2, {C, R, R, C}, 2, {pcity("NW"), road("ES"), none(), none()}},
      {'P', 3, {C, R, R, C}, 2, {city("NW"), road("ES"), none(), none()}},
      {'Q', 1, {C, C, F, C}, 1, {pcity("NEW"), none(), none(), none()}},
      {'R', 3, {C, C, F, C}, 1, {city("NEW"), none(), none(), none()}},
      {'S', 2, {C, C, R, C}, 2, {pcity("NEW"), road("S"), none(), none()}},
      {'T', 1, {C, C, R, C}, 2, {city("NEW"), road("S"), none(), none()}},
      {'U', 8, {R, F, R, F}, 1, {road("NS"), none(), none(), none()}},
      {'V', 9, {F, F, R, R}, 1, {road("SW"), none(), none(), none()}},
      {'W', 4, {F, R, R, R}, 3, {road("E"), road("S"), road("W"), none()}},
      {'X', 1, {R, R, R, R}, 4, {road("N"), road("E"), road("S"), road("W")}},
  }};
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
static_assert(kBaseTiles[kStartType].name == 'D');

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
