// carcsolo bench: games per second per policy (1 thread, all threads, scaling) and the
// engine's micro-benchmarks, as a table, JSON and markdown.
#include <unistd.h>

#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/bench/bench.hpp"
#include "sim/cli/cli.hpp"
#include "sim/log/io.hpp"
#include "sim/driver/matrix.hpp"

namespace carc::sim {

int cmd_bench(const Args& args, const ProgramInfo& program) {
  std::string games = "200000", reps = "5", seconds = "1",
              threads = std::to_string(default_threads());
  std::string colors = "3", meeples = "4", only, json_out, md_out, tileset = "base";
  bool large_meeple = false;
  std::vector<std::string> scorings;
  std::vector<std::string> placements;
  po::options_description d(
      "carcsolo bench: games per second per placement policy on 1 and on all threads, and "
      "the engine's\nmicro-benchmarks (medians of several repetitions)\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("games", po::value(&games)->default_value(games), "games per repetition, at most (slower policies play about --seconds worth)")
      ("seconds", po::value(&seconds)->default_value(seconds), "about how long one repetition of a slower policy lasts")
      ("reps", po::value(&reps)->default_value(reps), "repetitions of every figure, 1..1000")
      ("threads", po::value(&threads)->default_value(threads), "threads of the 'all threads' column (default: all cores)")
      ("placement", po::value(&placements), "placement policy to time (repeat the option; default: every registered one)")
      ("scoring", po::value(&scorings), "scoring-order policy of the games (repeat the option: every placement with each; default as-found)")
      ("colors", po::value(&colors)->default_value(colors), "colours, 2..6")
      ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour, 1..12")
      ("tileset", po::value(&tileset)->default_value(tileset), "tile set of the games: base, base+inns, base+river, base+inns+river or a tile-set file")
      ("large-meeple", po::bool_switch(&large_meeple), "the colours also have the large meeple")
      ("only", po::value(&only), "'games' or 'engine': run only that part")
      ("json", po::value(&json_out), "write the figures as JSON to FILE")
      ("markdown", po::value(&md_out), "write the figures as markdown tables to FILE")
      ("quiet,q", "no table on stdout");
  std::string value_net;
  add_value_net_option(d, value_net);
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo bench --reps 7 --markdown perf.md\n";
    return 0;
  }
  BenchOptions o;
  o.games = parse_count("games", games, 1, UINT64_MAX / 2);
  o.seconds = parse_real("seconds", seconds, 0.01, 3600);
  o.reps = int(parse_count("reps", reps, 1, 1000));
  o.threads = int(parse_count("threads", threads, 1, 1024));
  GameOptions g;
  g.value_net = value_net;
  g.colors = colors;
  g.meeples = meeples;
  g.tileset = tileset;
  g.large_meeple = large_meeple;
  if (scorings.empty()) scorings.push_back("as-found");
  o.scorings.clear();
  for (const auto& sc : scorings) {
    g.scoring = sc;
    const RunConfig rc = g.resolve();
    o.colors = rc.colors;
    o.meeples = rc.meeples;
    o.scorings.push_back(rc.scoring_policy);
    o.context = rc.context;
  }
  try {
    for (const auto& p : placements) o.placements.push_back(canonical_placement(p));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (vm.count("only")) {
    if (only != "games" && only != "engine")
      throw UsageError("--only must be 'games' or 'engine' (got '" + only + "')");
    o.policies = only == "games";
    o.micro = only == "engine";
  }
  AtomicFile json_file, md_file;  // opened now: a bad path fails before the work
  if (!json_out.empty()) json_file = open_output("json", json_out);
  if (!md_out.empty()) md_file = open_output("markdown", md_out);

  const bool tty = ::isatty(STDERR_FILENO);
  const BenchReport r = run_bench(o, [tty](const std::string& line) {
    if (tty) std::cerr << "  " << line << "\n";
  });
  if (json_file.is_open()) {
    json_file.write(r.to_json(program).dump(2) + "\n");
    json_file.commit();
  }
  if (md_file.is_open()) {
    md_file.write(r.markdown());
    md_file.commit();
  }
  if (!vm.count("quiet")) std::cout << r.table();
  return 0;
}

}  // namespace carc::sim
