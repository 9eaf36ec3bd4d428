// Bad input at the command line (house style 10): every row runs the built binary in a
// directory of its own and expects exit status 2, exactly one line on stderr naming the
// option (or file) at fault, nothing on stdout, and no file created or left behind.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/process.hpp"

namespace {

using carc::test::run_carcsolo;
using carc::test::TempDir;

struct BadCall {
  std::vector<std::string> args;
  std::string names;  // must appear in the error line
};

// Files every row finds in its directory.
void lay_fixtures(const TempDir& d, const TempDir& shared) {
  carc::test::fs::create_directory(d / "adir");
  carc::test::write_text(d / "afile", "plain text\n");
  carc::test::write_text(d / "bad.json", "{ \"format\": \n");
  carc::test::write_text(d / "other.json", "{\"format\": \"something-else/1\"}\n");
  carc::test::write_text(d / "empty.jsonl", "");
  for (const char* f : {"r1.json", "r2.json", "r1b.json", "log.jsonl", "deal.txt", "illegal.jsonl"})
    carc::test::fs::copy_file(shared / f, d / f);
}

const std::vector<BadCall>& bad_calls() {
  static const std::vector<BadCall> rows = {
      // the command itself
      {{}, "command"},
      {{"nosuch"}, "nosuch"},
      // run: numbers
      {{"run", "--games", "0"}, "--games"},
      {{"run", "--placement", "heuristic:absorb=1,absorb=2"}, "parameter 'absorb' given twice"},
      {{"run", "--placement", "heuristic:"}, "nothing after ':'"},
      {{"run", "--placement", "mc:rollouts=2,"}, "nothing after the last ','"},
      {{"ceiling", "--width", "0"}, "--width"},
      {{"ceiling", "--width", "5000"}, "--width"},
      {{"ceiling", "--against", "nosuch"}, "--against"},
      {{"ceiling", "--log-games", "3"}, "--log-games"},
      {{"run", "--games", "abc"}, "--games"},
      {{"run", "--games", "-1"}, "--games"},
      {{"run", "--games", "1e3"}, "--games"},
      {{"run", "--games", "12x"}, "--games"},
      {{"run", "--games", " 5"}, "--games"},
      {{"run", "--games", "99999999999999999999999"}, "--games"},
      {{"run", "--games", ""}, "--games"},
      {{"run", "--games"}, "--games"},
      {{"run", "--games", "5", "--games", "6"}, "--games"},
      {{"run", "--first-game", "-1"}, "--first-game"},
      {{"run", "--first-game", "x"}, "--first-game"},
      // a range must end at a game index replay takes (at most 2^63 - 1)
      {{"run", "--first-game", "9223372036854775807", "--games", "2"},
       "--first-game 9223372036854775807 with --games 2: the games must end at index 9223372036854775807"},
      {{"run", "--first-game", "9223372036854775808", "--games", "1"}, "--first-game"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--first-game", "9223372036854775000",
        "--games", "1000"}, "the games must end at index 9223372036854775807"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--first-game", "9223372036854775000",
        "--until-ci", "1", "--games", "100", "--max-games", "1000"}, "the games must end at index"},
      {{"sweep", "--first-game", "9223372036854775800", "--games", "10"}, "the games must end at index"},
      {{"positions", "--first-game", "9223372036854775807", "--games", "2", "--out", "p.bin"},
       "the games must end at index"},
      {{"analyse", "--placement", "greedy", "--first-game", "9223372036854775807", "--games", "2"}, "the games must end at index"},
      {{"run", "--colors", "1"}, "--colors"},
      {{"run", "--colors", "7"}, "--colors"},
      {{"run", "--colors", "three"}, "--colors"},
      {{"run", "--meeples", "0"}, "--meeples"},
      {{"run", "--meeples", "13"}, "--meeples"},
      {{"run", "--seed", "-1"}, "--seed"},
      {{"run", "--seed", "1.5"}, "--seed"},
      {{"run", "--seed", "18446744073709551616"}, "--seed"},
      {{"run", "--threads", "0"}, "--threads"},
      {{"run", "--threads", "1025"}, "--threads"},
      // 0 is outside what the message allows (above 0), and the bounds are written plainly.
      {{"run", "--until-ci", "0"}, "--until-ci must be a number above 0, at most 1000000000 (got '0')"},
      {{"run", "--until-ci", "nan"}, "--until-ci"},
      {{"run", "--until-ci", "-1"}, "--until-ci"},
      // run: policies and their parameters
      {{"run", "--placement", "nosuch"}, "placement"},
      {{"run", "--placement", "RANDOM"}, "placement"},
      {{"run", "--placement", "random:depth=3"}, "placement"},
      {{"run", "--placement", "random:depth"}, "placement"},
      {{"run", "--placement", ":x=1"}, "placement"},
      {{"run", "--placement", "mc:rollouts=abc"}, "placement"},
      {{"run", "--placement", "mc:rollouts=-5"}, "placement"},
      {{"run", "--placement", "mc:rollout=1.5"}, "placement"},
      {{"run", "--placement", "mc:rollouts=inf"}, "placement"},
      {{"run", "--scoring", "nosuch"}, "scoring"},
      {{"run", "--scoring", "as-found:x=1"}, "scoring"},
      {{"run", "--scoring", ""}, "scoring"},
      // run: logs, output paths, conflicts
      {{"run", "--games", "10", "--log-games", "5"}, "--log-games"},
      {{"run", "--games", "10", "--log", "l.jsonl", "--log-games", "0"}, "--log-games"},
      {{"run", "--games", "3", "--log", "l.jsonl", "--log-games", "5"}, "--log-games"},
      // run --deal and --per-game (afile: one line, not a deal)
      {{"run", "--deal", "nosuch.txt"}, "--deal"},
      {{"run", "--deal", "afile"}, "--deal"},
      {{"run", "--deal", "adir"}, "--deal"},
      {{"run", "--games", "3", "--per-game", "adir/x/y.csv"}, "--per-game"},
      {{"run", "--games", "3", "--per-game", "o.csv", "--out", "o.csv"}, "--per-game"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--games", "3",
        "--per-game", "o.csv", "--out", "o.csv"}, "--per-game"},
      {{"sweep", "--games", "3", "--per-game", "adir/x/y.csv"}, "--per-game"},
      {{"run", "--games", "10", "--out", "nodir/r.json"}, "--out"},
      {{"run", "--games", "10", "--out", "afile/r.json"}, "--out"},
      {{"run", "--games", "10", "--out", "adir"}, "--out"},
      {{"run", "--games", "10", "--out", ""}, "--out"},
      {{"run", "--games", "10", "--log", "nodir/l.jsonl"}, "--log"},
      {{"run", "--games", "10", "--out", "r.json", "--log", "nodir/l.jsonl"}, "--log"},
      {{"run", "--games", "10", "--out", "x.json", "--log", "./x.json"}, "--out"},
      {{"run", "--bogus"}, "--bogus"},
      {{"run", "stray"}, "stray"},
      {{"run", "-q", "-q"}, "quiet"},
      // replay
      {{"replay", "--game", "x"}, "--game"},
      {{"replay", "--game", "-1"}, "--game"},
      {{"replay", "--colors", "9"}, "--colors"},
      {{"replay", "--placement", "nosuch"}, "placement"},
      {{"replay", "--out", "nodir/g.json"}, "--out"},
      {{"replay", "--out", "adir"}, "--out"},
      {{"replay", "17"}, "17"},
      // replay --deal (afile: one line, not a deal; deal.txt: a deal of three colours)
      {{"replay", "--deal", "nosuch.txt"}, "--deal"},
      {{"replay", "--deal", "afile"}, "--deal"},
      {{"replay", "--deal", "adir"}, "--deal"},
      {{"replay", "--deal", "deal.txt", "--colors", "4"}, "3 stacks but --colors is 4"},
      {{"replay", "--deal", "deal.txt", "--from", "log.jsonl"}, "--deal and --from"},
      {{"replay", "--deal", "deal.txt", "--out", "adir"}, "--out"},
      // policies
      {{"policies", "x"}, "x"},
      // verify
      {{"verify"}, "log file"},
      {{"verify", "nofile.jsonl"}, "nofile.jsonl"},
      {{"verify", "adir"}, "adir"},
      {{"verify", "bad.json"}, "bad.json"},
      {{"verify", "other.json"}, "other.json"},
      {{"verify", "empty.jsonl"}, "empty.jsonl"},
      {{"verify", "r1.json"}, "r1.json"},
      {{"verify", "log.jsonl", "nofile.jsonl"}, "nofile.jsonl"},
      {{"verify", "--bogus", "log.jsonl"}, "--bogus"},
      // analyse
      {{"analyse"}, "log file"},
      {{"analyse", "nofile.jsonl"}, "nofile.jsonl"},
      {{"analyse", "adir"}, "adir"},
      {{"analyse", "bad.json"}, "bad.json:1: not JSON"},
      {{"analyse", "other.json"}, "not a game log"},
      {{"analyse", "r1.json"}, "not a game log"},
      {{"analyse", "empty.jsonl"}, "empty.jsonl"},
      {{"analyse", "illegal.jsonl"}, "illegal.jsonl:1: game 0 (seed 1): not a consistent game log: turn 0"},
      {{"analyse", "illegal.jsonl", "--out", "a.json"}, "x/y/rot"},
      {{"analyse", "log.jsonl", "--game", "3"}, "--game 3"},
      {{"analyse", "log.jsonl", "--game", "0", "--games", "1"}, "--games and --game"},
      {{"analyse", "log.jsonl", "--games", "0"}, "--games"},
      {{"analyse", "log.jsonl", "--rollouts", "0"}, "--rollouts"},
      {{"analyse", "log.jsonl", "--candidates", "x"}, "--candidates"},
      // search values by its own search: the rollout analysis' options are refused with it
      {{"analyse", "log.jsonl", "--rollouts", "8"}, "--rollouts is for a rollout analyser"},
      {{"analyse", "log.jsonl", "--analyser", "search:rollouts=4", "--candidates", "3"}, "--candidates is for a rollout analyser"},
      {{"analyse", "log.jsonl", "--analyser", "heuristic", "--rollouts", "0"}, "--rollouts must be"},
      {{"analyse", "log.jsonl", "--analyser", "heuristic", "--heldout", "8"}, "--heldout is for a search analyser"},
      {{"analyse", "log.jsonl", "--heldout", "x"}, "--heldout must be"},
      {{"advise", "--rollouts", "8"}, "--rollouts is for a rollout analyser"},
      {{"advise", "--analyser", "search", "--candidates", "2"}, "--candidates is for a rollout analyser"},
      {{"analyse", "log.jsonl", "--threads", "0"}, "--threads"},
      {{"analyse", "log.jsonl", "--placement", "nosuch"}, "placement"},
      {{"analyse", "log.jsonl", "--scoring", "nosuch"}, "scoring"},
      {{"analyse", "log.jsonl", "log.jsonl"}, "log.jsonl"},
      // merge
      {{"merge"}, "input"},
      {{"merge", "nofile.json"}, "nofile.json"},
      {{"merge", "adir"}, "adir"},
      {{"merge", "bad.json"}, "bad.json"},
      {{"merge", "other.json"}, "other.json"},
      {{"merge", "log.jsonl"},
       "log.jsonl is a game log (carcassonne-solo-log/1), not a results file; merge joins results"},
      {{"merge", "r1.json", "r2.json"}, "seed"},
      {{"merge", "r1.json", "r1b.json"}, "overlaps"},
      {{"merge", "r1.json", "--out", "nodir/m.json"}, "--out"},
      {{"merge", "r1.json", "--out", "adir"}, "--out"},
      {{"merge", "r1.json", "--bogus"}, "--bogus"},
      // compare
      {{"compare", "--placement", "random"}, "--placement"},
      {{"compare", "--placement", "random", "--placement", "nosuch"}, "placement"},
      {{"compare", "--placement", "random", "--placement", "mc:rollout=7"}, "placement"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--games", "1"}, "--games"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--threads", "0"}, "--threads"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--until-ci", "x"}, "--until-ci"},
      {{"compare", "--scoring", "best", "--scoring", "random", "--max-games", "5000"},
       "--max-games is --until-ci's cap: give --until-ci too, or --games N alone (got --max-games 5000)"},
      {{"compare", "--scoring", "best", "--scoring", "random", "--until-ci", "road_10=-1%"}, "--until-ci road_10=W"},
      // --until-ci's goal rules, in all three commands
      {{"run", "--until-ci", "total_60=0"},
       "--until-ci total_60=W: W must be a proportion above 0, at most 1 (0.01 is ± 1 percentage point), or a "
       "percentage such as 1% (got 'total_60=0')"},
      {{"run", "--until-ci", "total_60=2"}, "(got 'total_60=2')"},
      {{"run", "--until-ci", "total_60=101%"}, "(got 'total_60=101%')"},
      {{"run", "--until-ci", "total_60="}, "--until-ci total_60=W"},
      {{"run", "--until-ci", "total_70=0.01"}, "--until-ci: unknown goal 'total_70'"},
      {{"run", "--until-ci", "1%"}, "--until-ci: the mean's half-width is in points, not a percentage"},
      {{"run", "--until-ci", "mean=0"}, "--until-ci must be a number above 0"},
      {{"run", "--until-ci", "total_60=0.01", "--until-ci", "total_60=1%"}, "--until-ci names total_60 twice"},
      {{"run", "--until-ci", "0.5", "--until-ci", "mean=0.2"}, "--until-ci names mean twice"},
      {{"sweep", "--until-ci", "x"}, "--until-ci"},
      {{"sweep", "--until-ci", "all_tiles=1.5"}, "--until-ci all_tiles=W"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--out", "nodir/c.json"}, "--out"},
      {{"compare", "stray"}, "stray"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--pairs", "some"}, "--pairs must be first or all"},
      // an error rate excludes both ends
      {{"compare", "--placement", "random", "--placement", "greedy", "--sprt", "0,1", "--sprt-alpha", "1"},
       "--sprt-alpha must be a number above 0 and below 1 (got '1')"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--sprt", "0,1", "--sprt-beta", "2"},
       "--sprt-beta must be a number above 0 and below 1 (got '2')"},
      {{"compare", "--placement", "random", "--placement", "greedy", "--sprt", "0,1", "--sprt-alpha", "0.6",
        "--sprt-beta", "0.5"}, "add up to less than 1"},
      // sweep
      {{"sweep", "--meeples", "0..3"}, "--meeples"},
      {{"sweep", "--meeples", "5..2"}, "--meeples"},
      {{"sweep", "--meeples", "3,3"}, "--meeples"},
      {{"sweep", "--colors", "7"}, "--colors"},
      {{"sweep", "--target", "nosuch=1"}, "--target"},
      {{"sweep", "--target", "mean=x"}, "--target"},
      {{"sweep", "--target", "total_50=2"}, "--target total_50=VALUE: a goal rate must be a number from 0 to 1 (got 'total_50=2')"},
      {{"sweep", "--target", "mean=-1"}, "--target mean=VALUE: a mean result must be a number from 0 to"},
      {{"bench", "--seconds", "0.001"}, "--seconds must be a number from 0.01 to 3600 (got '0.001')"},
      {{"sweep", "--games", "0"}, "--games"},
      {{"sweep", "--placement", "mc:rollout=7"}, "placement"},
      {{"sweep", "--out", "nodir/s.json"}, "--out"},
      // bench
      {{"bench", "--reps", "0"}, "--reps"},
      {{"bench", "--seconds", "0"}, "--seconds"},
      {{"bench", "--only", "x"}, "--only"},
      {{"bench", "--tileset", "nosuch"}, "--tileset"},
      {{"advise", "--tileset", "nosuch"}, "--tileset"},
      {{"serve", "--tileset", "nosuch"}, "--tileset"},
      {{"bench", "--placement", "nosuch"}, "placement"},
      {{"bench", "--placement", "mc:rollout=7"}, "placement"},
      {{"bench", "--json", "nodir/b.json"}, "--json"},
      {{"bench", "--markdown", "adir"}, "--markdown"},
      // tune
      {{"tune"}, "--param"},
      {{"tune", "--param", "nosuch=0..1"}, "no parameter 'nosuch'"},
      {{"tune", "--param", "absorb=5..1"}, "--param absorb=5..1"},
      {{"tune", "--param", "absorb=0..5"}, "outside the range"},
      {{"tune", "--param", "absorb"}, "KEY=LO..HI"},
      {{"tune", "--placement", "random", "--param", "x=0..1"}, "parameters: none"},
      {{"tune", "--placement", "search", "--param", "turns=1.5..8"}, "whole"},
      {{"tune", "--placement", "nosuch", "--param", "x=0..1"}, "unknown placement policy 'nosuch'"},
      {{"tune", "--param", "absorb=0..20", "--budget", "x"}, "--budget"},
      {{"tune", "--param", "absorb=0..20", "--budget", "4000"}, "--budget 4000 leaves no games"},
      {{"tune", "--param", "absorb=0..20", "--batch", "0"}, "--batch"},
      {{"tune", "--param", "absorb=0..20", "--verify-seed", "1"}, "--verify-seed must differ from --seed"},
      {{"tune", "--param", "absorb=0..20", "--verify-games", "1"}, "--verify-games"},
      {{"tune", "--param", "absorb=0..20", "--c-end", "0"}, "--c-end"},
      {{"tune", "--param", "absorb=0..20", "--r-end", "-1"}, "--r-end"},
      {{"tune", "--param", "absorb=0..20", "--method", "cma"}, "--method"},
      {{"tune", "--param", "absorb=0..20", "--threads", "0"}, "--threads"},
      {{"tune", "--param", "absorb=0..20", "--out", "nodir/t.json"}, "--out"},
      {{"tune", "--param", "absorb=0..20", "stray"}, "stray"},
  };
  return rows;
}

std::string command_line(const std::vector<std::string>& args) {
  std::string s = "carcsolo";
  for (const auto& a : args) s += " '" + a + "'";
  return s;
}

// The call is refused: exit 2, nothing on stdout, one line on stderr naming the fault, and
// no file created in its directory.
void check_refused(const BadCall& row, const TempDir& d) {
  const auto before = d.listing();
  const auto r = run_carcsolo(row.args, d.path());
  INFO(command_line(row.args));
  INFO("stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK((!r.err.empty() && r.err.back() == '\n'));
  CHECK(r.err.find(row.names) != std::string::npos);
  CHECK(d.listing() == before);
}

}  // namespace

TEST_CASE("every bad invocation: exit 2, one line naming the option, no file written") {
  TempDir shared;  // files that some rows need: results files and a game log
  const auto made = [&](const std::vector<std::string>& args) {
    REQUIRE(run_carcsolo(args, shared.path()).status == 0);
  };
  made({"run", "--games", "40", "--seed", "1", "--threads", "1", "-q", "--out", "r1.json",
        "--log", "log.jsonl", "--log-games", "3"});
  made({"run", "--games", "40", "--seed", "2", "--threads", "1", "-q", "--out", "r2.json"});
  made({"run", "--games", "40", "--seed", "1", "--first-game", "20", "--threads", "1", "-q",
        "--out", "r1b.json"});
  {  // a deal file: the stacks of the first logged game, one line per colour
    std::ifstream logged((shared / "log.jsonl").string());
    std::string first;
    std::getline(logged, first);
    const nlohmann::json log = nlohmann::json::parse(first);
    std::string deal;
    for (const auto& stack : log["stacks"]) {
      for (const auto& tile : stack) deal += tile.get<std::string>();
      deal += "\n";
    }
    carc::test::write_text(shared / "deal.txt", deal);
    made({"replay", "--deal", "deal.txt", "-q", "--out", "deal-game.json"});
    // an illegal move: the first tile placed far from the start tile
    nlohmann::json illegal = log;
    for (auto& t : illegal["turns"])
      if (!t["discarded"].get<bool>()) {
        t["x"] = 40;
        break;
      }
    carc::test::write_text(shared / "illegal.jsonl", illegal.dump() + "\n");
  }

  for (const auto& row : bad_calls()) {
    TempDir d;
    lay_fixtures(d, shared);
    check_refused(row, d);
  }
}

TEST_CASE("a deal that does not match the game's set: exit 2, one line naming what is wrong") {
  TempDir d;
  const std::vector<std::string> river_game = {"--tileset", "base+inns+river", "--large-meeple"};
  const auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  REQUIRE(run_carcsolo(with({"run", "--games", "1", "--threads", "1", "-q", "--log", "river.jsonl"}, river_game),
                       d.path()).status == 0);
  const nlohmann::json log = nlohmann::json::parse(carc::test::read_text(d / "river.jsonl"));
  std::vector<std::vector<std::string>> stacks;
  for (const auto& st : log["stacks"]) stacks.push_back(st.get<std::vector<std::string>>());
  const auto river = log["river_stack"].get<std::vector<std::string>>();
  REQUIRE(river.size() == 11);
  REQUIRE(river.back() == "R9");
  const auto write = [&](const std::string& name, const std::vector<std::vector<std::string>>& st,
                         const std::vector<std::string>* r) {
    std::string text;
    for (const auto& s : st) {
      for (const auto& t : s) text += t + " ";
      text += "\n";
    }
    if (r) {
      text += "river";
      for (const auto& t : *r) text += " " + t;
      text += "\n";
    }
    carc::test::write_text(d / name, text);
  };
  write("good.txt", stacks, &river);
  REQUIRE(run_carcsolo(with({"replay", "--deal", "good.txt", "-q", "--out", "good.json"}, river_game), d.path())
              .status == 0);
  auto swapped = stacks;  // a river tile in colour 1's stack, its land tile in the river
  auto swapped_river = river;
  std::swap(swapped[1][0], swapped_river[0]);
  write("swapped.txt", swapped, &swapped_river);
  auto lake = river;  // the lake first
  std::swap(lake.front(), lake.back());
  write("lake.txt", stacks, &lake);
  write("noriver.txt", stacks, nullptr);
  auto sizes = stacks;  // a tile moved from colour 0's stack to colour 2's
  sizes[2].push_back(sizes[0].back());
  sizes[0].pop_back();
  write("sizes.txt", sizes, &river);
  auto stranger = stacks;  // a name of no set
  stranger[0][3] = "Q7";
  write("stranger.txt", stranger, &river);
  REQUIRE(run_carcsolo({"run", "--games", "1", "--threads", "1", "-q", "--log", "base.jsonl"}, d.path()).status == 0);
  std::vector<std::vector<std::string>> base_stacks;  // a base deal with an I&C tile in it
  const nlohmann::json base_log = nlohmann::json::parse(carc::test::read_text(d / "base.jsonl"));
  for (const auto& st : base_log["stacks"]) base_stacks.push_back(st.get<std::vector<std::string>>());
  base_stacks[2][0] = "I1";
  write("inns_in_base.txt", base_stacks, nullptr);

  const std::vector<BadCall> rows = {
      {with({"run", "--deal", "swapped.txt"}, river_game), "--deal swapped.txt: stack 1: " + river[0] + " is a river tile"},
      {with({"run", "--deal", "lake.txt"}, river_game), "--deal lake.txt: river stack: the lake R9 must be its last tile"},
      {with({"run", "--deal", "noriver.txt"}, river_game), "--deal noriver.txt: no river line"},
      {with({"run", "--deal", "sizes.txt"}, river_game), "--deal sizes.txt: stack 0 must hold 30 tiles with 3 colours (got 29)"},
      {with({"run", "--deal", "stranger.txt"}, river_game), "--deal stranger.txt: stack 0: 'Q7' is no tile name"},
      {{"run", "--deal", "inns_in_base.txt"}, "--deal inns_in_base.txt: stack 2: I1 is not in this game's tile set"},
      // the deal read with another set than its own
      {{"run", "--deal", "good.txt"}, "--deal good.txt: a river line, but this game's tile set has no river"},
      {{"run", "--deal", "noriver.txt"}, "--deal noriver.txt: stack 0 must hold 24 tiles with 3 colours (got 30)"},
      {{"run", "--deal", "good.txt", "--tileset", "base+inns"}, "--deal good.txt: a river line, but this game's tile set has no river"},
      {{"run", "--deal", "good.txt", "--tileset", "nosuch"}, "--tileset"},
      {with({"run", "--deal", "good.txt", "--colors", "4"}, river_game), "--deal good.txt has 3 stacks but --colors is 4"},
      {with({"replay", "--deal", "swapped.txt"}, river_game), "--deal swapped.txt: stack 1: " + river[0] + " is a river tile"},
      {with({"replay", "--deal", "lake.txt"}, river_game), "the lake R9 must be its last tile"},
      {with({"replay", "--deal", "noriver.txt"}, river_game), "no river line"},
      {with({"replay", "--deal", "sizes.txt"}, river_game), "stack 0 must hold 30 tiles"},
      {{"replay", "--deal", "good.txt", "--tileset", "base+river"}, "stack 0 must hold 24 tiles with 3 colours (got 30)"},
  };
  for (const auto& row : rows) check_refused(row, d);
}

TEST_CASE("an output directory that cannot be written: exit 2, nothing left") {
  // A regular file where the directory should be: no one, root included, can write there.
  TempDir d;
  carc::test::write_text(d / "plain", "a file, not a directory\n");
  auto r = run_carcsolo({"run", "--games", "10", "--out", "plain/r.json"}, d.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("--out") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(carc::test::read_text(d / "plain") == "a file, not a directory\n");
  CHECK(d.listing() == std::set<std::string>{"plain"});
  // A directory without write permission stops everyone but root (who writes anywhere).
  carc::test::fs::create_directory(d / "ro");
  carc::test::fs::permissions(d / "ro", carc::test::fs::perms::owner_read |
                                            carc::test::fs::perms::owner_exec);
  if (::geteuid() != 0) {
    r = run_carcsolo({"run", "--games", "10", "--out", "ro/r.json"}, d.path());
    CHECK(r.status == 2);
    CHECK(r.err.find("--out") != std::string::npos);
    CHECK(carc::test::fs::is_empty(d / "ro"));
  }
}

TEST_CASE("--help: every command has a usage line, no internal option names, --version listed") {
  TempDir d;
  auto r = run_carcsolo({"--help"}, d.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("carcsolo --version") != std::string::npos);
  r = run_carcsolo({"--version"}, d.path());
  CHECK(r.status == 0);
  CHECK(r.out.rfind("carcsolo ", 0) == 0);
  r = run_carcsolo({"policies", "--help"}, d.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("usage: carcsolo policies") != std::string::npos);
  r = run_carcsolo({"merge", "--help"}, d.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("usage: carcsolo merge FILE...") != std::string::npos);
  CHECK(r.out.find("--input") == std::string::npos);
  r = run_carcsolo({"replay", "--help"}, d.path());
  CHECK(r.out.find("-q [ --quiet ]") != std::string::npos);
  // --games: the defaults differ, and the help says why.
  for (const char* cmd : {"run", "compare", "sweep"}) {
    r = run_carcsolo({cmd, "--help"}, d.path());
    INFO(cmd);
    CHECK(r.out.find("once per") != std::string::npos);
    // --threads says what its default becomes under mpirun (the help wraps its lines).
    std::string words;
    std::istringstream in(r.out);
    for (std::string w; in >> w;) words += w + " ";
    CHECK(words.find("(default: all cores; under mpirun the cores mpirun lets a process use, often 1") !=
          std::string::npos);
  }
}
