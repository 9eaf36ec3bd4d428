// policies/candidates: duplicate moves (the same position reached another way) are
// recognised and dropped, and nothing else is.
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "policies/candidates.hpp"
#include "policies/lookahead.hpp"
#include "tests/seeded_games.hpp"

namespace {

using namespace carc;

// What a move leaves on the board, independent of how the tile was turned: the cell, the
// edge letters N, E, S, W and, per edge, the edges of the segment there, and where the
// meeple stands (by the board edges of its segment; 0x10 monastery; 0xFF none).
std::vector<int> position_of(int type, const Move& m) {
  const Oriented& o = kOriented[type][m.at.rot];
  std::vector<int> v{m.at.cell};
  for (int d = 0; d < 4; ++d) {
    v.push_back(o.edge[d]);
    v.push_back(o.seg[d] < 0 ? -1 : o.seg_edges[o.seg[d]]);
  }
  v.push_back(m.seg == Move::kNoMeeple ? 0xFF
              : m.seg == kMonasterySeg[type] ? 0x10
                                             : o.seg_edges[m.seg]);
  return v;
}

}  // namespace

TEST_CASE("candidates: a rotation is canonical exactly when no smaller one shows the same tile") {
  for (int t = 0; t < kTileTypes; ++t)
    for (int r = 0; r < 4; ++r) {
      const int c = kCanonicalRot[t][r];
      CHECK(c <= r);
      CHECK(kOriented[t][c].edge == kOriented[t][r].edge);
      CHECK(position_of(t, Move{{0, 0, 0, std::uint8_t(c)}, Move::kNoMeeple}) ==
            position_of(t, Move{{0, 0, 0, std::uint8_t(r)}, Move::kNoMeeple}));
    }
  CHECK(kCanonicalRot[tile_type('C')][3] == 0);  // the cross of cities
  CHECK(kCanonicalRot[tile_type('X')][2] == 0);  // the crossroads
  CHECK(kCanonicalRot[tile_type('D')][2] == 2);  // no symmetry
}

TEST_CASE("candidates: one move per position, every position kept, best first") {
  HeuristicEvaluator eval{HeuristicWeights{}};
  std::vector<ScoredMove> all(kMaxMoves), kept(kMaxMoves);
  auto driver = make_placement_policy("heuristic");
  auto scoring = make_scoring_policy("best");
  int dropped = 0, decisions = 0;
  for (std::uint64_t g = 0; g < 8; ++g)
    test::for_each_decision({3, 4}, 4, g, *driver, *scoring,
                            [&](const State& s, int type, std::span<const Placement> ls, Rng& rng) {
      const int na = eval.evaluate(s, type, ls, all.data(), rng);
      const int nk = ranked_candidates(eval, s, type, ls, kept.data(), rng);
      std::set<std::vector<int>> positions, kept_positions;
      for (int i = 0; i < na; ++i) positions.insert(position_of(type, all[i].move));
      for (int i = 0; i < nk; ++i) kept_positions.insert(position_of(type, kept[i].move));
      CHECK(kept_positions.size() == std::size_t(nk));  // no two kept moves alike
      CHECK(kept_positions == positions);               // every position kept
      for (int i = 1; i < nk; ++i) CHECK(kept[i - 1].value >= kept[i].value);
      dropped += na - nk;
      ++decisions;
    });
  CHECK(decisions > 100);
  CHECK(dropped > decisions);  // symmetric tiles are common (U, B, C, X, F, G, H...)
}
