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
#include "sim/driver/matrix.hpp"
#include "sim/study/matrix_files.hpp"
#include "sim/study/stopping.hpp"
#include "sim/study/summaries.hpp"

namespace carc::sim {

int cmd_compare(const Args& args, const ProgramInfo& program) { return cmd_compare(args, program, nullptr); }

int cmd_compare(const Args& args, const ProgramInfo& program, Embedding* embed) {
  GameOptions g;
  RangeOptions range("10000", UINT64_MAX / 4);
  std::vector<std::string> placement, scoring;
  StoppingOptions stopping;
  std::string max_games, out, per_game, sprt, sprt_alpha = "0.05", sprt_beta = "0.05", pairs = "first";
  po::options_description d(
      "carcsolo compare: play policies on the same seeded games and report paired differences\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("placement", po::value(&placement)->composing(), "placement policy spec; give it once per policy compared (default random)")
      ("scoring", po::value(&scoring)->composing(), "scoring-order policy spec; once per policy, or once for all (default random)");
  range.add_to(d, "games per policy, >= 2 (with --until-ci or --sprt: the cap, at most this many; default then 1000000); fewer than run's 100000 by default as each game is played once per policy, and paired differences need fewer games");
  g.add_to(d, false);
  stopping.add_to(d,
                  "W: play on until every mean difference's 95% CI half-width is <= W; GOAL=W (a goal id, "
                  "W a proportion such as 0.01 or a percentage such as 1%): until every paired difference "
                  "of that goal's rate has a 95% half-width <= W. Repeatable: all must hold. Plays 1000 "
                  "games, then on in batches; --games caps");
  d.add_options()
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
  study.configs = compare_configs(g.resolve(), placement, scoring, aims);
  study.first_game = range.first_game();
  if (pairs != "first" && pairs != "all") throw UsageError("--pairs must be first or all (got '" + pairs + "')");
  study.all_pairs = pairs == "all";
  const bool sequential = vm.count("sprt") > 0;
  stopping.rules_into(study, range, vm, sequential, !vm.count("max-games"));
  const bool adaptive = !study.ci_rules.empty();
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
  // --games is the cap under --until-ci, as in run and sweep; with --max-games (the cap's
  // other spelling, which older command lines use) --games is the first batch.
  std::uint64_t cap = 0;
  if (vm.count("max-games")) {
    study.ci_first_batch = range.game_count(2);
    cap = parse_count("max-games", max_games, study.ci_first_batch, UINT64_MAX / 4);
    check_game_range(study.first_game, cap);
    study.ci_cap = cap;
  } else {
    cap = range.game_count(2);
    StoppingOptions::cap_into(study, cap);
  }
  if (!adaptive) study.ci_cap = 0;
  if (sequential) study.sprt_cap = cap;
  if (stopping.dry) return stopping.dry_run("compare", study, cap, range.thread_count(), embed, program);
  MatrixCommand cmd(study, cap, range.thread_count(vm, "compare"), out, per_game, embed,
                    compare_progress_text, program);
  const MatrixOutcome total =  // without rules: the whole range
      cmd.play([&](const MatrixRequest& req) {
        return study.sprt ? play_sprt(req, *study.sprt) : play_until_ci(req, study.ci_goal());
      });
  if (!cmd.writer) return total.partial ? 130 : 0;
  auto doc = cmd.write(study, total);
  std::ostringstream summary;
  print_compare_summary(summary, study.configs, total, study.first_game, cmd.req.threads);
  if (adaptive) summary << until_ci_summary(total, study.ci_goal(), cap);
  if (study.sprt) summary << sprt_summary(total, *study.sprt, cap);
  if (cmd.hand_over(study, doc, summary.str())) return total.partial ? 130 : 0;
  if (!vm.count("quiet")) std::cout << summary.str();
  if (total.partial)
    return report_interrupted("compare", std::to_string(total.games_done) + " games", out);
  return 0;
}

}  // namespace carc::sim
