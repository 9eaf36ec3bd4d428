// Every registered placement policy on every built-in tile set, with and without the large
// meeple, at 3 and 4 colours. Its moves are checked against the rules here; the engine's
// own invariants (State::draw's river rule among them) are assertions, so the sanitizer
// stage's build (assertions on, scripts/sanitize) is where this test proves most: a
// look-ahead that breaks a rule inside its rollouts stops there, where a Release build
// would play on.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "policies/context.hpp"
#include "policies/policy.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/tilesets.hpp"
#include "tests/checked_policy.hpp"

namespace {

using namespace carc;

// Small budgets of every look-ahead policy; search also with more rollouts on fewer
// candidates, whose truncated rollouts must draw no land tile while the river flows.
std::vector<std::string> specs_of(const std::string& name) {
  if (name == "mc") return {"mc:rollouts=2,candidates=3", "mc:rollouts=1,candidates=2,rollout=2"};
  if (name == "search") return {"search:candidates=6,beam=3,rollouts=2,turns=4", "search:rollouts=4,candidates=3"};
  if (name == "value") return {"value:expect=1,candidates=2,replies=1", "value"};
  return {name};
}

using test::Checked;

}  // namespace

TEST_CASE("every player on every tile set: legal moves, the engine's invariants hold") {
  if (std::getenv("CARCSOLO_ASSERTIONS_EXPECTED")) {
#ifdef NDEBUG
    FAIL("this build has assertions off, and the sanitizer stage expects them on");
#endif
  }
  const auto scoring = make_scoring_policy("best");
  int played = 0, refused = 0;
  for (const char* set_name : {"base", "base+inns", "base+river", "base+inns+river"}) {
    for (const bool large : {false, true})
      for (const int colors : {3, 4}) {
        const Config cfg{colors, 4, sim::load_ruleset(set_name, large)};
        PolicyContext context;
        context.rules = cfg.rules;
        const bool base = std::string(set_name) == "base" && !large;
        for (const auto& info : placement_policies())
          for (const std::string& spec : specs_of(info.name)) {
            CAPTURE(spec);
            CAPTURE(set_name);
            CAPTURE(large);
            CAPTURE(colors);
            std::unique_ptr<PlacementPolicy> p;
            try {
              p = make_placement_policy(spec, context);
            } catch (const std::invalid_argument&) {
              // Only the learned value may refuse a set (its features are the base set's).
              CHECK(!base);
              CHECK(info.name == "value");
              ++refused;
              continue;
            }
            Checked checked(std::move(p));
            const sim::GameOutcome o = sim::play_game({cfg, 17, std::uint64_t(colors)}, checked, *scoring);
            ++played;
            CHECK(o.tiles_placed > 0);
            CHECK(checked.moves >= o.tiles_placed - 1);  // the start tile is no decision
            CHECK(checked.illegal == 0);
            CHECK(checked.bad_meeple == 0);
            CHECK(checked.bad_large == 0);
            if (!large) CHECK(checked.large == 0);
          }
      }
  }
  CHECK(played >= 4 * 2 * 2 * 5);
  CHECK(refused > 0);  // the learned value off the base game
}

// The aimed players (docs/aim.md) on every set: their aimed evaluation reads placements,
// features and monasteries of every tile, and a rollout ends with final scoring.
TEST_CASE("every aiming player on every tile set: legal moves, the engine's invariants hold") {
  const auto scoring = make_scoring_policy("best");
  int played = 0;
  for (const char* set_name : {"base", "base+inns", "base+river", "base+inns+river"})
    for (const bool large : {false, true})
      for (const char* aim : {"goals", "road_5_3c", "monastery_4"}) {
        const Config cfg{3, 4, sim::load_ruleset(set_name, large)};
        PolicyContext context;
        context.rules = cfg.rules;
        context.aim = *parse_aim(aim);
        for (const char* spec : {"search:candidates=6,beam=3,rollouts=2,turns=4", "mc:rollouts=1,candidates=2"}) {
          CAPTURE(spec);
          CAPTURE(set_name);
          CAPTURE(large);
          CAPTURE(aim);
          Checked checked(make_placement_policy(spec, context));
          const sim::GameOutcome o = sim::play_game({cfg, 23, std::uint64_t(played)}, checked, *scoring);
          ++played;
          CHECK(o.tiles_placed > 0);
          CHECK(checked.illegal == 0);
          CHECK(checked.bad_meeple == 0);
          CHECK(checked.bad_large == 0);
          if (!large) CHECK(checked.large == 0);
        }
      }
  CHECK(played == 4 * 2 * 3 * 2);
}
