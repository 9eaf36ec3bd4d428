// The 14 official goals of the solo variant (rules.md, "Goals") and the end reasons.
#pragma once
#include <array>
#include <cstdint>
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

enum class EndReason : std::uint8_t { none, no_meeple, tiles_exhausted };
inline constexpr std::string_view end_reason_id(EndReason r) {
  return r == EndReason::no_meeple ? "no_meeple"
         : r == EndReason::tiles_exhausted ? "tiles_exhausted" : "none";
}

}  // namespace carc
