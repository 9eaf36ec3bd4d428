// What a Python policy or a Game's caller sees, as plain Python values: the Observation
// (core's State and the tile in hand, never the stacks), the legal moves with their free
// segments, and the features a tile completed. The bindings add no rules: every value is
// read off the State.
#pragma once
#include <span>
#include <string>

#include <pybind11/pybind11.h>

#include "core/state.hpp"

namespace carc::python {

namespace py = pybind11;

// A legal move as Python sees it: where, how turned, and the free segments' names
// (game-log.md spelling, e.g. "road:N,W"), one of which takes the meeple.
struct PyMove {
  int x = 0, y = 0, rot = 0;
  py::tuple free;  // segment names
  std::uint8_t free_mask = 0;
  std::string repr() const;
};

// The Observation as a dict: colors, meeples, turn, to_move, tile (name or None), scores,
// supply (meeples), large_supply (the large meeple: 0 or 1 per colour; 0 without the
// option), river_left (the river stack's tiles left), stack_sizes, unseen ({name: count}),
// unseen_total, board (one dict per placed tile: x, y, tile, rot, edges, meeple (segment
// name or None), meeple_color, large (the meeple is the large one)), open (the open cells'
// (x, y)), discards, goals (ids so far), ended.
py::dict observation(const State& s, int tile);

// The legal moves of `tile`, in the engine's order.
py::list moves(const State& s, int tile, std::span<const Placement> legal);

// The features a tile completed (roots as found): kind, tiles, pennants, meeples per colour.
py::list features(const State& s, std::span<const std::uint16_t> roots);

// A Python move (a Move, or an (x, y, rot) tuple) and meeple (a free segment's name, or
// None) as the engine's Move for `tile`. Throws std::invalid_argument when the meeple names
// no free segment of the placement; the placement itself is checked by the caller.
Move to_move(int tile, const py::handle& move, const py::handle& meeple);

}  // namespace carc::python
