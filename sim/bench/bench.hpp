// Speed measurements (carcsolo bench): games per second of each placement policy on one
// thread and on all threads (wall clock, and per CPU-second), and one-thread
// micro-benchmarks of the engine (placement, legal-move generation, State copy, random
// rollouts) in CPU time of the thread. Every figure is measured several times; the report
// gives the median and the best repetition (on a busy machine the best is the closer
// estimate of the undisturbed speed).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/state.hpp"
#include "policies/context.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct BenchOptions {
  std::uint64_t games = 200000;  // games per repetition, at most (slow policies play fewer)
  double seconds = 1.0;          // a repetition of a slower policy lasts about this long
  int reps = 5;
  int threads = 1;               // the "all threads" column
  int colors = 3, meeples = 4;
  // The rules (--tileset, --large-meeple) are the context's: the base game by default.
  const Ruleset& rules() const { return *context.rules; }
  bool base_game() const { return context.rules->base_game(); }
  Config game_config() const { return Config{colors, meeples, context.rules}; }
  std::vector<std::string> placements;  // canonical specs; empty: every registered one
  std::vector<std::string> scorings = {"as-found"};  // every placement with each of these
  bool policies = true, micro = true;   // which parts to run
  PolicyContext context;                // what the policies are made from (the rules, --value-net)
};

// Repeated measurements of one quantity.
struct Samples {
  std::vector<double> values;
  bool higher_is_better = true;
  double median() const;
  double best() const;  // the highest or lowest, as fits
  nlohmann::json to_json() const;
};

struct PolicyFigures {
  std::string placement, scoring;  // canonical specs
  std::string label;                // for tables: the short spec (short_placement_spec)
  std::uint64_t games = 0;  // per repetition
  Samples one_thread, all_threads;  // games per second (wall clock)
  // Games per second of the process's CPU time (all threads together): less disturbed
  // by other programs than wall-clock time; idle waiting threads count.
  Samples one_thread_cpu, all_threads_cpu;
  double scaling() const;           // median(all_threads) / median(one_thread)
  // Of the games of the first one-thread repetition: how long and how good they were.
  double mean_tiles = 0, mean_result = 0;
};

struct MicroFigure {
  std::string name, unit, what;  // e.g. "place", "ns", "per placement: ..."
  Samples samples;
};

struct BenchReport {
  BenchOptions options;
  std::string cpu, compiler;
  int logical_cpus = 0;
  std::vector<PolicyFigures> policies;
  std::vector<MicroFigure> micro;

  // `program`: what the file records of the program that measured (version, commit).
  nlohmann::json to_json(const ProgramInfo& program) const;
  std::string table() const;     // for a terminal
  std::string markdown() const;  // tables for results/performance.md
};

// Runs what `options` asks for; `progress` (may be empty) hears one line per figure.
BenchReport run_bench(const BenchOptions& options,
                      const std::function<void(const std::string&)>& progress = {});

// The processor's model name (from /proc/cpuinfo; "unknown" elsewhere) and the compiler
// that built this program.
std::string cpu_model();
std::string compiler_version();

}  // namespace carc::sim
