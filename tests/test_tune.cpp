// Tests of `carcsolo tune`: the SPSA core on synthetic noisy functions (no games), the
// search space built from a spec and --param options, and the command end to end (it
// improves a bad heuristic setting, its trajectory file, thread independence, Ctrl-C).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "rng/rng.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/spsa.hpp"
#include "sim/study/tune.hpp"
#include "tests/process.hpp"

namespace {

using carc::sim::Spsa;
using carc::sim::SpsaParam;
using carc::sim::SpsaSettings;
using carc::test::TempDir;
using nlohmann::json;

// A noisy concave function with its maximum at `best`: -sum w_i (x_i - best_i)^2 plus noise
// uniform in [-noise, noise) from `rng`.
double noisy(const std::vector<double>& x, const std::vector<double>& best,
             const std::vector<double>& w, double noise, carc::Rng& rng) {
  double f = 0;
  for (std::size_t i = 0; i < x.size(); ++i) f -= w[i] * (x[i] - best[i]) * (x[i] - best[i]);
  return f + noise * (2.0 * double(rng() >> 11) * 0x1.0p-53 - 1.0);
}

// Runs SPSA over `pairs` evaluation pairs in batches of `batch`.
Spsa optimise(std::vector<SpsaParam> params, SpsaSettings s, std::uint64_t seed,
              const std::vector<double>& best, const std::vector<double>& w, double noise,
              std::uint64_t batch) {
  Spsa spsa(std::move(params), s, seed);
  carc::Rng rng(seed ^ 0x5eed);
  while (spsa.pairs_done() < s.pairs) {
    const auto p = spsa.probe();
    const std::uint64_t n = std::min(batch, s.pairs - spsa.pairs_done());
    double sum = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      sum += noisy(p.plus, best, w, noise, rng) - noisy(p.minus, best, w, noise, rng);
    spsa.update(p, sum, n);
  }
  return spsa;
}

}  // namespace

TEST_CASE("spsa finds the maximum of a noisy quadratic in two scaled parameters") {
  SpsaSettings s;
  s.pairs = 40000;
  s.r_end = 0.002;
  const std::vector<SpsaParam> params = {{"x", 0, 10, 0.5, false}, {"y", -20, 20, 15, false}};
  const std::vector<double> best = {3, -6}, w = {0.5, 0.02};
  for (const std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const Spsa spsa = optimise(params, s, seed, best, w, 10.0, 20);
    const auto x = spsa.theta();
    CHECK(std::abs(x[0] - best[0]) < 0.3);
    CHECK(std::abs(x[1] - best[1]) < 1.5);
    CHECK(spsa.pairs_done() == s.pairs);
    CHECK(spsa.batches_done() == s.pairs / 20);
  }
}

TEST_CASE("spsa is a function of its seed and settings") {
  SpsaSettings s;
  s.pairs = 2000;
  const std::vector<SpsaParam> params = {{"x", 0, 10, 5, false}, {"y", 0, 1, 0.5, false}};
  const auto a = optimise(params, s, 7, {2, 0.1}, {1, 1}, 1.0, 10).theta();
  const auto b = optimise(params, s, 7, {2, 0.1}, {1, 1}, 1.0, 10).theta();
  const auto c = optimise(params, s, 8, {2, 0.1}, {1, 1}, 1.0, 10).theta();
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("spsa perturbs every parameter by +-c_k, clips to the bounds and rounds whole ones") {
  SpsaSettings s;
  s.pairs = 1000;
  Spsa spsa({{"w", 0, 10, 4, true}, {"r", 0, 1, 1, false}}, s, 3);
  std::set<int> signs;
  for (int step = 0; step < 50; ++step) {
    const auto p = spsa.probe();
    REQUIRE(p.plus.size() == 2);
    // the whole one: integers, at least one unit apart, on the side of its sign
    CHECK(p.plus[0] == std::round(p.plus[0]));
    CHECK(p.minus[0] == std::round(p.minus[0]));
    CHECK((p.plus[0] - p.minus[0]) * p.delta[0] >= 1);
    // the real one starts at its upper bound: one side is clipped there
    CHECK(std::max(p.plus[1], p.minus[1]) == 1.0);
    CHECK(std::min(p.plus[1], p.minus[1]) < 1.0);
    signs.insert(p.delta[0]);
    // f rises with r: the estimate stays at the bound, never above it
    spsa.update(p, 5.0 * (p.plus[1] - p.minus[1]), 10);
    CHECK(spsa.theta()[1] <= 1.0);
    CHECK(spsa.point()[0] == std::round(spsa.point()[0]));
  }
  CHECK(signs == std::set<int>{-1, 1});
  CHECK(spsa.theta()[1] == 1.0);
}

TEST_CASE("spsa refuses empty or inconsistent parameters") {
  SpsaSettings s;
  CHECK_THROWS_AS(Spsa({}, s, 1), std::invalid_argument);
  CHECK_THROWS_AS(Spsa({{"x", 1, 1, 1, false}}, s, 1), std::invalid_argument);
  CHECK_THROWS_AS(Spsa({{"x", 0, 1, 2, false}}, s, 1), std::invalid_argument);
  s.c_end = 0;
  CHECK_THROWS_AS(Spsa({{"x", 0, 1, 0, false}}, s, 1), std::invalid_argument);
}

TEST_CASE("a tune space takes the start from the spec and checks every --param") {
  using carc::sim::TuneSpace;
  using carc::sim::UsageError;
  const TuneSpace t("heuristic:absorb=2,meeple=0.5", {"absorb=0..20", "meeple=0..4"});
  REQUIRE(t.params.size() == 2);
  CHECK(t.policy == "heuristic");
  CHECK(t.params[0].start == 2);
  CHECK(t.params[1].start == 0.5);
  CHECK(t.params[1].hi == 4);
  CHECK_FALSE(t.params[0].whole);
  CHECK(t.start_spec() == carc::canonical_placement("heuristic:absorb=2,meeple=0.5"));
  CHECK(t.spec({7.25, 1}) == carc::canonical_placement("heuristic:absorb=7.25,meeple=1"));

  const TuneSpace w("search:turns=3", {"turns=1..8", "beam=2..12"});
  CHECK(w.params[0].whole);
  CHECK(w.params[1].whole);
  CHECK(w.params[1].start == 10);

  // Not a structured binding: clang does not let CAPTURE's lambda name one.
  for (const auto& row : std::vector<std::tuple<std::string, std::vector<std::string>, std::string>>{
           {"heuristic", {}, "--param"},
           {"heuristic", {"nosuch=0..1"}, "no parameter 'nosuch'"},
           {"heuristic", {"absorb=5..1"}, "LO < HI"},
           {"heuristic", {"absorb=0..5"}, "outside the range"},
           {"heuristic", {"absorb"}, "KEY=LO..HI"},
           {"heuristic", {"absorb=x..20"}, "not a number"},
           {"heuristic", {"absorb=0..20", "absorb=1..20"}, "tuned twice"},
           {"search", {"turns=1.5..8"}, "whole"},
           {"search", {"candidates=0..300"}, "candidates"},
           {"random", {"x=0..1"}, "parameters: none"},
           {"nosuch", {"x=0..1"}, "--placement"}}) {
    const std::string& spec = std::get<0>(row);
    const std::vector<std::string>& opts = std::get<1>(row);
    const std::string& names = std::get<2>(row);
    CAPTURE(spec);
    try {
      TuneSpace bad(spec, opts);
      FAIL("accepted");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()).find(names) != std::string::npos);
    }
  }
}

TEST_CASE("a tune space moves parameters that a canonical spec leaves out at their default") {
  using carc::sim::TuneSpace;
  // value's expect and replies, search's leaf, vfilter and vreplies: canonical specs leave
  // them out at their defaults, yet each point must play its own value of them.
  const TuneSpace e("value", {"expect=0..1"});
  REQUIRE(e.params.size() == 1);
  CHECK(e.params[0].start == 0);
  CHECK(e.params[0].whole);
  CHECK(e.spec({0}) == carc::canonical_placement("value"));
  CHECK(e.spec({1}) == carc::canonical_placement("value:expect=1"));
  CHECK(e.spec({1}) != e.spec({0}));

  const TuneSpace r("value:expect=1", {"replies=1..3"});  // replies' default is 2
  CHECK(r.params[0].start == 2);
  CHECK(r.start_spec() == carc::canonical_placement("value:expect=1"));
  CHECK(r.spec({3}) == carc::canonical_placement("value:expect=1,replies=3"));

  const TuneSpace s("search", {"leaf=0..1", "vfilter=0..1", "vreplies=1..4"});
  CHECK(s.params[2].start == 1);
  CHECK(s.start_spec() == carc::canonical_placement("search"));
  CHECK(s.spec({1, 1, 3}) == carc::canonical_placement("search:leaf=1,vfilter=1,vreplies=3"));
}

TEST_CASE("docs/tune.md lists exactly the whole-number parameters of every placement policy") {
  const std::string doc =
      carc::test::read_text(std::filesystem::path(CARCSOLO_SOURCE_DIR) / "docs" / "tune.md");
  // The parenthesis after "`ParamInfo::whole`:" holds the list.
  const auto from = doc.find("`ParamInfo::whole`:");
  REQUIRE(from != std::string::npos);
  const std::string para = doc.substr(from + 19, doc.find(')', from) - from - 19);
  // "`search`'s `candidates`, `beam`; `mc`'s `rollouts`": each policy's keys up to the next ';'.
  std::set<std::string> listed;
  std::string policy;
  for (std::size_t at = para.find('`'); at != std::string::npos; at = para.find('`', at)) {
    const auto end = para.find('`', at + 1);
    REQUIRE(end != std::string::npos);
    const std::string word = para.substr(at + 1, end - at - 1);
    const bool owner = para.compare(end + 1, 2, "'s") == 0;
    if (owner)
      policy = word;
    else
      listed.insert(policy + "." + word);
    at = end + 1;
    const auto semi = para.find(';', at), next = para.find('`', at);
    if (semi != std::string::npos && semi < next) policy.clear();
  }
  std::set<std::string> whole;
  for (const auto& p : carc::placement_policies())
    for (const auto& i : p.params)
      if (i.whole) whole.insert(p.name + "." + i.key);
  CHECK(listed == whole);
}

TEST_CASE("the whole-number flag of every placement parameter matches what its factory takes") {
  for (const auto& policy : carc::placement_policies())
    for (const auto& p : policy.params) {
      CAPTURE(policy.name);
      CAPTURE(p.key);
      const std::string spec = policy.name + ":" + p.key + "=" + std::to_string(p.default_value + 0.5);
      bool rejected = false;
      try {
        carc::canonical_placement(spec);
      } catch (const std::invalid_argument& e) {
        rejected = std::string(e.what()).find("whole number") != std::string::npos;
      }
      CHECK(rejected == p.whole);
    }
}

namespace {

json without_provenance(json doc) {
  doc.erase("performance");
  doc.erase("program");
  return doc;
}

const std::vector<std::string> kSmall = {
    "tune", "--placement", "heuristic:absorb=1", "--param", "absorb=0..20", "--param", "meeple=0..4",
    "--budget", "6000", "--batch", "50", "--checks", "2", "--check-games", "200", "--verify-games", "300",
    "--seed", "4", "-q", "--out", "t.json"};

}  // namespace

TEST_CASE("tune writes its trajectory file, the same at 1 and 2 threads") {
  TempDir d;
  std::vector<json> docs;
  for (const char* threads : {"1", "2"}) {
    auto args = kSmall;
    args.insert(args.end(), {"--threads", threads});
    const auto r = carc::test::run_carcsolo(args, d.path());
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.empty());
    CHECK(d.listing() == std::set<std::string>{"t.json"});
    docs.push_back(json::parse(carc::test::read_text(d / "t.json")));
  }
  CHECK(without_provenance(docs[0]) == without_provenance(docs[1]));
  const json& doc = docs[0];
  CHECK(doc["format"] == carc::sim::kTuneFormat);
  CHECK(doc["status"] == "done");
  // (6000 - 2 checks x 2 x 200) / 2 = 2600 pairs, in 52 steps of 50
  CHECK(doc["spsa"]["pairs"] == 2600);
  CHECK(doc["steps"].size() == 52);
  CHECK(doc["games"] == 6000);
  CHECK(doc["steps"].back()["games"] == 5600);  // then the last check's 2 x 200
  CHECK(doc["trajectory"].back()["games"] == 6000);
  CHECK(doc["steps"][0]["games"] == 100);
  CHECK(doc["config"]["check_first_game"] == 2600);
  CHECK(doc["config"]["verify_seed"] == 5);
  REQUIRE(doc["trajectory"].size() == 3);
  CHECK(doc["trajectory"][0]["gain"].is_null());
  CHECK(doc["trajectory"][1]["step"] == 26);
  CHECK(doc["trajectory"][1]["games"] == 2600 + 400);
  CHECK(doc["trajectory"][2]["step"] == 52);
  CHECK(doc["trajectory"][2]["gain"]["games"] == 200);
  CHECK(doc["trajectory"][2]["params"] == doc["final"]["params"]);
  for (const auto& s : doc["steps"]) {
    CHECK(s["plus"]["absorb"].get<double>() >= 0);
    CHECK(s["minus"]["meeple"].get<double>() <= 4);
  }
  CHECK(doc["verify"]["games"] == 300);
  CHECK(doc["verify"]["difference"]["games"] == 300);
  CHECK(doc["verify"]["final"]["placement"] == doc["final"]["placement"]);
  CHECK(doc["verify"]["start"]["placement"] == carc::canonical_placement("heuristic:absorb=1"));
}

TEST_CASE("tune's checks and verification play the games its file names, as compare plays them") {
  // Each check is start against the point of its step over [check_first_game, + check_games)
  // of the seed, none of them a tuning game; the verification is start against final over
  // [0, verify_games) of the verify seed. compare over those ranges must give the same
  // paired sums.
  TempDir d;
  const std::vector<std::string> game = {"--colors", "3", "--meeples", "4", "--scoring", "best"};
  auto args = std::vector<std::string>{
      "tune", "--placement", "heuristic:absorb=1", "--param", "absorb=0..20", "--budget", "1400",
      "--batch", "50", "--checks", "2", "--check-games", "100", "--verify-games", "100", "--seed", "4",
      "--threads", "2", "-q", "--out", "t.json"};
  args.insert(args.end(), game.begin(), game.end());
  const auto r = carc::test::run_carcsolo(args, d.path());
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json doc = json::parse(carc::test::read_text(d / "t.json"));
  // (1400 - 2 checks x 2 x 100) / 2 = 500 pairs: games [0, 500) tune, [500, 600) check.
  CHECK(doc["spsa"]["pairs"] == 500);
  CHECK(doc["config"]["check_first_game"] == 500);
  CHECK(doc["config"]["check_games"] == 100);
  const std::string start = doc["config"]["placement_start"].get<std::string>();

  // compare's paired difference (second - first) over a range, as tune's gain_json keeps it.
  const auto compared = [&](const std::string& second, const json& seed, const json& first, const json& games) {
    auto c = std::vector<std::string>{"compare", "--placement", start, "--placement", second,
                                      "--seed", seed.dump(), "--first-game", first.dump(),
                                      "--games", games.dump(), "--threads", "2", "-q", "--out", "c.json"};
    c.insert(c.end(), game.begin(), game.end());
    const auto cr = carc::test::run_carcsolo(c, d.path());
    INFO(cr.err);
    REQUIRE(cr.status == 0);
    json diff = json::parse(carc::test::read_text(d / "c.json"))["differences"][0];
    for (const char* k : {"goals", "first", "second"}) diff.erase(k);  // which runs: compare's own
    return diff;
  };
  REQUIRE(doc["trajectory"].size() == 3);
  int moved = 0;
  for (std::size_t i = 1; i < 3; ++i) {
    CAPTURE(i);
    const json& point = doc["trajectory"][i];
    const json gain = point["gain"];
    CHECK(gain["games"] == 100);
    CHECK(compared(point["placement"].get<std::string>(), doc["config"]["seed"], doc["config"]["check_first_game"],
                   doc["config"]["check_games"]) == gain);
    moved += gain["sum_of_squares"].get<double>() > 0;
  }
  // Unless the point differs from the start in some check game, any range would agree.
  REQUIRE(moved > 0);
  const json& v = doc["verify"];
  CHECK(compared(v["final"]["placement"].get<std::string>(), v["seed"], v["first_game"], v["games"]) ==
        [&] {
          json diff = v["difference"];
          diff.erase("goals");
          return diff;
        }());
}

TEST_CASE("tune improves a deliberately bad heuristic setting, verified on an unused seed") {
  TempDir d;
  const auto r = carc::test::run_carcsolo(
      {"tune", "--placement", "heuristic:absorb=1", "--param", "absorb=0..20", "--budget", "20000",
       "--checks", "1", "--check-games", "500", "--verify-games", "3000",
       "--seed", "21", "--threads", "2", "--out", "t.json"},
      d.path());
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("verified on seed 22") != std::string::npos);
  const json doc = json::parse(carc::test::read_text(d / "t.json"));
  INFO(doc["final"].dump());
  CHECK(doc["final"]["params"]["absorb"].get<double>() > 3);
  const auto& diff = doc["verify"]["difference"];
  CHECK(diff["ci95"][0].get<double>() > 0);  // the gain's 95% CI lies above 0
}

TEST_CASE("tune tunes whole-number parameters of search on a tiny budget") {
  TempDir d;
  const auto r = carc::test::run_carcsolo(
      {"tune", "--placement", "search:rollouts=2,beam=2,candidates=20", "--param", "turns=1..6",
       "--param", "beam=1..4", "--budget", "24", "--batch", "4", "--checks", "1", "--check-games", "2",
       "--verify-games", "2", "--threads", "1", "-q", "--out", "t.json"},
      d.path());
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json doc = json::parse(carc::test::read_text(d / "t.json"));
  CHECK(doc["steps"].size() == 3);
  for (const auto& s : doc["steps"])
    for (const char* k : {"turns", "beam"}) {
      const double p = s["plus"][k].get<double>(), m = s["minus"][k].get<double>();
      CHECK(p == std::round(p));
      CHECK(m == std::round(m));
      CHECK(p != m);
    }
  CHECK(carc::canonical_placement(doc["final"]["placement"].get<std::string>()) == doc["final"]["placement"]);
}

TEST_CASE("tune moves value's expect: plus and minus play different specs, recorded in each step") {
  TempDir d;
  const auto r = carc::test::run_carcsolo(
      {"tune", "--placement", "value", "--param", "expect=0..1", "--budget", "200", "--batch", "20",
       "--checks", "1", "--check-games", "20", "--verify-games", "0", "--threads", "2", "-q", "--out", "t.json"},
      d.path());
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json doc = json::parse(carc::test::read_text(d / "t.json"));
  REQUIRE(doc["steps"].size() == 4);
  bool moved = false;
  for (const auto& s : doc["steps"]) {
    const std::string plus = s["plus_placement"], minus = s["minus_placement"];
    // What the file says was played is the canonical spec of the step's point.
    CHECK(plus == carc::canonical_placement("value:expect=" + s["plus"]["expect"].dump()));
    CHECK(minus == carc::canonical_placement("value:expect=" + s["minus"]["expect"].dump()));
    CHECK(plus != minus);
    moved = moved || s["difference"].get<double>() != 0;
  }
  CHECK(moved);  // the same policy at both points would give 0 at every step
  CHECK(doc["trajectory"][1]["placement"] ==
        carc::canonical_placement("value:expect=" + doc["trajectory"][1]["params"]["expect"].dump()));
}

TEST_CASE("an interrupted tune keeps its trajectory, marked interrupted") {
  TempDir d;
  const pid_t pid = carc::test::spawn_carcsolo(
      {"tune", "--placement", "heuristic:absorb=1", "--param", "absorb=0..20", "--budget", "100000000",
       "--batch", "50", "--checks", "0", "--threads", "2", "-q", "--out", "t.json"},
      d.path(), d / "stdout", d / "stderr");
  for (int i = 0; i < 6000 && carc::test::cpu_seconds(pid) < 3.0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGINT);
  CHECK(carc::test::wait_status(pid) == 130);
  const std::string err = carc::test::read_text(d / "stderr");
  CHECK(err.find("interrupted") != std::string::npos);
  CHECK(d.listing() == std::set<std::string>{"t.json", "stdout", "stderr"});
  const json doc = json::parse(carc::test::read_text(d / "t.json"));
  CHECK(doc["status"] == "interrupted");
  CHECK_FALSE(doc.contains("verify"));
  REQUIRE(doc["steps"].size() >= 1);  // the first step takes well under a CPU-second
  CHECK(doc["games"] == doc["steps"].back()["games"]);
  CHECK(doc["final"]["steps"] == doc["steps"].size());
}
