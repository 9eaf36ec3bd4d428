// The game state: a trivially copyable value holding everything rules.md lets a player
// know (board, features, scores, supplies, stack sizes, unseen tile counts) and nothing
// else. The order of the stacks is not here: the driver (sim/) holds it, so a policy that
// receives a State cannot read it.
//
// Board: cell (x, y) lives at index (x + kRowStride*y) mod kCells. Every cell the engine
// ever touches lies within L1 distance kMaxTiles + 1 of every other (a connected group of
// at most kMaxTiles tiles plus its edge and corner neighbours), and no non-zero vector of
// that L1 length or less maps to 0 mod kCells (static_assert below), so the wrap-around
// never aliases: the tiles in a straight line fit as well as any compact shape.
//
// Features: every road/city/monastery segment of a placed tile has a slot
// (tile index * 4 + segment). A slot's feature id is the root slot of its feature; members
// of a feature form a circular list, and merging relabels the smaller feature (features
// are small, so this beats union-find path walks). Per feature we keep the distinct-tile
// count, open edges (for a monastery: empty surrounding cells), pennants and the weight of
// the figures per colour (a meeple 1, the large meeple 2: expansions.md); beside it, the
// feature's marks (an inn, a cathedral) and which colours' large meeples stand on it.
//
// The expansions (expansions.md): a game deals the tiles of its tile set (Config::tiles).
// With the river, the spring is the start tile and the river tiles are drawn from a shared
// river stack before any land tile; the state tracks the river's open end, its flow and
// the way the last curve turned, and places river tiles only there.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "core/goals.hpp"
#include "core/ruleset.hpp"
#include "core/tiles.hpp"

namespace carc {

inline constexpr int kMaxColors = 6;
inline constexpr int kMinColors = 2;
inline constexpr int kMaxMeeples = 12;
inline constexpr int kMinMeeples = 1;
inline constexpr int kCells = 5408;
inline constexpr int kRowStride = 105;
inline constexpr int kReach = kMaxTiles + 1;  // max L1 distance between two touched cells
inline constexpr int kMaxOpen = 2 * kMaxTiles + 2;  // site perimeter bound of a polyomino
inline constexpr int kSlots = kMaxTiles * kMaxSegs;
inline constexpr int kMaxPlacements = kMaxOpen * 4;  // (open cell, rotation) pairs
inline constexpr int kMaxCompleted = 16;  // 4 segments + 9 monasteries fit easily
inline constexpr int kMaxMonasteries = [] {  // monastery tiles in the tile sets
  int n = 0;
  for (const auto& t : kTiles)
    for (int s = 0; s < t.nseg; ++s) n += t.segs[s].kind == SegKind::monastery ? t.count : 0;
  return n;
}();
// No colour can reach 2048: a colour gains a feature's points at most once, and all
// features of 102 tiles are worth far less (cities <= 3*4*102+3*13, roads <= 2*4*102,
// monasteries <= 8*9, start <= 6, final <= 2*13).
inline constexpr int kScoreLimit = 2048;

namespace detail {
constexpr bool board_is_alias_free() {
  for (int dy = 0; dy <= kReach; ++dy)
    for (int dx = -kReach; dx <= kReach; ++dx) {
      int l1 = (dx < 0 ? -dx : dx) + dy;
      if (l1 == 0 || l1 > kReach || (dy == 0 && dx < 0)) continue;
      if (((dx + kRowStride * dy) % kCells + kCells) % kCells == 0) return false;
    }
  return true;
}
}  // namespace detail
static_assert(detail::board_is_alias_free(), "board index must not alias reachable cells");

constexpr int cell_of(int x, int y) {
  return ((x + kRowStride * y) % kCells + kCells) % kCells;
}
// Neighbour offsets (already reduced mod kCells): N, E, S, W, then NE, SE, SW, NW.
inline constexpr std::array<int, 8> kNeighbour = {
    kCells - kRowStride, 1, kRowStride, kCells - 1,
    kCells - kRowStride + 1, kRowStride + 1, kRowStride - 1, kCells - kRowStride - 1};
constexpr int step(int cell, int dir) {
  // Without a branch: the start tile is at index 0, so half the board wraps around and a
  // branch on it is a coin toss. Unsigned, c - kCells is huge unless c wrapped, so the
  // smaller of the two is the cell (a compare and a conditional move).
  const unsigned c = unsigned(cell + kNeighbour[dir]);
  return int(c < c - unsigned(kCells) ? c : c - unsigned(kCells));
}
inline constexpr std::array<int, 8> kDx = {0, 1, 0, -1, 1, 1, -1, -1};
inline constexpr std::array<int, 8> kDy = {-1, 0, 1, 0, -1, 1, 1, -1};

// A board index that is no cell (Move::none()).
inline constexpr std::uint16_t kNoCell = 0xFFFF;
// tile_at / tile_near of an empty cell.
inline constexpr int kNoTile = -1;

// A placement of the tile in hand: where and how turned. 6 bytes, no initialiser (move
// buffers of kMaxPlacements entries are not zeroed per turn).
struct Placement {
  std::uint16_t cell;
  std::int8_t x, y;
  std::uint8_t rot;
};

// A full move: placement plus the meeple's segment index on the tile (kNoMeeple: none),
// and the figure: `large` places the colour's large meeple (expansions.md; only when it is
// in supply). A colour whose only figure is the large meeple places it whatever `large`
// says (the forced-meeple rule).
struct Move {
  static constexpr std::uint8_t kNoMeeple = kNoSegment;
  Placement at;
  std::uint8_t seg = kNoMeeple;
  bool large = false;
  static constexpr Move none() { return Move{Placement{kNoCell, 0, 0, 0}, kNoMeeple}; }
  constexpr bool is_none() const { return at.cell == kNoCell; }
};

struct PlacedTile {
  std::uint16_t cell;
  std::int8_t x, y;
  std::uint8_t type, rot;
  std::uint8_t meeple_seg;    // segment holding the meeple placed with this tile, or kNoSegment
  std::uint8_t meeple_color;  // its colour, or kNoColor
};

struct OpenCell {
  std::uint16_t cell;
  std::int8_t x, y;
  std::uint8_t code;  // constraint code, see tiles.hpp
};

struct Feature {
  SegKind kind;
  std::uint8_t tiles;     // distinct tiles (monastery: 1 until scored as 9)
  std::uint8_t open;      // open edges; monastery: empty surrounding cells
  std::uint8_t pennants;
  std::uint8_t meeple_total;
  std::array<std::uint8_t, kMaxColors> meeples;
  std::uint8_t size;      // member slots (see kMaxFeatureSlots)
};

// A feature's member slots are segments of its kind: at most all of them in the tile set.
inline constexpr int kMaxFeatureSlots = [] {
  int most = 0;
  for (const SegKind kind : {SegKind::road, SegKind::city, SegKind::monastery}) {
    int n = 0;
    for (const auto& t : kTiles)
      for (int s = 0; s < t.nseg; ++s) n += t.segs[s].kind == kind ? t.count : 0;
    most = n > most ? n : most;
  }
  return most;
}();
static_assert(kMaxFeatureSlots <= 255, "Feature::size is a byte");

// What scoring one completed feature did (also what the game log records).
struct ScoreEvent {
  SegKind kind;
  std::uint8_t tiles, pennants;
  std::int16_t points;
  // Per colour on the feature: the weight of its figures (a meeple 1, the large meeple 2).
  std::array<std::uint8_t, kMaxColors> meeples;
  std::uint8_t large;      // colours whose large meeple stood on it (bit mask)
  std::uint8_t marks;      // kMarkInn, kMarkCathedral: the rate it scored at
  std::uint8_t majority;   // colour bit mask
  std::uint8_t awarded;    // colour bit mask
  std::int16_t low_before;
};

// The colour used to draw from the river stack (core/turn.hpp: Env::draw).
inline constexpr int kRiverStack = kMaxColors;

// The tile types a draw may bring, [first, end) (State::draw_types).
struct DrawTypes {
  int first, end;
};

// Whether a tile type can be the next draw, or why not (State::draw_rule).
enum class DrawRule : std::uint8_t {
  ok,
  none_unseen,    // no tile of the type is left to draw
  land_in_river,  // the river stack still holds tiles: the draw is a river tile
  river_spent,    // the river stack is empty: a river tile cannot come
  lake_early,     // the lake is the river stack's last tile, and others are left
};

struct Config {
  Config() = default;
  Config(int c, int m) : colors(c), meeples(m) {}
  Config(int c, int m, Rules r) : colors(c), meeples(m), rules(std::move(r)) {}
  int colors = 3;
  int meeples = 4;
  Rules rules = Ruleset::base();  // the tiles the game deals and the large meeple (core/ruleset.hpp)
  const TileCounts& tiles() const { return rules->tiles(); }
  bool large_meeple() const { return rules->large_meeple(); }
};

class State {
 public:
  // A new game: the start tile (D, or the spring with the river) at (0,0) unrotated,
  // starting scores 1..k, full supplies, stacks of sizes per rules.md ("Set-up") and
  // expansions.md, every non-start tile unseen.
  static State initial(const Config& cfg);

  // --- what a player may know ------------------------------------------------------
  int colors() const { return colors_; }
  int meeples_per_color() const { return meeples_; }
  int to_move() const { return to_move_; }
  int turn() const { return turn_; }
  int score(int c) const { return scores_[c]; }
  int supply(int c) const { return supply_[c]; }  // meeples (not the large meeple)
  bool large_meeple() const { return large_meeple_; }   // the option is on
  int large_supply(int c) const { return large_supply_[c]; }  // 0 or 1
  // Figures in colour c's supply: its meeples and its large meeple (what the forced-meeple
  // rule and the end of the game ask about).
  int figures(int c) const { return supply_[c] + large_supply_[c]; }
  int stack_left(int c) const { return stack_left_[c]; }
  // The river stack (expansions.md): tiles left in it (drawn before any land tile), and
  // the river's open end while it flows (kNoCell when it has none).
  int river_left() const { return river_left_; }
  int river_end() const { return open_end_; }
  // The next draw (expansions.md, "The river"), the rule's one statement: from the river
  // stack (kRiverStack) while it holds tiles, a river type and the lake only as its last;
  // then from the colour to move's stack, a land type. The turn template, the look-ahead's
  // chance nodes, the table and the log's replay ask here.
  int draw_stack() const { return river_left_ > 0 ? kRiverStack : to_move_; }
  DrawTypes draw_types() const {
    if (river_left_ == 0) [[likely]]
      return {0, type_end_ < kFirstRiver ? int(type_end_) : kFirstRiver};
    return river_left_ == 1 ? DrawTypes{kLakeType, kLakeType + 1} : DrawTypes{kFirstRiver, kLakeType};
  }
  DrawRule draw_rule(int type) const {
    if (type < 0 || type >= kTileTypes || unseen_[type] == 0) return DrawRule::none_unseen;
    const DrawTypes d = draw_types();
    if (type >= d.first && type < d.end) return DrawRule::ok;
    if (river_left_ == 0) return DrawRule::river_spent;
    return is_river(type) ? DrawRule::lake_early : DrawRule::land_in_river;
  }
  int start_type() const { return start_type_; }
  // Whether the game deals tile types beyond the base set's (Inns & Cathedrals, the river).
  bool beyond_base() const { return beyond_base_; }
  // One past the last tile type the game deals: loops over the unseen types stop there.
  int type_end() const { return type_end_; }
  int unseen(int type) const { return unseen_[type]; }
  int unseen_total() const;
  int lowest_score() const;
  int tiles_on_board() const { return n_tiles_; }  // including the start tile
  int discards() const { return discards_; }
  bool ended() const { return end_ != EndReason::none; }
  EndReason end_reason() const { return end_; }
  GoalMask goals() const { return goals_; }
  int monasteries_scored() const { return monasteries_scored_; }
  const PlacedTile& tile(int i) const { return tiles_[i]; }
  int open_count() const { return n_open_; }
  const OpenCell& open_cell(int j) const { return open_[j]; }
  // Tile index at (x, y), or kNoTile when the cell is empty.
  int tile_at(int x, int y) const;
  // The same by board index, without the coordinate check: only for cells next to (edge
  // or corner) an open cell, which place() itself reads the same way.
  int tile_near(int cell) const { return cell_[cell] < kMaxTiles ? cell_[cell] : kNoTile; }
  // Feature root of a slot (tile index * 4 + segment) and its record.
  int feature_of(int tile, int seg) const { return slot_[tile * kMaxSegs + seg].feat; }
  const Feature& feature(int root) const { return slot_[root].f; }
  // Slots of the unfinished monasteries (open > 0), in no particular order.
  std::span<const std::uint16_t> unfinished_monasteries() const { return {mon_.data(), n_mon_}; }
  // Distinct tiles in the union of the features with these roots.
  int distinct_tiles(std::span<const std::uint16_t> roots) const;
  // Meeples of colour c still standing on the board (not counting the large meeple).
  int meeples_on_board(int c) const { return meeples_ - supply_[c]; }
  // Figures of colour c on the board: the meeples and the large meeple.
  int figures_on_board(int c) const {
    return meeples_ - supply_[c] + (large_meeple_ && large_supply_[c] == 0);
  }
  // Whether the figure placed with tile i is the large meeple.
  bool large_at(int tile) const { return large_tiles_[std::size_t(tile >> 6)] >> (tile & 63) & 1; }
  // A feature's marks (kMarkInn, kMarkCathedral) and the colours of the large meeples on
  // it, by root.
  std::uint8_t feature_marks(int root) const { return ext_[root].marks; }
  std::uint8_t feature_large(int root) const { return ext_[root].large; }

  // Makes this State equal to `o`, copying only what is in use: the tiles placed, their
  // features and the open cells, and rewriting only the board cells either State uses,
  // less those of the first tiles both hold alike (tiles never change once placed).
  // For look-ahead that copies a State again and again (a plain assignment copies every
  // byte of sizeof(State)). This State must hold a game (from initial(), a copy, or the
  // default constructor, which makes an empty board), not raw memory.
  void copy_from(const State& o);

  // --- rules ------------------------------------------------------------------------
  // All legal (cell, rotation) placements of `type`, in open-cell order and increasing
  // rotation. `out` must hold kMaxPlacements: entries past the returned count may be
  // written too.
  int legal_placements(int type, Placement* out) const;
  int count_placements(int type) const;
  // Free segments (bit s = segment s) if `type` were placed at `p` (rules.md step 2).
  std::uint8_t free_segments(int type, Placement p) const;

  // Turn protocol, driven by core/turn.hpp:
  void draw(int type);                 // the colour to move drew `type` from its stack
  void discard(int type);              // ...and it fits nowhere
  // Places the tile and (when one is forced and the supply allows) the meeple on
  // `meeple_seg`, which must then be a free segment. Returns the number of completed
  // features written to `completed` (roots, in as-found order: the tile's segments, then
  // neighbouring monasteries N, NE, E, SE, S, SW, W, NW). Returns the free mask via `free`.
  // `large`: the figure is the large meeple (Move::large).
  int place(int type, Placement p, int meeple_seg, std::uint16_t* completed,
            std::uint8_t* free, bool large = false);
  ScoreEvent score_feature(int root);  // scores one completed feature, returns meeples
  void end_turn();                     // decides the end, or passes to the next colour
  int final_meeple(int color);         // final scoring of one figure: points gained (0/2)
  void finish();                       // result-based goals after final scoring
  int result() const { return lowest_score(); }
  bool forced_without_meeple() const { return forced_no_meeple_; }

 private:
  friend struct StateTestAccess;  // tests set up positions (scores, supplies, turn order)
  void add_open(int cell, int x, int y, std::uint8_t code_bits);
  int river_placements(int type, Placement* out) const;
  void river_placed(int type, const Placement& p);
  void remove_open(int cell);
  int merge(int a, int b);  // returns the surviving root
  // place()'s parts, in its order (always inlined there: it is the engine's hot path).
  [[gnu::always_inline]] inline void lay_features(int type, int idx);
  [[gnu::always_inline]] inline void join_edges(int idx, const Placement& p, const Oriented& o);
  [[gnu::always_inline]] inline unsigned close_monasteries(int type, int idx, const Placement& p,
                                                           std::array<std::uint16_t, 8>& around);
  [[gnu::always_inline]] inline std::uint8_t put_figure(int idx, int nseg, int meeple_seg, bool large);

  // Per slot (tile * kMaxSegs + segment): its root (union-find), the next slot of its
  // feature (a cycle), and the feature's state (valid at roots). One array, so that
  // copy_from copies one block; first and 64-byte aligned, so that its 16-byte slots (and
  // a tile's four) never straddle a cache line, in any two States.
  struct Slot {
    std::uint16_t feat, next;
    Feature f;
  };
  alignas(64) std::array<Slot, kSlots> slot_;
  // Tile index, kOpenBase + open index, or kEmpty. Only the cells of tiles_[0, n_tiles_)
  // and open_[0, n_open_) are not kEmpty (copy_from relies on it).
  std::array<std::uint16_t, kCells> cell_ = [] {
    std::array<std::uint16_t, kCells> b;
    b.fill(kEmpty);
    return b;
  }();
  std::array<PlacedTile, kMaxTiles> tiles_;
  std::array<OpenCell, kMaxOpen> open_;
  // Per slot, valid at roots: the feature's marks and its large meeples' colours.
  struct Ext {
    std::uint8_t marks, large;
  };
  std::array<Ext, kSlots> ext_;
  // From here to the end: small members, which copy_from copies as one block.
  std::array<std::int16_t, kMaxColors> scores_;
  std::array<std::uint8_t, kMaxColors> supply_;
  std::array<std::uint8_t, kMaxColors> large_supply_;
  std::array<std::uint64_t, 2> large_tiles_;  // bit i: tile i's figure is the large meeple
  std::array<std::uint8_t, kMaxColors> stack_left_;
  std::array<std::uint8_t, kTileTypes> unseen_;
  std::array<std::uint16_t, kMaxMonasteries> mon_;  // slots of unfinished monasteries
  std::uint8_t colors_, meeples_, to_move_, n_tiles_ = 0, n_open_ = 0, discards_, n_mon_;
  std::uint8_t monasteries_scored_;
  std::uint8_t river_left_, flow_, last_turn_, start_type_, type_end_;  // last_turn_: 0 none, 1 left, 2 right
  std::uint16_t open_end_;
  bool large_meeple_, beyond_base_;
  bool forced_no_meeple_;
  EndReason end_;
  GoalMask goals_;
  std::uint16_t turn_;

  static constexpr std::uint16_t kEmpty = 0xFFFF;
  static constexpr std::uint16_t kOpenBase = 128;
  static_assert(kOpenBase >= kMaxTiles && kOpenBase + kMaxOpen < kEmpty);
};

static_assert(std::is_trivially_copyable_v<State>, "look-ahead copies the state");
static_assert(sizeof(State) <= 24 * 1024, "state copy budget: 24 KiB (copy_from copies less)");

}  // namespace carc
