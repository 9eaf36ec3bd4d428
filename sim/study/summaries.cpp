#include "sim/study/summaries.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/goals.hpp"
#include "policies/policy.hpp"
#include "sim/study/texts.hpp"

namespace carc::sim {
namespace {

constexpr std::array<carc::Goal, 4> kTableGoals = {carc::Goal::total_40, carc::Goal::total_50,
                                                   carc::Goal::total_60, carc::Goal::all_tiles};

std::string fmt(const char* f, double a, double b) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

}  // namespace

void print_compare_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r) {
  for (std::size_t k = 0; k < cfg.size(); ++k) {
    const Accumulator& a = r.acc[k];
    os << "  [" << k << "] " << policies_text(cfg[k]) << ": mean " << fmt("%.3f ± %.3f", a.mean(), a.ci_half_width())
       << ", p10/p50/p90 " << a.quantile(10) << "/" << a.quantile(50) << "/" << a.quantile(90) << "\n";
  }
  // Each later run against the first; with --pairs all, every other pair after them.
  const auto pairs = matrix_pairs(cfg.size(), r.diff.size() + 1 > cfg.size());
  for (std::size_t i = 0; i < pairs.size() && i < r.diff.size(); ++i) {
    const PairedDiff& d = r.diff[i];
    const std::string a = std::to_string(pairs[i].first), b = std::to_string(pairs[i].second);
    os << "[" << b << "] - [" << a << "]: mean difference " << fmt("%+.3f ± %.3f", d.mean(), d.ci_half_width())
       << fmt(" (95%% CI [%.3f, %.3f])", d.mean() - d.ci_half_width(), d.mean() + d.ci_half_width())
       << "; per game [" << b << "] wins " << d.wins() << ", draws " << d.draws() << ", loses "
       << d.losses() << "\n";
  }
  // Every goal: each policy's rate, then each paired difference against [0] with its 95% CI.
  char cell[64];
  os << "  goal rates\n    goal         ";
  for (std::size_t k = 0; k < cfg.size(); ++k) {
    std::snprintf(cell, sizeof cell, "%9s  ", ("[" + std::to_string(k) + "]").c_str());
    os << cell;
  }
  for (std::size_t k = 1; k < cfg.size(); ++k) os << "   [" << k << "] - [0] (paired 95% CI)";
  os << "\n";
  for (int g = 0; g < carc::kGoalCount; ++g) {
    char name[32];
    std::snprintf(name, sizeof name, "    %-13s", std::string(carc::kGoalIds[std::size_t(g)]).c_str());
    os << name;
    for (std::size_t k = 0; k < cfg.size(); ++k) {
      std::snprintf(cell, sizeof cell, "%8.3f%%  ", 100 * r.acc[k].goal_rate(g));
      os << cell;
    }
    for (std::size_t k = 1; k < cfg.size(); ++k) {
      const PairedDiff& d = r.diff[k - 1];
      os << fmt("   %+8.3f%% ± %.3f%%", 100 * d.goal_mean(g), 100 * d.goal_ci_half_width(g));
    }
    os << "\n";
  }
}

void print_sweep_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r) {
  const bool several = cfg.front().placement_policy != cfg.back().placement_policy;
  for (std::size_t k = 0; k < cfg.size(); ++k) {
    if (k == 0 || cfg[k].placement_policy != cfg[k - 1].placement_policy) {
      if (several) os << "placement " << short_placement_spec(cfg[k].placement_policy) << "\n";
      os << "colours meeples    games  mean ± 95% CI      p10 p50 p90  total_40 total_50 total_60 "
            "all_tiles  no_meeple tiles_exh\n";
    }
    const Accumulator& a = r.acc[k];
    const nlohmann::json j = a.to_json(cfg[k], ProgramInfo{}, Performance{});
    char line[256];
    std::snprintf(line, sizeof line, "%7d %7d %8llu %7.3f ± %-8.3f %4d%4d%4d ", cfg[k].colors,
                  cfg[k].meeples, static_cast<unsigned long long>(a.games()), a.mean(),
                  a.ci_half_width(), a.quantile(10), a.quantile(50), a.quantile(90));
    os << line;
    for (auto g : kTableGoals)
      os << fmt("%8.2f%%", 100 * j["goals"][std::string(carc::kGoalIds[std::size_t(g)])]["rate"].get<double>())
         << (g == carc::Goal::all_tiles ? "" : " ");
    os << fmt("  %8.2f%%", 100 * j["end_reasons"]["no_meeple"]["rate"].get<double>())
       << fmt(" %8.2f%%", 100 * j["end_reasons"]["tiles_exhausted"]["rate"].get<double>()) << "\n";
  }
}

void print_compare_summary(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r,
                   std::uint64_t first_game, int threads) {
  os << "carcsolo compare: " << cfg[0].colors << " colours x " << cfg[0].meeples
     << " meeples, seed " << cfg[0].seed << ", games [" << first_game << ", "
     << first_game + r.games_done << ")" << (r.partial ? "  (interrupted: partial)" : "") << "\n";
  print_compare_table(os, cfg, r);
  // As the progress line counts: game indices, each played under every policy.
  const double per_second = r.seconds > 0 ? double(r.games_done) / r.seconds : 0;
  os << "speed: " << rate_text(per_second) << " games/s, each under " << cfg.size() << " policies ("
     << rate_text(per_second * double(cfg.size())) << " games played/s) on " << threads << " thread(s)\n";
}

void print_sweep_summary(std::ostream& os, const MatrixStudy& study, const MatrixOutcome& r,
                   const nlohmann::json& closest, int threads) {
  const RunConfig& c0 = study.configs[0];
  os << "carcsolo sweep: "
     << (study.placements.size() > 1 ? std::to_string(study.placements.size()) + " placements"
                                     : short_placement_spec(c0.placement_policy))
     << " / " << short_scoring_spec(c0.scoring_policy) << ", seed "
     << c0.seed << ", games [" << study.first_game << ", " << study.first_game + r.games_done
     << ") per option" << (r.partial ? "  (interrupted: partial)" : "") << "\n";
  print_sweep_table(os, study.configs, r);
  for (const auto& c : closest)
    os << "closest to " << c["target"].get<std::string>() << " = " << c["value"].get<double>()
       << (c.contains("placement_policy") ? " for " + short_placement_spec(c["placement_policy"].get<std::string>()) : "")
       << ": " << c["colors"] << " colours x " << c["meeples"] << " meeples ("
       << c["achieved"].get<double>() << ")\n";
  os << "speed: " << rate_text(r.seconds > 0 ? double(r.games_done * study.configs.size()) / r.seconds : 0)
     << " games/s on " << threads << " thread(s)\n";
}

std::string compare_progress_text(const MatrixOutcome& o) {
  return fmt("difference %+.3f ± %.3f", o.diff[0].mean(), o.diff[0].ci_half_width());
}

// "means 3.31..6.70, widest CI ± 0.071"
std::string sweep_progress_text(const MatrixOutcome& o) {
  double lo = 1e9, hi = -1e9, widest = 0;
  for (const auto& a : o.acc) {
    lo = std::min(lo, a.mean());
    hi = std::max(hi, a.mean());
    widest = std::max(widest, a.ci_half_width());
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "means %.2f..%.2f, widest CI ± %.3f", lo, hi, widest);
  return buf;
}

}  // namespace carc::sim
