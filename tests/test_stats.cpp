// Tests of sim/stats: exact accumulators, derived statistics (expected numbers computed
// independently with python3's statistics/decimal modules) and the results file.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/stats/stats.hpp"

namespace {

using carc::EndReason;
using carc::Goal;
using carc::goal_bit;
using carc::sim::Accumulator;
using carc::sim::GameOutcome;
using nlohmann::json;

GameOutcome game(std::array<int, 3> s, EndReason end, int tiles, int discards,
                 carc::GoalMask goals) {
  GameOutcome g;
  g.colors = 3;
  g.scores = {s[0], s[1], s[2], 0, 0, 0};
  g.result = *std::min_element(s.begin(), s.end());
  g.end = end;
  g.tiles_placed = tiles;
  g.discards = discards;
  g.goals = goals;
  return g;
}

// Results 3, 7, 7, 10, 15.
std::vector<GameOutcome> small_sample() {
  return {
      game({3, 5, 9}, EndReason::no_meeple, 40, 0, goal_bit(Goal::road_10) | goal_bit(Goal::total_40)),
      game({7, 8, 12}, EndReason::tiles_exhausted, 71, 2, goal_bit(Goal::all_tiles)),
      game({9, 7, 11}, EndReason::no_meeple, 40, 1, goal_bit(Goal::road_10)),
      game({10, 14, 20}, EndReason::no_meeple, 55, 0, 0),
      game({15, 16, 15}, EndReason::tiles_exhausted, 71, 0,
           goal_bit(Goal::road_10) | goal_bit(Goal::city_16)),
  };
}

std::vector<GameOutcome> random_games(int count, unsigned seed) {
  std::mt19937 rng(seed);  // only the spread matters here, not portability
  std::vector<GameOutcome> out;
  for (int i = 0; i < count; ++i) {
    GameOutcome g;
    g.colors = 4;
    for (int c = 0; c < 4; ++c) g.scores[std::size_t(c)] = int(rng() % 120);
    g.result = *std::min_element(g.scores.begin(), g.scores.begin() + 4);
    g.end = rng() % 4 == 0 ? EndReason::tiles_exhausted : EndReason::no_meeple;
    g.tiles_placed = int(rng() % 72);
    g.discards = rng() % 10 == 0 ? int(rng() % 3) : 0;
    g.goals = carc::GoalMask(rng() & rng() & rng() & 0x3fff);
    out.push_back(g);
  }
  return out;
}

Accumulator accumulate(const std::vector<GameOutcome>& games) {
  Accumulator a;
  for (const auto& g : games) a.add(g);
  return a;
}

carc::sim::RunConfig config_for(int colors) {
  carc::sim::RunConfig c;
  c.colors = colors;
  c.placement_policy = "greedy";
  c.seed = 42;
  c.first_game = 1000;
  return c;
}

json document(const Accumulator& a, int colors = 3) {
  carc::sim::ProgramInfo program;  // name, version and commit only: the fields every file has
  program.version = "0.1";
  program.git = "abc123";
  return a.to_json(config_for(colors), program, {2, 0.5});
}

void check_pair(const json& j, double lo, double hi) {
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 2);
  CHECK(j[0].get<double>() == doctest::Approx(lo).epsilon(1e-12));
  CHECK(j[1].get<double>() == doctest::Approx(hi).epsilon(1e-12));
}

}  // namespace

TEST_CASE("stats: small sample, hand-computed statistics") {
  const Accumulator a = accumulate(small_sample());
  CHECK(a.games() == 5);
  CHECK(a.colors() == 3);
  CHECK(a.result_sum() == 42);
  CHECK(a.result_sum_of_squares() == 432);
  CHECK(a.mean() == doctest::Approx(8.4));
  CHECK(a.stddev() == doctest::Approx(4.449719092257398).epsilon(1e-12));
  CHECK(a.ci_half_width() == doctest::Approx(1.96 * 1.98997487421324).epsilon(1e-12));
  CHECK(a.min_result() == 3);
  CHECK(a.max_result() == 15);
  // need = ceil(p * 5): 1,1,1,2,3,4,5,5,5 -> sorted 3,7,7,10,15
  CHECK(a.quantile(1) == 3);
  CHECK(a.quantile(10) == 3);
  CHECK(a.quantile(25) == 7);
  CHECK(a.quantile(50) == 7);
  CHECK(a.quantile(75) == 10);
  CHECK(a.quantile(90) == 15);
  CHECK(a.quantile(100) == 15);

  const json d = document(a);
  CHECK(d["format"] == "carcassonne-solo-results/1");
  CHECK(d["program"] == json({{"name", "carcsolo"}, {"version", "0.1"}, {"git", "abc123"}}));
  CHECK(d["config"] == json::parse(R"({"colors": 3, "meeples": 4, "start_scores": [1, 2, 3],
      "tileset": "base", "placement_policy": "greedy", "scoring_policy": "random",
      "seed": 42, "first_game": 1000, "games": 5})"));
  CHECK(d["games"] == 5);
  const json& r = d["result"];
  CHECK(r["mean"].get<double>() == doctest::Approx(8.4));
  CHECK(r["std"].get<double>() == doctest::Approx(4.449719092257398).epsilon(1e-12));
  CHECK(r["stderr"].get<double>() == doctest::Approx(1.98997487421324).epsilon(1e-12));
  check_pair(r["ci95"], 4.499649246542051, 12.30035075345795);
  CHECK(r["min"] == 3);
  CHECK(r["max"] == 15);
  CHECK(r["sum"] == 42);
  CHECK(r["quantiles"] == json::parse(R"({"p1": 3, "p5": 3, "p10": 3, "p25": 7, "p50": 7,
      "p75": 10, "p90": 15, "p95": 15, "p99": 15})"));
  CHECK(r["histogram"] == json::parse("[[3, 1], [7, 2], [10, 1], [15, 1]]"));

  REQUIRE(d["colors"].size() == 3);
  CHECK(d["colors"][0]["mean_score"].get<double>() == doctest::Approx(8.8));
  CHECK(d["colors"][1]["mean_score"].get<double>() == doctest::Approx(10.0));
  CHECK(d["colors"][2]["mean_score"].get<double>() == doctest::Approx(13.4));
  CHECK(d["colors"][2]["score_sum"] == 67);

  const json& e = d["end_reasons"];
  CHECK(e.size() == 2);
  CHECK(e["no_meeple"]["count"] == 3);
  CHECK(e["no_meeple"]["rate"].get<double>() == doctest::Approx(0.6));
  check_pair(e["no_meeple"]["wilson95"], 0.23071993220883705, 0.8823817688407467);
  CHECK(e["tiles_exhausted"]["count"] == 2);
  check_pair(e["tiles_exhausted"]["wilson95"], 0.11761823115925327, 0.769280067791163);

  const json& g = d["goals"];
  CHECK(g.size() == 14);
  for (auto id : carc::kGoalIds) CHECK(g.contains(std::string(id)));
  CHECK(g["road_10"]["count"] == 3);
  check_pair(g["road_10"]["wilson95"], 0.23071993220883705, 0.8823817688407467);
  CHECK(g["total_40"]["count"] == 1);
  check_pair(g["total_40"]["wilson95"], 0.03622316096978744, 0.6244717358814612);
  CHECK(g["monastery_4"]["count"] == 0);
  CHECK(g["monastery_4"]["rate"] == 0.0);
  check_pair(g["monastery_4"]["wilson95"], 0.0, 0.4344914947520811);
  CHECK(g["monastery_4"]["wilson95"][0] == 0.0);  // exactly, not -1e-17

  CHECK(d["tiles_placed"]["mean"].get<double>() == doctest::Approx(55.4));
  CHECK(d["tiles_placed"]["histogram"] == json::parse("[[40, 2], [55, 1], [71, 2]]"));
  CHECK(d["discards"]["mean"].get<double>() == doctest::Approx(0.6));
  CHECK(d["discards"]["games_with_discard"] == 2);
  CHECK(d["discards"]["total"] == 3);
  CHECK(d["performance"]["threads"] == 2);
  CHECK(d["performance"]["seconds"] == 0.5);
  CHECK(d["performance"]["games_per_second"] == 10.0);
}

TEST_CASE("stats: quantiles use integer ceil(p * n)") {
  Accumulator a;
  for (int v = 0; v < 100; ++v) {
    GameOutcome g = game({v, v + 1, v + 2}, EndReason::no_meeple, 10, 0, 0);
    a.add(g);
  }
  CHECK(a.quantile(7) == 6);  // 0.07 * 100 is 7.000000000000001 in doubles
  CHECK(a.quantile(1) == 0);
  CHECK(a.quantile(99) == 98);
  CHECK(a.quantile(100) == 99);

  Accumulator two;
  two.add(game({4, 5, 6}, EndReason::no_meeple, 10, 0, 0));
  two.add(game({8, 9, 9}, EndReason::no_meeple, 10, 0, 0));
  CHECK(two.quantile(50) == 4);  // lower of the two
  CHECK(two.quantile(51) == 8);
}

TEST_CASE("stats: Wilson score interval") {
  auto w = carc::sim::wilson95(81, 263);
  CHECK(w[0] == doctest::Approx(0.25528761306366965).epsilon(1e-12));
  CHECK(w[1] == doctest::Approx(0.36621068405342155).epsilon(1e-12));
  w = carc::sim::wilson95(5, 5);
  CHECK(w[0] == doctest::Approx(0.565508505247919).epsilon(1e-12));
  CHECK(w[1] == 1.0);
  w = carc::sim::wilson95(0, 0);
  CHECK(w[0] == 0.0);
  CHECK(w[1] == 0.0);
}

TEST_CASE("stats: one game has std 0") {
  Accumulator a;
  a.add(game({12, 20, 30}, EndReason::tiles_exhausted, 71, 0, 0));
  CHECK(a.stddev() == 0.0);
  CHECK(a.ci_half_width() == 0.0);
  check_pair(document(a)["result"]["ci95"], 12.0, 12.0);
}

TEST_CASE("stats: merge equals one accumulator over all games, in any order") {
  const auto games = random_games(3000, 7);
  const Accumulator whole = accumulate(games);

  std::array<Accumulator, 3> parts;
  for (std::size_t i = 0; i < games.size(); ++i) parts[i % 3].add(games[i]);
  Accumulator forward, backward;
  for (const auto& p : parts) forward.merge(p);
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) backward.merge(*it);
  CHECK(forward == whole);
  CHECK(backward == whole);

  auto shuffled = games;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(99));
  const Accumulator reordered = accumulate(shuffled);
  CHECK(reordered == whole);

  const std::string text = document(whole, 4).dump();
  CHECK(document(forward, 4).dump() == text);
  CHECK(document(backward, 4).dump() == text);
  CHECK(document(reordered, 4).dump() == text);

  Accumulator empty;
  empty.merge(whole);
  CHECK(empty == whole);
  Accumulator copy = whole;
  copy.merge(Accumulator{});
  CHECK(copy == whole);
}

TEST_CASE("stats: merging different colour counts is refused") {
  Accumulator three = accumulate(small_sample());
  const Accumulator four = accumulate(random_games(5, 1));
  CHECK_THROWS_AS(three.merge(four), std::invalid_argument);
}

TEST_CASE("stats: from_json rebuilds the exact accumulators") {
  const auto games = random_games(2000, 11);
  const Accumulator whole = accumulate(games);
  const json d = document(whole, 4);
  const Accumulator back = Accumulator::from_json(json::parse(d.dump()));
  CHECK(back == whole);
  CHECK(document(back, 4) == d);

  // Two files over disjoint game ranges merge into the file of their union.
  const Accumulator first(accumulate({games.begin(), games.begin() + 700}));
  const Accumulator second(accumulate({games.begin() + 700, games.end()}));
  Accumulator merged = Accumulator::from_json(json::parse(document(first, 4).dump()));
  merged.merge(Accumulator::from_json(json::parse(document(second, 4).dump())));
  CHECK(merged == whole);
  CHECK(document(merged, 4).dump() == d.dump());

  const Accumulator small = accumulate(small_sample());
  CHECK(Accumulator::from_json(document(small)) == small);
  CHECK(Accumulator::from_json(document(Accumulator{})) == Accumulator{});

  const auto config = carc::sim::run_config_from_json(d);
  CHECK(config.colors == 4);
  CHECK(config.placement_policy == "greedy");
  CHECK(config.seed == 42);
  CHECK(config.first_game == 1000);
  CHECK(config.games == 2000);
}

TEST_CASE("stats: malformed results files are rejected with one line") {
  const json good = document(accumulate(small_sample()));
  auto rejects = [](const json& doc) {
    try {
      (void)Accumulator::from_json(doc);
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      CHECK(!what.empty());
      CHECK(what.find('\n') == std::string::npos);
      return true;
    }
    return false;
  };
  auto edited = [&](auto&& edit) {
    json d = good;
    edit(d);
    return d;
  };
  CHECK_FALSE(rejects(good));
  CHECK(rejects(json::array()));
  CHECK(rejects(json::parse("null")));
  CHECK(rejects(edited([](json& d) { d["format"] = "carcassonne-solo-results/2"; })));
  CHECK(rejects(edited([](json& d) { d.erase("goals"); })));
  CHECK(rejects(edited([](json& d) { d["games"] = 6; })));
  CHECK(rejects(edited([](json& d) { d["games"] = -5; })));
  CHECK(rejects(edited([](json& d) { d["games"] = "5"; })));
  CHECK(rejects(edited([](json& d) { d["result"]["histogram"] = json::parse("[[7, 2], [3, 1], [10, 1], [15, 1]]"); })));
  CHECK(rejects(edited([](json& d) { d["result"]["histogram"][0] = json::parse("[3, 1.0]"); })));
  CHECK(rejects(edited([](json& d) { d["result"]["histogram"][0] = json::parse("[3]"); })));
  CHECK(rejects(edited([](json& d) { d["result"]["histogram"][3] = json::parse("[1024, 1]"); })));
  CHECK(rejects(edited([](json& d) { d["result"]["sum"] = 41; })));
  CHECK(rejects(edited([](json& d) { d["colors"].erase(2); })));
  CHECK(rejects(edited([](json& d) { d["colors"][1].erase("score_sum"); })));
  CHECK(rejects(edited([](json& d) { d["end_reasons"]["no_meeple"]["count"] = 4; })));
  CHECK(rejects(edited([](json& d) { d["end_reasons"]["none"] = d["end_reasons"]["no_meeple"]; })));
  CHECK(rejects(edited([](json& d) { d["tiles_placed"]["histogram"][0] = json::parse("[72, 2]"); })));
  CHECK(rejects(edited([](json& d) { d["discards"]["total"] = 1; })));
  CHECK(rejects(edited([](json& d) { d["goals"]["road_10"]["count"] = 6; })));
  CHECK(rejects(edited([](json& d) { d["goals"]["road_11"] = d["goals"]["road_10"]; })));
  CHECK(rejects(edited([](json& d) { d["goals"].erase("all_tiles"); })));
  CHECK(rejects(edited([](json& d) { d["config"]["games"] = 4; })));

  CHECK_THROWS_AS(carc::sim::run_config_from_json(
                      edited([](json& d) { d["config"]["start_scores"] = {2, 3, 4}; })),
                  std::runtime_error);
  CHECK_THROWS_AS(carc::sim::run_config_from_json(
                      edited([](json& d) { d["config"]["colors"] = 7; })),
                  std::runtime_error);
}

TEST_CASE("stats: zero games") {
  const Accumulator a;
  CHECK(a.games() == 0);
  CHECK(a.mean() == 0.0);
  CHECK(a.stddev() == 0.0);
  CHECK(a.ci_half_width() == 0.0);
  CHECK(a.quantile(50) == 0);
  const json d = document(a);
  const std::string text = d.dump();
  CHECK(text.find("null") == std::string::npos);  // nlohmann writes NaN as null
  CHECK(d["games"] == 0);
  CHECK(d["result"]["mean"] == 0.0);
  CHECK(d["result"]["ci95"] == json::parse("[0.0, 0.0]"));
  CHECK(d["result"]["histogram"] == json::array());
  CHECK(d["colors"].size() == 3);
  CHECK(d["colors"][0]["mean_score"] == 0.0);
  CHECK(d["end_reasons"]["no_meeple"]["wilson95"] == json::parse("[0.0, 0.0]"));
  CHECK(d["goals"].size() == 14);
  CHECK(d["goals"]["all_tiles"]["wilson95"] == json::parse("[0.0, 0.0]"));
  CHECK(d["tiles_placed"]["mean"] == 0.0);
  CHECK(d["discards"]["mean"] == 0.0);
  CHECK(a.summary() == "0 games\n");
}

TEST_CASE("stats: summary") {
  const std::string s = accumulate(small_sample()).summary();
  CHECK(s.find("5 games") != std::string::npos);
  CHECK(s.find("mean 8.400") != std::string::npos);
  CHECK(s.find("p10 3, p50 7, p90 15") != std::string::npos);
  CHECK(s.find("mean 8.400 ± ") != std::string::npos);
  CHECK(s.find("no_meeple 60.000%") != std::string::npos);
  // Every goal, reached or not, in one format with its Wilson interval.
  const auto ci = carc::sim::wilson95(3, 5);
  char want[128];
  std::snprintf(want, sizeof want, "    road_10        60.000%%  [%.3f%%, %.3f%%]\n", 100 * ci[0], 100 * ci[1]);
  CHECK(s.find(want) != std::string::npos);
  CHECK(s.find("    all_tiles      20.000%  [") != std::string::npos);
  CHECK(s.find("    monastery_3     0.000%  [0.000%, ") != std::string::npos);
  for (const auto id : carc::kGoalIds) CHECK(s.find("    " + std::string(id) + " ") != std::string::npos);
}

TEST_CASE("stats: the summary of one game is the game, not 14 intervals") {
  const auto sample = small_sample();
  const std::string s = accumulate({sample[0]}).summary();
  CHECK(s == "1 game: result 3; scores 3, 5, 9\n"
             "  end: no_meeple; tiles placed 40, discards 0\n"
             "  goals reached (2 of 14): road_10, total_40\n");
  CHECK(accumulate({sample[3]}).summary().find("goals reached (0 of 14): none\n") != std::string::npos);
  CHECK(accumulate({sample[1]}).summary().find("end: tiles_exhausted; tiles placed 71, discards 2\n") !=
        std::string::npos);
  CHECK(s.find('[') == std::string::npos);  // no interval
}
