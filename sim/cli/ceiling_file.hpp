// The file of `ceiling` (a results document of the clairvoyant ceiling, a REFERENCE THAT
// CHEATS, plus the policy it was played beside): written by `ceiling`, and read back by
// `merge`, which joins shards into the file one run over their union writes. One writer
// for both, so the two cannot drift apart.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/stats/paired_diff.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

// The words every ceiling file carries under `reference`.
inline constexpr const char* kCeilingReference =
    "clairvoyant beam search over the dealt stacks: it sees every colour's stack order, which "
    "no player may; a ceiling to measure policies against, never a policy";

struct CeilingFile {
  RunConfig config;     // the ceiling's: placement "ceiling:width=W", scoring "best"
  std::string against;  // the placement played on the same games (scoring "best")
  int width = 0;
  Accumulator ceiling, against_results;
  PairedDiff difference;  // ceiling - against, per game
  nlohmann::json per_game = nlohmann::json::array();  // {game, result, against_result}
};

// True when `doc` is a ceiling file (a results document with `reference` and `ceiling`).
bool is_ceiling_file(const nlohmann::json& doc);

// The document of `f`: its results, `reference`, `ceiling.width`, `against.results`,
// `against.difference` and `per_game`. `performance`: threads and seconds as given.
nlohmann::json ceiling_document(const CeilingFile& f, int threads, double seconds);

// Reads a ceiling file back; checks that its parts cover the same games. Throws
// std::runtime_error with one line naming the key otherwise.
CeilingFile read_ceiling_file(const nlohmann::json& doc);

}  // namespace carc::sim
