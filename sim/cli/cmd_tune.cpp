// carcsolo tune: searches the numeric parameters of a placement policy by SPSA over paired
// games (sim/study/tune.hpp, docs/tune.md), keeping a trajectory file up to date.
#include <unistd.h>

#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/study/tune.hpp"

namespace carc::sim {

int cmd_tune(const Args& args, const ProgramInfo& program) { return cmd_tune(args, program, nullptr); }

int cmd_tune(const Args& args, const ProgramInfo& program, Embedding* embed) {
  GameOptions g;
  g.placement = "heuristic";
  std::vector<std::string> param;
  std::string budget = "100000", batch = "100", checks = "10", check_games = "1000";
  std::string verify_seed, verify_games = "2000", method = "spsa", out;
  std::string c_end = "0.05", r_end = "0.0005";
  std::string threads = std::to_string(default_threads());
  po::options_description d(
      "carcsolo tune: search numeric parameters of a placement policy (SPSA over paired games)\n\nOptions");
  d.add_options()("help,h", "show this help");
  g.add_to(d);
  d.add_options()
      ("param", po::value(&param)->composing(),
       "KEY=LO..HI: tune parameter KEY of the --placement policy (its start value is the spec's) "
       "within [LO, HI]; repeat for each parameter tuned")
      ("budget", po::value(&budget)->default_value(budget),
       "games to spend: the tuning steps' pairs and the checks together (not the verification)")
      ("method", po::value(&method)->default_value(method), "the search method: spsa (the only one)")
      ("batch", po::value(&batch)->default_value(batch),
       "game indices per SPSA step: each played at the plus and at the minus point")
      ("checks", po::value(&checks)->default_value(checks),
       "how often the current point is compared with the start during the run (0: never)")
      ("check-games", po::value(&check_games)->default_value(check_games),
       "game indices of each check (the same games every time, none of them a tuning game)")
      ("c-end", po::value(&c_end)->default_value(c_end),
       "SPSA's final perturbation, as a share of each parameter's range (a whole-number parameter: at least 1)")
      ("r-end", po::value(&r_end)->default_value(r_end),
       "SPSA's final a_k / c_k^2, per point of result difference (normalised units)")
      ("verify-seed", po::value(&verify_seed), "seed of the final verification (default: --seed + 1; must differ from --seed)")
      ("verify-games", po::value(&verify_games)->default_value(verify_games),
       "games of the final paired comparison of start and final (0: none)")
      ("threads", po::value(&threads)->default_value(threads), "worker threads (the trajectory does not depend on it)")
      ("out", po::value(&out), "write the trajectory (carcassonne-solo-tune/1), updated as the run goes, to FILE")
      ("quiet,q", "no progress line and no summary");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nSee docs/tune.md for the method, its formulas and the trajectory file.\n"
              << "Example: carcsolo tune --placement heuristic:absorb=2,meeple=0.5 --param absorb=0..20 "
                 "--param meeple=0..4 --budget 300000 --out traj.json\n";
    return 0;
  }
  if (method != "spsa") throw UsageError("--method must be spsa (got '" + method + "')");
  TuneOptions opt;
  opt.base = g.resolve();
  if (!opt.base.context.aim.is_score())  // its objective is the mean result
    throw UsageError("tune maximises the mean result: --aim " + opt.base.context.aim.id() + " is not taken");
  const TuneSpace space(opt.base.placement_policy, param);
  opt.budget = parse_count("budget", budget, 2, UINT64_MAX / 8);
  opt.batch = parse_count("batch", batch, 1, 1000000);
  opt.checks = parse_count("checks", checks, 0, 1000);
  opt.check_games = parse_count("check-games", check_games, 2, 10000000);
  opt.verify_games = parse_count("verify-games", verify_games, 0, UINT64_MAX / 8);
  if (opt.verify_games == 1) throw UsageError("--verify-games must be 0 or at least 2 (got 1)");
  opt.verify_seed = vm.count("verify-seed") ? parse_count("verify-seed", verify_seed, 0, UINT64_MAX)
                                            : opt.base.seed + 1;
  if (opt.verify_seed == opt.base.seed)
    throw UsageError("--verify-seed must differ from --seed (both are " + std::to_string(opt.base.seed) +
                     "): the verification plays games the tuner did not use");
  opt.spsa.c_end = parse_real("c-end", c_end, 0, 1, true);
  opt.spsa.r_end = parse_real("r-end", r_end, 0, 1e9, true);
  opt.threads = int(parse_count("threads", threads, 1, 1024));
  opt.pairs();  // a budget the checks eat whole fails now

  AtomicFile probe;  // a bad path fails before the work
  if (!out.empty()) probe = open_output("out", out);
  opt.save = [&](const nlohmann::json& doc) {
    if (out.empty()) return;
    AtomicFile f = open_output("out", out);
    f.write(doc.dump(1) + "\n");
    f.commit();
  };
  if (!embed) install_stop_handlers();
  opt.stop = &g_stop;
  opt.progress = !embed && !vm.count("quiet") && ::isatty(STDERR_FILENO);
  nlohmann::json doc = run_tune(space, opt, program);
  const bool interrupted = doc["status"] == "interrupted";
  const std::string summary = tune_summary(doc);
  if (embed) {
    embed->document = std::move(doc);
    embed->summary = summary;
    return interrupted ? 130 : 0;
  }
  restore_default_handlers();
  if (!vm.count("quiet")) std::cout << summary;
  if (interrupted)
    return report_interrupted("tune", std::to_string(doc["games"].get<std::uint64_t>()) + " games", out);
  return 0;
}

}  // namespace carc::sim
