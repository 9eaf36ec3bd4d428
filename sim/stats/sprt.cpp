#include "sim/stats/sprt.hpp"

#include <algorithm>
#include <cmath>

namespace carc::sim {

double SprtTest::lower() const { return std::log(beta / (1 - alpha)); }
double SprtTest::upper() const { return std::log((1 - beta) / alpha); }

double sprt_llr(const SprtTest& t, std::uint64_t n, long double sum, long double sum_sq) {
  if (n < 2) return 0.0;
  const long double nn = static_cast<long double>(n);
  // In long double from exact integer sums (compare's), so the same number on every run.
  const long double var = std::max<long double>((sum_sq - sum * sum / nn) / (nn - 1), kSprtMinVariance);
  const long double mean = sum / nn;
  const long double d0 = t.d0, d1 = t.d1;
  return double(nn * (d1 - d0) * (2 * mean - d0 - d1) / (2 * var));
}

SprtDecision sprt_decide(const SprtTest& t, double llr) {
  if (llr >= t.upper()) return SprtDecision::accept_h1;
  if (llr <= t.lower()) return SprtDecision::accept_h0;
  return SprtDecision::inconclusive;
}

const char* sprt_result_name(SprtDecision d) {
  switch (d) {
    case SprtDecision::accept_h0: return "H0";
    case SprtDecision::accept_h1: return "H1";
    default: return "inconclusive";
  }
}

std::uint64_t sprt_next_checkpoint(std::uint64_t done, std::uint64_t cap) {
  if (done >= cap) return cap;
  const std::uint64_t step = std::max(kSprtStep, done / 10 / kSprtStep * kSprtStep);
  // From a checkpoint, the next; from elsewhere (never, but for safety), the next multiple.
  return std::min(cap, (done + step) / kSprtStep * kSprtStep);
}

}  // namespace carc::sim
