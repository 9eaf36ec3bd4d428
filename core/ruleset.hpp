// The rules a game is played by beyond rules.md's fixed ones: which tiles it deals (a tile
// set's counts per type, its start tile, the river) and whether the large meeple plays.
// One immutable value, made once from a set's data (sim/driver/tilesets.hpp reads a
// built-in name or a file) and handed down by shared pointer: the engine's Config, the
// players' PolicyContext, the drivers, the analysis, the advice, the server and the logs
// read the same one. Which types may be drawn next is the State's (State::draw_rule).
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "core/tiles.hpp"
#include "core/tileset.hpp"

namespace carc {

class Ruleset;
using Rules = std::shared_ptr<const Ruleset>;

class Ruleset {
 public:
  struct Data {
    std::string name = "base";        // as files record it: a built-in combination, or a file's `name`
    std::string source = "built-in";  // "built-in", "file" (a set of its own), or "recorded" (below)
    std::string spec = "base";        // as given on a command line: a built-in name or a path
    std::string text;                 // the set in docs/tileset-format.md's canonical form, with its name
    std::string hash;                 // of that text without the name line (16 hex digits)
    TileCounts tiles = kBaseCounts;
    bool large_meeple = false;
  };
  explicit Ruleset(Data d) : d_(std::move(d)) {}

  // A read set as the engine plays it: every type must be one of the engine's (the base
  // game's, Inns & Cathedrals', The River's) by name and defined as the built-in data
  // defines it; the counts are the set's; the start tile D, or the spring with the river
  // (its lake named `last`). Throws std::invalid_argument with one line naming what is
  // wrong ("tile set SPEC: ...").
  static Rules from_set(const tileset::Set& set, std::string source, std::string spec, bool large_meeple);
  // The base game: the base set, no large meeple.
  static const Rules& base();
  // The rules as a results file records them (name, hash, the large meeple) without the
  // set's tiles: only for comparing files (merge), never to play. The base set (by name,
  // with its hash or none: a base game's file records none) gets its tiles and hash back;
  // `playable()` is false otherwise.
  static Rules recorded(const std::string& name, const std::string& hash, bool large_meeple);

  const std::string& name() const { return d_.name; }
  const std::string& source() const { return d_.source; }
  const std::string& spec() const { return d_.spec; }
  const std::string& text() const { return d_.text; }
  const std::string& hash() const { return d_.hash; }
  const TileCounts& tiles() const { return d_.tiles; }
  bool large_meeple() const { return d_.large_meeple; }
  bool built_in() const { return d_.source == "built-in"; }
  bool playable() const { return d_.source != "recorded"; }
  bool river() const { return d_.tiles.river(); }
  int land_tiles() const { return d_.tiles.land(); }    // dealt to the colours' stacks
  int river_stack() const { return d_.tiles.river_stack(); }
  // Nothing of the expansions: the base set by name and by tiles, no large meeple. Files of
  // the base game hold no field of the expansions (no tileset_hash, no large_meeple).
  bool base_game() const { return d_.name == "base" && d_.tiles == kBaseCounts && !d_.large_meeple; }
  // Whether the tiles are the base set's (a renamed copy too) and the large meeple is off:
  // what a player whose knowledge is of the base game (the learned value) can play.
  bool base_tiles() const { return d_.tiles == kBaseCounts && !d_.large_meeple; }
  // The same set with the large meeple on or off.
  Rules with_large_meeple(bool on) const;
  // Two rulesets deal the same tiles under the same option (names may differ).
  bool same_game(const Ruleset& o) const { return d_.tiles == o.d_.tiles && d_.large_meeple == o.d_.large_meeple; }

 private:
  Data d_;
};

// The set written back in docs/tileset-format.md's form: one line per type, segments
// spelled as the rules spell them. The hash is taken of it without the name line
// (`with_name` false): the same tiles under another name are the same set.
std::string canonical_text(const tileset::Set& set, bool with_name = true);

// FNV-1a 64 of `bytes`, as 16 lowercase hex digits (a tile set's and a weights file's hash).
std::string fnv1a64_hex(std::string_view bytes);

}  // namespace carc
