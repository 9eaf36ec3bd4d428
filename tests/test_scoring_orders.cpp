// Scoring-order policies (policies/scoring_orders.cpp): the seed text's Example 3, a final
// scoring where the order matters, `best` against exhaustive search on the positions of
// random games, and the bar best >= lowest-first >= as-found on common seeds.
//
// The exhaustive references here use the engine itself (State copies and score_feature)
// for completed features, and for final scoring a search over every next colour, memoised
// by (meeples left, scores), cross-checked against State::final_meeple.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/turn.hpp"
#include "policies/lookahead.hpp"
#include "policies/placement_analysis.hpp"
#include "policies/policy.hpp"
#include "policies/turn_scoring.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "tests/scenario.hpp"

namespace {

using namespace carc;

const std::vector<std::string> kOrders = {"as-found", "random", "lowest-first", "best"};

// What an order is judged on: the lowest score, then the total.
struct OrderOutcome {
  int low = -1, total = -1;
  auto operator<=>(const OrderOutcome&) const = default;
};

OrderOutcome outcome_of(const State& s) {
  OrderOutcome o{s.lowest_score(), 0};
  for (int c = 0; c < s.colors(); ++c) o.total += s.score(c);
  return o;
}

std::vector<int> scores_of(const State& s) {
  std::vector<int> v;
  for (int c = 0; c < s.colors(); ++c) v.push_back(s.score(c));
  return v;
}

State score_features(State s, std::span<const std::uint16_t> order) {
  for (const std::uint16_t root : order) s.score_feature(root);
  return s;
}

State score_final(State s, std::span<const std::uint8_t> colors) {
  for (const std::uint8_t c : colors) s.final_meeple(c);
  return s;
}

template <class T>
bool same_multiset(std::vector<T> a, std::vector<T> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}

// The order `policy` picks for the features `done` completed in `s`.
std::vector<std::uint16_t> feature_order(ScoringPolicy& policy, const State& s, int type,
                                         std::vector<std::uint16_t> done, Rng& rng) {
  policy.order_features(Observation(s, type), done, rng);
  return done;
}

std::vector<std::uint8_t> final_order(ScoringPolicy& policy, const State& s,
                                      std::vector<std::uint8_t> colors, Rng& rng) {
  policy.order_final(Observation(s, -1), colors, rng);
  return colors;
}

// lowest-first from its definition, on the engine: repeatedly the first remaining feature
// (as found) with a majority colour at the lowest score, then the rest as found.
std::vector<std::uint16_t> lowest_first_reference(State s, std::vector<std::uint16_t> left) {
  std::vector<std::uint16_t> order;
  for (;;) {
    const auto qualifies = [&](std::uint16_t root) {
      const Feature& f = s.feature(root);
      const int most = *std::max_element(f.meeples.begin(), f.meeples.begin() + s.colors());
      for (int c = 0; c < s.colors(); ++c)
        if (most > 0 && f.meeples[c] == most && s.score(c) == s.lowest_score()) return true;
      return false;
    };
    const auto it = std::find_if(left.begin(), left.end(), qualifies);
    if (it == left.end()) break;
    s.score_feature(*it);
    order.push_back(*it);
    left.erase(it);
  }
  order.insert(order.end(), left.begin(), left.end());
  return order;
}

// Final scoring, likewise: a meeple of the smallest lowest colour while there is one.
std::vector<std::uint8_t> lowest_first_final_reference(State s, std::vector<std::uint8_t> left) {
  std::sort(left.begin(), left.end());
  std::vector<std::uint8_t> order;
  for (;;) {
    const auto it = std::find_if(left.begin(), left.end(), [&](std::uint8_t c) {
      return s.score(c) == s.lowest_score();
    });
    if (it == left.end()) break;
    s.final_meeple(*it);
    order.push_back(*it);
    left.erase(it);
  }
  order.insert(order.end(), left.begin(), left.end());
  return order;
}

// Every permutation of the completed features, in lexicographic order of as-found
// positions: the best outcome and the first order reaching it.
struct Brute {
  OrderOutcome best;
  std::vector<std::uint16_t> first_best;
};
Brute brute_force_features(const State& s, const std::vector<std::uint16_t>& done) {
  std::vector<int> idx(done.size());
  std::iota(idx.begin(), idx.end(), 0);
  Brute b;
  do {
    std::vector<std::uint16_t> order;
    for (const int i : idx) order.push_back(done[std::size_t(i)]);
    const OrderOutcome o = outcome_of(score_features(s, order));
    if (o > b.best) {
      b.best = o;
      b.first_best = order;
    }
  } while (std::next_permutation(idx.begin(), idx.end()));
  return b;
}

// Exhaustive final scoring: any colour with a meeple left may go next (wasted or not).
struct FinalSearch {
  int colors = 0;
  std::map<std::pair<std::vector<int>, std::vector<int>>, OrderOutcome> memo;

  OrderOutcome best(const std::vector<int>& left, const std::vector<int>& scores) {
    const auto key = std::make_pair(left, scores);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    const int low = *std::min_element(scores.begin(), scores.end());
    OrderOutcome o{low, std::accumulate(scores.begin(), scores.end(), 0)};
    for (int c = 0; c < colors; ++c) {
      if (left[std::size_t(c)] == 0) continue;
      std::vector<int> l = left, s = scores;
      --l[std::size_t(c)];
      if (s[std::size_t(c)] == low) s[std::size_t(c)] += 2;
      o = std::max(o, best(l, s));
    }
    memo.emplace(key, o);
    return o;
  }
};
OrderOutcome brute_force_final(const State& s, const std::vector<std::uint8_t>& colors) {
  FinalSearch f;
  f.colors = s.colors();
  std::vector<int> left(std::size_t(s.colors()), 0);
  for (const std::uint8_t c : colors) ++left[c];
  return f.best(left, scores_of(s));
}

// Places the scripted tile on a copy of `s0` (without scoring): the position a scoring
// policy is asked about.
struct Placed {
  State s;
  int type = -1;
  std::vector<std::uint16_t> done;
};
Placed place_on_copy(const State& s0, char tile, int x, int y, int rot, std::string_view seg) {
  Placed p{s0, tile_type(tile), {}};
  p.s.draw(p.type);
  Placement legal[kMaxPlacements];
  const int n = p.s.legal_placements(p.type, legal);
  const Placement* at = std::find_if(legal, legal + n, [&](const Placement& q) {
    return q.x == x && q.y == y && q.rot == rot;
  });
  REQUIRE(at != legal + n);
  std::uint16_t done[kMaxCompleted];
  std::uint8_t free_mask = 0;
  const int k = p.s.place(p.type, *at, test::segment_index(p.type, rot, seg), done, &free_mask);
  p.done.assign(done, done + k);
  return p;
}

TEST_CASE("scoring orders: lowest-first and best are registered and listed") {
  std::vector<std::string> names;
  for (const auto& info : scoring_policies()) names.push_back(info.name);
  for (const auto& n : kOrders) {
    CHECK(std::count(names.begin(), names.end(), n) == 1);
    CHECK(make_scoring_policy(n) != nullptr);
    CHECK(canonical_scoring(n) == n);
  }
}

// Plays the board of Example 3, up to Yellow's placing L.
void play_example3(test::Game& g) {
  g.turn("0: A -1 0 3 monastery");  // Yellow
  g.turn("1: U 1 0 1 road:E,W");    // Red's road: A, D (start), U, and later L
  g.turn("2: E 1 -1 0 city:N");
  g.turn("0: A 1 1 3 road:E");      // Yellow's road: A, V, and later L
  g.turn("1: V 2 1 1");             // joins Yellow's road: nothing free
  g.turn("2: E 2 -1 2 city:S");     // Green's city: E and later L
}

// Example 3 of the seed text: one tile completes Yellow's road (3 points), Green's city
// (4) and Red's road (4), with Yellow lowest. Colour 0 is Yellow (score 1), 1 Red (2),
// 2 Green (3). Lowest-first scores Yellow, then Red (now lowest), then Green; as found,
// Green's city comes first, while Yellow is lowest, and scores nothing.
TEST_CASE("scoring orders: Example 3, lowest-first beats as-found") {
  test::Game g;
  play_example3(g);
  REQUIRE(g.scores() == std::vector<int>{1, 2, 3});
  // Yellow places L: its city N closes Green's city, road W Red's, road S Yellow's.
  const Placed p = place_on_copy(g.state(), 'L', 2, 0, 0, "road:E");
  REQUIRE(p.done.size() == 3u);

  std::map<std::string, std::vector<int>> after;
  for (const auto& name : kOrders) {
    auto policy = make_scoring_policy(name);
    Rng rng(7);
    const auto order = feature_order(*policy, p.s, p.type, p.done, rng);
    REQUIRE(same_multiset(order, p.done));
    after[name] = scores_of(score_features(p.s, order));
  }
  CHECK(after["as-found"] == std::vector<int>{4, 6, 3});      // Green's city wasted
  CHECK(after["lowest-first"] == std::vector<int>{4, 6, 7});  // Yellow, Red, Green
  CHECK(after["best"] == std::vector<int>{4, 6, 7});
  CHECK(brute_force_features(p.s, p.done).best == OrderOutcome{4, 17});
}

// move_outcome, which greedy and the heuristic use instead of playing a move on a copy, on
// Example 3's move: the scores of the best order, not those of the order as found, and
// the supplies the engine leaves.
TEST_CASE("move_outcome: Example 3's move, scored in the best order without a copy") {
  test::Game g;
  play_example3(g);
  State s = g.state();
  const int type = tile_type('L');
  s.draw(type);
  Placement legal[kMaxPlacements];
  const int n = s.legal_placements(type, legal);
  const Placement* at = std::find_if(legal, legal + n, [](const Placement& q) {
    return q.x == 2 && q.y == 0 && q.rot == 0;
  });
  REQUIRE(at != legal + n);
  CellNeighbours nb;
  nb.load(s, *at);
  PlacementEffect e;
  analyse_placement(s, type, *at, nb, e);
  REQUIRE(e.completes);
  const int seg = test::segment_index(type, 0, "road:E");
  BestOrder solver;
  Scores score{}, supply{};
  move_outcome(s, e, nb, seg, solver, score, supply);
  CHECK(std::vector<int>(score.begin(), score.begin() + 3) == std::vector<int>{4, 6, 7});
  State copy = s;
  auto best = make_scoring_policy("best");
  Rng rng(7);
  apply_move(copy, type, Move{*at, std::uint8_t(seg)}, *best, rng);
  for (int c = 0; c < 3; ++c) {
    CHECK(score[std::size_t(c)] == copy.score(c));
    CHECK(supply[std::size_t(c)] == copy.supply(c));
  }
}

// Meeples left: colour 0 one (score 5), colour 1 two (score 3), colour 2 one (score 10).
// As found (0, 1, 1, 2) colour 0's meeple is wasted while colour 1 is lowest: result 5.
// Colour 1 first, then colour 0 and colour 1 tied on 5 both score: result 7.
TEST_CASE("scoring orders: final scoring where the order matters") {
  test::Game g;
  g.turn("0: A -1 0 3 monastery");
  g.turn("1: U 1 0 1 road:E,W");
  g.turn("2: E 1 -1 0 city:N");
  g.turn("1: B 0 1 0 monastery");
  g.last_tile_next();
  g.turn("2: U 2 0 1");  // joins colour 1's road: no meeple; the last tile ends the game
  REQUIRE(g.state().ended());
  g.set_scores({5, 3, 10});
  const std::vector<std::uint8_t> found = {0, 1, 1, 2};
  for (int c = 0; c < 3; ++c)
    REQUIRE(g.state().meeples_on_board(c) == std::count(found.begin(), found.end(), c));

  const OrderOutcome optimum = brute_force_final(g.state(), found);
  CHECK(optimum == OrderOutcome{7, 24});
  std::map<std::string, std::vector<int>> after;
  for (const auto& name : kOrders) {
    auto policy = make_scoring_policy(name);
    Rng rng(3);
    const auto order = final_order(*policy, g.state(), found, rng);
    REQUIRE(same_multiset(order, found));
    after[name] = scores_of(score_final(g.state(), order));
  }
  CHECK(after["as-found"] == std::vector<int>{5, 7, 10});
  CHECK(after["best"] == std::vector<int>{7, 7, 10});
  CHECK(after["lowest-first"] == std::vector<int>{7, 7, 10});
}

// Random games; at every turn with two or more completed features and at every final
// scoring, each policy's order is checked against exhaustive search. The game goes on in
// the random policy's order, so the positions vary.
struct Probe : SilentHooks {
  sim::Stacks stacks;
  std::unique_ptr<PlacementPolicy> placement = make_placement_policy("random");
  std::map<std::string, std::unique_ptr<ScoringPolicy>> orders;
  Rng placement_rng, scoring_rng;

  int multi_turns = 0, brute_turns = 0, finals = 0, brute_finals = 0;
  int best_beats_as_found = 0, best_beats_lowest_first = 0, final_order_matters = 0;
  int failures = 0;
  std::string first_failure;

  Probe(const Config& cfg, std::uint64_t seed, std::uint64_t game)
      : stacks(sim::deal(cfg.colors, seed, game)),
        placement_rng(seed, game, Stream::placement),
        scoring_rng(seed, game, Stream::scoring) {
    for (const auto& n : kOrders) orders[n] = make_scoring_policy(n);
  }

  void fail(const std::string& what) {
    if (failures++ == 0) first_failure = what;
  }

  // Checks every order of the features `done` completed in `s`.
  void check_features(const State& s, int type, const std::vector<std::uint16_t>& done,
                      std::vector<std::uint16_t>* random_order = nullptr) {
    ++multi_turns;
    std::map<std::string, OrderOutcome> got;
    std::map<std::string, std::vector<std::uint16_t>> chosen;
    for (const auto& [name, policy] : orders) {
      chosen[name] = feature_order(*policy, s, type, done, scoring_rng);
      if (!same_multiset(chosen[name], done)) fail(name + ": not a permutation");
      got[name] = outcome_of(score_features(s, chosen[name]));
    }
    for (const auto& name : kOrders)
      if (got["best"] < got[name]) fail("best is worse than " + name);
    if (got["best"] > got["as-found"]) ++best_beats_as_found;
    if (got["best"] > got["lowest-first"]) ++best_beats_lowest_first;
    if (chosen["lowest-first"] != lowest_first_reference(s, done))
      fail("lowest-first is not its definition");
    if (done.size() <= 7) {  // 5,040 orders at most
      ++brute_turns;
      const Brute b = brute_force_features(s, done);
      if (got["best"] != b.best) fail("best misses the optimum");
      if (chosen["best"] != b.first_best) fail("best is not the first optimal order");
    }
    if (random_order) *random_order = chosen["random"];
  }

  // Besides the move played, every legal placement of the tile in hand with every choice
  // of meeple is tried on a copy: far more turns that complete several features.
  void probe_placements(const State& s, int type, const Placement* legal, int n) {
    for (int i = 0; i < n; ++i) {
      const std::uint8_t free = s.supply(s.to_move()) > 0 ? s.free_segments(type, legal[i]) : 0;
      for (int seg = -1; seg < kMaxSegs; ++seg) {
        if (seg >= 0 ? !(free >> seg & 1) : free != 0) continue;
        State t = s;
        std::uint16_t done[kMaxCompleted];
        std::uint8_t free_mask = 0;
        const int k = t.place(type, legal[i], seg < 0 ? Move::kNoMeeple : seg, done, &free_mask);
        if (k >= 2) check_features(t, type, {done, done + k});
      }
    }
  }

  int draw(int c) { return stacks.pop(c); }
  Move choose(const State& s, int type, const Placement* legal, int n) {
    probe_placements(s, type, legal, n);
    return placement->choose(Observation(s, type), {legal, std::size_t(n)}, placement_rng);
  }

  void order(const State& s, int type, std::uint16_t* done_ptr, int n) {
    std::vector<std::uint16_t> random_order;
    check_features(s, type, {done_ptr, done_ptr + n}, &random_order);
    std::copy(random_order.begin(), random_order.end(), done_ptr);
  }

  void order_final(const State& s, std::uint8_t* colors_ptr, int n) {
    const std::vector<std::uint8_t> colors(colors_ptr, colors_ptr + n);
    ++finals;
    std::map<std::string, OrderOutcome> got;
    const auto reference = lowest_first_final_reference(s, colors);
    for (const auto& [name, policy] : orders) {
      const auto order = final_order(*policy, s, colors, scoring_rng);
      if (!same_multiset(order, colors)) fail(name + ": final order not a permutation");
      if ((name == "lowest-first" || name == "best") && order != reference)
        fail(name + ": final order is not lowest-first's definition");
      got[name] = outcome_of(score_final(s, order));
    }
    for (const auto& name : kOrders)
      if (got["best"] < got[name]) fail("final: best is worse than " + name);
    if (got["best"] > got["as-found"]) ++final_order_matters;
    std::size_t positions = 1;  // (meeples left per colour) combinations to search
    for (int c = 0; c < s.colors(); ++c)
      positions *= std::size_t(std::count(colors.begin(), colors.end(), c) + 1);
    if (positions <= 20000) {
      ++brute_finals;
      if (got["best"] != brute_force_final(s, colors)) fail("final: best misses the optimum");
    }
  }
};

TEST_CASE("scoring orders: best is optimal on the positions of random games") {
  const Config configs[] = {{3, 4}, {4, 6}, {2, 5}, {5, 3}, {6, 12}};
  int multi = 0, brute = 0, finals = 0, brute_finals = 0;
  int beats_found = 0, beats_lowest = 0, final_matters = 0;
  for (const Config& cfg : configs) {
    for (std::uint64_t game = 0; game < 150; ++game) {
      CAPTURE(cfg.colors);
      CAPTURE(cfg.meeples);
      CAPTURE(game);
      State s = State::initial(cfg);
      Probe probe(cfg, 11, game);
      play_to_end(s, probe);
      REQUIRE_MESSAGE(probe.failures == 0, probe.first_failure);
      multi += probe.multi_turns;
      brute += probe.brute_turns;
      finals += probe.finals;
      brute_finals += probe.brute_finals;
      beats_found += probe.best_beats_as_found;
      beats_lowest += probe.best_beats_lowest_first;
      final_matters += probe.final_order_matters;
    }
  }
  MESSAGE("turns with >= 2 completed features: " << multi << " (" << brute
          << " against all orders); best beat as-found on " << beats_found
          << ", lowest-first on " << beats_lowest << "; final scorings: " << finals << " ("
          << brute_finals << " searched), best beat as-found on " << final_matters);
  // The check has teeth only if the positions exercise it.
  CHECK(brute >= 2000);
  CHECK(beats_found >= 50);
  CHECK(beats_lowest >= 5);
  CHECK(brute_finals >= 500);
  CHECK(final_matters >= 100);
}

// The bar the orders must clear, on common random numbers (the same seeds for every order).
TEST_CASE("scoring orders: best >= lowest-first >= as-found over 2,000 seeded games") {
  auto placement = make_placement_policy("random");
  std::map<std::string, long> sum;
  for (const std::string name : {"as-found", "lowest-first", "best"}) {
    auto scoring = make_scoring_policy(name);
    for (std::uint64_t game = 0; game < 2000; ++game)
      sum[name] += sim::play_game({Config{3, 4}, 1, game}, *placement, *scoring).result;
  }
  MESSAGE("result sums: as-found " << sum["as-found"] << ", lowest-first "
          << sum["lowest-first"] << ", best " << sum["best"]);
  CHECK(sum["best"] >= sum["lowest-first"]);
  CHECK(sum["lowest-first"] >= sum["as-found"]);
}

}  // namespace
