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

std::uint64_t parse_count(const std::string& opt, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw UsageError("--" + opt + " must be an integer in " + std::to_string(lo) + ".." +
                     std::to_string(hi) + " (got '" + text + "')");
  return v;
}

namespace {
// A number as a person writes it: 0.05, 1, 1000000000 (no trailing zeros, no exponent for
// the bounds used here).
std::string plain_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}
}  // namespace

double parse_real(const std::string& opt, const std::string& text, double lo, double hi, bool above_lo) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) ||
      (above_lo ? v <= lo : v < lo) || v > hi)
    throw UsageError("--" + opt + " must be a number " +
                     (above_lo ? "above " + plain_number(lo) + ", at most " + plain_number(hi)
                               : "from " + plain_number(lo) + " to " + plain_number(hi)) +
                     " (got '" + text + "')");
  return v;
}

std::vector<int> parse_int_list(const std::string& opt, const std::string& text, int lo, int hi) {
  std::vector<int> out;
  const auto add = [&](int v) {
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw UsageError("--" + opt + " lists " + std::to_string(v) + " twice (got '" + text + "')");
    out.push_back(v);
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      add(int(parse_count(opt, item, std::uint64_t(lo), std::uint64_t(hi))));
    } else {
      const int a = int(parse_count(opt, item.substr(0, dots), std::uint64_t(lo), std::uint64_t(hi)));
      const int b = int(parse_count(opt, item.substr(dots + 2), std::uint64_t(lo), std::uint64_t(hi)));
      if (a > b) throw UsageError("--" + opt + ": empty range '" + item + "'");
      for (int v = a; v <= b; ++v) add(v);
    }
    pos = comma + 1;
  }
  return out;
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

Stacks read_deal_file(const std::string& path, const TileCounts& tiles) {
  std::ifstream in(path);
  if (!in) throw UsageError("--deal: cannot read " + path + ": " + std::strerror(errno));
  try {
    return read_deal(in, tiles);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--deal " + path + ": " + e.what());
  }
}

std::string until_ci_line(const std::string& what, double target, double achieved,
                          std::uint64_t games, std::uint64_t cap, bool partial) {
  char buf[256];
  if (achieved <= target)
    std::snprintf(buf, sizeof buf, "until-ci: target met: %s half-width %.4g <= %g after %llu games\n",
                  what.c_str(), achieved, target, static_cast<unsigned long long>(games));
  else if (partial)
    std::snprintf(buf, sizeof buf, "until-ci: target not met: interrupted after %llu games, %s half-width %.4g > %g\n",
                  static_cast<unsigned long long>(games), what.c_str(), achieved, target);
  else
    std::snprintf(buf, sizeof buf,
                  "until-ci: target not met: stopped at the cap of %llu games, %s half-width %.4g > %g\n",
                  static_cast<unsigned long long>(cap), what.c_str(), achieved, target);
  return buf;
}

std::string shell_word(const std::string& w) {
  if (!w.empty() && w.find_first_of(" \t\n,;&|<>()$'\"\\*?[]{}~#!`") == std::string::npos) return w;
  std::string q = "'";
  for (const char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string replay_command(const RunConfig& rc, const std::string& game, const std::string& deal_path) {
  return "carcsolo replay" + (deal_path.empty() ? std::string() : " --deal " + shell_word(deal_path)) +
         " --seed " + std::to_string(rc.seed) + " --colors " + std::to_string(rc.colors) +
         " --meeples " + std::to_string(rc.meeples) +
         (rc.base_game() ? std::string()
                         : " --tileset " + shell_word(rc.tileset_spec()) +
                               (rc.rules().large_meeple() ? " --large-meeple" : "")) +
         " --placement " + shell_word(short_placement_spec(rc.placement_policy)) +
         " --scoring " + shell_word(short_scoring_spec(rc.scoring_policy)) +
         (rc.value_net_source == "file" ? " --value-net " + shell_word(rc.value_net_path) : std::string()) +
         (rc.context.aim.is_score() ? std::string() : " --aim " + rc.context.aim.id()) +
         " --game " + game;
}

std::string policies_text(const RunConfig& rc) {
  return short_placement_spec(rc.placement_policy) + " / " + short_scoring_spec(rc.scoring_policy) +
         (rc.context.aim.is_score() ? std::string() : " aiming at " + rc.context.aim.id());
}

std::string aim_line(const RunConfig& rc, const Accumulator& acc) {
  const Aim& aim = rc.context.aim;
  if (aim.is_score()) return "";
  char buf[256];
  const double n = double(acc.games());
  if (aim.kind == Aim::Kind::goal) {
    const std::uint64_t k = acc.goal_count(int(aim.goal));
    const auto ci = wilson95(k, acc.games());
    std::snprintf(buf, sizeof buf, "aim %s: reached in %.3f%% [%.3f%%, %.3f%%] (95%% Wilson) of %llu games; mean result %.3f ± %.3f\n",
                  aim.id().c_str(), n > 0 ? 100.0 * double(k) / n : 0.0, 100 * ci[0], 100 * ci[1],
                  static_cast<unsigned long long>(acc.games()), acc.mean(), acc.ci_half_width());
  } else {
    std::snprintf(buf, sizeof buf, "aim goals: %.3f goals reached per game over %llu games; mean result %.3f ± %.3f\n",
                  acc.goals_per_game(), static_cast<unsigned long long>(acc.games()), acc.mean(), acc.ci_half_width());
  }
  return buf;
}

std::string value_net_text(const RunConfig& rc) {
  if (rc.value_net_source != "file") return "";
  return ", value net " + rc.value_net_path + " (hash " + rc.value_net_hash.substr(0, 8) + ")";
}

std::string rate_text(double per_second) {
  char buf[64];
  if (per_second >= 999.5 || per_second == 0)
    std::snprintf(buf, sizeof buf, "%.0f", per_second);
  else
    std::snprintf(buf, sizeof buf, "%.3g", per_second);
  return buf;
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

void select_value_net(const std::string& path, RunConfig& rc) {
  rc.value_net_path = path;
  if (path.empty()) {
    rc.context.net = nullptr;
    rc.value_net_hash = ValueNet::builtin().hash();
    rc.value_net_source = "built-in";
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw UsageError("--value-net " + path + ": is a directory, not a carcsolo-value/1 file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) throw UsageError("--value-net: cannot read " + path + ": " + std::strerror(errno));
  std::shared_ptr<const ValueNet> net;
  try {
    net = std::make_shared<const ValueNet>(ValueNet::parse(text.str()));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--value-net " + path + ": " + e.what());
  }
  rc.context.net = net;
  rc.value_net_hash = net->hash();
  rc.value_net_source = "file";
}

void select_aim(const std::string& id, RunConfig& rc) {
  const std::optional<Aim> aim = parse_aim(id);
  if (!aim) {
    std::string ids;
    for (const std::string_view g : kGoalIds) ids += std::string(", ") + std::string(g);
    throw UsageError("--aim: unknown aim '" + id + "' (score, goals" + ids + ")");
  }
  rc.context.aim = *aim;
}

void select_tileset(const std::string& spec, bool large_meeple, RunConfig& rc) {
  try {
    Rules rules = load_ruleset(spec, large_meeple);
    check_colors(*rules, rc.colors);
    rc.context.rules = std::move(rules);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--tileset: ") + e.what());
  }
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

RunConfig GameOptions::resolve() const {
  RunConfig rc;
  rc.colors = int(parse_count("colors", colors, kMinColors, kMaxColors));
  rc.meeples = int(parse_count("meeples", meeples, kMinMeeples, kMaxMeeples));
  rc.seed = parse_count("seed", seed, 0, UINT64_MAX);
  select_tileset(tileset, large_meeple, rc);
  select_value_net(value_net, rc);
  if (aim_list.size() > 1)
    throw UsageError("--aim: one aim (got " + std::to_string(aim_list.size()) + "; compare takes one per policy)");
  select_aim(aim_list.empty() ? "score" : aim_list[0], rc);
  try {
    rc.placement_policy = canonical_placement(placement);
    rc.scoring_policy = canonical_scoring(scoring);
    // A player that cannot play this set (the learned value knows the base game only), or
    // cannot aim, is bad input, found before any game.
    if (!rc.base_game() || (policies && !rc.context.aim.is_score()))
      (void)make_placement_policy(rc.placement_policy, rc.context);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return rc;
}

std::vector<RunConfig> GameOptions::resolve_grid(std::vector<std::string>& placements,
                                                 std::vector<int>& color_list,
                                                 std::vector<int>& meeple_list) const {
  color_list = parse_int_list("colors", colors, kMinColors, kMaxColors);
  meeple_list = parse_int_list("meeples", meeples, kMinMeeples, kMaxMeeples);
  placements.clear();
  std::vector<RunConfig> out;
  for (const std::string& p : placement_list.empty() ? std::vector<std::string>{placement} : placement_list) {
    GameOptions one = *this;
    one.colors = std::to_string(color_list[0]);
    one.meeples = std::to_string(meeple_list[0]);
    one.placement = p;
    const RunConfig base = one.resolve();
    if (std::find(placements.begin(), placements.end(), base.placement_policy) != placements.end())
      throw UsageError("--placement names " + base.placement_policy + " twice");
    placements.push_back(base.placement_policy);
    for (int c : color_list)
      for (int m : meeple_list) {
        RunConfig rc = base;
        rc.colors = c;
        rc.meeples = m;
        out.push_back(rc);
      }
  }
  return out;
}

RangeOptions::RangeOptions(std::string default_games, std::uint64_t most)
    : games(std::move(default_games)), threads(std::to_string(default_threads())), limit(most) {}

void RangeOptions::add_to(po::options_description& d, const char* games_help) {
  d.add_options()
      ("games", po::value(&games)->default_value(games), games_help)
      ("first-game", po::value(&first)->default_value(first), "index of the first game (to split a study into shards)")
      ("threads", po::value(&threads)->default_value(threads), "worker threads per process (default: all cores; under mpirun the cores mpirun lets a process use, often 1: see docs/large-runs.md)");
}

void check_game_range(std::uint64_t first, std::uint64_t games) {
  if (games > 0 && (first > kMaxGameIndex || games - 1 > kMaxGameIndex - first))
    throw UsageError("--first-game " + std::to_string(first) + " with --games " + std::to_string(games) +
                     ": the games must end at index " + std::to_string(kMaxGameIndex) +
                     " at most (the largest game replay takes)");
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

}  // namespace carc::sim
