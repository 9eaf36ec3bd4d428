// The words of the tile catalogue: edge letters, segment kinds, directions, and one tile
// type's definition as the engine keeps it (core/tiles.hpp builds the table from the
// tile-set data, core/tileset.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace carc {

// Edge letters. 0 is "no constraint" inside an open cell's code. Water (The River) has no
// code of its own: only a river tile ever goes next to a water edge, at the river's open
// end, which the state tracks apart (kWater & 3 is kNone, the code a water edge leaves).
enum Edge : std::uint8_t { kNone = 0, kCity = 1, kRoad = 2, kField = 3, kWater = 4 };
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

// Marks of a segment (expansions.md): an inn on a road, a cathedral on a city.
inline constexpr std::uint8_t kMarkInn = 1, kMarkCathedral = 2;

// A completed feature's points (rules.md, "Scoring"; expansions.md): a road 1 per tile, 2
// with an inn; a city 2 per tile and per pennant, 3 with a cathedral; a monastery 9
// (`tiles` is then 9: itself and its eight neighbours).
constexpr int feature_points(SegKind kind, int tiles, int pennants, std::uint8_t marks) {
  if (kind == SegKind::road) return (marks & kMarkInn ? 2 : 1) * tiles;
  if (kind == SegKind::city) return (marks & kMarkCathedral ? 3 : 2) * (tiles + pennants);
  return 9;
}

struct SegDef {
  SegKind kind;
  std::uint8_t edges;  // bit d set: touches edge d (unrotated); 0 for a monastery
  bool pennant;
  std::uint8_t marks = 0;  // kMarkInn, kMarkCathedral
};

struct TileDef {
  std::array<char, 4> name;  // "A".."X", "I1".."I17", "R0".."R9", NUL-terminated
  std::uint8_t count;
  std::array<Edge, 4> edges;  // N, E, S, W unrotated
  std::uint8_t nseg;
  std::array<SegDef, kMaxSegs> segs;
};

}  // namespace carc
