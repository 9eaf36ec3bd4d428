// carcsolo run: many seeded games, a summary, the results file, optional game logs.
#include <unistd.h>

#include <iostream>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/game.hpp"
#include "sim/log/io.hpp"
#include "sim/driver/mpi.hpp"
#include "sim/driver/run.hpp"

namespace carc::sim {

int cmd_run(const std::vector<std::string>& args) {
  GameOptions g;
  std::string games = "100000", first = "0", threads = std::to_string(default_threads());
  std::string out, log, log_games = "10", until_ci;
  po::options_description d("carcsolo run: play many seeded games and report the score distribution\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("games", po::value(&games)->default_value(games), "number of games, >= 1 (with --until-ci: at most)")
      ("until-ci", po::value(&until_ci), "stop once the mean's 95% CI half-width is <= W (batches; --games caps)")
      ("first-game", po::value(&first)->default_value(first), "index of the first game (to split a study into shards)");
  g.add_to(d);
  d.add_options()
      ("threads", po::value(&threads)->default_value(threads), "worker threads (default: all cores)")
      ("out", po::value(&out), "write the results JSON (carcassonne-solo-results/1) to FILE")
      ("log", po::value(&log), "write game logs (carcassonne-solo-log/1, JSON Lines) to FILE")
      ("log-games", po::value(&log_games)->default_value(log_games), "how many games (the first ones) --log records")
      ("quiet,q", "no summary on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo run --games 1000000 --seed 7 --out results.json\n";
    return 0;
  }
  RunRequest req;
  req.config = g.resolve();
  req.config.games = parse_count("games", games, 1, UINT64_MAX / 2);
  req.config.first_game = parse_count("first-game", first, 0, UINT64_MAX / 2);
  req.threads = int(parse_count("threads", threads, 1, 1024));
  if (!vm.count("log") && !vm["log-games"].defaulted())
    throw UsageError("--log-games needs --log FILE (got --log-games " + log_games + " alone)");
  if (!out.empty() && !log.empty() && same_path(out, log))
    throw UsageError("--out and --log must name different files (both are '" + out + "')");
  const std::uint64_t n_log = vm.count("log") ? parse_count("log-games", log_games, 1, 1000000) : 0;
  if (vm.count("log") && n_log > req.config.games)
    throw UsageError("--log-games must not exceed --games (got " + log_games + ")");

  const bool adaptive = vm.count("until-ci") > 0;
  const double target = adaptive ? parse_real("until-ci", until_ci, 1e-9, 1e9) : 0;

  // Under mpirun every process plays its share; only rank 0 writes and prints.
  const bool writer = processes::rank() == 0;
  AtomicFile out_file, log_file;  // opened now: a bad path fails before the work
  if (!out.empty() && writer) out_file = open_output("out", out);
  if (!log.empty() && writer) log_file = open_output("log", log);

  install_stop_handlers();  // Ctrl-C from here on ends in a written, marked partial file
  if (n_log && writer) {
    auto placement = make_placement_policy(req.config.placement_policy);
    auto scoring = make_scoring_policy(req.config.scoring_policy);
    for (std::uint64_t i = 0; i < n_log && !g_stop; ++i) {
      const GameSpec spec{Config{req.config.colors, req.config.meeples}, req.config.seed,
                               req.config.first_game + i};
      log_file.write(play_logged_game(spec, *placement, *scoring, req.config.placement_policy,
                                           req.config.scoring_policy)
                         .dump() +
                     "\n");
    }
    log_file.commit();
  }

  req.progress = ::isatty(STDERR_FILENO);
  req.stop = &g_stop;
  const RunOutcome r = adaptive ? run_until_ci(req, target) : run_games(req);
  if (!writer) return r.partial ? 130 : 0;

  RunConfig written = req.config;
  written.games = r.games_done;
  auto doc = r.acc.to_json(written, program_info(), Performance{req.threads, r.seconds});
  if (processes::count() > 1) doc["performance"]["processes"] = processes::count();
  if (r.partial) doc["partial"] = true;
  if (adaptive)  // config.first_game and config.games name the range played
    doc["until_ci"] = {{"half_width", target},
                       {"cap", req.config.games},
                       {"met", r.acc.ci_half_width() <= target}};
  if (out_file.is_open()) {
    out_file.write(doc.dump(2) + "\n");
    out_file.commit();
  }
  restore_default_handlers();
  if (!vm.count("quiet")) {
    std::cout << "carcsolo run: " << req.config.placement_policy << " / " << req.config.scoring_policy
              << ", " << req.config.colors << " colours x " << req.config.meeples << " meeples, seed "
              << req.config.seed << (r.partial ? "  (interrupted: partial)" : "") << "\n"
              << r.acc.summary() << "speed: " << (r.seconds > 0 ? r.games_done / r.seconds : 0)
              << " games/s on " << req.threads << " thread(s)\n";
  }
  if (r.partial)
    return report_interrupted("run", std::to_string(r.games_done) + " of " +
                                         std::to_string(req.config.games) + " games", out);
  return 0;
}

}  // namespace carc::sim
