#include "sim/cli/cli.hpp"
#include "sim/driver/tilesets.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include <boost/program_options.hpp>

#include "core/state.hpp"
#include "policies/policy.hpp"
#include "policies/value_net.hpp"
#include "sim/analysis/search_analysis.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/driver/mpi.hpp"

#include "carcsolo_git.h"  // generated at build time: CARCSOLO_GIT, CARCSOLO_DIRTY

#ifndef CARCSOLO_VERSION
#define CARCSOLO_VERSION "0.0.0"
#endif
#ifndef CARCSOLO_GIT
#define CARCSOLO_GIT "unknown"
#define CARCSOLO_DIRTY -1
#endif
#ifndef CARCSOLO_COMPILER
#define CARCSOLO_COMPILER ""
#define CARCSOLO_FLAGS ""
#define CARCSOLO_BUILD_TYPE ""
#endif

namespace carc::sim {

std::atomic<bool> g_stop{false};
namespace {
extern "C" void on_stop_signal(int) { g_stop.store(true); }
}  // namespace

void install_stop_handlers() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    if (ignored_from_start(sig)) continue;  // nohup: a hang-up is not a stop
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;  // as std::signal: a blocking read goes on
    ::sigaction(sig, &sa, nullptr);
  }
}
void restore_default_handlers() {
  // Not quite the defaults: a temporary file still open is removed before the process
  // ends (sim/log/io.hpp).
  install_cleanup_handlers();
}

po::variables_map parse(const po::options_description& d, const Args& args) {
  return parse(d, args, po::positional_options_description{});
}

po::variables_map parse_with_files(const po::options_description& d, const Args& args,
                                   std::vector<std::string>& files, const char* name) {
  po::options_description hidden;
  hidden.add_options()(name, po::value(&files));
  po::options_description all;
  all.add(d).add(hidden);
  po::positional_options_description pos;
  pos.add(name, -1);
  return parse(all, args, pos);
}

po::variables_map parse(const po::options_description& d, const Args& args,
                        const po::positional_options_description& positional) {
  // Stray arguments are collected under a hidden name so the message can quote one.
  const char* kStray = "carcsolo-stray-argument";
  po::options_description all;
  all.add(d);
  all.add_options()(kStray, po::value<std::vector<std::string>>());
  po::positional_options_description pos = positional;
  if (pos.max_total_count() == 0) pos.add(kStray, -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    if (vm.count(kStray))
      throw UsageError("unexpected argument '" + vm[kStray].as<std::vector<std::string>>()[0] +
                       "' (options start with --; see --help)");
    for (const auto& [name, value] : vm) {  // no option takes an empty value: --out ""
      const auto* opt = all.find_nothrow(name, false);
      if (!opt || opt->semantic()->max_tokens() == 0) continue;  // a flag such as -q
      const auto* text = boost::any_cast<std::string>(&value.value());
      const auto* list = boost::any_cast<std::vector<std::string>>(&value.value());
      if ((text && text->empty()) ||
          (list && std::find(list->begin(), list->end(), "") != list->end()))
        throw UsageError("--" + name + " needs a non-empty value");
    }
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

AtomicFile open_output(const std::string& opt, const std::string& path) {
  try {
    return AtomicFile(path);
  } catch (const std::runtime_error& e) {
    throw UsageError("--" + opt + ": " + e.what());
  }
}

void refuse_rollout_options(const po::variables_map& vm, const std::string& analyser) {
  if (!is_search_spec(analyser)) return;
  for (const char* name : {"rollouts", "candidates"})
    if (vm.count(name))
      throw UsageError(std::string("--") + name + " is for a rollout analyser (such as --analyser heuristic); " +
                       "search's budget is in its spec (e.g. --analyser search:rollouts=48)");
}

int report_interrupted(const std::string& command, const std::string& done, const std::string& out) {
  std::cerr << "carcsolo " << command << ": interrupted after " << done << "; "
            << (out.empty() ? "nothing written" : "partial results written to " + out) << "\n";
  return 130;
}

Stacks read_deal_option(const std::string& path, const po::variables_map& vm, GameOptions& g) {
  TileCounts tiles;
  try {
    tiles = load_ruleset(g.tileset, false)->tiles();
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--tileset: ") + e.what());
  }
  Stacks deal = read_deal_file(path, tiles);
  if (!vm["colors"].defaulted() && std::to_string(deal.colors) != g.colors)
    throw UsageError("--deal " + path + " has " + std::to_string(deal.colors) +
                     " stacks but --colors is " + g.colors);
  g.colors = std::to_string(deal.colors);
  return deal;
}

ProgramInfo make_program_info(const std::vector<std::string>& words) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  // Results files are shared: an absolute path is written relative to the working
  // directory when it lies inside it, else by its file name alone.
  const auto shareable = [&](const std::string& word) {
    const auto eq = word.rfind("--", 0) == 0 ? word.find('=') : std::string::npos;
    const std::string head = eq == std::string::npos ? "" : word.substr(0, eq + 1);
    const std::string value = eq == std::string::npos ? word : word.substr(eq + 1);
    if (value.empty() || value[0] != '/') return word;
    const fs::path rel = ec ? fs::path() : fs::path(value).lexically_relative(cwd);
    const bool inside = !rel.empty() && *rel.begin() != "..";
    return head + (inside ? rel.string() : fs::path(value).filename().string());
  };
  ProgramInfo p;
  p.version = CARCSOLO_VERSION;
  p.git = CARCSOLO_GIT;
  p.dirty = CARCSOLO_DIRTY;
  p.compiler = CARCSOLO_COMPILER;
  p.flags = CARCSOLO_FLAGS;
  p.build_type = CARCSOLO_BUILD_TYPE;
  p.command_line.assign({"carcsolo"});
  for (std::size_t i = 1; i < words.size(); ++i) p.command_line.push_back(shareable(words[i]));
  return p;
}

void add_value_net_option(po::options_description& d, std::string& path) {
  d.add_options()
      ("value-net", po::value(&path), "FILE: the learned value (a carcsolo-value/1 weights file, docs/value-format.md) of every policy that uses one, instead of the built-in net; its hash is recorded in config.value_net");
}

void GameOptions::add_to(po::options_description& d, bool with_policies, bool lists) {
  if (lists)
    d.add_options()
        ("colors", po::value(&colors)->default_value(colors), "colours in play: a list or range of 2..6, e.g. 3,4")
        ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour: a list or range of 1..12, e.g. 2..8 or 3,4,6");
  else
    d.add_options()
        ("colors", po::value(&colors)->default_value(colors), "colours in play, 2..6 (the rules: 3; the fourth-colour option: 4)")
        ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour, 1..12 (the rules: 4)");
  d.add_options()
      ("tileset", po::value(&tileset)->default_value(tileset), "tile set: base, base+inns, base+river, base+inns+river (expansions.md) or a tile-set file (docs/tileset-format.md)")
      ("large-meeple", po::bool_switch(&large_meeple), "each colour also has the Inns & Cathedrals large meeple (weighs 2 in majorities)")
      ("seed", po::value(&seed)->default_value(seed), "base seed; game i of seed s is the same game in every run");
  if (with_policies && lists)
    d.add_options()
        ("placement", po::value(&placement_list)->composing(), "placement policy, NAME or NAME:key=value,... (see `carcsolo policies`); repeat it to sweep several (default: random)");
  else if (with_policies)
    d.add_options()
        ("placement", po::value(&placement)->default_value(placement), "placement policy, NAME or NAME:key=value,... (see `carcsolo policies`)");
  if (with_policies)
    d.add_options()
        ("scoring", po::value(&scoring)->default_value(scoring), "scoring-order policy (see `carcsolo policies`)");
  d.add_options()
      ("aim", po::value(&aim_list)->composing(), "what the look-ahead players (mc, search) play for: score (the result, the default), a goal id (its chance, e.g. road_5_3c) or goals (the number of the 14 reached); docs/aim.md. compare takes one per policy");
  policies = with_policies;
  add_value_net_option(d, value_net);
}

void AdvisorOptions::add_to(po::options_description& d, const char* tileset_help, const char* large_meeple_help) {
  d.add_options()
      ("tileset", po::value(&tileset)->default_value(tileset), tileset_help)
      ("large-meeple", po::bool_switch(&large_meeple), large_meeple_help)
      ("analyser", po::value(&analyser)->default_value(analyser), "the analysing player (a placement spec, see `carcsolo policies`): a `search` spec values the moves by its own search; any other player continues every rollout to the game's end")
      ("scoring", po::value(&scoring)->default_value(scoring), "scoring order of the features a move completes (applied for you when no order is chosen) and of the rollouts (a scoring spec)")
      ("rollouts", po::value(&rollouts), "with a rollout analyser: continuations per move, 1..100000 (default 32)")
      ("candidates", po::value(&candidates), "with a rollout analyser: moves valued, the heuristic's K best (duplicates removed); 0: every legal move (default 8)")
      ("seed", po::value(&seed)->default_value(seed), "seed of the advisor's re-deals (the advice is a function of the position and the options)");
}

AdviceOptions AdvisorOptions::resolve(const po::variables_map& vm, RunConfig& rc) const {
  select_tileset(tileset, large_meeple, rc);
  AdviceOptions opt;
  opt.context = rc.context;
  try {
    opt.analyser = canonical_placement(analyser);
    opt.scoring = canonical_scoring(scoring);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (!rc.context.aim.is_score() && !is_search_spec(opt.analyser))
    throw UsageError("--aim needs a search analyser (its rollouts value moves by the aim; got --analyser " + analyser + ")");
  refuse_rollout_options(vm, opt.analyser);
  opt.rollouts = int(parse_count("rollouts", rollouts, 1, 100000));
  opt.candidates = int(parse_count("candidates", candidates, 0, kMaxMoves));
  opt.seed = parse_count("seed", seed, 0, UINT64_MAX);
  // A player that cannot play the set (the learned value off the base game) or aim.
  if (!rc.base_game() || !rc.context.aim.is_score()) {
    try {
      make_placement_policy(opt.analyser, opt.context);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--analyser: ") + e.what());
    }
  }
  return opt;
}

RangeOptions::RangeOptions(std::string default_games, std::uint64_t most)
    : games(std::move(default_games)), threads(std::to_string(default_threads())), limit(most) {}

void RangeOptions::add_to(po::options_description& d, const char* games_help) {
  d.add_options()
      ("games", po::value(&games)->default_value(games), games_help)
      ("first-game", po::value(&first)->default_value(first), "index of the first game (to split a study into shards)")
      ("threads", po::value(&threads)->default_value(threads), "worker threads per process (default: all cores; under mpirun the cores mpirun lets a process use, often 1: see docs/large-runs.md)");
}

std::uint64_t RangeOptions::game_count(std::uint64_t at_least) const {
  const std::uint64_t n = parse_count("games", games, at_least, limit);
  check_game_range(first_game(), n);
  return n;
}

std::uint64_t RangeOptions::first_game() const {
  return parse_count("first-game", first, 0, kMaxGameIndex);
}

int RangeOptions::thread_count() const { return int(parse_count("threads", threads, 1, 1024)); }

int RangeOptions::thread_count(const po::variables_map& vm, const std::string& command) const {
  const int t = thread_count();
  if (!processes::under_mpirun() || !vm["threads"].defaulted()) return t;
  // Processes may be bound to different numbers of cores: the fewest and the most.
  const std::uint64_t most = processes::max_over_all(std::uint64_t(t));
  const std::uint64_t fewest = UINT64_MAX - processes::max_over_all(UINT64_MAX - std::uint64_t(t));
  if (processes::rank() != 0) return t;
  const int n = processes::count();
  std::cerr << "carcsolo " << command << ": under mpirun: " << n << (n == 1 ? " process, " : " processes, ")
            << (fewest == most ? std::to_string(most) : std::to_string(fewest) + " to " + std::to_string(most))
            << (most == 1 ? " thread" : " threads") << " each (--threads defaults to the cores mpirun "
            << "lets a process use; for T threads each give --threads T and mpirun --map-by slot:PE=T)\n";
  return t;
}

void refuse_per_game_under_mpirun(const std::string& per_game) {
  if (!per_game.empty() && processes::count() > 1)
    throw UsageError("--per-game cannot be written under mpirun (each process holds only its own "
                     "games): run the shards as separate processes (--first-game) instead");
}

bool writes_output() { return processes::rank() == 0; }

int dry_run_command(const std::string& command, const MatrixRequest& req, const CiGoal& goal) {
  install_stop_handlers();
  const DryRun d = dry_run(req, goal, command == "compare" ? "policies" : "options");
  restore_default_handlers();
  if (d.played.partial) return report_interrupted(command, games_text(d.played.games_done) + " of the dry run", "");
  if (writes_output()) std::cout << d.report;
  return 0;
}

}  // namespace carc::sim
