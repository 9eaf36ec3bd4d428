// carcsolo sweep: the difficulty table. Every (colours, meeples) option plays the same game
// indices of one seed with one pair of policies; per option the mean result with its CI,
// p10/p50/p90, the total_40/50/60 and all_tiles rates and the end-reason split, and which
// option comes closest to a target.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "core/state.hpp"
#include "sim/cli/cli.hpp"
#include "sim/log/io.hpp"
#include "sim/driver/paired.hpp"
#include "sim/driver/run.hpp"

namespace carc::sim {
namespace {

constexpr const char* kSweepFormat = "carcassonne-solo-sweep/1";
constexpr std::array<carc::Goal, 4> kTableGoals = {carc::Goal::total_40, carc::Goal::total_50,
                                                   carc::Goal::total_60, carc::Goal::all_tiles};

// "2..8", "3,4", "2..4,6": distinct integers in [lo, hi], in the order given.
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
    const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
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

struct Target {
  std::string key;  // a goal id or "mean"
  double value = 0;
};

Target parse_target(const std::string& text) {
  const auto eq = text.find('=');
  const std::string key = text.substr(0, eq);
  const bool known = key == "mean" || std::find(carc::kGoalIds.begin(), carc::kGoalIds.end(),
                                                key) != carc::kGoalIds.end();
  if (eq == std::string::npos || !known)
    throw UsageError("--target must be GOAL=RATE (a goal id of rules.md) or mean=VALUE (got '" +
                     text + "')");
  const bool is_mean = key == "mean";
  return {key, parse_real("target", text.substr(eq + 1), 0, is_mean ? double(kMaxResult) : 1.0)};
}

double value_of(const nlohmann::json& run, const std::string& key) {
  return key == "mean" ? run["result"]["mean"].get<double>()
                       : run["goals"][key]["rate"].get<double>();
}

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

void print_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r) {
  os << "colours meeples    games  mean +- 95% CI     p10 p50 p90  total_40 total_50 total_60 "
        "all_tiles  no_meeple tiles_exh\n";
  for (std::size_t k = 0; k < cfg.size(); ++k) {
    const Accumulator& a = r.acc[k];
    const nlohmann::json j = a.to_json(cfg[k], program_info(), Performance{});
    char line[256];
    std::snprintf(line, sizeof line, "%7d %7d %8llu %7.3f +- %-7.3f %4d%4d%4d ", cfg[k].colors,
                  cfg[k].meeples, static_cast<unsigned long long>(a.games()), a.mean(),
                  a.ci_half_width(), a.quantile(10), a.quantile(50), a.quantile(90));
    os << line;
    for (auto g : kTableGoals)
      os << fmt("%8.2f%%", 100 * j["goals"][std::string(carc::kGoalIds[std::size_t(g)])]["rate"].get<double>())
         << (g == carc::Goal::all_tiles ? "" : " ");
    os << fmt("  %8.2f%%", 100 * j["end_reasons"]["no_meeple"]["rate"].get<double>())
       << fmt(" %8.2f%%", 100 * j["end_reasons"]["tiles_exhausted"]["rate"].get<double>()) << "\n";
  }
}

}  // namespace

int cmd_sweep(const Args& args) {
  std::string colors = "3,4", meeples = "2..8", seed = "1", placement = "random", scoring = "random";
  std::string games = "10000", first = "0", threads = std::to_string(default_threads()), out;
  std::vector<std::string> targets;
  po::options_description d(
      "carcsolo sweep: the difficulty table over colour and meeple counts\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour: a list or range of 1..12, e.g. 2..8 or 3,4,6")
      ("colors", po::value(&colors)->default_value(colors), "colours in play: a list or range of 2..6")
      ("placement", po::value(&placement)->default_value(placement), "placement policy (see `carcsolo policies`)")
      ("scoring", po::value(&scoring)->default_value(scoring), "scoring-order policy (see `carcsolo policies`)")
      ("seed", po::value(&seed)->default_value(seed), "base seed; every option plays the same game indices")
      ("games", po::value(&games)->default_value(games), "games per option, >= 1")
      ("first-game", po::value(&first)->default_value(first), "index of the first game")
      ("target", po::value(&targets)->composing(), "GOAL=RATE or mean=VALUE: report the option closest to it (repeatable)")
      ("threads", po::value(&threads)->default_value(threads), "worker threads (default: all cores)")
      ("out", po::value(&out), "write the sweep JSON (carcassonne-solo-sweep/1) to FILE")
      ("quiet,q", "no table on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo sweep --meeples 2..8 --colors 3,4 --games 100000 "
                      "--target total_50=0.5\n";
    return 0;
  }
  const std::vector<int> color_list = parse_int_list("colors", colors, carc::kMinColors, carc::kMaxColors);
  const std::vector<int> meeple_list =
      parse_int_list("meeples", meeples, carc::kMinMeeples, carc::kMaxMeeples);
  std::vector<RunConfig> cfg;
  for (int c : color_list)
    for (int m : meeple_list) {
      GameOptions g;
      g.colors = std::to_string(c);
      g.meeples = std::to_string(m);
      g.seed = seed;
      g.placement = placement;
      g.scoring = scoring;
      cfg.push_back(g.resolve());
    }
  std::vector<Target> tg;
  for (const auto& t : targets) tg.push_back(parse_target(t));
  const std::uint64_t first_game = parse_count("first-game", first, 0, UINT64_MAX / 4);
  const int n_threads = int(parse_count("threads", threads, 1, 1024));

  MatrixRequest req;
  req.configs = cfg;
  req.first_game = first_game;
  req.games = parse_count("games", games, 1, UINT64_MAX / 4);
  req.threads = n_threads;
  req.stop = &g_stop;
  if (::isatty(STDERR_FILENO))
    req.progress = [](const MatrixOutcome& part) {
      double lo = 1e9, hi = -1e9, widest = 0;
      for (const auto& a : part.acc) {
        lo = std::min(lo, a.mean());
        hi = std::max(hi, a.mean());
        widest = std::max(widest, a.ci_half_width());
      }
      char buf[96];
      std::snprintf(buf, sizeof buf, "means %.2f..%.2f, widest CI +- %.3f", lo, hi, widest);
      return std::string(buf);
    };

  AtomicFile out_file;  // opened now: a bad path fails before the work
  if (!out.empty()) out_file = open_output("out", out);
  install_stop_handlers();
  const MatrixOutcome r = play_matrix(req);
  restore_default_handlers();

  const ProgramInfo program = program_info();
  nlohmann::json runs = nlohmann::json::array();
  for (std::size_t k = 0; k < cfg.size(); ++k)
    runs.push_back(r.run_json(cfg[k], first_game, program, n_threads, k));
  nlohmann::json closest = nlohmann::json::array();
  for (const auto& t : tg) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < cfg.size(); ++k)
      if (std::abs(value_of(runs[k], t.key) - t.value) < std::abs(value_of(runs[best], t.key) - t.value))
        best = k;
    closest.push_back({{"target", t.key},
                       {"value", t.value},
                       {"run", best},
                       {"colors", cfg[best].colors},
                       {"meeples", cfg[best].meeples},
                       {"achieved", value_of(runs[best], t.key)}});
  }

  if (out_file.is_open()) {
    nlohmann::json doc = {
        {"format", kSweepFormat},
        {"program", {{"name", program.name}, {"version", program.version}, {"git", program.git}}},
        {"config",
         {{"colors", color_list},
          {"meeples", meeple_list},
          {"placement_policy", cfg[0].placement_policy},
          {"scoring_policy", cfg[0].scoring_policy},
          {"seed", cfg[0].seed},
          {"first_game", first_game},
          {"games", r.games_done}}},
        {"runs", runs},
        {"targets", closest},
        {"performance", {{"threads", n_threads}, {"seconds", r.seconds}}}};
    if (r.partial) doc["partial"] = true;
    out_file.write(doc.dump(2) + "\n");
    out_file.commit();
  }
  if (!vm.count("quiet")) {
    std::cout << "carcsolo sweep: " << cfg[0].placement_policy << " / " << cfg[0].scoring_policy
              << ", seed " << cfg[0].seed << ", games [" << first_game << ", "
              << first_game + r.games_done << ") per option"
              << (r.partial ? "  (interrupted: partial)" : "") << "\n";
    print_table(std::cout, cfg, r);
    for (const auto& c : closest)
      std::cout << "closest to " << c["target"].get<std::string>() << " = "
                << c["value"].get<double>() << ": " << c["colors"] << " colours x "
                << c["meeples"] << " meeples (" << c["achieved"].get<double>() << ")\n";
    std::cout << "speed: " << (r.seconds > 0 ? double(r.games_done * cfg.size()) / r.seconds : 0)
              << " games/s on " << n_threads << " thread(s)\n";
  }
  if (r.partial)
    return report_interrupted("sweep", std::to_string(r.games_done) + " games per option", out);
  return 0;
}

}  // namespace carc::sim
