#include "sim/study/ceiling_run.hpp"

#include <omp.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "policies/policy.hpp"
#include "sim/driver/errors.hpp"
#include "sim/reference/ceiling.hpp"
#include "sim/study/texts.hpp"

namespace carc::sim {
namespace {

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

}  // namespace

void play_ceiling(CeilingRun& run) {
  const Config cfg{run.rc.colors, run.rc.meeples};
  std::atomic<std::uint64_t> next{0}, finished{0};
  FirstError errors;
  const auto t0 = std::chrono::steady_clock::now();
  const bool progress = run.progress;
#pragma omp parallel num_threads(run.threads)
  {
    try {
      auto placement = make_placement_policy(run.against, run.rc.context);
      auto scoring = make_scoring_policy("best");
      for (;;) {
        if ((run.stop && run.stop->load()) || errors.failed()) break;
        const std::uint64_t i = next.fetch_add(1);
        if (i >= run.rc.games) break;
        const std::uint64_t game = run.rc.first_game + i;
        CeilingGame& g = run.games[i];
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

CeilingFile ceiling_file_of(const CeilingRun& run) {
  CeilingFile f;
  f.config = run.rc;
  f.config.games = run.done;
  f.against = run.against;
  f.width = run.width;
  for (std::uint64_t i = 0; i < run.done; ++i) {
    const CeilingGame& g = run.games[i];
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

std::string ceiling_run_summary(const CeilingRun& run, const CeilingFile& f) {
  char head[1024];
  std::snprintf(head, sizeof head, "carcsolo ceiling: REFERENCE THAT CHEATS, NOT A POLICY (sees the dealt stacks): the "
              "best line a beam of width %d found, seeded with %s's own line; a lower bound on "
              "what each deal allows. %d colours x %d meeples, seed %llu\n",
              run.width, policies_text_of(run).c_str(), run.rc.colors, run.rc.meeples,
              static_cast<unsigned long long>(run.rc.seed));
  return head + ceiling_aim_line(run, f) + f.ceiling.summary() + ceiling_summary(f);
}

std::string ceiling_run_logs(const CeilingRun& run) {
  const Config cfg{run.rc.colors, run.rc.meeples};
  const std::string label = run.rc.placement_policy + " (reference: sees the stacks)";
  std::string text;
  for (std::uint64_t i = 0; i < std::min(run.logged, run.done); ++i) {
    const CeilingGame& g = run.games[i];
    const CeilingLine line{g.ceiling, g.line, g.beam_alone};
    text += ceiling_log(cfg, run.rc.seed, run.rc.first_game + i, line, label).dump() + "\n";
  }
  return text;
}

}  // namespace carc::sim
