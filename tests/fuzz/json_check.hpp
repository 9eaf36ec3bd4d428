// The JSON readers under arbitrary bytes: the results readers (Accumulator::from_json,
// run_config_from_json) and the game-log reader and checker of `verify` (LogReader,
// verify_game_log) must either accept the input or throw their documented
// std::runtime_error; anything else (another exception, a crash, a sanitizer report) is a
// bug. An accepted results document must also survive a round trip. Used by the libFuzzer
// target fuzz_json and by ctest (corpus).
#pragma once
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/stats/stats.hpp"
#include "sim/log/verify.hpp"

namespace carc::fuzz {

inline void check_json_readers_on(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_discarded()) {
    try {
      const sim::Accumulator a = sim::Accumulator::from_json(doc);
      sim::RunConfig rc;
      rc.colors = a.games() ? a.colors() : 3;
      const sim::Accumulator b = sim::Accumulator::from_json(a.to_json(rc, {}, {}));
      if (!(a == b)) throw std::logic_error("results round trip changed the accumulators");
    } catch (const std::runtime_error&) {
    }
    try {
      (void)sim::run_config_from_json(doc);
    } catch (const std::runtime_error&) {
    }
  }
  std::istringstream in(text);
  sim::LogReader reader(in);
  nlohmann::json log;
  long line = 0;
  try {
    while (reader.next(log, line)) {
      try {
        if (const auto r = sim::verify_game_log(log)) (void)r->message();
      } catch (const std::runtime_error&) {
      }
    }
  } catch (const std::runtime_error&) {
  }
}

}  // namespace carc::fuzz
