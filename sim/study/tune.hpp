// carcsolo tune (docs/tune.md): the search space (a placement spec and the parameters to
// tune within their bounds) and the tuning run itself, SPSA (sim/driver/spsa.hpp) over
// paired games of the driver, with periodic checks against the start, a trajectory file
// kept up to date and a final verification on a seed the tuner did not use.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/driver/spsa.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

inline constexpr const char* kTuneFormat = "carcassonne-solo-tune/1";

// A placement spec with some of its parameters free. Built from the start spec and the
// --param options ("key=lo..hi"); every mistake is a UsageError naming the option.
struct TuneSpace {
  std::string policy;                                   // the policy's name
  std::vector<std::pair<std::string, double>> fixed;    // every parameter at its start value
  std::vector<SpsaParam> params;                        // the tuned ones, in --param order

  TuneSpace(const std::string& start_spec, const std::vector<std::string>& param_options);
  // The canonical spec of the start with the tuned parameters at `values` (as the tuner's
  // points carry them: whole ones rounded).
  std::string spec(const std::vector<double>& values) const;
  std::string start_spec() const;
  // {key: value} of the tuned parameters.
  nlohmann::json values_json(const std::vector<double>& values) const;
};

struct TuneOptions {
  RunConfig base;          // colours, meeples, seed, scoring (placement: the start's)
  std::uint64_t budget = 0;        // games of tuning and checks together
  std::uint64_t batch = 100;       // game indices (evaluation pairs) per SPSA step
  std::uint64_t checks = 10, check_games = 1000;
  std::uint64_t verify_seed = 0, verify_games = 2000;  // verify_games 0: none
  SpsaSettings spsa;               // pairs filled in by plan()
  int threads = 1;
  const std::atomic<bool>* stop = nullptr;
  bool progress = false;           // a progress line on stderr
  // Called with the document whenever it changes enough to be worth writing (every
  // check, every 50 steps, the end).
  std::function<void(const nlohmann::json&)> save;

  // The evaluation pairs the budget leaves after the checks; a UsageError when none.
  std::uint64_t pairs() const;
};

// The whole run: returns the final document (status "done", or "interrupted" when `stop`
// was set; then without verification). `program` goes into the document.
nlohmann::json run_tune(const TuneSpace& space, TuneOptions opt, const ProgramInfo& program);

// The summary printed at the end (from the document).
std::string tune_summary(const nlohmann::json& doc);

}  // namespace carc::sim
