// Tile types as bit masks (policies/type_masks.hpp): the questions asked with ands and
// table look-ups give what loops over the board and the tile types give, on the positions
// of seeded games.
#include <doctest/doctest.h>

#include "core/turn.hpp"
#include "policies/lookahead.hpp"
#include "policies/type_masks.hpp"
#include "sim/driver/deal.hpp"

namespace {

using namespace carc;

int unseen_of(const State& s, TypeMask mask) {
  int n = 0;
  for (int t = 0; t < kTileTypes; ++t) n += (mask >> t & 1) ? s.unseen(t) : 0;
  return n;
}

}  // namespace

TEST_CASE("type masks: discards, fits and unseen counts by ands, against loops") {
  auto driver = make_placement_policy("greedy");
  auto scoring = make_lookahead_scoring();
  int positions = 0, discarding = 0;
  for (std::uint64_t game = 0; game < 30; ++game) {
    sim::Stacks st = sim::deal(2 + int(game % 3), 41, game);
    State s = State::initial({2 + int(game % 3), 4});
    Rng rng(game);
    UnseenCounts counts;
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
        CHECK(counts.count(kFitMask[code]) == unseen_of(s, kFitMask[code]));
        for (int d = 0; d < 4; ++d)
          CHECK(counts.count(kCloses[code][d]) == unseen_of(s, kCloses[code][d]));
      }
      CHECK(counts.count(~TypeMask(0)) == s.unseen_total());
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
  CHECK(positions > 500);
  CHECK(discarding > 0);  // some positions where a type would be discarded
}
