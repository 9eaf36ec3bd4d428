// carcsolo ceiling: the clairvoyant reference of every deal (sim/reference/ceiling.hpp), a
// REFERENCE THAT CHEATS (it sees the dealt stacks): the best line a beam search found,
// seeded with a real policy's own line of the same game, so "what knowing the order is
// worth" is never negative. A lower bound on each deal's optimum, not an upper one.
#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/cli/ceiling_file.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/errors.hpp"
#include "sim/driver/game.hpp"
#include "sim/log/io.hpp"
#include "sim/reference/ceiling.hpp"
#include "sim/stats/paired_diff.hpp"

namespace carc::sim {
namespace {

struct PerGame {
  GameOutcome ceiling, against;
  int beam_alone = -1;     // CeilingLine::beam_alone_result
  std::vector<Move> line;  // the best line's moves, kept for the games --log records
};

struct CeilingRun {
  RunConfig rc;  // the games; placement names the ceiling, scoring "best"
  std::string against;
  int width = 64, threads = 1;
  std::uint64_t logged = 0;    // the first games, whose lines --log writes
  std::vector<PerGame> games;  // [0, done) are played
  std::uint64_t done = 0;
  double seconds = 0;
};

void play_all(CeilingRun& run) {
  const Config cfg{run.rc.colors, run.rc.meeples};
  std::atomic<std::uint64_t> next{0}, finished{0};
  FirstError errors;
  const auto t0 = std::chrono::steady_clock::now();
  const bool progress = ::isatty(STDERR_FILENO);
#pragma omp parallel num_threads(run.threads)
  {
    try {
      auto placement = make_placement_policy(run.against, run.rc.context);
      auto scoring = make_scoring_policy("best");
      for (;;) {
        if (g_stop || errors.failed()) break;
        const std::uint64_t i = next.fetch_add(1);
        if (i >= run.rc.games) break;
        const std::uint64_t game = run.rc.first_game + i;
        PerGame& g = run.games[i];
        const std::vector<Move> line =
            policy_line(cfg, run.rc.seed, game, *placement, *scoring, &g.against);
        const Aim& aim = run.rc.context.aim;
        const CeilingLine best = clairvoyant_ceiling(cfg, run.rc.seed, game, run.width, line, aim);
        if (aim.outcome(best.outcome.goals, best.outcome.result) < aim.outcome(g.against.goals, g.against.result) ||
            (aim.is_score() && best.outcome.result < g.against.result))
          throw std::logic_error("ceiling: the beam lost the policy's own line (game " +
                                 std::to_string(game) + ")");
        g.ceiling = best.outcome;
        g.beam_alone = best.beam_alone_result;
        if (i < run.logged) g.line = best.moves;
        const std::uint64_t f = ++finished;
        if (progress && omp_get_thread_num() == 0)
          std::fprintf(stderr, "\r%llu/%llu games   ", static_cast<unsigned long long>(f),
                       static_cast<unsigned long long>(run.rc.games));
      }
    } catch (...) {
      errors.capture();
    }
  }
  if (progress) std::fprintf(stderr, "\n");
  errors.rethrow_if_failed();
  // Every game taken was finished: the games played are the prefix [0, min(next, games)).
  run.done = std::min<std::uint64_t>(next.load(), run.rc.games);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

CeilingFile file_of(const CeilingRun& run) {
  CeilingFile f;
  f.config = run.rc;
  f.config.games = run.done;
  f.against = run.against;
  f.width = run.width;
  for (std::uint64_t i = 0; i < run.done; ++i) {
    const PerGame& g = run.games[i];
    f.ceiling.add(g.ceiling);
    f.against_results.add(g.against);
    f.difference.add(g.against, g.ceiling);
    f.per_game.push_back({{"game", run.rc.first_game + i},
                          {"result", g.ceiling.result},
                          {"against_result", g.against.result},
                          {"beam_alone_result", g.beam_alone >= 0 ? nlohmann::json(g.beam_alone)
                                                                  : nlohmann::json(nullptr)}});
  }
  return f;
}

std::string policies_text_of(const CeilingRun& run) {
  return short_placement_spec(run.against) +
         (run.rc.context.aim.is_score() ? std::string() : " aiming at " + run.rc.context.aim.id());
}

// Under an aim: the reference's rate (or goals per game) and the policy's, one line each.
std::string ceiling_aim_line(const CeilingRun& run, const CeilingFile& f) {
  if (run.rc.context.aim.is_score()) return "";
  return "reference (cheats): " + aim_line(run.rc, f.ceiling) + "policy " + short_placement_spec(run.against) +
         ": " + aim_line(run.rc, f.against_results);
}

void print_summary(const CeilingRun& run, const CeilingFile& f) {
  std::printf("carcsolo ceiling: REFERENCE THAT CHEATS, NOT A POLICY (sees the dealt stacks): the "
              "best line a beam of width %d found, seeded with %s's own line; a lower bound on "
              "what each deal allows. %d colours x %d meeples, seed %llu\n%s%s%s",
              run.width, policies_text_of(run).c_str(), run.rc.colors, run.rc.meeples,
              static_cast<unsigned long long>(run.rc.seed), ceiling_aim_line(run, f).c_str(), f.ceiling.summary().c_str(),
              ceiling_summary(f).c_str());
}

}  // namespace

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
  play_all(run);
  const bool partial = run.done < run.rc.games;
  const CeilingFile file = file_of(run);
  nlohmann::json doc = ceiling_document(file, run.threads, run.seconds, program);
  if (partial) doc["partial"] = true;
  if (log_file.is_open()) {
    const Config cfg{run.rc.colors, run.rc.meeples};
    const std::string label = run.rc.placement_policy + " (reference: sees the stacks)";
    for (std::uint64_t i = 0; i < std::min(run.logged, run.done); ++i) {
      const PerGame& g = run.games[i];
      const std::uint64_t game = run.rc.first_game + i;
      const CeilingLine line{g.ceiling, g.line, g.beam_alone};
      log_file.write(ceiling_log(cfg, run.rc.seed, game, line, label).dump() + "\n");
    }
    log_file.commit();
  }
  if (out_file.is_open()) {
    out_file.write(doc.dump(2) + "\n");
    out_file.commit();
  }
  restore_default_handlers();
  if (!vm.count("quiet")) print_summary(run, file);
  if (partial)
    return report_interrupted("ceiling", std::to_string(run.done) + " of " +
                                             std::to_string(run.rc.games) + " games", out);
  return 0;
}

}  // namespace carc::sim
