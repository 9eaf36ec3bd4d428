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

}  // namespace

std::vector<std::string> afterstate_feature_columns() {
  std::vector<std::string> names = {"colors",         "meeples",   "turns_played", "tiles_left",
                                    "tiles_on_board", "discards",  "ended",        "absorb_share"};
  for (int t = 0; t < kBaseTypes; ++t) names.push_back("unseen_" + std::string(tile_name(t)));
  for (const char* q : kSlotQuantities)
    for (int slot = 0; slot < kMaxColors; ++slot) names.push_back(q + ("_" + std::to_string(slot)));
  return names;
}

AfterstateFeatures::AfterstateFeatures() : eval_(HeuristicWeights{}) {}

void AfterstateFeatures::extract(const State& s, int mover, float* out) {
  std::fill(out, out + kAfterstateFeatures, 0.0f);
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
