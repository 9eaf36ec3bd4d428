// The heuristic's chances that unfinished features finish (heuristic.hpp): the chance of
// a feature kept as a sum of logarithms, so that one factor can be taken out again, and a
// memory of exp() for the chances that recur from move to move.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "core/state.hpp"
#include "policies/type_masks.hpp"

namespace carc::heuristic {

inline constexpr int kMaxSides = 63;  // beyond, q^sides is as good as 0

// Chance that a feature finishes, kept as log-product plus count of zero factors so a
// factor can be taken out again; `sides` counts the open sides (a monastery: empty cells)
// for the q^sides discount.
struct Odds {
  double log_m = 0, log_p = 0;  // meeple horizon, points horizon
  int zeros = 0;
  int sides = 0;
  int clamped() const { return std::clamp(sides, 0, kMaxSides); }
};

// exp() with a memory of recent arguments: the same chances recur from move to move (a
// feature extended from one cell in several rotations, say). Exact: a hit returns what
// std::exp returned for the very same argument.
class ExpCache {
 public:
  ExpCache() { key_.fill(~std::uint64_t(0)); }  // the bits of a NaN: never an argument
  double operator()(double x) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
    const std::size_t h = std::size_t((bits * 0x9E3779B97F4A7C15ull) >> (64 - kBits));
    if (key_[h] != bits) {
      key_[h] = bits;
      value_[h] = std::exp(x);
    }
    return value_[h];
  }

 private:
  // A turn's chances are too many for 2,048 slots: they would push one another out.
  static constexpr int kBits = 13;
  std::array<std::uint64_t, 1 << kBits> key_;
  std::array<double, 1 << kBits> value_{};
};

// One open side's chance to be closed within the horizons, as logarithms.
struct Factor {
  double log_m = 0, log_p = 0;
  bool zero = false;   // no unseen tile closes it
  bool counts = true;  // one more open side (false: a monastery's filled cell)
  bool known = false;  // computed (in a table filled as needed)
};

inline void apply(Odds& o, const Factor& f, int sign) {
  if (f.counts) o.sides += sign;
  if (f.zero) {
    o.zeros += sign;
  } else {
    o.log_m += sign * f.log_m;
    o.log_p += sign * f.log_p;
  }
}

}  // namespace carc::heuristic
