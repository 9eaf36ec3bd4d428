// Tests of the research workflows through the built binary: `compare`, `sweep` and
// `run --until-ci` (their files, their arithmetic against each other, bad input).
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/goals.hpp"
#include "tests/process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A scratch directory of this test process, removed at exit.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("carcsolo-workflows-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

const Scratch& scratch() {
  static const Scratch s;
  return s;
}

// Runs `carcsolo ARGS` with stdout and stderr discarded; returns the exit status.
int carcsolo(const std::string& args) {
  const std::string cmd = std::string("'") + CARCSOLO_BINARY + "' " + args + " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return json::parse(in);
}

// What must not depend on threads: everything but `performance` (results-format.md: the
// only part that may differ between two runs of one config; it holds the command line).
json without_performance(json doc) {
  doc.erase("performance");
  for (auto& run : doc["runs"]) run.erase("performance");
  return doc;
}

}  // namespace

TEST_CASE("run: by default the official game, three colours with four meeples each") {
  const std::string out = scratch().file("default.json");
  REQUIRE(carcsolo("run --games 20 -q --out " + out) == 0);
  const json config = read_json(out)["config"];
  CHECK(config["colors"] == 3);
  CHECK(config["meeples"] == 4);
  CHECK(config["start_scores"] == json::array({1, 2, 3}));
  CHECK(config["tileset"] == "base");
}

TEST_CASE("compare: a policy against itself draws every game, CI covers 0") {
  const std::string out = scratch().file("self.json");
  REQUIRE(carcsolo("compare --placement random --placement random --games 3000 --threads 2 --out " + out) == 0);
  const json doc = read_json(out);
  CHECK(doc["format"] == "carcassonne-solo-compare/1");
  REQUIRE(doc["runs"].size() == 2);
  CHECK(doc["runs"][0]["format"] == "carcassonne-solo-results/1");
  const json& d = doc["difference"];
  CHECK(d["games"] == 3000);
  CHECK(d["draws"] == 3000);
  CHECK(d["wins"] == 0);
  CHECK(d["losses"] == 0);
  CHECK(d["ci95"][0].get<double>() <= 0.0);
  CHECK(d["ci95"][1].get<double>() >= 0.0);
  CHECK(doc["runs"][0]["result"] == doc["runs"][1]["result"]);
}

TEST_CASE("compare: a stronger policy's CI excludes 0, and files agree with `run`") {
  const std::string out = scratch().file("stronger.json");
  REQUIRE(carcsolo("compare --scoring as-found --scoring random --games 2000 --seed 3 "
                   "--first-game 100 --threads 2 --out " + out) == 0);
  const json doc = read_json(out);
  const json& d = doc["difference"];
  CHECK(d["first"] == 0);
  CHECK(d["second"] == 1);
  CHECK(d["ci95"][0].get<double>() > 0.0);
  CHECK(d["wins"].get<int>() + d["draws"].get<int>() + d["losses"].get<int>() == 2000);
  // The difference of sums is the difference of the two runs' sums.
  CHECK(d["sum"].get<std::int64_t>() == doc["runs"][1]["result"]["sum"].get<std::int64_t>() -
                                            doc["runs"][0]["result"]["sum"].get<std::int64_t>());
  CHECK(d["goals"].size() == 14);
  // Each run is exactly what `run` writes for the same games.
  const std::string single = scratch().file("single.json");
  REQUIRE(carcsolo("run --scoring random --games 2000 --seed 3 --first-game 100 -q --out " +
                   single) == 0);
  CHECK(without_performance(read_json(single)) == without_performance(doc["runs"][1]));
}

TEST_CASE("compare: the file does not depend on the thread count") {
  const std::string one = scratch().file("t1.json"), two = scratch().file("t2.json");
  const std::string args = "compare --scoring as-found --scoring random --scoring lowest-first "
                           "--games 1500 --threads ";
  REQUIRE(carcsolo(args + "1 --out " + one) == 0);
  REQUIRE(carcsolo(args + "2 --out " + two) == 0);
  const json a = read_json(one), b = read_json(two);
  CHECK(a["differences"].size() == 2);
  CHECK(without_performance(a) == without_performance(b));
}

TEST_CASE("compare --until-ci: plays on until the difference's CI is narrow enough") {
  const std::string out = scratch().file("until.json");
  REQUIRE(carcsolo("compare --scoring as-found --scoring random --games 100000 --until-ci 0.06 "
                   "--threads 2 --out " + out) == 0);
  const json doc = read_json(out);
  const auto games = doc["config"]["games"].get<std::uint64_t>();
  CHECK(games > 1000);  // past the first batch
  CHECK(games < 100000);
  CHECK(doc["until_ci"]["cap"] == 100000);
  CHECK(doc["until_ci"]["first_batch"] == 1000);
  const auto ci = doc["difference"]["ci95"];
  CHECK((ci[1].get<double>() - ci[0].get<double>()) / 2 <= 0.06);
  CHECK(doc["runs"][0]["config"]["games"] == games);
  CHECK(doc["runs"][0]["config"]["first_game"] == 0);
}

TEST_CASE("compare --sprt: accepts H1 or H0 at a checkpoint, the same at 1 and 2 threads") {
  carc::test::TempDir d;
  const auto sprt = [&](const std::vector<std::string>& policies, const std::string& threads,
                        const std::string& out, const std::vector<std::string>& more = {}) {
    std::vector<std::string> args{"compare"};
    args.insert(args.end(), policies.begin(), policies.end());
    args.insert(args.end(), {"--scoring", "best", "--sprt", "0,1", "--threads", threads, "--out", out});
    args.insert(args.end(), more.begin(), more.end());
    return carc::test::run_carcsolo(args, d.path());
  };
  // heuristic is ~17 points above greedy: H1 at the first checkpoint.
  const std::vector<std::string> stronger{"--placement", "greedy", "--placement", "heuristic"};
  auto r = sprt(stronger, "1", "h1a.json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("sprt: accepted H1 (mean difference >= 1) after 100 games: LLR ") != std::string::npos);
  REQUIRE(sprt(stronger, "2", "h1b.json").status == 0);
  json a = read_json((d / "h1a.json").string());
  CHECK(without_performance(a) == without_performance(read_json((d / "h1b.json").string())));
  const json& s = a["sprt"];
  CHECK(s["result"] == "H1");
  CHECK(s["games"] == 100);
  CHECK(s["cap"] == 1000000);  // --games defaults to the cap of --until-ci
  CHECK(s["d0"] == 0.0);
  CHECK(s["d1"] == 1.0);
  CHECK(s["alpha"] == 0.05);
  CHECK(s["beta"] == 0.05);
  CHECK(s["upper"].get<double>() == doctest::Approx(std::log(0.95 / 0.05)));
  CHECK(s["lower"].get<double>() == doctest::Approx(std::log(0.05 / 0.95)));
  CHECK(a["config"]["games"] == 100);
  // The LLR is the formula's over the file's own sums.
  const json& diff = a["difference"];
  const double n = 100, m = diff["sum"].get<double>() / n;
  const double var = (diff["sum_of_squares"].get<double>() - n * m * m) / (n - 1);
  CHECK(s["llr"].get<double>() == doctest::Approx(n * 1 * (2 * m - 1) / (2 * var)));
  CHECK(s["llr"].get<double>() >= s["upper"].get<double>());

  // heuristic without its absorb term is ~3.5 points worse: H0, after three checkpoints.
  const std::vector<std::string> weaker{"--placement", "heuristic", "--placement", "heuristic:absorb=0"};
  r = sprt(weaker, "1", "h0a.json");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("sprt: accepted H0 (mean difference <= 0) after 300 games: LLR ") != std::string::npos);
  REQUIRE(sprt(weaker, "2", "h0b.json").status == 0);
  a = read_json((d / "h0a.json").string());
  CHECK(without_performance(a) == without_performance(read_json((d / "h0b.json").string())));
  CHECK(a["sprt"]["result"] == "H0");
  CHECK(a["sprt"]["games"] == 300);
  CHECK(a["config"]["games"] == 300);
  CHECK(a["sprt"]["llr"].get<double>() <= a["sprt"]["lower"].get<double>());
  // Its first 200 games did not decide: the same command capped at 200 stops there undecided,
  // over the same games as the prefix.
  r = sprt(weaker, "2", "cap.json", {"--games", "200"});
  REQUIRE(r.status == 0);
  CHECK(r.out.find("sprt: inconclusive: stopped at the cap of 200 games: LLR ") != std::string::npos);
  const json cap = read_json((d / "cap.json").string());
  CHECK(cap["sprt"]["result"] == "inconclusive");
  CHECK(cap["sprt"]["cap"] == 200);
  CHECK(cap["config"]["games"] == 200);
  // Wider alpha and beta: narrower bounds, so it decides sooner.
  r = sprt(weaker, "2", "wide.json", {"--sprt-alpha", "0.2", "--sprt-beta", "0.2"});
  REQUIRE(r.status == 0);
  const json wide = read_json((d / "wide.json").string());
  CHECK(wide["sprt"]["result"] == "H0");
  CHECK(wide["sprt"]["alpha"] == 0.2);
  CHECK(wide["sprt"]["lower"].get<double>() == doctest::Approx(std::log(0.2 / 0.8)));
  CHECK(wide["sprt"]["games"].get<int>() < 300);

  // merge refuses SPRT files, even two shards of one test.
  REQUIRE(sprt(weaker, "2", "next.json", {"--games", "200", "--first-game", "200"}).status == 0);
  r = carc::test::run_carcsolo({"merge", "cap.json", "next.json", "--out", "m.json"}, d.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("cap.json: a compare --sprt file: its decision belongs to its prefix of games") !=
        std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(d / "m.json"));
}

TEST_CASE("compare --sprt: bad input is one line and exit status 2") {
  carc::test::TempDir d;
  const auto refused = [&](std::vector<std::string> args, const std::string& says) {
    args.insert(args.begin(), "compare");
    args.insert(args.end(), {"--games", "100", "--out", "x.json"});
    const auto r = carc::test::run_carcsolo(args, d.path());
    CHECK(r.status == 2);
    CHECK(r.err.find(says) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_FALSE(fs::exists(d / "x.json"));
  };
  refused({"--placement", "greedy", "--placement", "heuristic", "--placement", "random", "--sprt", "0,1"},
          "give exactly two policies (got 3)");
  refused({"--placement", "greedy", "--placement", "heuristic", "--sprt", "0,1", "--until-ci", "0.5"},
          "--sprt and --until-ci are two stopping rules");
  refused({"--placement", "greedy", "--placement", "heuristic", "--sprt", "1,0"}, "needs D0 < D1");
  refused({"--placement", "greedy", "--placement", "heuristic", "--sprt", "1"}, "--sprt takes D0,D1");
  refused({"--placement", "greedy", "--placement", "heuristic", "--sprt", "0,x"}, "--sprt must be a number");
  refused({"--placement", "greedy", "--placement", "heuristic", "--sprt", "0,1", "--sprt-alpha", "0"},
          "--sprt-alpha must be a number above 0");
  refused({"--placement", "greedy", "--placement", "heuristic", "--sprt", "0,1", "--sprt-alpha", "0.5",
           "--sprt-beta", "0.6"},
          "add up to less than 1");
  refused({"--placement", "greedy", "--placement", "heuristic", "--sprt-beta", "0.1"},
          "--sprt-alpha and --sprt-beta are --sprt's");
}

TEST_CASE("run --until-ci: stops at a checkpoint and names the exact game range") {
  const std::string out = scratch().file("run_until.json");
  REQUIRE(carcsolo("run --until-ci 0.05 --games 100000 --first-game 7 --threads 2 -q --out " +
                   out) == 0);
  const json doc = read_json(out);
  const auto games = doc["config"]["games"].get<std::uint64_t>();
  CHECK(games > 1000);
  CHECK(games < 100000);
  CHECK(doc["until_ci"]["met"] == true);
  const auto ci = doc["result"]["ci95"];
  CHECK((ci[1].get<double>() - ci[0].get<double>()) / 2 <= 0.05);
  // The same range played in one go gives the same statistics.
  const std::string plain = scratch().file("run_plain.json");
  REQUIRE(carcsolo("run --games " + std::to_string(games) + " --first-game 7 -q --out " + plain) == 0);
  json a = without_performance(doc);
  a.erase("until_ci");
  CHECK(a == without_performance(read_json(plain)));
}

TEST_CASE("--until-ci stopped by the cap: the summary and the file say the target was not met") {
  carc::test::TempDir d;
  // run: 1,000 games (the first batch) is the cap; ± 0.01 needs far more.
  auto r = carc::test::run_carcsolo({"run", "--until-ci", "0.01", "--games", "1000", "--threads", "2", "--out", "r.json"},
                                    d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("until-ci: target not met: stopped at the cap of 1000 games, the mean's 95% CI half-width ") !=
        std::string::npos);
  json doc = read_json((d / "r.json").string());
  CHECK(doc["until_ci"]["met"] == false);
  CHECK(doc["until_ci"]["cap"] == 1000);
  CHECK(doc["config"]["games"] == 1000);
  // Met: the line says so too.
  r = carc::test::run_carcsolo({"run", "--until-ci", "2", "--games", "5000", "--threads", "2"}, d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("until-ci: target met: the mean's 95% CI half-width ") != std::string::npos);
  CHECK(r.out.find("after 1000 games") != std::string::npos);

  // compare: --max-games caps it.
  r = carc::test::run_carcsolo({"compare", "--scoring", "as-found", "--scoring", "random", "--games", "200",
                                "--until-ci", "0.001", "--max-games", "400", "--threads", "2", "--out", "c.json"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("until-ci: target not met: stopped at the cap of 400 games, the widest difference's 95% CI") !=
        std::string::npos);
  doc = read_json((d / "c.json").string());
  CHECK(doc["until_ci"]["met"] == false);
  CHECK(doc["until_ci"]["half_width"] == 0.001);
  CHECK(doc["until_ci"]["cap"] == 400);
  CHECK(doc["until_ci"]["first_batch"] == 200);  // --max-games, the cap's other spelling: --games is the first batch
  CHECK(doc["config"]["games"] == 400);
  // The spelling of all three commands: --games is the cap, the first batch 1000 games.
  r = carc::test::run_carcsolo({"compare", "--scoring", "as-found", "--scoring", "random", "--games", "1500",
                                "--until-ci", "0.001", "--threads", "2", "--out", "c1.json"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("until-ci: target not met: stopped at the cap of 1500 games") != std::string::npos);
  doc = read_json((d / "c1.json").string());
  CHECK(doc["config"]["games"] == 1500);
  CHECK(doc["config"]["max_games"] == 1500);
  CHECK(doc["until_ci"]["cap"] == 1500);
  CHECK(doc["until_ci"]["first_batch"] == 1000);
  r = carc::test::run_carcsolo({"compare", "--scoring", "as-found", "--scoring", "random", "--games", "200",
                                "--until-ci", "5", "--threads", "2", "-q", "--out", "c2.json"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(read_json((d / "c2.json").string())["until_ci"]["met"] == true);
  // Without --until-ci, no such field (the format only gains fields).
  r = carc::test::run_carcsolo({"compare", "--scoring", "as-found", "--scoring", "random", "--games", "200",
                                "--threads", "2", "-q", "--out", "c3.json"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK_FALSE(read_json((d / "c3.json").string()).contains("until_ci"));
}

TEST_CASE("run --until-ci GOAL=W: stops once the goal rate's Wilson half-width is at most W") {
  carc::test::TempDir d;
  const std::vector<std::string> args = {"run", "--placement", "greedy", "--scoring", "best", "--games", "200000",
                                         "--first-game", "3", "--out"};
  auto with = [&](std::vector<std::string> more) {
    auto a = args;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  // city_16 (about 7% of greedy's games) to ± 1 percentage point: more than the first batch.
  auto r = carc::test::run_carcsolo(with({"g2.json", "--until-ci", "city_16=0.01", "--threads", "2"}), d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("until-ci: target met: city_16's 95% Wilson interval half-width ") != std::string::npos);
  const json doc = read_json((d / "g2.json").string());
  const auto games = doc["config"]["games"].get<std::uint64_t>();
  CHECK(games > 1000);
  CHECK(games < 200000);
  const json w = doc["goals"]["city_16"]["wilson95"];
  const double half = (w[1].get<double>() - w[0].get<double>()) / 2;
  CHECK(half <= 0.01);
  const json u = doc["until_ci"];
  CHECK(u["met"] == true);
  CHECK(u["cap"] == 200000);
  CHECK(u["first_batch"] == 1000);
  CHECK_FALSE(u.contains("half_width"));  // no rule on the mean
  REQUIRE(u["rules"].size() == 1);
  CHECK(u["rules"][0]["target"] == "city_16");
  CHECK(u["rules"][0]["half_width"] == 0.01);
  CHECK(u["rules"][0]["interval"] == "wilson");
  CHECK(u["rules"][0]["achieved"] == half);  // read from the counts the file holds
  CHECK(u["rules"][0]["met"] == true);
  // The same game on one thread, and "1%" is 0.01.
  r = carc::test::run_carcsolo(with({"g1.json", "--until-ci", "city_16=1%", "--threads", "1"}), d.path());
  REQUIRE(r.status == 0);
  CHECK(without_performance(read_json((d / "g1.json").string())) == without_performance(doc));
  // Two rules: both must hold, so it plays at least as far.
  r = carc::test::run_carcsolo(with({"g3.json", "--until-ci", "city_16=0.01", "--until-ci", "0.08"}), d.path());
  REQUIRE(r.status == 0);
  const json two = read_json((d / "g3.json").string());
  CHECK(two["config"]["games"].get<std::uint64_t>() >= games);
  CHECK(two["until_ci"]["half_width"] == 0.08);
  CHECK(two["until_ci"]["rules"].size() == 2);
  CHECK(two["until_ci"]["met"] == true);
  const auto ci = two["result"]["ci95"];
  CHECK((ci[1].get<double>() - ci[0].get<double>()) / 2 <= 0.08);
  CHECK(r.out.find("the mean's 95% CI half-width") != std::string::npos);
  CHECK(r.out.find("city_16's 95% Wilson interval half-width") != std::string::npos);
  // Stopped by the cap: not met.
  r = carc::test::run_carcsolo({"run", "--placement", "greedy", "--scoring", "best", "--games", "1500",
                                "--until-ci", "city_16=0.001", "--out", "cap.json"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("until-ci: target not met: stopped at the cap of 1500 games, city_16's 95% Wilson") !=
        std::string::npos);
  const json cap = read_json((d / "cap.json").string());
  CHECK(cap["config"]["games"] == 1500);
  CHECK(cap["until_ci"]["met"] == false);
  CHECK(cap["until_ci"]["rules"][0]["met"] == false);
}

TEST_CASE("compare --until-ci GOAL=W: every paired goal-rate difference to ± W") {
  carc::test::TempDir d;
  auto r = carc::test::run_carcsolo({"compare", "--placement", "greedy", "--placement", "heuristic", "--scoring",
                                     "best", "--until-ci", "city_16=2%", "--games", "100000", "-q", "--out", "c.json"},
                                    d.path());
  REQUIRE(r.status == 0);
  const json doc = read_json((d / "c.json").string());
  CHECK(doc["config"]["until_ci"].is_null());  // no rule on the mean difference
  CHECK(doc["config"]["until_ci_goals"] == json{{"city_16", 0.02}});
  CHECK(doc["config"]["max_games"] == 100000);
  const json ci = doc["differences"][0]["goals"]["city_16"]["ci95"];
  const double half = (ci[1].get<double>() - ci[0].get<double>()) / 2;
  CHECK(half <= 0.02);
  CHECK(doc["until_ci"]["met"] == true);
  CHECK(doc["until_ci"]["rules"][0]["interval"] == "paired");
  CHECK(doc["until_ci"]["rules"][0]["achieved"].get<double>() == doctest::Approx(half));
  CHECK(doc["config"]["games"].get<std::uint64_t>() > 1000);
}

TEST_CASE("sweep --until-ci: every option's mean and goal rate, and shards of one study merge") {
  carc::test::TempDir d;
  const std::vector<std::string> sweep = {"sweep", "--placement", "greedy", "--scoring", "best", "--colors", "3",
                                          "--meeples", "3..4", "--until-ci", "0.3", "--until-ci", "city_16=2%"};
  auto with = [&](std::vector<std::string> more) {
    auto a = sweep;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  auto r = carc::test::run_carcsolo(with({"--out", "a.json"}), d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("until-ci: target met: the widest option's mean 95% CI half-width") != std::string::npos);
  CHECK(r.out.find("until-ci: target met: the widest option's city_16 95% Wilson interval half-width") !=
        std::string::npos);
  const json a = read_json((d / "a.json").string());
  CHECK(a["config"]["until_ci"] == 0.3);
  CHECK(a["config"]["until_ci_goals"] == json{{"city_16", 0.02}});
  CHECK(a["config"]["max_games"] == 1000000);  // --games defaulted: the cap of --until-ci
  CHECK(a["until_ci"]["met"] == true);
  for (const auto& run : a["runs"]) {
    const json ci = run["result"]["ci95"], w = run["goals"]["city_16"]["wilson95"];
    CHECK((ci[1].get<double>() - ci[0].get<double>()) / 2 <= 0.3);
    CHECK((w[1].get<double>() - w[0].get<double>()) / 2 <= 0.02);
  }
  // The next shard of the study, and merge: the rules come through.
  const std::string next = std::to_string(a["config"]["games"].get<std::uint64_t>());
  REQUIRE(carc::test::run_carcsolo(with({"--first-game", next, "-q", "--out", "b.json"}), d.path()).status == 0);
  REQUIRE(carc::test::run_carcsolo({"merge", "a.json", "b.json", "-q", "--out", "m.json"}, d.path()).status == 0);
  const json m = read_json((d / "m.json").string());
  CHECK(m["config"]["until_ci_goals"] == a["config"]["until_ci_goals"]);
  CHECK(m["until_ci"]["rules"].size() == 2);
  CHECK(m["until_ci"]["first_batch"] == 1000);
  CHECK(m["until_ci"]["met"] == true);
  // A shard of other rules is another study.
  auto other = sweep;
  other.back() = "city_16=3%";
  other.insert(other.end(), {"--first-game", next, "-q", "--out", "c.json"});
  REQUIRE(carc::test::run_carcsolo(other, d.path()).status == 0);
  r = carc::test::run_carcsolo({"merge", "a.json", "c.json", "--out", "m2.json"}, d.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("config.until_ci differs") != std::string::npos);
}

TEST_CASE("--dry-run: the games/s measured and the time estimated, no file written") {
  carc::test::TempDir d;
  auto r = carc::test::run_carcsolo({"run", "--games", "60", "--dry-run", "--out", "r.json", "--log", "l.jsonl",
                                     "--per-game", "p.csv"},
                                    d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("dry run: 60 games in ", 0) == 0);
  CHECK(r.out.find(" games/s\nestimate: the 60 games take about ") != std::string::npos);
  CHECK(r.out.find("\ndry run: nothing written\n") != std::string::npos);
  r = carc::test::run_carcsolo({"compare", "--scoring", "best", "--scoring", "random", "--games", "40",
                                "--until-ci", "0.5", "--dry-run", "--out", "c.json"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("games/s, each under 2 policies\n") != std::string::npos);
  CHECK(r.out.find("estimate: at most 40 games (the cap) take about ") != std::string::npos);
  r = carc::test::run_carcsolo({"sweep", "--meeples", "2..3", "--colors", "3", "--games", "30", "--dry-run",
                                "--out", "s.json", "--per-game", "s.csv"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("games/s, each under 2 options\n") != std::string::npos);
  CHECK(d.listing().empty());
}

TEST_CASE("replay of a run's game is one command: run prints it, replay names its policies") {
  carc::test::TempDir d;
  auto r = carc::test::run_carcsolo({"run", "--games", "4", "--first-game", "2", "--seed", "5", "--placement",
                                     "greedy:snug=1", "--scoring", "best", "--threads", "1", "--log", "g.jsonl"},
                                    d.path());
  REQUIRE(r.status == 0);
  const std::string mark = "replay a game: carcsolo ";
  const auto at = r.out.find(mark);
  REQUIRE(at != std::string::npos);
  std::vector<std::string> args;
  {
    std::istringstream words(r.out.substr(at + mark.size(), r.out.find('\n', at) - at - mark.size()));
    for (std::string w; words >> w;) args.push_back(w.front() == '\'' ? w.substr(1, w.size() - 2) : w);
  }
  CHECK(args == std::vector<std::string>{"replay", "--seed", "5", "--colors", "3", "--meeples", "4", "--placement",
                                         "greedy:snug=1", "--scoring", "best", "--game", "2"});
  args.insert(args.end(), {"--out", "one.json"});
  r = carc::test::run_carcsolo(args, d.path());
  REQUIRE(r.status == 0);
  CHECK(r.err == "carcsolo replay: seed 5, game 2, 3 colours x 4 meeples, placement greedy:snug=1, scoring best\n");
  std::ifstream logged((d / "g.jsonl").string());
  std::string first;
  std::getline(logged, first);
  CHECK(json::parse(first) == read_json((d / "one.json").string()));  // the very game the run logged
  // -q: nothing on stderr; the default policies are named too.
  r = carc::test::run_carcsolo({"replay", "--seed", "5", "--game", "2", "-q"}, d.path());
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  r = carc::test::run_carcsolo({"replay", "--seed", "5", "--game", "2", "--out", "two.json"}, d.path());
  CHECK(r.err.find("placement random, scoring random") != std::string::npos);
}

namespace {
// The words of a POSIX shell command line as replay_command writes it: words split at
// spaces, single quotes around a word with special characters, '\'' for a quote in one.
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false, quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '\'') quoted = false;
      else w += c;
    } else if (c == '\'') {
      quoted = in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      w += line[++i];
      in_word = true;
    } else if (c == ' ') {
      if (in_word) words.push_back(w);
      w.clear();
      in_word = false;
    } else {
      w += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(w);
  return words;
}
}  // namespace

TEST_CASE("run --deal: the summary names the deal and prints the replay of the very game, byte for byte") {
  carc::test::TempDir d;
  // A deal (that of another seed's game, so that it differs from seed 9's own), in a file
  // whose name needs quoting.
  auto r = carc::test::run_carcsolo({"replay", "--seed", "3", "--game", "11", "-q", "--out", "src.json"}, d.path());
  REQUIRE(r.status == 0);
  const json source = read_json((d / "src.json").string());
  std::string deal = "# seed 3, game 11\n";
  for (const auto& stack : source["stacks"]) {
    for (const auto& tile : stack) deal += tile.get<std::string>();
    deal += "\n";
  }
  carc::test::write_text(d / "my deal's.txt", deal);
  r = carc::test::run_carcsolo({"run", "--deal", "my deal's.txt", "--games", "1", "--first-game", "4", "--seed", "9",
                                "--meeples", "5", "--placement", "greedy:snug=1", "--scoring",
                                "random", "--threads", "1", "--log", "run.jsonl"},
                               d.path());
  REQUIRE(r.status == 0);
  const std::string head = r.out.substr(0, r.out.find('\n'));
  CHECK(head == "carcsolo run: greedy:snug=1 / random, 3 colours x 5 meeples, deal my deal's.txt in "
                "every game, policies' streams of seed 9");
  const std::string mark = "replay a game: ";
  const auto at = r.out.find(mark);
  REQUIRE(at != std::string::npos);
  std::vector<std::string> args =
      shell_words(r.out.substr(at + mark.size(), r.out.find('\n', at) - at - mark.size()));
  REQUIRE(args.size() > 2);
  CHECK(args[0] == "carcsolo");
  args.erase(args.begin());
  CHECK(args == std::vector<std::string>{"replay", "--deal", "my deal's.txt", "--seed", "9", "--colors", "3",
                                         "--meeples", "5", "--placement", "greedy:snug=1",
                                         "--scoring", "random", "--game", "4"});
  // Run as printed: the log is the run's, byte for byte once written as --log writes it.
  auto replayed = carc::test::run_carcsolo(args, d.path());
  REQUIRE(replayed.status == 0);
  CHECK(replayed.err ==
        "carcsolo replay: deal my deal's.txt, seed 9, game 4, 3 colours x 5 meeples, placement "
        "greedy:snug=1, scoring random\n");
  const std::string logged = carc::test::read_text(d / "run.jsonl");
  CHECK(json::parse(replayed.out).dump() + "\n" == logged);
  CHECK(json::parse(logged)["stacks"] == source["stacks"]);
  // The same command without --deal is another game (seed 9's own deal): the deal matters.
  std::vector<std::string> seeded(args.begin(), args.end());
  seeded.erase(seeded.begin() + 1, seeded.begin() + 3);
  replayed = carc::test::run_carcsolo(seeded, d.path());
  REQUIRE(replayed.status == 0);
  CHECK(json::parse(replayed.out)["stacks"] != json::parse(logged)["stacks"]);
}

namespace {
// A deal file written from a game log: each stack's names joined by spaces, then, with the
// river, a line "river" and the river stack's names.
std::string deal_of_log(const json& log) {
  std::string deal = "# seed " + log["seed"].dump() + ", game " + log["game"].dump() + "\n";
  for (const auto& stack : log["stacks"]) {
    for (const auto& tile : stack) deal += tile.get<std::string>() + " ";
    deal += "\n";
  }
  if (log.contains("river_stack")) {
    deal += "river";
    for (const auto& tile : log["river_stack"]) deal += " " + tile.get<std::string>();
    deal += "\n";
  }
  return deal;
}

std::string joined(const json& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : " ") + n.get<std::string>();
  return s;
}

json without(json doc, std::initializer_list<const char*> keys) {
  for (const char* k : keys) doc.erase(k);
  return doc;
}
}  // namespace

TEST_CASE("run --deal and replay --deal of every set: a logged game's stacks and river stack play it again, "
          "log for log") {
  carc::test::TempDir d;
  const std::vector<std::pair<std::string, std::string>> options = {
      {"base+inns+river", "3"}, {"base+inns+river", "4"}, {"base+inns", "3"}, {"base+inns", "4"}};
  for (const auto& option : options) {
    const std::string& tileset = option.first;  // named, not bound: clang 14's lambdas cannot capture bindings
    const std::string& colors = option.second;
    INFO(tileset << ", " << colors << " colours");
    const bool river = tileset.find("river") != std::string::npos;
    const auto call = [&](std::vector<std::string> head, const std::string& seed) {
      for (const char* w : {"--tileset", tileset.c_str(), "--large-meeple", "--colors", colors.c_str(), "--meeples",
                            "5", "--placement", "heuristic", "--scoring", "best", "--seed", seed.c_str(), "-q"})
        head.emplace_back(w);
      return carc::test::run_carcsolo(head, d.path());
    };
    auto r = call({"run", "--games", "1", "--first-game", "6", "--threads", "1", "--log", "seeded.jsonl", "--out",
                   "seeded.json"}, "5");
    REQUIRE(r.status == 0);
    const std::string logged = carc::test::read_text(d / "seeded.jsonl");
    const json log = json::parse(logged);
    REQUIRE(log["stacks"].size() == std::size_t(std::stoi(colors)));
    REQUIRE(log.contains("river_stack") == river);
    CHECK(log["config"]["large_meeple"] == true);
    carc::test::write_text(d / "deal.txt", deal_of_log(log));

    // run --deal: the same game, log for log; the results file but for its timing and the deal
    r = call({"run", "--first-game", "6", "--threads", "1", "--deal", "deal.txt", "--log", "dealt.jsonl", "--out",
              "dealt.json"}, "5");
    REQUIRE(r.status == 0);
    CHECK(carc::test::read_text(d / "dealt.jsonl") == logged);
    const json seeded_doc = read_json((d / "seeded.json").string());
    const json dealt_doc = read_json((d / "dealt.json").string());
    CHECK(without(dealt_doc, {"performance", "deal", "deal_river"}) == without(seeded_doc, {"performance"}));
    REQUIRE(dealt_doc["deal"].size() == log["stacks"].size());
    for (std::size_t c = 0; c < log["stacks"].size(); ++c) CHECK(dealt_doc["deal"][c] == joined(log["stacks"][c]));
    CHECK(dealt_doc.contains("deal_river") == river);
    if (river) CHECK(dealt_doc["deal_river"] == joined(log["river_stack"]));

    // replay --deal: the same log
    r = call({"replay", "--game", "6", "--deal", "deal.txt"}, "5");
    REQUIRE(r.status == 0);
    CHECK(json::parse(r.out).dump() + "\n" == logged);

    // The deal is what is played: under another seed's policies the stacks are the file's
    r = call({"replay", "--game", "6", "--deal", "deal.txt"}, "6");
    REQUIRE(r.status == 0);
    const json other = json::parse(r.out);
    CHECK(other["stacks"] == log["stacks"]);
    CHECK(other.value("river_stack", json()) == log.value("river_stack", json()));
    r = call({"replay", "--game", "6"}, "6");
    REQUIRE(r.status == 0);
    CHECK(json::parse(r.out)["stacks"] != log["stacks"]);
  }
}

TEST_CASE("compare's summary: every goal with each policy's rate and the paired difference, ± throughout") {
  carc::test::TempDir d;
  const auto r = carc::test::run_carcsolo({"compare", "--placement", "random", "--placement", "greedy", "--placement",
                                           "heuristic", "--games", "300", "--threads", "2", "--out", "c.json"},
                                          d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("+-") == std::string::npos);
  CHECK(r.out.find("    goal         " "      [0]  " "      [1]  " "      [2]  "
                   "   [1] - [0] (paired 95% CI)   [2] - [0] (paired 95% CI)\n") != std::string::npos);
  const json doc = read_json((d / "c.json").string());
  for (const auto id : carc::kGoalIds) {
    // Each line: the three rates from the file's runs, then both differences.
    const std::string name(id);
    char want[160];
    std::snprintf(want, sizeof want, "    %-13s%8.3f%%  %8.3f%%  %8.3f%%  ", name.c_str(),
                  100 * doc["runs"][0]["goals"][name]["rate"].get<double>(),
                  100 * doc["runs"][1]["goals"][name]["rate"].get<double>(),
                  100 * doc["runs"][2]["goals"][name]["rate"].get<double>());
    INFO(name);
    CHECK(r.out.find(want) != std::string::npos);
  }
  CHECK(r.out.find("games/s, each under 3 policies") != std::string::npos);
}

TEST_CASE("results files record the command line, the build and whether the tree was modified") {
  carc::test::TempDir d, elsewhere;
  // An absolute path inside the working directory is written relative to it, one outside
  // it by its file name: no machine's paths in a shared file.
  const std::string inside = (d / "r.json").string(), outside = (elsewhere / "log.jsonl").string();
  auto r = carc::test::run_carcsolo({"run", "--games", "12", "--seed", "4", "-q", "--out", inside, "--log=" + outside},
                                    d.path());
  REQUIRE(r.status == 0);
  const json doc = read_json(inside);
  const json& program = doc["program"];
  CHECK_FALSE(program.contains("command_line"));  // it may differ between runs: performance's
  CHECK(doc["performance"]["command_line"] ==
        json::array({"carcsolo", "run", "--games", "12", "--seed", "4", "-q", "--out", "r.json", "--log=log.jsonl"}));
  CHECK(program["build"]["compiler"].get<std::string>().size() > 2);
  CHECK(program["build"]["build_type"].is_string());
  CHECK(program["build"]["flags"].is_string());
  CHECK(program["dirty"].is_boolean());  // the test runs in a git checkout
  CHECK(program["git"].get<std::string>() != "unknown");
  // compare files too, in every run.
  r = carc::test::run_carcsolo({"compare", "--scoring", "best", "--scoring", "random", "--games", "20", "-q", "--out",
                                "c.json"},
                               d.path());
  REQUIRE(r.status == 0);
  const json c = read_json((d / "c.json").string());
  CHECK(c["performance"]["command_line"][1] == "compare");
  CHECK(c["runs"][1]["performance"]["command_line"] == c["performance"]["command_line"]);
  CHECK(c["runs"][1]["program"] == c["program"]);
  // --version says the same.
  r = carc::test::run_carcsolo({"--version"}, d.path());
  CHECK(r.out.find(program["git"].get<std::string>()) != std::string::npos);
  CHECK(r.out.find(program["build"]["compiler"].get<std::string>()) != std::string::npos);
  CHECK((r.out.find("modified tree") != std::string::npos) == program["dirty"].get<bool>());
}

TEST_CASE("sweep: more meeples, higher mean, and one results document per option") {
  const std::string out = scratch().file("sweep.json");
  REQUIRE(carcsolo("sweep --meeples 2..3,6 --colors 3,4 --games 1500 --threads 2 "
                   "--target mean=4.1 --out " + out) == 0);
  const json doc = read_json(out);
  CHECK(doc["format"] == "carcassonne-solo-sweep/1");
  REQUIRE(doc["runs"].size() == 6);
  for (int c = 0; c < 2; ++c) {
    const json& two = doc["runs"][3 * c];
    const json& six = doc["runs"][3 * c + 2];
    CHECK(two["config"]["colors"] == 3 + c);
    CHECK(two["config"]["meeples"] == 2);
    CHECK(six["config"]["meeples"] == 6);
    CHECK(six["result"]["ci95"][0].get<double>() > two["result"]["ci95"][1].get<double>());
  }
  // Closest to a mean of 4.1: three colours with three meeples (about 4.1), by construction
  // of the other options (2 meeples about 3.3, 6 meeples about 6.7; 4 colours lower).
  REQUIRE(doc["targets"].size() == 1);
  CHECK(doc["targets"][0]["colors"] == 3);
  CHECK(doc["targets"][0]["meeples"] == 3);
}

TEST_CASE("compare and sweep: bad input is exit status 2 and no file") {
  const std::string out = scratch().file("bad.json");
  CHECK(carcsolo("compare --placement random --games 10 --out " + out) == 2);
  CHECK(carcsolo("compare --placement random --placement random --scoring random --scoring "
                 "random --scoring random --out " + out) == 2);
  CHECK(carcsolo("compare --placement random --placement nosuch --out " + out) == 2);
  CHECK(carcsolo("compare --scoring random --scoring as-found --until-ci 0 --out " + out) == 2);
  CHECK(carcsolo("sweep --meeples 8..2 --out " + out) == 2);
  CHECK(carcsolo("sweep --meeples 2,2 --out " + out) == 2);
  CHECK(carcsolo("sweep --colors 7 --out " + out) == 2);
  CHECK(carcsolo("sweep --target total_99=0.5 --out " + out) == 2);
  CHECK(carcsolo("sweep --target total_50=1.5 --out " + out) == 2);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("run --log without --log-games logs min(games, 10) games") {
  for (const auto& [games, logged] : {std::pair{5, 5}, std::pair{30, 10}}) {
    const std::string log = scratch().file("few-" + std::to_string(games) + ".jsonl");
    REQUIRE(carcsolo("run --games " + std::to_string(games) + " --threads 1 -q --log " + log) == 0);
    std::ifstream in(log);
    int lines = 0;
    for (std::string line; std::getline(in, line);) lines += !line.empty();
    CHECK(lines == logged);
  }
}

TEST_CASE("run of one game: the summary is the game (result, scores, end, tiles, goals reached)") {
  carc::test::TempDir d;
  const auto r = carc::test::run_carcsolo({"run", "--games", "1", "--first-game", "4", "--seed", "3", "--placement",
                                           "greedy", "--scoring", "best", "--threads", "1", "--log", "g.jsonl"},
                                          d.path());
  REQUIRE(r.status == 0);
  const json log = json::parse(carc::test::read_text(d / "g.jsonl"));
  std::string want = "1 game: result " + std::to_string(log["result"].get<int>()) + "; scores";
  for (std::size_t c = 0; c < log["scores"].size(); ++c)
    want += (c ? ", " : " ") + std::to_string(log["scores"][c].get<int>());
  want += "\n  end: " + log["end"]["reason"].get<std::string>() + "; tiles placed " +
          std::to_string(log["end"]["tiles_placed"].get<int>()) + ", discards " +
          std::to_string(log["end"]["discarded"].get<int>()) + "\n  goals reached (" +
          std::to_string(log["goals"].size()) + " of 14):";
  for (std::size_t g = 0; g < log["goals"].size(); ++g)
    want += (g ? ", " : " ") + log["goals"][g].get<std::string>();
  want += log["goals"].empty() ? " none\n" : "\n";
  CHECK(r.out.find(want) != std::string::npos);
  CHECK(r.out.find("Wilson") == std::string::npos);  // no 14 intervals of one game
  CHECK(r.out.find('[') == std::string::npos);
}

// The number of "speed: N games/s": three significant figures, or a whole number from 1000.
bool speed_is_rounded(const std::string& out) {
  const auto at = out.find("speed: ");
  if (at == std::string::npos) return false;
  const std::string n = out.substr(at + 7, out.find(' ', at + 7) - at - 7);
  const auto dot = n.find('.');
  if (n.empty() || n.find_first_not_of("0123456789.") != std::string::npos) return false;
  if (dot == std::string::npos) return true;
  const std::string digits = n.substr(0, dot) + n.substr(dot + 1);
  return digits.size() - std::min(digits.find_first_not_of('0'), digits.size()) <= 3 && std::stod(n) < 1000;
}

TEST_CASE("summaries: speed rounded, policies as short specs that replay the same game") {
  CHECK(speed_is_rounded("speed: 7.21 games/s"));
  CHECK(speed_is_rounded("speed: 0.0123 games/s"));
  CHECK(speed_is_rounded("speed: 320412 games/s"));
  CHECK_FALSE(speed_is_rounded("speed: 7.20824 games/s"));
  CHECK_FALSE(speed_is_rounded("speed: 1630.5 games/s"));
  carc::test::TempDir d;
  // A spec spelt out in full, defaults included: printed with only what differs from them.
  const std::string full = "mc:rollouts=2,candidates=3,z=1.0,rollout=1";
  auto r = carc::test::run_carcsolo({"run", "--games", "2", "--seed", "6", "--placement", full, "--scoring",
                                     "best:", "--threads", "1", "--log", "g.jsonl"},
                                    d.path());
  CHECK(r.status == 2);  // "best:" is no spec
  r = carc::test::run_carcsolo({"run", "--games", "2", "--seed", "6", "--placement", full, "--scoring", "best",
                                "--threads", "1", "--log", "g.jsonl", "--out", "r.json"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("carcsolo run: mc:rollouts=2 / best, 3 colours x 4 meeples, seed 6\n", 0) == 0);
  CHECK(speed_is_rounded(r.out));
  CHECK(read_json((d / "r.json").string())["config"]["placement_policy"] == "mc:rollouts=2,candidates=3,rollout=1,z=1,head=2");
  const std::string mark = "replay a game: carcsolo ";
  const auto at = r.out.find(mark);
  REQUIRE(at != std::string::npos);
  const std::string line = r.out.substr(at + mark.size(), r.out.find('\n', at) - at - mark.size());
  CHECK(line == "replay --seed 6 --colors 3 --meeples 4 --placement mc:rollouts=2 --scoring best --game 0");
  std::vector<std::string> args;
  std::istringstream words(line);
  for (std::string w; words >> w;) args.push_back(w);
  args.insert(args.end(), {"--out", "one.json"});
  r = carc::test::run_carcsolo(args, d.path());
  REQUIRE(r.status == 0);
  CHECK(r.err == "carcsolo replay: seed 6, game 0, 3 colours x 4 meeples, placement mc:rollouts=2, scoring best\n");
  std::ifstream logged((d / "g.jsonl").string());
  std::string first;
  std::getline(logged, first);
  CHECK(json::parse(first) == read_json((d / "one.json").string()));  // the very game the run logged

  r = carc::test::run_carcsolo({"compare", "--placement", "heuristic", "--placement", "greedy:snug=1", "--scoring",
                                "best", "--games", "30", "--threads", "2"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("  [0] heuristic / best: mean ") != std::string::npos);
  CHECK(r.out.find("  [1] greedy:snug=1 / best: mean ") != std::string::npos);
  CHECK(speed_is_rounded(r.out));
  r = carc::test::run_carcsolo({"sweep", "--meeples", "3", "--colors", "3", "--placement", "heuristic:low=0.6",
                                "--placement", "greedy", "--scoring", "best", "--games", "20", "--threads", "2"},
                               d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("carcsolo sweep: 2 placements / best, seed 1,", 0) == 0);
  CHECK(r.out.find("\nplacement heuristic:low=0.6\n") != std::string::npos);
  CHECK(r.out.find("\nplacement greedy\n") != std::string::npos);
  CHECK(speed_is_rounded(r.out));
}

TEST_CASE("ceiling --log without --log-games logs min(games, 10) games, as its --help and run's say") {
  for (const auto& [games, logged] : {std::pair{3, 3}, std::pair{12, 10}}) {
    const std::string log = scratch().file("ceiling-" + std::to_string(games) + ".jsonl");
    REQUIRE(carcsolo("ceiling --width 2 --games " + std::to_string(games) + " --threads 2 -q --log " + log) == 0);
    std::ifstream in(log);
    int lines = 0;
    for (std::string line; std::getline(in, line);) lines += !line.empty();
    CHECK(lines == logged);
  }
  carc::test::TempDir d;
  const std::string says = "(default: 10, or --games when that is fewer)";
  for (const char* cmd : {"run", "ceiling"}) {
    INFO(cmd);
    const auto r = carc::test::run_carcsolo({cmd, "--help"}, d.path());
    std::string words;  // the help wraps its lines
    std::istringstream in(r.out);
    for (std::string w; in >> w;) words += w + " ";
    CHECK(words.find(says) != std::string::npos);
  }
}
