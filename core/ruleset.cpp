#include "core/ruleset.hpp"

#include <stdexcept>

#include "core/tilesets/builtin.hpp"

namespace carc {
namespace {

std::string edges_text(std::uint8_t m) {
  std::string s;
  for (int d = 0; d < 4; ++d)
    if (m >> d & 1) {
      if (!s.empty()) s += ',';
      s += kDirName[d];
    }
  return s;
}

// The engine's edge letter of a set's.
int edge_code(tileset::Letter e) {
  switch (e) {
    case tileset::Letter::city: return kCity;
    case tileset::Letter::road: return kRoad;
    case tileset::Letter::water: return kWater;
    case tileset::Letter::field: break;
  }
  return kField;
}

// The set's counts as the engine deals them; throws with one line naming what is wrong.
TileCounts counts_of(const tileset::Set& set) {
  const std::string name = set.name.data();
  const auto fail = [&](const std::string& what) { throw std::invalid_argument("tile set " + name + ": " + what); };
  if (set.start < 0) fail("no start tile (a line 'start TYPE')");
  if (set.last >= 0 && !set.types[set.last].has_water())
    fail("'last' names a type without water (the river's last tile)");
  TileCounts tc;
  for (int i = 0; i < set.ntypes; ++i) {
    const tileset::Type& x = set.types[i];
    const int t = tile_type(x.name_view());
    const std::string tn(x.name_view());
    if (t == kNoType)
      fail("type " + tn + " is none the engine plays (base A..X, Inns & Cathedrals I1..I17, River R0..R9)");
    const TileDef& d = kTiles[t];
    bool same = x.nseg == d.nseg;
    for (int e = 0; e < 4 && same; ++e) same = d.edges[e] == edge_code(x.edges[e]);
    for (int g = 0; g < x.nseg && same; ++g)
      same = x.segs[g].kind == d.segs[g].kind && x.segs[g].edges == d.segs[g].edges &&
             x.segs[g].pennant == d.segs[g].pennant && x.segs[g].marks == d.segs[g].marks;
    if (!same) fail("type " + tn + " differs from the engine's " + tn + " (the engine plays its built-in types; a set may change their counts)");
    if (x.count > 200) fail("type " + tn + ": more than 200 tiles");
    tc.count[std::size_t(t)] = std::uint8_t(x.count);
  }
  const int start = tile_type(set.types[set.start].name_view());
  if (start != kStartType && start != kSpringType) fail("the start tile must be D, or R0 with the river");
  tc.start = std::uint8_t(start);
  for (int t = kFirstRiver; t < kTileTypes; ++t)
    if (tc.count[std::size_t(t)] && !tc.river()) fail("river tiles need the spring R0 as the start tile");
  if (tc.river()) {
    if (tc.count[kSpringType] != 1) fail("the river has one spring R0");
    if (tc.count[kLakeType] != 1) fail("the river needs its lake R9, once");
    if (set.last < 0 || tile_type(set.types[set.last].name_view()) != kLakeType) fail("the river's last tile must be R9 (a line 'last R9')");
  }
  int total = 0;
  for (int t = 0; t < kTileTypes; ++t) total += tc.count[std::size_t(t)];
  if (total > kMaxTiles) fail(std::to_string(total) + " tiles: the engine plays at most " + std::to_string(kMaxTiles));
  return tc;
}

}  // namespace

Rules Ruleset::from_set(const tileset::Set& set, std::string source, std::string spec, bool large_meeple) {
  Data d;
  d.tiles = counts_of(set);
  d.name = set.name.data();
  d.source = std::move(source);
  d.spec = std::move(spec);
  d.text = canonical_text(set, true);
  d.hash = fnv1a64_hex(canonical_text(set, false));
  d.large_meeple = large_meeple;
  return std::make_shared<const Ruleset>(std::move(d));
}

const Rules& Ruleset::base() {
  static const Rules rules = [] {
    const tileset::Set set = tileset::parse(tilesets::kBase);
    if (!set.ok()) throw std::logic_error("the built-in base set does not read");
    return from_set(set, "built-in", "base", false);
  }();
  return rules;
}

Rules Ruleset::recorded(const std::string& name, const std::string& hash, bool large_meeple) {
  Data d;
  d.name = name;
  d.spec = name;
  d.hash = hash;
  d.large_meeple = large_meeple;
  // A base game's file records no hash (nor any other field of the expansions): its set is
  // the base set. A set of its own named base records its hash, and is not the base set.
  if (name == "base" && (hash.empty() || hash == base()->hash())) {
    d.tiles = kBaseCounts;
    d.hash = base()->hash();
  } else {
    d.source = "recorded";
    d.tiles = TileCounts{};
  }
  return std::make_shared<const Ruleset>(std::move(d));
}

Rules Ruleset::with_large_meeple(bool on) const {
  Data d = d_;
  d.large_meeple = on;
  return std::make_shared<const Ruleset>(std::move(d));
}

std::string canonical_text(const tileset::Set& s, bool with_name) {
  std::string o = "carcsolo-tiles/1\n";
  if (with_name) o += "name " + std::string(s.name.data()) + "\n";
  if (s.start >= 0) o += "start " + std::string(s.types[s.start].name_view()) + "\n";
  if (s.last >= 0) o += "last " + std::string(s.types[s.last].name_view()) + "\n";
  for (int t = 0; t < s.ntypes; ++t) {
    const tileset::Type& x = s.types[t];
    o += "| " + std::string(x.name_view()) + " | " + std::to_string(x.count) + " | ";
    for (int e = 0; e < 4; ++e) {
      if (e) o += ' ';
      o += tileset::kLetterName[int(x.edges[e])];
    }
    o += " | ";
    if (x.nseg == 0) o += "\xE2\x80\x94";
    for (int g = 0; g < x.nseg; ++g) {
      const tileset::Segment& seg = x.segs[g];
      if (g) o += "; ";
      o += kind_name(seg.kind);
      if (seg.kind == SegKind::monastery) continue;
      if (seg.pennant) o += '*';
      if (seg.marks & tileset::kInn) o += "[inn]";
      if (seg.marks & tileset::kCathedral) o += "[cathedral]";
      o += " {" + edges_text(seg.edges) + "}";
    }
    o += " |\n";
  }
  return o;
}

std::string fnv1a64_hex(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= std::uint8_t(c);
    h *= 0x100000001b3ULL;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) s[std::size_t(i)] = kHex[h & 15];
  return s;
}

}  // namespace carc
