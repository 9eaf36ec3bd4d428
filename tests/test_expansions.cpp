// Scenario tests of expansions.md (Inns & Cathedrals, the large meeple, The River), one
// rule at a time. Every expected value is worked out by hand from the rules (the comments
// show the arithmetic); none is copied from a run.
//
// Board sketch conventions as in test_rules.cpp: x grows east, y grows south; a tile turned
// r shows its unrotated edge d at board direction (d + r) mod 4 (N, E, S, W).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "core/turn.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/tilesets.hpp"
#include "sim/render/svg.hpp"
#include "sim/render/text.hpp"
#include "tests/scenario.hpp"

namespace {

using namespace carc;
using carc::test::Game;
using Strings = std::vector<std::string>;

Config with(const char* set, bool large = false, int colors = 3, int meeples = 4) {
  return Config{colors, meeples, sim::load_ruleset(set, large)};
}

Strings legal(const State& s, const char* tile) {
  Placement buf[kMaxPlacements];
  const int n = s.legal_placements(tile_type(tile), buf);
  Strings v;
  for (int i = 0; i < n; ++i)
    v.push_back(std::to_string(buf[i].x) + "," + std::to_string(buf[i].y) + "," + std::to_string(buf[i].rot));
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("inns: a completed road with an inn scores 2 per tile") {
  Game g(with("base+inns"));
  // Road: A(-1,0) - D(0,0) - I3(1,0) with its inn - A(2,0): 4 tiles, 2 each = 8 (not 4).
  g.turn("I3 1 0 0 road:E,W");           // colour 0's meeple on the inn road
  g.turn("A 2 0 1 monastery");           // its road (S turned to W) ends the road's east end
  const auto& ev = g.turn("A -1 0 3 monastery");  // ... and the west end: complete
  REQUIRE(ev.size() == 1u);
  CHECK(ev[0].kind == SegKind::road);
  CHECK(int(ev[0].tiles) == 4);
  CHECK(int(ev[0].points) == 8);
  CHECK(g.scores() == std::vector<int>{1 + 8, 2, 3});  // colour 0 lowest: awarded
}

TEST_CASE("inns: two inns on one road score as one (2 per tile, not 4)") {
  Game g(with("base+inns"));
  // D's road: I3(1,0) and I2 (road[inn] S,W) at (2,0) turned so its road runs W..N? I2's
  // road joins S and W; turned 0 its W faces I3: the road bends south to (2,1), closed there
  // by A turned 2 (its road S to N). West end: A(-1,0) turned 3. Tiles: A, D, I3, I2, A = 5.
  g.turn("I3 1 0 0 road:E,W");
  g.turn("I2 2 0 0");                    // joins colour 0's road: nothing free
  g.turn("A 2 1 2 monastery");           // its road faces N: the road's south end
  const auto& ev = g.turn("A -1 0 3 monastery");
  REQUIRE(ev.size() == 1u);
  CHECK(int(ev[0].tiles) == 5);
  CHECK(int(ev[0].points) == 10);  // 2 x 5, one rate however many inns
}

TEST_CASE("cathedrals: a completed city with a cathedral scores 3 per tile") {
  Game g(with("base+inns"));
  // I1 (cathedral, city on all four sides) north of D; three E caps close it: D, I1 and
  // three E = 5 tiles, no pennant: 3 x 5 = 15 (not 10).
  g.turn("I1 0 -1 0 city:N,E,S,W");
  g.turn("E 0 -2 2");
  g.turn("E 1 -1 3");
  const auto& ev = g.turn("E -1 -1 1");
  REQUIRE(ev.size() == 1u);
  CHECK(ev[0].kind == SegKind::city);
  CHECK(int(ev[0].tiles) == 5);
  CHECK(int(ev[0].points) == 15);
  CHECK(g.scores() == std::vector<int>{1 + 15, 2, 3});
}

TEST_CASE("cathedrals: pennants count 3 each in a cathedral city") {
  Game g(with("base+inns"));
  // As above, but the west cap is M (pennant, city N and W) turned so its city faces E and
  // S... M's city {N,W} turned 1 faces E and N: the N side then needs closing by an E.
  // Tiles: D, I1, E(0,-2), E(1,-1), M(-1,-1), E(-1,-2) = 6, one pennant: 3 x (6 + 1) = 21.
  g.turn("I1 0 -1 0 city:N,E,S,W");
  g.turn("E 0 -2 2");
  g.turn("E 1 -1 3");
  g.turn("M -1 -1 1");
  const auto& ev = g.turn("E -1 -2 2");
  REQUIRE(ev.size() == 1u);
  CHECK(int(ev[0].tiles) == 6);
  CHECK(int(ev[0].pennants) == 1);
  CHECK(int(ev[0].points) == 21);
}

TEST_CASE("large meeple: weighs 2 in the majority, returns to its own supply when scored") {
  Game g(with("base", true));
  // Colour 0's large meeple on D's road (U at 1,0); colour 1's meeple on a road of its own
  // (V at 1,1, E and S); two V join them at (2,0) and (2,1). Weights 2 (colour 0) against 1
  // (colour 1): colour 0 alone holds the majority (a meeple would tie). Two A close the
  // ends: A, D, U, V, V, V, A = 7 tiles, 7 points.
  g.turn("U 1 0 1 road:E,W large");
  CHECK(g.state().large_supply(0) == 0);
  CHECK(g.state().supply(0) == 4);
  g.turn("V 1 1 3 road:E,S");
  g.turn("V 2 0 0");
  g.turn("V 2 1 1");
  g.turn("A -1 0 3 monastery");
  const auto& ev = g.turn("A 1 2 2 monastery");
  REQUIRE(ev.size() == 1u);
  CHECK(int(ev[0].tiles) == 7);
  CHECK(int(ev[0].points) == 7);
  CHECK(int(ev[0].meeples[0]) == 2);  // the weight
  CHECK(int(ev[0].meeples[1]) == 1);
  CHECK(int(ev[0].large) == 0b001);
  CHECK(int(ev[0].majority) == 0b001);
  CHECK(g.scores() == std::vector<int>{1 + 7, 2, 3});
  CHECK(g.state().large_supply(0) == 1);  // back, and not counted as a meeple
  CHECK(g.supplies() == std::vector<int>{4, 3, 3});  // the monastery meeples of 1 and 2 stand
}

TEST_CASE("large meeple: a colour whose only figure is the large meeple must place it") {
  Game g(with("base", true));
  StateTestAccess::set_supply(g.state(), 0, 0);
  g.turn("U 1 0 1 road:E,W");  // the move names no figure: the large meeple goes
  CHECK(g.state().large_supply(0) == 0);
  CHECK(g.state().large_at(g.state().tiles_on_board() - 1));
  CHECK(g.state().figures_on_board(0) == 5);  // 4 meeples (none in supply) + the large
  CHECK_FALSE(g.state().ended());
  g.turn("E 0 -1 2 city:S");  // colour 1 on D's city
  g.turn("U -1 0 1");         // colour 2 joins colour 0's road: nothing free
  CHECK_FALSE(g.state().ended());
  // Colour 0 now has no figure at all and places a monastery (a free segment): no_meeple.
  g.turn("B 1 1 0");
  CHECK(g.state().ended());
  CHECK(g.state().end_reason() == EndReason::no_meeple);
}

TEST_CASE("the river: set-up, the spring, the river stack drawn first, the lake last") {
  const Config cfg = with("base+river");
  const State s = State::initial(cfg);
  CHECK(tile_name(s.tile(0).type) == "R0");
  CHECK(s.river_left() == 11);
  CHECK(s.unseen(tile_type("D")) == 4);  // D is dealt with the land tiles
  for (int c = 0; c < 3; ++c) CHECK(s.stack_left(c) == 24);  // 72 land tiles, 24 each
  CHECK(s.river_end() == cell_of(1, 0));  // the spring's water leaves to the east
  const sim::Stacks st = sim::deal(3, 5, 7, cfg.tiles());
  REQUIRE(st.river_size() == 11);
  CHECK(tile_name(st.tiles[st.begin[kRiverStack + 1] - 1]) == "R9");
  for (int i = st.begin[kRiverStack]; i < st.begin[kRiverStack + 1]; ++i) CHECK(is_river(st.tiles[i]));
  // Inns and the river: 90 land tiles, 30 each; 4 colours: 23 23 22 22.
  const State t = State::initial(with("base+inns+river", false, 4));
  CHECK(t.stack_left(0) == 23);
  CHECK(t.stack_left(1) == 23);
  CHECK(t.stack_left(2) == 22);
  CHECK(t.stack_left(3) == 22);
}

TEST_CASE("the river: what the next draw may bring (State::draw_rule, draw_types, draw_stack)") {
  State s = State::initial(with("base+river"));
  // 11 river tiles to come: the river stack is drawn, a river tile but the lake.
  CHECK(s.draw_stack() == kRiverStack);
  CHECK(s.draw_rule(tile_type("R5")) == DrawRule::ok);
  CHECK(s.draw_rule(tile_type("U")) == DrawRule::land_in_river);
  CHECK(s.draw_rule(kLakeType) == DrawRule::lake_early);
  CHECK(s.draw_rule(kSpringType) == DrawRule::none_unseen);  // the spring is on the board
  CHECK(s.draw_types().first == kFirstRiver);
  CHECK(s.draw_types().end == kLakeType);
  // The other ten drawn (none placed: only the draw is asked about), the lake alone may come.
  for (int t = kFirstRiver; t < kLakeType; ++t)
    while (s.unseen(t) > 0 && s.river_left() > 1) s.draw(t);
  REQUIRE(s.river_left() == 1);
  CHECK(s.draw_rule(kLakeType) == DrawRule::ok);
  CHECK(s.draw_types().first == kLakeType);
  CHECK(s.draw_types().end == kLakeType + 1);
  s.draw(kLakeType);
  // The river spent: the colour to move draws a land tile from its own stack.
  CHECK(s.draw_stack() == s.to_move());
  CHECK(s.draw_rule(tile_type("U")) == DrawRule::ok);
  CHECK(s.draw_rule(tile_type("R5")) == DrawRule::none_unseen);
  CHECK(s.draw_types().first == 0);
  CHECK(s.draw_types().end <= kFirstRiver);  // land types only
  // In the base game a river type is never unseen, and every land type is drawn from the stack.
  const State b = State::initial(Config{3, 4});
  CHECK(b.draw_stack() == 0);
  CHECK(b.draw_rule(tile_type("R5")) == DrawRule::none_unseen);
  CHECK(b.draw_types().end == kBaseTypes);
}

TEST_CASE("the river: a tile extends it at the open end, curves alternate (no U-turn)") {
  Game g(with("base+river"));
  // R8 (water S and W) at the open end (1,0), its water against the spring's: turned 0 it
  // flows on to the south (a right turn), turned 1 to the north (a left turn). Nothing else.
  CHECK(legal(g.state(), "R8") == Strings{"1,0,0", "1,0,1"});
  // A straight R5 (water E, W) fits turned 0 or 2.
  CHECK(legal(g.state(), "R5") == Strings{"1,0,0", "1,0,2"});
  g.turn("R8 1 0 1");  // left: the river now flows north, its open end at (1,-1)
  CHECK(g.state().river_end() == cell_of(1, -1));
  g.turn("R5 1 -1 1");  // a straight north
  // The next curve must turn right (east): turned 3 (water S and E). Turned 0 it would turn
  // left again, a U-turn though a straight lies between.
  CHECK(legal(g.state(), "R8") == Strings{"1,-2,3"});
  // A land tile is never drawn while the river flows, and D would not go at the open end.
  CHECK(g.state().river_left() == 9);
}

TEST_CASE("the river: its features take meeples like any tile's, nothing scores while it flows") {
  Game g(with("base+river"));
  // R4 (road N-S across the river) at the open end, turned 0: water W and E.
  CHECK(legal(g.state(), "R4") == Strings{"1,0,0", "1,0,2"});
  g.turn("R4 1 0 0 road:N,S");
  CHECK(g.supplies() == std::vector<int>{3, 4, 4});
  const auto& ev = g.turn("R2 2 0 2 city:S");  // city N turned 2 faces S; road S faces N
  CHECK(ev.empty());
  CHECK(g.supplies() == std::vector<int>{3, 3, 4});
}

TEST_CASE("pictures: water, inns, cathedrals on the tiles, the large meeple drawn larger") {
  // The river's water runs between its water edges; R4's road crosses it.
  const std::string r4 = sim::tile_art(tile_type("R4"), 0);
  CHECK(r4.find("class=\"water\"") != std::string::npos);
  CHECK(r4.find("class=\"road\"") != std::string::npos);
  CHECK(sim::tile_art(tile_type("U"), 0).find("water") == std::string::npos);
  CHECK(sim::tile_art(tile_type("I3"), 0).find("class=\"inn\"") != std::string::npos);
  CHECK(sim::tile_art(tile_type("I9"), 0).find("class=\"inn\"") == std::string::npos);  // no inn on I9
  CHECK(sim::tile_art(tile_type("I1"), 0).find("class=\"cathedral\"") != std::string::npos);
  CHECK(sim::tile_art(tile_type("I17"), 0).find("cathedral") == std::string::npos);
  CHECK(sim::meeple_svg(0, {0, 0}, "", "meeple", true).find("scale(") != std::string::npos);
  CHECK(sim::meeple_svg(0, {0, 0}, "", "meeple", false).find("scale(") == std::string::npos);
  // The text picture: water edges as '~' (R4 turned 0: water E and W, the road N-S).
  const auto rows = sim::tile_text(tile_type("R4"), 0, -1, 0);
  CHECK(rows[1].substr(0, 2) == "~ ");
  CHECK(rows[1].substr(4, 2) == "~ ");
  CHECK(sim::tile_text(tile_type("I1"), 0, -1, 0)[1].substr(2, 1) == "K");
}
