// Tile sets by name or from a file (the format: core/tileset.hpp, docs/tileset-format.md):
// the names the expansions' rules give (`base`, `base+inns`, `base+river`,
// `base+inns+river`) are the built-in sets joined; anything else is a file's path.
#pragma once
#include <string>

#include "core/ruleset.hpp"
#include "core/tiles.hpp"
#include "core/tileset.hpp"

namespace carc::sim {

struct LoadedTileSet {
  std::string name;    // as recorded: the built-in combination's name, or the file's `name`
  std::string source;  // "built-in" or "file"
  std::string hash;    // FNV-1a 64 of the canonical text (16 hex digits)
  tileset::Set set;    // the types of every part, in order; start and last from the parts

  int river_tiles() const { return set.river_tiles(); }
  // Tiles dealt to the colours' stacks: every tile but the river's and the start tile.
  int land_tiles() const;
  // The river stack: the river tiles but the start tile (the spring), 0 without a river.
  int river_stack() const;
  // The set as the engine deals it (core/tiles.hpp): every type must be one of the
  // engine's (the base game's, Inns & Cathedrals', The River's) by name, defined as the
  // built-in data defines it; the counts are the set's. Throws std::invalid_argument with
  // one line naming the type otherwise.
  TileCounts counts() const;
  // Whether the engine plays this set (counts() does not throw).
  bool playable() const;
};

// The names of the built-in sets (expansions.md): base, base+inns, base+river, base+inns+river.
bool is_builtin_set(const std::string& name);

// `spec`: a built-in name or a path. Throws std::invalid_argument with one line for an
// unknown name, a file that cannot be read, or a text that is not a valid set (the line
// and the type named).
LoadedTileSet load_tileset(const std::string& spec);

// The rules of a game of the set `spec` (a built-in name or a path), with the large meeple
// or without: read, checked and made once (core/ruleset.hpp). Throws std::invalid_argument
// with one line, as load_tileset and Ruleset::from_set do.
Rules load_ruleset(const std::string& spec, bool large_meeple);
// The same from a set's text (a log of a set that is not built in carries it).
Rules ruleset_from_text(const std::string& text, bool large_meeple);

// Throws std::invalid_argument when the set deals fewer land tiles than `colors` (every
// colour draws from a stack of its own).
void check_colors(const Ruleset& rules, int colors);
void check_colors(const LoadedTileSet& set, int colors);

using carc::canonical_text;

}  // namespace carc::sim
