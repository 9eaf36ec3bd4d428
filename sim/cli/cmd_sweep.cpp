// carcsolo sweep: the difficulty table. Every (colours, meeples) option plays the same game
// indices of one seed with one pair of policies; per option the mean result with its CI,
// p10/p50/p90, the total_40/50/60 and all_tiles rates and the end-reason split, and which
// option comes closest to a target.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "core/state.hpp"
#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/cli/matrix_command.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/study/matrix_files.hpp"
#include "sim/study/stopping.hpp"
#include "sim/study/summaries.hpp"

namespace carc::sim {

int cmd_sweep(const Args& args, const ProgramInfo& program) { return cmd_sweep(args, program, nullptr); }

int cmd_sweep(const Args& args, const ProgramInfo& program, Embedding* embed) {
  GameOptions g;
  g.colors = "3,4";
  g.meeples = "2..8";
  RangeOptions range("10000", UINT64_MAX / 4);
  std::string out, per_game;
  std::vector<std::string> targets;
  StoppingOptions stopping;
  po::options_description d(
      "carcsolo sweep: the difficulty table over colour and meeple counts\n\nOptions");
  d.add_options()("help,h", "show this help");
  g.add_to(d, true, true);
  range.add_to(d, "games per option, >= 1; fewer than run's 100000 by default as each game is played once per option (with --until-ci: the cap, at most this many; default then 1000000)");
  stopping.add_to(d,
                  "W: play on until every option's mean has a 95% CI half-width <= W; GOAL=W (a goal id, W "
                  "a proportion such as 0.01 or a percentage such as 1%): until every option's rate of that "
                  "goal has a 95% Wilson half-width <= W. Repeatable: all must hold. Plays 1000 games, then "
                  "on in batches; --games caps");
  d.add_options()
      ("target", po::value(&targets)->composing(), "GOAL=RATE or mean=VALUE: report the option closest to it (repeatable)")
      ("out", po::value(&out), "write the sweep JSON (carcassonne-solo-sweep/1) to FILE")
      ("per-game", po::value(&per_game), "write one CSV row per game and policy to FILE (run = index in runs)")
      ("quiet,q", "no table on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nEvery option plays the same game indices of the seed.\n"
              << "Example: carcsolo sweep --meeples 2..8 --colors 3,4 --games 100000 "
                 "--target total_50=0.5\n";
    return 0;
  }
  MatrixStudy study;
  study.format = kSweepFormat;
  study.configs = g.resolve_grid(study.placements, study.colors, study.meeples);
  for (const auto& t : targets) study.targets.push_back(parse_target(t));
  study.first_game = range.first_game();
  stopping.rules_into(study, range, vm);
  const std::uint64_t games = range.game_count(1);
  if (!study.ci_rules.empty()) StoppingOptions::cap_into(study, games);
  if (stopping.dry) return stopping.dry_run("sweep", study, games, range.thread_count(), embed, program);
  MatrixCommand cmd(study, games, range.thread_count(vm, "sweep"), out, per_game, embed,
                    sweep_progress_text, program);
  const MatrixOutcome r =  // without rules: the whole range
      cmd.play([&](const MatrixRequest& req) { return play_until_ci(req, study.ci_goal()); });
  if (!cmd.writer) return r.partial ? 130 : 0;
  auto doc = cmd.write(study, r);
  const nlohmann::json closest = doc["targets"];
  std::ostringstream summary;
  print_sweep_summary(summary, study, r, closest, cmd.req.threads);
  if (!study.ci_rules.empty()) summary << until_ci_summary(r, study.ci_goal(), study.ci_cap);
  if (cmd.hand_over(study, doc, summary.str())) return r.partial ? 130 : 0;
  if (!vm.count("quiet")) std::cout << summary.str();
  if (r.partial)
    return report_interrupted("sweep", std::to_string(r.games_done) + " games per option", out);
  return 0;
}

}  // namespace carc::sim
