// Ctrl-C (SIGINT), SIGTERM or SIGHUP during `carcsolo run`, `compare` or `sweep`: the
// workers stop, and the games finished so far are written as a file marked partial,
// covering an exact game range that a fresh run of that range reproduces. `analyse` keeps
// the games analysed so far, `replay --analyse` writes no page, other commands remove
// their temporary files; a later command removes what a SIGKILL left.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/stats/stats.hpp"
#include "tests/process.hpp"

namespace {

using carc::test::TempDir;
using nlohmann::json;

// Everything but what may differ between an interrupted run and a fresh one (the
// command line is in `performance`).
json comparable(json doc) {
  doc.erase("performance");
  doc.erase("partial");
  return doc;
}

// Starts a run far too long to finish, lets it work for about `cpu` seconds of CPU time,
// sends `sig` and returns the exit status. A bound on the wait keeps a broken binary from
// hanging the suite.
int interrupted_run(const TempDir& d, const std::vector<std::string>& args, int sig, double cpu) {
  const pid_t pid = carc::test::spawn_carcsolo(args, d.path(), d / "stdout", d / "stderr");
  for (int i = 0; i < 6000 && carc::test::cpu_seconds(pid) < cpu; ++i) {
    int st = 0;
    if (::waitpid(pid, &st, WNOHANG) == pid) return -1;  // ended on its own: a failure
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(pid, sig);
  return carc::test::wait_status(pid);
}

}  // namespace

TEST_CASE("an interrupted run writes an exact, reproducible partial result") {
  const std::uint64_t requested = 1000000000, first = 1000;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    CAPTURE(sig);
    const std::string threads = sig == SIGINT ? "2" : "1";
    TempDir d;
    const int status = interrupted_run(
        d,
        {"run", "--games", std::to_string(requested), "--first-game", std::to_string(first),
         "--seed", "5", "--colors", "4", "--threads", threads, "-q", "--out", "r.json"},
        sig, 0.5);
    INFO("stderr: " << carc::test::read_text(d / "stderr"));
    CHECK(status == 130);
    // The file and nothing else: no temporary file left behind.
    CHECK(d.listing() == std::set<std::string>{"r.json", "stdout", "stderr"});
    const json doc = json::parse(carc::test::read_text(d / "r.json"));
    CHECK(doc.value("partial", false) == true);
    const std::uint64_t games = doc.at("games").get<std::uint64_t>();
    CHECK(games > 0);
    CHECK(games < requested);
    CHECK(doc.at("config").at("first_game").get<std::uint64_t>() == first);
    CHECK(doc.at("config").at("games").get<std::uint64_t>() == games);
    const auto acc = carc::sim::Accumulator::from_json(doc);
    CHECK(acc.games() == games);

    const auto fresh = carc::test::run_carcsolo(
        {"run", "--games", std::to_string(games), "--first-game", std::to_string(first),
         "--seed", "5", "--colors", "4", "--threads", "1", "-q", "--out", "f.json"},
        d.path());
    REQUIRE(fresh.status == 0);
    const json again = json::parse(carc::test::read_text(d / "f.json"));
    CHECK_FALSE(again.contains("partial"));
    CHECK(carc::sim::Accumulator::from_json(again) == acc);
    CHECK(comparable(again) == comparable(doc));
  }
}

TEST_CASE("an interrupted compare or sweep writes an exact, reproducible partial file") {
  // One scheduler and one interruption path for every command: the file covers a prefix
  // of the range that a fresh command over that range reproduces.
  const std::vector<std::vector<std::string>> commands = {
      {"compare", "--scoring", "as-found", "--scoring", "random", "--seed", "5"},
      {"sweep", "--meeples", "3,5", "--colors", "3", "--seed", "5"}};
  for (const auto& command : commands) {
    CAPTURE(command[0]);
    TempDir d;
    auto args = command;
    args.insert(args.end(), {"--games", "1000000000", "--first-game", "77", "--threads", "2",
                             "-q", "--out", "p.json"});
    CHECK(interrupted_run(d, args, SIGTERM, 0.5) == 130);
    CHECK(d.listing() == std::set<std::string>{"p.json", "stdout", "stderr"});
    const json doc = json::parse(carc::test::read_text(d / "p.json"));
    CHECK(doc.value("partial", false) == true);
    const auto games = doc.at("config").at("games").get<std::uint64_t>();
    CHECK(games >= 2);
    CHECK(doc.at("runs").at(0).at("games") == games);

    args = command;
    args.insert(args.end(), {"--games", std::to_string(games), "--first-game", "77",
                             "--threads", "1", "-q", "--out", "f.json"});
    REQUIRE(carc::test::run_carcsolo(args, d.path()).status == 0);
    json fresh = json::parse(carc::test::read_text(d / "f.json")), partial = doc;
    for (json* j : {&fresh, &partial})
      for (auto& run : (*j)["runs"]) run = comparable(run);
    CHECK(comparable(fresh) == comparable(partial));
  }
}

namespace {

int lines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

// The analysis document without what differs between runs (the program's command line).
json analysis_part(json doc) {
  doc.erase("program");
  doc.erase("partial");
  doc["config"].erase("games_played");
  return doc;
}

}  // namespace

TEST_CASE("an interrupted analyse keeps the games analysed so far, marked partial") {
  TempDir d;
  const std::vector<std::string> base = {"analyse", "--analyser", "heuristic", "--placement", "heuristic", "--scoring", "best", "--seed", "3",
                                         "--rollouts", "8", "--threads", "1", "-q"};
  // Stopped after about four games' worth of CPU time, as measured on this build (a
  // sanitizer build is many times slower): some games whole, not all 20.
  auto one_game = base;
  one_game.insert(one_game.end(), {"--games", "1"});
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(carc::test::run_carcsolo(one_game, d.path()).status == 0);
  const double one = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto args = base;
  args.insert(args.end(), {"--games", "20", "--out", "an.json", "--log", "an.jsonl"});
  const int status = interrupted_run(d, args, SIGINT, std::max(0.2, 4 * one));
  const std::string err = carc::test::read_text(d / "stderr");
  INFO("stderr: " << err);
  CHECK(status == 130);
  CHECK(lines(err) == 1);
  CHECK(err.find("carcsolo analyse: interrupted after ") == 0);
  CHECK(d.listing() == std::set<std::string>{"an.json", "an.jsonl", "stdout", "stderr"});
  const json doc = json::parse(carc::test::read_text(d / "an.json"));
  CHECK(doc.at("partial") == true);
  const std::size_t kept = doc.at("games").size();
  CHECK(kept > 0);
  CHECK(kept < 20);
  CHECK(doc.at("config").at("games_played").at("games") == kept);
  CHECK(doc.at("aggregate").at("games") == kept);
  CHECK(lines(carc::test::read_text(d / "an.jsonl")) == int(kept));
  // Exactly the first `kept` games, as an analysis of that many gives them.
  auto fresh = base;
  fresh.insert(fresh.end(), {"--games", std::to_string(kept), "--out", "f.json"});
  REQUIRE(carc::test::run_carcsolo(fresh, d.path()).status == 0);
  const json again = json::parse(carc::test::read_text(d / "f.json"));
  CHECK_FALSE(again.contains("partial"));
  CHECK(analysis_part(again) == analysis_part(doc));
}

TEST_CASE("an interrupted analyse of a log file keeps whole games, SIGHUP stops it too") {
  TempDir d;
  REQUIRE(carc::test::run_carcsolo({"run", "--games", "20", "--seed", "4", "--placement", "heuristic", "--scoring",
                                    "best", "-q", "--log", "g.jsonl", "--log-games", "20"}, d.path()).status == 0);
  // Stopped after about four games' worth of CPU time, as measured on this build (a
  // sanitizer build is many times slower): some games whole, not all 20.
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(carc::test::run_carcsolo({"analyse", "g.jsonl", "--analyser", "heuristic", "--rollouts", "8", "--threads", "1",
                                    "-q", "--games", "1"}, d.path()).status == 0);
  const double one = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int status =
      interrupted_run(d, {"analyse", "g.jsonl", "--analyser", "heuristic", "--rollouts", "8", "--threads", "2", "-q", "--out", "a.json"},
                      SIGHUP, std::max(0.2, 4 * one));
  const std::string err = carc::test::read_text(d / "stderr");
  INFO("stderr: " << err);
  CHECK(status == 130);
  CHECK(lines(err) == 1);
  CHECK(d.listing() == std::set<std::string>{"a.json", "g.jsonl", "stdout", "stderr"});
  const json doc = json::parse(carc::test::read_text(d / "a.json"));
  CHECK(doc.at("partial") == true);
  const std::size_t kept = doc.at("games").size();
  CHECK(kept > 0);
  CHECK(kept < 20);
  REQUIRE(carc::test::run_carcsolo({"analyse", "g.jsonl", "--analyser", "heuristic", "--rollouts", "8", "--threads", "1", "-q", "--games", std::to_string(kept),
                                    "--out", "f.json"}, d.path()).status == 0);
  CHECK(analysis_part(json::parse(carc::test::read_text(d / "f.json"))) == analysis_part(doc));
}

TEST_CASE("an interrupted replay --analyse writes no page and leaves no temporary file") {
  TempDir d;
  // 12 meeples: the game lasts until the tiles run out, so its analysis takes some seconds
  const int status = interrupted_run(d, {"replay", "--seed", "2", "--game", "1", "--placement", "heuristic",
                                         "--meeples", "12", "--analyse", "--html", "p.html", "--svg", "b.svg", "-q"},
                                     SIGINT, 0.3);
  const std::string err = carc::test::read_text(d / "stderr");
  INFO("stderr: " << err);
  CHECK(status == 130);
  CHECK(lines(err) == 1);
  CHECK(err.find("p.html not written") != std::string::npos);
  // the board picture is done work: kept
  CHECK(d.listing() == std::set<std::string>{"b.svg", "stdout", "stderr"});
}

TEST_CASE("a command without partial results removes its temporary file when interrupted") {
  TempDir d;
  const int status = interrupted_run(d, {"bench", "--json", "b.json"}, SIGTERM, 0.5);
  const std::string err = carc::test::read_text(d / "stderr");
  INFO("stderr: " << err);
  CHECK(status == 130);
  CHECK(err == "carcsolo bench: interrupted; not written: b.json\n");
  CHECK(d.listing() == std::set<std::string>{"stdout", "stderr"});
}

TEST_CASE("a SIGHUP ignored from the start (nohup) does not stop a run") {
  TempDir d;
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGHUP, &ignore, &old);
  const pid_t pid = carc::test::spawn_carcsolo({"run", "--games", "1000000000", "--threads", "1", "-q", "--out", "r.json"},
                                               d.path(), d / "stdout", d / "stderr");
  ::sigaction(SIGHUP, &old, nullptr);
  for (int i = 0; i < 3000 && carc::test::cpu_seconds(pid) < 0.3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGHUP);
  const double at_hangup = carc::test::cpu_seconds(pid);
  for (int i = 0; i < 3000 && carc::test::cpu_seconds(pid) < at_hangup + 0.3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  int st = 0;
  CHECK(::waitpid(pid, &st, WNOHANG) == 0);  // still running
  ::kill(pid, SIGINT);
  CHECK(carc::test::wait_status(pid) == 130);
  CHECK(json::parse(carc::test::read_text(d / "r.json")).at("partial") == true);
}

TEST_CASE("the temporary files a killed process left of the same output are removed by the next") {
  TempDir d;
  // A process id that names no process: a child that has ended and been waited for.
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  REQUIRE(dead > 0);
  carc::test::wait_status(dead);
  const std::string gone = std::to_string(dead), alive = std::to_string(::getpid());
  for (const std::string& name : {"r.json.tmp." + gone, "r.json.tmp." + alive, "r.json.tmp.x" + gone,
                                 "other.json.tmp." + gone, "r.json.tmp." + gone + ".bak"})
    carc::test::write_text(d / name, "stale");
  REQUIRE(carc::test::run_carcsolo({"run", "--games", "3", "-q", "--out", "r.json"}, d.path()).status == 0);
  // Only r.json's own pattern, and only for a process that is gone.
  CHECK(d.listing() == std::set<std::string>{"r.json", "r.json.tmp." + alive, "r.json.tmp.x" + gone,
                                             "other.json.tmp." + gone, "r.json.tmp." + gone + ".bak"});
}
