// A test case that cannot run here for want of an optional tool says so on stdout as
// "SKIP: <what is missing>"; ctest (SKIP_REGULAR_EXPRESSION in CMakeLists.txt) reports it
// as skipped, and scripts/test fails when anything was skipped.
#pragma once
#include <cstdio>
#include <string>

namespace carc::test {

inline void skip(const std::string& why) {
  std::printf("SKIP: %s\n", why.c_str());
  std::fflush(stdout);
}

}  // namespace carc::test
