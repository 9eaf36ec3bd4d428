// A command run from inside another program (the Python module, python/) instead of from
// main: the same option parsing, checks and driver, but no signal handlers, no progress
// line and no summary on stdout; the document `--out` would hold and every game's outcome
// are handed back here, and policies may be made by the caller (PolicyMakers).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/driver/matrix.hpp"

namespace carc::sim {

struct Embedding {
  PolicyMakers makers;        // in: policies the caller makes (e.g. Python callables)
  bool keep_games = true;     // in: fill per_game (48 bytes per game and configuration)
  nlohmann::json document;    // out: the results, compare or sweep document
  PerGameRows per_game;       // out: every game under every configuration
  std::vector<RunConfig> configs;  // out: the configurations, in the rows' order
};

}  // namespace carc::sim
