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
    "REFERENCE THAT CHEATS: the best line a beam search found with the dealt stacks visible "
    "(every colour's stack order, which no player may see), seeded with the `against` "
    "policy's own line; a lower bound on the deal's optimum, never a policy";
// ...and in files whose beam did not keep the policy's line (older versions; read by `merge`).
inline constexpr const char* kCeilingReferenceV1 =
    "clairvoyant beam search over the dealt stacks: it sees every colour's stack order, which "
    "no player may; a ceiling to measure policies against, never a policy";

struct CeilingFile {
  RunConfig config;     // the ceiling's: placement "ceiling:width=W", scoring "best"
  std::string against;  // the placement played on the same games (scoring "best")
  int width = 0;
  bool policy_line = true;  // the beam kept the policy's line (false: a file of an older version)
  Accumulator ceiling, against_results;
  PairedDiff difference;  // ceiling - against, per game
  // {game, result, against_result, beam_alone_result}; beam_alone_result: the best result of
  // the lines that did not need the policy's positions, null when none reached the end
  // (absent in files whose beam did not keep the policy's line).
  nlohmann::json per_game = nlohmann::json::array();
};

// True when `doc` is a ceiling file (a results document with `reference` and `ceiling`).
bool is_ceiling_file(const nlohmann::json& doc);

// How often, over `per_game`, the reference beat the policy (`better`) and the beam on its
// own merit did (`beam_alone_better`: beam_alone_result above against_result).
struct CeilingCounts {
  std::uint64_t better = 0, beam_alone_better = 0;
};
CeilingCounts ceiling_counts(const nlohmann::json& per_game);

// The document of `f`: its results, `reference`, `ceiling` (`width`, `policy_line`, and
// with it `better` and `beam_alone_better`), `against.results`, `against.difference` and
// `per_game`. `performance`: threads and seconds as given.
nlohmann::json ceiling_document(const CeilingFile& f, int threads, double seconds, const ProgramInfo& program);

// The summary's lines after the reference's own results: the policy's mean, what knowing
// the order is worth, and (with the policy's line) how often the beam beat the policy.
std::string ceiling_summary(const CeilingFile& f);

// Reads a ceiling file back; checks that its parts cover the same games. Throws
// std::runtime_error with one line naming the key otherwise.
CeilingFile read_ceiling_file(const nlohmann::json& doc);

}  // namespace carc::sim
