// libFuzzer target: the rules engine under arbitrary decisions (tests/fuzz/engine_check.hpp).
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/engine_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    carc::fuzz::check_engine_on(data, size);
  } catch (const carc::fuzz::Violation& v) {
    std::fprintf(stderr, "fuzz_engine: invariant broken: %s\n", v.what());
    std::abort();
  }
  return 0;
}
