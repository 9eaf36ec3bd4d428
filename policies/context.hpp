// What a policy is made from besides its spec's numbers: one typed value handed to its
// factory (make_placement_policy(spec, context)), never process-wide state, so two
// contexts can play side by side in one process: the learned value and the tile set. The
// next non-numeric input is one more member here, its record one more field in `config`,
// and the factories that need it read it.
//
// A command builds it once from its options (sim/cli: select_value_net) into its RunConfig
// (`RunConfig::context`), and everything that makes a policy for that run (the driver's
// threads, the analysis, advice, positions, bench, replay) is handed that context. What it
// holds is recorded where the run is: `config.value_net` (hash and source).
#pragma once
#include <memory>
#include <string>

#include "core/goals.hpp"
#include "core/ruleset.hpp"

namespace carc {

class ValueNet;

struct PolicyContext {
  // The learned value of the policies that use one (`value`, search's leaf and vfilter);
  // null: the built-in net. Shared: a policy keeps the net alive as long as it lives.
  std::shared_ptr<const ValueNet> net;

  // The net to play with: `net`, or the built-in one.
  const ValueNet& value_net() const;
  // Its hash (docs/value-format.md) and source, "built-in" or "file", as results record them.
  std::string value_net_hash() const;
  std::string value_net_source() const { return net ? "file" : "built-in"; }

  // The rules of the games played (the tiles dealt, the large meeple; core/ruleset.hpp). A
  // policy whose knowledge is of the base set (the learned value's features) refuses another.
  Rules rules = Ruleset::base();

  // What the look-ahead players play for (core/goals.hpp, docs/aim.md): the result by
  // default. A policy that cannot aim refuses any other (make_placement_policy).
  Aim aim;
};

}  // namespace carc
