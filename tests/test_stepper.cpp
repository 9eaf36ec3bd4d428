// The stepped game (sim/driver/stepper.hpp) against the driver: the same moves give the same
// log; given deals (stacks_from_letters) and the driver's per-game rows.
#include <doctest/doctest.h>

#include <bit>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/driver/stepper.hpp"

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
