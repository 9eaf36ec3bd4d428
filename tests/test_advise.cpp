// sim/analysis/advice, the game at the table (SteppedGame::AtTheTable) and `carcsolo
// advise`: the advice at a position is the analysis `analyse` makes of it, move for move and
// value for value; a whole deal driven by always playing the advice gives a log that
// verifies and whose analysis finds the advice best at every decision; the table knows
// only the tiles told, and bad tiles and moves are refused with one line (exit status 2).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/candidates.hpp"
#include "policies/policy.hpp"
#include "sim/analysis/advice.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/stepper.hpp"
#include "sim/log/verify.hpp"
#include "tests/process.hpp"

namespace {

using carc::Move;
using carc::sim::AdviceOptions;
using carc::sim::Advisor;
using carc::sim::MoveEstimate;
using carc::sim::SteppedGame;
using nlohmann::json;

constexpr std::uint64_t kSeed = 4711;  // no policy was tuned on it

AdviceOptions small(int rollouts, int candidates, std::uint64_t seed) {
  AdviceOptions o;
  o.analyser = carc::canonical_placement("heuristic");
  o.scoring = carc::canonical_scoring("best");
  o.rollouts = rollouts;
  o.candidates = candidates;
  o.seed = seed;
  return o;
}

carc::sim::AnalysisOptions analysis_options(const AdviceOptions& a) {
  carc::sim::AnalysisOptions o;
  o.placement = a.analyser;
  o.rollouts = a.rollouts;
  o.candidates = a.candidates;
  o.seed = a.seed;
  return o;
}

std::string move_text(int type, const Move& m) {
  return std::to_string(m.at.x) + "," + std::to_string(m.at.y) + "," + std::to_string(m.at.rot) + " " +
         (m.seg == Move::kNoMeeple ? std::string("-") : carc::segment_name(type, m.at.rot, m.seg));
}

// A game at the table fed the tiles of the deal of (seed, game) in the order they are
// drawn, always playing the advice ranked first. Records the input a person would type.
struct Driven {
  json log;
  std::string input;                      // the lines typed: tile letters and "1"
  std::vector<std::string> first;         // "x,y,rot meeple" of each advice ranked first
  std::vector<std::vector<MoveEstimate>> advice;
  int heuristic_agrees = 0;               // the analysing player's own choice was the advice
};

Driven drive(std::uint64_t seed, std::uint64_t game, const AdviceOptions& opt) {
  carc::sim::Stacks deal = carc::sim::deal(3, seed, game);
  SteppedGame g(SteppedGame::AtTheTable{}, {3, 4}, opt.scoring, opt.seed);
  Advisor advisor(opt);
  auto heuristic = carc::make_placement_policy(opt.analyser);
  carc::Rng rng(seed, game, carc::Stream::placement);
  Driven d;
  while (!g.over()) {
    if (g.needs_draw()) {
      const int t = deal.pop(g.state().to_move());
      d.input += std::string(1, carc::tile_name(t)) + "\n";
      g.draw(t);
      continue;
    }
    const int type = g.tile();
    d.advice.push_back(advisor.advise(g.state(), type, g.legal()));
    const Move m = d.advice.back()[0].move;
    Move own = heuristic->choose(carc::Observation(g.state(), type), g.legal(), rng);
    if (!g.state().free_segments(type, own.at) || !g.state().supply(g.state().to_move())) own.seg = Move::kNoMeeple;
    d.heuristic_agrees += carc::move_key(type, m) == carc::move_key(type, own);
    d.first.push_back(move_text(type, m));
    d.input += "1\n";
    g.play(m);
    if (g.ordering()) g.order({});
  }
  d.log = g.log("advise");
  return d;
}

}  // namespace

TEST_CASE("advise: the advice at a position is analyse's analysis of it, move for move and value for value") {
  auto p = carc::make_placement_policy("heuristic");
  auto s = carc::make_scoring_policy("best");
  const std::uint64_t game = 3;
  const json log = carc::sim::play_logged_game({{3, 4}, kSeed, game}, *p, *s, "heuristic", "best");
  const AdviceOptions opt = small(6, 4, 9);
  const carc::sim::GameAnalysis a = carc::sim::analyse_game(log, 0, analysis_options(opt));
  // The same game stepped from its deal, the advisor asked at every decision.
  SteppedGame g({{3, 4}, kSeed, game}, "best");
  Advisor advisor(opt);
  std::size_t i = 0;
  int compared = 0, ranks_shifted = 0;
  for (const auto& turn : log.at("turns")) {
    if (turn.at("discarded").get<bool>()) continue;
    REQUIRE(i < a.decisions.size());
    const int type = g.tile();
    const std::vector<MoveEstimate> advice = advisor.advise(g.state(), type, g.legal());
    const carc::sim::DecisionAnalysis& d = a.decisions[i];
    // analyse values the same K best, and the move played when it is not among them (last)
    REQUIRE(advice.size() >= 1);
    CHECK((d.moves.size() == advice.size() || d.moves.size() == advice.size() + 1));
    for (const MoveEstimate& e : advice) {
      const auto it = std::find_if(d.moves.begin(), d.moves.end(), [&](const MoveEstimate& x) {
        return carc::move_key(type, x.move) == carc::move_key(type, e.move);
      });
      REQUIRE(it != d.moves.end());
      CHECK(it->mean == e.mean);  // the same rollouts: exactly the same numbers
      CHECK(it->std_error == e.std_error);
      ranks_shifted += it->rank != e.rank;  // only the extra played move may come between
      ++compared;
    }
    if (d.moves.size() == advice.size()) {
      CHECK(carc::move_key(type, d.moves[std::size_t(d.best)].move) == carc::move_key(type, advice[0].move));
    }
    // the log's move, to go on
    Move m{g.legal()[0], Move::kNoMeeple};
    bool found = false;
    for (const auto& pl : g.legal())
      if (pl.x == turn.at("x").get<int>() && pl.y == turn.at("y").get<int>() && pl.rot == turn.at("rot").get<int>()) {
        m.at = pl;
        found = true;
      }
    REQUIRE(found);
    if (!turn.at("meeple").is_null())
      for (int seg = 0; seg < carc::kBaseTiles[type].nseg; ++seg)
        if (carc::segment_name(type, m.at.rot, seg) == turn.at("meeple").get<std::string>()) m.seg = std::uint8_t(seg);
    g.play(m);
    if (g.ordering()) g.order({});
    ++i;
  }
  CHECK(i == a.decisions.size());
  CHECK(g.over());
  MESSAGE(compared, " moves compared over ", i, " decisions; ranks moved by the played move: ", ranks_shifted);
  // and another seed gives other values, so the comparison could fail
  Advisor other(small(6, 4, 10));
  SteppedGame h({{3, 4}, kSeed, game}, "best");
  CHECK(other.advise(h.state(), h.tile(), h.legal())[0].mean != a.decisions[0].moves[std::size_t(a.decisions[0].best)].mean);
}

TEST_CASE("advise: a whole deal, always the advice: the log verifies and analyse finds the advice best everywhere") {
  const AdviceOptions opt = small(8, 5, 2);
  int decisions = 0, agrees = 0;
  for (std::uint64_t game = 0; game < 2; ++game) {
    const Driven d = drive(kSeed, game, opt);
    REQUIRE(!carc::sim::verify_game_log(d.log));
    CHECK(d.log.at("deal") == "table");
    CHECK(!d.log.contains("seed"));
    // the log's stacks are the deal's as far as the game drew them
    const carc::sim::Stacks deal = carc::sim::deal(3, kSeed, game);
    const auto letters = carc::sim::stack_letters(deal);
    std::vector<int> drawn(3, 0);
    for (const auto& t : d.log.at("turns")) ++drawn[std::size_t(t.at("color").get<int>())];
    for (int c = 0; c < 3; ++c) {
      std::string logged;
      for (const auto& t : d.log.at("stacks")[std::size_t(c)]) logged += t.get<std::string>();
      CHECK(logged.substr(0, std::size_t(drawn[std::size_t(c)])) ==
            letters[std::size_t(c)].substr(0, std::size_t(drawn[std::size_t(c)])));
    }
    const carc::sim::GameAnalysis a = carc::sim::analyse_game(d.log, 0, analysis_options(opt));
    REQUIRE(a.decisions.size() == d.advice.size());
    for (std::size_t i = 0; i < a.decisions.size(); ++i) {
      const auto& x = a.decisions[i];
      CHECK(x.played == x.best);
      CHECK(x.loss == 0);
      CHECK(x.moves[std::size_t(x.played)].mean == d.advice[i][0].mean);
    }
    decisions += int(d.advice.size());
    agrees += d.heuristic_agrees;
  }
  // The analysing player's own choice (the heuristic's) and the advice, which values the
  // heuristic's best moves by continuations, are the same move at most decisions, not all.
  MESSAGE("the advice was the analysing player's own choice at ", agrees, " of ", decisions, " decisions");
  CHECK(agrees * 4 > decisions);  // measured: 53 of 124
  CHECK(agrees < decisions);
}

TEST_CASE("game at the table: the same draws and moves make the dealt game's log") {
  auto p = carc::make_placement_policy("greedy");
  auto s = carc::make_scoring_policy("best");
  int discards = 0;
  for (std::uint64_t game = 0; game < 40; ++game) {  // games 30 and 36 have a discard
    const json log = carc::sim::play_logged_game({{3, 4}, kSeed, game}, *p, *s, "greedy", "best");
    SteppedGame g(SteppedGame::AtTheTable{}, {3, 4}, "best", kSeed);
    for (const auto& turn : log.at("turns")) {
      REQUIRE(g.needs_draw());
      REQUIRE(g.state().to_move() == turn.at("color").get<int>());
      g.draw(carc::tile_type(turn.at("tile").get<std::string>()[0]));
      if (turn.at("discarded").get<bool>()) {
        ++discards;
        continue;
      }
      Move m{g.legal()[0], Move::kNoMeeple};
      for (const auto& pl : g.legal())
        if (pl.x == turn.at("x").get<int>() && pl.y == turn.at("y").get<int>() && pl.rot == turn.at("rot").get<int>())
          m.at = pl;
      if (!turn.at("meeple").is_null())
        for (int seg = 0; seg < carc::kBaseTiles[g.tile()].nseg; ++seg)
          if (carc::segment_name(g.tile(), m.at.rot, seg) == turn.at("meeple").get<std::string>())
            m.seg = std::uint8_t(seg);
      g.play(m);
      if (g.ordering()) g.order({});
    }
    REQUIRE(g.over());
    json t = g.log("greedy");
    CHECK(!carc::sim::verify_game_log(t));
    for (const char* key : {"turns", "final_scoring", "end", "scores", "result", "goals", "config"})
      CHECK(t.at(key) == log.at(key));
    if (log.at("end").at("reason") == "tiles_exhausted") CHECK(t.at("stacks") == log.at("stacks"));
  }
  CHECK(discards > 0);  // some draws were discarded at the table too
}

TEST_CASE("game at the table: a draw is checked against the tiles not yet seen, and only when due") {
  SteppedGame g(SteppedGame::AtTheTable{}, {3, 4}, "best");
  REQUIRE(g.needs_draw());
  CHECK(g.state().unseen(carc::tile_type('D')) == 3);  // one D is the start tile
  CHECK(g.tile() == carc::kNoType);
  g.draw(carc::tile_type('C'));  // the only C
  CHECK(!g.needs_draw());
  CHECK_THROWS_WITH_AS(g.draw(carc::tile_type('V')), "colour 0 has tile C in hand: play it first",
                       std::invalid_argument);
  g.play(Move{g.legal()[0], 0});  // its one city joins the start tile's: a meeple on it
  REQUIRE(g.needs_draw());
  CHECK(g.state().to_move() == 1);
  CHECK_THROWS_WITH_AS(g.draw(carc::tile_type('C')), "no tile C is left to draw (all 1 are seen)",
                       std::invalid_argument);
  CHECK(g.state().unseen_total() == 70);
  SteppedGame dealt({{3, 4}, 1, 0}, "best");
  CHECK_THROWS_WITH_AS(dealt.draw(0), "this game has a deal: its tiles are drawn from its stacks",
                       std::invalid_argument);
}

TEST_CASE("carcsolo advise: the library's advice line by line, a whole deal, and the log it writes") {
  using carc::test::run_carcsolo;
  carc::test::TempDir dir;
  // The deal of seed 20 where this advice has a tile discarded.
  const AdviceOptions opt = small(1, 2, 1);
  const Driven d = drive(20, 0, opt);
  REQUIRE(d.log.at("end").at("discarded") == 1);
  carc::test::write_text(dir / "in.txt", "# colour 0 first\n" + d.input);
  const auto r = run_carcsolo({"-c", std::string(CARCSOLO_BINARY) +
                                         " advise --rollouts 1 --candidates 2 --seed 1 -k 3 --log game.jsonl < in.txt"},
                              dir.path(), "/bin/sh");
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  // every advice ranked first, as the library gave it
  std::vector<std::string> first;
  std::istringstream lines(r.out);
  std::string line;
  int plays = 0, listed = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("move 1 ", 0) == 0) first.push_back(line.substr(7, line.rfind(' ', line.rfind(' ') - 1) - 7));
    listed += line.rfind("move ", 0) == 0;
    plays += line == "play";
  }
  CHECK(first == d.first);
  CHECK(plays == int(d.first.size()));
  CHECK(listed <= 2 * plays);
  CHECK(r.out.rfind("advise colors 3 meeples 4 analyser heuristic rollouts 1 candidates 2 seed 1\n", 0) == 0);
  CHECK(r.out.find("\ndiscard ") != std::string::npos);
  CHECK(r.out.find("over result " + std::to_string(d.log.at("result").get<int>()) + " reason ") != std::string::npos);
  json log = json::parse(carc::test::read_text(dir / "game.jsonl"));
  CHECK(log.at("advisor").at("followed") == int(d.first.size()));
  CHECK(log.at("advisor").at("decisions") == int(d.first.size()));
  log.erase("advisor");
  CHECK(log == d.log);
  CHECK(run_carcsolo({"verify", "game.jsonl"}, dir.path()).status == 0);
}

TEST_CASE("carcsolo advise: a move by its rank or by x,y,rot and meeple, and bad input is one line and exit 2") {
  using carc::test::run_carcsolo;
  carc::test::TempDir dir;
  auto advise = [&](const std::string& input, const std::string& extra = "") {
    carc::test::write_text(dir / "in.txt", input);
    return run_carcsolo({"-c", std::string(CARCSOLO_BINARY) + " advise --rollouts 2 -q " + extra + " < in.txt"},
                        dir.path(), "/bin/sh");
  };
  // A V for colour 0: it fits at 1,0 turned once with a meeple on the road N,W (rules.md's
  // example), or elsewhere without.
  auto r = advise("v\n1,0,1,road:N,W\n");
  CHECK(r.status == 2);  // the input ended before the game was over
  CHECK(r.out.find("played 1,0,1 road:N,W scores 1 2 3 supply 3 4 4\n") != std::string::npos);
  CHECK(r.err == "carcsolo advise: the input ended before the game was over (turn 1)\n");
  r = advise("V\n1,0,1 road:N,W\n");  // a space before the meeple
  CHECK(r.out.find("played 1,0,1 road:N,W ") != std::string::npos);
  r = advise("V\n2\n");
  CHECK(r.out.find("played ") != std::string::npos);
  struct Bad {
    std::string input, err;
  };
  const std::vector<Bad> bad = {
      {"Z\n", "'Z' is no tile letter: the tile colour 0 drew, one of A..X (rules.md)"},
      {"VU\n", "'VU' is no tile letter: the tile colour 0 drew, one of A..X (rules.md)"},
      {"C\n1\nC\n", "no tile C is left to draw (all 1 are seen)"},
      {"V\n9\n", "rank 9: the moves listed are 1..5"},
      {"V\n0\n", "rank 0: the moves listed are 1..5"},
      {"V\n5,5,0\n", "(5, 5, rot 0) is no legal placement of tile V"},
      {"V\n1,0\n", "'1,0' is no move: a rank (1..5) or x,y,rot[,meeple] such as 1,0,3,road:E,W"},
      {"V\n1,0,1\n", "a meeple must go on a free segment of this placement: 1,0,1,road:N,W"},
      {"V\n1,0,1,city:N\n", "meeple 'city:N' is no segment of tile V turned 1"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.input);
    r = advise(b.input);
    CHECK(r.status == 2);
    CHECK(r.err == "carcsolo advise: " + b.err + "\n");
  }
  // --retry: the line is refused and the question asked again
  r = advise("Z\nV\nfoo\n1\n", "--retry");
  CHECK(r.status == 2);  // then the input ended
  CHECK(r.err ==
        "carcsolo advise: 'Z' is no tile letter: the tile colour 0 drew, one of A..X (rules.md)\n"
        "carcsolo advise: 'foo' is no move: a rank (1..5) or x,y,rot[,meeple] such as 1,0,3,road:E,W\n"
        "carcsolo advise: the input ended before the game was over (turn 1)\n");
  CHECK(r.out.find("played ") != std::string::npos);
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = r.out.find(what); at != std::string::npos; at = r.out.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count("draw 0 turn 0 stack 24 unseen 71\n") == 2);  // the prompts, repeated
  CHECK(count("\nplay\n") == 2);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"advise", "--rollouts", "0"}, {"advise", "--analyser", "nonsense"},
        {"advise", "--colors", "7"}, {"advise", "-k", "0"}, {"advise", "extra"},
        {"advise", "--log", "nodir/game.jsonl"}}) {
    CAPTURE(args[1]);
    r = run_carcsolo(args, dir.path());
    CHECK(r.status == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.find("draw") == std::string::npos);  // refused before the game starts
  }
}
