// Paired statistics: per-game differences of one configuration against another on the
// same game indices (common random numbers), and the checkpoint rule of "play until the
// CI is this narrow". Exact integer sums, so merging is exact and order-independent.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "sim/stats/stats.hpp"

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
  // the two never disagree on the goal). to_json's interval is cut to [-1, 1].
  double goal_mean(int g) const;
  double goal_ci_half_width(int g) const;

  // { games, mean, std, stderr, ci95, sum, sum_of_squares, wins, draws, losses,
  //   goals: { id: { first_count, second_count, only_first, only_second, difference,
  //                  ci95 } } }
  nlohmann::json to_json() const;
  // Rebuilds a PairedDiff from to_json's document (exactly: from_json(d.to_json()) == d).
  // Checks types and that the counts agree with each other; throws std::runtime_error with
  // one line naming the key (under `where`, e.g. "differences[0]") otherwise.
  static PairedDiff from_json(const nlohmann::json& doc, const std::string& where);

  bool operator==(const PairedDiff&) const = default;

 private:
  std::uint64_t games_ = 0, sum_sq_ = 0, wins_ = 0, draws_ = 0, losses_ = 0;
  std::int64_t sum_ = 0;
  std::array<std::uint64_t, carc::kGoalCount> only_first_{}, only_second_{}, both_{};
};

// For "play until the 95% CI half-width is at most `target`": the game count at which to
// look again, given `done` games and the current half-width. Aims at 1.1 times what
// half-width ~ 1/sqrt(n) predicts, but at least done + min_step and at most 4 * done and
// `cap`. Deterministic in its arguments, so a stopping rule that uses it is reproducible.
std::uint64_t next_checkpoint(std::uint64_t done, double half_width, double target,
                              std::uint64_t min_step, std::uint64_t cap);

}  // namespace carc::sim
