// Files of shards of one study (same configurations and seed, game ranges that together
// form one contiguous range) joined into the file one run over the union writes (equal but
// for `performance` and `program`): results, ceiling, compare and sweep files alike.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/stats/stats.hpp"

namespace carc::sim {

struct Merged {
  nlohmann::json document;  // the file of the union (performance.shards: the files joined)
  std::string kind;         // "results", "ceiling", "compare" or "sweep"
  std::string summary;      // what the command that wrote such a file prints of its games
  std::size_t files = 0;
  std::uint64_t first_game = 0, end_game = 0;  // the union's games: [first_game, end_game)
};

// Reads and joins the files `paths`. A file that cannot be read, is of another format or
// kind, of another study, or whose range overlaps or leaves a gap is a UsageError naming it.
Merged merge_files(const std::vector<std::string>& paths, const ProgramInfo& program);

}  // namespace carc::sim
