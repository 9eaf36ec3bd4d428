#include "sim/driver/tilesets.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/tiles.hpp"
#include "core/tilesets/builtin.hpp"

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

TileCounts LoadedTileSet::counts() const { return Ruleset::from_set(set, source, name, false)->tiles(); }

bool LoadedTileSet::playable() const {
  try {
    counts();
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

LoadedTileSet load_tileset(const std::string& spec) {
  LoadedTileSet out;
  std::vector<tileset::Set> parts;
  if (is_builtin_set(spec)) {
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

bool is_builtin_set(const std::string& name) {
  return name == "base" || name == "base+inns" || name == "base+river" || name == "base+inns+river";
}

Rules load_ruleset(const std::string& spec, bool large_meeple) {
  if (spec == "base" && !large_meeple) return Ruleset::base();
  const LoadedTileSet set = load_tileset(spec);
  return Ruleset::from_set(set.set, set.source, spec, large_meeple);
}

Rules ruleset_from_text(const std::string& text, bool large_meeple) {
  const tileset::Set set = tileset::parse(text);
  if (!set.ok()) throw std::invalid_argument("tile set: " + where(set) + ": " + std::string(set.error));
  return Ruleset::from_set(set, "file", set.name.data(), large_meeple);
}

void check_colors(const Ruleset& rules, int colors) {
  if (rules.land_tiles() < colors)
    throw std::invalid_argument("tile set " + rules.name() + ": " + std::to_string(rules.land_tiles()) +
                                " land tiles to deal, too few for " + std::to_string(colors) +
                                " colours (each draws from a stack of its own)");
}

void check_colors(const LoadedTileSet& set, int colors) {
  if (set.land_tiles() < colors)
    throw std::invalid_argument("tile set " + set.name + ": " + std::to_string(set.land_tiles()) +
                                " land tiles to deal, too few for " + std::to_string(colors) +
                                " colours (each draws from a stack of its own)");
}

}  // namespace carc::sim
