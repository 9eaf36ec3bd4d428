// Tests of sim/paired: the exact paired-difference accumulator (expected numbers worked out
// by hand), the checkpoint rule of --until-ci, and the driver's paired differences on real
// games.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/matrix.hpp"

namespace {

using carc::EndReason;
using carc::Goal;
using carc::goal_bit;
using carc::sim::GameOutcome;
using carc::sim::MatrixRequest;
using carc::sim::PairedDiff;
using carc::sim::RunConfig;

GameOutcome outcome(int result, carc::GoalMask goals = 0) {
  GameOutcome g;
  g.colors = 3;
  g.scores = {result, result + 1, result + 2, 0, 0, 0};
  g.result = result;
  g.end = EndReason::no_meeple;
  g.tiles_placed = 20;
  g.goals = goals;
  return g;
}

RunConfig config(const char* placement, const char* scoring) {
  RunConfig c;
  c.placement_policy = placement;
  c.scoring_policy = scoring;
  c.seed = 11;
  return c;
}

}  // namespace

TEST_CASE("PairedDiff: exact sums, wins/draws/losses, goal differences") {
  // Differences second - first: +3, -1, 0, +2.
  PairedDiff d;
  d.add(outcome(5, goal_bit(Goal::road_10)), outcome(8));
  d.add(outcome(7), outcome(6, goal_bit(Goal::road_10)));
  d.add(outcome(4, goal_bit(Goal::city_16)), outcome(4, goal_bit(Goal::city_16)));
  d.add(outcome(1), outcome(3, goal_bit(Goal::total_40)));
  CHECK(d.games() == 4);
  CHECK(d.sum() == 4);
  CHECK(d.sum_of_squares() == 14);
  CHECK(d.wins() == 2);
  CHECK(d.draws() == 1);
  CHECK(d.losses() == 1);
  CHECK(d.mean() == doctest::Approx(1.0));
  // Sample variance (14 - 16/4) / 3 = 10/3.
  CHECK(d.stddev() == doctest::Approx(std::sqrt(10.0 / 3.0)));
  CHECK(d.ci_half_width() == doctest::Approx(1.96 * std::sqrt(10.0 / 3.0 / 4.0)));
  // road_10: once only first, once only second: difference 0, variance (2 - 0) / 3.
  const int road = int(Goal::road_10), city = int(Goal::city_16), total = int(Goal::total_40);
  CHECK(d.goal_mean(road) == 0.0);
  CHECK(d.goal_ci_half_width(road) == doctest::Approx(1.96 * std::sqrt(2.0 / 3.0 / 4.0)));
  // city_16: both achieved it: no disagreement, no width.
  CHECK(d.goal_mean(city) == 0.0);
  CHECK(d.goal_ci_half_width(city) == 0.0);
  CHECK(d.goal_mean(total) == doctest::Approx(0.25));

  const auto j = d.to_json();
  CHECK(j["wins"] == 2);
  CHECK(j["sum"] == 4);
  CHECK(j["goals"]["city_16"]["first_count"] == 1);
  CHECK(j["goals"]["city_16"]["second_count"] == 1);
  CHECK(j["goals"]["road_10"]["only_first"] == 1);
  CHECK(j["goals"]["total_40"]["only_second"] == 1);
  CHECK(j["goals"].size() == std::size_t(carc::kGoalCount));
  // total_40: 0.25 +- 0.49, inside [-1, 1].
  CHECK(j["goals"]["total_40"]["ci95"][0].get<double>() == doctest::Approx(0.25 - d.goal_ci_half_width(total)));

  SUBCASE("a goal's interval stays in [-1, 1], where a difference of rates lies") {
    PairedDiff few;  // second reaches total_40 in 2 of 3 games, first never: 0.667 +- 0.65
    few.add(outcome(1), outcome(3, goal_bit(Goal::total_40)));
    few.add(outcome(1), outcome(3, goal_bit(Goal::total_40)));
    few.add(outcome(1), outcome(3));
    REQUIRE(few.goal_mean(total) + few.goal_ci_half_width(total) > 1.0);
    const auto ci = few.to_json()["goals"]["total_40"]["ci95"];
    CHECK(ci[1].get<double>() == 1.0);
    CHECK(ci[0].get<double>() == doctest::Approx(few.goal_mean(total) - few.goal_ci_half_width(total)));
    PairedDiff back;  // and the mirror image
    back.add(outcome(3, goal_bit(Goal::total_40)), outcome(1));
    back.add(outcome(3, goal_bit(Goal::total_40)), outcome(1));
    back.add(outcome(3), outcome(1));
    CHECK(back.to_json()["goals"]["total_40"]["ci95"][0].get<double>() == -1.0);
  }

  // Merging is the same as adding the games to one accumulator.
  PairedDiff a, b;
  a.add(outcome(5, goal_bit(Goal::road_10)), outcome(8));
  a.add(outcome(7), outcome(6, goal_bit(Goal::road_10)));
  b.add(outcome(4, goal_bit(Goal::city_16)), outcome(4, goal_bit(Goal::city_16)));
  b.add(outcome(1), outcome(3, goal_bit(Goal::total_40)));
  b.merge(a);
  CHECK(b == d);
}

TEST_CASE("PairedDiff: no games gives zeros, never NaN") {
  const PairedDiff d;
  CHECK(d.mean() == 0.0);
  CHECK(d.stddev() == 0.0);
  CHECK(d.ci_half_width() == 0.0);
  CHECK(d.goal_ci_half_width(0) == 0.0);
  CHECK(d.to_json()["ci95"][1] == 0.0);
}

TEST_CASE("next_checkpoint: grows towards the predicted need, bounded") {
  using carc::sim::next_checkpoint;
  CHECK(next_checkpoint(0, 0, 0.1, 1000, 50000) == 1000);
  // Half-width twice the target: 4x the games predicted, 1.1x that asked, capped at 4x.
  CHECK(next_checkpoint(1000, 0.2, 0.1, 1000, 50000) == 4000);
  // 1.5x the target: 2.25 * 1.1 = 2.475x (give or take rounding of the ratio).
  const auto n = next_checkpoint(2000, 0.75, 0.5, 1000, 50000);
  CHECK(n >= 4950);
  CHECK(n <= 4951);
  // Nearly there: at least one more batch.
  CHECK(next_checkpoint(10000, 0.1001, 0.1, 1000, 50000) == 11023);
  CHECK(next_checkpoint(10000, 0.1, 0.2, 1000, 50000) == 11000);
  CHECK(next_checkpoint(40000, 0.2, 0.1, 1000, 50000) == 50000);
  CHECK(next_checkpoint(50000, 0.2, 0.1, 1000, 50000) == 50000);
}

TEST_CASE("play_matrix: a policy against itself draws every game") {
  MatrixRequest req;
  req.configs = {config("random", "random"), config("random", "random")};
  req.first_game = 5;
  req.games = 600;
  req.threads = 2;
  const auto r = carc::sim::play_matrix(req);
  REQUIRE(r.diff.size() == 1);
  CHECK(r.games_done == 600);
  CHECK_FALSE(r.partial);
  CHECK(r.diff[0].draws() == 600);
  CHECK(r.diff[0].sum() == 0);
  CHECK(r.diff[0].ci_half_width() == 0.0);
  CHECK(r.acc[0] == r.acc[1]);
  CHECK(r.acc[0].games() == 600);
}

TEST_CASE("play_matrix: with all_pairs, every pair's difference after those against the first") {
  MatrixRequest req;
  req.configs = {config("random", "random"), config("greedy", "random"), config("random", "best")};
  req.first_game = 3;
  req.games = 200;
  req.threads = 2;
  const auto first = carc::sim::play_matrix(req);
  req.all_pairs = true;
  const auto all = carc::sim::play_matrix(req);
  REQUIRE(first.diff.size() == 2);
  REQUIRE(all.diff.size() == 3);
  CHECK(carc::sim::matrix_pairs(3, true) ==
        std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}, {0, 2}, {1, 2}});
  CHECK(carc::sim::matrix_pairs(3, false) == std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}, {0, 2}});
  CHECK(carc::sim::matrix_pairs(1, true).empty());
  CHECK(all.diff[0].to_json() == first.diff[0].to_json());
  CHECK(all.diff[1].to_json() == first.diff[1].to_json());
  // (1, 2): game by game, the sum of third - second is the difference of the two sums.
  const auto& d = all.diff[2];
  CHECK(d.games() == 200);
  CHECK(d.sum() == first.diff[1].sum() - first.diff[0].sum());
  CHECK(d.wins() + d.draws() + d.losses() == 200);
  CHECK(d.ci_half_width() > 0);
}

TEST_CASE("play_matrix: a stronger scoring order gives a difference whose CI excludes 0") {
  // as-found scores colour 0 first at the end and never looks at the scoreboard; a random
  // order is better on average (about +1.6 points over these games).
  MatrixRequest req;
  req.configs = {config("random", "as-found"), config("random", "random")};
  req.games = 2000;
  req.threads = 2;
  const auto r = carc::sim::play_matrix(req);
  const auto& d = r.diff[0];
  CHECK(d.mean() - d.ci_half_width() > 0);
  CHECK(d.wins() > d.losses());
  // The paired difference is the difference of the two means, game by game.
  CHECK(d.sum() == std::int64_t(r.acc[1].result_sum()) - std::int64_t(r.acc[0].result_sum()));
}

TEST_CASE("play_matrix: greedy placement beats random, game by game") {
  const auto list = carc::placement_policies();
  if (std::none_of(list.begin(), list.end(), [](const auto& p) { return p.name == "greedy"; })) {
    MESSAGE("no greedy placement policy registered: nothing to compare");
    return;
  }
  MatrixRequest req;
  req.configs = {config("random", "random"), config("greedy", "random")};
  req.games = 600;
  req.threads = 2;
  const auto r = carc::sim::play_matrix(req);
  CHECK(r.diff[0].mean() - r.diff[0].ci_half_width() > 0);
}

TEST_CASE("play_matrix: the outcome does not depend on the thread count") {
  MatrixRequest req;
  req.configs = {config("random", "as-found"), config("random", "random"),
                 config("random", "random")};
  req.configs[2].meeples = 6;
  req.games = 1500;
  req.threads = 1;
  const auto one = carc::sim::play_matrix(req);
  req.threads = 2;
  const auto two = carc::sim::play_matrix(req);
  CHECK(one.acc == two.acc);
  CHECK(one.diff == two.diff);
  CHECK(one.diff[1].wins() > one.diff[1].losses());  // six meeples beat four
}

TEST_CASE("MatrixOutcome::append: two halves make the whole") {
  MatrixRequest req;
  req.configs = {config("random", "as-found"), config("random", "random")};
  req.threads = 2;
  req.games = 700;
  const auto whole = carc::sim::play_matrix(req);
  req.games = 300;
  auto halves = carc::sim::play_matrix(req);
  req.first_game = 300;
  req.games = 400;
  halves.append(carc::sim::play_matrix(req));
  CHECK(halves.games_done == 700);
  CHECK(halves.acc == whole.acc);
  CHECK(halves.diff == whole.diff);
}
