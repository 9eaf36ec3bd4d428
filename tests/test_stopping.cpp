// Tests of when a study stops and what it shows meanwhile: --until-ci's rules (parsing,
// the intervals they read, the file's record, play_until_ci on real games), the progress
// lines (one snapshot behind the count and the statistics) and --dry-run.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/goals.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/study/stopping.hpp"

namespace {

using carc::Goal;
using carc::sim::CiGoal;
using carc::sim::CiOf;
using carc::sim::CiRule;
using carc::sim::GameOutcome;
using carc::sim::MatrixOutcome;
using carc::sim::MatrixRequest;
using carc::sim::ProgressView;
using carc::sim::RunConfig;

constexpr int kTotal60 = int(Goal::total_60);
constexpr int kCity16 = int(Goal::city_16);

GameOutcome outcome(int result) {
  GameOutcome g;
  g.colors = 3;
  g.scores = {result, result + 1, result + 2, 0, 0, 0};
  g.result = result;
  g.end = carc::EndReason::no_meeple;
  g.tiles_placed = 40;
  if (result >= 60) g.goals = carc::goal_bit(Goal::total_60);
  return g;
}

// One configuration's outcome over games with these results.
MatrixOutcome of_results(const std::vector<int>& results) {
  MatrixOutcome o;
  o.acc.resize(1);
  o.config_seconds.resize(1);
  for (int r : results) o.acc[0].add(outcome(r));
  o.games_done = o.acc[0].games();
  return o;
}

std::string mean_text(const MatrixOutcome& o) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "mean %.3f", o.acc[0].mean());
  return buf;
}

double wilson_half(std::uint64_t k, std::uint64_t n) {
  const auto w = carc::sim::wilson95(k, n);
  return (w[1] - w[0]) / 2;
}

RunConfig greedy_best() {
  RunConfig c;
  c.placement_policy = "greedy";
  c.scoring_policy = "best";
  c.seed = 5;
  return c;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("progress_line: the count and the statistics are of one snapshot") {
  // Games 0 and 1 scored 72 and 58: two games, their mean 65 (not "2 games, mean 72").
  const MatrixOutcome o = of_results({72, 58});
  const MatrixOutcome* seen = nullptr;
  const carc::sim::ProgressText text = [&](const MatrixOutcome& so_far) {
    seen = &so_far;
    return mean_text(so_far);
  };
  const std::string line = carc::sim::progress_line(ProgressView{&o, 40, 1.0, 1}, text);
  CHECK(line == "2/40 games  2 games/s  mean 65.000  ETA 19s");
  CHECK(seen == &o);  // the text is of the very games counted
  CHECK(carc::sim::progress_line(ProgressView{nullptr, 40, 0.0, 1}, text) == "0/40 games");
  CHECK(carc::sim::progress_line(ProgressView{&o, 20, 1.0, 2}, text).rfind("process 0: 2/20 games", 0) == 0);
}

TEST_CASE("until_ci_progress_line: every game so far, each rule's half-width, the next check") {
  std::vector<int> results;
  for (int i = 0; i < 100; ++i) results.push_back(i % 10 == 0 ? 65 : 30);  // total_60 in 10 of 100
  const MatrixOutcome o = of_results(results);
  const CiGoal goal{{{-1, 0.5}, {kTotal60, 0.01}}, CiOf::runs, 100};
  const std::string line = carc::sim::until_ci_progress_line(o, 2.0, 400, goal, mean_text, 1);
  char rule[128];
  std::snprintf(rule, sizeof rule, "total_60 ± %.2f%% (to 1%%)", 100 * wilson_half(10, 100));
  CHECK(line.rfind("100 games  50 games/s  mean 33.500  until-ci: mean ± ", 0) == 0);
  CHECK(contains(line, rule));
  CHECK(contains(line, "next check at 400 in 6.0s"));
  CHECK_FALSE(contains(line, "100/"));  // no per-batch "done/total"
  CHECK(carc::sim::until_ci_progress_line(MatrixOutcome{}, 0, 1000, goal, mean_text, 1) ==
        "0 games, next check at 1000");
}

TEST_CASE("sprt_progress_line: every game so far, the LLR at the last checkpoint, the next check") {
  const MatrixOutcome o = of_results({72, 58});
  const carc::sim::SprtTest t{0, 1, 0.05, 0.05};
  const std::string line = carc::sim::sprt_progress_line(o, 1.0, 200, t, -1.25, 100, mean_text, 1);
  CHECK(line == "2/200 games  2 games/s  mean 65.000  ETA 1m 39s  sprt: LLR -1.250 in (-2.944, 2.944) at 100  "
                "next check at 200");
  // Before any game (nothing to show, nothing read yet): the count alone, no failure.
  CHECK(carc::sim::sprt_progress_line(MatrixOutcome{}, 0, 100, t, 0, 0, mean_text, 1) ==
        "0/100 games  next check at 100");
}

TEST_CASE("duration_text") {
  CHECK(carc::sim::duration_text(0.34) == "0.3s");
  CHECK(carc::sim::duration_text(41.2) == "41s");
  CHECK(carc::sim::duration_text(760) == "12m 40s");
  CHECK(carc::sim::duration_text(3 * 3600 + 5 * 60 + 10) == "3h 05m");
}

TEST_CASE("parse_until_ci: the mean in points, goal rates as proportions or percentages") {
  using carc::sim::parse_until_ci;
  CHECK(parse_until_ci({}).empty());
  CHECK(parse_until_ci({"0.05"}) == std::vector<CiRule>{{-1, 0.05}});
  CHECK(parse_until_ci({"mean=0.05"}) == std::vector<CiRule>{{-1, 0.05}});
  CHECK(parse_until_ci({"total_60=0.01"}) == std::vector<CiRule>{{kTotal60, 0.01}});
  CHECK(parse_until_ci({"total_60=1%"}) == std::vector<CiRule>{{kTotal60, 0.01}});
  CHECK(parse_until_ci({"total_60=100%"}) == std::vector<CiRule>{{kTotal60, 1.0}});
  // Mean first, then goal order, whatever the order given.
  CHECK(parse_until_ci({"total_60=0.01", "city_16=0.5%", "2"}) ==
        std::vector<CiRule>{{-1, 2.0}, {kCity16, 0.005}, {kTotal60, 0.01}});
  CHECK_THROWS_AS(parse_until_ci({"1%"}), carc::sim::UsageError);
  CHECK_THROWS_AS(parse_until_ci({"total_60=0"}), carc::sim::UsageError);
  CHECK_THROWS_AS(parse_until_ci({"total_60=1.5"}), carc::sim::UsageError);
  CHECK_THROWS_AS(parse_until_ci({"nosuch=0.1"}), carc::sim::UsageError);
  CHECK_THROWS_AS(parse_until_ci({"0.1", "mean=0.2"}), carc::sim::UsageError);
}

TEST_CASE("ci_width: the mean's normal interval, a goal's Wilson interval, the widest (paired for differences)") {
  MatrixOutcome o = of_results({70, 20, 30, 40});  // total_60 in 1 of 4
  o.acc.push_back(of_results({10, 10, 10, 12}).acc[0]);  // none of 4, a narrow mean
  CHECK(carc::sim::ci_width(o, CiOf::runs, {-1, 1}) == o.acc[0].ci_half_width());
  CHECK(carc::sim::ci_width(o, CiOf::runs, {kTotal60, 1}) == wilson_half(1, 4));
  o.diff.resize(1);
  const int first[] = {70, 20, 30, 40}, second[] = {10, 10, 10, 12};
  for (int i = 0; i < 4; ++i) o.diff[0].add(outcome(first[i]), outcome(second[i]));
  CHECK(carc::sim::ci_width(o, CiOf::differences, {-1, 1}) == o.diff[0].ci_half_width());
  CHECK(carc::sim::ci_width(o, CiOf::differences, {kTotal60, 1}) == o.diff[0].goal_ci_half_width(kTotal60));
  const CiGoal goal{{{-1, 100}, {kTotal60, wilson_half(1, 4)}}, CiOf::runs, 10};
  CHECK(carc::sim::ci_met(o, goal));
  const CiGoal tighter{{{-1, 100}, {kTotal60, wilson_half(1, 4) * 0.99}}, CiOf::runs, 10};
  CHECK_FALSE(carc::sim::ci_met(o, tighter));
  const auto rec = carc::sim::ci_record(o, tighter, 500);
  CHECK(rec["cap"] == 500);
  CHECK(rec["first_batch"] == 10);
  CHECK(rec["half_width"] == 100);  // the mean rule's; every rule is under `rules`
  CHECK(rec["met"] == false);
  REQUIRE(rec["rules"].size() == 2);
  CHECK(rec["rules"][1]["target"] == "total_60");
  CHECK(rec["rules"][1]["interval"] == "wilson");
  CHECK(rec["rules"][1]["achieved"] == wilson_half(1, 4));
  CHECK(rec["rules"][1]["met"] == false);
  CHECK(rec["rules"][0]["met"] == true);
  // Only goal rules: no mean half-width.
  CHECK_FALSE(carc::sim::ci_record(o, CiGoal{{{kTotal60, 0.5}}, CiOf::runs, 10}, 9).contains("half_width"));
}

TEST_CASE("play_until_ci with a goal rule: stops at the first checkpoint that meets it, whatever the threads") {
  MatrixRequest req;
  req.configs = {greedy_best()};
  req.games = 200000;
  const CiGoal goal{{{kCity16, 0.01}}, CiOf::runs, 1000};  // city_16 ~7%: more than 1000 games
  req.threads = 1;
  const MatrixOutcome one = carc::sim::play_until_ci(req, goal);
  req.threads = 2;
  const MatrixOutcome two = carc::sim::play_until_ci(req, goal);
  CHECK(one.games_done == two.games_done);
  CHECK(one.acc[0] == two.acc[0]);
  const auto& a = one.acc[0];
  CHECK(wilson_half(a.goal_count(kCity16), a.games()) <= 0.01);
  CHECK_FALSE(one.partial);
  CHECK(one.games_done > 1000);
  CHECK(one.games_done < req.games);
  // The first batch alone did not meet it (or the rule would have stopped there).
  req.games = 1000;
  const MatrixOutcome first = carc::sim::play_matrix(req);
  CHECK(wilson_half(first.acc[0].goal_count(kCity16), 1000) > 0.01);
  // A second rule that needs more games plays on past the first's stop.
  req.games = 200000;
  const CiGoal both{{{-1, 0.1}, {kCity16, 0.01}}, CiOf::runs, 1000};
  const MatrixOutcome more = carc::sim::play_until_ci(req, both);
  CHECK(more.games_done > one.games_done);
  CHECK(carc::sim::ci_met(more, both));
}

TEST_CASE("play_matrix's progress views: whole games of every thread, the line's count from them") {
  MatrixRequest req;
  req.configs = {greedy_best()};
  req.games = 8000;
  req.threads = 2;
  std::vector<std::uint64_t> counts;
  std::vector<std::uint64_t> sums;
  bool consistent = true;
  req.progress = mean_text;
  req.line = [&](const ProgressView& v) {
    const std::uint64_t n = v.so_far ? v.so_far->acc[0].games() : 0;
    counts.push_back(n);
    sums.push_back(v.so_far ? v.so_far->acc[0].result_sum() : 0);
    const std::string line = carc::sim::progress_line(v, req.progress);
    consistent = consistent && line.rfind(std::to_string(n) + "/8000 games", 0) == 0 && v.range == 8000;
    return std::string();  // the test's output stays clean
  };
  const MatrixOutcome r = carc::sim::play_matrix(req);
  CHECK(consistent);
  REQUIRE(counts.size() >= 2);  // the first line and the last at least
  CHECK(counts.front() == 0);
  CHECK(counts.back() == r.games_done);
  CHECK(sums.back() == r.acc[0].result_sum());
  for (std::size_t i = 1; i < counts.size(); ++i) CHECK(counts[i - 1] <= counts[i]);
}

TEST_CASE("dry_run: a prefix of the range, its rate and the estimates") {
  MatrixRequest req;
  req.configs = {RunConfig{}};
  req.threads = 2;
  req.games = 50;  // less than a dry run plays: all of them
  auto d = carc::sim::dry_run(req, CiGoal{}, "policies");
  CHECK(d.played.games_done == 50);
  CHECK(d.report.rfind("dry run: 50 games in ", 0) == 0);
  CHECK(contains(d.report, "games/s\nestimate: the 50 games take about "));
  CHECK(contains(d.report, "\ndry run: nothing written\n"));
  req.games = 1000000000;  // far more: stops after about the time asked for
  req.first_game = 7;
  d = carc::sim::dry_run(req, CiGoal{{{-1, 0.001}}, CiOf::runs, 1000}, "policies", 0.2);
  CHECK(d.played.games_done >= 2);
  CHECK(d.played.games_done < req.games);
  CHECK(d.played.seconds < 5);
  CHECK(contains(d.report, "estimate: at most 1000000000 games (the cap) take about "));
  CHECK(contains(d.report, "estimate: by the spread of these "));
  // Of the range asked for: the same games as the run's first ones.
  req.games = d.played.games_done;
  CHECK(carc::sim::play_matrix(req).acc[0] == d.played.acc[0]);
}
