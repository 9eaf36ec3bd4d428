#include "sim/driver/tilesets.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/tiles.hpp"
#include "core/tilesets/builtin.hpp"
#include "policies/value_net.hpp"

namespace carc::sim {
namespace {

std::string where(const tileset::Set& s) {
  std::string w = "line " + std::to_string(s.line);
  if (s.where[0] != '\0') w += ", type " + std::string(s.where.data());
  return w;
}

// The parts joined: the types of each in order (a name in two parts is an error), the
// start tile of the last part that names one, the river's last tile.
tileset::Set join(const std::vector<tileset::Set>& parts, const std::string& name) {
  tileset::Set out;
  for (std::size_t i = 0; i < name.size() && i + 1 < out.name.size(); ++i) out.name[i] = name[i];
  for (const auto& p : parts) {
    for (int t = 0; t < p.ntypes; ++t) {
      if (out.find(p.types[t].name_view()) >= 0)
        throw std::invalid_argument("tile set " + name + ": type " + std::string(p.types[t].name_view()) + " is in two parts");
      if (out.ntypes == tileset::kMaxTypes) throw std::invalid_argument("tile set " + name + ": more than 64 types");
      if (p.start == t) out.start = out.ntypes;
      if (p.last == t) out.last = out.ntypes;
      out.types[out.ntypes++] = p.types[t];
    }
  }
  return out;
}

std::string edges_text(std::uint8_t m) {
  std::string s;
  for (int d = 0; d < 4; ++d)
    if (m >> d & 1) s += std::string(s.empty() ? "" : ",") + kDirName[d];
  return s;
}

}  // namespace

int LoadedTileSet::land_tiles() const {
  int n = set.tiles() - set.river_tiles();
  if (set.start >= 0 && !set.types[set.start].has_water()) --n;
  return n;
}

int LoadedTileSet::river_stack() const {
  const int r = set.river_tiles();
  return r > 0 && set.start >= 0 && set.types[set.start].has_water() ? r - 1 : r;
}

TileCounts LoadedTileSet::counts() const {
  TileCounts tc;
  const auto fail = [&](const std::string& what) { throw std::invalid_argument("tile set " + name + ": " + what); };
  for (int i = 0; i < set.ntypes; ++i) {
    const tileset::Type& x = set.types[i];
    const int t = tile_type(x.name_view());
    const std::string tn(x.name_view());
    if (t == kNoType)
      fail("type " + tn + " is none the engine plays (base A..X, Inns & Cathedrals I1..I17, River R0..R9)");
    const TileDef& d = kTiles[t];
    bool same = x.nseg == d.nseg;
    for (int e = 0; e < 4 && same; ++e)
      same = kTiles[t].edges[e] == (x.edges[e] == tileset::Letter::city    ? kCity
                                    : x.edges[e] == tileset::Letter::road  ? kRoad
                                    : x.edges[e] == tileset::Letter::water ? kWater
                                                                           : kField);
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

bool LoadedTileSet::playable() const {
  try {
    counts();
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::string canonical_text(const tileset::Set& s, bool with_name) {
  std::ostringstream o;
  o << "carcsolo-tiles/1\n";
  if (with_name) o << "name " << s.name.data() << "\n";
  if (s.start >= 0) o << "start " << s.types[s.start].name_view() << "\n";
  if (s.last >= 0) o << "last " << s.types[s.last].name_view() << "\n";
  for (int t = 0; t < s.ntypes; ++t) {
    const tileset::Type& x = s.types[t];
    o << "| " << x.name_view() << " | " << x.count << " | ";
    for (int e = 0; e < 4; ++e) o << (e ? " " : "") << tileset::kLetterName[int(x.edges[e])];
    o << " | ";
    if (x.nseg == 0) o << "\xE2\x80\x94";
    for (int g = 0; g < x.nseg; ++g) {
      const tileset::Segment& seg = x.segs[g];
      if (g) o << "; ";
      o << kind_name(seg.kind);
      if (seg.kind == SegKind::monastery) continue;
      if (seg.pennant) o << "*";
      if (seg.marks & tileset::kInn) o << "[inn]";
      if (seg.marks & tileset::kCathedral) o << "[cathedral]";
      o << " {" << edges_text(seg.edges) << "}";
    }
    o << " |\n";
  }
  return o.str();
}

LoadedTileSet load_tileset(const std::string& spec) {
  LoadedTileSet out;
  std::vector<tileset::Set> parts;
  if (spec == "base" || spec == "base+inns" || spec == "base+river" || spec == "base+inns+river") {
    parts.push_back(tileset::parse(tilesets::kBase));
    if (spec.find("+inns") != std::string::npos) parts.push_back(tileset::parse(tilesets::kInns));
    if (spec.find("+river") != std::string::npos) {
      // With the river the spring is the start tile and D is dealt (expansions.md, decision 9).
      parts.front().start = -1;
      parts.push_back(tileset::parse(tilesets::kRiver));
    }
    for (const auto& p : parts)
      if (!p.ok()) throw std::logic_error("built-in tile set part does not read: " + std::string(p.error));
    out.set = join(parts, spec);
    out.name = spec;
    out.source = "built-in";
  } else {
    std::ifstream in(spec, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad())
      throw std::invalid_argument("tile set " + spec + ": not a built-in set (base, base+inns, base+river, "
                                  "base+inns+river) and cannot be read: " + std::strerror(errno));
    out.set = tileset::parse(text.str());
    if (!out.set.ok()) throw std::invalid_argument("tile set " + spec + ": " + where(out.set) + ": " + std::string(out.set.error));
    out.name = out.set.name.data();
    out.source = "file";
  }
  if (out.set.start < 0) throw std::invalid_argument("tile set " + spec + ": no start tile (a line 'start TYPE')");
  if (out.set.last >= 0 && !out.set.types[out.set.last].has_water())
    throw std::invalid_argument("tile set " + spec + ": 'last' names a type without water (the river's last tile)");
  out.hash = fnv1a64_hex(canonical_text(out.set, false));
  return out;
}

void check_colors(const LoadedTileSet& set, int colors) {
  if (set.land_tiles() < colors)
    throw std::invalid_argument("tile set " + set.name + ": " + std::to_string(set.land_tiles()) +
                                " land tiles to deal, too few for " + std::to_string(colors) +
                                " colours (each draws from a stack of its own)");
}

}  // namespace carc::sim
