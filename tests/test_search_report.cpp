// policies/search.hpp: what `search` reports of a decision is the decision it makes. The
// valuer's move is choose()'s with the same stream (which it leaves as choose() does), the
// choice comes first with a loss of 0, the beam's moves carry rollouts whose counts follow
// successive halving, and a move asked about is valued on every deal the choice saw, so its
// paired loss is the difference of the two means.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "policies/candidates.hpp"
#include "policies/policy.hpp"
#include "policies/search.hpp"
#include "tests/seeded_games.hpp"

namespace {

using carc::Move;
using carc::SearchReport;

// A small search, so the test stays quick: 12 candidates, a beam of 6, 8 rollouts each.
constexpr const char* kSpec = "search:candidates=12,beam=6,rollouts=8,turns=3";

}  // namespace

TEST_CASE("search's report: the valuer's move is choose()'s, the choice first with loss 0") {
  auto search = carc::make_placement_policy(kSpec);
  carc::SearchValuer valuer(kSpec);
  auto driver = carc::make_placement_policy("heuristic");
  auto scoring = carc::make_scoring_policy("best");
  int decisions = 0, rolled = 0, asked_checked = 0;
  carc::test::for_each_decision({3, 4}, 77, 2, *driver, *scoring,
                                [&](const carc::State& s, int type, std::span<const carc::Placement> legal, carc::Rng& rng) {
    carc::Rng a = rng, b = rng;
    const Move m = search->choose(carc::Observation(s, type), legal, a);
    // Ask about the heuristic's worst-ranked legal move: almost never in the beam.
    const Move worst{legal[legal.size() - 1], Move::kNoMeeple};
    Move asked = worst;
    if (s.supply(s.to_move()) > 0 && s.free_segments(type, worst.at) != 0)
      for (int seg = 0; seg < carc::kMaxSegs; ++seg)
        if (s.free_segments(type, worst.at) >> seg & 1) {
          asked.seg = std::uint8_t(seg);
          break;
        }
    SearchReport r;
    const Move v = valuer.value(carc::Observation(s, type), legal, b, std::span<const Move>(&asked, 1), r);
    CHECK(carc::move_key(type, v) == carc::move_key(type, m));
    CHECK(a() == b());  // the stream left as choose() leaves it
    REQUIRE(!r.moves.empty());
    CHECK(carc::move_key(type, r.moves[0].move) == carc::move_key(type, m));
    CHECK(r.moves[0].loss == 0);
    ++decisions;
    if (r.deals == 0) return;
    ++rolled;
    CHECK(r.moves[0].rollouts == r.deals);
    int listed_asked = 0;
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
      const auto& c = r.moves[i];
      CHECK(c.rollouts <= r.deals);
      if (i > 0 && c.rollouts > 0 && r.moves[i - 1].rollouts > 0 && !c.asked && !r.moves[i - 1].asked)
        CHECK(c.rollouts <= r.moves[i - 1].rollouts);  // halved away later ranks higher
      if (c.asked) {
        ++listed_asked;
        CHECK(c.rollouts == r.deals);
        if (i > 0) {
          // Both on every deal: the paired mean is the difference of the means.
          CHECK(c.loss == doctest::Approx(r.moves[0].mean - c.mean).epsilon(1e-9));
          CHECK(c.loss_std_error >= 0);
          ++asked_checked;
        }
      }
    }
    CHECK(listed_asked == 1);
  });
  CHECK(decisions > 20);
  CHECK(rolled > 10);
  CHECK(asked_checked > 5);
}

TEST_CASE("search's report: a spec of another policy is refused") {
  CHECK_THROWS_AS(carc::SearchValuer("heuristic"), std::invalid_argument);
  CHECK_NOTHROW(carc::SearchValuer("search"));
}
