// What `search` computed on the way to its choice, for the answers built on it (advice,
// analysis): the value of every candidate at each stage it reached, and moves someone asks
// about valued with the same rollouts as the choice (as chess engines report each line's
// value, multi-PV, and Go analysis engines each move's value with its uncertainty).
//
// The stages (policies/search.cpp): the heuristic's value of each candidate; the filter's
// exact expectation over the next colour's draw; truncated rollouts on re-dealt unseen
// tiles for the beam, with successive halving. A rollout's value is the heuristic's value
// of the position six turns on (leaf=1: the learned value of the afterstate it ends on):
// an estimate of the lowest final score in points, on the scale the heuristic uses.
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "policies/policy.hpp"

namespace carc {

struct SearchCandidate {
  Move move;
  double heuristic = 0;  // the heuristic's value of the move
  double next_draw = std::numeric_limits<double>::quiet_NaN();  // the filter's (NaN: filter=0)
  int rollouts = 0;      // rollouts the move got (0: outside the beam and not asked about)
  double mean = std::numeric_limits<double>::quiet_NaN();       // their mean (NaN: none)
  double std_error = std::numeric_limits<double>::quiet_NaN();  // of the mean (NaN: < 2 rollouts)
  // Paired over the rollouts both got: the chosen move's mean less this one's, and its
  // standard error. 0 for the chosen move; NaN when none are shared.
  double loss = std::numeric_limits<double>::quiet_NaN();
  double loss_std_error = std::numeric_limits<double>::quiet_NaN();
  bool asked = false;    // given in `asked` (valued over every rollout of the choice)
  // Asked moves, with `heldout` > 0: the same loss on that many fresh deals, which the choice
  // did not see (free of the optimism of a choice made on the deals it is measured on).
  double heldout_loss = std::numeric_limits<double>::quiet_NaN();
  double heldout_std_error = std::numeric_limits<double>::quiet_NaN();
};

struct SearchReport {
  // Search's ranking: the choice first, then the other moves of the beam by their
  // rollouts' mean (those halved away later rank below those kept), then the rest by the
  // filter's value (the heuristic's without the filter). Duplicates (moves that leave the
  // same position) appear once.
  std::vector<SearchCandidate> moves;
  int deals = 0;  // rollouts of the chosen move: the deals every asked move is valued on
};

class SearchValuer {
 public:
  // `spec`: a placement spec of `search` (any parameters). Throws std::invalid_argument
  // for anything else.
  // `context`: the learned value of a spec with leaf or vfilter (policies/context.hpp).
  explicit SearchValuer(std::string_view spec, const PolicyContext& context = PolicyContext{});
  ~SearchValuer();
  SearchValuer(const SearchValuer&) = delete;
  SearchValuer& operator=(const SearchValuer&) = delete;

  // Search's choice at this decision, the same move `search`'s choose() makes with the same
  // `rng` (which is left as choose() leaves it), with the report. Each move of `asked`
  // (legal moves; a meeple where none can go is ignored) is valued by rollouts on every
  // deal the choice saw, paired with it; it is listed where the ranking puts it. With
  // `heldout` > 0 the choice and each asked move are also valued on `heldout` deals past
  // the choice's (heldout_loss).
  Move value(const Observation& obs, std::span<const Placement> legal, Rng& rng,
             std::span<const Move> asked, SearchReport& out, int heldout = 0);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace carc
