// carcsolo compare: two or more policies on the same seeded games (common random numbers),
// the paired difference of their results with a 95% CI, wins/draws/losses per game, and
// paired goal-rate differences; optionally until the CI is narrow enough.

#include <algorithm>
#include <cstdio>
#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/cli/matrix_command.hpp"
#include "sim/cli/matrix_files.hpp"
#include "sim/driver/matrix.hpp"

namespace carc::sim {
namespace {

// --placement and --scoring lists: equal lengths, or one of them a single spec shared by all.
std::vector<RunConfig> policy_configs(const RunConfig& base, std::vector<std::string> placement,
                                      std::vector<std::string> scoring) {
  if (placement.empty()) placement.push_back("random");
  if (scoring.empty()) scoring.push_back("random");
  const std::size_t k = std::max(placement.size(), scoring.size());
  if (k < 2)
    throw UsageError("compare needs two policies: --placement A --placement B (or two --scoring)");
  if ((placement.size() != 1 && placement.size() != k) || (scoring.size() != 1 && scoring.size() != k))
    throw UsageError("--placement and --scoring must be given equally often, or one of them once "
                     "(got " + std::to_string(placement.size()) + " and " +
                     std::to_string(scoring.size()) + ")");
  std::vector<RunConfig> out;
  for (std::size_t i = 0; i < k; ++i) {
    RunConfig c = base;
    try {
      c.placement_policy = canonical_placement(placement[placement.size() == 1 ? 0 : i]);
      c.scoring_policy = canonical_scoring(scoring[scoring.size() == 1 ? 0 : i]);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    out.push_back(c);
  }
  return out;
}

std::string fmt(const char* f, double a, double b) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

std::string difference_text(const MatrixOutcome& o) {
  return fmt("difference %+.3f ± %.3f", o.diff[0].mean(), o.diff[0].ci_half_width());
}

void print_summary(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r,
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

}  // namespace

void print_compare_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r) {
  for (std::size_t k = 0; k < cfg.size(); ++k) {
    const Accumulator& a = r.acc[k];
    os << "  [" << k << "] " << policies_text(cfg[k]) << ": mean " << fmt("%.3f ± %.3f", a.mean(), a.ci_half_width())
       << ", p10/p50/p90 " << a.quantile(10) << "/" << a.quantile(50) << "/" << a.quantile(90) << "\n";
  }
  for (std::size_t k = 1; k < cfg.size(); ++k) {
    const PairedDiff& d = r.diff[k - 1];
    os << "[" << k << "] - [0]: mean difference " << fmt("%+.3f ± %.3f", d.mean(), d.ci_half_width())
       << fmt(" (95%% CI [%.3f, %.3f])", d.mean() - d.ci_half_width(), d.mean() + d.ci_half_width())
       << "; per game [" << k << "] wins " << d.wins() << ", draws " << d.draws() << ", loses "
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

int cmd_compare(const Args& args) { return cmd_compare(args, nullptr); }

int cmd_compare(const Args& args, Embedding* embed) {
  GameOptions g;
  RangeOptions range("10000", UINT64_MAX / 4);
  std::vector<std::string> placement, scoring;
  std::string until_ci, max_games = "1000000", out, per_game;
  po::options_description d(
      "carcsolo compare: play policies on the same seeded games and report paired differences\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("placement", po::value(&placement)->composing(), "placement policy spec; give it once per policy compared (default random)")
      ("scoring", po::value(&scoring)->composing(), "scoring-order policy spec; once per policy, or once for all (default random)");
  range.add_to(d, "games per policy, >= 2 (with --until-ci: the first batch); fewer than run's 100000 by default as each game is played once per policy, and paired differences need fewer games");
  g.add_to(d, false);
  d.add_options()
      ("until-ci", po::value(&until_ci), "play on in batches until every difference's 95% CI half-width is <= W")
      ("max-games", po::value(&max_games)->default_value(max_games), "with --until-ci: at most this many games")
      ("out", po::value(&out), "write the comparison JSON (carcassonne-solo-compare/1) to FILE")
      ("per-game", po::value(&per_game), "write one CSV row per game and policy to FILE (run = index in runs)")
      ("quiet,q", "no summary on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nDifferences are of each later policy against the first, game by game.\n"
              << "Example: carcsolo compare --placement random --placement greedy --games 100000\n";
    return 0;
  }
  MatrixStudy study;
  study.format = kCompareFormat;
  study.configs = policy_configs(g.resolve(), placement, scoring);
  study.first_game = range.first_game();
  const std::uint64_t batch = range.game_count(2);
  const bool adaptive = vm.count("until-ci") > 0;
  const double target = adaptive ? parse_real("until-ci", until_ci, 0, 1e9, true) : 0;
  std::uint64_t cap = batch;
  if (adaptive)
    cap = vm["max-games"].defaulted() ? std::max<std::uint64_t>(batch, 1000000)
                                      : parse_count("max-games", max_games, batch, UINT64_MAX / 4);
  if (adaptive) {
    study.until_ci = target;
    study.max_games = cap;
  }
  MatrixCommand cmd(study, cap, range.thread_count(vm, "compare"), out, per_game, embed,
                    difference_text);
  // Without --until-ci, the one batch is all games: the rule stops after it.
  const MatrixOutcome total = cmd.play([&](const MatrixRequest& req) {
    return play_until_ci(req, CiGoal{target, batch, widest_difference_width});
  });
  if (!cmd.writer) return total.partial ? 130 : 0;
  auto doc = cmd.write(study, total);
  if (cmd.hand_over(study, doc)) return total.partial ? 130 : 0;
  if (!vm.count("quiet")) {
    print_summary(std::cout, study.configs, total, study.first_game, cmd.req.threads);
    if (adaptive)
      std::cout << until_ci_line("the widest difference's 95% CI", target, widest_difference_width(total),
                                 total.games_done, cap, total.partial);
  }
  if (total.partial)
    return report_interrupted("compare", std::to_string(total.games_done) + " games", out);
  return 0;
}

}  // namespace carc::sim
