// The placement policies greedy, heuristic and mc (and every other registered one):
// legal moves in many short seeded games, greedy really maximising the turn's outcome,
// determinism, and what a policy can see.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/turn.hpp"
#include "policies/heuristic/heuristic.hpp"
#include "policies/lookahead.hpp"
#include "policies/placement_analysis.hpp"
#include "policies/policy.hpp"
#include "policies/turn_scoring.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/tilesets.hpp"
#include "tests/checked_policy.hpp"
#include "tests/scenario.hpp"
#include "tests/seeded_games.hpp"

namespace {

using namespace carc;

// Small look-ahead budgets, so every policy plays many games quickly.
std::string test_spec(const std::string& name) {
  if (name == "mc") return "mc:rollouts=2,candidates=3";
  if (name == "search") return "search:candidates=6,beam=3,rollouts=2,turns=4";
  return name;
}

std::vector<std::string> test_specs() {
  std::vector<std::string> v;
  for (const auto& i : placement_policies()) v.push_back(test_spec(i.name));
  v.push_back("mc:rollouts=1,candidates=2,rollout=0");
  v.push_back("mc:rollouts=1,candidates=2,rollout=2");
  v.push_back("mc:rollouts=3,candidates=2,rollout=3,z=0");
  v.push_back("greedy:snug=1");
  v.push_back("search:candidates=5,beam=4,rollouts=3,turns=3,halving=0");
  v.push_back("search:candidates=4,filter=0,beam=2,rollouts=1,turns=2");
  v.push_back("search:candidates=8,rollouts=0");
  // The learned value's settings: the expectation over the next draw, the net in search.
  v.push_back("value:expect=1,candidates=2,replies=1");
  v.push_back("search:candidates=4,beam=2,rollouts=1,turns=2,leaf=1,vfilter=1");
  return v;
}

using test::Checked;

bool same(const sim::GameOutcome& a, const sim::GameOutcome& b) {
  return a.scores == b.scores && a.result == b.result && a.end == b.end &&
         a.tiles_placed == b.tiles_placed && a.goals == b.goals && a.discards == b.discards;
}

}  // namespace

TEST_CASE("placement policies: every move of every policy is legal") {
  const Config configs[] = {{3, 4}, {2, 2}, {4, 1}, {3, 6}};
  const auto best = make_scoring_policy("best");
  for (const auto& spec : test_specs()) {
    const bool slow = spec.rfind("mc", 0) == 0 || spec.rfind("search", 0) == 0 ||
                      spec.find("expect=1") != std::string::npos;
    Checked p(make_placement_policy(spec));
    int games = 0, tiles = 0;
    for (const Config& cfg : configs)
      for (std::uint64_t g = 0; g < (slow ? 3u : 40u); ++g) {
        const auto o = sim::play_game({cfg, 11, g}, p, *best);
        ++games;
        tiles += o.tiles_placed;
      }
    INFO(spec);
    CHECK(p.moves >= tiles);  // every placed tile was a decision of the policy
    CHECK(p.illegal == 0);
    CHECK(p.bad_meeple == 0);
    CHECK(games > 0);
  }
}

TEST_CASE("placement policies: the same seed gives the same game") {
  const auto scoring = make_scoring_policy("best");
  for (const auto& spec : test_specs()) {
    INFO(spec);
    for (std::uint64_t g : {3u, 8u}) {
      const sim::GameSpec gs{{3, 4}, 5, g};
      auto a = make_placement_policy(spec);
      auto b = make_placement_policy(spec);
      const auto oa = sim::play_game(gs, *a, *scoring);
      (void)sim::play_game({{3, 4}, 5, g + 1}, *b, *scoring);  // b has played before
      const auto ob = sim::play_game(gs, *b, *scoring);
      CHECK(same(oa, ob));
    }
  }
}

// Policies see an Observation: a State and the tile in hand. Neither has a member that
// could hold the stacks' order; test_game.cpp probes for names, here the shape is pinned.
static_assert(sizeof(Observation) <= sizeof(const State*) + sizeof(int) + alignof(const State*),
              "an Observation is a State reference and a tile, nothing more");
static_assert(std::is_same_v<decltype(std::declval<const Observation&>().tile()), int>);
static_assert(std::is_same_v<decltype(std::declval<const Observation&>().state()), const State&>);
// The State has room for the board and features, not for 71 hidden tiles in order on top:
// its size is what its documented members need (checked against the budget in state.hpp).
static_assert(std::is_trivially_copyable_v<State>);

namespace {

// The (lowest, total) outcome of each move, by brute force on State copies.
struct MoveOutcome {
  int low, total;
  auto operator<=>(const MoveOutcome&) const = default;
};
MoveOutcome play_on_copy(const State& s, int type, const Move& m) {
  State c = s;
  auto best = make_scoring_policy("best");
  Rng rng(1);
  apply_move(c, type, m, *best, rng);
  int total = 0;
  for (int i = 0; i < c.colors(); ++i) total += c.score(i);
  return {c.lowest_score(), total};
}
MoveOutcome best_outcome(const State& s, int type) {
  Placement legal[kMaxPlacements];
  const int n = s.legal_placements(type, legal);
  MoveOutcome best{-1, -1};
  for (int i = 0; i < n; ++i) {
    const std::uint8_t free = s.supply(s.to_move()) > 0 ? test::true_free(s, type, legal[i]) : 0;
    for (int seg = 0; seg < kMaxSegs; ++seg)
      if (free >> seg & 1) best = std::max(best, play_on_copy(s, type, Move{legal[i], std::uint8_t(seg)}));
    if (!free) best = std::max(best, play_on_copy(s, type, Move{legal[i], Move::kNoMeeple}));
  }
  return best;
}

}  // namespace

TEST_CASE("greedy: closes the road that scores the lowest colour") {
  // Colour 1 holds a road from a junction at (-1,0) through the start tile; its east end is
  // open. Colour 1 is lowest. Colour 0 draws a W (a junction): three of its rotations at
  // (1,0) close the road, 3 points to colour 1; every other move scores nothing.
  test::Game g;
  g.turn("1: W -1 0 0 road:E");
  g.set_scores({5, 2, 9});
  StateTestAccess::set_to_move(g.state(), 0);
  State& s = g.state();
  const int w = tile_type('W');
  s.draw(w);
  Placement legal[kMaxPlacements];
  const int n = s.legal_placements(w, legal);
  REQUIRE(n > 8);
  auto greedy = make_placement_policy("greedy");
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    Rng rng(seed);
    const Move m = greedy->choose(Observation(s, w), {legal, std::size_t(n)}, rng);
    CHECK(m.at.x == 1);
    CHECK(m.at.y == 0);
    const MoveOutcome o = play_on_copy(s, w, m);
    CHECK(o.low == 5);       // colour 1: 2 + 3; the lowest is now 5
    CHECK(o.total == 5 + 5 + 9);
  }
}

TEST_CASE("greedy: its move attains the best (lowest, total) of all moves in random positions") {
  // Positions from heuristic games; at each turn greedy's choice is compared with brute force.
  auto driver = make_placement_policy("heuristic");
  auto greedy = make_placement_policy("greedy");
  auto scoring = make_scoring_policy("best");
  int checked = 0, scoring_turns = 0;
  struct Env : SilentHooks {
    sim::Stacks stacks;
    PlacementPolicy* driver;
    PlacementPolicy* greedy;
    ScoringPolicy* scoring;
    Rng rng{3};
    int* checked;
    int* scoring_turns;
    int draw(int c) { return stacks.pop(c); }
    Move choose(const State& s, int type, const Placement* legal, int n) {
      Rng r(std::uint64_t(s.turn()));
      const Move g = greedy->choose(Observation(s, type), {legal, std::size_t(n)}, r);
      const MoveOutcome want = best_outcome(s, type);
      CHECK(play_on_copy(s, type, g) == want);
      ++*checked;
      int total = 0;
      for (int c = 0; c < s.colors(); ++c) total += s.score(c);
      *scoring_turns += want.total > total;
      return driver->choose(Observation(s, type), {legal, std::size_t(n)}, rng);
    }
    void order(const State& s, int type, std::uint16_t* d, int n) {
      scoring->order_features(Observation(s, type), {d, std::size_t(n)}, rng);
    }
    void order_final(const State& s, std::uint8_t* c, int n) {
      scoring->order_final(Observation(s, -1), {c, std::size_t(n)}, rng);
    }
  };
  for (std::uint64_t game = 0; game < 6; ++game) {
    Env env;
    env.stacks = sim::deal(3, 21, game);
    env.driver = driver.get();
    env.greedy = greedy.get();
    env.scoring = scoring.get();
    env.checked = &checked;
    env.scoring_turns = &scoring_turns;
    State s = State::initial({3, 4});
    play_to_end(s, env);
  }
  CHECK(checked > 100);
  CHECK(scoring_turns > 10);  // the comparison covered turns where something could score
}

TEST_CASE("placement analysis: completion and free segments agree with the engine") {
  // Every legal placement of every drawn tile in a few heuristic games: analyse_placement's
  // free mask and `completes`, and surely_quiet's verdict, match what State::place does on
  // a copy.
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_scoring_policy("best");
  int placements = 0, completing = 0, quiet = 0;
  for (std::uint64_t game = 0; game < 4; ++game)
    test::for_each_decision({3, 5}, 9, game, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng&) {
      const int c = s.to_move();
      const int n = int(legal.size());
      CellNeighbours nb;
      PlacementEffect e;
      for (int i = 0; i < n; ++i) {
        if (legal[i].cell != nb.cell) nb.load(s, legal[i]);
        analyse_placement(s, type, legal[i], nb, e);
        State copy = s;
        std::uint16_t done[kMaxCompleted];
        std::uint8_t free = 0;
        const int seg = e.free_mask ? std::countr_zero(unsigned(e.free_mask)) : Move::kNoMeeple;
        const int n_done = copy.place(type, legal[i], copy.supply(c) ? seg : Move::kNoMeeple, done, &free);
        CHECK(e.free_mask == free);
        CHECK(e.completes == (n_done > 0));
        std::uint8_t quiet_free = 0;
        if (surely_quiet(type, legal[i].rot, nb, quiet_free)) {
          CHECK(n_done == 0);
          CHECK(quiet_free == free);
          ++quiet;
        }
        ++placements;
        completing += n_done > 0;
      }
    });
  CHECK(placements > 1000);
  CHECK(completing > 50);
  CHECK(quiet > placements / 2);  // the cheap test settles most placements
}

TEST_CASE("move_outcome: the scores and supplies the engine leaves after a completing move") {
  // Every meeple option of every legal placement that completes something, in heuristic
  // games of 3 and 4 colours: move_outcome (which greedy and the heuristic use instead of
  // a copy) against the move played on a copy and scored in the `best` order.
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_scoring_policy("best");
  BestOrder solver;
  int options = 0, several = 0, meeple_back = 0;
  for (const Config& cfg : {Config{3, 4}, Config{4, 2}})
    for (std::uint64_t game = 0; game < 6; ++game)
      test::for_each_decision(cfg, 13, game, *driver, *scoring,
                              [&](const State& s, int type, std::span<const Placement> legal, Rng& rng) {
        const int c = s.to_move();
        CellNeighbours nb;
        PlacementEffect e;
        for (const Placement& p : legal) {
          if (p.cell != nb.cell) nb.load(s, p);
          analyse_placement(s, type, p, nb, e);
          if (!e.completes) continue;
          std::uint8_t segs = s.supply(c) ? e.free_mask : 0;
          do {
            int seg = Move::kNoMeeple;
            if (segs) {
              seg = std::countr_zero(unsigned(segs));
              segs &= std::uint8_t(segs - 1);
            }
            Scores score{}, supply{};
            move_outcome(s, e, nb, seg, solver, score, supply);
            State copy = s;
            Rng unused = rng;
            std::uint16_t done[kMaxCompleted];
            std::uint8_t free = 0;
            const int n = State(s).place(type, p, seg, done, &free);
            apply_move(copy, type, Move{p, std::uint8_t(seg)}, *scoring, unused);
            for (int k = 0; k < s.colors(); ++k) {
              CHECK(score[std::size_t(k)] == copy.score(k));
              CHECK(supply[std::size_t(k)] == copy.supply(k));
            }
            several += n > 1;
            meeple_back += seg != Move::kNoMeeple && supply[std::size_t(c)] == s.supply(c);
            ++options;
          } while (segs);
        }
      });
  CHECK(options > 500);
  CHECK(several > 20);      // turns where the order could matter
  CHECK(meeple_back > 20);  // the new meeple on a completed feature, back at once
}

TEST_CASE("move_outcome: the engine's scores and supplies on base+inns with the large meeple") {
  // As above, with inns and cathedrals (their rates), the large meeple's weight in the
  // majorities and its return as one figure; every figure the mover could place: the
  // meeple, the large meeple, or the large meeple alone when it is the last figure.
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_scoring_policy("best");
  BestOrder solver;
  const Config cfg{3, 4, sim::load_ruleset("base+inns", true)};
  int options = 0, large = 0, marked = 0;
  for (std::uint64_t game = 0; game < 8; ++game)
    test::for_each_decision(cfg, 31, game, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng& rng) {
      const int c = s.to_move();
      CellNeighbours nb;
      PlacementEffect e;
      for (const Placement& p : legal) {
        if (p.cell != nb.cell) nb.load(s, p);
        analyse_placement(s, type, p, nb, e);
        if (!e.completes) continue;
        std::uint8_t segs = s.figures(c) ? e.free_mask : 0;
        do {
          int seg = Move::kNoMeeple;
          if (segs) {
            seg = std::countr_zero(unsigned(segs));
            segs &= std::uint8_t(segs - 1);
          }
          for (const bool big : {false, true}) {
            if (big && (seg == Move::kNoMeeple || s.large_supply(c) == 0)) continue;
            Scores score{}, supply{};
            move_outcome(s, e, nb, seg, solver, score, supply, big);
            State copy = s;
            Rng unused = rng;
            apply_move(copy, type, Move{p, std::uint8_t(seg), big}, *scoring, unused);
            for (int k = 0; k < s.colors(); ++k) {
              CHECK(score[std::size_t(k)] == copy.score(k));
              CHECK(supply[std::size_t(k)] == copy.figures(k));
            }
            for (int i = 0; i < e.n_feats; ++i) marked += e.feats[std::size_t(i)].complete() && e.feats[std::size_t(i)].marks;
            large += big || (seg != Move::kNoMeeple && s.supply(c) == 0);
            ++options;
          }
        } while (segs);
      }
    });
  CHECK(options > 500);
  CHECK(large > 50);
  CHECK(marked > 5);  // completed inn roads and cathedral cities among them
}

TEST_CASE("heuristic: weights are parameters and change the play") {
  auto scoring = make_scoring_policy("best");
  CHECK_THROWS_AS(make_placement_policy("heuristic:nonsense=1"), std::invalid_argument);
  CHECK(canonical_placement("heuristic").find("meeple=") != std::string::npos);
  int differ = 0;
  for (std::uint64_t g = 0; g < 10; ++g) {
    auto a = make_placement_policy("heuristic");
    auto b = make_placement_policy("heuristic:meeple=0,empty=0");
    differ += !same(sim::play_game({{3, 4}, 2, g}, *a, *scoring), sim::play_game({{3, 4}, 2, g}, *b, *scoring));
  }
  CHECK(differ > 0);
  // The meeple-economy terms: a single meeple left, open edges of occupied features.
  for (const char* key : {"one=", "sink=", "urgent=", "absorb=", "absorb_empty="}) {
    CHECK(canonical_placement("heuristic").find(key) != std::string::npos);
    int changed = 0;
    for (std::uint64_t g = 0; g < 60; ++g) {  // urgent matters in about 1 game of 10
      auto a = make_placement_policy("heuristic");
      auto b = make_placement_policy(std::string("heuristic:") + key + "0");
      changed += !same(sim::play_game({{3, 4}, 2, g}, *a, *scoring), sim::play_game({{3, 4}, 2, g}, *b, *scoring));
    }
    CHECK(changed > 0);
  }
}

TEST_CASE("short specs: only the parameters that differ from their defaults, the same policy") {
  CHECK(short_placement_spec("search") == "search");
  CHECK(short_placement_spec(canonical_placement("search")) == "search");
  CHECK(canonical_placement("search").size() > 200);  // what a summary would print in full
  CHECK(short_placement_spec(canonical_placement("mc:rollouts=64")) == "mc:rollouts=64");
  CHECK(short_placement_spec("mc:rollouts=8,candidates=5") == "mc:candidates=5");  // registry order
  CHECK(short_placement_spec("greedy:snug=1") == "greedy:snug=1");
  CHECK(short_placement_spec("heuristic:compact=0.30") == "heuristic");
  CHECK(short_scoring_spec(canonical_scoring("best")) == "best");
  // Not a policy: as given (the ceiling's reference, a file from another program).
  CHECK(short_placement_spec("ceiling:width=64") == "ceiling:width=64");
  CHECK(short_placement_spec("mc:rollouts=") == "mc:rollouts=");
  // Canonical again, every short spec names exactly the policy it came from.
  for (const auto& info : placement_policies())
    for (const auto& p : info.params) {
      const std::string spec = info.name + ":" + p.key + "=" + (p.default_value == 1 ? "2" : "1");
      std::string canonical;
      try {
        canonical = canonical_placement(spec);
      } catch (const std::invalid_argument&) {
        continue;  // out of this parameter's range
      }
      INFO(spec);
      const std::string shortened = short_placement_spec(canonical);
      CHECK(canonical_placement(shortened) == canonical);
      CHECK(shortened == spec);
    }
}

TEST_CASE("mc: parameters are checked") {
  CHECK_THROWS_AS(make_placement_policy("mc:rollout=4"), std::invalid_argument);
  CHECK_THROWS_AS(make_placement_policy("mc:rollouts=1.5"), std::invalid_argument);
  CHECK_THROWS_AS(make_placement_policy("mc:candidates=-1"), std::invalid_argument);
  CHECK(make_placement_policy("mc:rollouts=0") != nullptr);  // heuristic's first choice
  CHECK_THROWS_AS(make_placement_policy("mc:head=-1"), std::invalid_argument);
  CHECK_THROWS_AS(make_placement_policy("mc:head=1.5"), std::invalid_argument);
}

TEST_CASE("mc: heuristic turns at the head of rollouts change the play") {
  CHECK(canonical_placement("mc").find("head=2") != std::string::npos);
  auto scoring = make_scoring_policy("best");
  int changed = 0;
  for (std::uint64_t g = 0; g < 4; ++g) {
    auto a = make_placement_policy("mc:rollouts=2,candidates=3");
    auto b = make_placement_policy("mc:rollouts=2,candidates=3,head=0");
    changed += !same(sim::play_game({{3, 4}, 2, g}, *a, *scoring), sim::play_game({{3, 4}, 2, g}, *b, *scoring));
  }
  CHECK(changed > 0);
}

TEST_CASE("search: parameters are checked") {
  for (const char* bad : {"search:beam=0", "search:candidates=0", "search:rollouts=-1",
                          "search:turns=0", "search:filter=2", "search:halving=0.5",
                          "search:rollouts=1.5", "search:nonsense=1"})
    CHECK_THROWS_AS(make_placement_policy(bad), std::invalid_argument);
  // The heuristic's weights are the search's too (its leaves and candidates).
  CHECK(canonical_placement("search").find("absorb=10") != std::string::npos);
  CHECK(make_placement_policy("search:rollouts=0,filter=0") != nullptr);  // heuristic's choice
}

TEST_CASE("search: without look-ahead it plays a move of the heuristic's best value") {
  auto search = make_placement_policy("search:filter=0,rollouts=0");
  auto driver = make_placement_policy("random");
  auto scoring = make_scoring_policy("best");
  HeuristicEvaluator eval{HeuristicWeights{}};
  std::vector<ScoredMove> moves(kMaxMoves);
  int checked = 0;
  for (std::uint64_t g = 0; g < 20; ++g)
    test::for_each_decision({3, 4}, 9, g, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> ls, Rng& rng) {
      const Move m = search->choose(Observation(s, type), ls, rng);
      const int ne = eval.evaluate(s, type, ls, moves.data(), rng);
      double best = moves[0].value, chosen = -1e300;
      for (int i = 0; i < ne; ++i) {
        best = std::max(best, moves[i].value);
        const Move& o = moves[i].move;
        if (o.at.cell == m.at.cell && o.at.rot == m.at.rot && o.seg == m.seg) chosen = moves[i].value;
      }
      CHECK(chosen == best);
      ++checked;
    });
  CHECK(checked > 200);
}

TEST_CASE("search: the filter and the rollouts each change the play") {
  auto scoring = make_scoring_policy("best");
  const char* base = "search:candidates=8,beam=3,rollouts=2,turns=3";
  for (const char* other : {"search:candidates=8,beam=3,rollouts=0,turns=3",
                            "search:candidates=8,beam=3,rollouts=2,turns=3,filter=0",
                            "search:candidates=8,beam=3,rollouts=2,turns=1"}) {
    INFO(other);
    int changed = 0;
    for (std::uint64_t g = 0; g < 3; ++g) {
      auto a = make_placement_policy(base);
      auto b = make_placement_policy(other);
      changed += !same(sim::play_game({{3, 4}, 2, g}, *a, *scoring),
                       sim::play_game({{3, 4}, 2, g}, *b, *scoring));
    }
    CHECK(changed > 0);
  }
}

TEST_CASE("registry: a policy that names one parameter twice is refused") {
  // search takes the heuristic's weights as parameters too: a key of its own that one of
  // them already uses would silently read the other's value.
  CHECK_THROWS_AS(register_placement({"twice", "", {{"k", 1, ""}, {"k", 2, ""}}}, nullptr),
                  std::logic_error);
  for (const auto& i : placement_policies()) CHECK(i.name != "twice");
}
