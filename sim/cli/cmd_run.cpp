// carcsolo run: many seeded games, a summary, the results file, optional game logs. A
// matrix of one configuration (sim/driver/matrix.hpp).
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/cli/matrix_command.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/driver/mpi.hpp"
#include "sim/log/io.hpp"
#include "sim/study/per_game.hpp"
#include "sim/study/run_file.hpp"
#include "sim/study/stopping.hpp"

namespace carc::sim {
namespace {

// The first `n` games of the run, recorded (process 0 only).
void write_logs(AtomicFile& file, const RunConfig& rc, std::uint64_t n, const Stacks* deal,
                const PolicyMakers& makers) {
  auto placement = makers.placement ? makers.placement(rc) : nullptr;
  auto scoring = makers.scoring ? makers.scoring(rc) : nullptr;
  if (!placement) placement = make_placement_policy(rc.placement_policy, rc.context);
  if (!scoring) scoring = make_scoring_policy(rc.scoring_policy);
  for (std::uint64_t i = 0; i < n && !g_stop; ++i) {
    const GameSpec spec{rc.game_config(), rc.seed, rc.first_game + i, deal};
    nlohmann::json log = play_logged_game(spec, *placement, *scoring, rc.placement_policy, rc.scoring_policy);
    if (!rc.context.aim.is_score()) log["config"]["aim"] = rc.context.aim.id();  // what the player played for
    file.write(log.dump() + "\n");
  }
}

// --log-games (the games --log records) with the files' checks: three different paths.
std::uint64_t logged_games(const po::variables_map& vm, const std::string& out, const std::string& log,
                           const std::string& log_games, const std::string& per_game, std::uint64_t games) {
  if (!vm.count("log") && vm.count("log-games"))
    throw UsageError("--log-games needs --log FILE (got --log-games " + log_games + " alone)");
  if (!out.empty() && !log.empty() && same_path(out, log))
    throw UsageError("--out and --log must name different files (both are '" + out + "')");
  for (const auto& [name, path] : {std::pair{"out", out}, std::pair{"log", log}})
    if (!per_game.empty() && !path.empty() && same_path(per_game, path))
      throw UsageError(std::string("--per-game and --") + name +
                       " must name different files (both are '" + per_game + "')");
  const std::uint64_t n_log = !vm.count("log")        ? 0
                              : vm.count("log-games") ? parse_count("log-games", log_games, 1, 1000000)
                                                      : std::min<std::uint64_t>(games, 10);
  if (n_log > games)
    throw UsageError("--log-games must not exceed --games (got --log-games " + log_games +
                     " with --games " + std::to_string(games) + ")");
  return n_log;
}

std::string mean_text(const MatrixOutcome& o) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "mean %.3f ± %.3f", o.acc[0].mean(), o.acc[0].ci_half_width());
  return buf;
}

}  // namespace

int cmd_run(const Args& args, const ProgramInfo& program) { return cmd_run(args, program, nullptr); }

int cmd_run(const Args& args, const ProgramInfo& program, Embedding* embed) {
  GameOptions g;
  RangeOptions range("100000", UINT64_MAX / 2);
  std::string out, log, log_games, per_game, deal_path;
  StoppingOptions stopping;
  po::options_description d("carcsolo run: play many seeded games and report the score distribution\n\nOptions");
  d.add_options()("help,h", "show this help");
  range.add_to(d, "number of games, >= 1 (with --until-ci: the cap, at most this many); compare and sweep default to 10000 as they play each game once per policy or option");
  stopping.add_to(d,
                  "W: stop once the mean's 95% CI half-width is <= W; GOAL=W (a goal id, W a proportion "
                  "such as 0.01 or a percentage such as 1%): once that goal rate's 95% Wilson half-width "
                  "is <= W. Repeatable: all must hold. Plays 1000 games, then on in batches; --games caps");
  g.add_to(d);
  d.add_options()
      ("out", po::value(&out), "write the results JSON (carcassonne-solo-results/1) to FILE")
      ("log", po::value(&log), "write game logs (carcassonne-solo-log/1, JSON Lines) to FILE")
      ("log-games", po::value(&log_games), "how many games (the first ones) --log records (default: 10, or --games when that is fewer)")
      ("per-game", po::value(&per_game), "write one CSV row per game to FILE (run, game, result, scores, tiles, discards, end reason, goals)")
      ("deal", po::value(&deal_path), "play this deal of the set in every game (default --games 1): one line per colour of tile names, top first, then with the river a line 'river' and the river stack's names (docs/run.md)")
      ("quiet,q", "no summary on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo run --games 1000000 --seed 7 --out results.json\n";
    return 0;
  }
  Stacks deal{};
  if (vm.count("deal")) {
    deal = read_deal_option(deal_path, vm, g);
    if (vm["games"].defaulted()) range.games = "1";
  }
  MatrixRequest req;
  RunConfig rc = g.resolve();
  rc.games = range.game_count(1);
  rc.first_game = range.first_game();
  req.configs = {rc};
  req.first_game = rc.first_game;
  req.games = rc.games;
  refuse_per_game_under_mpirun(per_game);
  req.threads = range.thread_count(vm, "run");
  const std::uint64_t n_log = logged_games(vm, out, log, log_games, per_game, rc.games);

  const CiGoal goal{parse_until_ci(stopping.until_ci), CiOf::runs, std::min(kFirstBatch, rc.games)};
  if (stopping.dry && embed) throw UsageError("--dry-run is for the command line");

  const Stacks* given = vm.count("deal") ? &deal : nullptr;
  req.deal = given;
  req.stop = &g_stop;
  if (stopping.dry) return dry_run_command("run", req, goal);  // before any file is opened
  PerGameRows rows{rc.first_game, 1, {}};
  if (!per_game.empty() || (embed && embed->keep_games)) req.per_game = &rows;
  if (embed) req.makers = embed->makers;

  const bool writer = writes_output();
  AtomicFile out_file, log_file, per_game_file;  // opened now: a bad path fails before the work
  if (!out.empty() && writer) out_file = open_output("out", out);
  if (!log.empty() && writer) log_file = open_output("log", log);
  if (!per_game.empty() && writer) per_game_file = open_output("per-game", per_game);

  // Ctrl-C from here on ends in a written, marked partial file (not in a host program,
  // whose own signal handling stays)
  if (!embed) install_stop_handlers();
  if (n_log && writer) write_logs(log_file, rc, n_log, given, req.makers);

  if (::isatty(STDERR_FILENO) && !embed) req.progress = mean_text;
  const MatrixOutcome r = play_until_ci(req, goal);  // without rules: the whole range
  if (!writer) return r.partial ? 130 : 0;

  // Written only now: a run that fails leaves no file at all.
  if (log_file.is_open()) log_file.commit();
  if (per_game_file.is_open()) {
    write_per_game_csv(per_game_file, {rc}, rows);
    per_game_file.commit();
  }
  auto doc = run_document(r, rc, program, req.threads, given, goal);
  if (out_file.is_open()) {
    out_file.write(doc.dump(2) + "\n");
    out_file.commit();
  }
  // The summary: on stdout, or handed to the caller that embeds the command.
  const std::string summary =
      run_summary(r, rc, req.threads, given ? deal_path : "", goal, !(embed && embed->own_policies));
  if (embed) {
    embed->document = std::move(doc);
    embed->per_game = std::move(rows);
    embed->configs = {rc};
    embed->summary = summary;
    return r.partial ? 130 : 0;
  }
  restore_default_handlers();
  if (!vm.count("quiet")) std::cout << summary;
  if (r.partial)
    return report_interrupted("run", std::to_string(r.games_done) + " of " +
                                         std::to_string(rc.games) + " games", out);
  return 0;
}

}  // namespace carc::sim
