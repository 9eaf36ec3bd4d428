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

// `config`: which colours and meeples a game of a mixed data set plays (`positions --mix`);
// `tune`: the perturbation signs of `carcsolo tune`, one generator per batch.
enum class Stream : std::uint64_t { deal = 1, placement = 2, scoring = 3, search = 4, config = 5, tune = 6 };

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

// A uniform integer in [0, n): exactly the value
// boost::random::uniform_int_distribution<T>(0, n - 1)(eng) gives for an engine of the full
// 64-bit range (such as Rng), drawing the same number of times, without Boost's two
// 64-bit divisions per call (they would take a tenth of a random game's time).
//
// Boost's method: bucket d = floor(2^64 / n); draw x; q = floor(x / d); draw again while
// q >= n (n == 1: no draw at all). Here q is floor(x * n / 2^64) or one more, and one more
// only when the low half L of x * n satisfies L >= 2^64 - (q + 1) * (2^64 mod n); that
// needs the division only when L >= 2^64 - n^2, which almost never happens.
template <class Engine>
std::uint64_t uniform_below(Engine& eng, std::uint32_t n) {
  static_assert(Engine::min() == 0 && Engine::max() == std::numeric_limits<std::uint64_t>::max(),
                "the shortcut is exact for full-range 64-bit engines only");
  __extension__ using Wide = unsigned __int128;
  if (n <= 1) return 0;
  const std::uint64_t n64 = n;
  for (;;) {
    const Wide m = Wide(std::uint64_t(eng())) * n64;
    std::uint64_t q = std::uint64_t(m >> 64);
    const std::uint64_t low = std::uint64_t(m);
    if (low >= 0 - n64 * n64) [[unlikely]] {
      const std::uint64_t t = (0 - n64) % n64;  // 2^64 mod n
      const std::uint64_t s = (q + 1) * t;      // < n^2: no overflow
      if (s != 0 && low >= 0 - s) ++q;
    }
    if (q < n64) return q;
  }
}

// Fisher-Yates over a[0, n) with uniform_below's numbers (Boost's), from the back: the
// shuffle of every deal and re-deal.
template <class Engine, class T>
void shuffle(Engine& eng, T* a, int n) {
  for (int i = n; i > 1; --i) {
    const std::size_t j = std::size_t(uniform_below(eng, std::uint32_t(i)));
    T x = a[i - 1];
    a[i - 1] = a[j];
    a[j] = x;
  }
}

}  // namespace carc
