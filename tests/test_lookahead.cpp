// The look-ahead kit (policies/lookahead.hpp) that mc, search, value, the learned value's
// expectation and the analysis are made of: the chance node over the next draw, the
// numbered re-deals, a move as the position it leaves, and the paired statistics.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "policies/lookahead.hpp"
#include "policies/policy.hpp"
#include "sim/driver/game.hpp"

namespace {

using namespace carc;

// Plays the heuristic and keeps a copy of the position before each of its decisions,
// with the tile in hand.
class PositionKeeper final : public PlacementPolicy {
 public:
  PositionKeeper() : inner_(make_placement_policy("heuristic")) {}
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    kept.emplace_back(std::make_unique<State>(), obs.tile());
    kept.back().first->copy_from(obs.state());
    return inner_->choose(obs, legal, rng);
  }
  std::vector<std::pair<std::unique_ptr<State>, int>> kept;

 private:
  std::unique_ptr<PlacementPolicy> inner_;
};

std::vector<std::pair<std::unique_ptr<State>, int>> positions(std::uint64_t game) {
  PositionKeeper keeper;
  auto scoring = make_scoring_policy("best");
  sim::play_game(sim::GameSpec{{3, 4}, 31, game}, keeper, *scoring);
  return std::move(keeper.kept);
}

// The placement with a meeple on its first free segment, as the rules ask when one can go.
Move some_move(const State& s, int type, const Placement& at) {
  const unsigned free = s.free_segments(type, at);
  if (s.supply(s.to_move()) == 0 || free == 0) return Move{at, Move::kNoMeeple};
  int seg = 0;
  while (!(free >> seg & 1u)) ++seg;
  return Move{at, std::uint8_t(seg)};
}

}  // namespace

TEST_CASE("look-ahead kit: the next draw's expectation is the mean over the unseen tiles that fit") {
  // A value per draw that depends on the type and on the child position (its number of
  // placements), against the mean over every unseen tile one by one.
  auto child = std::make_unique<State>(), other = std::make_unique<State>();
  auto after = std::make_unique<State>();
  std::vector<Placement> legal(kMaxPlacements);
  auto scoring = make_lookahead_scoring();
  Rng rng(5);
  int compared = 0, weighted_differs = 0;
  auto kept = positions(0);
  REQUIRE(kept.size() > 20);
  for (std::size_t i = 0; i + 1 < kept.size(); i += 5) {
    const State& s = *kept[i].first;
    const int type = kept[i].second;
    const int n = s.legal_placements(type, legal.data());
    REQUIRE(n > 0);
    play_to_afterstate(*after, s, type, some_move(s, type, legal[0]), *scoring, rng);
    if (after->ended()) continue;
    const auto value = [&](const State& c, int t, const Placement*, int nl) {
      CHECK(c.unseen(t) == after->unseen(t) - 1);  // the child is `after` with t drawn
      return 10.0 * t + nl;
    };
    const double got = expect_next_draw(*after, *child, legal.data(), value);
    double tile_sum = 0, type_sum = 0;
    int tiles = 0, types = 0;
    for (int t = 0; t < kTileTypes; ++t) {
      if (after->unseen(t) == 0) continue;
      other->copy_from(*after);
      other->draw(t);
      const int nl = other->legal_placements(t, legal.data());
      if (nl == 0) continue;  // a discard: left out
      tile_sum += after->unseen(t) * (10.0 * t + nl);
      tiles += after->unseen(t);
      type_sum += 10.0 * t + nl;
      ++types;
    }
    REQUIRE(tiles > 0);
    CHECK(got == doctest::Approx(tile_sum / tiles).epsilon(1e-12));
    if (std::abs(type_sum / types - tile_sum / tiles) > 1e-6) ++weighted_differs;
    ++compared;
  }
  CHECK(compared >= 4);
  CHECK(weighted_differs >= 1);  // the positions tell a count-weighted mean from a plain one
}

TEST_CASE("look-ahead kit: a numbered re-deal is the same stacks each time, of the unseen tiles") {
  auto kept = positions(1);
  const State& s = *kept[kept.size() / 2].first;
  Redeal a, b;
  const auto stacks = [&](Redeal& d) {
    std::vector<std::vector<int>> out(std::size_t(s.colors()));
    for (int c = 0; c < s.colors(); ++c)
      for (int k = 0; k < s.stack_left(c); ++k) out[std::size_t(c)].push_back(d.draw(c));
    return out;
  };
  a.deal_numbered(s, 99, 3);
  const auto first = stacks(a);
  b.deal_numbered(s, 99, 3);
  CHECK(stacks(b) == first);  // the same deal number: the same stacks
  a.rewind();
  CHECK(stacks(a) == first);  // rewound: the same draws again
  std::vector<int> count(kTileTypes, 0);
  for (const auto& stack : first)
    for (const int t : stack) ++count[std::size_t(t)];
  for (int t = 0; t < kTileTypes; ++t) CHECK(count[std::size_t(t)] == s.unseen(t));
  int differ = 0;
  for (int k = 4; k < 8; ++k) {
    b.deal_numbered(s, 99, k);
    differ += stacks(b) != first;
  }
  CHECK(differ >= 3);  // other numbers, other deals
  b.deal_numbered(s, 100, 3);
  CHECK(stacks(b) != first);  // another decision's seed, another deal
}

TEST_CASE("look-ahead kit: a move is the position it leaves, no meeple where none can go") {
  std::vector<Placement> legal(kMaxPlacements);
  int none_free = 0, some_free = 0;
  for (const std::uint64_t game : {2, 3, 4, 5}) {
    auto kept = positions(game);
    for (const auto& [st, type] : kept) {
      const State& s = *st;
      const int n = s.legal_placements(type, legal.data());
      REQUIRE(n > 0);
      for (int i = 0; i < n; ++i) {
        const Move asked{legal[std::size_t(i)], 0};
        const Move m = position_move(s, type, asked);
        CHECK(m.at.x == asked.at.x);
        CHECK(m.at.y == asked.at.y);
        CHECK(m.at.rot == asked.at.rot);
        if (s.supply(s.to_move()) == 0 || s.free_segments(type, asked.at) == 0) {
          CHECK(m.seg == Move::kNoMeeple);
          ++none_free;
        } else {
          CHECK(m.seg == 0);
          ++some_free;
        }
      }
    }
  }
  CHECK(some_free > 0);
  CHECK(none_free > 0);
}

TEST_CASE("look-ahead kit: mean and standard error, alone and paired over the same deals") {
  const double x[] = {1, 2, 3, 4}, y[] = {0, 2, 1, 1};
  double mean = 0, se = 0;
  mean_se(x, 4, mean, se);
  CHECK(mean == doctest::Approx(2.5));
  CHECK(se == doctest::Approx(std::sqrt((1.5 * 1.5 * 2 + 0.5 * 0.5 * 2) / 3 / 4)));
  mean_se(x, 1, mean, se);
  CHECK(mean == 1);
  CHECK(std::isnan(se));
  mean_se(x, 0, mean, se);
  CHECK(std::isnan(mean));
  // x - y = 1, 0, 2, 3
  paired_se(x, y, 0, 1, 4, mean, se);
  CHECK(mean == doctest::Approx(1.5));
  CHECK(se == doctest::Approx(std::sqrt((0.25 + 2.25 + 0.25 + 2.25) / 3 / 4)));
  // every second pair from the second: 0 and 3
  paired_se(x, y, 1, 2, 4, mean, se);
  CHECK(mean == doctest::Approx(1.5));
  CHECK(se == doctest::Approx(std::sqrt((2.25 + 2.25) / 1 / 2)));
  paired_se(x, y, 4, 1, 4, mean, se);
  CHECK(std::isnan(mean));
}
