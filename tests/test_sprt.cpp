// Tests of compare --sprt's test (sim/stats/sprt.hpp): the LLR and its decision against
// hand-computed values, the checkpoint schedule, its error rates on simulated normal
// differences read at the command's checkpoints, and that games stopped between
// checkpoints decide nothing (the file's record, the summary line, the command itself).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>

#include <nlohmann/json.hpp>

#include "sim/driver/matrix.hpp"
#include "sim/stats/sprt.hpp"
#include "sim/study/stopping.hpp"
#include "tests/process.hpp"

namespace {

using carc::sim::SprtDecision;
using carc::sim::SprtTest;
using carc::sim::sprt_decide;
using carc::sim::sprt_llr;
using carc::sim::sprt_next_checkpoint;

// The LLR of the differences `d`, from their sums as compare keeps them.
double llr_of(const SprtTest& t, const std::vector<int>& d) {
  long double sum = 0, sum_sq = 0;
  for (const int x : d) {
    sum += x;
    sum_sq += x * x;
  }
  return sprt_llr(t, d.size(), sum, sum_sq);
}

}  // namespace

TEST_CASE("sprt: the bounds are ln(beta / (1 - alpha)) and ln((1 - beta) / alpha)") {
  const SprtTest t{0, 1, 0.05, 0.05};
  CHECK(t.lower() == doctest::Approx(-2.944439));
  CHECK(t.upper() == doctest::Approx(2.944439));
  const SprtTest u{0, 1, 0.1, 0.2};
  CHECK(u.lower() == doctest::Approx(std::log(0.2 / 0.9)));  // -1.504077
  CHECK(u.lower() == doctest::Approx(-1.504077));
  CHECK(u.upper() == doctest::Approx(2.079442));  // ln 8
}

TEST_CASE("sprt: the LLR n (D1 - D0) (2 mean - D0 - D1) / (2 var) and its decision, by hand") {
  const SprtTest t{0, 1, 0.05, 0.05};
  // 1, 3, -1, 5: mean 2, var (36 - 64/4) / 3 = 20/3; LLR 4 * 1 * 3 / (40/3) = 0.9.
  CHECK(llr_of(t, {1, 3, -1, 5}) == doctest::Approx(0.9));
  CHECK(sprt_decide(t, 0.9) == SprtDecision::inconclusive);
  // D0 -1, D1 2; 0, 0, 0, -3: mean -0.75, var (9 - 9/4) / 3 = 2.25; LLR 4 * 3 * -2.5 / 4.5.
  const SprtTest s{-1, 2, 0.05, 0.05};
  CHECK(llr_of(s, {0, 0, 0, -3}) == doctest::Approx(-20.0 / 3));
  CHECK(sprt_decide(s, -20.0 / 3) == SprtDecision::accept_h0);
  // Ten differences of 4 and ten of -2: mean 1, var (200 - 20) / 19; LLR 20 * 1 / (2 var).
  std::vector<int> d(10, 4);
  d.insert(d.end(), 10, -2);
  const double v = 180.0 / 19;
  CHECK(llr_of(t, d) == doctest::Approx(20.0 / (2 * v)));  // 1.0556
  // Bounds are inclusive: at B exactly H1, at A exactly H0.
  CHECK(sprt_decide(t, t.upper()) == SprtDecision::accept_h1);
  CHECK(sprt_decide(t, t.lower()) == SprtDecision::accept_h0);
  CHECK(sprt_decide(t, 2.94) == SprtDecision::inconclusive);
  CHECK(sprt_decide(t, 3.0) == SprtDecision::accept_h1);
}

TEST_CASE("sprt: fewer than two games say nothing, and equal differences decide by their side") {
  const SprtTest t{0, 1, 0.05, 0.05};
  CHECK(llr_of(t, {}) == 0.0);
  CHECK(llr_of(t, {7}) == 0.0);
  // var 0: floored, so the LLR is finite, large, and on the side of the mean.
  const double up = llr_of(t, {2, 2, 2});
  CHECK(std::isfinite(up));
  CHECK(up == doctest::Approx(3 * 1 * 3 / (2 * carc::sim::kSprtMinVariance)));
  CHECK(sprt_decide(t, up) == SprtDecision::accept_h1);
  CHECK(sprt_decide(t, llr_of(t, {0, 0, 0, 0})) == SprtDecision::accept_h0);
  CHECK(llr_of(SprtTest{-1, 1}, {0, 0}) == 0.0);  // exactly between D0 and D1
}

TEST_CASE("sprt: checkpoints every 100 games to 2000, then every tenth, and the cap") {
  CHECK(sprt_next_checkpoint(0, 1000000) == 100);
  CHECK(sprt_next_checkpoint(100, 1000000) == 200);
  CHECK(sprt_next_checkpoint(1900, 1000000) == 2000);
  CHECK(sprt_next_checkpoint(2000, 1000000) == 2200);
  CHECK(sprt_next_checkpoint(2900, 1000000) == 3100);
  CHECK(sprt_next_checkpoint(3000, 1000000) == 3300);
  CHECK(sprt_next_checkpoint(10000, 1000000) == 11000);
  CHECK(sprt_next_checkpoint(0, 50) == 50);
  CHECK(sprt_next_checkpoint(100, 150) == 150);
  CHECK(sprt_next_checkpoint(150, 150) == 150);
  // Every checkpoint below the cap is a multiple of 100, each after the one before.
  std::uint64_t at = 0, looks = 0;
  while (at < 1000000) {
    const std::uint64_t next = sprt_next_checkpoint(at, 1000000);
    CHECK(next > at);
    CHECK(next % 100 == 0);
    at = next;
    ++looks;
  }
  CHECK(looks == 88);  // geometric: 20 looks to 2000, then 68 to the cap of 1000000
}

namespace {

// One SPRT on normal differences of mean `mu` and sd 15, read at the command's
// checkpoints up to `cap`: its decision and the games it used.
SprtDecision simulate(const SprtTest& t, double mu, boost::random::mt19937_64& rng, std::uint64_t cap,
                      std::uint64_t& games) {
  boost::random::normal_distribution<double> normal(mu, 15);
  long double sum = 0, sum_sq = 0;
  std::uint64_t n = 0;
  for (;;) {
    const std::uint64_t next = sprt_next_checkpoint(n, cap);
    for (; n < next; ++n) {
      const long double x = normal(rng);
      sum += x;
      sum_sq += x * x;
    }
    const SprtDecision d = sprt_decide(t, sprt_llr(t, n, sum, sum_sq));
    if (d != SprtDecision::inconclusive || n >= cap) {
      games = n;
      return d;
    }
  }
}

}  // namespace

TEST_CASE("sprt: simulated error rates are at most about alpha and beta") {
  const SprtTest t{0, 1, 0.05, 0.05};
  boost::random::mt19937_64 rng(20260607);
  constexpr int kTests = 2000;
  int h1_at_d0 = 0, h0_at_d1 = 0, open = 0;
  std::uint64_t games = 0, total = 0;
  for (int i = 0; i < kTests; ++i) {
    const SprtDecision d = simulate(t, t.d0, rng, 1000000, games);
    h1_at_d0 += d == SprtDecision::accept_h1;
    open += d == SprtDecision::inconclusive;
    total += games;
  }
  for (int i = 0; i < kTests; ++i) {
    const SprtDecision d = simulate(t, t.d1, rng, 1000000, games);
    h0_at_d1 += d == SprtDecision::accept_h0;
    open += d == SprtDecision::inconclusive;
    total += games;
  }
  MESSAGE("H1 at D0: ", h1_at_d0, "/", kTests, ", H0 at D1: ", h0_at_d1, "/", kTests,
          ", mean games ", double(total) / (2 * kTests));
  CHECK(open == 0);
  CHECK(double(h1_at_d0) / kTests <= 0.08);
  CHECK(double(h0_at_d1) / kTests <= 0.08);
  // And the test does decide: most runs accept the hypothesis that holds.
  CHECK(h1_at_d0 > 0);  // an error rate of exactly 0 would mean bounds far too wide
  // Far from both hypotheses it is quicker still, and right.
  int right = 0;
  for (int i = 0; i < 200; ++i) right += simulate(t, 3, rng, 1000000, games) == SprtDecision::accept_h1;
  CHECK(right >= 198);
}

namespace {

// A compare outcome of two configurations over games whose paired differences
// (second - first) are `d`: the first scores 20 in every game, the second 20 + d.
carc::sim::MatrixOutcome paired_outcome(const std::vector<int>& d, bool partial) {
  carc::sim::MatrixOutcome o;
  o.acc.resize(2);
  o.diff.resize(1);
  o.config_seconds.resize(2);
  for (const int x : d) {
    carc::sim::GameOutcome a, b;
    a.colors = b.colors = 3;
    a.result = 20;
    b.result = 20 + x;
    a.scores = {20, 21, 22, 0, 0, 0};
    b.scores = {20 + x, 21 + x, 22 + x, 0, 0, 0};
    a.end = b.end = carc::EndReason::no_meeple;
    o.acc[0].add(a);
    o.acc[1].add(b);
    o.diff[0].add(a, b);
  }
  o.games_done = d.size();
  o.partial = partial;
  return o;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("sprt: games stopped between checkpoints decide nothing, however far the LLR went") {
  const SprtTest t{0, 1, 0.05, 0.05};
  // 40 differences alternating 4 and 6: mean 5, var 40 / 39; LLR 40 * 1 * 9 / (80 / 39) =
  // 175.5, far above B = 2.944: whole, they accept H1; stopped, the same sums decide nothing.
  std::vector<int> up;
  for (int i = 0; i < 40; ++i) up.push_back(i % 2 ? 6 : 4);
  // And differences of -4 and -6: LLR 40 * (-11) / (80 / 39) = -214.5, below A.
  std::vector<int> down;
  for (const int x : up) down.push_back(-x);
  const double llr_up = 40 * 9 / (2 * 40.0 / 39), llr_down = 40 * -11 / (2 * 40.0 / 39);
  struct Case {
    std::vector<int> d;
    double llr;
    SprtDecision whole;
    std::string name;
  };
  for (const Case& c : {Case{up, llr_up, SprtDecision::accept_h1, "H1"}, Case{down, llr_down, SprtDecision::accept_h0, "H0"}}) {
    const auto& [d, llr, whole, name] = c;
    CAPTURE(c.name);
    const auto complete = paired_outcome(d, false), stopped = paired_outcome(d, true);
    CHECK(carc::sim::sprt_llr(t, complete) == doctest::Approx(llr));
    CHECK(carc::sim::sprt_llr(t, stopped) == doctest::Approx(llr));  // the LLR is still reported
    CHECK(carc::sim::sprt_decision(t, complete) == whole);
    CHECK(carc::sim::sprt_decision(t, stopped) == SprtDecision::inconclusive);
    // The file's record and the summary line say the same.
    CHECK(carc::sim::sprt_record(complete, t, 1000)["result"] == name);
    const auto record = carc::sim::sprt_record(stopped, t, 1000);
    CHECK(record["result"] == "inconclusive");
    CHECK(record["games"] == 40);
    CHECK(record["llr"].get<double>() == doctest::Approx(llr));
    const std::string line = carc::sim::sprt_summary(stopped, t, 1000);
    INFO(line);
    CHECK(line.rfind("sprt: inconclusive: interrupted after 40 games: LLR ", 0) == 0);
    CHECK_FALSE(contains(line, "accepted"));
    CHECK(contains(carc::sim::sprt_summary(complete, t, 1000), std::string("sprt: accepted ") + name));
  }
}

TEST_CASE("compare --sprt stopped by a signal between checkpoints: inconclusive, whatever its partial LLR") {
  // Random placement against the search: some 45 points apart (sd about 25), so a few
  // games put the LLR of --sprt 0,20 (about 1.3 per game) beyond B = 2.944; the search's
  // games (near half a CPU-second each) are slow enough that the signal comes long before
  // the first checkpoint of 100 games.
  carc::test::TempDir d;
  // One search game's time on this build (a sanitizer build is many times slower): the
  // signal comes after about ten games' worth of CPU time.
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(carc::test::run_carcsolo({"run", "--placement", "search", "--games", "1", "--seed", "3", "--threads", "1", "-q"},
                                   d.path()).status == 0);
  const double one = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const pid_t pid = carc::test::spawn_carcsolo(
      {"compare", "--placement", "random", "--placement", "search", "--sprt", "0,20", "--seed", "3",
       "--threads", "2", "--out", "s.json"},
      d.path(), d / "stdout", d / "stderr");
  // Until it has played several games: its CPU time is the measure.
  for (int i = 0; i < 60000 && carc::test::cpu_seconds(pid) < std::max(2.0, 10 * one); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGINT);
  CHECK(carc::test::wait_status(pid) == 130);
  const std::string out = carc::test::read_text(d / "stdout");
  INFO("stdout: " << out << "stderr: " << carc::test::read_text(d / "stderr"));
  const nlohmann::json doc = nlohmann::json::parse(carc::test::read_text(d / "s.json"));
  CHECK(doc.value("partial", false));
  const nlohmann::json& s = doc.at("sprt");
  const auto games = s.at("games").get<std::uint64_t>();
  REQUIRE(games < 100);  // between checkpoints: no decision was read yet
  // The test can tell only if the partial games alone would have decided.
  REQUIRE(s.at("llr").get<double>() >= s.at("upper").get<double>());
  CHECK(s.at("result") == "inconclusive");
  CHECK(contains(out, "sprt: inconclusive: interrupted after " + std::to_string(games) + " game"));
  CHECK_FALSE(contains(out, "accepted"));
}
