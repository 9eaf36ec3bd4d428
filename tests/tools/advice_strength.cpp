// carcsolo_advice_strength [--games N --seed S --first-game G --analyser SPEC --against SPEC
//                           --threads T]: the advice bar (docs/advise.md). A player who
// always plays `advise`'s first move: for each deal (seed S, games G..G+N-1) a game at the
// table is told the deal's tiles as they are drawn and plays the advice ranked first; the
// same deal is played by the `--against` player (default `search`) as `run` plays it. Prints
// one line a deal, then both means, the paired difference with its 95% CI, and the time
// per decision of each (CPU time of the thread, so the figures do not depend on the load).
#include <time.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <omp.h>

#include "policies/policy.hpp"
#include "sim/analysis/advice.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/stepper.hpp"

namespace {

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct Deal {
  int advised = 0, against = 0, decisions = 0, against_decisions = 0;
  double advised_s = 0, against_s = 0;
};

}  // namespace

int main(int argc, char** argv) {
  int games = 100, threads = 1;
  std::uint64_t seed = 1, first = 0;
  carc::sim::AdviceOptions opt;
  std::string against = "search";
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "carcsolo_advice_strength: %s needs a value\n", k.c_str());
      return 2;
    }
    const std::string v = argv[++i];
    if (k == "--games") games = std::atoi(v.c_str());
    else if (k == "--seed") seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--first-game") first = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--analyser") opt.analyser = v;
    else if (k == "--against") against = v;
    else if (k == "--threads") threads = std::atoi(v.c_str());
    else {
      std::fprintf(stderr, "carcsolo_advice_strength: unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (games < 1 || threads < 1) {
    std::fprintf(stderr, "carcsolo_advice_strength: --games and --threads must be >= 1\n");
    return 2;
  }
  opt.analyser = carc::canonical_placement(opt.analyser);
  opt.scoring = carc::canonical_scoring("best");
  against = carc::canonical_placement(against);
  std::vector<Deal> out(static_cast<std::size_t>(games));
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int g = 0; g < games; ++g) {
    Deal& d = out[std::size_t(g)];
    const std::uint64_t game = first + std::uint64_t(g);
    carc::sim::Stacks deal = carc::sim::deal(3, seed, game);
    carc::sim::SteppedGame table(carc::sim::SteppedGame::AtTheTable{}, {3, 4}, opt.scoring, opt.seed);
    carc::sim::Advisor advisor(opt);
    double t0 = thread_seconds();
    while (!table.over()) {
      if (table.needs_draw()) {
        table.draw(deal.pop(table.state().to_move()));
        continue;
      }
      const auto ranked = advisor.advise(table.state(), table.tile(), table.legal());
      table.play(ranked[0].move);
      if (table.ordering()) table.order({});
      ++d.decisions;
    }
    d.advised_s = thread_seconds() - t0;
    d.advised = table.state().result();
    auto placement = carc::make_placement_policy(against);
    auto scoring = carc::make_scoring_policy(opt.scoring);
    carc::sim::GameOutcome o;
    t0 = thread_seconds();
    const auto log = carc::sim::play_logged_game({carc::Config{3, 4}, seed, game, nullptr}, *placement, *scoring,
                                                 against, opt.scoring, &o);
    d.against_s = thread_seconds() - t0;
    d.against = log.at("result").get<int>();
    for (const auto& t : log.at("turns")) d.against_decisions += !t.value("discarded", false);
  }
  double sa = 0, sb = 0, sd = 0, sq = 0, ta = 0, tb = 0;
  long na = 0, nb = 0;
  for (int g = 0; g < games; ++g) {
    const Deal& d = out[std::size_t(g)];
    std::printf("game %llu: advised %d, %s %d\n", (unsigned long long)(first + std::uint64_t(g)), d.advised,
                carc::short_placement_spec(against).c_str(), d.against);
    sa += d.advised;
    sb += d.against;
    sd += d.advised - d.against;
    ta += d.advised_s;
    tb += d.against_s;
    na += d.decisions;
    nb += d.against_decisions;
  }
  const double n = games, mean = sd / n;
  for (const Deal& d : out) sq += (d.advised - d.against - mean) * (d.advised - d.against - mean);
  const double se = games > 1 ? std::sqrt(sq / (n - 1) / n) : 0.0;
  std::printf("advised (%s): mean %.2f; %s: mean %.2f; advised - %s: %+.2f [%+.2f, %+.2f] over %d deals\n",
              carc::short_placement_spec(opt.analyser).c_str(), sa / n, carc::short_placement_spec(against).c_str(),
              sb / n, carc::short_placement_spec(against).c_str(), mean, mean - 1.96 * se, mean + 1.96 * se, games);
  std::printf("time per decision (thread CPU): advice %.2f ms, %s %.2f ms, ratio %.2f\n", 1e3 * ta / double(na),
              carc::short_placement_spec(against).c_str(), 1e3 * tb / double(nb),
              (ta / double(na)) / (tb / double(nb)));
  return 0;
}
