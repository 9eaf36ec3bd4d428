// The 14 official goals of the solo variant (rules.md, "Goals") and the end reasons.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace carc {

enum class Goal : std::uint8_t {
  road_10, road_10_2c, road_10_3c, road_5_3c,
  city_16, city_16_2c, city_16_3c, city_8_10_3c,
  monastery_3, monastery_4,
  total_40, total_50, total_60,
  all_tiles,
};
inline constexpr int kGoalCount = 14;

// Ids exactly as rules.md and the file formats spell them, in enum order.
inline constexpr std::array<std::string_view, kGoalCount> kGoalIds = {
    "road_10", "road_10_2c", "road_10_3c", "road_5_3c",
    "city_16", "city_16_2c", "city_16_3c", "city_8_10_3c",
    "monastery_3", "monastery_4",
    "total_40", "total_50", "total_60",
    "all_tiles"};

using GoalMask = std::uint16_t;  // bit i set: goal i (enum order) achieved
constexpr GoalMask goal_bit(Goal g) { return GoalMask(1u << static_cast<unsigned>(g)); }

// What a player plays for (`--aim`, docs/aim.md): the game's result (`score`, the
// default), the chance of reaching one goal (its id), or the number of the 14 goals
// reached (`goals`).
struct Aim {
  enum class Kind : std::uint8_t { score, goal, goals };
  Kind kind = Kind::score;
  Goal goal = Goal::road_10;  // with Kind::goal; road_10 otherwise (so == compares aims)
  static constexpr Aim score() { return Aim{}; }
  static constexpr Aim of(Goal g) { return Aim{Kind::goal, g}; }
  static constexpr Aim all_goals() { return Aim{Kind::goals, Goal::road_10}; }
  constexpr bool is_score() const { return kind == Kind::score; }
  // Whether goal g counts under the aim (none under `score`).
  constexpr bool counts(Goal g) const {
    return kind == Kind::goals || (kind == Kind::goal && goal == g);
  }
  // "score", a goal id, or "goals": as --aim takes it and `config.aim` records it.
  std::string id() const {
    return kind == Kind::score ? "score"
           : kind == Kind::goals ? "goals" : std::string(kGoalIds[static_cast<unsigned>(goal)]);
  }
  // A finished game's value under the aim: its result, 1 when the goal was reached, or
  // the number of goals reached.
  constexpr double outcome(GoalMask reached, int result) const {
    return kind == Kind::score ? double(result)
           : kind == Kind::goals ? double(std::popcount(unsigned(reached)))
                                 : double(reached >> static_cast<unsigned>(goal) & 1u);
  }
  constexpr bool operator==(const Aim&) const = default;
};

// An aim as --aim spells it; nullopt for anything else.
inline std::optional<Aim> parse_aim(std::string_view id) {
  if (id == "score") return Aim::score();
  if (id == "goals") return Aim::all_goals();
  for (int g = 0; g < kGoalCount; ++g)
    if (kGoalIds[std::size_t(g)] == id) return Aim::of(static_cast<Goal>(g));
  return std::nullopt;
}

enum class EndReason : std::uint8_t { none, no_meeple, tiles_exhausted };
inline constexpr std::string_view end_reason_id(EndReason r) {
  return r == EndReason::no_meeple ? "no_meeple"
         : r == EndReason::tiles_exhausted ? "tiles_exhausted" : "none";
}

}  // namespace carc
