#include "python/observation.hpp"

#include <stdexcept>

namespace carc::python {
namespace {

py::list per_color(const State& s, int (State::*get)(int) const) {
  py::list out;
  for (int c = 0; c < s.colors(); ++c) out.append((s.*get)(c));
  return out;
}

py::object letter(int type) {
  if (type < 0) return py::none();
  return py::str(std::string(tile_name(type)));
}

py::tuple free_names(int type, int rot, std::uint8_t mask) {
  py::list names;
  for (int seg = 0; seg < kMaxSegs; ++seg)
    if (mask >> seg & 1) names.append(segment_name(type, rot, seg));
  return py::tuple(names);
}

}  // namespace

std::string PyMove::repr() const {
  return "Move(x=" + std::to_string(x) + ", y=" + std::to_string(y) + ", rot=" + std::to_string(rot) +
         ", free=" + std::string(py::repr(free)) + ")";
}

py::dict observation(const State& s, int tile) {
  py::dict d;
  d["colors"] = s.colors();
  d["meeples"] = s.meeples_per_color();
  d["turn"] = s.turn();
  d["to_move"] = s.to_move();
  d["tile"] = letter(tile);
  d["scores"] = per_color(s, &State::score);
  d["supply"] = per_color(s, &State::supply);
  d["large_supply"] = per_color(s, &State::large_supply);
  d["river_left"] = s.river_left();
  d["stack_sizes"] = per_color(s, &State::stack_left);
  py::dict unseen;
  for (int t = 0; t < s.type_end(); ++t) unseen[letter(t)] = s.unseen(t);
  d["unseen"] = unseen;
  d["unseen_total"] = s.unseen_total();
  py::list board;
  for (int i = 0; i < s.tiles_on_board(); ++i) {
    const PlacedTile& t = s.tile(i);
    py::dict b;
    b["x"] = int(t.x);
    b["y"] = int(t.y);
    b["tile"] = letter(t.type);
    b["rot"] = int(t.rot);
    b["edges"] = edge_string(t.type, t.rot);
    const bool meeple = t.meeple_seg != kNoSegment;
    b["meeple"] = meeple ? py::object(py::str(segment_name(t.type, t.rot, t.meeple_seg))) : py::none();
    b["meeple_color"] = meeple ? py::object(py::int_(int(t.meeple_color))) : py::none();
    b["large"] = meeple && s.large_at(i);
    board.append(b);
  }
  d["board"] = board;
  py::list open;
  for (int j = 0; j < s.open_count(); ++j)
    open.append(py::make_tuple(int(s.open_cell(j).x), int(s.open_cell(j).y)));
  d["open"] = open;
  d["discards"] = s.discards();
  py::list goals;
  for (int g = 0; g < kGoalCount; ++g)
    if (s.goals() >> g & 1) goals.append(std::string(kGoalIds[std::size_t(g)]));
  d["goals"] = goals;
  d["ended"] = s.ended();
  return d;
}

py::list moves(const State& s, int tile, std::span<const Placement> legal) {
  py::list out;
  for (const Placement& p : legal) {
    PyMove m;
    m.x = p.x;
    m.y = p.y;
    m.rot = p.rot;
    m.free_mask = s.free_segments(tile, p);
    m.free = free_names(tile, p.rot, m.free_mask);
    out.append(py::cast(std::move(m)));
  }
  return out;
}

py::list features(const State& s, std::span<const std::uint16_t> roots) {
  py::list out;
  for (const std::uint16_t r : roots) {
    const Feature& f = s.feature(r);
    py::dict d;
    d["kind"] = std::string(kind_name(f.kind));
    d["tiles"] = int(f.tiles);
    d["pennants"] = int(f.pennants);
    py::list meeples;
    for (int c = 0; c < s.colors(); ++c) meeples.append(int(f.meeples[std::size_t(c)]));
    d["meeples"] = meeples;
    out.append(d);
  }
  return out;
}

Move to_move(int tile, const py::handle& move, const py::handle& meeple) {
  Placement p{kNoCell, 0, 0, 0};
  if (py::isinstance<PyMove>(move)) {
    const auto& m = move.cast<const PyMove&>();
    p = Placement{std::uint16_t(cell_of(m.x, m.y)), std::int8_t(m.x), std::int8_t(m.y), std::uint8_t(m.rot)};
  } else {
    py::tuple t;
    try {
      t = py::tuple(py::reinterpret_borrow<py::object>(move));
    } catch (const py::error_already_set&) {
      throw std::invalid_argument("a move is a Move or an (x, y, rot) tuple");
    }
    if (t.size() != 3) throw std::invalid_argument("a move is a Move or an (x, y, rot) tuple");
    const int x = t[0].cast<int>(), y = t[1].cast<int>(), rot = t[2].cast<int>();
    if (x < -kMaxTiles || x > kMaxTiles || y < -kMaxTiles || y > kMaxTiles || rot < 0 || rot > 3)
      throw std::invalid_argument("(" + std::to_string(x) + ", " + std::to_string(y) + ", rot " +
                                  std::to_string(rot) + ") is no legal placement of tile " +
                                  std::string(tile_name(tile)));
    p = Placement{std::uint16_t(cell_of(x, y)), std::int8_t(x), std::int8_t(y), std::uint8_t(rot)};
  }
  Move m{p, Move::kNoMeeple};
  if (meeple.is_none()) return m;
  if (!py::isinstance<py::str>(meeple))
    throw std::invalid_argument("a meeple is the name of a free segment (a string of Move.free) or None");
  const std::string name = meeple.cast<std::string>();
  for (int seg = 0; seg < kMaxSegs; ++seg)
    if (seg < kTiles[tile].nseg && segment_name(tile, p.rot, seg) == name) {
      m.seg = std::uint8_t(seg);
      return m;
    }
  throw std::invalid_argument("meeple '" + name + "' is no segment of tile " +
                              std::string(tile_name(tile)) + " turned " + std::to_string(p.rot));
}

}  // namespace carc::python
