// Tests of rng/rng.hpp: uniform_below gives exactly Boost's uniform_int_distribution
// values (the seeds' games must not change), including the rare corrected and rejected
// draws at bucket edges.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <limits>

#include <boost/random/uniform_int_distribution.hpp>

#include "rng/rng.hpp"

namespace {

// An engine that returns given numbers (then counts up), to hit chosen edge cases.
struct Scripted {
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  std::array<std::uint64_t, 2> first{};
  int drawn = 0;
  result_type operator()() {
    const int i = drawn++;
    return i < 2 ? first[std::size_t(i)] : 0x9E3779B97F4A7C15ull * std::uint64_t(i);
  }
};

std::uint64_t boost_uniform(Scripted& e, std::uint64_t n) {
  return boost::random::uniform_int_distribution<std::uint64_t>(0, n - 1)(e);
}

}  // namespace

TEST_CASE("uniform_below draws what Boost's uniform_int_distribution draws") {
  carc::Rng a(7, 11, carc::Stream::deal), b = a;
  int mismatches = 0;
  for (std::uint32_t n = 1; n <= 1200; ++n)
    for (int k = 0; k < 200; ++k) {
      const std::uint64_t mine = carc::uniform_below(a, n);
      const int boost = boost::random::uniform_int_distribution<int>(0, int(n) - 1)(b);
      mismatches += mine != std::uint64_t(boost) || !(a == b);
    }
  CHECK(mismatches == 0);
}

TEST_CASE("uniform_below matches Boost at the edges of every bucket") {
  // Boost's bucket is d = floor(2^64 / n); values next to multiples of d are where the
  // quick estimate needs its correction, and values past n * d are rejected.
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  int mismatches = 0, checked = 0;
  for (std::uint64_t n : {2ull, 3ull, 5ull, 6ull, 7ull, 64ull, 70ull, 71ull, 100ull, 584ull,
                          1000ull, 65535ull, 65536ull, 1000003ull, 2147483648ull,
                          4294967291ull, 4294967295ull}) {
    const std::uint64_t d = kMax / n + (kMax % n == n - 1 ? 1 : 0);
    for (std::uint64_t k = 0; k <= n; ++k) {
      if (k == 40 && n > 80) k = n - 40;  // both ends of large ranges
      for (std::uint64_t off = 0; off < 8; ++off) {
        // k*d - 4 .. k*d + 3, clamped into the engine's range
        const std::uint64_t base = k * d;  // no overflow: k * d <= n * d <= 2^64 - 1 + ...
        const bool over = k != 0 && base / k != d;
        std::uint64_t x = over ? kMax - off : base + off - 4;
        if (k == 0 && off < 4) x = off;
        Scripted e1, e2;
        e1.first = e2.first = {x, kMax - off};
        const std::uint64_t mine = carc::uniform_below(e1, std::uint32_t(n));
        const std::uint64_t theirs = boost_uniform(e2, n);
        mismatches += mine != theirs || e1.drawn != e2.drawn;
        ++checked;
      }
    }
  }
  CHECK(checked > 5000);
  CHECK(mismatches == 0);
}

TEST_CASE("uniform_below of 1 draws nothing, like Boost") {
  Scripted e;
  CHECK(carc::uniform_below(e, 1) == 0);
  CHECK(e.drawn == 0);
}
