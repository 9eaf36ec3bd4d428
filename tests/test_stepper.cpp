// The stepped game (sim/driver/stepper.hpp) against the driver: the same moves give the same
// log; given deals (stacks_from_letters, read_deal: every set) and the driver's per-game rows.
#include <doctest/doctest.h>

#include <bit>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/driver/stepper.hpp"
#include "sim/driver/tilesets.hpp"

namespace {

using namespace carc;
using namespace carc::sim;

// Plays a logged game's moves through a SteppedGame (scoring orders from its policy).
nlohmann::json replay(const nlohmann::json& log, const GameSpec& spec) {
  SteppedGame g(spec, log["config"]["scoring_policy"].get<std::string>());
  for (const auto& t : log["turns"]) {
    if (t["discarded"].get<bool>()) continue;
    REQUIRE(g.tile() == tile_type(t["tile"].get<std::string>()[0]));
    Move m{Placement{std::uint16_t(cell_of(t["x"].get<int>(), t["y"].get<int>())), std::int8_t(t["x"].get<int>()),
                     std::int8_t(t["y"].get<int>()), std::uint8_t(t["rot"].get<int>())},
           Move::kNoMeeple};
    for (int seg = 0; seg < kTiles[g.tile()].nseg; ++seg)
      if (!t["meeple"].is_null() && segment_name(g.tile(), m.at.rot, seg) == t["meeple"])
        m.seg = std::uint8_t(seg);
    g.play(m);
    if (g.ordering()) g.order({});
  }
  REQUIRE(g.over());
  return g.log(log["config"]["placement_policy"].get<std::string>());
}

TEST_CASE("a stepped game gives the driver's log for the driver's moves") {
  for (const char* scoring : {"best", "random", "as-found"}) {
    auto placement = make_placement_policy("greedy");
    auto order = make_scoring_policy(scoring);
    for (std::uint64_t game = 0; game < 25; ++game) {
      const GameSpec spec{Config{3, 5}, 17, game};
      const auto log = play_logged_game(spec, *placement, *order, "greedy", scoring);
      CHECK(replay(log, spec) == log);
    }
  }
}

TEST_CASE("a stepped game refuses what is not legal and shows no tile once over") {
  SteppedGame g(GameSpec{Config{3, 4}, 1, 0}, "best");
  CHECK_THROWS_AS(g.play(Move{Placement{std::uint16_t(cell_of(9, 9)), 9, 9, 0}, Move::kNoMeeple}),
                  std::invalid_argument);
  CHECK_THROWS_AS(g.order({}), std::invalid_argument);
  CHECK_THROWS_AS((void)g.log("x"), std::invalid_argument);
  CHECK_THROWS_AS(SteppedGame(GameSpec{Config{7, 4}, 1, 0}, "best"), std::invalid_argument);
  while (!g.over()) {
    if (g.ordering()) {
      g.order({});
      continue;
    }
    const Placement p = g.legal()[0];
    const std::uint8_t free = g.state().free_segments(g.tile(), p);
    g.play(Move{p, free ? std::uint8_t(std::countr_zero(free)) : Move::kNoMeeple});
  }
  CHECK(g.tile() == kNoType);
  CHECK(g.legal().empty());
  CHECK_THROWS_AS(g.play(Move::none()), std::invalid_argument);
}

TEST_CASE("a given deal: letters in, the same stacks out, bad deals named") {
  for (int k = 2; k <= 6; ++k) {
    const Stacks s = deal(k, 5, 9);
    const Stacks t = stacks_from_letters(stack_letters(s));
    CHECK(stack_letters(t) == stack_letters(s));
    CHECK(t.tiles == s.tiles);
    CHECK(t.begin == s.begin);
  }
  auto letters = stack_letters(deal(3, 1, 0));
  CHECK_THROWS_WITH(stacks_from_letters({letters[0]}), doctest::Contains("2..6"));
  auto wrong = letters;
  wrong[2][0] = 'Z';
  CHECK_THROWS_WITH(stacks_from_letters(wrong), doctest::Contains("no tile name"));
  wrong = letters;
  wrong[1].pop_back();
  CHECK_THROWS_WITH(stacks_from_letters(wrong), doctest::Contains("stack 1 must hold 24"));
  CHECK_THROWS_AS(stacks_from_letters({std::string(24, 'D'), letters[1], letters[2]}),
                  std::invalid_argument);
  // A game of a given deal is the game of the seed that dealt it.
  auto p = make_placement_policy("greedy");
  auto q = make_scoring_policy("best");
  const Stacks given = stacks_from_letters(letters);
  CHECK(play_logged_game(GameSpec{Config{3, 4}, 1, 0, &given}, *p, *q, "g", "b") ==
        play_logged_game(GameSpec{Config{3, 4}, 1, 0}, *p, *q, "g", "b"));
}

// A deal as a deal file writes it from a game log's stacks: each stack's names joined by
// spaces, then the river line.
std::string deal_file_text(const Stacks& s, bool river) {
  std::string text = "# a deal\n";
  for (int c = 0; c < s.colors; ++c) {
    for (int i = s.begin[c]; i < s.begin[c + 1]; ++i) text += std::string(tile_name(s.tiles[std::size_t(i)])) + " ";
    text += "\n";
  }
  if (river) {
    text += "river";
    for (int i = s.begin[kRiverStack]; i < s.begin[kRiverStack + 1]; ++i)
      text += " " + std::string(tile_name(s.tiles[std::size_t(i)]));
    text += "\n";
  }
  return text;
}

Stacks read_text(const std::string& text, const TileCounts& tiles) {
  std::istringstream in(text);
  return read_deal(in, tiles);
}

TEST_CASE("a deal of every set as a text: names and the river line in, the dealt stacks out") {
  for (const char* name : {"base", "base+inns", "base+river", "base+inns+river"}) {
    const TileCounts tiles = load_tileset(name).counts();
    for (int k = 2; k <= 6; ++k) {
      INFO(name << ", " << k << " colours");
      const Stacks s = deal(k, 5, 9, tiles);
      const Stacks t = read_text(deal_file_text(s, tiles.river()), tiles);
      CHECK(t.tiles == s.tiles);
      CHECK(t.begin == s.begin);
      CHECK(t.next == s.next);
      CHECK(t.colors == s.colors);
      // stack_letters and river_letters spell it as stacks_from_letters reads it
      const Stacks u = stacks_from_letters(stack_letters(s), tiles, river_letters(s));
      CHECK(u.tiles == s.tiles);
      CHECK(u.begin == s.begin);
    }
  }
  // The base game's letters without spaces, with spaces, and words of letters mixed: one deal.
  const Stacks s = deal(3, 1, 0);
  const auto letters = stack_letters(s);
  std::string plain, spaced;
  for (const auto& st : letters) {
    plain += st + "\n";
    for (const char ch : st) spaced += std::string(1, ch) + "  ";
    spaced += "\n";
  }
  CHECK(read_text(plain, kBaseCounts).tiles == s.tiles);
  CHECK(read_text(spaced, kBaseCounts).tiles == s.tiles);
  CHECK(read_text(deal_file_text(s, false), kBaseCounts).tiles == s.tiles);
  CHECK(read_text(letters[0].substr(0, 5) + " " + letters[0].substr(5) + "\n" + letters[1] + "\n" + letters[2],
                  kBaseCounts).tiles == s.tiles);
}

TEST_CASE("a deal that does not match the game's set is refused, naming what is wrong") {
  const TileCounts river = load_tileset("base+inns+river").counts();
  const TileCounts inns = load_tileset("base+inns").counts();
  const Stacks s = deal(3, 7, 2, river);
  const std::string good = deal_file_text(s, true);
  REQUIRE(read_text(good, river).tiles == s.tiles);
  const auto lines = [&] {
    std::vector<std::string> out;
    std::istringstream in(good);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }();  // "# a deal", three stacks, the river line
  REQUIRE(lines.size() == 5);
  const auto joined = [](const std::vector<std::string>& ls) {
    std::string t;
    for (const auto& l : ls) t += l + "\n";
    return t;
  };
  const auto name_at = [&](int c, int i) { return std::string(tile_name(s.tiles[std::size_t(s.begin[c] + i)])); };
  const std::string first_river = std::string(tile_name(s.tiles[s.begin[kRiverStack]]));
  struct Bad {
    std::string text;
    const TileCounts* tiles;
    std::string says;
  };
  std::vector<std::string> swapped = lines;  // a river tile in colour 0's stack, a land tile in the river
  const std::string land = name_at(0, 0);
  swapped[1] = first_river + swapped[1].substr(land.size());
  swapped[4] = "river " + land + lines[4].substr(5 + 1 + first_river.size());
  std::vector<std::string> lake = lines;  // the lake first
  lake[4] = "river R9 " + lines[4].substr(6, lines[4].size() - 6 - 3);
  std::vector<std::string> short_stack = lines;  // a tile moved from stack 0 to stack 2
  short_stack[1] = lines[1].substr(name_at(0, 0).size() + 1);
  short_stack[3] = lines[3] + " " + name_at(0, 0);
  std::vector<std::string> after = lines;  // the river line before a stack
  std::swap(after[3], after[4]);
  std::vector<std::string> unknown = lines;
  unknown[2] = "I1I2 " + lines[2].substr(name_at(1, 0).size() + 1);
  const std::vector<std::string> no_river(lines.begin(), lines.end() - 1);
  const std::vector<Bad> bad = {
      {joined(swapped), &river, "stack 0: " + first_river + " is a river tile"},
      {joined(lake), &river, "river stack: the lake R9 must be its last tile"},
      {joined(short_stack), &river, "stack 0 must hold 30 tiles with 3 colours (got 29)"},
      {joined(after), &river, "line 5: a stack after the river line"},
      {joined(unknown), &river, "stack 1: 'I1I2' is no tile name"},
      {joined(no_river), &river, "no river line: this game's tile set has the river, whose 11 tiles"},
      {joined(lines) + "river R1\n", &river, "line 6: a second river line"},
      // the same stacks read with another set
      {joined(lines), &inns, "a river line, but this game's tile set has no river"},
      {joined(no_river), &kBaseCounts, "stack 0 must hold 24 tiles with 3 colours (got 30)"},
  };
  for (const Bad& b : bad) {
    INFO(b.text);
    CHECK_THROWS_WITH_AS(read_text(b.text, *b.tiles), doctest::Contains(b.says.c_str()), std::invalid_argument);
  }
  // a name of a set the game does not deal, and the start tile
  const Stacks base = deal(3, 1, 0);
  std::vector<std::string> st = stack_letters(base);
  st[0] = "I1 " + st[0].substr(1);
  CHECK_THROWS_WITH(stacks_from_letters(st, kBaseCounts), doctest::Contains("stack 0: I1 is not in this game's tile set"));
  CHECK_THROWS_WITH(stacks_from_letters(stack_letters(base), kBaseCounts, "R1 R9"),
                    doctest::Contains("a river stack, but this game's tile set has no river"));
  const Stacks r = deal(3, 1, 0, river);
  std::string rl = river_letters(r);
  rl = "R0" + rl.substr(rl.find(' '));
  CHECK_THROWS_WITH(stacks_from_letters(stack_letters(r), river, rl),
                    doctest::Contains("river stack: R0 is the start tile, which is not dealt"));
}

TEST_CASE("per-game rows are every game's outcome, whatever the threads") {
  MatrixRequest req;
  RunConfig a, b;
  a.placement_policy = "greedy";
  b.placement_policy = "random";
  req.configs = {a, b};
  req.first_game = 40;
  req.games = 300;
  auto placement = make_placement_policy("greedy");
  auto random = make_placement_policy("random");
  auto scoring = make_scoring_policy("random");
  for (const int threads : {1, 2}) {
    req.threads = threads;
    PerGameRows rows{40, 2, {}};
    req.per_game = &rows;
    const MatrixOutcome r = play_matrix(req);
    REQUIRE(rows.games() == 300);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < 300; ++i) {
      const GameOutcome g = play_game(GameSpec{Config{3, 4}, 1, 40 + i}, *placement, *scoring);
      CHECK(rows.rows[2 * i].result == g.result);
      CHECK(rows.rows[2 * i].goals == g.goals);
      sum += std::uint64_t(rows.rows[2 * i + 1].result);
    }
    CHECK(sum == r.acc[1].result_sum());
  }
}

}  // namespace
