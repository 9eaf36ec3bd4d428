// Dealing (rules.md, "Set-up"; expansions.md, section 3): the land tiles but the start tile
// (71 in the base game) shuffled with the game's own deal stream and cut into k stacks in
// colour order, the first (count mod k) one tile larger; with the river, then the river
// tiles but the spring and the lake shuffled by the same stream, the lake under them.
#pragma once
#include <array>
#include <iosfwd>
#include <cstdint>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "rng/rng.hpp"

namespace carc::sim {

struct Stacks {
  std::array<std::uint8_t, kMaxTiles - 1> tiles;  // stack c is [begin[c], begin[c+1])
  // Colour c < colors: [begin[c], begin[c + 1]); the river stack (kRiverStack):
  // [begin[kRiverStack], begin[kRiverStack + 1]), empty without the river.
  std::array<std::uint8_t, kMaxColors + 2> begin;
  std::array<std::uint8_t, kMaxColors + 1> next;  // next tile to draw from stack c
  int colors;

  int pop(int c) { return tiles[next[c]++]; }
  int size(int c) const { return begin[c + 1] - begin[c]; }  // c < colors, or kRiverStack
  // The river stack's tiles as dealt, top first.
  int river_size() const { return begin[kRiverStack + 1] - begin[kRiverStack]; }
};

Stacks deal(int colors, std::uint64_t seed, std::uint64_t game, const TileCounts& tiles = kBaseCounts);

// A given deal: one string of tile names per colour (top first), 2..6 of them, and the
// river stack's (top first, the lake R9 last; empty without the river). They must hold
// exactly the set's dealt tiles (every tile but the start tile; the river's in `river`,
// the others in the colours' stacks), the colours' in stacks of the sizes the set-up deals
// (the first (count mod k) one tile larger). Throws std::invalid_argument with one line
// naming what is wrong otherwise.
// The spelling of a stack: names separated by whitespace ("D I3 U"); a word of capital
// letters alone is read letter by letter ("DUV", the base game's one-letter names), so the
// base game's stacks may be written without spaces.
Stacks stacks_from_letters(const std::vector<std::string>& stacks, const TileCounts& tiles = kBaseCounts,
                           const std::string& river = "");
// A deal as a text (docs/run.md, "A given deal"): one line per colour, its stack as above;
// then, with the river, a line `river` followed by the river stack's names. Empty lines and
// lines starting with # are skipped. The set is the game's: a deal of another set (a
// name not in it, stacks of other sizes, a river line missing or extra) is refused with
// one line (std::invalid_argument).
Stacks read_deal(std::istream& in, const TileCounts& tiles = kBaseCounts);
// The letters of every stack, as dealt (top first); names separated by spaces when any
// tile of the deal has a two-character name.
std::vector<std::string> stack_letters(const Stacks& s);
std::string river_letters(const Stacks& s);

}  // namespace carc::sim
