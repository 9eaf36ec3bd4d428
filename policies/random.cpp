// Baseline placement `random` (uniform over all legal (x, y, rot) triples, the
// four rotations counted separately even when symmetric; the meeple uniform over the
// free segments when one is forced; with the large meeple, then the figure uniform over the
// kinds in supply).
#include <bit>

#include "policies/policy.hpp"

namespace carc {
namespace {

int uniform(Rng& rng, int n) { return int(uniform_below(rng, std::uint32_t(n))); }

class RandomPlacement final : public PlacementPolicy {
 public:
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    Move m;
    m.at = legal[uniform(rng, int(legal.size()))];
    const State& s = obs.state();
    if (s.figures(s.to_move()) == 0) return m;
    const std::uint8_t free = s.free_segments(obs.tile(), m.at);
    const int n = std::popcount(unsigned(free));
    if (n == 0) return m;
    int k = uniform(rng, n);
    std::uint8_t bits = free;
    while (k--) bits &= std::uint8_t(bits - 1);
    m.seg = std::uint8_t(std::countr_zero(unsigned(bits)));
    // With the large meeple (expansions.md): the figure uniform over the kinds in supply.
    if (s.large_supply(s.to_move()) > 0)
      m.large = s.supply(s.to_move()) == 0 || uniform(rng, 2) == 1;
    return m;
  }
};

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_random() {
  register_placement(
      {"random", "uniform over legal (x, y, rot) triples; meeple uniform over free segments", {}},
      [](const Params&, const PolicyContext&) { return std::make_unique<RandomPlacement>(); });
}

}  // namespace carc
