// The heuristic's evaluator keeps memories between calls (exp() of recurring chances, the
// factors by unseen tiles and closers, per-turn caches it resets): none may change a value.
// The same decisions evaluated in another order, after other games, give the very same
// values; and the value hash that checks speed-ups (tests/heuristic_values.hpp) is a pure
// function of its games.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "tests/heuristic_values.hpp"

namespace {

using namespace carc;

struct Decision {
  State state;
  int type;
  std::vector<Placement> legal;
};

std::vector<Decision> decisions(Config cfg, int games) {
  std::vector<Decision> out;
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_scoring_policy("best");
  for (int g = 0; g < games; ++g)
    test::for_each_decision(cfg, 21, std::uint64_t(g), *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> legal, Rng&) {
                              out.push_back(Decision{s, type, {legal.begin(), legal.end()}});
                            });
  return out;
}

std::vector<ScoredMove> values(HeuristicEvaluator& eval, const Decision& d) {
  std::vector<ScoredMove> out(kMaxMoves);
  Rng rng(1);
  out.resize(std::size_t(eval.evaluate(d.state, d.type, d.legal, out.data(), rng)));
  return out;
}

}  // namespace

TEST_CASE("heuristic: an evaluator's values do not depend on what it evaluated before") {
  const std::vector<Decision> own = decisions(Config{3, 4}, 4);
  const std::vector<Decision> other = decisions(Config{4, 2}, 2);
  REQUIRE(own.size() > 150);
  HeuristicEvaluator fresh_order(HeuristicWeights{}), mixed(HeuristicWeights{});
  std::vector<std::vector<ScoredMove>> first;
  for (const Decision& d : own) first.push_back(values(fresh_order, d));
  // The other evaluator sees other games first, then the same decisions last to first.
  for (const Decision& d : other) values(mixed, d);
  int compared = 0;
  for (std::size_t i = own.size(); i-- > 0;) {
    const std::vector<ScoredMove> again = values(mixed, own[i]);
    REQUIRE(again.size() == first[i].size());
    for (std::size_t j = 0; j < again.size(); ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(std::bit_cast<std::uint64_t>(again[j].value) ==
            std::bit_cast<std::uint64_t>(first[i][j].value));
      CHECK(again[j].move.at.cell == first[i][j].move.at.cell);
      CHECK(again[j].move.at.rot == first[i][j].move.at.rot);
      CHECK(again[j].move.seg == first[i][j].move.seg);
      ++compared;
    }
  }
  CHECK(compared > 3000);
}

TEST_CASE("heuristic: the value hash is a function of its games") {
  const test::ValueHash a = test::heuristic_value_hash(1), b = test::heuristic_value_hash(1);
  CHECK(a.values > 1000);
  CHECK(a.values == b.values);
  CHECK(a.hash == b.hash);
  const test::ValueHash c = test::heuristic_value_hash(2);
  CHECK(c.values > a.values);
  CHECK(c.hash != a.hash);
}
