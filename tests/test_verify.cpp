// sim/verify and `carcsolo verify`: logs the engine writes replay clean; a log changed in
// one place is reported at the turn and field changed.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/stepper.hpp"
#include "sim/log/verify.hpp"
#include "tests/process.hpp"

namespace {

using carc::sim::verify_game_log;
using nlohmann::json;

json logged(int colors, int meeples, std::uint64_t game, const std::string& placement = "random",
            const std::string& scoring = "random") {
  auto p = carc::make_placement_policy(placement);
  auto s = carc::make_scoring_policy(scoring);
  return carc::sim::play_logged_game({{colors, meeples}, 11, game}, *p, *s, placement, scoring);
}

// The index of the first turn entry from `from` on that `pred` accepts.
template <class Pred>
std::size_t find_turn(const json& log, std::size_t from, Pred pred) {
  const json& turns = log.at("turns");
  for (std::size_t i = from; i < turns.size(); ++i)
    if (pred(turns[i])) return i;
  FAIL("no suitable turn in the log");
  return 0;
}

bool placed(const json& t) { return !t.at("discarded").get<bool>(); }

// A game long enough to have scored features and meeples in the final scoring.
json rich_log() {
  for (std::uint64_t g = 0;; ++g) {
    json log = logged(3, 7, g);
    int scored = 0;
    for (const auto& t : log.at("turns")) scored += placed(t) && !t.at("scored").empty();
    if (scored >= 3 && log.at("turns").size() > 30 && !log.at("final_scoring").empty()) return log;
  }
}

}  // namespace

TEST_CASE("verify: the engine's own logs replay without an inconsistency") {
  int games = 0;
  for (const auto& p : carc::placement_policies()) {
    // Look-ahead: slow, and its logs are like any other's.
    if (p.name == "mc" || p.name == "search") continue;
    for (const auto& s : carc::scoring_policies())
      for (std::uint64_t g = 0; g < 2; ++g) {
        const int colors = 2 + int((g + p.name.size() + s.name.size()) % 5);
        const json log = logged(colors, 1 + int(g * 5 + s.name.size()) % 12, g, p.name, s.name);
        const auto r = verify_game_log(log);
        CHECK_MESSAGE(!r, p.name << " / " << s.name << ": " << (r ? r->message() : ""));
        ++games;
      }
  }
  CHECK(games >= 4);
}

TEST_CASE("verify: a changed log is reported at the turn and field changed") {
  const json good = rich_log();
  REQUIRE_FALSE(verify_game_log(good));
  const auto turn_of = [&](std::size_t i) { return good.at("turns")[i].at("turn").get<int>(); };

  SUBCASE("a score") {
    json log = good;
    const std::size_t i = find_turn(log, 10, placed);
    log["turns"][i]["scores"][1] = log["turns"][i]["scores"][1].get<int>() + 1;
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->turn == turn_of(i));
    CHECK(r->field == "scores");
  }
  SUBCASE("an illegal placement") {
    json log = good;
    const std::size_t i = find_turn(log, 12, placed);
    log["turns"][i]["x"] = log["turns"][i]["x"].get<int>() + 40;
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->turn == turn_of(i));
    CHECK(r->field == "x/y/rot");
  }
  SUBCASE("a wrong free list") {
    json log = good;
    const std::size_t i = find_turn(log, 5, [](const json& t) { return placed(t) && !t.at("free").empty(); });
    log["turns"][i]["free"].erase(0);
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->turn == turn_of(i));
    CHECK(r->field == "free");
  }
  SUBCASE("a scored feature's points") {
    json log = good;
    const std::size_t i = find_turn(log, 0, [](const json& t) { return placed(t) && !t.at("scored").empty(); });
    log["turns"][i]["scored"][0]["points"] = log["turns"][i]["scored"][0]["points"].get<int>() + 2;
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->turn == turn_of(i));
    CHECK(r->field == "scored[0].points");
  }
  SUBCASE("a meeple on a segment that is not free") {
    json log = good;
    const std::size_t i = find_turn(log, 0, [](const json& t) { return placed(t) && t.at("meeple").is_string(); });
    log["turns"][i]["meeple"] = "road:N,E,S,W";  // no tile has such a segment
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->turn == turn_of(i));
    CHECK(r->field == "meeple");
  }
  SUBCASE("a drawn tile") {
    json log = good;
    std::size_t j = 0;  // a tile of stack 1 that differs from stack 0's first
    while (log["stacks"][1][j] == log["stacks"][0][0]) ++j;
    std::swap(log["stacks"][0][0], log["stacks"][1][j]);
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->turn == 0);
    CHECK(r->field == "tile");
  }
  SUBCASE("turns cut short") {
    json log = good;
    log["turns"].erase(log["turns"].size() - 1);
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->field == "turns");
  }
  SUBCASE("the result") {
    json log = good;
    log["result"] = log["result"].get<int>() + 1;
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->at == "end");
    CHECK(r->field == "result");
  }
  SUBCASE("a missing key is an inconsistency, not a crash") {
    json log = good;
    log["turns"][3].erase("turn");
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->field == "turn");
    CHECK(r->got == "missing");
  }
  SUBCASE("not a game log at all") {
    CHECK_THROWS_AS(verify_game_log(json::array()), std::runtime_error);
    CHECK_THROWS_AS(verify_game_log(json{{"format", "carcassonne-solo-results/1"}}), std::runtime_error);
  }
}

TEST_CASE("verify: a discarded draw that carries any of a placement's keys is an inconsistency") {
  // game-log.md: a discarded draw has no x, y, rot, edges, free, meeple or scored.
  json good;
  std::size_t i = 0;
  for (std::uint64_t g = 0; good.is_null(); ++g) {
    REQUIRE(g < 2000);
    const json log = logged(3, 4, g);
    const json& turns = log.at("turns");
    for (std::size_t k = 0; k < turns.size() && good.is_null(); ++k)
      if (!placed(turns[k])) {
        good = log;
        i = k;
      }
  }
  REQUIRE_FALSE(verify_game_log(good));
  const int turn = good.at("turns")[i].at("turn").get<int>();
  const json values = {{"x", 0},       {"y", 0},         {"rot", 0},     {"edges", "CCCC"},
                       {"free", json::array()}, {"meeple", nullptr}, {"scored", json::array()}};
  for (const auto& item : values.items()) {
    const std::string key = item.key();  // not a binding: CAPTURE takes it
    CAPTURE(key);
    json log = good;
    log["turns"][i][key] = item.value();
    const auto r = verify_game_log(log);
    REQUIRE(r);
    CHECK(r->turn == turn);
    CHECK(r->field == key);
  }
}

TEST_CASE("carcsolo verify: exit 0 on run's logs, 1 and the game and turn on a changed one") {
  carc::test::TempDir d;
  const auto run = carc::test::run_carcsolo(
      {"run", "--games", "30", "--seed", "4", "--colors", "4", "--threads", "1", "-q", "--log",
       "games.jsonl", "--log-games", "30"},
      d.path());
  REQUIRE(run.status == 0);
  const auto clean = carc::test::run_carcsolo({"verify", "games.jsonl"}, d.path());
  CHECK(clean.status == 0);
  CHECK(clean.out == "verify: 30 games, 30 consistent, 0 inconsistent\n");

  // Game 2 (the third line): a score changed at turn entry 6.
  std::vector<json> logs;
  {
    std::istringstream in(carc::test::read_text(d / "games.jsonl"));
    for (std::string line; std::getline(in, line);) logs.push_back(json::parse(line));
  }
  REQUIRE(logs.size() == 30);
  json& t = logs[2]["turns"][6];
  t["scores"][0] = t["scores"][0].get<int>() + 5;
  std::string text;
  for (const auto& l : logs) text += l.dump() + "\n";
  carc::test::write_text(d / "changed.jsonl", text);
  const auto r = carc::test::run_carcsolo({"verify", "changed.jsonl"}, d.path());
  CHECK(r.status == 1);
  const std::string turn = std::to_string(t["turn"].get<int>());
  CHECK(r.out.find("changed.jsonl:3: game 2 (seed 4): turn " + turn + " (turns[6]): scores: expected") == 0);
  CHECK(r.out.find("verify: 30 games, 29 consistent, 1 inconsistent\n") != std::string::npos);
}

TEST_CASE("carcsolo verify: a truncated or garbled log is one line, file and line, the games checked before") {
  carc::test::TempDir d;
  REQUIRE(carc::test::run_carcsolo({"run", "--games", "5", "--seed", "4", "--threads", "1", "-q", "--log",
                                    "games.jsonl", "--log-games", "5"},
                                   d.path())
              .status == 0);
  std::vector<std::string> lines;
  {
    std::istringstream in(carc::test::read_text(d / "games.jsonl"));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  REQUIRE(lines.size() == 5);
  const auto one_line = [](const std::string& err) {
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
    CHECK(err.find("json.exception") == std::string::npos);  // no library internals
    CHECK(err.find("parse_error") == std::string::npos);
  };
  SUBCASE("cut off in the middle of the fourth game") {
    carc::test::write_text(d / "cut.jsonl", lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" +
                                                lines[3].substr(0, lines[3].size() / 2));
    const auto r = carc::test::run_carcsolo({"verify", "cut.jsonl"}, d.path());
    CHECK(r.status == 2);
    one_line(r.err);
    CHECK(r.err.find("cut.jsonl:4: ") != std::string::npos);
    CHECK(r.err.find("truncated") != std::string::npos);
    CHECK(r.err.find("3 games checked before it, 3 consistent") != std::string::npos);
  }
  SUBCASE("a garbled third line") {
    std::string bad = lines[2];
    const std::size_t colon = bad.find("\":") + 1;  // the first key's colon
    bad[colon] = '#';
    carc::test::write_text(d / "garbled.jsonl", lines[0] + "\n" + lines[1] + "\n" + bad + "\n" + lines[3] + "\n");
    const auto r = carc::test::run_carcsolo({"verify", "garbled.jsonl"}, d.path());
    CHECK(r.status == 2);
    one_line(r.err);
    CHECK(r.err == "carcsolo verify: garbled.jsonl:3: not JSON: unexpected '#' at column " +
                       std::to_string(colon + 1) + "; 2 games checked before it, 2 consistent\n");
  }
}

namespace {

// A game at the table stopped after `moves` placements (greedy moves, the deal of seed 7),
// and its unfinished log.
json unfinished_log(int moves) {
  carc::sim::Stacks deal = carc::sim::deal(3, 7, 0);
  carc::sim::SteppedGame g(carc::sim::SteppedGame::AtTheTable{}, {3, 4}, "best");
  auto p = carc::make_placement_policy("greedy");
  carc::Rng rng(7, 0, carc::Stream::placement);
  int placed = 0;
  while (placed < moves) {
    if (g.needs_draw()) {
      g.draw(deal.pop(g.state().to_move()));
      continue;
    }
    carc::Move m = p->choose(carc::Observation(g.state(), g.tile()), g.legal(), rng);
    if (!g.state().free_segments(g.tile(), m.at) || !g.state().supply(g.state().to_move())) m.seg = carc::Move::kNoMeeple;
    g.play(m);
    if (g.ordering()) g.order({});
    ++placed;
  }
  g.draw(deal.pop(g.state().to_move()));  // a tile in hand, not played: in its stack, no turn entry
  return g.unfinished_log("greedy");
}

}  // namespace

TEST_CASE("verify: an unfinished log is consistent as far as it goes, and only check_game_log accepts it") {
  const json log = unfinished_log(6);
  REQUIRE(log.at("unfinished") == true);
  for (const char* key : {"end", "final_scoring", "scores", "result", "goals"}) CHECK(!log.contains(key));
  const carc::sim::LogCheck c = carc::sim::check_game_log(log);
  CHECK(!c.bad);
  CHECK(c.unfinished);
  CHECK(c.turns == 6);
  // verify_game_log, which analyse and the pictures call, wants a finished game
  const auto whole = verify_game_log(log);
  REQUIRE(whole);
  CHECK(whole->message() == "end: unfinished: expected a finished game, got true (the game stopped after 6 turns)");
  // a changed turn is found as in a finished log
  json bad = log;
  bad["turns"][3]["scores"][0] = 99;
  auto r = carc::sim::check_game_log(bad);
  REQUIRE(r.bad);
  CHECK(r.bad->turn == 3);
  CHECK(r.bad->field == "scores");
  // an unfinished log has no outcome
  bad = log;
  bad["result"] = 5;
  r = carc::sim::check_game_log(bad);
  REQUIRE(r.bad);
  CHECK(r.bad->message() == "setup: result: expected no such key (the game is unfinished), got 5");
  bad = log;
  bad["unfinished"] = "yes";
  REQUIRE(carc::sim::check_game_log(bad).bad);
  CHECK(carc::sim::check_game_log(bad).bad->field == "unfinished");
  // without the mark, a log that stops is an inconsistency
  bad = log;
  bad.erase("unfinished");
  r = carc::sim::check_game_log(bad);
  REQUIRE(r.bad);
  CHECK(r.bad->field == "turns");
  // a finished game marked unfinished is not
  json done = logged(3, 4, 2);
  for (const char* key : {"end", "final_scoring", "scores", "result", "goals"}) done.erase(key);
  done["unfinished"] = true;
  r = carc::sim::check_game_log(done);
  REQUIRE(r.bad);
  CHECK(r.bad->field == "unfinished");
}

TEST_CASE("carcsolo verify: an unfinished log is reported as such, exit 0, analyse refuses it in one line") {
  using carc::test::run_carcsolo;
  carc::test::TempDir dir;
  carc::test::write_text(dir / "u.jsonl", unfinished_log(6).dump() + "\n" + logged(3, 4, 1).dump() + "\n");
  auto r = run_carcsolo({"verify", "u.jsonl"}, dir.path());
  CHECK(r.status == 0);
  CHECK(r.out ==
        "u.jsonl:1: game at the table: unfinished after 6 turns, all consistent\n"
        "verify: 2 games, 2 consistent, 0 inconsistent; 1 unfinished\n");
  json bad = unfinished_log(6);
  bad["turns"][2]["supply"][1] = 0;
  carc::test::write_text(dir / "b.jsonl", bad.dump() + "\n");
  r = run_carcsolo({"verify", "b.jsonl"}, dir.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("b.jsonl:1: game at the table: turn 2 (turns[2]): supply: expected [") != std::string::npos);
  r = run_carcsolo({"analyse", "u.jsonl", "--analyser", "heuristic", "--rollouts", "1"}, dir.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "carcsolo analyse: u.jsonl:1: game ? (seed ?): not a consistent game log: end: unfinished: expected a finished game, got true "
        "(the game stopped after 6 turns)\n");
}
