// Tile sets as data: the format `carcsolo-tiles/1` (docs/tileset-format.md) and its reader,
// usable at compile time (the engine's base table is read from the built-in base set,
// core/tiles.hpp) and at run time (`carcsolo tiles`, files given by name).
//
// A set is a list of tile types, each with its count, its four edges (N, E, S, W
// unrotated: C city, R road, F field, A water) and its segments (road, city or monastery,
// each with the edges it touches; `*` a pennant; marks `[inn]` on a road, `[cathedral]` on
// a city), written as the rules' tables write them:
//
//   carcsolo-tiles/1
//   name base
//   start D
//   | D | 4 (one is the start tile) | C R F R | city {N}; road {E,W} |
//
// The reader checks what the rules assume of every tile: each road or city edge belongs to
// exactly one segment of its kind, field and water edges to none, a segment touches at
// least one edge (but a monastery, which touches none), at most one monastery and four
// segments, a pennant only on a city, an inn only on a road, a cathedral only on a city, a
// count of at least 1, and a type without segments only on the river (a water edge).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "core/tiles_base.hpp"

namespace carc::tileset {

inline constexpr int kMaxTypes = 64;
inline constexpr int kMaxName = 3;  // type names: "A".."X", "I1".."I17", "R0".."R9"

enum class Letter : std::uint8_t { city, road, field, water };
inline constexpr char kLetterName[4] = {'C', 'R', 'F', 'A'};

enum Mark : std::uint8_t { kNoMark = 0, kInn = 1, kCathedral = 2 };

struct Segment {
  SegKind kind = SegKind::road;
  std::uint8_t edges = 0;  // bit d: touches edge d (N=0, E, S, W), unrotated
  bool pennant = false;
  std::uint8_t marks = kNoMark;
};

struct Type {
  std::array<char, kMaxName + 1> name{};  // NUL-terminated
  int count = 0;
  std::array<Letter, 4> edges{};
  int nseg = 0;
  std::array<Segment, kMaxSegs> segs{};
  constexpr std::string_view name_view() const {
    std::size_t n = 0;
    while (n < name.size() && name[n] != '\0') ++n;
    return {name.data(), n};
  }
  constexpr bool has_water() const {
    for (Letter e : edges)
      if (e == Letter::water) return true;
    return false;
  }
};

// A set as read. `error` empty: read; else what is wrong, at `line` (1-based) of type
// `where` (empty when not at a type).
struct Set {
  std::array<char, 32> name{};
  int ntypes = 0;
  std::array<Type, kMaxTypes> types{};
  int start = -1;  // the start tile's type (`start T`), or -1
  int last = -1;   // the river's last tile (`last T`), or -1
  std::string_view error;
  int line = 0;
  std::array<char, kMaxName + 1> where{};

  constexpr bool ok() const { return error.empty(); }
  constexpr int find(std::string_view type) const {
    for (int t = 0; t < ntypes; ++t)
      if (types[t].name_view() == type) return t;
    return -1;
  }
  constexpr int tiles() const {
    int n = 0;
    for (int t = 0; t < ntypes; ++t) n += types[t].count;
    return n;
  }
  // River tiles: the types with a water edge (the start tile among them with the river).
  constexpr int river_tiles() const {
    int n = 0;
    for (int t = 0; t < ntypes; ++t)
      if (types[t].has_water()) n += types[t].count;
    return n;
  }
};

namespace detail {

constexpr bool space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

constexpr bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(0, p.size()) == p;
}

constexpr bool name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// "N,E" -> edge mask; 0xFF when malformed (an unknown letter, a repeat, nothing).
constexpr std::uint8_t dirs(std::string_view s) {
  std::uint8_t m = 0;
  bool want = true;  // a direction next (not a comma)
  for (char c : s) {
    if (space(c)) continue;
    if (c == ',') {
      if (want) return 0xFF;
      want = true;
      continue;
    }
    int d = -1;
    for (int k = 0; k < 4; ++k)
      if (c == kDirName[k]) d = k;
    if (d < 0 || !want || (m >> d & 1)) return 0xFF;
    m |= std::uint8_t(1u << d);
    want = false;
  }
  return want ? 0xFF : m;
}

// One segment: "monastery", "road {S}", "city* {N,W}", "road[inn] {E}", "city[cathedral] {N,E,S,W}".
// Returns the error, empty when read.
constexpr std::string_view segment(std::string_view s, Segment& out) {
  s = trim(s);
  if (s == "monastery") {
    out = {SegKind::monastery, 0, false, kNoMark};
    return {};
  }
  if (starts_with(s, "road")) {
    out.kind = SegKind::road;
    s.remove_prefix(4);
  } else if (starts_with(s, "city")) {
    out.kind = SegKind::city;
    s.remove_prefix(4);
  } else {
    return "a segment must be 'monastery', 'road ...' or 'city ...'";
  }
  out.pennant = false;
  out.marks = kNoMark;
  if (!s.empty() && s.front() == '*') {
    out.pennant = true;
    s.remove_prefix(1);
  }
  while (!s.empty() && s.front() == '[') {
    const std::size_t close = s.find(']');
    if (close == std::string_view::npos) return "a mark without its ']'";
    const std::string_view mark = s.substr(1, close - 1);
    if (mark == "inn") {
      out.marks |= kInn;
    } else if (mark == "cathedral") {
      out.marks |= kCathedral;
    } else {
      return "an unknown mark (marks: [inn] on a road, [cathedral] on a city)";
    }
    s.remove_prefix(close + 1);
  }
  s = trim(s);
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') return "a road or city segment needs its edges in braces, e.g. {N,E}";
  out.edges = dirs(s.substr(1, s.size() - 2));
  if (out.edges == 0xFF) return "edges must be a comma-separated set of N, E, S, W";
  if (out.pennant && out.kind != SegKind::city) return "a pennant (*) only on a city";
  if ((out.marks & kInn) && out.kind != SegKind::road) return "an inn only on a road";
  if ((out.marks & kCathedral) && out.kind != SegKind::city) return "a cathedral only on a city";
  return {};
}

// The rules' assumptions about one tile (see the top of this file).
constexpr std::string_view consistent(const Type& t) {
  if (t.count < 1) return "a count of 0: every type listed has at least one tile";
  std::uint8_t covered = 0;
  int monasteries = 0;
  for (int s = 0; s < t.nseg; ++s) {
    const Segment& g = t.segs[s];
    if (g.kind == SegKind::monastery) {
      ++monasteries;
      continue;
    }
    if (covered & g.edges) return "two segments share an edge";
    covered |= g.edges;
    for (int d = 0; d < 4; ++d)
      if ((g.edges >> d & 1) && t.edges[d] != (g.kind == SegKind::city ? Letter::city : Letter::road))
        return "a segment touches an edge of another kind (its edges contradict its segments)";
  }
  for (int d = 0; d < 4; ++d) {
    const bool feature = t.edges[d] == Letter::city || t.edges[d] == Letter::road;
    if (feature && !(covered >> d & 1))
      return "a road or city edge that no segment touches (its edges contradict its segments)";
  }
  if (monasteries > 1) return "more than one monastery";
  if (t.nseg == 0 && !t.has_water()) return "a type with no segments (only a river tile may have none)";
  return {};
}

// A set's name: 1 to 31 letters, digits, '-', '_' or '+'. Returns the error, empty when read.
constexpr std::string_view set_name(std::string_view n, std::array<char, 32>& out) {
  if (n.empty() || n.size() >= out.size()) return "a set's name is 1 to 31 characters";
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (!name_char(n[i]) && n[i] != '-' && n[i] != '_' && n[i] != '+') return "a set's name is letters, digits, '-', '_' or '+'";
    out[i] = n[i];
  }
  return {};
}

// A row's four cells: type | count | edges | segments, with or without the outer bars.
// Returns the error, empty when read.
constexpr std::string_view row_cells(std::string_view l, std::array<std::string_view, 4>& cell) {
  if (l.front() == '|') l.remove_prefix(1);
  if (!l.empty() && l.back() == '|') l.remove_suffix(1);
  for (int c = 0; c < 4; ++c) {
    const std::size_t bar = l.find('|');
    if (c < 3 && bar == std::string_view::npos)
      return "a row is 'type | count | edges | segments' (or one of the lines name, start, last)";
    cell[c] = trim(l.substr(0, c < 3 ? bar : l.size()));
    if (c < 3) l.remove_prefix(bar + 1);
  }
  if (cell[3].find('|') != std::string_view::npos) return "a row has four cells: type | count | edges | segments";
  return {};
}

// A type's name: 1 to 3 letters or digits. Returns the error, empty when read.
constexpr std::string_view type_name(std::string_view name, Type& t) {
  if (name.empty() || name.size() > std::size_t(kMaxName)) return "a type's name is 1 to 3 letters or digits";
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!name_char(name[i])) return "a type's name is 1 to 3 letters or digits";
    t.name[i] = name[i];
  }
  return {};
}

// The count: a whole number, then optionally a remark in parentheses. Returns the error,
// empty when read.
constexpr std::string_view type_count(std::string_view s, Type& t) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return "a count is a whole number";
  int n = 0;
  while (!s.empty() && s.front() >= '0' && s.front() <= '9') {
    n = n * 10 + (s.front() - '0');
    if (n > 255) return "a count of more than 255";
    s.remove_prefix(1);
  }
  s = trim(s);
  if (!s.empty() && (s.front() != '(' || s.back() != ')')) return "a count is a whole number, then at most a remark in parentheses";
  t.count = n;
  return {};
}

// The edges: four letters. Returns the error, empty when read.
constexpr std::string_view type_edges(std::string_view s, Type& t) {
  int e = 0;
  for (char c : s) {
    if (space(c)) continue;
    int k = -1;
    for (int i = 0; i < 4; ++i)
      if (c == kLetterName[i]) k = i;
    if (k < 0 || e == 4) return "edges are four letters N E S W, each C, R, F or A";
    t.edges[e++] = Letter(k);
  }
  if (e != 4) return "edges are four letters N E S W, each C, R, F or A";
  return {};
}

// The segments, separated by ';': '—' (or '-', or nothing) for none. Returns the error,
// empty when read.
constexpr std::string_view type_segments(std::string_view segs, Type& t) {
  if (segs == "\xE2\x80\x94" || segs == "-") segs = {};
  while (!segs.empty()) {
    const std::size_t semi = segs.find(';');
    const std::string_view one = segs.substr(0, semi);
    segs.remove_prefix(semi == std::string_view::npos ? segs.size() : semi + 1);
    if (t.nseg == kMaxSegs) return "more than four segments";
    const std::string_view why = segment(one, t.segs[t.nseg]);
    if (!why.empty()) return why;
    ++t.nseg;
  }
  return {};
}

}  // namespace detail

// Reads a `carcsolo-tiles/1` text. Never throws: a text that is not one comes back with
// `error` and `line` set (and `where`, the type, when the error is in a type's row).
constexpr Set parse(std::string_view text) {
  Set set;
  int line = 0;
  bool header = false;
  const auto fail = [&](std::string_view why, std::string_view where = {}) {
    set.error = why;
    set.line = line;
    for (std::size_t i = 0; i < where.size() && i < std::size_t(kMaxName); ++i) set.where[i] = where[i];
    return set;
  };
  std::string_view start, last;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view l = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line;
    l = detail::trim(l);
    if (l.empty() || l.front() == '#') continue;
    if (!header) {
      if (l != "carcsolo-tiles/1") return fail("not a tile set: the first line must be 'carcsolo-tiles/1'");
      header = true;
      continue;
    }
    if (detail::starts_with(l, "name ")) {
      if (const std::string_view why = detail::set_name(detail::trim(l.substr(5)), set.name); !why.empty())
        return fail(why);
      continue;
    }
    if (detail::starts_with(l, "start ")) {
      start = detail::trim(l.substr(6));
      continue;
    }
    if (detail::starts_with(l, "last ")) {
      last = detail::trim(l.substr(5));
      continue;
    }
    std::array<std::string_view, 4> cell{};
    if (const std::string_view why = detail::row_cells(l, cell); !why.empty()) return fail(why);
    if (set.ntypes == kMaxTypes) return fail("more than 64 types");
    Type& t = set.types[set.ntypes];
    const std::string_view name = cell[0];
    if (const std::string_view why = detail::type_name(name, t); !why.empty()) return fail(why, name);
    if (set.find(name) >= 0) return fail("a type listed twice", name);
    std::string_view why = detail::type_count(cell[1], t);
    if (why.empty()) why = detail::type_edges(cell[2], t);
    if (why.empty()) why = detail::type_segments(cell[3], t);
    if (why.empty()) why = detail::consistent(t);
    if (!why.empty()) return fail(why, name);
    ++set.ntypes;
  }
  ++line;
  if (!header) return fail("not a tile set: the first line must be 'carcsolo-tiles/1'");
  if (set.name[0] == '\0') return fail("a set needs its name (a line 'name NAME')");
  if (set.ntypes == 0) return fail("a set with no tile types");
  if (!start.empty() && (set.start = set.find(start)) < 0) return fail("'start' names a type the set does not list");
  if (!last.empty() && (set.last = set.find(last)) < 0) return fail("'last' names a type the set does not list");
  return set;
}

}  // namespace carc::tileset
