#include "core/state.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace carc {

std::string segment_name(int type, int rot, int seg) {
  const SegDef& d = kTiles[type].segs[seg];
  if (d.kind == SegKind::monastery) return "monastery";
  std::string s = d.kind == SegKind::road ? "road:" : "city:";
  bool first = true;
  const std::uint8_t m = kOriented[type][rot].seg_edges[seg];
  for (int e = 0; e < 4; ++e)
    if (m >> e & 1) {
      if (!first) s += ',';
      s += kDirName[e];
      first = false;
    }
  return s;
}

std::string edge_string(int type, int rot) {
  static constexpr char kLetter[5] = {'?', 'C', 'R', 'F', 'A'};
  std::string s(4, '?');
  for (int d = 0; d < 4; ++d) s[d] = kLetter[kOriented[type][rot].edge[d]];
  return s;
}

State State::initial(const Config& cfg) {
  if (cfg.colors < kMinColors || cfg.colors > kMaxColors)
    throw std::invalid_argument("colors must be 2..6");
  if (cfg.meeples < kMinMeeples || cfg.meeples > kMaxMeeples)
    throw std::invalid_argument("meeples must be 1..12");
  const TileCounts& tc = cfg.tiles();
  if (tc.start != kStartType && tc.start != kSpringType)
    throw std::invalid_argument("the start tile is D or, with the river, R0");
  if (tc.count[tc.start] == 0) throw std::invalid_argument("the tile set holds no start tile");
  if (tc.river() && tc.count[kLakeType] != 1)
    throw std::invalid_argument("the river needs its lake R9, once");
  for (int t = kFirstRiver; t < kTileTypes; ++t)
    if (tc.count[t] && !tc.river()) throw std::invalid_argument("river tiles need the spring R0 as the start tile");
  if (tc.land() < cfg.colors)
    throw std::invalid_argument("the tile set deals fewer land tiles than colours");
  State s;  // an empty board
  s.scores_.fill(0);
  s.supply_.fill(0);
  s.large_supply_.fill(0);
  s.large_tiles_.fill(0);
  s.large_meeple_ = cfg.large_meeple();
  s.beyond_base_ = false;
  s.type_end_ = 0;
  for (int t = 0; t < kTileTypes; ++t)
    if (tc.count[t] > 0) s.type_end_ = std::uint8_t(t + 1);
  s.beyond_base_ = s.type_end_ > kBaseTypes;
  s.start_type_ = tc.start;
  s.river_left_ = std::uint8_t(tc.river_stack());
  s.open_end_ = kNoCell;
  s.flow_ = 0;
  s.last_turn_ = 0;
  s.stack_left_.fill(0);
  s.colors_ = std::uint8_t(cfg.colors);
  s.meeples_ = std::uint8_t(cfg.meeples);
  s.to_move_ = 0;
  s.n_tiles_ = 0;
  s.n_open_ = 0;
  s.n_mon_ = 0;
  s.discards_ = 0;
  s.monasteries_scored_ = 0;
  s.forced_no_meeple_ = false;
  s.end_ = EndReason::none;
  s.goals_ = 0;
  s.turn_ = 0;
  for (int c = 0; c < cfg.colors; ++c) {
    s.scores_[c] = std::int16_t(c + 1);
    s.supply_[c] = std::uint8_t(cfg.meeples);
    s.large_supply_[c] = cfg.large_meeple() ? 1 : 0;
  }
  const int deal = tc.land();
  for (int c = 0; c < cfg.colors; ++c)
    s.stack_left_[c] = std::uint8_t(deal / cfg.colors + (c < deal % cfg.colors ? 1 : 0));
  for (int t = 0; t < kTileTypes; ++t)
    s.unseen_[t] = std::uint8_t(tc.count[t] - (t == tc.start ? 1 : 0));
  // The start tile: placed like any tile, with no meeple and no scoring.
  s.add_open(cell_of(0, 0), 0, 0, 0);
  std::uint16_t completed[kMaxCompleted];
  std::uint8_t free_mask;
  s.place(tc.start, Placement{std::uint16_t(cell_of(0, 0)), 0, 0, 0}, Move::kNoMeeple,
          completed, &free_mask);
  return s;
}

namespace {
// Copies elements [first, end) of src, in 32-byte blocks of constant size (inlined moves,
// not a library call: for the short tile and open-cell lists the call's fixed cost
// dominated). The last block may copy a few elements beyond `end`: they are unused in
// both States.
template <class T, std::size_t N>
void copy_range(std::array<T, N>& dst, const std::array<T, N>& src, std::size_t first,
                std::size_t end) {
  static_assert(std::is_trivially_copyable_v<T>);
  constexpr std::size_t kBlock = 32, kSize = sizeof(T) * N;
  auto* d = reinterpret_cast<unsigned char*>(dst.data());
  const auto* s = reinterpret_cast<const unsigned char*>(src.data());
  const std::size_t bytes = sizeof(T) * end;
  std::size_t i = sizeof(T) * first;
  for (; i < bytes && i + kBlock <= kSize; i += kBlock) std::memcpy(d + i, s + i, kBlock);
  for (; i < bytes; ++i) d[i] = s[i];
}

// How many of the first n tiles of a and b are equal, in order; compared as 8-byte words,
// two tiles a step while they agree.
static_assert(sizeof(PlacedTile) == 8 && std::has_unique_object_representations_v<PlacedTile>);
int shared_tiles(const PlacedTile* a, const PlacedTile* b, int n) {
  int i = 0;
  for (; i + 2 <= n; i += 2) {
    std::uint64_t x[2], y[2];
    std::memcpy(x, a + i, sizeof x);
    std::memcpy(y, b + i, sizeof y);
    if (((x[0] ^ y[0]) | (x[1] ^ y[1])) != 0) break;
  }
  for (; i < n; ++i) {  // at most two: the pair that differed, or the last tile
    std::uint64_t x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    if (x != y) break;
  }
  return i;
}
}  // namespace

void State::copy_from(const State& o) {
  if (this == &o) return;
  // Tiles never change once placed: the first tiles both States hold alike (a look-ahead
  // copying its root again, a later State of the same game) have their cells set already
  // and need no copy. Of the other cells, this State's are emptied, then o's written (the
  // lists are short). The counts are read once: stores through cell_ (bytes) could alias
  // them.
  const int mine = n_tiles_, mine_open = n_open_, theirs = o.n_tiles_, theirs_open = o.n_open_;
  const int same = shared_tiles(tiles_.data(), o.tiles_.data(), std::min(mine, theirs));
  for (int i = same; i < mine; ++i) cell_[tiles_[i].cell] = kEmpty;
  for (int j = 0; j < mine_open; ++j) cell_[open_[j].cell] = kEmpty;
  for (int i = same; i < theirs; ++i) cell_[o.tiles_[i].cell] = std::uint16_t(i);
  for (int j = 0; j < theirs_open; ++j) cell_[o.open_[j].cell] = std::uint16_t(kOpenBase + j);
  // The tiles, the open cells, and the tiles' slots with their features: the used
  // prefixes. The slots (64 bytes a tile) by the library's memcpy, which moves them in the
  // processor's widest vectors (chosen at run time).
  copy_range(tiles_, o.tiles_, std::size_t(same), std::size_t(theirs));
  copy_range(open_, o.open_, 0, std::size_t(theirs_open));
  std::memcpy(static_cast<void*>(slot_.data()), o.slot_.data(),
              std::size_t(theirs) * kMaxSegs * sizeof(Slot));
  std::memcpy(static_cast<void*>(ext_.data()), o.ext_.data(),
              std::size_t(theirs) * kMaxSegs * sizeof(Ext));
  // Everything else is small and at the end of the object.
  std::memcpy(static_cast<void*>(&scores_), &o.scores_, sizeof(State) - offsetof(State, scores_));
}

int State::unseen_total() const {
  int n = 0;
  for (int t = 0; t < type_end_; ++t) n += unseen_[t];
  return n;
}

int State::lowest_score() const {
  int low = scores_[0];
  for (int c = 1; c < colors_; ++c) low = std::min<int>(low, scores_[c]);
  return low;
}

int State::tile_at(int x, int y) const {
  const std::uint16_t v = cell_[cell_of(x, y)];
  if (v >= kMaxTiles) return kNoTile;
  // The index is alias-free only within reach of the board; confirm the coordinates.
  return (tiles_[v].x == x && tiles_[v].y == y) ? v : kNoTile;
}

int State::distinct_tiles(std::span<const std::uint16_t> roots) const {
  static_assert(kMaxTiles <= 128);
  std::array<std::uint64_t, 2> seen{};
  for (const std::uint16_t root : roots) {
    int s = root;
    do {
      const int t = s / kMaxSegs;
      seen[std::size_t(t >> 6)] |= std::uint64_t(1) << (t & 63);
      s = slot_[s].next;
    } while (s != root);
  }
  return std::popcount(seen[0]) + std::popcount(seen[1]);
}

namespace {
// `a` when `c`, else `b`, computed without a branch: for choices the branch predictor
// cannot guess (the compiler turns a ?: into a jump more often than not).
constexpr int pick(bool c, int a, int b) {
  const int m = -int(c);
  return (a & m) | (b & ~m);
}

// The rotations in a 4-bit rotation mask, in increasing order, and how many there are.
struct Rotations {
  std::array<std::uint8_t, 4> rot;
  std::uint8_t count;
};
constexpr auto kRotations = [] {
  std::array<Rotations, 16> t{};
  for (int m = 0; m < 16; ++m)
    for (int r = 0; r < 4; ++r)
      if (m >> r & 1) t[m].rot[t[m].count++] = std::uint8_t(r);
  return t;
}();
}  // namespace

int State::legal_placements(int type, Placement* out) const {
  if (is_river(type)) [[unlikely]]
    return river_placements(type, out);
  // Whether a rotation fits is a coin flip to the branch predictor, so there is no branch:
  // every open cell writes four entries (its fitting rotations first) and the count
  // advances by the number that fit. Stays within 4 * open_count() <= kMaxPlacements.
  int n = 0;
  for (int j = 0; j < n_open_; ++j) {
    const OpenCell& o = open_[j];
    const Rotations& r = kRotations[kFits[o.code][type]];
    for (int k = 0; k < 4; ++k) out[n + k] = Placement{o.cell, o.x, o.y, r.rot[k]};
    n += r.count;
  }
  return n;
}

int State::count_placements(int type) const {
  if (is_river(type)) [[unlikely]] {
    std::array<Placement, 4> buf;
    return river_placements(type, buf.data());
  }
  int n = 0;
  for (int j = 0; j < n_open_; ++j) n += std::popcount(kFits[open_[j].code][type]);
  return n;
}

std::uint8_t State::free_segments(int type, Placement p) const {
  // First the edges that face a feature with a meeple, then the segments touching none of
  // them (a monastery touches no edge). Branch-free: an edge without a tile behind it, or
  // a field edge, reads a harmless slot (tile 0, slot 3) and is masked out.
  const Oriented& o = kOriented[type][p.rot];
  unsigned taken = 0;
  for (int d = 0; d < 4; ++d) {
    const std::uint16_t v = cell_[step(p.cell, d)];
    const bool tile = v < kMaxTiles;
    const int t = pick(tile, v, 0);
    const PlacedTile& u = tiles_[t];
    const int us = kOriented[u.type][u.rot].seg[opposite(d)] & 3;
    const bool meeple = slot_[slot_[t * kMaxSegs + us].feat].f.meeple_total != 0;
    taken |= unsigned(tile && o.seg[d] >= 0 && meeple) << d;
  }
  std::uint8_t mask = 0;
  for (int s = 0; s < kMaxSegs; ++s) mask |= std::uint8_t(((o.seg_edges[s] & taken) == 0) << s);
  return std::uint8_t(mask & ((1u << kTiles[type].nseg) - 1));
}

void State::draw(int type) {
  assert(draw_rule(type) == DrawRule::ok);
  if (river_left_ > 0) [[unlikely]] {
    --river_left_;
  } else {
    assert(stack_left_[to_move_] > 0);
    --stack_left_[to_move_];
  }
  --unseen_[type];
}

namespace {
// Per river type and rotation: the board directions of its water edges (a bit each).
constexpr auto kWaterDirs = [] {
  std::array<std::array<std::uint8_t, 4>, kTileTypes> w{};
  for (int t = 0; t < kTileTypes; ++t)
    for (int r = 0; r < 4; ++r)
      for (int d = 0; d < 4; ++d)
        if (kOriented[t][r].edge[d] == kWater) w[t][r] |= std::uint8_t(1u << d);
  return w;
}();
constexpr int kLeft = 1, kRight = 2;
}  // namespace

// A river tile goes at the open end, a water edge against it (expansions.md, "Laying the
// river"): its other water edge, if any, is the new open end. A curve turns left or right
// of the flow, never the way the previous curve turned (no U-turn).
int State::river_placements(int type, Placement* out) const {
  if (open_end_ == kNoCell) return 0;
  const std::uint16_t v = cell_[open_end_];
  assert(v >= kOpenBase && v != kEmpty);
  const OpenCell& oc = open_[v - kOpenBase];
  const int back = opposite(flow_);
  int n = 0;
  for (int r = 0; r < 4; ++r) {
    const std::uint8_t w = kWaterDirs[type][r];
    if (!(w >> back & 1)) continue;
    bool fits = true;  // the land edges against the cell's other neighbours
    for (int d = 0; d < 4; ++d) {
      const std::uint8_t need = code_edge(oc.code, d);
      if (d != back && need != kNone && need != kOriented[type][r].edge[d]) fits = false;
    }
    if (!fits) continue;
    const std::uint8_t exit = std::uint8_t(w & ~(1u << back));
    if (exit != 0 && exit != (1u << flow_)) {
      const int turn = exit == (1u << ((flow_ + 3) & 3)) ? kLeft : kRight;
      if (turn == last_turn_) continue;
    }
    out[n++] = Placement{oc.cell, oc.x, oc.y, std::uint8_t(r)};
  }
  return n;
}

void State::river_placed(int type, const Placement& p) {
  const std::uint8_t w = kWaterDirs[type][p.rot];
  const std::uint8_t exit =
      open_end_ == kNoCell ? w : std::uint8_t(w & ~(1u << opposite(flow_)));  // the spring: its one water edge
  if (exit == 0) {  // the lake
    open_end_ = kNoCell;
    return;
  }
  const int e = std::countr_zero(unsigned(exit));
  if (open_end_ != kNoCell && e != flow_) last_turn_ = std::uint8_t(e == ((flow_ + 3) & 3) ? kLeft : kRight);
  flow_ = std::uint8_t(e);
  open_end_ = std::uint16_t(step(p.cell, e));
}

void State::discard(int) { ++discards_; }

// New and already open cells take one path (whether a neighbour is already open is not
// predictable): a new cell is appended with an empty code, an open one rewritten in place.
void State::add_open(int cell, int x, int y, std::uint8_t code_bits) {
  const std::uint16_t v = cell_[cell];
  assert(v == kEmpty || v >= kOpenBase);
  const bool fresh = v == kEmpty;
  assert(!fresh || n_open_ < kMaxOpen);
  const int j = pick(fresh, n_open_, v - kOpenBase);
  const std::uint8_t code = std::uint8_t(pick(fresh, 0, open_[j].code));
  open_[j] = OpenCell{std::uint16_t(cell), std::int8_t(x), std::int8_t(y),
                      std::uint8_t(code | code_bits)};
  cell_[cell] = std::uint16_t(kOpenBase + j);
  n_open_ = std::uint8_t(n_open_ + fresh);
}

// Moves the last open cell into the removed one's place. Without a branch for "it was the
// last": then cell_[cell] is left pointing at a stale entry, which place() overwrites.
void State::remove_open(int cell) {
  const int j = cell_[cell] - kOpenBase;
  assert(j >= 0 && j < n_open_);
  --n_open_;
  open_[j] = open_[n_open_];
  cell_[open_[j].cell] = std::uint16_t(kOpenBase + j);
}

int State::merge(int a, int b) {
  int ra = slot_[a].feat, rb = slot_[b].feat;
  if (ra == rb) return ra;
  if (slot_[ra].f.size < slot_[rb].f.size) std::swap(ra, rb);  // ra survives
  // Tiles present in both features would be counted twice: find them.
  int dup = 0;
  int s = rb;
  do {
    const int u = s / kMaxSegs, seg = s % kMaxSegs;
    const int nseg = kTiles[tiles_[u].type].nseg;
    bool in_a = false, earlier_in_b = false;
    for (int j = 0; j < nseg; ++j) {
      const int f = slot_[u * kMaxSegs + j].feat;
      if (f == ra) in_a = true;
      if (f == rb && j < seg) earlier_in_b = true;
    }
    if (in_a && !earlier_in_b) ++dup;
    s = slot_[s].next;
  } while (s != rb);
  s = rb;
  do {
    slot_[s].feat = std::uint16_t(ra);
    s = slot_[s].next;
  } while (s != rb);
  std::swap(slot_[ra].next, slot_[rb].next);
  ext_[ra].marks |= ext_[rb].marks;
  ext_[ra].large |= ext_[rb].large;
  Feature& fa = slot_[ra].f;
  const Feature& fb = slot_[rb].f;
  fa.tiles = std::uint8_t(fa.tiles + fb.tiles - dup);
  fa.open = std::uint8_t(fa.open + fb.open);
  fa.pennants = std::uint8_t(fa.pennants + fb.pennants);
  fa.meeple_total = std::uint8_t(fa.meeple_total + fb.meeple_total);
  for (int c = 0; c < kMaxColors; ++c) fa.meeples[c] = std::uint8_t(fa.meeples[c] + fb.meeples[c]);
  fa.size = std::uint8_t(fa.size + fb.size);
  return ra;
}

namespace {
// A placed tile's features before it joins its neighbours, per type and segment slot.
constexpr auto kFreshFeatures = [] {
  std::array<std::array<Feature, kMaxSegs>, kTileTypes> t{};
  for (int type = 0; type < kTileTypes; ++type)
    for (int s = 0; s < kMaxSegs; ++s) {
      const bool used = s < kTiles[type].nseg;
      Feature& f = t[type][s];
      f.kind = used ? kTiles[type].segs[s].kind : SegKind::road;
      f.tiles = 1;
      f.open = used ? 0 : 1;
      f.pennants = used && kTiles[type].segs[s].pennant ? 1 : 0;
      f.size = 1;
    }
  return t;
}();
// The marks of each type's segments.
constexpr auto kSegMarks = [] {
  std::array<std::array<std::uint8_t, kMaxSegs>, kTileTypes> t{};
  for (int type = 0; type < kTileTypes; ++type)
    for (int s = 0; s < kTiles[type].nseg; ++s) t[type][s] = kTiles[type].segs[s].marks;
  return t;
}();

// kStepDir[dy + 1][dx + 1]: the step() direction of the neighbour at offset (dx, dy).
constexpr auto kStepDir = [] {
  std::array<std::array<std::uint8_t, 3>, 3> t{};
  for (int d = 0; d < 8; ++d) t[kDy[d] + 1][kDx[d] + 1] = std::uint8_t(d);
  return t;
}();
}  // namespace

// All kMaxSegs slots of tile idx are set from the type's template, the unused ones too
// (open 1, so they never complete): the loops over segments have a fixed length.
void State::lay_features(int type, int idx) {
  const int base = idx * kMaxSegs;
  for (int s = 0; s < kMaxSegs; ++s) {
    slot_[base + s].feat = std::uint16_t(base + s);
    slot_[base + s].next = std::uint16_t(base + s);
    slot_[base + s].f = kFreshFeatures[type][s];
    ext_[base + s] = Ext{kSegMarks[type][s], 0};
  }
}

// Edges of tile idx placed at p: join neighbouring features, or open new cells.
void State::join_edges(int idx, const Placement& p, const Oriented& o) {
  const int base = idx * kMaxSegs;
  for (int d = 0; d < 4; ++d) {
    const int nc = step(p.cell, d);
    const std::uint16_t v = cell_[nc];
    const int s = o.seg[d];
    if (v < kMaxTiles) {
      if (s == kNoSeg) continue;
      const PlacedTile& u = tiles_[v];
      const int us = kOriented[u.type][u.rot].seg[opposite(d)];
      assert(us != kNoSeg);
      const int root = merge(base + s, v * kMaxSegs + us);
      --slot_[root].f.open;  // the neighbour's edge is closed now
    } else {
      slot_[slot_[base + (s & 3)].feat].f.open += s >= 0;  // a field edge (s == kNoSeg) adds nothing
      add_open(nc, p.x + kDx[d], p.y + kDy[d],  // a water edge leaves no code (kWater & 3)
               std::uint8_t((o.edge[d] & 3) << (2 * opposite(d))));
    }
  }
}

// Monasteries around tile idx of `type` placed at p: only unfinished ones can change, and
// there are few. Those it completes go to around[d] (d their step direction from p) and
// their bits are returned; the tile's own monastery counts the empty cells around it.
unsigned State::close_monasteries(int type, int idx, const Placement& p, std::array<std::uint16_t, 8>& around) {
  unsigned around_done = 0;  // bit d: around[d] was completed
  for (int i = 0; i < n_mon_;) {
    const int slot = mon_[i];
    const PlacedTile& m = tiles_[slot / kMaxSegs];
    const int dx = m.x - p.x, dy = m.y - p.y;
    if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && --slot_[slot].f.open == 0) {
      const int d = kStepDir[dy + 1][dx + 1];
      around[d] = std::uint16_t(slot);
      around_done |= 1u << d;
      mon_[i] = mon_[--n_mon_];
      continue;
    }
    ++i;
  }
  const int own_mon = kMonasterySeg[type];
  if (own_mon >= 0) {
    const int base = idx * kMaxSegs;
    int empty = 0;
    for (int d = 0; d < 8; ++d) empty += cell_[step(p.cell, d)] >= kMaxTiles;
    slot_[base + own_mon].f.open = std::uint8_t(empty);
    if (empty > 0) mon_[n_mon_++] = std::uint16_t(base + own_mon);
  }
  return around_done;
}

// The meeple (rules.md step 2) on segment meeple_seg of tile idx, of `nseg` segments, when
// the colour to move has a figure and a segment is free. A monastery is a feature of its
// own, free. Returns the free segments.
std::uint8_t State::put_figure(int idx, int nseg, int meeple_seg, bool large) {
  const int base = idx * kMaxSegs;
  std::uint8_t free_mask = 0;
  for (int s = 0; s < kMaxSegs; ++s)
    free_mask |= std::uint8_t((slot_[slot_[base + s].feat].f.meeple_total == 0) << s);
  free_mask &= std::uint8_t((1u << nseg) - 1);
  if (idx == 0) free_mask = 0;  // the start tile carries no meeple
  if (!free_mask) return free_mask;
  const int c = to_move_;
  const bool has_meeple = supply_[c] != 0, has_large = large_supply_[c] != 0;
  if (!has_meeple && !has_large) {
    forced_no_meeple_ = true;
    return free_mask;
  }
  if (meeple_seg < 0 || meeple_seg >= nseg || !(free_mask >> meeple_seg & 1))
    throw std::logic_error("policy chose a meeple segment that is not free");
  if (large && !has_large) throw std::logic_error("policy chose a large meeple not in supply");
  const int root = slot_[base + meeple_seg].feat;
  Feature& f = slot_[root].f;
  if (has_large && (large || !has_meeple)) [[unlikely]] {  // weighs 2 in majorities
    f.meeples[c] = std::uint8_t(f.meeples[c] + 2);
    f.meeple_total = std::uint8_t(f.meeple_total + 2);
    --large_supply_[c];
    ext_[root].large = std::uint8_t(ext_[root].large | 1u << c);
    large_tiles_[std::size_t(idx >> 6)] |= std::uint64_t(1) << (idx & 63);
  } else {
    ++f.meeples[c];
    ++f.meeple_total;
    --supply_[c];
  }
  tiles_[idx].meeple_seg = std::uint8_t(meeple_seg);
  tiles_[idx].meeple_color = std::uint8_t(c);
  return free_mask;
}

int State::place(int type, Placement p, int meeple_seg, std::uint16_t* completed,
                 std::uint8_t* free_out, bool large) {
  assert(cell_[p.cell] >= kOpenBase && cell_[p.cell] != kEmpty);
  assert(is_river(type) || kFits[open_[cell_[p.cell] - kOpenBase].code][type] >> p.rot & 1);
  const int idx = n_tiles_++;
  const Oriented& o = kOriented[type][p.rot];
  tiles_[idx] = PlacedTile{p.cell, p.x, p.y, std::uint8_t(type), p.rot, kNoSegment, kNoColor};
  remove_open(p.cell);
  cell_[p.cell] = std::uint16_t(idx);
  if (is_river(type)) [[unlikely]]
    river_placed(type, p);
  lay_features(type, idx);
  join_edges(idx, p, o);
  // Monasteries this tile completes are reported in step order (N, E, S, W, NE, SE, SW, NW).
  std::array<std::uint16_t, 8> around;
  unsigned around_done = close_monasteries(type, idx, p, around);
  *free_out = put_figure(idx, kTiles[type].nseg, meeple_seg, large);

  // Completed features, as found.
  const int base = idx * kMaxSegs;
  int n_done = 0;
  for (int s = 0; s < kMaxSegs; ++s) {
    const int root = slot_[base + s].feat;
    if (slot_[root].f.open != 0) continue;
    bool seen = false;
    for (int i = 0; i < n_done; ++i) seen |= completed[i] == root;
    if (!seen) completed[n_done++] = std::uint16_t(root);
  }
  for (; around_done; around_done &= around_done - 1)
    completed[n_done++] = around[std::size_t(std::countr_zero(around_done))];
  if (idx == 0) n_done = 0;
  return n_done;
}

ScoreEvent State::score_feature(int root) {
  Feature& f = slot_[root].f;
  assert(f.open == 0);
  ScoreEvent e{};
  e.kind = f.kind;
  e.tiles = f.kind == SegKind::monastery ? 9 : f.tiles;
  e.pennants = f.pennants;
  e.marks = ext_[root].marks;
  e.large = ext_[root].large;
  e.points = std::int16_t(feature_points(f.kind, e.tiles, e.pennants, e.marks));
  e.meeples = f.meeples;
  int most = 0;
  for (int c = 0; c < colors_; ++c) most = std::max<int>(most, f.meeples[c]);
  const int low = lowest_score();
  e.low_before = std::int16_t(low);
  bool low_in_majority = false;
  for (int c = 0; c < colors_; ++c)
    if (most > 0 && f.meeples[c] == most) {
      e.majority |= std::uint8_t(1u << c);
      low_in_majority |= scores_[c] == low;
    }
  if (low_in_majority) {
    e.awarded = e.majority;
    for (int c = 0; c < colors_; ++c)
      if (e.awarded >> c & 1) scores_[c] = std::int16_t(scores_[c] + e.points);
  }
  for (int c = 0; c < colors_; ++c) {
    const int big = e.large >> c & 1;  // the large meeple weighs 2 and returns on its own
    supply_[c] = std::uint8_t(supply_[c] + f.meeples[c] - 2 * big);
    large_supply_[c] = std::uint8_t(large_supply_[c] + big);
  }
  f.meeples.fill(0);
  f.meeple_total = 0;
  ext_[root].large = 0;

  const int n_awarded = std::popcount(e.awarded);
  if (n_awarded > 0) {
    if (e.kind == SegKind::road) {
      if (e.points >= 10) {
        goals_ |= goal_bit(Goal::road_10);
        if (n_awarded >= 2) goals_ |= goal_bit(Goal::road_10_2c);
        if (n_awarded >= 3) goals_ |= goal_bit(Goal::road_10_3c);
      }
      if (e.points == 5 && n_awarded >= 3) goals_ |= goal_bit(Goal::road_5_3c);
    } else if (e.kind == SegKind::city) {
      if (e.points >= 16) {
        goals_ |= goal_bit(Goal::city_16);
        if (n_awarded >= 2) goals_ |= goal_bit(Goal::city_16_2c);
        if (n_awarded >= 3) goals_ |= goal_bit(Goal::city_16_3c);
      }
      if (e.points >= 8 && e.points <= 10 && n_awarded >= 3)
        goals_ |= goal_bit(Goal::city_8_10_3c);
    } else {
      ++monasteries_scored_;
      if (monasteries_scored_ >= 3) goals_ |= goal_bit(Goal::monastery_3);
      if (monasteries_scored_ >= 4) goals_ |= goal_bit(Goal::monastery_4);
    }
  }
  return e;
}

void State::end_turn() {
  ++turn_;
  bool all_empty = river_left_ == 0;
  for (int c = 0; c < colors_; ++c) all_empty &= stack_left_[c] == 0;
  if (all_empty) {
    end_ = EndReason::tiles_exhausted;  // also when a meeple was forced and missing
    return;
  }
  if (forced_no_meeple_) {
    end_ = EndReason::no_meeple;
    return;
  }
  int c = to_move_;
  do c = (c + 1) % colors_;
  while (stack_left_[c] == 0);
  to_move_ = std::uint8_t(c);
}

int State::final_meeple(int color) {
  assert(ended());
  if (scores_[color] != lowest_score()) return 0;
  scores_[color] = std::int16_t(scores_[color] + 2);
  return 2;
}

void State::finish() {
  const int r = lowest_score();
  if (r >= 40) goals_ |= goal_bit(Goal::total_40);
  if (r >= 50) goals_ |= goal_bit(Goal::total_50);
  if (r >= 60) goals_ |= goal_bit(Goal::total_60);
  if (end_ == EndReason::tiles_exhausted) goals_ |= goal_bit(Goal::all_tiles);
}

}  // namespace carc
