// The heuristic's terms one by one (policies/heuristic/terms.hpp, HeuristicEvaluator::terms):
// on scripted boards, each term's sign and its exact value (or bounds, where it rests on
// chances), and on the positions of seeded games that the terms add up to what
// evaluate() gives.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/turn.hpp"
#include "policies/heuristic/heuristic.hpp"
#include "policies/lookahead.hpp"
#include "policies/placement_analysis.hpp"
#include "policies/turn_scoring.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/tilesets.hpp"
#include "tests/scenario.hpp"
#include "tests/seeded_games.hpp"

namespace {

using namespace carc;

const HeuristicWeights kDefaults{};

// The move "TILE x y rot [segment]" for the colour to move, drawn from the unseen tiles
// first (as the turn would).
struct Candidate {
  State state;
  int type = 0;
  Move move;
};

Candidate candidate(const State& s, std::string_view line) {
  const test::Line l = test::parse_line(line);
  Candidate c{s, tile_type(l.tile), Move{}};
  REQUIRE(c.state.unseen(c.type) > 0);
  c.state.draw(c.type);
  Placement legal[kMaxPlacements];
  const int n = c.state.legal_placements(c.type, legal);
  bool found = false;
  for (int i = 0; i < n; ++i)
    if (legal[i].x == l.x && legal[i].y == l.y && legal[i].rot == l.rot) {
      c.move.at = legal[i];
      found = true;
    }
  REQUIRE_MESSAGE(found, line << " is not legal");
  if (!l.meeple.empty()) {
    const int seg = test::segment_index(c.type, l.rot, l.meeple);
    REQUIRE(seg >= 0);
    c.move.seg = std::uint8_t(seg);
    c.move.large = l.large;
  }
  return c;
}

// A game of a built-in tile set (3 colours x 4 meeples), with or without the large meeple.
Config config_of(const char* set, bool large) { return Config{3, 4, sim::load_ruleset(set, large)}; }

HeuristicTerms terms_of(const State& s, std::string_view line,
                        const HeuristicWeights& w = kDefaults) {
  const Candidate c = candidate(s, line);
  HeuristicEvaluator eval(w);
  return eval.terms(c.state, c.type, c.move);
}

// Unseen tiles the colour to move next could place with no free segment: some open cell
// and rotation where the tile fits and each of its road and city segments touches a side
// whose neighbouring feature holds a meeple; no monastery (heuristic.hpp, `absorb`).
// Read off a State by brute force.
int absorbing_unseen(const State& s) {
  int count = 0;
  for (int t = 0; t < kTileTypes; ++t) {
    if (s.unseen(t) == 0 || kMonasterySeg[t] != kNoSeg) continue;
    bool placeable = false;
    for (int j = 0; j < s.open_count() && !placeable; ++j) {
      const OpenCell& oc = s.open_cell(j);
      unsigned occupied = 0;
      for (int d = 0; d < 4; ++d) {
        const int v = s.tile_at(oc.x + kDx[d], oc.y + kDy[d]);
        if (v == kNoTile) continue;
        const PlacedTile& u = s.tile(v);
        const int us = kOriented[u.type][u.rot].seg[opposite(d)];
        if (us != kNoSeg && s.feature(s.feature_of(v, us)).meeple_total > 0) occupied |= 1u << d;
      }
      for (int r = 0; r < 4 && !placeable; ++r) {
        if (!(kFits[oc.code][t] >> r & 1)) continue;
        bool each = true;
        for (int sg = 0; sg < kTiles[t].nseg; ++sg)
          each &= (kOriented[t][r].seg_edges[sg] & occupied) != 0;
        placeable = each;
      }
    }
    if (placeable) count += s.unseen(t);
  }
  return count;
}

}  // namespace

// The start tile D at (0, 0): a city edge to the north, a road from west to east.

TEST_CASE("heuristic term compact: compact per tile among the 8 cells around") {
  test::Game g;
  HeuristicTerms t = terms_of(g.state(), "U 1 0 1 road:E,W");
  CHECK(t.compact == 0.3 * 1);  // the start tile only
  g.turn("U 1 0 1 road:E,W");
  g.turn("E 1 -1 0 city:N");
  t = terms_of(g.state(), "E 0 -1 2 city:S");  // beside D, U and the E at (1, -1)
  CHECK(t.compact == 0.3 * 3);
  CHECK(t.compact > 0);
  HeuristicWeights none;
  none.compact = 0;
  CHECK(terms_of(g.state(), "E 0 -1 2 city:S", none).compact == 0);
}

TEST_CASE("heuristic terms scores and supply: exact after a move that completes a city") {
  // Colour 0 (score 1, the lowest) closes D's city with E and its meeple: 2 tiles, 4
  // points, awarded to colour 0, the meeple back at once. Scores 5, 2, 3; nothing with a
  // meeple stays on the board, so nothing more is expected.
  test::Game g;
  const HeuristicTerms t = terms_of(g.state(), "E 0 -1 2 city:S");
  CHECK_FALSE(t.ended);
  CHECK(t.scores == 0.5 * 2.0 + 0.5 * 10.0 / 3);  // low 2, mean 10/3
  CHECK(t.supply == 2.0 * 12);                    // 12 meeples in supply, none on the board
  CHECK(t.empty == 0);
  CHECK(t.one == 0);
  CHECK(t.urgent == 0);
  CHECK(t.sink == 0);  // D's city held no meeple, and the meeple's city has no open edge
}

TEST_CASE("heuristic terms scores and supply: a meeple on an unfinished road, by its chances") {
  // Colour 0 puts a meeple on a 2-tile road with two open ends: it can expect up to the
  // road's 2 points (it is the lowest colour: full award weight) and its meeple back,
  // each with a chance strictly between 0 and 1.
  test::Game g;
  const HeuristicTerms t = terms_of(g.state(), "U 1 0 1 road:E,W");
  // Expected scores (1 + gain, 2, 3) with 0 < gain < 2: low in (1, 2], mean in (2, 8/3).
  CHECK(t.scores > 0.5 * 1 + 0.5 * 6.0 / 3);
  CHECK(t.scores < 0.5 * 2 + 0.5 * 8.0 / 3);
  // 11 meeples in supply, and the one on the road back with some chance (worth <= 2).
  CHECK(t.supply > 2.0 * 11);
  CHECK(t.supply < 2.0 * 12);
}

TEST_CASE("heuristic terms empty, one and urgent: penalties for the supplies after the move") {
  test::Game g;
  // Colour 0 places its last meeple: supplies 0, 0, 2. Two empty supplies, and colour 1,
  // next to move, has none.
  StateTestAccess::set_supply(g.state(), 0, 1);
  StateTestAccess::set_supply(g.state(), 1, 0);
  StateTestAccess::set_supply(g.state(), 2, 2);
  HeuristicTerms t = terms_of(g.state(), "U 1 0 1 road:E,W");
  CHECK(t.empty == -6.0 * 2);
  CHECK(t.one == 0);
  CHECK(t.urgent == -5.0);
  // Supplies 2, 1, 1 and a meeple placed: 1, 1, 1.
  StateTestAccess::set_supply(g.state(), 0, 2);
  StateTestAccess::set_supply(g.state(), 1, 1);
  StateTestAccess::set_supply(g.state(), 2, 1);
  t = terms_of(g.state(), "U 1 0 1 road:E,W");
  CHECK(t.empty == 0);
  CHECK(t.one == -1.0 * 3);
  CHECK(t.urgent == 0);
  HeuristicWeights soft;
  soft.one = 0.5;
  CHECK(terms_of(g.state(), "U 1 0 1 road:E,W", soft).one == -0.5 * 3);
}

TEST_CASE("heuristic terms: a missing forced meeple ends the game, the economy stops counting") {
  test::Game g;
  StateTestAccess::set_supply(g.state(), 0, 0);
  const HeuristicTerms t = terms_of(g.state(), "U 1 0 1");  // a free road, no meeple to put
  CHECK(t.ended);
  CHECK(t.scores == 0.5 * 1.0 + 0.5 * 6.0 / 3);  // the scores as they are: 1, 2, 3
  CHECK(t.total() == (t.scores + t.compact) + (t.sink + t.absorb));
}

TEST_CASE("heuristic term sink: open edges of features with meeples") {
  test::Game g;
  // A meeple on a road with two open ends: +sink per end.
  CHECK(terms_of(g.state(), "U 1 0 1 road:E,W").sink == 0.25 * 2);
  CHECK(terms_of(g.state(), "U 1 0 1 road:E,W").sink > 0);
  g.turn("U 1 0 1 road:E,W");
  // Colour 1 ends that road with A's road (its meeple on the monastery): the occupied
  // road keeps one open end of its two.
  const HeuristicTerms t = terms_of(g.state(), "A 2 0 1 monastery");
  CHECK(t.sink == 0.25 * 1 - 0.25 * 2);
  CHECK(t.sink < 0);
  HeuristicWeights none;
  none.sink = 0;
  CHECK(terms_of(g.state(), "A 2 0 1 monastery", none).sink == 0);
}

TEST_CASE("heuristic term absorb: the share of unseen tiles placeable with no free segment") {
  test::Game g;
  g.turn("U 1 0 1 road:E,W");  // colour 0's meeple on the road: its two ends absorb
  auto expected = [](const State& before, std::string_view line, double weight) {
    const Candidate c = candidate(before, line);
    State after = c.state;
    auto scoring = make_lookahead_scoring();
    Rng rng(1);
    apply_move(after, c.type, c.move, *scoring, rng);
    return weight * absorbing_unseen(after) / c.state.unseen_total();
  };
  // Colour 1 closes D's city with E (away from the road): the road's ends still absorb.
  const double want = expected(g.state(), "E 0 -1 2 city:S", 10);
  CHECK(want > 0);
  CHECK(terms_of(g.state(), "E 0 -1 2 city:S").absorb == want);
  // Colour 1 puts its meeple on a road of its own, south of D: its ends absorb too.
  CHECK(terms_of(g.state(), "V 0 1 0 road:S,W").absorb ==
        expected(g.state(), "V 0 1 0 road:S,W", 10));
  // With the next colour (2) out of meeples, absorb counts 1 + absorb_empty times.
  StateTestAccess::set_supply(g.state(), 2, 0);
  CHECK(terms_of(g.state(), "E 0 -1 2 city:S").absorb ==
        expected(g.state(), "E 0 -1 2 city:S", 10 * 2));
  HeuristicWeights none;
  none.absorb = 0;
  CHECK(terms_of(g.state(), "E 0 -1 2 city:S", none).absorb == 0);
}

TEST_CASE("heuristic terms: they add up to evaluate()'s value, with their signs, in seeded games") {
  HeuristicEvaluator eval(kDefaults);
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_lookahead_scoring();
  std::vector<ScoredMove> moves(kMaxMoves);
  int checked = 0;
  for (std::uint64_t game = 0; game < 3; ++game)
    test::for_each_decision({3, 4}, 17, game, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng& rng) {
      const int m = eval.evaluate(s, type, legal, moves.data(), rng);
      for (int i = 0; i < m; ++i) {
        const HeuristicTerms t = eval.terms(s, type, moves[i].move);
        CHECK(t.total() == moves[i].value);
        CHECK(t.supply >= 0);
        CHECK(t.empty <= 0);
        CHECK(t.one <= 0);
        CHECK(t.urgent <= 0);
        CHECK(t.compact >= 0);
        CHECK(t.absorb >= 0);
        ++checked;
      }
    });
  CHECK(checked > 1000);
}

TEST_CASE(
    "heuristic terms: moves that complete something are valued with their exact scores and "
    "supplies") {
  // With every chance weighted to nothing (horizons 0, discounts 0), the scores term and
  // the supply term read only the scores and supplies after the turn: compared with the
  // move played on a State copy and scored in the `best` order.
  HeuristicWeights w;
  w.horizon = w.points_horizon = 0;
  w.road_q = w.city_q = w.monastery_q = 0;
  HeuristicEvaluator eval(w);
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_lookahead_scoring();
  std::vector<ScoredMove> moves(kMaxMoves);
  int completing = 0, several = 0;
  for (std::uint64_t game = 0; game < 12; ++game)
    test::for_each_decision({3, 5}, 23, game, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng& rng) {
      const int m = eval.evaluate(s, type, legal, moves.data(), rng);
      for (int i = 0; i < m; ++i) {
        State after = s;
        std::uint16_t done[kMaxCompleted];
        std::uint8_t free_mask = 0;
        const int n_done = after.place(type, moves[i].move.at, moves[i].move.seg, done, &free_mask);
        if (n_done == 0) continue;
        if (n_done > 1)
          scoring->order_features(Observation(after, type), {done, std::size_t(n_done)}, rng);
        for (int k = 0; k < n_done; ++k) after.score_feature(done[k]);
        const HeuristicTerms t = eval.terms(s, type, moves[i].move);
        double lo = after.score(0), sum = 0;
        int supply = 0;
        for (int col = 0; col < after.colors(); ++col) {
          lo = std::min<double>(lo, after.score(col));
          sum += after.score(col);
          supply += after.supply(col);
        }
        CHECK(t.scores == 0.5 * lo + 0.5 * sum / after.colors());
        if (s.unseen_total() > 0) CHECK(t.supply == 2.0 * supply);  // meeple weight 0 at the end
        ++completing;
        several += n_done > 1;
      }
    });
  CHECK(completing > 200);
  CHECK(several > 5);  // turns with several features, where the order matters
}

// HeuristicEvaluator::expectations: the per-colour parts of the terms, read off a position
// with no move to make (the afterstates of `carcsolo positions`).

TEST_CASE("heuristic expectations: a meeple on an unfinished road, by colour") {
  test::Game g;
  HeuristicEvaluator eval(kDefaults);
  PositionExpectations x = eval.expectations(g.state());
  for (int c = 0; c < kMaxColors; ++c) {  // no meeple on the board: nothing expected
    CHECK(x.points[c] == 0);
    CHECK(x.returns[c] == 0);
  }
  CHECK(x.absorb_share == 0);  // and no occupied feature to absorb a tile
  g.turn("U 1 0 1 road:E,W");  // colour 0's meeple on a 2-tile road with two open ends
  x = eval.expectations(g.state());
  CHECK(x.points[0] > 0);
  CHECK(x.points[0] < 2);  // at most the road's 2 points, with some chance
  CHECK(x.returns[0] > 0);
  CHECK(x.returns[0] < 1);  // one meeple, back with some chance
  for (int c = 1; c < kMaxColors; ++c) {
    CHECK(x.points[c] == 0);
    CHECK(x.returns[c] == 0);
  }
  CHECK(x.absorb_share == double(absorbing_unseen(g.state())) / g.state().unseen_total());
  CHECK(x.absorb_share > 0);  // the road's ends take tiles that need no meeple
}

// Unseen tiles that end a road or city at an open cell whose one neighbour shows that kind
// of edge on side d of the cell: in some rotation the tile shows it there too, on a segment
// that touches no other side. By brute force over the rotations.
int closing_unseen(const State& s, int d, Edge kind) {
  int count = 0;
  for (int t = 0; t < kTileTypes; ++t) {
    bool closes = false;
    for (int r = 0; r < 4; ++r) {
      const Oriented& o = kOriented[t][r];
      closes |= o.edge[d] == kind && o.seg[d] != kNoSeg && o.seg_edges[o.seg[d]] == 1u << d;
    }
    count += closes ? s.unseen(t) : 0;
  }
  return count;
}

// 1 - (1 - c/T)^min(h, T): the chance that one of c closing tiles among T comes within h draws.
double within(int c, int tiles, double h) { return 1 - std::pow(1 - double(c) / tiles, std::min<double>(h, tiles)); }

TEST_CASE("heuristic expectations: exact on a road and a city, each colour its own") {
  // heuristic.hpp: a feature's points times q^sides and, per open side, the chance that a
  // tile closing it comes within points_horizon (30) draws, times the leading colour's
  // award exp(-(score - lowest) / balance); its meeples' returns the same with horizon (3).
  test::Game g;
  HeuristicEvaluator eval(kDefaults);
  g.turn("U 1 0 1 road:E,W");  // colour 0: a 2-tile road, open at (-1, 0) and (2, 0)
  int T = g.state().unseen_total();
  const int c_west = closing_unseen(g.state(), 1, kRoad), c_east = closing_unseen(g.state(), 3, kRoad);
  REQUIRE(c_west == c_east);
  REQUIRE(c_west > 0);
  PositionExpectations x = eval.expectations(g.state());
  CHECK(x.points[0] == doctest::Approx(0.95 * 0.95 * within(c_west, T, 30) * within(c_east, T, 30) * 2).epsilon(1e-12));
  CHECK(x.returns[0] == doctest::Approx(0.95 * 0.95 * within(c_west, T, 3) * within(c_east, T, 3)).epsilon(1e-12));
  // Colour 1 (score 2, one above the lowest) puts a meeple on a 1-tile city open to the north
  // at (1, -2). Diagonal to the road's open cells, it leaves their closers as they were.
  g.turn("E 1 -1 0 city:N");
  T = g.state().unseen_total();
  const int c_city = closing_unseen(g.state(), 2, kCity);
  REQUIRE(c_city > 0);
  x = eval.expectations(g.state());
  CHECK(x.points[0] == doctest::Approx(0.95 * 0.95 * within(c_west, T, 30) * within(c_east, T, 30) * 2).epsilon(1e-12));
  CHECK(x.points[1] == doctest::Approx(0.82 * within(c_city, T, 30) * std::exp(-1.0 / 12) * 2).epsilon(1e-12));
  CHECK(x.returns[1] == doctest::Approx(0.82 * within(c_city, T, 3)).epsilon(1e-12));
  CHECK(x.points[2] == 0);
  CHECK(x.returns[2] == 0);
  CHECK(x.absorb_share == double(absorbing_unseen(g.state())) / T);
}

TEST_CASE("heuristic expectations: bounds in seeded games, and evaluate() gives the same values beside them") {
  // One evaluator asked for the expectations of every afterstate between its evaluations,
  // one never asked: their values are the same, bit for bit. The expectations keep their
  // bounds: returns at most the colour's meeples on the board, points only for colours with
  // a meeple there, the absorb share the brute-force one.
  HeuristicEvaluator asked(kDefaults), plain(kDefaults);
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_lookahead_scoring();
  std::vector<ScoredMove> a(kMaxMoves), b(kMaxMoves);
  int positions = 0, with_points = 0, differ = 0;
  for (std::uint64_t game = 0; game < 4; ++game)
    test::for_each_decision(game % 2 ? Config{4, 3} : Config{3, 4}, 29, game, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng& rng) {
      Rng r1 = rng, r2 = rng;
      const int n = asked.evaluate(s, type, legal, a.data(), r1);
      REQUIRE(plain.evaluate(s, type, legal, b.data(), r2) == n);
      for (int i = 0; i < n; ++i) differ += a[i].value != b[i].value;
      for (int i = 0; i < n; i += 7) {  // some of the afterstates
        State after = s;
        apply_move(after, type, a[i].move, *scoring, r1);
        const PositionExpectations x = asked.expectations(after);
        for (int c = 0; c < kMaxColors; ++c) {
          CHECK(x.points[c] >= 0);
          CHECK(x.returns[c] >= 0);
          const int on_board = c < after.colors() ? after.meeples_on_board(c) : 0;
          CHECK(x.returns[c] <= on_board + 1e-12);
          if (on_board == 0) CHECK(x.points[c] == 0);
          with_points += x.points[c] > 0;
        }
        if (after.unseen_total() > 0)
          CHECK(x.absorb_share == double(absorbing_unseen(after)) / after.unseen_total());
        ++positions;
      }
    });
  CHECK(differ == 0);
  CHECK(positions > 500);
  CHECK(with_points > 500);
}

// The expansions' terms (heuristic.hpp): an inn road and a cathedral city at their rates,
// the large meeple's weight where it decides a majority.

TEST_CASE("heuristic expectations: an inn road and a cathedral city at their rates (`inn`, `cathedral`)") {
  HeuristicWeights plain;  // an inn road and a cathedral city valued as any road and city
  plain.inn = 1;
  plain.cathedral = 2;
  HeuristicWeights rules;  // ...and at the rules' rates
  rules.inn = 2;
  rules.cathedral = 3;
  test::Game g(config_of("base+inns", false));
  // Colour 0's meeple on an inn road of 2 tiles (D and I3) with two open ends.
  g.turn("I3 1 0 0 road:E,W");
  HeuristicEvaluator rated(rules), base_rate(plain);
  const double at_rate = rated.expectations(g.state()).points[0];
  const double at_one = base_rate.expectations(g.state()).points[0];
  CHECK(at_one > 0);
  CHECK(at_rate == 2 * at_one);  // 2 per tile instead of 1, the same chances
  // The defaults lie between (inn 1.5, cathedral 1: below the rules' rates, the risk).
  HeuristicEvaluator defaults(kDefaults);
  CHECK(defaults.expectations(g.state()).points[0] == doctest::Approx(1.5 * at_one));
  // Colour 1's meeple on the cathedral city (I1 north of D: D's city joins it), 2 tiles and
  // three open edges: 3 per tile instead of 2.
  g.turn("I1 0 -1 0 city:N,E,S,W");
  const double city_rate = rated.expectations(g.state()).points[1];
  const double city_two = base_rate.expectations(g.state()).points[1];
  CHECK(city_two > 0);
  CHECK(city_rate == doctest::Approx(1.5 * city_two));
  CHECK(defaults.expectations(g.state()).points[1] == doctest::Approx(0.5 * city_two));
  // The move that puts the meeple there is worth more by as much, through the scores term.
  test::Game h(config_of("base+inns", false));
  const HeuristicTerms inn = terms_of(h.state(), "I3 1 0 0 road:E,W", rules);
  const HeuristicTerms flat = terms_of(h.state(), "I3 1 0 0 road:E,W", plain);
  CHECK(inn.scores > flat.scores);
  CHECK(inn.supply == flat.supply);  // the meeple's chance of return does not change
}

TEST_CASE("heuristic terms: completing an inn road scores it at 2 per tile, exactly") {
  // expansions.md's inn road: A(-1,0) - D - I3 - A(2,0), colour 0's meeple on it, 4 tiles
  // worth 8. Colour 2 closes it with A, whose monastery takes its meeple. The scores after
  // the move are 9, 2, 3 (colour 0 was lowest: awarded); with the inn's points counted at
  // 1 per tile they would be 5, 2, 3. The expected points of the two monasteries come on
  // top, so the term lies above its value at the scores alone with the right rate.
  test::Game g(config_of("base+inns", false));
  g.turn("I3 1 0 0 road:E,W");
  g.turn("A 2 0 1 monastery");
  const Candidate c = candidate(g.state(), "A -1 0 3 monastery");
  CellNeighbours nb;
  nb.load(c.state, c.move.at);
  PlacementEffect e;
  analyse_placement(c.state, c.type, c.move.at, nb, e);
  REQUIRE(e.completes);
  BestOrder best;
  Scores score{}, supply{};
  move_outcome(c.state, e, nb, c.move.seg, best, score, supply);
  CHECK(score[0] == 9);
  CHECK(score[1] == 2);
  CHECK(score[2] == 3);
  CHECK(supply[0] == 4);  // colour 0's meeple back
  const HeuristicTerms t = terms_of(g.state(), "A -1 0 3 monastery");
  CHECK(t.scores > 0.5 * 2 + 0.5 * 14.0 / 3);  // at least the scores 9, 2, 3
}

// The start tile D: road W-E. Colour 1's figure on D's road (U at 1,0) faces the empty cell
// (2,0); colour 0's road U at (2,1) runs north into that cell too: a tile there joins them.
// Colour 0 is lowest (score 1).
void facing_roads(test::Game& g, bool colour_1_large) {
  g.turn("B 0 1 0 monastery");  // colour 0
  g.turn(colour_1_large ? "U 1 0 1 road:E,W large" : "U 1 0 1 road:E,W");  // colour 1
  g.turn("B 1 1 0 monastery");  // colour 2
}

TEST_CASE("heuristic term large: the large meeple where its weight keeps a majority, and only there") {
  // Colour 1's large meeple (weight 2) on the road. With a meeple on its new road, colour 0
  // would lose the joined road's majority 1 to 2 (colour 1, not lowest, alone: its points
  // would hardly count); with its large meeple it ties 2 to 2, and it is lowest. Joined
  // points 3 (U, D, U) times large_merge (1): colour 0 gains 3 at award 1, colour 1 keeps
  // 3 at award 1 instead of exp(-1/12).
  test::Game g(config_of("base", true));
  facing_roads(g, true);
  const HeuristicTerms meeple = terms_of(g.state(), "U 2 1 0 road:N,S");
  const HeuristicTerms large = terms_of(g.state(), "U 2 1 0 road:N,S large");
  CHECK(meeple.large == 0);
  CHECK(large.large > 0);
  CHECK(large.total() > meeple.total());
  CHECK(large.total() - large.large == doctest::Approx(meeple.total()));  // the rest is the meeple's
  HeuristicWeights off;
  off.large_merge = 0;
  CHECK(terms_of(g.state(), "U 2 1 0 road:N,S large", off).large == 0);
  // The heuristic plays it, given that placement alone.
  {
    const Candidate c = candidate(g.state(), "U 2 1 0 road:N,S");
    auto heuristic = make_placement_policy("heuristic");
    auto greedy = make_placement_policy("greedy");
    Rng rng(3);
    const Placement only[] = {c.move.at};
    const Move h = heuristic->choose(Observation(c.state, c.type), only, rng);
    CHECK(h.large);
    CHECK(int(h.seg) == int(c.move.seg));
    const Move gr = greedy->choose(Observation(c.state, c.type), only, rng);
    CHECK(gr.large);  // the joined majority holds colour 0, the lowest, only with it
  }
  // Elsewhere its weight changes nothing: no option with it (the meeple's terms stand).
  HeuristicEvaluator eval(kDefaults);
  const Candidate b = candidate(g.state(), "B -1 1 0 monastery");
  std::vector<ScoredMove> moves(kMaxMoves);
  Rng rng(1);
  Placement legal[kMaxPlacements];
  const int nl = b.state.legal_placements(b.type, legal);
  const int n = eval.evaluate(b.state, b.type, {legal, std::size_t(nl)}, moves.data(), rng);
  CHECK(std::none_of(moves.begin(), moves.begin() + n, [](const ScoredMove& x) { return x.move.large; }));
  const Candidate u = candidate(g.state(), "U 2 1 0 road:N,S");
  const int nu = u.state.legal_placements(u.type, legal);
  const int m = eval.evaluate(u.state, u.type, {legal, std::size_t(nu)}, moves.data(), rng);
  CHECK(std::any_of(moves.begin(), moves.begin() + m, [](const ScoredMove& x) { return x.move.large; }));
}

TEST_CASE("heuristic term large: not where the meeple would share the joined feature") {
  // Colour 1's meeple (weight 1) on the road: a meeple of colour 0 ties the joined road and
  // both score; the large meeple would take it alone, and colour 1's points would go.
  test::Game g(config_of("base", true));
  facing_roads(g, false);
  // Not offered: asked for, the terms are the meeple's.
  const HeuristicTerms large = terms_of(g.state(), "U 2 1 0 road:N,S large");
  CHECK(large.large == 0);
  CHECK(large.total() == terms_of(g.state(), "U 2 1 0 road:N,S").total());
  const Candidate c = candidate(g.state(), "U 2 1 0 road:N,S");
  HeuristicEvaluator eval(kDefaults);
  std::vector<ScoredMove> moves(kMaxMoves);
  Rng unused(1);
  const Placement at[] = {c.move.at};
  const int n = eval.evaluate(c.state, c.type, at, moves.data(), unused);
  CHECK(n == 1);  // the meeple on the road, nothing else
  CHECK_FALSE(moves[0].move.large);
  auto heuristic = make_placement_policy("heuristic");
  auto greedy = make_placement_policy("greedy");
  Rng rng(3);
  const Placement only[] = {c.move.at};
  CHECK_FALSE(heuristic->choose(Observation(c.state, c.type), only, rng).large);
  CHECK_FALSE(greedy->choose(Observation(c.state, c.type), only, rng).large);
}

TEST_CASE("heuristic terms: they add up to evaluate()'s value on base+inns with the large meeple") {
  // Every option, the large meeple's too, in seeded games of base+inns with the large
  // meeple; the large term is not 0 only on the large meeple's options.
  HeuristicEvaluator eval(kDefaults);
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_lookahead_scoring();
  std::vector<ScoredMove> moves(kMaxMoves);
  int checked = 0, large = 0;
  for (std::uint64_t game = 0; game < 4; ++game)
    test::for_each_decision(config_of("base+inns", true), 29, game, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng& rng) {
      const int m = eval.evaluate(s, type, legal, moves.data(), rng);
      for (int i = 0; i < m; ++i) {
        const HeuristicTerms t = eval.terms(s, type, moves[i].move);
        CHECK(t.total() == moves[i].value);
        if (!moves[i].move.large) CHECK(t.large == 0);
        large += moves[i].move.large;
        ++checked;
      }
    });
  CHECK(checked > 1000);
  CHECK(large > 0);
}
