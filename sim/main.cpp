// carcsolo: the command line. Every user mistake becomes one line on stderr and exit 2.
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include <boost/program_options.hpp>

#include "policies/policy.hpp"
#include "sim/game.hpp"
#include "sim/io.hpp"
#include "sim/run.hpp"
#include "sim/stats.hpp"

#ifndef CARCSOLO_VERSION
#define CARCSOLO_VERSION "0.0.0"
#endif
#ifndef CARCSOLO_GIT
#define CARCSOLO_GIT "unknown"
#endif

namespace po = boost::program_options;
using namespace carc;

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) { g_stop.store(true); }

std::uint64_t parse_count(const std::string& opt, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw UsageError("--" + opt + " must be an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + " (got '" + text + "')");
  return v;
}

sim::ProgramInfo program_info() { return {"carcsolo", CARCSOLO_VERSION, CARCSOLO_GIT}; }

// Options shared by run and replay: what game is played, by which policies.
struct GameOptions {
  std::string colors = "3", meeples = "4", seed = "1";
  std::string placement = "random", scoring = "random";

  void add_to(po::options_description& d) {
    d.add_options()
        ("colors", po::value(&colors)->default_value(colors), "colours in play, 2..6 (the rules: 3; the fourth-colour option: 4)")
        ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour, 1..12 (the rules: 4)")
        ("seed", po::value(&seed)->default_value(seed), "base seed; game i of seed s is the same game in every run")
        ("placement", po::value(&placement)->default_value(placement), "placement policy, NAME or NAME:key=value,... (see `carcsolo policies`)")
        ("scoring", po::value(&scoring)->default_value(scoring), "scoring-order policy (see `carcsolo policies`)");
  }
  sim::RunConfig resolve() const {
    sim::RunConfig rc;
    rc.colors = int(parse_count("colors", colors, kMinColors, kMaxColors));
    rc.meeples = int(parse_count("meeples", meeples, kMinMeeples, kMaxMeeples));
    rc.seed = parse_count("seed", seed, 0, UINT64_MAX);
    try {
      rc.placement_policy = canonical_placement(placement);
      rc.scoring_policy = canonical_scoring(scoring);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    return rc;
  }
};

po::variables_map parse(const po::options_description& d, const std::vector<std::string>& args) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(d).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

int cmd_run(const std::vector<std::string>& args) {
  GameOptions g;
  std::string games = "100000", first = "0", threads = std::to_string(sim::default_threads());
  std::string out, log, log_games = "10";
  po::options_description d("carcsolo run: play many seeded games and report the score distribution\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("games", po::value(&games)->default_value(games), "number of games, >= 1")
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
  sim::RunRequest req;
  req.config = g.resolve();
  req.config.games = parse_count("games", games, 1, UINT64_MAX / 2);
  req.config.first_game = parse_count("first-game", first, 0, UINT64_MAX / 2);
  req.threads = int(parse_count("threads", threads, 1, 1024));
  const std::uint64_t n_log = vm.count("log") ? parse_count("log-games", log_games, 1, 1000000) : 0;
  if (vm.count("log") && n_log > req.config.games)
    throw UsageError("--log-games must not exceed --games (got " + log_games + ")");

  sim::AtomicFile out_file, log_file;  // opened now: a bad path fails before the work
  if (!out.empty()) out_file = sim::AtomicFile(out);
  if (!log.empty()) log_file = sim::AtomicFile(log);

  if (n_log) {
    auto placement = make_placement_policy(req.config.placement_policy);
    auto scoring = make_scoring_policy(req.config.scoring_policy);
    for (std::uint64_t i = 0; i < n_log; ++i) {
      const sim::GameSpec spec{Config{req.config.colors, req.config.meeples}, req.config.seed,
                               req.config.first_game + i};
      log_file.write(sim::play_logged_game(spec, *placement, *scoring, req.config.placement_policy,
                                           req.config.scoring_policy)
                         .dump() +
                     "\n");
    }
    log_file.commit();
  }

  req.progress = ::isatty(STDERR_FILENO);
  req.stop = &g_stop;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  const sim::RunOutcome r = run_games(req);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);

  sim::RunConfig written = req.config;
  written.games = r.games_done;
  auto doc = r.acc.to_json(written, program_info(), sim::Performance{req.threads, r.seconds});
  if (r.partial) doc["partial"] = true;
  if (out_file.is_open()) {
    out_file.write(doc.dump(2) + "\n");
    out_file.commit();
  }
  if (!vm.count("quiet")) {
    std::cout << "carcsolo run: " << req.config.placement_policy << " / " << req.config.scoring_policy
              << ", " << req.config.colors << " colours x " << req.config.meeples << " meeples, seed "
              << req.config.seed << (r.partial ? "  (interrupted: partial)" : "") << "\n"
              << r.acc.summary() << "speed: " << (r.seconds > 0 ? r.games_done / r.seconds : 0)
              << " games/s on " << req.threads << " thread(s)\n";
  }
  if (r.partial) {
    std::cerr << "carcsolo run: interrupted after " << r.games_done << " of " << req.config.games
              << " games; " << (out.empty() ? "nothing written" : "partial results written to " + out)
              << "\n";
    return 130;
  }
  return 0;
}

int cmd_replay(const std::vector<std::string>& args) {
  GameOptions g;
  std::string game = "0", out;
  po::options_description d("carcsolo replay: print one game's log (carcassonne-solo-log/1)\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("game", po::value(&game)->default_value(game), "game index within the seed");
  g.add_to(d);
  d.add_options()("out", po::value(&out), "write the log to FILE instead of stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo replay --seed 1 --game 17 --placement random\n";
    return 0;
  }
  const sim::RunConfig rc = g.resolve();
  const sim::GameSpec spec{Config{rc.colors, rc.meeples}, rc.seed,
                           parse_count("game", game, 0, UINT64_MAX / 2)};
  sim::AtomicFile out_file;
  if (!out.empty()) out_file = sim::AtomicFile(out);
  auto placement = make_placement_policy(rc.placement_policy);
  auto scoring = make_scoring_policy(rc.scoring_policy);
  const std::string text =
      sim::play_logged_game(spec, *placement, *scoring, rc.placement_policy, rc.scoring_policy).dump(2) + "\n";
  if (out_file.is_open()) {
    out_file.write(text);
    out_file.commit();
  } else {
    std::cout << text;
  }
  return 0;
}

void print_policies(const char* title, const std::vector<PolicyInfo>& list) {
  std::cout << title << "\n";
  for (const auto& p : list) {
    std::cout << "  " << p.name << "  " << p.help << "\n";
    for (const auto& a : p.params)
      std::cout << "      " << a.key << "=" << a.default_value << "  " << a.help << "\n";
  }
}

int cmd_policies(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] != "--help" && args[0] != "-h")
    throw UsageError("policies takes no arguments (got '" + args[0] + "')");
  print_policies("placement policies (--placement NAME[:key=value,...]):", placement_policies());
  print_policies("scoring-order policies (--scoring NAME[:key=value,...]):", scoring_policies());
  return 0;
}

const char* kUsage =
    "carcsolo: Monte Carlo research tool for the Carcassonne solo variant\n\n"
    "usage: carcsolo COMMAND [options]   (carcsolo COMMAND --help for its options)\n\n"
    "commands:\n"
    "  run       play many seeded games, print a summary, write results JSON (--out)\n"
    "  replay    print the game log of one game (--seed, --game)\n"
    "  policies  list placement and scoring-order policies with their parameters\n";

}  // namespace

int main(int argc, char** argv) {
  std::string cmd = argc > 1 ? argv[1] : "";
  const std::vector<std::string> args(argv + std::min(argc, 2), argv + argc);
  try {
    if (cmd == "run") return cmd_run(args);
    if (cmd == "replay") return cmd_replay(args);
    if (cmd == "policies") return cmd_policies(args);
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (cmd == "--version") {
      std::cout << "carcsolo " << CARCSOLO_VERSION << " (" << CARCSOLO_GIT << ")\n";
      return 0;
    }
    std::cerr << "carcsolo: " << (cmd.empty() ? "missing command" : "unknown command '" + cmd + "'")
              << " (commands: run, replay, policies; carcsolo --help)\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "carcsolo " << cmd << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "carcsolo " << cmd << ": " << e.what() << "\n";
    return 2;
  }
}
