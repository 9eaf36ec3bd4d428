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
#include "sim/analysis/advice.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/analysis/search_analysis.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/stepper.hpp"
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


TEST_CASE("advice by search: the first advice is search's choice, and analyse of the advised game finds it best with loss 0") {
  carc::sim::AdviceOptions opt;
  opt.analyser = carc::canonical_placement(kSpec);
  opt.scoring = carc::canonical_scoring("best");
  opt.seed = 3;
  carc::sim::Advisor advisor(opt);
  auto search = carc::make_placement_policy(kSpec);
  carc::sim::Stacks deal = carc::sim::deal(3, 41, 0);
  carc::sim::SteppedGame g(carc::sim::SteppedGame::AtTheTable{}, {3, 4}, opt.scoring, opt.seed);
  int decisions = 0;
  while (!g.over()) {
    if (g.needs_draw()) {
      g.draw(deal.pop(g.state().to_move()));
      continue;
    }
    const int type = g.tile();
    const auto ranked = advisor.advise(g.state(), type, g.legal());
    REQUIRE(!ranked.empty());
    // search itself, on the stream of this decision's key
    carc::Rng rng(carc::sim::decision_key(opt.seed, 0, g.state().tiles_on_board() - 1), 0, carc::Stream::placement);
    const Move own = search->choose(carc::Observation(g.state(), type), g.legal(), rng);
    CHECK(carc::move_key(type, ranked[0].move) == carc::move_key(type, own));
    for (std::size_t i = 0; i < ranked.size(); ++i) CHECK(ranked[i].rank == int(i));
    g.play(ranked[0].move);
    if (g.ordering()) g.order({});
    ++decisions;
  }
  REQUIRE(decisions > 10);
  carc::sim::AnalysisOptions a;
  a.placement = opt.analyser;
  a.seed = opt.seed;
  a.heldout = 8;
  const carc::sim::GameAnalysis an = carc::sim::analyse_game(g.log("advise"), 0, a);
  REQUIRE(int(an.decisions.size()) == decisions);
  CHECK(an.by_search);
  for (const auto& d : an.decisions) {
    CHECK(d.played == d.best);
    CHECK(d.loss == 0);
    CHECK(d.heldout == 0);  // the played move is the choice: measured against itself
  }
}

TEST_CASE("analysis by search: a move other than the choice is valued on the choice's deals, paired, and held out") {
  // The heuristic's games analysed by a small search: wherever the heuristic's move is not
  // search's choice, its loss is the paired difference over every deal the choice saw (the
  // choice's mean less the move's, both listed), and the held-out loss comes from fresh deals.
  auto h = carc::make_placement_policy("heuristic");
  auto s = carc::make_scoring_policy("best");
  const auto log = carc::sim::play_logged_game({{3, 4}, 9, 1}, *h, *s, "heuristic", "best");
  carc::sim::AnalysisOptions a;
  a.placement = carc::canonical_placement(kSpec);
  a.heldout = 6;
  const carc::sim::GameAnalysis an = carc::sim::analyse_game(log, 0, a);
  int differ = 0, held = 0;
  for (const auto& d : an.decisions) {
    REQUIRE(d.played >= 0);
    REQUIRE(d.played < int(d.moves.size()));
    CHECK(d.best == 0);
    if (d.played == d.best) {
      CHECK(d.loss == 0);
      continue;
    }
    ++differ;
    CHECK(d.loss == doctest::Approx(d.moves[0].mean - d.moves[std::size_t(d.played)].mean).epsilon(1e-9));
    CHECK(d.loss_stderr >= 0);
    CHECK(d.heldout_stderr >= 0);
    held += d.heldout_stderr > 0 && d.heldout != d.loss;  // six fresh deals, other than the choice's
    CHECK(d.own_loss == d.loss);      // the analysing player's own move is the choice
  }
  CHECK(differ > 5);
  CHECK(held * 2 > differ);
}

TEST_CASE("search's report: the held-out loss is measured on deals other than those the choice was made on") {
  // A beam of two, one round: both moves get every one of the 8 deals, and the choice is
  // the one whose mean over them is higher, so its in-sample loss against the other is never
  // negative. Held out on as many fresh deals, the other move is sometimes the better:
  // measured on the very deals of the choice, the held-out loss would be the in-sample one.
  constexpr const char* kTwo = "search:candidates=12,beam=2,rollouts=8,turns=3";
  carc::SearchValuer valuer(kTwo);
  auto driver = carc::make_placement_policy("heuristic");
  auto scoring = carc::make_scoring_policy("best");
  int measured = 0, other_value = 0, held_negative = 0;
  for (std::uint64_t game = 0; game < 2; ++game)
    carc::test::for_each_decision({3, 4}, 91, game, *driver, *scoring,
                                  [&](const carc::State& s, int type, std::span<const carc::Placement> legal, carc::Rng& rng) {
      const carc::Observation obs(s, type);
      carc::Rng first = rng;
      SearchReport plain;
      (void)valuer.value(obs, legal, first, {}, plain);
      if (plain.deals == 0 || plain.moves.size() < 2 || plain.moves[1].rollouts != plain.deals) return;
      REQUIRE(plain.deals == 8);
      const Move other = plain.moves[1].move;  // the beam's other move, on every deal
      carc::Rng again = rng;
      SearchReport r;
      (void)valuer.value(obs, legal, again, std::span<const Move>(&other, 1), r, plain.deals);
      REQUIRE(r.deals == plain.deals);
      const carc::SearchCandidate* c = nullptr;
      for (const auto& m : r.moves)
        if (m.asked) c = &m;
      REQUIRE(c != nullptr);
      REQUIRE(c != &r.moves[0]);
      CHECK(c->loss >= 0);  // in-sample: the choice is the better on its own deals
      REQUIRE(std::isfinite(c->heldout_loss));
      ++measured;
      other_value += std::fabs(c->heldout_loss - c->loss) > 1e-9;
      held_negative += c->heldout_loss < 0;
    });
  MESSAGE(measured, " decisions, held-out loss other than in-sample at ", other_value, ", negative at ", held_negative);
  REQUIRE(measured > 20);
  CHECK(other_value * 4 > measured * 3);  // fresh deals: another value (88 of 94 when written)
  CHECK(held_negative * 10 > measured);   // and the choice's optimism gone: the other move wins some (20)
}
