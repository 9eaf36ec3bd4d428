// carcsolo ceiling: the clairvoyant reference of every deal (sim/reference/ceiling.hpp), a
// REFERENCE THAT CHEATS (it sees the dealt stacks): the best line a beam search found,
// seeded with a real policy's own line of the same game, so "what knowing the order is
// worth" is never negative. A lower bound on each deal's optimum, not an upper one.
#include <unistd.h>

#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/log/io.hpp"
#include "sim/study/ceiling_run.hpp"

namespace carc::sim {

int cmd_ceiling(const Args& args, const ProgramInfo& program) {
  GameOptions g;
  RangeOptions range("200", 1000000);
  std::string width = "1024", against = "heuristic", out, log, log_games;
  po::options_description d(
      "carcsolo ceiling: the clairvoyant reference of each deal, a REFERENCE THAT CHEATS (a beam\n"
      "search that sees the dealt stacks, never a policy), beside a policy on the same games.\n"
      "The beam keeps the policy's own line of each game among its positions, so the reference\n"
      "is at least the policy's result on every deal; it is the best line found, a LOWER bound\n"
      "on what the deal allows, not an upper one. The summary says in how many games the beam\n"
      "found a better line than the policy's, and in how many on its own merit.\n\n"
      "Options");
  d.add_options()("help,h", "show this help");
  range.add_to(d, "number of games, >= 1");
  g.add_to(d, false);
  d.add_options()
      ("width", po::value(&width)->default_value(width), "beam width, 1..4096 (positions kept per turn); time grows with it, less than in proportion: 1024 takes about 1 CPU-second per game on a 2-core machine (plus the --against policy's own time), 64 about 0.2; time --games 4 first. 1024 found a better line than search's in 48 of 50 games")
      ("against", po::value(&against)->default_value(against), "the placement policy played on the same games (scoring `best`)")
      ("out", po::value(&out), "write the results JSON (the ceiling's results, `against`, `per_game`) to FILE")
      ("log", po::value(&log), "write the ceiling's best line of the first games as game logs (JSON Lines) to FILE")
      ("log-games", po::value(&log_games), "how many games (the first ones) --log records (default: 10, or --games when that is fewer)")
      ("quiet,q", "no summary on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo ceiling --width 64 --games 200 --against mc --log best.jsonl\n";
    return 0;
  }
  CeilingRun run;
  run.rc = g.resolve();
  run.rc.games = range.game_count(1);
  run.rc.first_game = range.first_game();
  run.threads = range.thread_count();
  run.width = int(parse_count("width", width, 1, 4096));
  run.rc.placement_policy = "ceiling:width=" + std::to_string(run.width);
  run.rc.scoring_policy = "best";
  try {
    run.against = canonical_placement(against);
    if (!run.rc.context.aim.is_score()) (void)make_placement_policy(run.against, run.rc.context);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--against: ") + e.what());
  }
  if (vm.count("log-games") && !vm.count("log"))
    throw UsageError("--log-games needs --log FILE (got --log-games " + log_games + " alone)");
  run.logged =
      !vm.count("log") ? 0
      : vm.count("log-games") ? parse_count("log-games", log_games, 1, run.rc.games)
                              : std::min<std::uint64_t>(run.rc.games, 10);
  if (!out.empty() && !log.empty() && same_path(out, log))
    throw UsageError("--out and --log must name different files (both are '" + out + "')");
  AtomicFile out_file, log_file;
  if (!out.empty()) out_file = open_output("out", out);
  if (!log.empty()) log_file = open_output("log", log);

  install_stop_handlers();
  run.games.resize(run.rc.games);
  run.stop = &g_stop;
  run.progress = ::isatty(STDERR_FILENO);
  play_ceiling(run);
  const bool partial = run.done < run.rc.games;
  const CeilingFile file = ceiling_file_of(run);
  nlohmann::json doc = ceiling_document(file, run.threads, run.seconds, program);
  if (partial) doc["partial"] = true;
  if (log_file.is_open()) {
    log_file.write(ceiling_run_logs(run));
    log_file.commit();
  }
  if (out_file.is_open()) {
    out_file.write(doc.dump(2) + "\n");
    out_file.commit();
  }
  restore_default_handlers();
  if (!vm.count("quiet")) std::cout << ceiling_run_summary(run, file) << std::flush;
  if (partial)
    return report_interrupted("ceiling", std::to_string(run.done) + " of " +
                                             std::to_string(run.rc.games) + " games", out);
  return 0;
}

}  // namespace carc::sim
