#include "sim/study/texts.hpp"

#include <cstdio>

#include "core/goals.hpp"
#include "policies/policy.hpp"

namespace carc::sim {

std::string until_ci_line(const std::string& what, double target, double achieved,
                          std::uint64_t games, std::uint64_t cap, bool partial) {
  char buf[256];
  if (achieved <= target)
    std::snprintf(buf, sizeof buf, "until-ci: target met: %s half-width %.4g <= %g after %llu games\n",
                  what.c_str(), achieved, target, static_cast<unsigned long long>(games));
  else if (partial)
    std::snprintf(buf, sizeof buf, "until-ci: target not met: interrupted after %llu games, %s half-width %.4g > %g\n",
                  static_cast<unsigned long long>(games), what.c_str(), achieved, target);
  else
    std::snprintf(buf, sizeof buf,
                  "until-ci: target not met: stopped at the cap of %llu games, %s half-width %.4g > %g\n",
                  static_cast<unsigned long long>(cap), what.c_str(), achieved, target);
  return buf;
}

std::string shell_word(const std::string& w) {
  if (!w.empty() && w.find_first_of(" \t\n,;&|<>()$'\"\\*?[]{}~#!`") == std::string::npos) return w;
  std::string q = "'";
  for (const char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string replay_command(const RunConfig& rc, const std::string& game, const std::string& deal_path) {
  return "carcsolo replay" + (deal_path.empty() ? std::string() : " --deal " + shell_word(deal_path)) +
         " --seed " + std::to_string(rc.seed) + " --colors " + std::to_string(rc.colors) +
         " --meeples " + std::to_string(rc.meeples) +
         (rc.base_game() ? std::string()
                         : " --tileset " + shell_word(rc.tileset_spec()) +
                               (rc.rules().large_meeple() ? " --large-meeple" : "")) +
         " --placement " + shell_word(short_placement_spec(rc.placement_policy)) +
         " --scoring " + shell_word(short_scoring_spec(rc.scoring_policy)) +
         (rc.value_net_source == "file" ? " --value-net " + shell_word(rc.value_net_path) : std::string()) +
         (rc.context.aim.is_score() ? std::string() : " --aim " + rc.context.aim.id()) +
         " --game " + game;
}

std::string policies_text(const RunConfig& rc) {
  return short_placement_spec(rc.placement_policy) + " / " + short_scoring_spec(rc.scoring_policy) +
         (rc.context.aim.is_score() ? std::string() : " aiming at " + rc.context.aim.id());
}

std::string aim_line(const RunConfig& rc, const Accumulator& acc) {
  const Aim& aim = rc.context.aim;
  if (aim.is_score()) return "";
  char buf[256];
  const double n = double(acc.games());
  if (aim.kind == Aim::Kind::goal) {
    const std::uint64_t k = acc.goal_count(int(aim.goal));
    const auto ci = wilson95(k, acc.games());
    std::snprintf(buf, sizeof buf, "aim %s: reached in %.3f%% [%.3f%%, %.3f%%] (95%% Wilson) of %llu games; mean result %.3f ± %.3f\n",
                  aim.id().c_str(), n > 0 ? 100.0 * double(k) / n : 0.0, 100 * ci[0], 100 * ci[1],
                  static_cast<unsigned long long>(acc.games()), acc.mean(), acc.ci_half_width());
  } else {
    std::snprintf(buf, sizeof buf, "aim goals: %.3f goals reached per game over %llu games; mean result %.3f ± %.3f\n",
                  acc.goals_per_game(), static_cast<unsigned long long>(acc.games()), acc.mean(), acc.ci_half_width());
  }
  return buf;
}

std::string value_net_text(const RunConfig& rc) {
  if (rc.value_net_source != "file") return "";
  return ", value net " + rc.value_net_path + " (hash " + rc.value_net_hash.substr(0, 8) + ")";
}

std::string rate_text(double per_second) {
  char buf[64];
  if (per_second >= 999.5 || per_second == 0)
    std::snprintf(buf, sizeof buf, "%.0f", per_second);
  else
    std::snprintf(buf, sizeof buf, "%.3g", per_second);
  return buf;
}
}  // namespace carc::sim
