// The State as a value (core/state.hpp): State::copy_from gives a State equal to a plain
// copy in everything that can be read of it, and the games continued from both are the
// same, whatever the State copied into held before.
#include <doctest/doctest.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/turn.hpp"
#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"

namespace {

using namespace carc;

static_assert(std::is_trivially_copyable_v<State>);

// Everything a State lets anyone read, compared.
void check_same(const State& a, const State& b) {
  REQUIRE(a.colors() == b.colors());
  CHECK(a.meeples_per_color() == b.meeples_per_color());
  CHECK(a.to_move() == b.to_move());
  CHECK(a.turn() == b.turn());
  CHECK(a.discards() == b.discards());
  CHECK(a.end_reason() == b.end_reason());
  CHECK(a.goals() == b.goals());
  CHECK(a.monasteries_scored() == b.monasteries_scored());
  CHECK(a.forced_without_meeple() == b.forced_without_meeple());
  for (int c = 0; c < a.colors(); ++c) {
    CHECK(a.score(c) == b.score(c));
    CHECK(a.supply(c) == b.supply(c));
    CHECK(a.stack_left(c) == b.stack_left(c));
  }
  for (int t = 0; t < kTileTypes; ++t) CHECK(a.unseen(t) == b.unseen(t));
  REQUIRE(a.tiles_on_board() == b.tiles_on_board());
  int min_x = 0, max_x = 0, min_y = 0, max_y = 0;
  for (int i = 0; i < a.tiles_on_board(); ++i) {
    const PlacedTile& p = a.tile(i);
    const PlacedTile& q = b.tile(i);
    CHECK(p.cell == q.cell);
    CHECK(p.x == q.x);
    CHECK(p.y == q.y);
    CHECK(p.type == q.type);
    CHECK(p.rot == q.rot);
    CHECK(p.meeple_seg == q.meeple_seg);
    CHECK(p.meeple_color == q.meeple_color);
    min_x = std::min<int>(min_x, p.x);
    max_x = std::max<int>(max_x, p.x);
    min_y = std::min<int>(min_y, p.y);
    max_y = std::max<int>(max_y, p.y);
    for (int s = 0; s < kTiles[p.type].nseg; ++s) {
      const int r = a.feature_of(i, s);
      REQUIRE(r == b.feature_of(i, s));
      const Feature& f = a.feature(r);
      const Feature& g = b.feature(r);
      CHECK(f.kind == g.kind);
      CHECK(f.tiles == g.tiles);
      CHECK(f.open == g.open);
      CHECK(f.pennants == g.pennants);
      CHECK(f.meeple_total == g.meeple_total);
      CHECK(f.meeples == g.meeples);
      CHECK(f.size == g.size);
    }
  }
  REQUIRE(a.open_count() == b.open_count());
  for (int j = 0; j < a.open_count(); ++j) {
    CHECK(a.open_cell(j).cell == b.open_cell(j).cell);
    CHECK(a.open_cell(j).code == b.open_cell(j).code);
  }
  for (int y = min_y - 2; y <= max_y + 2; ++y)
    for (int x = min_x - 2; x <= max_x + 2; ++x) CHECK(a.tile_at(x, y) == b.tile_at(x, y));
  for (int t = 0; t < kTileTypes; ++t) CHECK(a.count_placements(t) == b.count_placements(t));
}

// Plays `s` to the end with random moves from `rng`, returning the result.
int play_out(State& s, sim::Stacks stacks, std::uint64_t seed) {
  auto placement = make_placement_policy("random");
  auto scoring = make_scoring_policy("as-found");
  struct Env : SilentHooks {
    sim::Stacks* stacks;
    PlacementPolicy* placement;
    ScoringPolicy* scoring;
    Rng rng;
    int draw(int c) { return stacks->pop(c); }
    Move choose(const State& st, int type, const Placement* legal, int n) {
      return placement->choose(Observation(st, type), {legal, std::size_t(n)}, rng);
    }
    void order(const State& st, int type, std::uint16_t* d, int n) {
      scoring->order_features(Observation(st, type), {d, std::size_t(n)}, rng);
    }
    void order_final(const State& st, std::uint8_t* c, int n) {
      scoring->order_final(Observation(st, -1), {c, std::size_t(n)}, rng);
    }
  } env;
  env.stacks = &stacks;
  env.placement = placement.get();
  env.scoring = scoring.get();
  env.rng = Rng(seed);
  play_to_end(s, env);
  return s.result();
}

}  // namespace

TEST_CASE("State::copy_from equals a plain copy, whatever the State held before") {
  auto placement = make_placement_policy("random");
  auto scoring = make_scoring_policy("as-found");
  State scratch;  // an empty board at first, then every game copied in, long or short
  int checked = 0;
  for (std::uint64_t game = 0; game < 40; ++game) {
    const Config cfg{2 + int(game % 4), 1 + int(game % 6)};
    sim::Stacks stacks = sim::deal(cfg.colors, 3, game);
    State s = State::initial(cfg);
    Rng rng(game);
    while (!s.ended()) {
      // The State at this point, copied both ways, then both played on the same way.
      State plain = s;
      scratch.copy_from(s);
      check_same(plain, scratch);
      const int a = play_out(plain, stacks, game * 1000 + std::uint64_t(s.turn()));
      const int b = play_out(scratch, stacks, game * 1000 + std::uint64_t(s.turn()));
      CHECK(a == b);
      check_same(plain, scratch);
      ++checked;
      // On with the real game: one random turn.
      struct Env : SilentHooks {
        sim::Stacks* stacks;
        PlacementPolicy* placement;
        ScoringPolicy* scoring;
        Rng* rng;
        int draw(int c) { return stacks->pop(c); }
        Move choose(const State& st, int type, const Placement* legal, int n) {
          return placement->choose(Observation(st, type), {legal, std::size_t(n)}, *rng);
        }
        void order(const State&, int, std::uint16_t*, int) {}
        void order_final(const State&, std::uint8_t*, int) {}
      } env{{}, &stacks, placement.get(), scoring.get(), &rng};
      play_turn(s, env);
    }
  }
  CHECK(checked > 300);
  scratch.copy_from(scratch);  // onto itself: nothing changes
  State same = scratch;
  scratch.copy_from(scratch);
  check_same(same, scratch);
}
