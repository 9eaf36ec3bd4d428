// sim/analysis and `carcsolo analyse`: a player analysed by itself loses little; a planted
// blunder is found at its turn; the analysis does not depend on the thread count nor on
// the order of the tiles not yet drawn (it never reads the hidden stacks).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "rng/rng.hpp"
#include "sim/analysis/aggregate.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/analysis/search_analysis.hpp"
#include "tests/planted.hpp"
#include "tests/process.hpp"

namespace {

using carc::sim::AnalysisOptions;
using carc::sim::GameAnalysis;
using nlohmann::json;

constexpr std::uint64_t kAnalyseSeed = 4711;  // no policy was tuned on it

json heuristic_log(std::uint64_t game, const carc::sim::Stacks* stacks = nullptr) {
  auto p = carc::make_placement_policy("heuristic");
  auto s = carc::make_scoring_policy("best");
  return carc::sim::play_logged_game({{3, 4}, kAnalyseSeed, game, stacks}, *p, *s, "heuristic", "best");
}

AnalysisOptions small(int rollouts, int candidates, int threads = 1) {
  AnalysisOptions o;
  o.placement = carc::canonical_placement("heuristic");  // the rollout analysis (the default is search's)
  o.rollouts = rollouts;
  o.candidates = candidates;
  o.threads = threads;
  return o;
}

// The heuristic everywhere but at one decision, the first from turn `from` on where the
// colour to move has no meeple left, the heuristic finds a placement that leaves no free
// segment, and another placement would leave one (and so end the game at once: a forced
// meeple the colour lacks). There it plays the move that its own analysis of every legal
// move (32 rollouts, random numbers apart from those of the analysis under test) finds
// worst, when it costs at least 12 points by that analysis: a blunder of many points.
class PlantedMistake final : public carc::PlacementPolicy {
 public:
  explicit PlantedMistake(int from)
      : from_(from), heuristic_(carc::make_placement_policy("heuristic")),
        analyser_(carc::canonical_placement("heuristic"), carc::canonical_scoring("best")) {}
  carc::Move choose(const carc::Observation& obs, std::span<const carc::Placement> legal,
                    carc::Rng& rng) override {
    const carc::Move own = heuristic_->choose(obs, legal, rng);
    const carc::State& s = obs.state();
    if (at >= 0 || s.turn() < from_ || s.supply(s.to_move()) > 0 ||
        s.free_segments(obs.tile(), own.at) != 0)
      return own;
    if (std::none_of(legal.begin(), legal.end(), [&](const carc::Placement& p) {
          return s.free_segments(obs.tile(), p) != 0;
        }))
      return own;
    carc::sim::DecisionAnalysis a;
    analyser_.analyse(s, obs.tile(), legal, own, 99, 32, 0, a);
    int worst = 0;
    for (int i = 0; i < int(a.moves.size()); ++i)
      if (a.moves[std::size_t(i)].mean < a.moves[std::size_t(worst)].mean) worst = i;
    const double loss = a.moves[std::size_t(a.best)].mean - a.moves[std::size_t(worst)].mean;
    if (loss < 12) return own;  // not worth planting: wait for a costlier one
    at = s.turn();
    worst_loss = loss;
    return a.moves[std::size_t(worst)].move;
  }
  int at = -1;  // the turn of the blunder
  double worst_loss = 0;

 private:
  int from_;
  std::unique_ptr<carc::PlacementPolicy> heuristic_;
  carc::sim::DecisionAnalyser analyser_;
};

}  // namespace

TEST_CASE("analyse: the heuristic analysed by itself loses little, and often plays the best move") {
  double loss = 0, heldout = 0;
  int decisions = 0, best_played = 0, played_first = 0;
  for (std::uint64_t g = 0; g < 2; ++g) {
    const GameAnalysis a = carc::sim::analyse_game(heuristic_log(g), g, small(16, 6));
    heldout += a.heldout();
    REQUIRE(!a.decisions.empty());
    for (const auto& d : a.decisions) {
      REQUIRE(d.played >= 0);
      REQUIRE(d.played < int(d.moves.size()));
      CHECK(d.loss >= 0);  // the best is the best mean, so the paired mean is never negative
      CHECK(d.moves[std::size_t(d.best)].rank == 0);
      loss += d.loss;
      best_played += d.best == d.played;
      played_first += d.played == 0;  // the heuristic's own choice is its first candidate
      ++decisions;
    }
  }
  const double per = loss / decisions;
  MESSAGE("heuristic by itself: loss per decision ", per, " (held out ", heldout / decisions,
          "), best move played in ", best_played, " of ", decisions, " decisions, the heuristic's first in ",
          played_first);
  CHECK(played_first * 10 >= decisions * 8);  // ties aside, the heuristic plays its best-valued move
  // The in-sample loss is biased upwards (the best of 6 noisy means), the held-out one is not
  // (it may be negative: the move picked on half the rollouts can be worse than the one played).
  CHECK(per < 3.0);
  CHECK(heldout / decisions < 0.25);
  // A weaker player (random placements) analysed alike loses far more, held out too.
  auto p = carc::make_placement_policy("random");
  auto s = carc::make_scoring_policy("best");
  const GameAnalysis r = carc::sim::analyse_game(
      carc::sim::play_logged_game({{3, 4}, kAnalyseSeed, 0}, *p, *s, "random", "best"), 0, small(16, 6));
  const double random_heldout = r.heldout() / double(r.decisions.size());
  MESSAGE("random analysed by the heuristic: loss per decision ", r.loss() / double(r.decisions.size()),
          " (held out ", random_heldout, ")");
  CHECK(random_heldout > heldout / decisions + 1.0);  // measured: 0.97 against -0.75
  CHECK(r.loss() / double(r.decisions.size()) > per + 1.0);   // measured: 3.90 against 2.08
  CHECK(best_played * 4 > decisions);  // measured: about a third (16 rollouts, 6 moves)
}

TEST_CASE("analyse: a planted blunder is the game's largest mistake, at its turn") {
  int found = 0;
  for (std::uint64_t g = 0; g < 40 && found < 3; ++g) {
    PlantedMistake planted(6);
    auto scoring = carc::make_scoring_policy("best");
    const json log = carc::sim::play_logged_game({{3, 4}, kAnalyseSeed, g}, planted, *scoring, "planted", "best");
    if (planted.at < 0) continue;  // no such decision in this game
    ++found;
    const GameAnalysis a = carc::sim::analyse_game(log, g, small(48, 4));
    const auto worst = std::max_element(a.decisions.begin(), a.decisions.end(),
                                        [](const auto& x, const auto& y) { return x.loss < y.loss; });
    MESSAGE("game ", g, ": blunder at turn ", planted.at, " (", planted.worst_loss, " points when planted); largest loss ",
            worst->loss, " +- ", worst->loss_stderr, " at turn ", worst->turn, " of ", a.decisions.size(), "; total ", a.loss());
    CHECK(worst->turn == planted.at);
    CHECK(worst->loss > 3 * worst->loss_stderr);
  }
  CHECK(found == 3);
}

TEST_CASE("analyse: the same analysis on 1 and 2 threads") {
  const json log = heuristic_log(5);
  const AnalysisOptions one = small(4, 3, 1), two = small(4, 3, 2);
  const auto a = carc::sim::analysis_json({carc::sim::analyse_game(log, 0, one)}, one, "heuristic");
  const auto b = carc::sim::analysis_json({carc::sim::analyse_game(log, 0, two)}, two, "heuristic");
  CHECK(a.dump() == b.dump());
  // and a different seed gives different re-deals
  AnalysisOptions other = one;
  other.seed = 2;
  const auto c = carc::sim::analysis_json({carc::sim::analyse_game(log, 0, other)}, one, "heuristic");
  CHECK(a.dump() != c.dump());
}

TEST_CASE("analyse: the tiles not yet drawn may be in any order: the analysis up to there is the same") {
  const std::uint64_t g = 7;
  const json log = heuristic_log(g);
  const json& turns = log.at("turns");
  // Decision d: the (d+1)-th placement; every draw up to it is known, the rest is hidden.
  const int d = 15;
  std::vector<int> drawn(3, 0);
  int placed = 0;
  std::size_t upto = 0;
  for (; upto < turns.size(); ++upto) {
    ++drawn[std::size_t(turns[upto].at("color").get<int>())];
    if (!turns[upto].at("discarded").get<bool>() && placed++ == d) break;
  }
  REQUIRE(placed == d + 1);
  // The undrawn tiles of every stack pooled, shuffled and cut again into the same sizes.
  std::vector<std::string> stacks;
  std::string pool;
  for (int c = 0; c < 3; ++c) {
    std::string s;
    for (const auto& t : log.at("stacks")[std::size_t(c)]) s += t.get<std::string>();
    stacks.push_back(s);
    pool += s.substr(std::size_t(drawn[std::size_t(c)]));
  }
  carc::Rng rng(3);
  for (std::size_t i = pool.size(); i > 1; --i) std::swap(pool[i - 1], pool[carc::uniform_below(rng, std::uint32_t(i))]);
  std::size_t at = 0;
  for (int c = 0; c < 3; ++c) {
    const std::size_t keep = std::size_t(drawn[std::size_t(c)]);
    const std::size_t rest = stacks[std::size_t(c)].size() - keep;
    stacks[std::size_t(c)] = stacks[std::size_t(c)].substr(0, keep) + pool.substr(at, rest);
    at += rest;
  }
  const carc::sim::Stacks permuted = carc::sim::stacks_from_letters(stacks);
  const json other = heuristic_log(g, &permuted);
  REQUIRE(other.at("stacks") != log.at("stacks"));
  for (std::size_t i = 0; i <= upto; ++i) REQUIRE(other.at("turns")[i] == turns[i]);  // same play so far

  const AnalysisOptions opt = small(6, 4);
  const GameAnalysis a = carc::sim::analyse_game(log, 0, opt), b = carc::sim::analyse_game(other, 0, opt);
  const auto ja = carc::sim::analysis_json({a}, opt, "heuristic"), jb = carc::sim::analysis_json({b}, opt, "heuristic");
  const auto& da = ja.at("games")[0].at("analysis");
  const auto& db = jb.at("games")[0].at("analysis");
  for (int i = 0; i <= d; ++i) CHECK(da[std::size_t(i)].dump() == db[std::size_t(i)].dump());
  // ...and the games differ after it, so the test could fail
  CHECK(ja.at("games")[0].at("analysis").dump() != jb.at("games")[0].at("analysis").dump());
}

TEST_CASE("carcsolo analyse: --out, --game, --threads, and its summary") {
  using carc::test::run_carcsolo;
  carc::test::TempDir d;
  REQUIRE(run_carcsolo({"run", "--games", "3", "--seed", "5", "--placement", "greedy", "--scoring", "best",
                        "--threads", "1", "-q", "--log", "games.jsonl"}, d.path()).status == 0);
  const std::vector<std::string> base = {"analyse", "games.jsonl", "--analyser", "heuristic", "--rollouts", "3", "--candidates", "3"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return run_carcsolo(a, d.path());
  };
  const auto one = with({"--threads", "1", "--out", "one.json"});
  REQUIRE(one.status == 0);
  CHECK(one.err.empty());
  CHECK(one.out.find("expected loss:") != std::string::npos);
  CHECK(one.out.find("loss by stage") != std::string::npos);
  CHECK(one.out.find("largest mistakes:") != std::string::npos);
  REQUIRE(with({"--threads", "2", "--out", "two.json", "-q"}).status == 0);
  const std::string a = carc::test::read_text(d / "one.json"), b = carc::test::read_text(d / "two.json");
  CHECK(a == b);
  const json doc = json::parse(a);
  CHECK(doc.at("format") == "carcassonne-solo-analysis/1");
  REQUIRE(doc.at("games").size() == 3);
  // --game 1 is the second game of the file, analysed alike
  REQUIRE(with({"--game", "1", "--out", "g1.json", "-q"}).status == 0);
  const json g1 = json::parse(carc::test::read_text(d / "g1.json"));
  REQUIRE(g1.at("games").size() == 1);
  CHECK(g1.at("games")[0] == doc.at("games")[1]);
  CHECK(doc.at("config").at("scoring") == "log");
  CHECK(doc.at("games")[0].at("rollout_scoring") == carc::canonical_scoring("best"));  // the log's
  REQUIRE(with({"--game", "1", "--scoring", "as-found", "--out", "af.json", "-q"}).status == 0);
  const json af = json::parse(carc::test::read_text(d / "af.json"));
  CHECK(af.at("games")[0].at("rollout_scoring") == carc::canonical_scoring("as-found"));
  CHECK(af.at("games")[0].at("analysis") != g1.at("games")[0].at("analysis"));
  REQUIRE(with({"--games", "2", "--out", "g2.json", "-q"}).status == 0);
  CHECK(json::parse(carc::test::read_text(d / "g2.json")).at("games").size() == 2);
  // the games' total is the sum of the decisions' losses
  double sum = 0;
  for (const auto& g : doc.at("games"))
    for (const auto& x : g.at("analysis")) sum += x.at("loss").get<double>();
  CHECK(doc.at("total").at("loss").get<double>() == doctest::Approx(sum));
}

TEST_CASE("analyse: played games, their aggregate, the same on 1 and 2 threads") {
  carc::sim::RunConfig rc;
  rc.placement_policy = carc::canonical_placement("greedy");
  rc.scoring_policy = carc::canonical_scoring("best");
  rc.seed = 5;
  rc.first_game = 2;
  rc.games = 4;
  AnalysisOptions one = small(3, 3, 1), two = small(3, 3, 2);
  one.seed = two.seed = 5;
  std::vector<json> logs;
  const auto a = carc::sim::analyse_played_games(rc, one, &logs);
  const auto b = carc::sim::analyse_played_games(rc, two);
  REQUIRE(a.size() == 4);
  REQUIRE(logs.size() == 4);
  const auto ja = carc::sim::analysis_json(a, one, "x"), jb = carc::sim::analysis_json(b, one, "x");
  CHECK(ja.dump() == jb.dump());
  CHECK(carc::sim::aggregate_json(a, 5).dump() == carc::sim::aggregate_json(b, 5).dump());
  // Game i is game rc.first_game + i of the seed, as run plays it, analysed as a log would be.
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(a[i].index == 2 + i);
    auto p = carc::make_placement_policy(rc.placement_policy);
    auto s = carc::make_scoring_policy(rc.scoring_policy);
    const json log = carc::sim::play_logged_game({{3, 4}, 5, 2 + i}, *p, *s, rc.placement_policy, rc.scoring_policy);
    CHECK(log == logs[i]);
    const auto again = carc::sim::analysis_json({carc::sim::analyse_game(log, 2 + i, one)}, one, "x");
    CHECK(again.at("games")[0].dump() == ja.at("games")[i].dump());
  }
  // The aggregate's figures, computed here from the games' sums.
  const auto agg = carc::sim::aggregate_json(a, 3);
  std::vector<double> per_game;
  double loss = 0, decisions = 0;
  for (const auto& g : a) {
    per_game.push_back(g.loss());
    loss += g.loss();
    decisions += double(g.decisions.size());
  }
  double mean = loss / 4, sq = 0;
  for (double x : per_game) sq += (x - mean) * (x - mean);
  CHECK(agg.at("games") == 4);
  CHECK(agg.at("decisions") == int(decisions));
  CHECK(agg.at("loss_per_game").at("mean").get<double>() == doctest::Approx(mean));
  CHECK(agg.at("loss_per_game").at("stderr").get<double>() == doctest::Approx(std::sqrt(sq / 3 / 4)));
  CHECK(agg.at("loss_per_decision").at("mean").get<double>() == doctest::Approx(loss / decisions));
  double stage_decisions = 0, stage_loss = 0;
  for (const auto& [k, v] : agg.at("by_stage").items()) {
    stage_decisions += v.at("decisions").get<double>();
    stage_loss += v.at("loss_per_game").at("mean").get<double>();
  }
  CHECK(stage_decisions == decisions);
  CHECK(stage_loss == doctest::Approx(mean));
  double situations = 0;
  for (const auto& s : agg.at("situations")) situations += s.at("decisions").get<double>();
  CHECK(situations == decisions);
  REQUIRE(agg.at("largest").size() == 3);
  double top = 1e9;
  for (const auto& d : agg.at("largest")) {
    CHECK(d.at("loss").get<double>() <= top);
    top = d.at("loss").get<double>();
  }
  for (const auto& g : a)
    for (const auto& d : g.decisions) CHECK(d.loss <= agg.at("largest")[0].at("loss").get<double>());
  // one game: no standard error over games
  const auto single = carc::sim::aggregate_json({a[0]}, 1);
  CHECK(single.at("loss_per_game").at("stderr").is_null());
}

namespace {

// A decision of a made-up game analysis: only what the aggregate reads.
carc::sim::DecisionAnalysis made_up(double loss, double heldout, double own, carc::sim::Stage stage,
                                    carc::sim::DecisionKind kind) {
  carc::sim::DecisionAnalysis d;
  d.loss = loss;
  d.heldout = heldout;
  d.own_loss = own;
  d.stage = stage;
  d.kind = kind;
  d.moves.resize(1);
  return d;
}

// The delta method's standard error of the ratio sum(x) / sum(n) over games, computed the
// textbook way: the gradient (1 / mean n, -mean x / mean n^2) of x / n at the means, and
// the sample covariance matrix of (x_g, n_g) over G games divided by G.
double delta_method_se(const std::vector<double>& x, const std::vector<double>& n) {
  const double G = double(x.size());
  double mx = 0, mn = 0;
  for (std::size_t g = 0; g < x.size(); ++g) mx += x[g] / G, mn += n[g] / G;
  double sxx = 0, sxn = 0, snn = 0;
  for (std::size_t g = 0; g < x.size(); ++g) {
    sxx += (x[g] - mx) * (x[g] - mx) / (G - 1);
    sxn += (x[g] - mx) * (n[g] - mn) / (G - 1);
    snn += (n[g] - mn) * (n[g] - mn) / (G - 1);
  }
  const double a = 1 / mn, b = -mx / (mn * mn);
  return std::sqrt((a * a * sxx + 2 * a * b * sxn + b * b * snn) / G);
}

}  // namespace

TEST_CASE("analyse: the aggregate's standard errors per game and per decision, by hand") {
  using carc::sim::DecisionKind;
  using carc::sim::Stage;
  // Three games of 2, 1 and 3 decisions; losses 1 + 3, 5 and 0 + 0 + 3.
  std::vector<GameAnalysis> games(3);
  games[0].decisions = {made_up(1, 0, 1, Stage::opening, DecisionKind::road),
                        made_up(3, 2, -1, Stage::middle, DecisionKind::city)};
  games[1].decisions = {made_up(5, 5, 2, Stage::opening, DecisionKind::road)};
  games[2].decisions = {made_up(0, 1, 0, Stage::opening, DecisionKind::road),
                        made_up(0, 1, 1, Stage::middle, DecisionKind::city),
                        made_up(3, 1, 3, Stage::end, DecisionKind::none)};
  const auto agg = carc::sim::aggregate_json(games, 0);
  const auto at = [](const auto& group, const char* key, const char* what) {
    return group.at(key).at(what).template get<double>();
  };
  // Per game: sums 4, 5, 3; mean 4, sample variance 1, standard error sqrt(1 / 3).
  CHECK(at(agg, "loss_per_game", "mean") == doctest::Approx(4));
  CHECK(at(agg, "loss_per_game", "stderr") == doctest::Approx(std::sqrt(1.0 / 3)));
  // Per decision: 12 / 6 = 2. Residuals L_g - 2 n_g: 0, 3, -3; sum of squares 18;
  // sqrt(18 / (3 * 2)) / mean n (2) = sqrt(3) / 2.
  CHECK(at(agg, "loss_per_decision", "mean") == doctest::Approx(2));
  CHECK(at(agg, "loss_per_decision", "stderr") == doctest::Approx(std::sqrt(3.0) / 2));
  const double se = std::sqrt(3.0) / 2;
  CHECK(agg.at("loss_per_decision").at("ci95")[0].get<double>() == doctest::Approx(2 - 1.959964 * se));
  CHECK(agg.at("loss_per_decision").at("ci95")[1].get<double>() == doctest::Approx(2 + 1.959964 * se));
  // Held out (sums 2, 5, 3) and against the analysing player's own moves (0, 2, 4), and
  // every stage and kind: each per-decision error as the delta method gives it.
  const std::vector<double> n = {2, 1, 3};
  CHECK(at(agg, "heldout_per_decision", "mean") == doctest::Approx(10.0 / 6));
  CHECK(at(agg, "heldout_per_decision", "stderr") == doctest::Approx(delta_method_se({2, 5, 3}, n)));
  CHECK(at(agg, "own_loss_per_decision", "mean") == doctest::Approx(1));
  CHECK(at(agg, "own_loss_per_decision", "stderr") == doctest::Approx(delta_method_se({0, 2, 4}, n)));
  CHECK(delta_method_se({4, 5, 3}, n) == doctest::Approx(std::sqrt(3.0) / 2));  // the two routes agree
  const auto& opening = agg.at("by_stage").at("opening");  // losses 1, 5, 0: one decision a game
  CHECK(at(opening, "loss_per_decision", "stderr") == doctest::Approx(delta_method_se({1, 5, 0}, {1, 1, 1})));
  const auto& city = agg.at("by_kind").at("city");  // losses 3 and 0 in games 0 and 2, none in 1
  CHECK(city.at("decisions") == 2);
  CHECK(at(city, "loss_per_decision", "mean") == doctest::Approx(1.5));
  CHECK(at(city, "loss_per_decision", "stderr") == doctest::Approx(delta_method_se({3, 0, 0}, {1, 0, 1})));
  CHECK(at(city, "heldout_per_decision", "stderr") == doctest::Approx(delta_method_se({2, 0, 1}, {1, 0, 1})));
}

TEST_CASE("carcsolo analyse --placement: plays the games, --log writes them, and their file analyses alike") {
  using carc::test::run_carcsolo;
  carc::test::TempDir d;
  const std::vector<std::string> base = {"analyse", "--analyser", "heuristic", "--placement", "greedy", "--scoring", "best", "--games", "3",
                                         "--seed", "5", "--rollouts", "2", "--candidates", "3"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return run_carcsolo(a, d.path());
  };
  const auto one = with({"--threads", "1", "--out", "one.json", "--log", "games.jsonl"});
  REQUIRE(one.status == 0);
  CHECK(one.out.find("over 3 games") != std::string::npos);
  CHECK(one.out.find("costliest situations") != std::string::npos);
  REQUIRE(with({"--threads", "2", "--out", "two.json", "-q"}).status == 0);
  const std::string a = carc::test::read_text(d / "one.json");
  CHECK(a == carc::test::read_text(d / "two.json"));
  const json doc = json::parse(a);
  CHECK(doc.at("config").at("games_played").at("games") == 3);
  CHECK(doc.at("aggregate").at("games") == 3);
  // The logged games, analysed from the file with the same seed: the same decisions.
  REQUIRE(run_carcsolo({"analyse", "games.jsonl", "--analyser", "heuristic", "--seed", "5", "--rollouts", "2", "--candidates", "3", "-q",
                        "--out", "file.json"}, d.path()).status == 0);
  const json file = json::parse(carc::test::read_text(d / "file.json"));
  REQUIRE(file.at("games").size() == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(file.at("games")[i].at("analysis") == doc.at("games")[i].at("analysis"));
  CHECK(file.at("aggregate") == doc.at("aggregate"));
  // Mistakes: one line, exit status 2.
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"analyse"},
           {"analyse", "--games", "2"},
           {"analyse", "--placement", "greedy", "--game", "1"},
           {"analyse", "games.jsonl", "--colors", "4"},
           {"analyse", "games.jsonl", "--placement", "greedy", "--analyser", "heuristic"},
           {"analyse", "--placement", "nosuch"},
           {"analyse", "--placement", "greedy", "--out", "x.json", "--log", "x.json"}}) {
    const auto r = run_carcsolo(bad, d.path());
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("carcsolo replay --analysis: the page carries the analysis' best moves, a wrong analysis is refused") {
  using carc::test::run_carcsolo;
  carc::test::TempDir d;
  REQUIRE(run_carcsolo({"analyse", "--analyser", "heuristic", "--placement", "greedy", "--scoring", "best", "--games", "2", "--seed", "5",
                        "--rollouts", "2", "--candidates", "4", "-q", "--out", "a.json", "--log", "g.jsonl"},
                       d.path()).status == 0);
  const auto r = run_carcsolo({"replay", "--from", "g.jsonl", "--game", "1", "--analysis", "a.json", "--ghosts", "2",
                               "--html", "p.html", "-q"}, d.path());
  REQUIRE(r.status == 0);
  const std::string page = carc::test::read_text(d / "p.html");
  CHECK(page.find("id=\"loss-svg\"") != std::string::npos);
  const auto at = page.find("id=\"analysis-view\">");
  REQUIRE(at != std::string::npos);
  const auto from = page.find('>', at) + 1;
  const json view = json::parse(page.substr(from, page.find("</script>", from) - from));
  const json doc = json::parse(carc::test::read_text(d / "a.json"));
  const json& game = doc.at("games")[1];
  const json log = json::parse(carc::test::read_text(d / "g.jsonl").substr(carc::test::read_text(d / "g.jsonl").find('\n') + 1));
  int shown = 0;
  for (const auto& dec : game.at("analysis")) {
    std::size_t step = 0;
    while (log.at("turns")[step].at("turn") != dec.at("turn")) ++step;
    const json& e = view.at("steps")[step + 1];
    REQUIRE(e.is_object());
    CHECK(e.at("loss") == dec.at("loss"));
    REQUIRE(e.at("best").size() == std::min<std::size_t>(2, dec.at("moves").size()));
    for (std::size_t r = 0; r < e.at("best").size(); ++r) {
      CHECK(e.at("best")[r].at("rank") == int(r));
      bool found = false;
      for (const auto& m : dec.at("moves"))
        found |= m.at("rank") == int(r) && m.at("x") == e.at("best")[r].at("x") && m.at("y") == e.at("best")[r].at("y") &&
                 m.at("rot") == e.at("best")[r].at("rot");
      CHECK(found);
    }
    ++shown;
  }
  CHECK(shown == int(game.at("analysis").size()));
  // The analysis of game 0 is no analysis of game 1's log...
  json other = doc;
  other.at("games")[1] = doc.at("games")[0];
  other.at("games")[1]["game"] = 1;
  carc::test::write_text(d / "other.json", other.dump());
  const auto wrong = run_carcsolo({"replay", "--from", "g.jsonl", "--game", "1", "--analysis", "other.json", "--html",
                                   "w.html", "-q"}, d.path());
  CHECK(wrong.status == 2);
  CHECK(wrong.err.find("--analysis") != std::string::npos);
  CHECK(!std::filesystem::exists(d / "w.html"));
  // ...nor without --html, nor a file of another kind
  CHECK(run_carcsolo({"replay", "--from", "g.jsonl", "--analysis", "a.json", "-q"}, d.path()).status == 2);
  CHECK(run_carcsolo({"replay", "--from", "g.jsonl", "--analysis", "g.jsonl", "--html", "x.html", "-q"}, d.path()).status == 2);
  // --analyse analyses the game itself
  REQUIRE(run_carcsolo({"replay", "--from", "g.jsonl", "--analyse", "--html", "s.html", "-q"}, d.path()).status == 0);
  CHECK(carc::test::read_text(d / "s.html").find("id=\"analysis-view\"") != std::string::npos);
}

TEST_CASE("analyse: the loss against the analysing player's own move") {
  auto p = carc::make_placement_policy("greedy");
  auto s = carc::make_scoring_policy("best");
  const json log = carc::sim::play_logged_game({{3, 4}, kAnalyseSeed, 1}, *p, *s, "greedy", "best");
  const GameAnalysis a = carc::sim::analyse_game(log, 1, small(6, 4));
  int same = 0, other = 0;
  for (const auto& d : a.decisions) {
    REQUIRE(d.own >= 0);
    REQUIRE(d.own < int(d.moves.size()));
    // paired over the same rollouts: the difference of the two means
    CHECK(d.own_loss == doctest::Approx(d.moves[std::size_t(d.own)].mean - d.moves[std::size_t(d.played)].mean));
    if (d.own == d.played) {
      CHECK(d.own_loss == 0);
      CHECK(d.own_loss_stderr == 0);
      ++same;
    } else {
      ++other;
    }
    CHECK(d.own_loss <= d.loss + 1e-9);  // never more than against the best mean
  }
  CHECK(other > 0);  // greedy and the heuristic disagree somewhere...
  CHECK(same > 0);   // ...and agree somewhere
  // The heuristic analysing its own game: its own move is the one played.
  const GameAnalysis h = carc::sim::analyse_game(heuristic_log(1), 1, small(2, 4));
  int own_played = 0;
  for (const auto& d : h.decisions) own_played += d.own == d.played;
  CHECK(own_played * 10 >= int(h.decisions.size()) * 9);
}

TEST_CASE("analyse: the planted-mistake bar's procedure finds planted mistakes (scripts/planted_mistakes)") {
  // tests/planted.hpp at a small size (the bar, docs/analyse.md, plants with 1,000 rollouts
  // on 20 games): games of `search` (seed 2026) with one decision swapped for a move that
  // costs at least 5 points by 200 heuristic rollouts per legal move, analysed by the default
  // valuation (search's own, with 72 rollouts). Games 0, 3 and 5: planted moves of 7.4, 6.4
  // and 8.4 points; 5.2, 3.3 and 3.3 by search's valuation, the largest of each game.
  carc::test::PlantedOptions o;
  o.player = "search";
  o.seed = 2026;
  o.plant_player = "heuristic";
  o.plant_rollouts = 200;
  o.min_cost = 5;
  o.analysis.seed = o.seed;
  o.analysis.scoring = carc::canonical_scoring("best");
  REQUIRE(carc::sim::is_search_spec(o.analysis.placement));  // the default analysis
  for (std::uint64_t g : {0, 3, 5}) {
    const auto p = carc::test::planted_game(o, g);
    MESSAGE("game ", g, ": planted at turn ", p.turn, " (", p.cost, " points when planted); there ", p.planted_loss,
            " +- ", p.planted_stderr, "; largest ", p.largest_loss, " at turn ", p.largest_turn);
    REQUIRE(p.decision >= 0);
    CHECK(p.cost >= 5);
    CHECK(p.found());
    // the log is a game: the analysis replayed it (planted_game throws otherwise)
    CHECK(p.log.at("config").at("placement_policy") == "planted:search");
  }
}

namespace {

int line_count(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("carcsolo analyse LOG: --game is the log's game number, --position the place in the file") {
  using carc::test::run_carcsolo;
  carc::test::TempDir d;
  // games 5, 6, 7 of seed 5: positions 0, 1, 2
  REQUIRE(run_carcsolo({"run", "--games", "3", "--first-game", "5", "--seed", "5", "--placement", "greedy", "--scoring",
                        "best", "-q", "--log", "g.jsonl"}, d.path()).status == 0);
  const std::vector<std::string> base = {"analyse", "g.jsonl", "--analyser", "heuristic", "--rollouts", "2", "--candidates", "2", "-q"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return run_carcsolo(a, d.path());
  };
  REQUIRE(with({"--game", "6", "--out", "g6.json"}).status == 0);
  REQUIRE(with({"--position", "1", "--out", "p1.json"}).status == 0);
  const json g6 = json::parse(carc::test::read_text(d / "g6.json")), p1 = json::parse(carc::test::read_text(d / "p1.json"));
  REQUIRE(g6.at("games").size() == 1);
  CHECK(g6.at("games")[0].at("game") == 6);
  CHECK(g6.at("games")[0].at("index") == 1);
  CHECK(g6.at("games") == p1.at("games"));
  // the config records the games' colours and meeples
  CHECK(g6.at("config").at("colors") == 3);
  CHECK(g6.at("config").at("meeples") == 4);
  // no game 1 in the file (position 1 is game 6); --position 3 and --games 5 beyond it
  for (const auto& [bad, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--game", "1"}, "holds no game 1"},
           {{"--position", "3"}, "holds 3 games"},
           {{"--games", "5"}, "holds 3 games"},
           {{"--games", "2", "--position", "1"}, "give one of --games, --game and --position (got --games and --position)"}}) {
    const auto r = with(bad);
    CAPTURE(r.err);
    CHECK(r.status == 2);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find(says) != std::string::npos);
  }
  // two seeds with a game 6: ambiguous, named
  REQUIRE(run_carcsolo({"run", "--games", "1", "--first-game", "6", "--seed", "9", "--placement", "greedy",
                        "--scoring", "best", "-q", "--log", "h.jsonl"}, d.path()).status == 0);
  carc::test::write_text(d / "two.jsonl", carc::test::read_text(d / "g.jsonl") + carc::test::read_text(d / "h.jsonl"));
  const auto two = run_carcsolo({"analyse", "two.jsonl", "--analyser", "heuristic", "--game", "6", "--rollouts", "2", "-q"}, d.path());
  CHECK(two.status == 2);
  CHECK(line_count(two.err) == 1);
  CHECK(two.err.find("positions 1 and 3") != std::string::npos);
  CHECK(run_carcsolo({"analyse", "two.jsonl", "--analyser", "heuristic", "--position", "3", "--rollouts", "2", "--candidates", "2", "-q"},
                     d.path()).status == 0);
}

TEST_CASE("carcsolo analyse LOG: games of other colours or meeples are not aggregated together") {
  using carc::test::run_carcsolo;
  carc::test::TempDir d;
  REQUIRE(run_carcsolo({"run", "--games", "2", "--seed", "5", "--placement", "greedy", "--scoring", "best", "-q",
                        "--log", "c3.jsonl"}, d.path()).status == 0);
  REQUIRE(run_carcsolo({"run", "--games", "2", "--seed", "5", "--colors", "4", "--placement", "greedy", "--scoring",
                        "best", "-q", "--log", "c4.jsonl"}, d.path()).status == 0);
  carc::test::write_text(d / "mixed.jsonl", carc::test::read_text(d / "c3.jsonl") + carc::test::read_text(d / "c4.jsonl"));
  const auto r = run_carcsolo({"analyse", "mixed.jsonl", "--analyser", "heuristic", "--rollouts", "2", "--candidates", "2", "-q", "--out", "m.json"},
                              d.path());
  CHECK(r.status == 2);
  CHECK(line_count(r.err) == 1);
  CHECK(r.err.find("mixes configurations") != std::string::npos);
  CHECK(r.err.find("4 colours") != std::string::npos);
  CHECK(!std::filesystem::exists(d / "m.json"));
  // one configuration at a time is fine
  CHECK(run_carcsolo({"analyse", "mixed.jsonl", "--analyser", "heuristic", "--games", "2", "--rollouts", "2", "--candidates", "2", "-q"},
                     d.path()).status == 0);
  CHECK(run_carcsolo({"analyse", "mixed.jsonl", "--analyser", "heuristic", "--position", "3", "--rollouts", "2", "--candidates", "2", "-q"},
                     d.path()).status == 0);
}

TEST_CASE("carcsolo replay --analysis: the entry of the log's configuration, a truncated file says so") {
  using carc::test::run_carcsolo;
  carc::test::TempDir d;
  const std::vector<std::string> common = {"--games", "2", "--seed", "5", "--analyser", "heuristic", "--rollouts", "2",
                                           "--candidates", "4", "--scoring", "best", "--placement", "greedy", "-q"};
  auto analyse = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = {"analyse"};
    a.insert(a.end(), common.begin(), common.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return run_carcsolo(a, d.path());
  };
  REQUIRE(analyse({"--out", "a3.json", "--log", "g3.jsonl"}).status == 0);
  REQUIRE(analyse({"--colors", "4", "--out", "a4.json"}).status == 0);
  // One document holding game 1 of seed 5 in 3 and in 4 colours, the 4-colour one last.
  json both = json::parse(carc::test::read_text(d / "a3.json"));
  both.at("games").push_back(json::parse(carc::test::read_text(d / "a4.json")).at("games")[1]);
  carc::test::write_text(d / "both.json", both.dump());
  const auto r = run_carcsolo({"replay", "--from", "g3.jsonl", "--game", "1", "--analysis", "both.json", "--html",
                               "p.html", "-q"}, d.path());
  CAPTURE(r.err);
  CHECK(r.status == 0);
  // the 4-colour analysis alone is no analysis of this game, and the message says which was sought
  const auto wrong = run_carcsolo({"replay", "--from", "g3.jsonl", "--game", "1", "--analysis", "a4.json", "--html",
                                   "w.html", "-q"}, d.path());
  CHECK(wrong.status == 2);
  CHECK(wrong.err.find("3 colours x 4 meeples") != std::string::npos);
  // a document cut short
  const std::string text = carc::test::read_text(d / "a3.json");
  carc::test::write_text(d / "cut.json", text.substr(0, text.size() / 2));
  const auto cut = run_carcsolo({"replay", "--from", "g3.jsonl", "--game", "1", "--analysis", "cut.json", "--html",
                                 "c.html", "-q"}, d.path());
  CHECK(cut.status == 2);
  CHECK(line_count(cut.err) == 1);
  CHECK(cut.err.find("the JSON ends early") != std::string::npos);
  CHECK(!std::filesystem::exists(d / "c.html"));
}

TEST_CASE("replay page: best moves on one cell share it, none hidden") {
  using carc::test::run_carcsolo;
  carc::test::TempDir d;
  REQUIRE(run_carcsolo({"analyse", "--analyser", "heuristic", "--placement", "greedy", "--scoring", "best", "--games", "1", "--seed", "5",
                        "--rollouts", "2", "--candidates", "0", "-q", "--out", "a.json", "--log", "g.jsonl"},
                       d.path()).status == 0);
  REQUIRE(run_carcsolo({"replay", "--from", "g.jsonl", "--analysis", "a.json", "--ghosts", "20", "--html", "p.html",
                        "-q"}, d.path()).status == 0);
  const std::string page = carc::test::read_text(d / "p.html");
  const auto at = page.find("id=\"analysis-view\">");
  REQUIRE(at != std::string::npos);
  const auto from = page.find('>', at) + 1;
  const json view = json::parse(page.substr(from, page.find("</script>", from) - from));
  int shared_cells = 0;
  for (const auto& e : view.at("steps")) {
    if (!e.is_object()) continue;
    std::map<std::pair<int, int>, std::vector<json>> cells;
    for (const auto& m : e.at("best")) cells[{m.at("x").get<int>(), m.at("y").get<int>()}].push_back(m);
    for (const auto& [cell, ms] : cells) {
      std::set<int> slots;
      for (const auto& m : ms) {
        CHECK(m.at("share") == int(ms.size()));
        slots.insert(m.at("slot").get<int>());
      }
      // each its own part of the cell: 0..share-1, the best first
      CHECK(slots.size() == ms.size());
      CHECK(*slots.rbegin() == int(ms.size()) - 1);
      shared_cells += ms.size() > 1;
    }
  }
  CHECK(shared_cells > 0);  // the game has such cells, so the test can fail
  CHECK(page.find("scale(") != std::string::npos);
}
