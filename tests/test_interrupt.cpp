// Ctrl-C (SIGINT) or SIGTERM during `carcsolo run`, `compare` or `sweep`: the workers
// stop, and the games finished so far are written as a file marked partial, covering an
// exact game range that a fresh run of that range reproduces.
#include <doctest/doctest.h>

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
  for (const int sig : {SIGINT, SIGTERM}) {
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
