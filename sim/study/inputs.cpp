#include "sim/study/inputs.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "core/goals.hpp"
#include "policies/policy.hpp"
#include "policies/value_net.hpp"
#include "sim/driver/tilesets.hpp"

namespace carc::sim {

std::uint64_t parse_count(const std::string& opt, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw UsageError("--" + opt + " must be an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + " (got '" + text + "')");
  return v;
}

namespace {
// A number as a person writes it: 0.05, 1, 1000000000 (no trailing zeros, no exponent for
// the bounds used here).
std::string plain_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}
}  // namespace

double parse_real(const std::string& opt, const std::string& text, double lo, double hi, bool above_lo) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) ||
      (above_lo ? v <= lo : v < lo) || v > hi)
    throw UsageError("--" + opt + " must be a number " +
                     (above_lo ? "above " + plain_number(lo) + ", at most " + plain_number(hi)
                               : "from " + plain_number(lo) + " to " + plain_number(hi)) +
                     " (got '" + text + "')");
  return v;
}

std::vector<int> parse_int_list(const std::string& opt, const std::string& text, int lo, int hi) {
  std::vector<int> out;
  const auto add = [&](int v) {
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw UsageError("--" + opt + " lists " + std::to_string(v) + " twice (got '" + text + "')");
    out.push_back(v);
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      add(int(parse_count(opt, item, std::uint64_t(lo), std::uint64_t(hi))));
    } else {
      const int a = int(parse_count(opt, item.substr(0, dots), std::uint64_t(lo), std::uint64_t(hi)));
      const int b = int(parse_count(opt, item.substr(dots + 2), std::uint64_t(lo), std::uint64_t(hi)));
      if (a > b) throw UsageError("--" + opt + ": empty range '" + item + "'");
      for (int v = a; v <= b; ++v) add(v);
    }
    pos = comma + 1;
  }
  return out;
}

Stacks read_deal_file(const std::string& path, const TileCounts& tiles) {
  std::ifstream in(path);
  if (!in) throw UsageError("--deal: cannot read " + path + ": " + std::strerror(errno));
  try {
    return read_deal(in, tiles);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--deal " + path + ": " + e.what());
  }
}

void select_value_net(const std::string& path, RunConfig& rc) {
  rc.value_net_path = path;
  if (path.empty()) {
    rc.context.net = nullptr;
    rc.value_net_hash = ValueNet::builtin().hash();
    rc.value_net_source = "built-in";
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError("--value-net " + path + ": is a directory, not a carcsolo-value/1 file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) throw UsageError("--value-net: cannot read " + path + ": " + std::strerror(errno));
  std::shared_ptr<const ValueNet> net;
  try {
    net = std::make_shared<const ValueNet>(ValueNet::parse(text.str()));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--value-net " + path + ": " + e.what());
  }
  rc.context.net = net;
  rc.value_net_hash = net->hash();
  rc.value_net_source = "file";
}

void select_aim(const std::string& id, RunConfig& rc) {
  const std::optional<Aim> aim = parse_aim(id);
  if (!aim) {
    std::string ids;
    for (const std::string_view g : kGoalIds) ids += std::string(", ") + std::string(g);
    throw UsageError("--aim: unknown aim '" + id + "' (score, goals" + ids + ")");
  }
  rc.context.aim = *aim;
}

void select_tileset(const std::string& spec, bool large_meeple, RunConfig& rc) {
  try {
    Rules rules = load_ruleset(spec, large_meeple);
    check_colors(*rules, rc.colors);
    rc.context.rules = std::move(rules);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--tileset: ") + e.what());
  }
}

void check_game_range(std::uint64_t first, std::uint64_t games) {
  if (games > 0 && (first > kMaxGameIndex || games - 1 > kMaxGameIndex - first))
    throw UsageError("--first-game " + std::to_string(first) + " with --games " + std::to_string(games) +
                     ": the games must end at index " + std::to_string(kMaxGameIndex) +
                     " at most (the largest game replay takes)");
}
std::vector<RunConfig> compare_configs(const RunConfig& base, std::vector<std::string> placement,
                                       std::vector<std::string> scoring, std::vector<std::string> aims) {
  if (placement.empty()) placement.push_back("random");
  if (scoring.empty()) scoring.push_back("random");
  if (aims.empty()) aims.push_back("score");
  const std::size_t k = std::max({placement.size(), scoring.size(), aims.size()});
  if (k < 2)
    throw UsageError("compare needs two policies: --placement A --placement B (or two --scoring)");
  if ((placement.size() != 1 && placement.size() != k) || (scoring.size() != 1 && scoring.size() != k))
    throw UsageError("--placement and --scoring must be given equally often, or one of them once "
                     "(got " + std::to_string(placement.size()) + " and " +
                     std::to_string(scoring.size()) + ")");
  if (aims.size() != 1 && aims.size() != k)
    throw UsageError("--aim must be given once or once per policy (got " + std::to_string(aims.size()) +
                     " for " + std::to_string(k) + " policies)");
  std::vector<RunConfig> out;
  for (std::size_t i = 0; i < k; ++i) {
    RunConfig c = base;
    select_aim(aims[aims.size() == 1 ? 0 : i], c);
    try {
      c.placement_policy = canonical_placement(placement[placement.size() == 1 ? 0 : i]);
      c.scoring_policy = canonical_scoring(scoring[scoring.size() == 1 ? 0 : i]);
      if (!c.context.aim.is_score()) (void)make_placement_policy(c.placement_policy, c.context);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    out.push_back(c);
  }
  return out;
}

Target parse_target(const std::string& text) {
  const auto eq = text.find('=');
  const std::string key = text.substr(0, eq);
  const bool known = key == "mean" || std::find(carc::kGoalIds.begin(), carc::kGoalIds.end(),
                                                key) != carc::kGoalIds.end();
  if (eq == std::string::npos || !known)
    throw UsageError("--target must be GOAL=RATE (a goal id of rules.md) or mean=VALUE (got '" +
                     text + "')");
  const bool is_mean = key == "mean";
  try {
    return {key, parse_real("target", text.substr(eq + 1), 0, is_mean ? double(kMaxResult) : 1.0)};
  } catch (const UsageError&) {  // the message names the target and what its value may be
    throw UsageError("--target " + key + "=VALUE: " + (is_mean ? "a mean result" : "a goal rate") +
                     " must be a number from 0 to " + (is_mean ? std::to_string(kMaxResult) : std::string("1")) +
                     " (got '" + text + "')");
  }
}

RunConfig GameChoice::resolve() const {
  RunConfig rc;
  rc.colors = int(parse_count("colors", colors, kMinColors, kMaxColors));
  rc.meeples = int(parse_count("meeples", meeples, kMinMeeples, kMaxMeeples));
  rc.seed = parse_count("seed", seed, 0, UINT64_MAX);
  select_tileset(tileset, large_meeple, rc);
  select_value_net(value_net, rc);
  if (aim_list.size() > 1)
    throw UsageError("--aim: one aim (got " + std::to_string(aim_list.size()) + "; compare takes one per policy)");
  select_aim(aim_list.empty() ? "score" : aim_list[0], rc);
  try {
    rc.placement_policy = canonical_placement(placement);
    rc.scoring_policy = canonical_scoring(scoring);
    // A player that cannot play this set (the learned value knows the base game only), or
    // cannot aim, is bad input, found before any game.
    if (!rc.base_game() || (policies && !rc.context.aim.is_score()))
      (void)make_placement_policy(rc.placement_policy, rc.context);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return rc;
}

std::vector<RunConfig> GameChoice::resolve_grid(std::vector<std::string>& placements,
                                                 std::vector<int>& color_list,
                                                 std::vector<int>& meeple_list) const {
  color_list = parse_int_list("colors", colors, kMinColors, kMaxColors);
  meeple_list = parse_int_list("meeples", meeples, kMinMeeples, kMaxMeeples);
  placements.clear();
  std::vector<RunConfig> out;
  for (const std::string& p : placement_list.empty() ? std::vector<std::string>{placement} : placement_list) {
    GameChoice one = *this;
    one.colors = std::to_string(color_list[0]);
    one.meeples = std::to_string(meeple_list[0]);
    one.placement = p;
    const RunConfig base = one.resolve();
    if (std::find(placements.begin(), placements.end(), base.placement_policy) != placements.end())
      throw UsageError("--placement names " + base.placement_policy + " twice");
    placements.push_back(base.placement_policy);
    for (int c : color_list)
      for (int m : meeple_list) {
        RunConfig rc = base;
        rc.colors = c;
        rc.meeples = m;
        out.push_back(rc);
      }
  }
  return out;
}

}  // namespace carc::sim
