// A placement policy wrapped so that every move it returns is checked against the rules as
// its Observation shows them (the placement listed, the meeple on a free segment, the
// large meeple only from the supply): shared by the tests that play every policy.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>

#include "core/state.hpp"
#include "policies/policy.hpp"
#include "tests/scenario.hpp"

namespace carc::test {

// The free segments of a placement as State::place sees them (after the tile has joined
// its neighbours' features), read on a copy whose mover has no meeple to place.
inline std::uint8_t true_free(const State& s, int type, const Placement& p) {
  State c = s;
  StateTestAccess::set_supply(c, c.to_move(), 0);
  StateTestAccess::set_large_supply(c, c.to_move(), 0);
  std::uint16_t done[kMaxCompleted];
  std::uint8_t free = 0;
  c.place(type, p, Move::kNoMeeple, done, &free);
  return free;
}

class Checked final : public PlacementPolicy {
 public:
  explicit Checked(std::unique_ptr<PlacementPolicy> p) : inner_(std::move(p)) {}
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const Move m = inner_->choose(obs, legal, rng);
    ++moves;
    const bool listed = std::any_of(legal.begin(), legal.end(), [&](const Placement& p) {
      return p.cell == m.at.cell && p.x == m.at.x && p.y == m.at.y && p.rot == m.at.rot;
    });
    illegal += !listed;
    const State& s = obs.state();
    const int c = s.to_move();
    if (listed) {
      const std::uint8_t free = true_free(s, obs.tile(), m.at);
      if (free && s.figures(c) > 0) bad_meeple += m.seg >= kMaxSegs || !(free >> m.seg & 1);
      if (m.seg != Move::kNoMeeple) {
        bad_large += m.large && s.large_supply(c) == 0;
        large += m.large && s.supply(c) > 0;  // chosen, not forced
      }
    }
    return m;
  }
  int moves = 0, illegal = 0, bad_meeple = 0, bad_large = 0, large = 0;

 private:
  std::unique_ptr<PlacementPolicy> inner_;
};

}  // namespace carc::test
