// Numbers as the analysis's document and summaries write them.
#pragma once
#include <cstdio>
#include <string>

namespace carc::sim {

// The two-sided 95% quantile of the normal distribution: a mean's 95% CI is mean ± kZ95 se.
inline constexpr double kZ95 = 1.959963984540054;

// `v` with `places` decimals ("3.14").
inline std::string fixed(double v, int places = 2) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", places, v);
  return b;
}

}  // namespace carc::sim
