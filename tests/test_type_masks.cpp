// Tile types as bit masks (policies/type_masks.hpp): the questions asked with ands and
// table look-ups give what loops over the board and the tile types give, on the positions
// of seeded games.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>

#include "core/turn.hpp"
#include "policies/lookahead.hpp"
#include "policies/type_masks.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/tilesets.hpp"

namespace {

using namespace carc;

template <class M>
int unseen_of(const State& s, M mask) {
  int n = 0;
  for (int t = 0; t < kMaskTypes<M>; ++t) n += (mask >> t & 1) ? s.unseen(t) : 0;
  return n;
}

// Plays 30 greedy games of the set (no river: every tile from the colours' stacks) and
// checks the masks of width M at every position against loops; returns the positions.
template <class M>
int check_masks(const Rules& rules, int& discarding) {
  auto driver = make_placement_policy("greedy");
  auto scoring = make_lookahead_scoring();
  int positions = 0;
  // One UnseenCounts for every game: a load rebuilds only what changed since the last one,
  // and the first position of a game follows the last of another.
  UnseenCounts<M> counts;
  for (std::uint64_t game = 0; game < 30; ++game) {
    const int colors = 2 + int(game % 3);
    sim::Stacks st = sim::deal(colors, 41, game, rules->tiles());
    State s = State::initial(Config{colors, 4, rules});
    Rng rng(game);
    while (!s.ended()) {
      counts.load(s);
      const TypeMask unseen = unseen_types(s), placeable = placeable_types(s);
      for (int t = 0; t < kTileTypes; ++t) {
        // A drawn tile is discarded exactly when no open cell takes it.
        CHECK(bool(unseen >> t & 1) == (s.unseen(t) > 0));
        CHECK(bool(placeable >> t & 1) == (s.count_placements(t) > 0));
        discarding += (unseen & ~placeable) >> t & 1;
      }
      for (int j = 0; j < s.open_count(); ++j) {
        const int code = s.open_cell(j).code;
        CHECK(counts.count(kFitMask<M>[code]) == unseen_of(s, kFitMask<M>[code]));
        for (int d = 0; d < 4; ++d)
          CHECK(counts.count(closes<M>(code, d)) == unseen_of(s, closes<M>(code, d)));
      }
      CHECK(counts.count(~M(0)) == s.unseen_total());
      ++positions;
      const int c = s.to_move();
      const int type = st.pop(c);
      s.draw(type);
      Placement legal[kMaxPlacements];
      const int n = s.legal_placements(type, legal);
      CHECK((n == 0) == !(placeable >> type & 1));
      if (n == 0) {
        s.discard(type);
        if (s.stack_left(c) == 0) s.end_turn();
        continue;
      }
      apply_move(s, type, driver->choose(Observation(s, type), {legal, std::size_t(n)}, rng),
                 *scoring, rng);
      s.end_turn();
    }
  }
  return positions;
}

}  // namespace

TEST_CASE("type masks: discards, fits and unseen counts by ands, against loops") {
  int discarding = 0;
  // The base width on base games, the wide one on base games and on Inns & Cathedrals'.
  CHECK(check_masks<BaseMask>(Ruleset::base(), discarding) > 500);
  CHECK(check_masks<TypeMask>(Ruleset::base(), discarding) > 500);
  CHECK(check_masks<TypeMask>(sim::load_ruleset("base+inns", false), discarding) > 500);
  CHECK(discarding > 0);  // some positions where a type would be discarded
}

TEST_CASE("type masks: the base width is the wide one without the expansions' types") {
  const TypeMask base_types = (TypeMask(1) << kBaseTypes) - 1;
  int inn_bits = 0;
  for (int code = 0; code < kCodes; ++code) {
    CHECK(kFitMask<BaseMask>[code] == (kFitMask<TypeMask>[code] & base_types));
    for (int d = 0; d < 4; ++d)
      CHECK(closes<BaseMask>(code, d) == (closes<TypeMask>(code, d) & base_types));
    for (int occ = 0; occ < 16; ++occ) {
      const TypeMask wide = no_free_table<TypeMask>()[std::size_t(code * 16 + occ)];
      CHECK(no_free_table<BaseMask>()[std::size_t(code * 16 + occ)] == (wide & base_types));
      inn_bits += (wide & ~base_types) != 0;
    }
  }
  CHECK(inn_bits > 0);  // the wide table holds the inns' types too
}

TEST_CASE_TEMPLATE("type masks: counts per type as bit planes, against plain counters", M,
                   BaseMask, TypeMask) {
  // Masks drawn from a fixed generator, every third one all types: counts from 0 to past
  // 16, compared type by type.
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return M(x & ((TypeMask(1) << kMaskTypes<M>) - 1));
  };
  int over16 = 0;
  for (int round = 0; round < 200; ++round) {
    TypeCounts<M> a, b;
    std::array<int, kMaskTypes<M>> ca{}, cb{};
    const int adds_a = round % 40, adds_b = (round * 7) % 20;
    for (int i = 0; i < adds_a; ++i) {
      const M m = i % 3 ? next() : M((TypeMask(1) << kMaskTypes<M>) - 1);
      a.add(m);
      for (int t = 0; t < kMaskTypes<M>; ++t) ca[t] += m >> t & 1;
    }
    // b starts as a copy of a's first masks half the time, so that equal counts occur.
    if (round % 2) {
      b = a;
      cb = ca;
    }
    for (int i = 0; i < adds_b % 4; ++i) {
      const M m = next();
      b.add(m);
      for (int t = 0; t < kMaskTypes<M>; ++t) cb[t] += m >> t & 1;
    }
    const M eq = a.equal(b);
    over16 += ca[0] >= 16;
    for (int t = 0; t < kMaskTypes<M>; ++t)
      CHECK(bool(eq >> t & 1) == (ca[t] == cb[t] && ca[t] < 16));
  }
  CHECK(over16 > 10);  // the saturated counts were exercised
}
