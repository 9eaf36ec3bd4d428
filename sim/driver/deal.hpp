// Dealing (rules.md, "Set-up"): the 71 non-start tiles shuffled with the game's own deal
// stream and cut into k stacks in colour order, the first 71 mod k one tile larger.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "rng/rng.hpp"

namespace carc::sim {

struct Stacks {
  std::array<std::uint8_t, kMaxTiles - 1> tiles;  // stack c is [begin[c], begin[c+1])
  std::array<std::uint8_t, kMaxColors + 1> begin;
  std::array<std::uint8_t, kMaxColors> next;      // next tile to draw from stack c
  int colors;

  int pop(int c) { return tiles[next[c]++]; }
  int size(int c) const { return begin[c + 1] - begin[c]; }
};

Stacks deal(int colors, std::uint64_t seed, std::uint64_t game);

// A given deal: one string of tile letters per colour (top first), 2..6 of them. They must
// hold exactly the 71 non-start tiles, in stacks of the sizes the set-up deals (the first
// 71 mod k one tile larger). Throws std::invalid_argument with one line naming what is
// wrong otherwise.
Stacks stacks_from_letters(const std::vector<std::string>& stacks);
// The letters of every stack, as dealt (top first).
std::vector<std::string> stack_letters(const Stacks& s);

}  // namespace carc::sim
