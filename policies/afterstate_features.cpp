#include "policies/afterstate_features.hpp"

#include <algorithm>

namespace carc {
namespace {

// The per-colour quantities, in column order (docs/positions-format.md).
constexpr const char* kSlotQuantities[kAfterstatePerSlot] = {
    "present", "score", "supply", "on_board", "stack", "expected_points", "expected_returns"};

constexpr int slot_column(int quantity, int slot) {
  return kAfterstateGlobal + kBaseTypes + quantity * kMaxColors + slot;
}

constexpr const char* kBoardGlobalNames[kBoardGlobal] = {"open_cells", "open_cells_2", "open_cells_3",
                                                         "dead_cells", "fit_share"};
constexpr const char* kBoardSlotQuantities[kBoardPerSlot] = {"road_figures", "city_figures",
                                                             "monastery_figures", "open_edges", "led_tiles"};

// The board block of `s` into out[0, kBoardFeatures): reads the open cells, the unseen
// counts and the features the standing figures are on. No allocation.
void board_block(const State& s, int mover, float* out) {
  const int k = s.colors();
  const int unseen = s.unseen_total();
  int two = 0, three = 0, dead = 0;
  double share = 0;
  for (int j = 0; j < s.open_count(); ++j) {
    const std::uint8_t code = s.open_cell(j).code;
    int sides = 0;
    for (int d = 0; d < 4; ++d) sides += code_edge(code, d) != kNone;
    two += sides == 2;
    three += sides >= 3;
    int fit = 0;
    for (int t = 0; t < kBaseTypes; ++t) fit += kFits[code][t] ? s.unseen(t) : 0;
    dead += fit == 0;
    share += unseen > 0 ? double(fit) / unseen : 0.0;
  }
  out[0] = float(s.open_count());
  out[1] = float(two);
  out[2] = float(three);
  out[3] = float(dead);
  out[4] = s.open_count() > 0 ? float(share / s.open_count()) : 0.0f;
  // Each unfinished feature a figure stands on, once.
  std::array<std::uint16_t, kMaxColors * (kMaxMeeples + 1)> roots;
  int n = 0;
  std::array<std::array<float, kBoardPerSlot>, kMaxColors> per{};
  for (int i = 0; i < s.tiles_on_board(); ++i) {
    const PlacedTile& t = s.tile(i);
    if (t.meeple_seg == kNoSegment) continue;
    const int root = s.feature_of(i, t.meeple_seg);
    const Feature& f = s.feature(root);
    if (f.meeple_total == 0) continue;  // scored: its figures went home
    bool seen = false;
    for (int r = 0; r < n; ++r) seen |= roots[std::size_t(r)] == root;
    if (seen || n == int(roots.size())) continue;
    roots[std::size_t(n++)] = std::uint16_t(root);
    int most = 0;
    for (int c = 0; c < k; ++c) most = std::max<int>(most, f.meeples[std::size_t(c)]);
    const int kind = f.kind == SegKind::road ? 0 : f.kind == SegKind::city ? 1 : 2;
    for (int c = 0; c < k; ++c) {
      const int m = f.meeples[std::size_t(c)];
      if (m == 0) continue;
      per[std::size_t(c)][std::size_t(kind)] += float(m);
      per[std::size_t(c)][3] += float(f.open);
      if (m == most) per[std::size_t(c)][4] += float(f.tiles);
    }
  }
  for (int slot = 0; slot < k; ++slot) {
    const int c = (mover + 1 + slot) % k;
    for (int q = 0; q < kBoardPerSlot; ++q) out[kBoardGlobal + q * kMaxColors + slot] = per[std::size_t(c)][std::size_t(q)];
  }
}

}  // namespace

std::vector<std::string> afterstate_feature_columns(bool board) {
  std::vector<std::string> names = {"colors",         "meeples",   "turns_played", "tiles_left",
                                    "tiles_on_board", "discards",  "ended",        "absorb_share"};
  for (int t = 0; t < kBaseTypes; ++t) names.push_back("unseen_" + std::string(tile_name(t)));
  for (const char* q : kSlotQuantities)
    for (int slot = 0; slot < kMaxColors; ++slot) names.push_back(q + ("_" + std::to_string(slot)));
  if (!board) return names;
  for (const char* g : kBoardGlobalNames) names.push_back(g);
  for (const char* q : kBoardSlotQuantities)
    for (int slot = 0; slot < kMaxColors; ++slot) names.push_back(q + ("_" + std::to_string(slot)));
  return names;
}

AfterstateFeatures::AfterstateFeatures() : eval_(HeuristicWeights{}) {}

void AfterstateFeatures::extract(const State& s, int mover, float* out, bool board) {
  std::fill(out, out + (board ? kAfterstateFeaturesBoard : kAfterstateFeatures), 0.0f);
  if (board) board_block(s, mover, out + kAfterstateFeatures);
  const int k = s.colors();
  out[0] = float(k);
  out[1] = float(s.meeples_per_color());
  out[2] = float(s.turn());
  out[3] = float(s.unseen_total());
  out[4] = float(s.tiles_on_board());
  out[5] = float(s.discards());
  out[6] = s.ended() ? 1.0f : 0.0f;
  // Once the game has ended nothing more is expected: final scoring follows.
  PositionExpectations x;
  if (!s.ended()) x = eval_.expectations(s);
  out[7] = float(x.absorb_share);
  for (int t = 0; t < kBaseTypes; ++t) out[kAfterstateGlobal + t] = float(s.unseen(t));
  for (int slot = 0; slot < k; ++slot) {
    const int c = (mover + 1 + slot) % k;
    const float values[kAfterstatePerSlot] = {
        1.0f, float(s.score(c)), float(s.supply(c)), float(s.meeples_on_board(c)),
        float(s.stack_left(c)), float(x.points[c]), float(x.returns[c])};
    for (int q = 0; q < kAfterstatePerSlot; ++q) out[slot_column(q, slot)] = values[q];
  }
}

}  // namespace carc
