// carcsolo_values [GAMES]: the hash of every value the heuristic's evaluation gives over
// GAMES seeded games per configuration and weight setting (default 60;
// tests/heuristic_values.hpp). Two builds that print the same line give the same values.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/heuristic_values.hpp"

int main(int argc, char** argv) {
  int games = 60;
  if (argc > 2 || (argc == 2 && (std::string(argv[1]).find_first_not_of("0123456789") != std::string::npos ||
                                 (games = std::atoi(argv[1])) < 1 || games > 10000))) {
    std::fprintf(stderr, "carcsolo_values: usage: carcsolo_values [GAMES], GAMES 1..10000\n");
    return 2;
  }
  const carc::test::ValueHash h = carc::test::heuristic_value_hash(games);
  std::printf("%016llx over %llu values (%d games a configuration and weight setting)\n",
              static_cast<unsigned long long>(h.hash), static_cast<unsigned long long>(h.values),
              games);
  return 0;
}
