#include "sim/driver/deal.hpp"

#include <algorithm>
#include <cctype>
#include <istream>
#include <stdexcept>

namespace carc::sim {
namespace {
// The land tiles dealt, in type order (the start tile left out once).
int land_deck(const TileCounts& tc, std::uint8_t* out) {
  int n = 0;
  for (int t = 0; t < kFirstRiver; ++t)
    for (int k = 0; k < tc.count[t] - (t == tc.start ? 1 : 0); ++k) out[n++] = std::uint8_t(t);
  return n;
}

void cut(Stacks& s, int colors, int n) {
  int at = 0;
  for (int c = 0; c < colors; ++c) {
    s.begin[c] = std::uint8_t(at);
    s.next[c] = std::uint8_t(at);
    at += n / colors + (c < n % colors ? 1 : 0);
  }
  s.begin[colors] = std::uint8_t(at);
}

// The names in a stack's string (deal.hpp): whitespace-separated words, a word of capital
// letters alone read letter by letter (the base game's spelling, "DUV"), any other word one
// name ("I3", "R9"; a word that is no name is left whole for the caller to name).
std::vector<std::string> names_of(const std::string& st) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < st.size()) {
    if (std::isspace(static_cast<unsigned char>(st[at]))) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < st.size() && !std::isspace(static_cast<unsigned char>(st[end]))) ++end;
    const std::string word = st.substr(at, end - at);
    const bool letters = std::all_of(word.begin(), word.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
    if (letters && tile_type(word) == kNoType)
      for (const char ch : word) out.emplace_back(1, ch);
    else
      out.push_back(word);
    at = end;
  }
  return out;
}

std::string join(const Stacks& s, int from, int to, bool spaced) {
  std::string st;
  for (int i = from; i < to; ++i) {
    if (spaced && i > from) st += ' ';
    st += tile_name(s.tiles[std::size_t(i)]);
  }
  return st;
}

bool spaced(const Stacks& s) {
  const int end = s.begin[kRiverStack + 1] > s.begin[s.colors] ? s.begin[kRiverStack + 1] : s.begin[s.colors];
  for (int i = 0; i < end; ++i)
    if (tile_name(s.tiles[std::size_t(i)]).size() > 1) return true;
  return false;
}
}  // namespace

Stacks deal(int colors, std::uint64_t seed, std::uint64_t game, const TileCounts& tiles) {
  Stacks s{};  // unused colours' entries are zero, so equal deals compare equal
  s.colors = colors;
  const int n = land_deck(tiles, s.tiles.data());
  Rng rng(seed, game, Stream::deal);
  shuffle(rng, s.tiles.data(), n);
  cut(s, colors, n);
  int at = n;
  s.begin[kRiverStack] = std::uint8_t(at);
  s.next[kRiverStack] = std::uint8_t(at);
  if (tiles.river())
    at += lay_river_stack([&](int t) { return int(tiles.count[std::size_t(t)]); }, &s.tiles[std::size_t(at)],
                          [&](std::uint8_t* first, int m) { shuffle(rng, first, m); });
  s.begin[kRiverStack + 1] = std::uint8_t(at);
  return s;
}

Stacks stacks_from_letters(const std::vector<std::string>& stacks, const TileCounts& tiles,
                           const std::string& river) {
  const int k = int(stacks.size());
  if (k < kMinColors || k > kMaxColors)
    throw std::invalid_argument("a deal has one stack per colour, 2..6 of them (got " +
                                std::to_string(k) + ")");
  const int n = tiles.land();
  std::array<int, kTileTypes> left{};
  for (int t = 0; t < kTileTypes; ++t) left[t] = tiles.count[t] - (t == tiles.start ? 1 : 0);
  Stacks s{};
  s.colors = k;
  int at = 0;
  const auto take = [&](const std::string& where, const std::string& name, bool river_tile) {
    const int t = tile_type(name);
    if (t == kNoType)
      throw std::invalid_argument(where + ": '" + name +
                                  "' is no tile name (A..X, I1..I17, R0..R9; names of several characters "
                                  "are separated by spaces)");
    if (tiles.count[t] == 0) throw std::invalid_argument(where + ": " + name + " is not in this game's tile set");
    if (t == tiles.start && tiles.count[t] == 1)
      throw std::invalid_argument(where + ": " + name + " is the start tile, which is not dealt");
    if (is_river(t) != river_tile)
      throw std::invalid_argument(where + ": " + name +
                                  (river_tile ? " is no river tile" : " is a river tile (the river stack's)"));
    if (--left[t] < 0)
      throw std::invalid_argument(where + ": one tile " + name + " too many (the deal holds " +
                                  std::to_string(tiles.count[t] - (t == tiles.start ? 1 : 0)) + " of it)");
    s.tiles[std::size_t(at++)] = std::uint8_t(t);
  };
  for (int c = 0; c < k; ++c) {
    const int size = n / k + (c < n % k ? 1 : 0);
    const std::vector<std::string> names = names_of(stacks[std::size_t(c)]);
    if (int(names.size()) != size)
      throw std::invalid_argument("stack " + std::to_string(c) + " must hold " + std::to_string(size) +
                                  " tiles with " + std::to_string(k) + " colours (got " +
                                  std::to_string(names.size()) + ")");
    s.begin[c] = std::uint8_t(at);
    s.next[c] = std::uint8_t(at);
    for (const std::string& name : names) take("stack " + std::to_string(c), name, false);
  }
  s.begin[k] = std::uint8_t(at);
  s.begin[kRiverStack] = std::uint8_t(at);
  s.next[kRiverStack] = std::uint8_t(at);
  const std::vector<std::string> rnames = names_of(river);
  if (!tiles.river() && !rnames.empty())
    throw std::invalid_argument("a river stack, but this game's tile set has no river");
  if (int(rnames.size()) != tiles.river_stack())
    throw std::invalid_argument("the river stack must hold " + std::to_string(tiles.river_stack()) +
                                " tiles (got " + std::to_string(rnames.size()) + ")");
  for (const std::string& name : rnames) take("river stack", name, true);
  if (!rnames.empty() && rnames.back() != tile_name(kLakeType))
    throw std::invalid_argument("river stack: the lake R9 must be its last tile (got " + rnames.back() + " last)");
  s.begin[kRiverStack + 1] = std::uint8_t(at);
  return s;
}

Stacks read_deal(std::istream& in, const TileCounts& tiles) {
  std::vector<std::string> stacks;
  std::string river, line;
  bool river_line = false;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::size_t first = line.find_first_not_of(" \t\r\v\f");
    if (first == std::string::npos || line[first] == '#') continue;
    const std::size_t word = line.find_first_of(" \t\r\v\f", first);
    if (line.compare(first, word == std::string::npos ? std::string::npos : word - first, "river") == 0) {
      if (river_line) throw std::invalid_argument("line " + std::to_string(n) + ": a second river line");
      river_line = true;
      river = word == std::string::npos ? "" : line.substr(word);
      continue;
    }
    if (river_line)
      throw std::invalid_argument("line " + std::to_string(n) + ": a stack after the river line (the river comes last)");
    stacks.push_back(line);
  }
  if (tiles.river() && !river_line)
    throw std::invalid_argument("no river line: this game's tile set has the river, whose " +
                                std::to_string(tiles.river_stack()) +
                                " tiles go on a last line 'river R.. ... R9'");
  if (!tiles.river() && river_line)
    throw std::invalid_argument("a river line, but this game's tile set has no river");
  return stacks_from_letters(stacks, tiles, river);
}

std::vector<std::string> stack_letters(const Stacks& s) {
  const bool sp = spaced(s);
  std::vector<std::string> out;
  for (int c = 0; c < s.colors; ++c) out.push_back(join(s, s.begin[c], s.begin[c + 1], sp));
  return out;
}

std::string river_letters(const Stacks& s) {
  return join(s, s.begin[kRiverStack], s.begin[kRiverStack + 1], true);
}

}  // namespace carc::sim
