// Random streams. Each game's generators are derived from (seed, game index, stream), so a
// game is the same whatever thread or process plays it, and the dealing stream is
// separate from the policies' streams (every policy meets the same tile orders).
//
// The engine is xoshiro256** (32 bytes of state, seeded through SplitMix64): seeding per
// game costs a few nanoseconds. It models Boost.Random's engine concept, so Boost's
// distributions (identical numbers on every platform) draw from it.
#pragma once
#include <cstdint>
#include <limits>

namespace carc {

enum class Stream : std::uint64_t { deal = 1, placement = 2, scoring = 3, search = 4 };

constexpr std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  constexpr explicit Rng(std::uint64_t seed = 0) { reseed(seed); }
  constexpr Rng(std::uint64_t seed, std::uint64_t game, Stream stream) {
    std::uint64_t h = seed;
    h = splitmix64(h);
    h ^= game * 0xD1B54A32D192ED03ull;
    h = splitmix64(h);
    h ^= static_cast<std::uint64_t>(stream) * 0x8CB92BA72F3D8DD7ull;
    reseed(splitmix64(h));
  }
  constexpr void reseed(std::uint64_t seed) {
    for (auto& w : s_) w = splitmix64(seed);
  }
  constexpr result_type operator()() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  friend constexpr bool operator==(const Rng&, const Rng&) = default;

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

}  // namespace carc
