// The fuzz targets' checks (tests/fuzz/) as regression tests: every input of the kept
// corpus, and seeded random games under the engine checker, in every build.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/fuzz/engine_check.hpp"
#include "tests/fuzz/json_check.hpp"

namespace {

std::vector<std::string> corpus(const char* target) {
  std::vector<std::string> out;
  const auto dir = std::filesystem::path(CARCSOLO_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / target;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return out;
}

const std::uint8_t* bytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }

}  // namespace

TEST_CASE("engine checker: the kept corpus and seeded random games keep every invariant") {
  const auto inputs = corpus("engine");
  CHECK(inputs.size() >= 1);
  for (const auto& in : inputs) CHECK_NOTHROW(carc::fuzz::check_engine_on(bytes(in), in.size()));
  std::mt19937 rng(20240607);  // only the spread of inputs matters here
  for (int i = 0; i < 150; ++i) {
    std::string in(200 + rng() % 600, '\0');
    for (auto& c : in) c = char(rng());
    CAPTURE(i);
    CHECK_NOTHROW(carc::fuzz::check_engine_on(bytes(in), in.size()));
  }
}

TEST_CASE("engine checker: a short input plays a whole game on zeros") {
  CHECK_NOTHROW(carc::fuzz::check_engine_on(nullptr, 0));
}

TEST_CASE("JSON readers: the kept corpus, whole and cut short, throws nothing undocumented") {
  const auto inputs = corpus("json");
  CHECK(inputs.size() >= 3);
  for (const auto& in : inputs)
    for (std::size_t cut : {in.size(), in.size() / 2, in.size() / 3, std::size_t(1)})
      CHECK_NOTHROW(carc::fuzz::check_json_readers_on(bytes(in), cut));
}
