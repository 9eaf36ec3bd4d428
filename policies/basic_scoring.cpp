// Baseline scoring orders: `as-found` (the engine's order: the placed tile's segments in
// catalogue order, then neighbouring monasteries N, NE, E, SE, S, SW, W, NW; final
// scoring by colour 0, 1, ...) and `random` (uniform permutations).
#include "policies/policy.hpp"

namespace carc {
namespace {

template <class T>
void shuffle(std::span<T> v, Rng& rng) {  // Fisher-Yates, Boost's uniform numbers
  for (std::size_t i = v.size(); i > 1; --i) {
    const std::size_t j = uniform_below(rng, std::uint32_t(i));
    std::swap(v[i - 1], v[j]);
  }
}

class AsFound final : public ScoringPolicy {
 public:
  void order_features(const Observation&, std::span<std::uint16_t>, Rng&) override {}
  void order_final(const Observation&, std::span<std::uint8_t>, Rng&) override {}
};

class RandomOrder final : public ScoringPolicy {
 public:
  void order_features(const Observation&, std::span<std::uint16_t> v, Rng& rng) override {
    shuffle(v, rng);
  }
  void order_final(const Observation&, std::span<std::uint8_t> v, Rng& rng) override {
    shuffle(v, rng);
  }
};

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_basic_scoring_orders() {
  register_scoring(
      {"as-found", "the order the engine finds them (deterministic); final scoring by colour", {}},
      [](const Params&) { return std::make_unique<AsFound>(); });
  register_scoring(
      {"random", "a uniformly random order of the completed features and of the final meeples", {}},
      [](const Params&) { return std::make_unique<RandomOrder>(); });
}

}  // namespace carc
