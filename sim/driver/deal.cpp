#include "sim/driver/deal.hpp"

#include <stdexcept>

namespace carc::sim {
namespace {
constexpr auto kDeck = [] {
  std::array<std::uint8_t, kMaxTiles - 1> d{};
  int n = 0;
  for (int t = 0; t < kTileTypes; ++t)
    for (int k = 0; k < kBaseTiles[t].count - (t == kStartType ? 1 : 0); ++k)
      d[n++] = std::uint8_t(t);
  return d;
}();
}  // namespace

Stacks deal(int colors, std::uint64_t seed, std::uint64_t game) {
  Stacks s{};  // unused colours' entries are zero, so equal deals compare equal
  s.colors = colors;
  s.tiles = kDeck;
  Rng rng(seed, game, Stream::deal);
  for (int i = kMaxTiles - 1; i > 1; --i) {
    const int j = int(uniform_below(rng, std::uint32_t(i)));  // Boost's numbers, faster
    std::swap(s.tiles[i - 1], s.tiles[j]);
  }
  const int n = kMaxTiles - 1;
  int at = 0;
  for (int c = 0; c < colors; ++c) {
    s.begin[c] = std::uint8_t(at);
    s.next[c] = std::uint8_t(at);
    at += n / colors + (c < n % colors ? 1 : 0);
  }
  s.begin[colors] = std::uint8_t(at);
  return s;
}

Stacks stacks_from_letters(const std::vector<std::string>& stacks) {
  const int k = int(stacks.size());
  if (k < kMinColors || k > kMaxColors)
    throw std::invalid_argument("a deal has one stack per colour, 2..6 of them (got " +
                                std::to_string(k) + ")");
  const int n = kMaxTiles - 1;
  std::array<int, kTileTypes> left{};
  for (int t = 0; t < kTileTypes; ++t) left[t] = kBaseTiles[t].count - (t == kStartType ? 1 : 0);
  Stacks s{};
  s.colors = k;
  int at = 0;
  for (int c = 0; c < k; ++c) {
    const int size = n / k + (c < n % k ? 1 : 0);
    const std::string& st = stacks[std::size_t(c)];
    if (int(st.size()) != size)
      throw std::invalid_argument("stack " + std::to_string(c) + " must hold " + std::to_string(size) +
                                  " tiles with " + std::to_string(k) + " colours (got " +
                                  std::to_string(st.size()) + ")");
    s.begin[c] = std::uint8_t(at);
    s.next[c] = std::uint8_t(at);
    for (const char ch : st) {
      const int t = tile_type(ch);
      if (t == kNoType)
        throw std::invalid_argument("stack " + std::to_string(c) + ": '" + std::string(1, ch) +
                                    "' is no tile letter (A..X)");
      if (--left[t] < 0)
        throw std::invalid_argument("stack " + std::to_string(c) + ": one tile " + std::string(1, ch) +
                                    " too many (the deal holds " +
                                    std::to_string(kBaseTiles[t].count - (t == kStartType ? 1 : 0)) +
                                    " of it)");
      s.tiles[std::size_t(at++)] = std::uint8_t(t);
    }
  }
  s.begin[k] = std::uint8_t(at);
  return s;
}

std::vector<std::string> stack_letters(const Stacks& s) {
  std::vector<std::string> out;
  for (int c = 0; c < s.colors; ++c) {
    std::string st;
    for (int i = s.begin[c]; i < s.begin[c + 1]; ++i) st += tile_name(s.tiles[std::size_t(i)]);
    out.push_back(st);
  }
  return out;
}

}  // namespace carc::sim
