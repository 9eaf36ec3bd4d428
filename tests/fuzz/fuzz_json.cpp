// libFuzzer target: the JSON readers under arbitrary bytes (tests/fuzz/json_check.hpp). An
// exception other than the documented std::runtime_error escapes and aborts the run.
#include "tests/fuzz/json_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  carc::fuzz::check_json_readers_on(data, size);
  return 0;
}
