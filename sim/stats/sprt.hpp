// The sequential probability ratio test of `compare --sprt`: is the mean per-game result
// difference (second - first) at most D0 points (H0) or at least D1 (H1)? The GSPRT on the
// normal approximation with the variance estimated from the pairs, as fishtest uses it:
//
//   LLR = n (D1 - D0) (2 mean - D0 - D1) / (2 var)
//
// over the n differences so far (var their sample variance). Accept H0 once LLR <= A =
// ln(beta / (1 - alpha)), H1 once LLR >= B = ln((1 - beta) / alpha). The test is read only
// at fixed checkpoints of the game count (sprt_next_checkpoint) from exact sums, so where
// it stops depends on (seed, configurations, bounds) and not on threads or processes.
#pragma once
#include <cstdint>
#include <string>

namespace carc::sim {

struct SprtTest {
  double d0 = 0, d1 = 0;           // D0 < D1, in points
  double alpha = 0.05, beta = 0.05;  // each in (0, 1), alpha + beta < 1
  double lower() const;  // A = ln(beta / (1 - alpha)) < 0
  double upper() const;  // B = ln((1 - beta) / alpha) > 0
  bool operator==(const SprtTest&) const = default;
};

enum class SprtDecision { inconclusive, accept_h0, accept_h1 };

// The LLR of n differences of sum `sum` and sum of squares `sum_sq`: 0 when n < 2. A
// sample variance below kSprtMinVariance (all differences equal) counts as that floor, so
// the LLR stays finite and its sign decides.
inline constexpr double kSprtMinVariance = 1e-6;
double sprt_llr(const SprtTest& t, std::uint64_t n, long double sum, long double sum_sq);

// Which bound `llr` has reached, if any.
SprtDecision sprt_decide(const SprtTest& t, double llr);

// "H0", "H1" or "inconclusive" (the file's `sprt.result`).
const char* sprt_result_name(SprtDecision d);

// The checkpoints: every kSprtStep games up to 2000, then every tenth of the games so far
// rounded down to a multiple of kSprtStep (a geometric schedule), and the cap. The game
// count after `done` at which the test is read next (cap when done >= cap).
inline constexpr std::uint64_t kSprtStep = 100;
std::uint64_t sprt_next_checkpoint(std::uint64_t done, std::uint64_t cap);

}  // namespace carc::sim
