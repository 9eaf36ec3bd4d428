// Several configurations played on the same game indices (common random numbers): game i
// of seed s deals the same tile order under every placement and scoring policy, so the
// per-game difference between two policies varies far less than the difference of two
// independent runs. OpenMP over game indices; every accumulator is exact integers, so the
// outcome does not depend on the thread count or on scheduling.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/stats.hpp"

namespace carc::sim {

// Per-game differences of a second configuration against a first on the same games:
// result (second - first) as exact integer sums, wins/draws/losses of the second, and per
// goal the games where only one of the two achieved it. Exact and order-independent.
class PairedDiff {
 public:
  void add(const GameOutcome& first, const GameOutcome& second);
  void merge(const PairedDiff& other);

  std::uint64_t games() const { return games_; }
  std::int64_t sum() const { return sum_; }                // of second - first
  std::uint64_t sum_of_squares() const { return sum_sq_; }
  std::uint64_t wins() const { return wins_; }      // second's result > first's
  std::uint64_t draws() const { return draws_; }
  std::uint64_t losses() const { return losses_; }  // second's result < first's

  // Of the per-game result difference; 0 when there are no games.
  double mean() const;
  double stddev() const;         // sample (n - 1); 0 when n < 2
  double ci_half_width() const;  // 1.96 * stddev / sqrt(n)

  // Goal g (enum order): rate(second) - rate(first), with the half-width of its paired 95%
  // interval (normal approximation over the per-game differences in {-1, 0, 1}; 0 when
  // the two never disagree on the goal).
  double goal_mean(int g) const;
  double goal_ci_half_width(int g) const;

  // { games, mean, std, stderr, ci95, sum, sum_of_squares, wins, draws, losses,
  //   goals: { id: { first_count, second_count, only_first, only_second, difference,
  //                  ci95 } } }
  nlohmann::json to_json() const;

  bool operator==(const PairedDiff&) const = default;

 private:
  std::uint64_t games_ = 0, sum_sq_ = 0, wins_ = 0, draws_ = 0, losses_ = 0;
  std::int64_t sum_ = 0;
  std::array<std::uint64_t, carc::kGoalCount> only_first_{}, only_second_{}, both_{};
};

struct MatrixOutcome;

// Every configuration plays every game index of [first_game, first_game + games).
struct MatrixRequest {
  // K >= 1 configurations; their seed, colours, meeples and policies are used, their
  // first_game and games are not (the request's range applies to all).
  std::vector<RunConfig> configs;
  std::uint64_t first_game = 0, games = 0;
  bool paired = false;  // also accumulate PairedDiff of each config k >= 1 against config 0
  int threads = 1;
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: finish early
  // When set, a progress line on stderr a few times a second: games, games/s, this
  // function's text (given an estimate of the totals so far), ETA.
  std::function<std::string(const MatrixOutcome&)> progress;
};

struct MatrixOutcome {
  std::vector<Accumulator> acc;  // per config
  std::vector<PairedDiff> diff;  // diff[k - 1]: config k against config 0 (when paired)
  std::vector<double> config_seconds;  // wall-time share spent in each config's games
  // Game indices [first_game, first_game + games_done) are in every acc and diff.
  std::uint64_t games_done = 0;
  double seconds = 0;
  bool partial = false;  // stopped before the requested range was complete

  // Appends the outcome of the game range that follows this one.
  void append(const MatrixOutcome& next);
  // The results document of config k with `program` and its share of the time.
  nlohmann::json run_json(const RunConfig& config, std::uint64_t first_game,
                          const ProgramInfo& program, int threads, std::size_t k) const;
};

// Plays the request. A stop request finishes the blocks already started, so the outcome
// always covers a prefix of the range (partial = true when it is shorter).
MatrixOutcome play_matrix(const MatrixRequest& req);

// For "play until the 95% CI half-width is at most `target`": the game count at which to
// look again, given `done` games and the current half-width. Aims at 1.1 times what
// half-width ~ 1/sqrt(n) predicts, but at least done + min_step and at most 4 * done and
// `cap`. Deterministic in its arguments, so a stopping rule that uses it is reproducible.
std::uint64_t next_checkpoint(std::uint64_t done, double half_width, double target,
                              std::uint64_t min_step, std::uint64_t cap);

}  // namespace carc::sim
