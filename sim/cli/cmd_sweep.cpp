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
#include "sim/cli/matrix_files.hpp"
#include "sim/cli/stopping.hpp"
#include "sim/driver/matrix.hpp"

namespace carc::sim {
namespace {

constexpr std::array<carc::Goal, 4> kTableGoals = {carc::Goal::total_40, carc::Goal::total_50,
                                                   carc::Goal::total_60, carc::Goal::all_tiles};

Target parse_target(const std::string& text) {
  const auto eq = text.find('=');
  const std::string key = text.substr(0, eq);
  const bool known = key == "mean" || std::find(carc::kGoalIds.begin(), carc::kGoalIds.end(),
                                                key) != carc::kGoalIds.end();
  if (eq == std::string::npos || !known)
    throw UsageError("--target must be GOAL=RATE (a goal id of rules.md) or mean=VALUE (got '" +
                     text + "')");
  const bool is_mean = key == "mean";
  try {
    return {key, parse_real("target", text.substr(eq + 1), 0, is_mean ? double(kMaxResult) : 1.0)};
  } catch (const UsageError&) {  // the message names the target and what its value may be
    throw UsageError("--target " + key + "=VALUE: " + (is_mean ? "a mean result" : "a goal rate") +
                     " must be a number from 0 to " + (is_mean ? std::to_string(kMaxResult) : std::string("1")) +
                     " (got '" + text + "')");
  }
}

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

}  // namespace

void print_sweep_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r) {
  const bool several = cfg.front().placement_policy != cfg.back().placement_policy;
  for (std::size_t k = 0; k < cfg.size(); ++k) {
    if (k == 0 || cfg[k].placement_policy != cfg[k - 1].placement_policy) {
      if (several) os << "placement " << short_placement_spec(cfg[k].placement_policy) << "\n";
      os << "colours meeples    games  mean ± 95% CI      p10 p50 p90  total_40 total_50 total_60 "
            "all_tiles  no_meeple tiles_exh\n";
    }
    const Accumulator& a = r.acc[k];
    const nlohmann::json j = a.to_json(cfg[k], ProgramInfo{}, Performance{});
    char line[256];
    std::snprintf(line, sizeof line, "%7d %7d %8llu %7.3f ± %-8.3f %4d%4d%4d ", cfg[k].colors,
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

namespace {

// "means 3.31..6.70, widest CI ± 0.071"
std::string means_text(const MatrixOutcome& o) {
  double lo = 1e9, hi = -1e9, widest = 0;
  for (const auto& a : o.acc) {
    lo = std::min(lo, a.mean());
    hi = std::max(hi, a.mean());
    widest = std::max(widest, a.ci_half_width());
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "means %.2f..%.2f, widest CI ± %.3f", lo, hi, widest);
  return buf;
}

void print_summary(std::ostream& os, const MatrixStudy& study, const MatrixOutcome& r,
                   const nlohmann::json& closest, int threads) {
  const RunConfig& c0 = study.configs[0];
  os << "carcsolo sweep: "
     << (study.placements.size() > 1 ? std::to_string(study.placements.size()) + " placements"
                                     : short_placement_spec(c0.placement_policy))
     << " / " << short_scoring_spec(c0.scoring_policy) << ", seed "
     << c0.seed << ", games [" << study.first_game << ", " << study.first_game + r.games_done
     << ") per option" << (r.partial ? "  (interrupted: partial)" : "") << "\n";
  print_sweep_table(os, study.configs, r);
  for (const auto& c : closest)
    os << "closest to " << c["target"].get<std::string>() << " = " << c["value"].get<double>()
       << (c.contains("placement_policy") ? " for " + short_placement_spec(c["placement_policy"].get<std::string>()) : "")
       << ": " << c["colors"] << " colours x " << c["meeples"] << " meeples ("
       << c["achieved"].get<double>() << ")\n";
  os << "speed: " << rate_text(r.seconds > 0 ? double(r.games_done * study.configs.size()) / r.seconds : 0)
     << " games/s on " << threads << " thread(s)\n";
}

}  // namespace

int cmd_sweep(const Args& args, const ProgramInfo& program) { return cmd_sweep(args, program, nullptr); }

int cmd_sweep(const Args& args, const ProgramInfo& program, Embedding* embed) {
  GameOptions g;
  g.colors = "3,4";
  g.meeples = "2..8";
  RangeOptions range("10000", UINT64_MAX / 4);
  std::string out, per_game;
  std::vector<std::string> targets, until_ci;
  po::options_description d(
      "carcsolo sweep: the difficulty table over colour and meeple counts\n\nOptions");
  d.add_options()("help,h", "show this help");
  g.add_to(d, true, true);
  range.add_to(d, "games per option, >= 1; fewer than run's 100000 by default as each game is played once per option (with --until-ci: the cap, at most this many; default then 1000000)");
  d.add_options()
      ("until-ci", po::value(&until_ci)->composing(),
       "W: play on until every option's mean has a 95% CI half-width <= W; GOAL=W (a goal id, W "
       "a proportion such as 0.01 or a percentage such as 1%): until every option's rate of that "
       "goal has a 95% Wilson half-width <= W. Repeatable: all must hold. Plays 1000 games, then "
       "on in batches; --games caps")
      ("dry-run", "play a few seconds' worth, print the games/s measured and the whole run's estimated time; write nothing")
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
  study.ci_rules = parse_until_ci(until_ci);
  if (!study.ci_rules.empty() && vm["games"].defaulted()) range.games = kUntilCiGamesDefault;
  const std::uint64_t games = range.game_count(1);
  if (!study.ci_rules.empty()) {
    study.ci_cap = games;
    study.ci_first_batch = std::min(kFirstBatch, games);
  }
  const bool dry = vm.count("dry-run") > 0;
  if (dry && embed) throw UsageError("--dry-run is for the command line");
  if (dry) {  // no file is opened
    MatrixCommand cmd(study, games, range.thread_count(), "", "", nullptr, nullptr, program);
    return dry_run_command("sweep", cmd.req, study.ci_goal());
  }
  MatrixCommand cmd(study, games, range.thread_count(vm, "sweep"), out, per_game, embed,
                    means_text, program);
  const MatrixOutcome r =  // without rules: the whole range
      cmd.play([&](const MatrixRequest& req) { return play_until_ci(req, study.ci_goal()); });
  if (!cmd.writer) return r.partial ? 130 : 0;
  auto doc = cmd.write(study, r);
  const nlohmann::json closest = doc["targets"];
  std::ostringstream summary;
  print_summary(summary, study, r, closest, cmd.req.threads);
  if (!study.ci_rules.empty()) summary << until_ci_summary(r, study.ci_goal(), study.ci_cap);
  if (cmd.hand_over(study, doc, summary.str())) return r.partial ? 130 : 0;
  if (!vm.count("quiet")) std::cout << summary.str();
  if (r.partial)
    return report_interrupted("sweep", std::to_string(r.games_done) + " games per option", out);
  return 0;
}

}  // namespace carc::sim
