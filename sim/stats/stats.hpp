// Statistics of a simulation run and the results file `carcassonne-solo-results/1`
// (docs/results-format.md).
//
// Everything is kept as exact integer counts and histograms; every mean, deviation,
// quantile and interval is derived from them when asked. So merging per-thread or
// per-file accumulators is exact, and the output does not depend on the order in which
// games were added, nor on how they were split between threads, processes or files.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/goals.hpp"
#include "core/state.hpp"
#include "policies/context.hpp"

namespace carc::sim {

using carc::kMaxColors;
inline constexpr int kMaxResult = carc::kScoreLimit - 1;  // results are 0..kMaxResult
inline constexpr int kMaxTilesPlaced = carc::kMaxTiles - 1;  // all but the start tile
inline constexpr const char* kResultsFormat = "carcassonne-solo-results/1";

// One finished game.
struct GameOutcome {
  int colors = 0;                   // 2..6
  std::array<int, kMaxColors> scores{};  // final score per colour (first `colors` used), >= 0
  int result = 0;                   // lowest final score, 0..kMaxResult
  carc::EndReason end = carc::EndReason::none;  // no_meeple or tiles_exhausted
  int tiles_placed = 0;             // 0..71 (excludes start tile and discards)
  int discards = 0;                 // discarded draws in the game, >= 0
  carc::GoalMask goals = 0;         // bit i = goal i in kGoalIds order
};

// What was run. Start scores are always 1..colors.
struct RunConfig {
  int colors = 3, meeples = 4;
  std::string placement_policy = "random", scoring_policy = "random";
  std::uint64_t seed = 1, first_game = 0, games = 0;
  // The learned value the policies that use one played with (`config.value_net`): its hash
  // (the net's name, docs/value-format.md) and source, "built-in" or "file". Empty hash: not
  // known (a file of a version that did not record it, a config made by hand): nothing written.
  std::string value_net_hash, value_net_source;
  std::string value_net_path;  // source "file": the path given (for replay commands; not written)
  // What the policies of this run are made from besides their specs (the rules of its
  // games, the net above; policies/context.hpp): handed to every make_placement_policy for
  // the run. The rules are written (tileset, tileset_hash, large_meeple); the rest is not.
  PolicyContext context;

  // The rules of the run's games (core/ruleset.hpp): the context's.
  const Ruleset& rules() const { return *context.rules; }
  // The game's configuration as the engine takes it.
  Config game_config() const { return Config{colors, meeples, context.rules}; }
  // Whether the game is the base game's (nothing of the expansions): the files of a base
  // game hold no field of the expansions (no tileset_hash, no large_meeple).
  bool base_game() const { return context.rules->base_game(); }
  // The --tileset a command line gives for these rules: a built-in name or the file's path.
  const std::string& tileset_spec() const { return context.rules->spec(); }
};

struct Performance {
  int threads = 1;
  double seconds = 0;
};

// The program that wrote a file, and how it was built and invoked. Only name, version and
// git are always written; the rest when known (files of older versions lack them).
struct ProgramInfo {
  std::string name = "carcsolo", version, git;
  int dirty = -1;                         // the tree differed from `git` at build time: 1; -1: unknown
  std::string compiler, flags, build_type;  // "GNU 12.2.0", "-O3 -DNDEBUG", "Release"
  std::vector<std::string> command_line;  // argv, paths as given relative to the working directory
                                          // (written under `performance`)
  std::string python_call;  // instead of command_line when a Python policy played: the call
                            // (written under `performance`; no command line can play it)
};
// `program` of a results, compare or sweep file: what wrote it, the same for every run of
// one build.
nlohmann::json program_json(const ProgramInfo& p);
// `performance` of such a file: threads, seconds and p's command line or Python call (which, like the
// timings, may differ between two runs of one config: results-format.md lets only
// `performance` differ).
nlohmann::json performance_json(const ProgramInfo& p, int threads, double seconds);

// Two-sided 95% Wilson score interval (z = 1.96) of `successes` out of `trials`;
// [0, 0] when trials == 0. Always within [0, 1]; the lower bound is exactly 0 when
// successes == 0 and the upper exactly 1 when successes == trials.
std::array<double, 2> wilson95(std::uint64_t successes, std::uint64_t trials);

// "1 game", "12 games": a count of games as summaries and messages say it.
std::string games_text(std::uint64_t n);

// Exact accumulators over finished games. A value type (about 9 KB, no heap): keep one
// per thread and merge them at the end.
class Accumulator {
 public:
  // O(1), no heap. Preconditions (asserted in debug builds): fields within the ranges
  // documented in GameOutcome, end != none, and the same `colors` for every game of one
  // accumulator. Release builds clamp an out-of-range result/tiles_placed to its range.
  void add(const GameOutcome& game);

  // Exact and order-independent: a.merge(b) equals adding b's games to a.
  // Throws std::invalid_argument when both hold games of different colour counts.
  void merge(const Accumulator& other);

  std::uint64_t games() const { return games_; }
  int colors() const { return colors_; }  // 0 while no game has been added

  // Of the result (the lowest final score). All are 0 when games() == 0.
  std::uint64_t result_sum() const;            // exact
  std::uint64_t result_sum_of_squares() const; // exact
  double mean() const;
  double stddev() const;         // sample standard deviation (n - 1); 0 when n < 2
  double ci_half_width() const;  // 1.96 * stddev / sqrt(n): half the 95% CI of the mean
  // The p-quantile, percent in 1..100: the smallest value v such that at least
  // ceil(percent * n / 100) results are <= v (computed in integers, so p50 of 2 games
  // is the lower one). 0 when n == 0.
  int quantile(int percent) const;
  int min_result() const;  // 0 when n == 0
  int max_result() const;  // 0 when n == 0
  double mean_tiles_placed() const;  // 0 when n == 0

  // The results document, exactly as results-format.md, plus `result.sum`,
  // `colors[i].score_sum` and `discards.total` so that from_json can rebuild the
  // accumulators exactly. `config.games` and top-level `games` are both games()
  // (what the file covers; config.games is not consulted). `config.colors` must equal
  // colors() when games() > 0 (asserted). With zero games every mean, quantile, min and
  // max is 0 and every interval [0, 0]: the document never holds NaN.
  nlohmann::json to_json(const RunConfig& config, const ProgramInfo& program,
                         const Performance& performance) const;

  // Rebuilds the accumulators of a results document, so that
  // from_json(a.to_json(...)) == a. Checks the format id, types, ranges and that the
  // counts agree with each other; throws std::runtime_error with a one-line message
  // naming the offending key otherwise. Unknown extra keys are ignored, but unknown
  // goal or end-reason ids are rejected (a merge would silently drop them).
  static Accumulator from_json(const nlohmann::json& doc);

  // A few lines for a terminal: games, mean result with its 95% CI, std, min/max,
  // p10/p50/p90, end-reason rates, mean tiles placed and discards, and every goal's rate
  // with its 95% Wilson interval (all rates in percent with three decimals). Of one game,
  // game_summary(): no interval says anything about one game.
  std::string summary() const;
  // The games that reached goal `g` (enum order).
  std::uint64_t goal_count(int g) const { return goal_counts_[std::size_t(g)]; }
  // The one game as it ended: "1 game: result R; scores S0, S1, S2", its end reason, tiles
  // placed and discards, and the goals it reached ("none" when none). Precondition:
  // games() == 1.
  std::string game_summary() const;
  // The goals reached per game: the sum of the 14 rates (0 when no game was played).
  double goals_per_game() const {
    std::uint64_t k = 0;
    for (const std::uint64_t c : goal_counts_) k += c;
    return games_ ? double(k) / double(games_) : 0.0;
  }
  // The share of games that reached goal `g` (0 when no game was played).
  double goal_rate(int g) const {
    return games_ ? double(goal_counts_[std::size_t(g)]) / double(games_) : 0.0;
  }

  bool operator==(const Accumulator&) const = default;

 private:
  std::uint64_t games_ = 0;
  int colors_ = 0;
  std::array<std::uint64_t, kMaxResult + 1> result_hist_{};
  std::array<std::uint64_t, kMaxColors> score_sums_{};
  std::array<std::uint64_t, 3> end_counts_{};  // indexed by EndReason; [none] stays 0
  std::array<std::uint64_t, kMaxTilesPlaced + 1> tiles_hist_{};
  std::uint64_t discards_total_ = 0, games_with_discard_ = 0;
  std::array<std::uint64_t, carc::kGoalCount> goal_counts_{};
};

// The `config` part of a results document (for `merge`, which must check that the
// files agree). Throws std::runtime_error with a one-line message on malformed input,
// including start_scores other than [1..colors].
RunConfig run_config_from_json(const nlohmann::json& doc);

}  // namespace carc::sim
