// Strength regression: each policy beats the one below it on the same games (common random
// numbers: one seed and the same game indices for both, so each game is dealt the same
// tiles), search > mc > heuristic > greedy > random and value:expect=1 > value > heuristic,
// with the paired 95% CI of the per-game difference above 0. Budgets are small so each
// case takes a few seconds on one thread; the seed is none of those the policies were tuned
// on (1..20) or the value was trained on (1003).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/game.hpp"
#include "sim/stats/paired_diff.hpp"

namespace {

using namespace carc;

constexpr std::uint64_t kSeed = 4242;

// `stronger` minus `weaker` over games [0, games) of kSeed, scoring order `best`.
sim::PairedDiff duel(const std::string& weaker, const std::string& stronger, Config cfg,
                     int games) {
  auto a = make_placement_policy(weaker);
  auto b = make_placement_policy(stronger);
  auto scoring = make_scoring_policy("best");
  sim::PairedDiff d;
  for (int g = 0; g < games; ++g) {
    const sim::GameSpec spec{cfg, kSeed, std::uint64_t(g)};
    const auto first = sim::play_game(spec, *a, *scoring);
    const auto second = sim::play_game(spec, *b, *scoring);
    d.add(first, second);
  }
  return d;
}

void check_stronger(const std::string& weaker, const std::string& stronger, Config cfg, int games) {
  const sim::PairedDiff d = duel(weaker, stronger, cfg, games);
  INFO(stronger << " - " << weaker << ": " << d.mean() << " +- " << d.ci_half_width() << " over "
                << d.games() << " games");
  CHECK(d.games() == std::uint64_t(games));
  CHECK(d.mean() - d.ci_half_width() > 0);
}

// The policy at its defaults over `games` games of kSeed at the study's configuration
// (results/policies.json: 10,000 games of seed 1 each, 3 colours x 4 meeples, `best`) is
// not weaker than the study says: its mean is at least the study's less 4 standard errors
// of the difference (about 1.5 points for heuristic at 1,500 games). So a player that
// gets weaker fails here even when it still beats the one below it. The study must be of
// today's defaults: a changed default re-runs it (scripts/study).
void check_not_weaker_than_study(const std::string& name, int games) {
  const auto path = std::filesystem::path(CARCSOLO_SOURCE_DIR) / "results" / "policies.json";
  std::ifstream in(path);
  REQUIRE(in.good());
  const auto study = nlohmann::json::parse(in);
  REQUIRE(study["colors"] == 3);
  REQUIRE(study["meeples"] == 4);
  REQUIRE(study["scoring_policy"] == "best");
  const std::string spec = canonical_placement(name);
  const nlohmann::json* run = nullptr;
  for (const auto& r : study["runs"])
    if (r["config"]["placement_policy"] == spec) run = &r;
  INFO("results/policies.json has no run of " << spec << ": re-run scripts/study");
  REQUIRE(run != nullptr);
  const double study_mean = (*run)["result"]["mean"], study_se = (*run)["result"]["stderr"];
  const double sd = (*run)["result"]["std"];

  auto p = make_placement_policy(name);
  auto scoring = make_scoring_policy("best");
  double sum = 0;
  for (int g = 0; g < games; ++g)
    sum += sim::play_game(sim::GameSpec{{3, 4}, kSeed, std::uint64_t(g)}, *p, *scoring).result;
  const double mean = sum / games;
  const double se = std::sqrt(study_se * study_se + sd * sd / games);
  INFO(name << ": " << mean << " over " << games << " games of seed " << kSeed << "; the study "
            << study_mean << " over " << (*run)["games"] << " games; floor "
            << study_mean - 4 * se);
  CHECK(mean >= study_mean - 4 * se);
}

}  // namespace

TEST_CASE(
    "strength: random, greedy and heuristic at their defaults are as strong as the study says") {
  check_not_weaker_than_study("random", 3000);
  check_not_weaker_than_study("greedy", 3000);
  check_not_weaker_than_study("heuristic", 1500);
}

TEST_CASE("strength: greedy beats random") {
  check_stronger("random", "greedy", {3, 4}, 300);
}

TEST_CASE("strength: heuristic beats greedy") {
  check_stronger("greedy", "heuristic", {3, 4}, 100);
}

// With 6 meeples the games run to nearly every tile, so mc's rollouts have a long game to
// improve on and a small budget shows: at 4 meeples mc needs ~16 rollouts (4x the time)
// to clear the same bar on as few games.
TEST_CASE("strength: mc beats heuristic") {
  check_stronger("heuristic", "mc:rollouts=4", {3, 6}, 40);
}

// The cheap setting of docs/policies.md's table against mc at a budget of similar cost.
TEST_CASE("strength: search beats mc") {
  check_stronger("mc:rollouts=4",
                 "search:candidates=10,filter=0,beam=8,rollouts=10,turns=3,halving=0",
                 {3, 4}, 40);
}

// The learned value (its built-in net, trained on heuristic games of seed 1003) against the
// heuristic whose features it reads: about +3.2 points over these 400 games (paired 95% CI
// [1.4, 5.0]). A net retrained into a weaker one fails here.
TEST_CASE("strength: value beats heuristic") {
  check_stronger("heuristic", "value", {3, 4}, 400);
}

// The learned value's expectation over the next draw (value:expect=1) against the one-ply
// `value` it extends (and so, with the case above, against the heuristic): about +12 points
// over 300 games of seed 9090; a small budget here.
TEST_CASE("strength: value:expect=1 beats value") {
  check_stronger("value", "value:expect=1", {3, 4}, 40);
}

// The learned value's cheap setting above mc at its defaults (the order asked: learned value >
// mc > heuristic): 42.8 against mc's 33 or so at 3 colours x 4 meeples; a player or a net
// that falls back to mc's level fails here.
TEST_CASE("strength: value:expect=1 beats mc") {
  check_stronger("mc", "value:expect=1", {3, 4}, 60);
}
