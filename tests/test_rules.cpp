// Scenario tests of rules.md, one rule line at a time. Every expected value is worked out
// by hand from the rules (the comments show the arithmetic); none is copied from a run.
//
// Board sketch conventions: x grows east, y grows south; the start tile D sits at (0,0)
// with its city to the N, its road running E-W and a field to the S.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "core/turn.hpp"
#include "tests/scenario.hpp"

namespace {

using namespace carc;
using carc::test::Game;
using carc::test::goal_names;
using Strings = std::vector<std::string>;
using Ints = std::vector<int>;

std::string as(int colour) { return std::to_string(colour) + ": "; }

// Every legal placement of `tile` as sorted "x,y,rot" strings.
Strings placements(const State& s, char tile) {
  Placement buf[kMaxPlacements];
  const int n = s.legal_placements(tile_type(tile), buf);
  Strings v;
  for (int i = 0; i < n; ++i)
    v.push_back(std::to_string(buf[i].x) + "," + std::to_string(buf[i].y) + "," +
                std::to_string(buf[i].rot));
  std::sort(v.begin(), v.end());
  CHECK(s.count_placements(tile_type(tile)) == n);
  return v;
}
Strings sorted(Strings v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------------------

TEST_CASE("set-up: start tile D at (0,0) unrotated, start scores, supplies, unseen tiles") {
  // The official game, and the default: three colours with four meeples each.
  CHECK(Config{}.colors == 3);
  CHECK(Config{}.meeples == 4);
  const State s = State::initial(Config{});
  CHECK(s.tiles_on_board() == 1);
  REQUIRE(s.tile_at(0, 0) == 0);
  CHECK(s.tile(0).type == tile_type('D'));
  CHECK(s.tile(0).rot == 0);
  CHECK(s.tile(0).meeple_seg == kNoSegment);
  CHECK(s.score(0) == 1);
  CHECK(s.score(1) == 2);
  CHECK(s.score(2) == 3);
  CHECK(s.lowest_score() == 1);
  for (int c = 0; c < 3; ++c) CHECK(s.supply(c) == 4);
  CHECK(s.to_move() == 0);
  CHECK(s.turn() == 0);
  CHECK_FALSE(s.ended());
  CHECK(s.discards() == 0);
  CHECK(s.unseen_total() == 71);
  for (int t = 0; t < kBaseTypes; ++t) {
    CAPTURE(tile_name(t));
    CHECK(s.unseen(t) == kTiles[t].count - (tile_name(t) == "D" ? 1 : 0));
  }
  // The start tile's four neighbours are the only open cells; its features are open.
  CHECK(s.open_count() == 4);
  CHECK(s.feature(s.feature_of(0, 0)).open == 1);  // city N
  CHECK(s.feature(s.feature_of(0, 1)).open == 2);  // road E-W
}

TEST_CASE("set-up: stacks of 71 tiles dealt as evenly as possible, the first ones larger") {
  const std::vector<Ints> want = {
      {36, 35}, {24, 24, 23}, {18, 18, 18, 17}, {15, 14, 14, 14, 14}, {12, 12, 12, 12, 12, 11}};
  for (int k = 2; k <= 6; ++k) {
    CAPTURE(k);
    const State s = State::initial({k, 4});
    Ints sizes, scores;
    for (int c = 0; c < k; ++c) {
      sizes.push_back(s.stack_left(c));
      scores.push_back(s.score(c));
    }
    CHECK(sizes == want[std::size_t(k - 2)]);
    Ints one_to_k(static_cast<std::size_t>(k), 0);
    for (int c = 0; c < k; ++c) one_to_k[std::size_t(c)] = c + 1;
    CHECK(scores == one_to_k);
  }
}

TEST_CASE("set-up: colours 2..6 and meeples 1..12 accepted, others rejected") {
  for (int k = 2; k <= 6; ++k)
    for (int m = 1; m <= 12; ++m) {
      CAPTURE(k);
      CAPTURE(m);
      State s = State::initial({k, m});
      CHECK(s.colors() == k);
      CHECK(s.meeples_per_color() == m);
      for (int c = 0; c < k; ++c) CHECK(s.supply(c) == m);
    }
  for (int k : {-1, 0, 1, 7, 8}) CHECK_THROWS_AS(State::initial({k, 4}), std::invalid_argument);
  for (int m : {-1, 0, 13, 20}) CHECK_THROWS_AS(State::initial({3, m}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// Step 1: the tile
// ---------------------------------------------------------------------------------------

TEST_CASE("placement: edge-adjacent, every touching edge matching, any rotation counted") {
  // Open cells around the start tile: (0,-1) must show a city S, (1,0) a road W,
  // (0,1) a field N, (-1,0) a road E.
  const State s = State::initial({3, 4});
  // C is a city on all sides: only (0,-1), and its 4 identical rotations count separately.
  CHECK(placements(s, 'C') == Strings{"0,-1,0", "0,-1,1", "0,-1,2", "0,-1,3"});
  // B is all field: only below the start tile.
  CHECK(placements(s, 'B') == Strings{"0,1,0", "0,1,1", "0,1,2", "0,1,3"});
  // U (road N-S) turned 1 or 3 is a road E-W with fields N and S.
  CHECK(placements(s, 'U') == sorted({"1,0,1", "1,0,3", "-1,0,1", "-1,0,3", "0,1,1", "0,1,3"}));
  // E: city S above the start tile; below it, any rotation but the city facing N.
  CHECK(placements(s, 'E') == sorted({"0,-1,2", "0,1,1", "0,1,2", "0,1,3"}));
  // D turned: r0 CRFR, r1 RCRF, r2 FRCR, r3 RFRC.
  CHECK(placements(s, 'D') == sorted({"0,-1,2", "1,0,0", "1,0,2", "0,1,2", "-1,0,0", "-1,0,2"}));
  // X (roads all round): both road ends of the start tile, all rotations.
  CHECK(placements(s, 'X') ==
        sorted({"1,0,0", "1,0,1", "1,0,2", "1,0,3", "-1,0,0", "-1,0,1", "-1,0,2", "-1,0,3"}));
}

TEST_CASE(
    "placement: a cell with two neighbours needs both edges to match, never an occupied cell") {
  Game g;
  g.turn("E 0 -1 2 city:S");  // closes the start city
  g.turn("U 1 0 1 road:E,W");
  // Open cells now: (0,-2) S=F; (-1,-1) E=F; (1,-1) W=F and S=F; (-1,0) E=R; (0,1) N=F;
  // (2,0) W=R; (1,1) N=F. E (city N) turned r has its city at N, E, S, W for r = 0..3.
  // At (1,-1) rotation 2 meets W but not S, rotation 3 meets S but not W: both illegal.
  CHECK(placements(g.state(), 'E') ==
        sorted({"0,-2,0", "0,-2,1", "0,-2,3", "-1,-1,0", "-1,-1,2", "-1,-1,3", "1,-1,0", "1,-1,1",
                "0,1,1", "0,1,2", "0,1,3", "1,1,1", "1,1,2", "1,1,3"}));
}

TEST_CASE("discard: a tile that fits nowhere is discarded and the same colour draws again") {
  Game g;
  // Colour 0 closes the start city with E: the city is D + E = 2 tiles, 4 points; colour 0
  // (score 1) is lowest and gains them.
  CHECK(g.turn("E 0 -1 2 city:S").size() == 1u);
  CHECK(g.scores() == Ints{5, 2, 3});
  // Now no open cell takes C (city on all sides): every cell wants a road or field.
  REQUIRE(g.state().count_placements(tile_type('C')) == 0);
  CHECK(g.state().to_move() == 1);
  g.turn("B 0 1 0 monastery", "C");  // colour 1 draws C, discards it, draws B
  const State& s = g.state();
  CHECK(s.discards() == 1);
  REQUIRE(g.env().discards.size() == 1u);
  CHECK(g.env().discards[0] == std::pair<int, std::string>{1, "C"});
  CHECK(s.tiles_on_board() == 3);
  CHECK(s.unseen(tile_type('C')) == 0);
  CHECK(s.stack_left(1) == 22);   // 24 - the discard - B
  CHECK(g.meeple_at(0, 1) == 1);  // colour 1 placed B with its meeple
  CHECK(s.turn() == 2);           // the discard and the redraw were one turn
  CHECK(s.to_move() == 2);
  CHECK_FALSE(s.ended());
}

TEST_CASE("discard: a colour whose last tile is discarded passes, and an empty stack is skipped") {
  Game g;
  g.turn("E 0 -1 2 city:S");
  StateTestAccess::set_stack_left(g.state(), 1, 1);  // colour 1 holds only one tile: C
  g.discard_turn("C");
  CHECK(g.state().stack_left(1) == 0);
  CHECK_FALSE(g.state().ended());
  CHECK(g.state().to_move() == 2);
  g.turn("U 1 0 1 road:E,W");  // colour 2
  CHECK(g.state().to_move() == 0);
  g.turn("U 2 0 1");  // colour 0; the next colour with tiles is 2, not 1
  CHECK(g.state().to_move() == 2);
}

TEST_CASE("end B: a discarded last tile ends the game by tiles_exhausted") {
  Game g;
  g.turn("E 0 -1 2 city:S");  // scores 5 2 3, every meeple back in supply
  StateTestAccess::set_stack_left(g.state(), 0, 0);
  StateTestAccess::set_stack_left(g.state(), 1, 1);
  StateTestAccess::set_stack_left(g.state(), 2, 0);
  g.discard_turn("C");
  CHECK(g.state().ended());
  CHECK(g.state().end_reason() == EndReason::tiles_exhausted);
  CHECK(g.state().discards() == 1);
  g.final_scoring();
  CHECK(g.env().finals.empty());
  CHECK(g.state().result() == 2);
  CHECK(goal_names(g.state().goals()) == "all_tiles");
}

TEST_CASE("turns: colours take turns 0, 1, ..., k-1, 0") {
  Game g({4, 4});
  CHECK(g.state().to_move() == 0);
  g.turn("U 1 0 1 road:E,W");
  CHECK(g.state().to_move() == 1);
  g.turn("U 2 0 1");
  CHECK(g.state().to_move() == 2);
  g.turn("U -1 0 1");
  CHECK(g.state().to_move() == 3);
  g.turn("U -2 0 1");
  CHECK(g.state().to_move() == 0);
  g.turn("U 3 0 1");
  CHECK(g.state().to_move() == 1);
  CHECK(g.state().turn() == 5);
  // Each colour drew from its own stack: 18, 18, 18, 17, one tile each, colour 0 two.
  CHECK(g.state().stack_left(0) == 16);
  CHECK(g.state().stack_left(1) == 17);
  CHECK(g.state().stack_left(2) == 17);
  CHECK(g.state().stack_left(3) == 16);
}

// ---------------------------------------------------------------------------------------
// Step 2: the meeple
// ---------------------------------------------------------------------------------------

TEST_CASE("free segments: a segment on a feature that holds a meeple is not free") {
  Game g;
  g.turn("U 1 0 1 road:E,W");  // colour 0 on the start road
  // L west of the start tile: its road E joins colour 0's road; city N, roads S and W are
  // new features.
  CHECK(g.free_if('L', -1, 0, 0) == Strings{"city:N", "road:S", "road:W"});
  g.turn("L -1 0 0 city:N");
  CHECK(g.env().free == Strings{"city:N", "road:S", "road:W"});
  CHECK(g.meeple_at(-1, 0) == 1);
  // E above L joins (and completes) colour 1's city: nothing on it is free, and its three
  // field edges never are. The city (2 tiles, 4 points) goes to colour 1 only if lowest:
  // scores 1 2 3, so no one gains, and colour 1's meeple comes home.
  CHECK(g.free_if('E', -1, -1, 2).empty());
  g.turn("E -1 -1 2");
  CHECK(g.env().free.empty());
  CHECK(g.meeple_at(-1, -1) == -1);
  CHECK(g.events() ==
        Strings{"city tiles=2 pennants=0 points=4 meeples=[1] majority=[1] low=1 awarded=[]"});
  CHECK(g.scores() == Ints{1, 2, 3});
  CHECK(g.supplies() == Ints{3, 4, 4});
}

TEST_CASE("free segments: a monastery is always free, fields never") {
  Game g;
  g.turn("U 1 0 1 road:E,W");
  // A west of the start tile: road E joins colour 0's road, the monastery is free.
  CHECK(g.free_if('A', -1, 0, 3) == Strings{"monastery"});
  g.turn("A -1 0 3 monastery");
  CHECK(g.env().free == Strings{"monastery"});
  // B (fields and a monastery) below the start tile: only the monastery.
  CHECK(g.free_if('B', 0, 1, 0) == Strings{"monastery"});
  // U turned 1 at (2,0) continues colour 0's road: nothing is free, although two of its
  // edges are fields.
  CHECK(g.free_if('U', 2, 0, 1).empty());
}

TEST_CASE("free segments: two segments of the tile on one feature (road loop through W)") {
  // A road loop D(0,0) - V(1,0) - V(1,1) - W(0,1) - V(-1,1) - V(-1,0) - D. W (roads E, S, W
  // ending at a crossing) closes it with two of its segments.
  Game g;
  g.turn("V 1 0 0 road:S,W");  // colour 0 on the start road
  g.turn("V 1 1 1");
  g.turn("V -1 0 3");
  g.turn("V -1 1 2");
  // W's road E and road W both join colour 0's loop: neither is free; road S is new.
  CHECK(g.free_if('W', 0, 1, 0) == Strings{"road:S"});
  g.turn("W 0 1 0 road:S");  // colour 1
  CHECK(g.env().free == Strings{"road:S"});
  // The loop: D, V, V, W, V, V = 6 distinct tiles (W counted once), 6 points to colour 0.
  CHECK(g.events() ==
        Strings{"road tiles=6 pennants=0 points=6 meeples=[0] majority=[0] low=1 awarded=[0]"});
  CHECK(g.scores() == Ints{7, 2, 3});
  CHECK(g.supplies() == Ints{4, 3, 4});
}

namespace {
// A city ring under the start tile: G (0,1) with colour 0's meeple, corners (-1,1),
// (1,1), (-1,2), (1,2), and H (0,2) closing it with both of its city segments.
// `corners` gives the four corner tiles (N, or M with a pennant).
void city_ring(Game& g, const std::string& corners) {
  g.turn("G 0 1 0 city:E,W");
  g.turn(std::string(1, corners[0]) + " -1 1 2");
  g.turn(std::string(1, corners[1]) + " 1 1 3");
  g.turn(std::string(1, corners[2]) + " -1 2 1");
  g.turn(std::string(1, corners[3]) + " 1 2 0");
}
}  // namespace

TEST_CASE("free segments and tile count: a city ring closed through an H tile") {
  Game g;
  city_ring(g, "NNNM");
  // H's city E and city W both join colour 0's ring: no free segment, no meeple.
  CHECK(g.free_if('H', 0, 2, 0).empty());
  g.turn("H 0 2 0");  // colour 2
  CHECK(g.meeple_at(0, 2) == -1);
  // 6 distinct tiles (H once although two of its segments are in the ring) and one pennant:
  // 2*6 + 2*1 = 14, to colour 0 (score 1, lowest).
  CHECK(g.events() ==
        Strings{"city tiles=6 pennants=1 points=14 meeples=[0] majority=[0] low=1 awarded=[0]"});
  CHECK(g.scores() == Ints{15, 2, 3});
  CHECK(g.supplies() == Ints{4, 4, 4});
  CHECK(goal_names(g.state().goals()) == "");  // 14 < 16
}

TEST_CASE("goals: city_16 at 16 points (ring with two pennants), not at 14") {
  Game g;
  city_ring(g, "NMNM");
  g.turn("H 0 2 0");
  // 2*6 + 2*2 = 16, one colour.
  CHECK(g.events() ==
        Strings{"city tiles=6 pennants=2 points=16 meeples=[0] majority=[0] low=1 awarded=[0]"});
  CHECK(g.scores() == Ints{17, 2, 3});
  CHECK(goal_names(g.state().goals()) == "city_16");
}

TEST_CASE("meeple: forced on a free segment while the supply lasts") {
  SUBCASE("no meeple although a segment is free: refused") {
    Game g;
    CHECK_THROWS_AS(g.turn("U 1 0 1"), std::logic_error);
  }
  SUBCASE("a meeple on a segment that is not free: refused") {
    Game g;
    g.turn("U 1 0 1 road:E,W");
    CHECK_THROWS_AS(g.turn("L -1 0 0 road:E"), std::logic_error);
  }
  SUBCASE("no free segment: no meeple, the supply is untouched") {
    Game g;
    g.turn("U 1 0 1 road:E,W");
    g.turn("U -1 0 1");
    CHECK(g.env().free.empty());
    CHECK(g.meeple_at(-1, 0) == -1);
    CHECK(g.supplies() == Ints{3, 4, 4});
  }
  SUBCASE("empty supply and no free segment: the game goes on") {
    Game g({3, 1});
    g.turn("U 1 0 1 road:E,W");
    CHECK(g.supplies() == Ints{0, 1, 1});
    g.turn("0: U 2 0 1");
    CHECK_FALSE(g.state().ended());
    CHECK_FALSE(g.state().forced_without_meeple());
    CHECK(g.state().to_move() == 1);
  }
}

namespace {
// One meeple per colour. Colour 0's road A(-1,0)-D-U(1,0) is closed by S at (2,0), whose
// new city would need colour 0's meeple, which stands on that very road.
void last_meeple_game(Game& g, bool last_tile) {
  g.turn("U 1 0 1 road:E,W");    // colour 0: its only meeple
  g.turn("A -1 0 3 monastery");  // colour 1: road E joins colour 0's road; monastery
  g.turn("B 0 1 0 monastery");   // colour 2
  if (last_tile) g.last_tile_next();
  CHECK(g.free_if('S', 2, 0, 1) == Strings{"city:N,E,S"});
  g.turn("S 2 0 1");  // colour 0: must place, cannot
}
}  // namespace

TEST_CASE("end A: no_meeple after the turn's scoring, and meeples returned that turn come too late") {
  Game g({3, 1});
  last_meeple_game(g, false);
  // The road A, D, U, S = 4 tiles, 4 points to colour 0 (score 1, lowest): the turn's
  // scoring happens, and colour 0's meeple comes home, but the game is over.
  CHECK(g.events() ==
        Strings{"road tiles=4 pennants=0 points=4 meeples=[0] majority=[0] low=1 awarded=[0]"});
  CHECK(g.scores() == Ints{5, 2, 3});
  CHECK(g.supplies() == Ints{1, 0, 0});
  CHECK(g.state().forced_without_meeple());
  CHECK(g.state().ended());
  CHECK(g.state().end_reason() == EndReason::no_meeple);
  CHECK(g.meeple_at(2, 0) == -1);
}

TEST_CASE("final scoring: 2 per meeple if its colour is lowest then, and the order matters") {
  // After the game above: scores 5 2 3; meeples left: colour 1 (A), colour 2 (B).
  SUBCASE("colour 1 first") {
    Game g({3, 1});
    last_meeple_game(g, false);
    g.final_scoring({1, 2});
    // 1: score 2 = low 2 -> 4 (5 4 3); 2: score 3 = low 3 -> 5 (5 4 5).
    CHECK(g.env().finals == std::vector<std::pair<int, int>>{{1, 2}, {2, 2}});
    CHECK(g.scores() == Ints{5, 4, 5});
    CHECK(g.state().result() == 4);
    CHECK(goal_names(g.state().goals()) == "");  // no all_tiles: ended by no_meeple
  }
  SUBCASE("colour 2 first") {
    Game g({3, 1});
    last_meeple_game(g, false);
    g.final_scoring({2, 1});
    // 2: score 3, low 2 -> nothing; 1: score 2 = low 2 -> 4 (5 4 3).
    CHECK(g.env().finals == std::vector<std::pair<int, int>>{{2, 0}, {1, 2}});
    CHECK(g.scores() == Ints{5, 4, 3});
    CHECK(g.state().result() == 3);
  }
}

TEST_CASE("final scoring: a colour tied for lowest is lowest, and scores") {
  // One meeple each, all on unfinished features; colour 0's B has a free monastery and no
  // meeple to put there: the game ends with the scores 1 2 3, nothing scored.
  Game g({3, 1});
  g.turn("U 1 0 1 road:E,W");    // colour 0
  g.turn("A -1 0 3 monastery");  // colour 1: its road joins colour 0's
  g.turn("B 0 1 0 monastery");   // colour 2
  g.turn("B 1 1 0");             // colour 0: must place, cannot
  REQUIRE(g.state().ended());
  CHECK(g.env().all_scored.empty());
  CHECK(g.scores() == Ints{1, 2, 3});
  g.final_scoring({0, 1, 2});
  // 0: 1 = low -> 3 (3 2 3); 1: 2 = low -> 4 (3 4 3); 2: 3 = low 3, tied with colour 0 -> 5.
  CHECK(g.env().finals == std::vector<std::pair<int, int>>{{0, 2}, {1, 2}, {2, 2}});
  CHECK(g.scores() == Ints{3, 4, 5});
  CHECK(g.state().result() == 3);
}

TEST_CASE("end: both conditions on one turn end the game by tiles_exhausted") {
  Game g({3, 1});
  last_meeple_game(g, true);  // S is the last tile of all
  CHECK(g.state().forced_without_meeple());
  CHECK(g.state().ended());
  CHECK(g.state().end_reason() == EndReason::tiles_exhausted);
  g.final_scoring({1, 2});
  CHECK(g.scores() == Ints{5, 4, 5});
  CHECK(goal_names(g.state().goals()) == "all_tiles");
}

// ---------------------------------------------------------------------------------------
// Step 3: scoring
// ---------------------------------------------------------------------------------------

TEST_CASE("seed Example 1: completing another colour's road, the meeple goes on the monastery") {
  Game g;
  g.turn("A -1 0 3 road:E");  // Red = colour 0
  // Green (colour 1) closes Red's road with a monastery tile: only the monastery is free.
  CHECK(g.free_if('A', 1, 0, 1) == Strings{"monastery"});
  g.turn("A 1 0 1 monastery");
  // Road A, D, A: 3 points; Red (1) is lowest.
  CHECK(g.events() ==
        Strings{"road tiles=3 pennants=0 points=3 meeples=[0] majority=[0] low=1 awarded=[0]"});
  CHECK(g.scores() == Ints{4, 2, 3});
  CHECK(g.supplies() == Ints{4, 3, 4});
}

namespace {
// Red (colour 0) on N above the start tile, Green (colour 2) on an E cap at (2,-1), joined
// by G at (1,-1): city D, N, G, E = 4 tiles, 8 points. Colour 1 holds the road below.
void two_colour_city(Game& g) {
  g.turn("N 0 -1 2 city:E,S");
  g.turn("U 1 0 1 road:E,W");
  g.turn("U 2 0 1");
  g.turn("2: E 2 -1 3 city:W");
}
}  // namespace

TEST_CASE("seed Example 2: a tie for the majority, both gain when one of them is lowest") {
  Game g;
  two_colour_city(g);
  g.turn("G 1 -1 0");
  CHECK(g.env().free.empty());
  // Red 1 is lowest: Red and Green both gain 8.
  CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,2] majority=[0,2] "
                              "low=1 awarded=[0,2]"});
  CHECK(g.scores() == Ints{9, 2, 11});
  CHECK(g.supplies() == Ints{4, 3, 4});
}

TEST_CASE("majority tie: the other tied colour being lowest is enough") {
  Game g;
  two_colour_city(g);
  g.set_scores({5, 6, 2});
  g.turn("G 1 -1 0");
  CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,2] majority=[0,2] "
                              "low=2 awarded=[0,2]"});
  CHECK(g.scores() == Ints{13, 6, 10});
}

TEST_CASE("majority tie: no award when no majority colour is lowest (low is over all colours)") {
  Game g;
  two_colour_city(g);
  g.set_scores({5, 2, 5});  // colour 1, not on the city, is lowest
  g.turn("G 1 -1 0");
  CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,2] majority=[0,2] "
                              "low=2 awarded=[]"});
  CHECK(g.scores() == Ints{5, 2, 5});
  CHECK(g.supplies() == Ints{4, 3, 4});  // the meeples come home all the same
}

namespace {
// A city of three arms around the hole (0,1) below the start tile: caps W (-1,1), E (1,1)
// and S (0,2), each started by its own placement (owners[0..2]), closed by `hole` turned
// twice (R, or Q with a pennant: city E, S, W). `long_west` makes the W arm G (-1,1) plus
// a cap (-2,1). Colour `sup` holds the start road and a monastery at (-1,2) that lets the S
// cap be placed.
const std::vector<ScoreEvent>& three_arm_city(Game& g, int sup, std::array<int, 3> owners,
                                              char hole, bool long_west) {
  g.turn(as(sup) + "U 1 0 1 road:E,W");
  g.turn("U -1 0 1");
  if (long_west) {
    g.turn(as(owners[0]) + "G -1 1 0 city:E,W");
    g.turn("E -2 1 1");
  } else {
    g.turn(as(owners[0]) + "E -1 1 1 city:E");
  }
  g.turn(as(owners[1]) + "E 1 1 3 city:W");
  g.turn(as(sup) + "B -1 2 0 monastery");
  g.turn(as(owners[2]) + "E 0 2 0 city:N");
  CHECK(g.free_if(hole, 0, 1, 2).empty());
  return g.turn(std::string(1, hole) + " 0 1 2");
}
}  // namespace

TEST_CASE("majority 2-1: only the majority colour gains") {
  Game g;
  three_arm_city(g, 2, {0, 0, 1}, 'R', false);
  // R + 3 caps = 4 tiles, 8 points. Colour 0 has 2 meeples, colour 1 one; colour 0 is
  // lowest (1).
  CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,0,1] majority=[0] "
                              "low=1 awarded=[0]"});
  CHECK(g.scores() == Ints{9, 2, 3});
  CHECK(g.supplies() == Ints{4, 4, 2});
  CHECK(goal_names(g.state().goals()) == "");  // one colour: no city_8_10_3c
}

TEST_CASE("majority 2-1: the minority colour being lowest gains no one anything") {
  Game g;
  g.turn("2: U 1 0 1 road:E,W");
  g.turn("U -1 0 1");
  g.turn("0: E -1 1 1 city:E");
  g.turn("0: E 1 1 3 city:W");
  g.turn("2: B -1 2 0 monastery");
  g.turn("1: E 0 2 0 city:N");
  g.set_scores({5, 2, 5});
  g.turn("R 0 1 2");
  CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,0,1] majority=[0] "
                              "low=2 awarded=[]"});
  CHECK(g.scores() == Ints{5, 2, 5});
  CHECK(g.supplies() == Ints{4, 4, 2});
}

TEST_CASE("lowest tied: a majority colour tied for lowest with a colour off the feature scores") {
  Game g;
  two_colour_city(g);
  g.set_scores({2, 2, 5});  // colour 0 (on the city) and colour 1 (not on it) share low = 2
  g.turn("G 1 -1 0");
  CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,2] majority=[0,2] "
                              "low=2 awarded=[0,2]"});
  CHECK(g.scores() == Ints{10, 2, 13});
}

TEST_CASE("lowest tied: the majority colour tied for lowest with the minority colour scores alone") {
  Game g;
  g.turn("2: U 1 0 1 road:E,W");
  g.turn("U -1 0 1");
  g.turn("0: E -1 1 1 city:E");
  g.turn("0: E 1 1 3 city:W");
  g.turn("2: B -1 2 0 monastery");
  g.turn("1: E 0 2 0 city:N");
  g.set_scores({3, 3, 5});  // colour 0 (two meeples) and colour 1 (one meeple) share low = 3
  g.turn("R 0 1 2");
  CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,0,1] majority=[0] "
                              "low=3 awarded=[0]"});
  CHECK(g.scores() == Ints{11, 3, 5});
  CHECK(g.supplies() == Ints{4, 4, 2});
}

TEST_CASE("scoring: a completed feature with no meeple is scored, with no award") {
  SUBCASE("meeple on the road: the city is scored for no one") {
    Game g;
    // J turned twice above the start tile: city S closes the start city (2 tiles), the
    // road N-W is new. Both are free; the meeple goes on the road.
    g.turn("J 0 -1 2 road:N,W");
    CHECK(g.env().free == Strings{"city:S", "road:N,W"});
    CHECK(g.events() ==
          Strings{"city tiles=2 pennants=0 points=4 meeples=[] majority=[] low=1 awarded=[]"});
    CHECK(g.scores() == Ints{1, 2, 3});
    CHECK(g.supplies() == Ints{3, 4, 4});
  }
  SUBCASE("meeple on the city (a free segment the tile completes): scored and home") {
    Game g;
    g.turn("J 0 -1 2 city:S");
    CHECK(g.events() ==
          Strings{"city tiles=2 pennants=0 points=4 meeples=[0] majority=[0] low=1 awarded=[0]"});
    CHECK(g.scores() == Ints{5, 2, 3});
    CHECK(g.supplies() == Ints{4, 4, 4});
  }
}

TEST_CASE("scoring: incomplete features never score, in play or at the end") {
  Game g;
  g.turn("U 1 0 1 road:E,W");  // colour 0
  g.turn("U 2 0 1");
  g.turn("N 0 -1 2 city:E,S");  // colour 2: the start city grows, still open
  CHECK(g.events().empty());
  g.last_tile_next();
  g.turn("U 3 0 1");  // colour 0, the last tile; the road (4 tiles) stays open
  CHECK(g.events().empty());
  CHECK(g.env().all_scored.empty());
  REQUIRE(g.state().end_reason() == EndReason::tiles_exhausted);
  g.final_scoring();
  // Only 2 per meeple: colour 0 (1, lowest) -> 3; colour 2 (3, low 2) nothing.
  CHECK(g.env().finals == std::vector<std::pair<int, int>>{{0, 2}, {2, 0}});
  CHECK(g.scores() == Ints{3, 2, 3});
  CHECK(g.state().result() == 2);
}

namespace {
// The 8 cells around (0,1) as a road loop through the start tile:
// D(0,0) V(1,0) U(1,1) V(1,2) U(0,2) V(-1,2) U(-1,1) V(-1,0).
const char* const kLoop[] = {"V 1 0 0",  "U 1 1 0",  "V 1 2 1", "U 0 2 1",
                             "V -1 2 2", "U -1 1 0", "V -1 0 3"};
}  // namespace

TEST_CASE("monastery: 9 points when a neighbouring placement fills its 8th neighbour") {
  SUBCASE("as found: the road first, then the monastery") {
    Game g;
    g.turn("B 0 1 0 monastery");                  // colour 0
    g.turn(std::string(kLoop[0]) + " road:S,W");  // colour 1 on the start road
    for (int i = 1; i < 6; ++i) {
      g.turn(kLoop[i]);
      CHECK(g.events().empty());
    }
    g.turn(kLoop[6]);  // colour 1 closes the loop and fills the monastery's last neighbour
    // Road: 8 tiles, colour 1 (2) is not lowest (1). Monastery: colour 0 (1) gains 9.
    CHECK(g.events() ==
          Strings{"road tiles=8 pennants=0 points=8 meeples=[1] majority=[1] low=1 awarded=[]",
                  "monastery tiles=9 pennants=0 points=9 meeples=[0] majority=[0] low=1 "
                  "awarded=[0]"});
    CHECK(g.scores() == Ints{10, 2, 3});
    CHECK(g.supplies() == Ints{4, 4, 4});
    CHECK(g.state().monasteries_scored() == 1);
  }
  SUBCASE("monastery first: low is recomputed, then the road is awarded too") {
    Game g;
    g.turn("B 0 1 0 monastery");
    g.turn(std::string(kLoop[0]) + " road:S,W");
    for (int i = 1; i < 6; ++i) g.turn(kLoop[i]);
    g.order_next({"0 1 monastery", "1 0 road:S,W"});
    g.turn(kLoop[6]);
    // Monastery: 1 -> 10 (10 2 3); road: low is now 2, colour 1 -> 10 (10 10 3).
    CHECK(g.events() ==
          Strings{"monastery tiles=9 pennants=0 points=9 meeples=[0] majority=[0] low=1 "
                  "awarded=[0]",
                  "road tiles=8 pennants=0 points=8 meeples=[1] majority=[1] low=2 awarded=[1]"});
    CHECK(g.scores() == Ints{10, 10, 3});
  }
}

TEST_CASE("monastery: placed into a fully surrounded hole it scores that turn") {
  Game g;
  g.turn(std::string(kLoop[0]) + " road:S,W");  // colour 0
  for (int i = 1; i < 7; ++i) g.turn(kLoop[i]);
  // The loop: 8 tiles, colour 0 (1, lowest) -> 9.
  CHECK(g.events() ==
        Strings{"road tiles=8 pennants=0 points=8 meeples=[0] majority=[0] low=1 awarded=[0]"});
  CHECK(placements(g.state(), 'B') ==
        sorted({"0,1,0",  "0,1,1",  "0,1,2",  "0,1,3",  "-2,0,0",  "-2,0,1",  "-2,0,2",  "-2,0,3",
                "2,0,0",  "2,0,1",  "2,0,2",  "2,0,3",  "-1,-1,0", "-1,-1,1", "-1,-1,2", "-1,-1,3",
                "1,-1,0", "1,-1,1", "1,-1,2", "1,-1,3", "-2,1,0",  "-2,1,1",  "-2,1,2",  "-2,1,3",
                "2,1,0",  "2,1,1",  "2,1,2",  "2,1,3",  "-2,2,0",  "-2,2,1",  "-2,2,2",  "-2,2,3",
                "2,2,0",  "2,2,1",  "2,2,2",  "2,2,3",  "-1,3,0",  "-1,3,1",  "-1,3,2",  "-1,3,3",
                "0,3,0",  "0,3,1",  "0,3,2",  "0,3,3",  "1,3,0",   "1,3,1",   "1,3,2",   "1,3,3"}));
  g.turn("B 0 1 0 monastery");  // colour 1 (score 2, lowest: 9 2 3)
  CHECK(g.events() == Strings{"monastery tiles=9 pennants=0 points=9 meeples=[1] majority=[1] "
                              "low=2 awarded=[1]"});
  CHECK(g.scores() == Ints{9, 11, 3});
  CHECK(g.supplies() == Ints{4, 4, 4});
}

namespace {
// Seed text, Example 3: one L tile at (1,0) completes Yellow's road (3 tiles), Red's road
// (4 tiles) and Green's city (2 tiles). Yellow = 0, Red = 1, Green = 2.
void example3(Game& g) {
  g.turn("0: E 0 -1 2 city:S");   // closes the start city (scored; scores are reset below)
  g.turn("2: E 1 -1 2 city:S");   // Green's city cap above (1,0)
  g.turn("0: A -1 0 3 road:E");   // Yellow's road: A - D - (1,0)
  g.turn("1: V 0 1 3 road:E,S");  // Red's road: (1,0) - V(1,1) - V(0,1) - A(0,2)
  g.turn("V 1 1 1");
  g.turn("A 0 2 2 monastery");
  g.set_scores({10, 11, 12});
  CHECK(g.state().to_move() == 1);
  CHECK(g.free_if('L', 1, 0, 0) == Strings{"road:E"});
}
}  // namespace

TEST_CASE("seed Example 3: Yellow's road, then Red's road, then Green's city: all three gain") {
  Game g;
  example3(g);
  g.order_next({"-1 0 road:E", "0 1 road:E,S", "1 -1 city:S"});
  g.turn("L 1 0 0 road:E");
  // Yellow: low 10 -> 13 (13 11 12); Red: low 11 -> 15 (13 15 12); Green: low 12 -> 16.
  CHECK(g.events() ==
        Strings{"road tiles=3 pennants=0 points=3 meeples=[0] majority=[0] low=10 awarded=[0]",
                "road tiles=4 pennants=0 points=4 meeples=[1] majority=[1] low=11 awarded=[1]",
                "city tiles=2 pennants=0 points=4 meeples=[2] majority=[2] low=12 awarded=[2]"});
  CHECK(g.scores() == Ints{13, 15, 16});
  CHECK(g.supplies() == Ints{3, 3, 4});
}

TEST_CASE("seed Example 3: another order does not award all three") {
  Game g;
  example3(g);
  g.turn("L 1 0 0 road:E");  // as found: the tile's segments in order, city N first
  // Green's city: low 10, Green 12: none. Red's road: low 10: none. Yellow's: 10 -> 13.
  CHECK(g.events() ==
        Strings{"city tiles=2 pennants=0 points=4 meeples=[2] majority=[2] low=10 awarded=[]",
                "road tiles=4 pennants=0 points=4 meeples=[1] majority=[1] low=10 awarded=[]",
                "road tiles=3 pennants=0 points=3 meeples=[0] majority=[0] low=10 awarded=[0]"});
  CHECK(g.scores() == Ints{13, 11, 12});
  // Every meeple of the three features is home; Yellow's monastery and Red's L meeple stay.
  CHECK(g.supplies() == Ints{3, 3, 4});
}

// ---------------------------------------------------------------------------------------
// Goals
// ---------------------------------------------------------------------------------------

namespace {
// A road from A (-1,0) east through the start tile to V (3,0), down to V (3,1) and back
// west along row 1 to an A: at (-1,1) the road has 10 tiles, at (0,1) 9. Every part
// started on its own carries its owner's meeple; the last V joins them.
//   10 tiles, 3 parts: A(-1,0) | A(-1,1) | U(1,1), joined by U(0,1), closed by V(3,1)
//   10 tiles, 2 parts: A(-1,0) | A(-1,1)
//    9 tiles, 3 parts: A(-1,0) | A(0,1)  | U(2,1), joined by U(1,1)
// With 11 tiles the road turns down one cell further east, at V (4,0) and V (4,1):
//   11 tiles, 3 parts: A(-1,0) | A(0,1)  | U(2,1), joined by U(1,1) and U(3,1)
const std::vector<ScoreEvent>& two_row_road(Game& g, int tiles, std::vector<int> owners) {
  g.turn(as(owners[0]) + "A -1 0 3 road:E");
  g.turn("U 1 0 1");
  g.turn("U 2 0 1");
  if (tiles == 11) {
    g.turn("U 3 0 1");
    g.turn("V 4 0 0");
    g.turn(as(owners[1]) + "A 0 1 3 road:E");
    g.turn(as(owners[2]) + "U 2 1 1 road:E,W");
    g.turn("U 1 1 1");
    g.turn("U 3 1 1");
    CHECK(g.env().all_scored.empty());
    return g.turn("V 4 1 1");
  }
  g.turn("V 3 0 0");
  if (tiles == 9) {
    g.turn(as(owners[1]) + "A 0 1 3 road:E");
    g.turn(as(owners[2]) + "U 2 1 1 road:E,W");
    g.turn("U 1 1 1");
  } else if (owners.size() == 3) {
    g.turn(as(owners[1]) + "A -1 1 3 road:E");
    g.turn(as(owners[2]) + "U 1 1 1 road:E,W");
    g.turn("U 0 1 1");
    g.turn("U 2 1 1");
  } else {
    g.turn(as(owners[1]) + "A -1 1 3 road:E");
    g.turn("U 0 1 1");
    g.turn("U 1 1 1");
    g.turn("U 2 1 1");
  }
  CHECK(g.env().all_scored.empty());
  return g.turn("V 3 1 1");
}
}  // namespace

TEST_CASE("goals: road_10, road_10_2c, road_10_3c at 10 and 11 points, none at 9") {
  SUBCASE("10 points, three colours") {
    Game g;
    two_row_road(g, 10, {0, 1, 2});
    CHECK(g.events() == Strings{"road tiles=10 pennants=0 points=10 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{11, 12, 13});
    CHECK(goal_names(g.state().goals()) == "road_10 road_10_2c road_10_3c");
  }
  SUBCASE("11 points, three colours: above the threshold counts") {
    Game g;
    two_row_road(g, 11, {0, 1, 2});
    CHECK(g.events() == Strings{"road tiles=11 pennants=0 points=11 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{12, 13, 14});
    CHECK(goal_names(g.state().goals()) == "road_10 road_10_2c road_10_3c");
  }
  SUBCASE("9 points, three colours") {
    Game g;
    two_row_road(g, 9, {0, 1, 2});
    CHECK(g.events() == Strings{"road tiles=9 pennants=0 points=9 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{10, 11, 12});
    CHECK(goal_names(g.state().goals()) == "");
  }
  SUBCASE("10 points, two colours") {
    Game g;
    two_row_road(g, 10, {0, 1});
    CHECK(g.events() == Strings{"road tiles=10 pennants=0 points=10 meeples=[0,1] "
                                "majority=[0,1] low=1 awarded=[0,1]"});
    CHECK(g.scores() == Ints{11, 12, 3});
    CHECK(goal_names(g.state().goals()) == "road_10 road_10_2c");
  }
  SUBCASE("10 points, one colour with two meeples") {
    Game g;
    two_row_road(g, 10, {0, 0});
    CHECK(g.events() == Strings{"road tiles=10 pennants=0 points=10 meeples=[0,0] "
                                "majority=[0] low=1 awarded=[0]"});
    CHECK(g.scores() == Ints{11, 2, 3});
    CHECK(goal_names(g.state().goals()) == "road_10");
  }
  SUBCASE("10 points not awarded: no goal") {
    Game g;
    two_row_road(g, 10, {1, 1});  // colour 1 (2) is not lowest (1)
    CHECK(g.events() == Strings{"road tiles=10 pennants=0 points=10 meeples=[1,1] "
                                "majority=[1] low=1 awarded=[]"});
    CHECK(goal_names(g.state().goals()) == "");
  }
}

namespace {
// A road along row 1 over a road along row 0 (U at -2..2, or -2..3):
//   5 tiles: A(-2,1) | U(0,1) | A(2,1), joined by U(-1,1) and U(1,1)
//   6 tiles: A(-2,1) | U(0,1) | A(3,1) + D(2,1), joined the same way
// owners[i] holds the meeple of part i.
const std::vector<ScoreEvent>& row_road(Game& g, int tiles, std::array<int, 3> owners) {
  g.turn("U 1 0 1 road:E,W");  // colour 0
  g.turn("U -1 0 1");
  g.turn("U 2 0 1");
  g.turn("U -2 0 1");
  if (tiles == 6) g.turn("U 3 0 1");
  g.turn(as(owners[0]) + "A -2 1 3 road:E");
  g.turn(as(owners[1]) + "U 0 1 1 road:E,W");
  if (tiles == 5) {
    g.turn(as(owners[2]) + "A 2 1 1 road:W");
  } else {
    g.turn(as(owners[2]) + "A 3 1 1 road:W");
    g.turn("D 2 1 2 city:S");  // road E-W joins the A; its new city takes the meeple
  }
  g.turn("U -1 1 1");
  CHECK(g.env().all_scored.empty());
  return g.turn("U 1 1 1");
}
}  // namespace

TEST_CASE("goals: road_5_3c for exactly 5 points with three colours") {
  SUBCASE("5 points, three colours") {
    Game g;
    row_road(g, 5, {0, 1, 2});
    CHECK(g.events() == Strings{"road tiles=5 pennants=0 points=5 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{6, 7, 8});
    CHECK(goal_names(g.state().goals()) == "road_5_3c");
  }
  SUBCASE("6 points, three colours") {
    Game g;
    row_road(g, 6, {0, 1, 2});
    CHECK(g.events() == Strings{"road tiles=6 pennants=0 points=6 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{7, 8, 9});
    CHECK(goal_names(g.state().goals()) == "");
  }
  SUBCASE("5 points, one colour in the majority") {
    Game g;
    row_road(g, 5, {0, 0, 1});
    CHECK(g.events() == Strings{"road tiles=5 pennants=0 points=5 meeples=[0,0,1] "
                                "majority=[0] low=1 awarded=[0]"});
    CHECK(g.scores() == Ints{6, 2, 3});
    CHECK(goal_names(g.state().goals()) == "");
  }
  SUBCASE("5 points, two colours in the majority") {
    // A(-2,1) and A(2,1) with a meeple each, joined by three U that take none.
    Game g;
    g.turn("U 1 0 1 road:E,W");  // colour 0
    g.turn("U -1 0 1");
    g.turn("U 2 0 1");
    g.turn("U -2 0 1");
    g.turn(as(0) + "A -2 1 3 road:E");
    g.turn(as(1) + "A 2 1 1 road:W");
    g.turn("U -1 1 1");
    g.turn("U 1 1 1");
    CHECK(g.env().all_scored.empty());
    g.turn("U 0 1 1");
    CHECK(g.events() == Strings{"road tiles=5 pennants=0 points=5 meeples=[0,1] "
                                "majority=[0,1] low=1 awarded=[0,1]"});
    CHECK(g.scores() == Ints{6, 7, 3});
    CHECK(goal_names(g.state().goals()) == "");  // two colours: not road_5_3c
  }
  // 4 points with three colours cannot happen: three parts with a meeple each need two more
  // tiles to join them.
}

TEST_CASE("goals: city_8_10_3c for 8 to 10 points with three colours") {
  SUBCASE("8 points: R and three caps") {
    Game g;
    three_arm_city(g, 0, {0, 1, 2}, 'R', false);
    CHECK(g.events() == Strings{"city tiles=4 pennants=0 points=8 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{9, 10, 11});
    CHECK(goal_names(g.state().goals()) == "city_8_10_3c");
  }
  SUBCASE("10 points: Q (pennant) and three caps") {
    Game g;
    three_arm_city(g, 0, {0, 1, 2}, 'Q', false);
    CHECK(g.events() == Strings{"city tiles=4 pennants=1 points=10 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{11, 12, 13});
    CHECK(goal_names(g.state().goals()) == "city_8_10_3c");
  }
  SUBCASE("12 points: Q, a G and three caps") {
    Game g;
    three_arm_city(g, 0, {0, 1, 2}, 'Q', true);
    CHECK(g.events() == Strings{"city tiles=5 pennants=1 points=12 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{13, 14, 15});
    CHECK(goal_names(g.state().goals()) == "");
  }
  // 6 points (3 tiles) with three colours cannot happen, as for roads.
}

namespace {
// A city along row 1 over a road along row 0 (U at -2..2): cap E(-2,1), G(-1,1), `middle`
// (Q or R turned twice, city E-S-W) at (0,1) with a cap E(0,2) below, F(1,1), cap E(2,1).
// With Q: 6 tiles, pennants Q and F: 16 points; with R: 14. owners: the parts' meeples
// (three parts: W cap | middle | E cap; two parts: W cap | middle, the E cap joins later).
// G closes the city last. `long_west` moves the W cap to (-3,1) (over U (-3,0)) and puts
// an F (a pennant) at (-2,1): with R, 7 tiles and 2 pennants, 18 points.
const std::vector<ScoreEvent>& row_city(Game& g, char middle, std::vector<int> owners,
                                        bool long_west = false) {
  g.turn("U 1 0 1 road:E,W");  // colour 0
  g.turn("U -1 0 1");
  g.turn("U 2 0 1");
  g.turn("U -2 0 1");
  if (long_west) {
    g.turn("U -3 0 1");
    g.turn(as(owners[0]) + "E -3 1 1 city:E");
    g.turn("F -2 1 0");
  } else {
    g.turn(as(owners[0]) + "E -2 1 1 city:E");
  }
  g.turn(as(owners[1]) + std::string(1, middle) + " 0 1 2 city:E,S,W");
  g.turn("E 0 2 0");
  if (owners.size() == 3) {
    g.turn(as(owners[2]) + "E 2 1 3 city:W");
    g.turn("F 1 1 0");
  } else {
    g.turn("F 1 1 0");
    g.turn("E 2 1 3");
  }
  CHECK(g.env().all_scored.empty());
  return g.turn("G -1 1 0");
}
}  // namespace

TEST_CASE("goals: city_16, city_16_2c, city_16_3c at 16 and 18 points, none at 14") {
  SUBCASE("16 points, three colours") {
    Game g;
    row_city(g, 'Q', {0, 1, 2});
    CHECK(g.events() == Strings{"city tiles=6 pennants=2 points=16 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{17, 18, 19});
    CHECK(goal_names(g.state().goals()) == "city_16 city_16_2c city_16_3c");
  }
  SUBCASE("18 points, three colours: above the threshold counts") {
    Game g;
    row_city(g, 'R', {0, 1, 2}, true);
    CHECK(g.events() == Strings{"city tiles=7 pennants=2 points=18 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{19, 20, 21});
    CHECK(goal_names(g.state().goals()) == "city_16 city_16_2c city_16_3c");
  }
  SUBCASE("14 points, three colours") {
    Game g;
    row_city(g, 'R', {0, 1, 2});
    CHECK(g.events() == Strings{"city tiles=6 pennants=1 points=14 meeples=[0,1,2] "
                                "majority=[0,1,2] low=1 awarded=[0,1,2]"});
    CHECK(g.scores() == Ints{15, 16, 17});
    CHECK(goal_names(g.state().goals()) == "");
  }
  SUBCASE("16 points, two colours") {
    Game g;
    row_city(g, 'Q', {0, 1});
    CHECK(g.events() == Strings{"city tiles=6 pennants=2 points=16 meeples=[0,1] "
                                "majority=[0,1] low=1 awarded=[0,1]"});
    CHECK(g.scores() == Ints{17, 18, 3});
    CHECK(goal_names(g.state().goals()) == "city_16 city_16_2c");
  }
  SUBCASE("16 points, one colour in the majority (2-1)") {
    Game g;
    row_city(g, 'Q', {0, 1, 0});
    CHECK(g.events() == Strings{"city tiles=6 pennants=2 points=16 meeples=[0,0,1] "
                                "majority=[0] low=1 awarded=[0]"});
    CHECK(g.scores() == Ints{17, 2, 3});
    CHECK(goal_names(g.state().goals()) == "city_16");
  }
}

namespace {
// Four monasteries B in the square (0..1, 1..2) under the start tile, then a road ring of
// 11 tiles round them from (1,0) clockwise to (-1,0). Ring tile (2,2) completes B(1,1),
// (0,3) completes B(1,2), (-1,1) completes B(0,2), (-1,0) completes B(0,1) and the ring
// road (12 tiles, colour 1's meeple). The meeples of B(0,1) and B(0,2) are `b01`, `b02`.
void four_monasteries(Game& g, int b01, int b02) {
  g.turn(as(b01) + "B 0 1 0 monastery");
  g.turn("0: B 1 1 0 monastery");
  g.turn(as(b02) + "B 0 2 0 monastery");
  g.turn("1: B 1 2 0 monastery");
  g.turn("1: U 1 0 1 road:E,W");
  for (const char* line : {"V 2 0 0", "U 2 1 0", "U 2 2 0", "V 2 3 1", "U 1 3 1", "U 0 3 1",
                           "V -1 3 2", "U -1 2 0", "U -1 1 0", "V -1 0 3"})
    g.turn(line);
}
}  // namespace

TEST_CASE("goals: monastery_3 and monastery_4 count monasteries whose points were awarded") {
  // B(1,1) colour 0: 1 -> 10 (10 2 3). B(1,2) colour 1: 2 -> 11 (10 11 3).
  SUBCASE("four awarded") {
    Game g;
    four_monasteries(g, 0, 2);
    // B(0,2) colour 2: 3 -> 12 (10 11 12). Last tile: the road (colour 1, 11, low 10)
    // gains nothing; B(0,1) colour 0 (10, lowest) -> 19.
    CHECK(g.events() == Strings{"road tiles=12 pennants=0 points=12 meeples=[1] majority=[1] "
                                "low=10 awarded=[]",
                                "monastery tiles=9 pennants=0 points=9 meeples=[0] majority=[0] "
                                "low=10 awarded=[0]"});
    CHECK(g.scores() == Ints{19, 11, 12});
    CHECK(g.state().monasteries_scored() == 4);
    CHECK(goal_names(g.state().goals()) == "monastery_3 monastery_4");
  }
  SUBCASE("five awarded") {
    Game g({3, 8});  // the fifth monastery's neighbours each take a meeple
    four_monasteries(g, 0, 2);
    REQUIRE(g.scores() == Ints{19, 11, 12});
    // An A turned to face east at (3,1), east of the ring, and the five cells round it
    // that the ring does not fill; colour 1 (11, lowest) owns it.
    g.turn("1: A 3 1 3 monastery");
    g.turn("2: U 4 1 1 road:E,W");
    g.turn("0: E 3 0 0 city:N");
    g.turn("2: E 4 0 0 city:N");
    g.turn("0: E 3 2 2 city:S");
    CHECK(g.env().all_scored.size() == 5);  // the ring road and the four monasteries
    g.turn("2: E 4 2 2 city:S");
    CHECK(g.events() == Strings{"monastery tiles=9 pennants=0 points=9 meeples=[1] majority=[1] "
                                "low=11 awarded=[1]"});
    CHECK(g.scores() == Ints{19, 20, 12});
    CHECK(g.state().monasteries_scored() == 5);
    CHECK(goal_names(g.state().goals()) == "monastery_3 monastery_4");
  }
  SUBCASE("three awarded") {
    Game g;
    four_monasteries(g, 1, 2);
    // As above, but B(0,1) is colour 1's (11, low 10): not awarded.
    CHECK(g.scores() == Ints{10, 11, 12});
    CHECK(g.state().monasteries_scored() == 3);
    CHECK(goal_names(g.state().goals()) == "monastery_3");
  }
  SUBCASE("two awarded") {
    Game g;
    four_monasteries(g, 0, 1);
    // B(0,2) colour 1 (11, low 3): no. B(0,1) colour 0 (10, low 3): no.
    CHECK(g.scores() == Ints{10, 11, 3});
    CHECK(g.state().monasteries_scored() == 2);
    CHECK(goal_names(g.state().goals()) == "");
  }
}

namespace {
// Colour 0 has a meeple on the start road; its score is set to `before`, the others to 70;
// colour 1 places the last tile; final scoring gives colour 0 (lowest) 2 points.
GoalMask total_goals(int before) {
  Game g;
  g.turn("U 1 0 1 road:E,W");
  g.set_scores({before, 70, 70});
  g.last_tile_next();
  g.turn("U 2 0 1");
  REQUIRE(g.state().end_reason() == EndReason::tiles_exhausted);
  g.final_scoring();
  CHECK(g.state().result() == before + 2);
  return GoalMask(g.state().goals() & ~goal_bit(Goal::all_tiles));
}
}  // namespace

TEST_CASE("goals: total_40, total_50, total_60 on the result after final scoring") {
  CHECK(goal_names(total_goals(37)) == "");
  CHECK(goal_names(total_goals(38)) == "total_40");
  CHECK(goal_names(total_goals(47)) == "total_40");
  CHECK(goal_names(total_goals(48)) == "total_40 total_50");
  CHECK(goal_names(total_goals(57)) == "total_40 total_50");
  CHECK(goal_names(total_goals(58)) == "total_40 total_50 total_60");
}

TEST_CASE("result: the lowest score among all colours") {
  Game g({4, 4});
  g.turn("U 1 0 1 road:E,W");
  g.set_scores({30, 12, 44, 13});
  g.last_tile_next();
  g.turn("U 2 0 1");
  g.final_scoring();  // colour 0's meeple: 30 is not lowest (12)
  CHECK(g.scores() == Ints{30, 12, 44, 13});
  CHECK(g.state().result() == 12);
  CHECK(goal_names(g.state().goals()) == "all_tiles");
}
