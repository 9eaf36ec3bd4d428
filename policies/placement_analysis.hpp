// What placing the tile in hand would do, read off the State without copying it: the
// features each segment of the tile would belong to (merged with the board features it
// touches), their open edges, pennants and meeples afterwards, which of them the placement
// completes, and the unfinished monasteries around the cell.
//
// Exact for open edges, pennants, meeples, free segments and completion (so a policy can
// tell cheaply which moves can score this turn and only copy the State for those). The
// tile count is an estimate: a tile that belongs to two of the merged features (a ring
// of city closed by an H or I tile) is counted twice.
#pragma once
#include <array>
#include <cstdint>

#include "core/state.hpp"

namespace carc {

// An unfinished monastery next to the cell, and its empty cells once a tile is placed.
struct NearMonastery {
  std::uint16_t root;
  std::uint8_t open_after;
};

// What the board shows around a placement's cell, whatever the rotation: the 8 cells
// around it (kNeighbour order: N, E, S, W, NE, SE, SW, NW), the feature behind each edge
// and the unfinished monasteries around it. Placements of one cell share it, so callers
// load it once per cell.
struct CellNeighbours {
  int cell = -1;
  int empty = 0;                        // empty cells among the 8
  std::uint8_t occupied = 0;            // bit d: a tile at edge d (N, E, S, W)
  std::array<std::int16_t, 8> tile{};   // tile index or -1
  std::array<std::int16_t, 4> root{};   // feature of the neighbour's road/city facing edge d, or -1
  std::array<std::uint8_t, 4> root_meeples{};  // its meeple total
  int n_near = 0;
  std::array<NearMonastery, 8> near{};
  bool near_completes = false;          // a monastery around has this cell as its last gap
  bool shared_root = false;             // one board feature behind two edges
  void load(const State& s, const Placement& p);
};

// One feature as it would be after the placement (before the meeple and before scoring).
struct JoinedFeature {
  SegKind kind;
  std::uint8_t segs;   // bit s: segment s of the tile belongs to it
  std::uint8_t open;   // open edges; monastery: empty cells around
  std::uint8_t tiles;  // distinct tiles (estimate, see above); monastery: 1
  std::uint8_t pennants;
  std::uint8_t meeple_total;           // the weight of its figures (a large meeple 2)
  std::array<std::uint8_t, kMaxColors> meeples;  // per colour, the same
  // Its marks (kMarkInn, kMarkCathedral) and the colours of the large meeples on it: both
  // are read only in games that can have them (State::beyond_base, State::large_meeple),
  // and stay 0 in the others.
  std::uint8_t marks = 0, large = 0;
  std::uint8_t n_roots;                 // board features merged into it
  std::array<std::uint16_t, 4> roots;
  bool complete() const { return open == 0; }
  // Points if it were completed now (rules.md step 3, at the inn and cathedral rates of
  // expansions.md; a monastery 9).
  int points() const { return feature_points(kind, tiles, pennants, marks); }
};

struct PlacementEffect {
  int n_feats = 0;
  std::array<JoinedFeature, kMaxSegs> feats;
  std::array<std::int8_t, kMaxSegs> feat_of_seg;  // index into feats per tile segment
  std::array<std::int16_t, 4> edge_root;  // per direction: the board feature joined, or -1
  std::uint8_t free_mask = 0;  // as State::free_segments
  bool completes = false;  // a feature of the tile or a monastery around it completes
};

// The monasteries around are nb.near (the same for every rotation).
// (JoinedFeature::marks and ::large as said there: set only in games that can have them.)
void analyse_placement(const State& s, int type, const Placement& p, const CellNeighbours& nb,
                       PlacementEffect& out);

// The occupied board features that face the feature of the tile's segment `seg` across an
// empty cell beside the placed tile: a road or city of the same kind on another side of
// that cell, holding figures, which a later tile there could join to it. `e` is the
// placement's analysis; each root once, in the order of the sides (N, E, S, W), then of
// the cell's other sides. Returns the count (at most 12). For the large meeple: its weight
// in a majority matters only where features merge.
int facing_features(const State& s, int type, const Placement& p, const PlacementEffect& e,
                    int seg, std::array<std::uint16_t, 12>& out);

// A cheap test for the common case: when placing `type` turned `rot` there surely
// completes nothing (no segment of the tile is enclosed by tiles, no monastery finishes)
// and no two segments join one board feature, returns true and sets `free_mask` (as
// State::free_segments). Otherwise returns false: use analyse_placement.
bool surely_quiet(int type, int rot, const CellNeighbours& nb, std::uint8_t& free_mask);

}  // namespace carc
