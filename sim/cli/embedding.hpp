// A command run from inside another program (the Python module, python/) instead of from
// main: the same option parsing, checks and driver, but no signal handlers, no progress
// line and nothing on stdout; the document `--out` would hold, every game's outcome and the
// summary text are handed back here, and policies may be made by the caller (PolicyMakers).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/driver/matrix.hpp"

namespace carc::sim {

struct Embedding {
  PolicyMakers makers;        // in: policies the caller makes (e.g. Python callables)
  bool own_policies = false;  // in: `makers` make some policy (no command line replays its games)
  bool keep_games = true;     // in: fill per_game (48 bytes per game and configuration)
  nlohmann::json document;    // out: the results, compare or sweep document
  PerGameRows per_game;       // out: every game under every configuration
  std::vector<RunConfig> configs;  // out: the configurations, in the rows' order
  std::string summary;        // out: the summary the command prints on stdout (without -q)
};

}  // namespace carc::sim
