#include "sim/driver/deal.hpp"

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

}  // namespace carc::sim
