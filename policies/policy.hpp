// The two policy interfaces, what they may see, and the registry that makes them by name.
//
// A policy sees an Observation: the State (board, features, scores, supplies, stack
// sizes, unseen tile counts) and the tile in hand. The stacks' order lives only in the
// driver, so no policy can read it: that is enforced by what compiles.
//
// Policies are made per thread (make_* returns a fresh instance), may keep buffers, and
// draw randomness only from the Rng they are handed.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/state.hpp"
#include "policies/context.hpp"
#include "rng/rng.hpp"

namespace carc {

class Observation {
 public:
  Observation(const State& s, int tile) : state_(s), tile_(tile) {}
  const State& state() const { return state_; }
  int tile() const { return tile_; }  // -1 during final scoring
 private:
  const State& state_;
  int tile_;
};

// A move with a policy's own value of it (PlacementPolicy::last_candidates).
struct MoveValue {
  Move move;
  double value;
};

class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  // Pick one of `legal` (non-empty) and, when the placement leaves free segments and the
  // colour has a meeple, one of them (Move::seg); otherwise seg is ignored.
  virtual Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) = 0;
  // The policy's own value of the move its last choose() made, NaN when it computed none
  // (search: the mean of the chosen move's rollouts; the game's result with leaf=1, the
  // heuristic's value otherwise). `positions --board` records it (root_value).
  virtual double last_value() const { return std::numeric_limits<double>::quiet_NaN(); }
  // The moves its last choose() valued with the values it gave them, the chosen one first
  // (search: every move of its beam, each by the mean of its rollouts); empty when it valued
  // none. `positions --candidates` writes them (their afterstates, as rows of their own).
  virtual std::span<const MoveValue> last_candidates() const { return {}; }
};

class ScoringPolicy {
 public:
  virtual ~ScoringPolicy() = default;
  // Permute the features completed this turn (roots) into the order they are scored.
  virtual void order_features(const Observation& obs, std::span<std::uint16_t> completed,
                              Rng& rng) = 0;
  // Permute the colours of the meeples left on the board into final-scoring order.
  virtual void order_final(const Observation& obs, std::span<std::uint8_t> colors,
                           Rng& rng) = 0;
};

// --- registry ------------------------------------------------------------------------
// A spec is "name" or "name:key=value,key=value". Parameters are numbers.
struct ParamInfo {
  std::string key;
  double default_value;
  std::string help;
  bool whole = false;  // the factory takes whole numbers only (`carcsolo tune` rounds it)
  // A parameter that the specs in files of older versions lack: the canonical spelling
  // leaves it out while it has its default, so those specs stay canonical and name the same
  // games (`search` at leaf=0 is spelt `search`, as such files spell it).
  bool added_later = false;
};

class Params {
 public:
  double get(std::string_view key) const;  // the given value or the registered default
  // get(key) as a whole number in [lo, hi]; std::invalid_argument naming the placement
  // policy `policy` and the parameter otherwise.
  int whole(std::string_view policy, std::string_view key, int lo, int hi) const;
  std::vector<std::pair<std::string, double>> values;
  std::vector<ParamInfo> info;
};

struct PolicyInfo {
  std::string name, help;
  std::vector<ParamInfo> params;
  // Unlisted: made by name, but not named in lists and messages (the Python module's
  // "python", a callable that only a Python caller can give).
  bool listed = true;
  // Plays for an aim other than the result (PolicyContext::aim, docs/aim.md): the
  // look-ahead players. make_placement_policy refuses the others under such an aim.
  bool aims = false;
};

// A placement policy is made from its spec's parameters and the context (the learned
// value, policies/context.hpp).
using PlacementFactory = std::function<std::unique_ptr<PlacementPolicy>(const Params&, const PolicyContext&)>;
using ScoringFactory = std::function<std::unique_ptr<ScoringPolicy>(const Params&)>;

bool register_placement(PolicyInfo info, PlacementFactory make);
bool register_scoring(PolicyInfo info, ScoringFactory make);

// Throw std::invalid_argument with one line naming what exists, for an unknown name, an
// unknown parameter or a malformed value.
// `context`: what the policy is made from besides numbers (default: the built-in net).
// Under an aim other than `score`, a policy that cannot aim is refused (invalid_argument).
std::unique_ptr<PlacementPolicy> make_placement_policy(std::string_view spec,
                                                       const PolicyContext& context = PolicyContext{});
std::unique_ptr<ScoringPolicy> make_scoring_policy(std::string_view spec);
// Canonical spelling of a spec (name plus every parameter, defaults filled in, but for a
// parameter `added_later` at its default, which is left out). Throws
// like make_* (the factory is run once, so out-of-range parameters are caught too).
std::string canonical_placement(std::string_view spec);
std::string canonical_scoring(std::string_view spec);

// A spec as people read it, for summaries, captions and printed commands: the name and
// only the parameters whose values differ from their defaults ("search", "mc:rollouts=64"),
// so that canonical_*(short_*(s)) == canonical_*(s): it plays the same policy. A spec
// that names no registered policy or does not parse comes back as given (a file from
// another program, "ceiling:width=64"). Files keep the canonical spelling.
std::string short_placement_spec(std::string_view spec);
std::string short_scoring_spec(std::string_view spec);

std::vector<PolicyInfo> placement_policies();
std::vector<PolicyInfo> scoring_policies();

}  // namespace carc
