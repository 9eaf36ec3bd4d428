// carcsolo compare: two or more policies on the same seeded games (common random numbers),
// the paired difference of their results with a 95% CI, wins/draws/losses per game, and
// paired goal-rate differences; optionally until the CI is narrow enough.

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/cli/matrix_command.hpp"
#include "sim/cli/matrix_files.hpp"
#include "sim/cli/stopping.hpp"
#include "sim/driver/matrix.hpp"

namespace carc::sim {
namespace {

// --placement and --scoring lists: equal lengths, or one of them a single spec shared by all.
std::vector<RunConfig> policy_configs(const RunConfig& base, std::vector<std::string> placement,
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

int cmd_compare(const Args& args, const ProgramInfo& program) { return cmd_compare(args, program, nullptr); }

int cmd_compare(const Args& args, const ProgramInfo& program, Embedding* embed) {
  GameOptions g;
  RangeOptions range("10000", UINT64_MAX / 4);
  std::vector<std::string> placement, scoring;
  std::vector<std::string> until_ci;
  std::string max_games, out, per_game, sprt, sprt_alpha = "0.05", sprt_beta = "0.05", pairs = "first";
  po::options_description d(
      "carcsolo compare: play policies on the same seeded games and report paired differences\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("placement", po::value(&placement)->composing(), "placement policy spec; give it once per policy compared (default random)")
      ("scoring", po::value(&scoring)->composing(), "scoring-order policy spec; once per policy, or once for all (default random)");
  range.add_to(d, "games per policy, >= 2 (with --until-ci or --sprt: the cap, at most this many; default then 1000000); fewer than run's 100000 by default as each game is played once per policy, and paired differences need fewer games");
  g.add_to(d, false);
  d.add_options()
      ("until-ci", po::value(&until_ci)->composing(),
       "W: play on until every mean difference's 95% CI half-width is <= W; GOAL=W (a goal id, "
       "W a proportion such as 0.01 or a percentage such as 1%): until every paired difference "
       "of that goal's rate has a 95% half-width <= W. Repeatable: all must hold. Plays 1000 "
       "games, then on in batches; --games caps")
      ("sprt", po::value(&sprt),
       "D0,D1: a sequential test on the paired differences of the second policy against the "
       "first, H0 'the mean difference is at most D0 points' against H1 'at least D1' (D0 < "
       "D1); stops once it accepts one (read every 100 games up to 2000, then every tenth); "
       "--games caps (default then 1000000). Exactly two policies")
      ("sprt-alpha", po::value(&sprt_alpha), "--sprt's chance of accepting H1 when H0 holds (default 0.05)")
      ("sprt-beta", po::value(&sprt_beta), "--sprt's chance of accepting H0 when H1 holds (default 0.05)")
      ("pairs", po::value(&pairs)->default_value(pairs),
       "first: each policy's paired difference against the first; all: every pair's (summary and "
       "the file's pair_differences; --until-ci then holds for every pair)")
      ("max-games", po::value(&max_games), "the old spelling of --until-ci's cap, kept working: with it, --games is the first batch (default 10000); prefer --games N alone as the cap")
      ("dry-run", "play a few seconds' worth, print the games/s measured and the whole run's estimated time; write nothing")
      ("out", po::value(&out), "write the comparison JSON (carcassonne-solo-compare/1) to FILE")
      ("per-game", po::value(&per_game), "write one CSV row per game and policy to FILE (run = index in runs)")
      ("quiet,q", "no summary on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nDifferences are of each later policy against the first (--pairs all: of every pair), game by game.\n"
              << "Example: carcsolo compare --placement random --placement greedy --games 100000\n"
              << "Example: carcsolo compare --placement greedy --placement heuristic --sprt 0,1\n";
    return 0;
  }
  MatrixStudy study;
  study.format = kCompareFormat;
  std::vector<std::string> aims;
  aims.swap(g.aim_list);  // one per policy: the base configuration plays for the score
  study.configs = policy_configs(g.resolve(), placement, scoring, aims);
  study.first_game = range.first_game();
  if (pairs != "first" && pairs != "all") throw UsageError("--pairs must be first or all (got '" + pairs + "')");
  study.all_pairs = pairs == "all";
  study.ci_rules = parse_until_ci(until_ci);
  const bool adaptive = !study.ci_rules.empty();
  const bool sequential = vm.count("sprt") > 0;
  if (!sequential && (vm.count("sprt-alpha") || vm.count("sprt-beta")))
    throw UsageError("--sprt-alpha and --sprt-beta are --sprt's: give --sprt D0,D1 too");
  if (sequential) {
    if (adaptive) throw UsageError("--sprt and --until-ci are two stopping rules: give one of them");
    if (study.configs.size() != 2)
      throw UsageError("--sprt tests the second policy against the first: give exactly two policies (got " +
                       std::to_string(study.configs.size()) + ")");
    study.sprt = parse_sprt(sprt, sprt_alpha, sprt_beta);
  }
  if (vm.count("max-games") && !adaptive)
    throw UsageError("--max-games is --until-ci's cap: give --until-ci too, or --games N alone (got --max-games " +
                     max_games + ")");
  // --games is the cap under --until-ci, as in run and sweep; with --max-games (how the cap
  // was given before) it stays what it was then, the first batch.
  std::uint64_t cap = 0;
  if (vm.count("max-games")) {
    study.ci_first_batch = range.game_count(2);
    cap = parse_count("max-games", max_games, study.ci_first_batch, UINT64_MAX / 4);
    check_game_range(study.first_game, cap);
  } else {
    if ((adaptive || sequential) && vm["games"].defaulted()) range.games = kUntilCiGamesDefault;
    cap = range.game_count(2);
    study.ci_first_batch = std::min(kFirstBatch, cap);
  }
  if (adaptive) study.ci_cap = cap;
  if (sequential) study.sprt_cap = cap;
  const bool dry = vm.count("dry-run") > 0;
  if (dry && embed) throw UsageError("--dry-run is for the command line");
  if (dry) {  // no file is opened
    MatrixCommand cmd(study, cap, range.thread_count(), "", "", nullptr, nullptr, program);
    return dry_run_command("compare", cmd.req, study.ci_goal());
  }
  MatrixCommand cmd(study, cap, range.thread_count(vm, "compare"), out, per_game, embed,
                    difference_text, program);
  const MatrixOutcome total =  // without rules: the whole range
      cmd.play([&](const MatrixRequest& req) {
        return study.sprt ? play_sprt(req, *study.sprt) : play_until_ci(req, study.ci_goal());
      });
  if (!cmd.writer) return total.partial ? 130 : 0;
  auto doc = cmd.write(study, total);
  std::ostringstream summary;
  print_summary(summary, study.configs, total, study.first_game, cmd.req.threads);
  if (adaptive) summary << until_ci_summary(total, study.ci_goal(), cap);
  if (study.sprt) summary << sprt_summary(total, *study.sprt, cap);
  if (cmd.hand_over(study, doc, summary.str())) return total.partial ? 130 : 0;
  if (!vm.count("quiet")) std::cout << summary.str();
  if (total.partial)
    return report_interrupted("compare", std::to_string(total.games_done) + " games", out);
  return 0;
}

}  // namespace carc::sim
