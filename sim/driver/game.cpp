#include "sim/driver/game.hpp"

#include <nlohmann/json.hpp>

#include "core/turn.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/driver_env.hpp"
#include "sim/driver/game_log.hpp"

namespace carc::sim {

GameOutcome outcome_of(const State& s) {
  GameOutcome o{};
  o.colors = s.colors();
  for (int c = 0; c < s.colors(); ++c) o.scores[c] = s.score(c);
  o.result = s.result();
  o.end = s.end_reason();
  o.tiles_placed = s.tiles_on_board() - 1;
  o.discards = s.discards();
  o.goals = s.goals();
  return o;
}

GameOutcome play_game(const GameSpec& spec, PlacementPolicy& placement, ScoringPolicy& scoring) {
  Stacks stacks = spec.stacks ? *spec.stacks : deal(spec.cfg.colors, spec.seed, spec.game);
  State s = State::initial(spec.cfg);
  DriverEnv<SilentHooks> env(stacks, placement, scoring, spec);
  play_to_end(s, env);
  return outcome_of(s);
}

nlohmann::json play_logged_game(const GameSpec& spec, PlacementPolicy& placement,
                                ScoringPolicy& scoring, const std::string& placement_name,
                                const std::string& scoring_name, GameOutcome* outcome) {
  Stacks stacks = spec.stacks ? *spec.stacks : deal(spec.cfg.colors, spec.seed, spec.game);
  const Stacks dealt = stacks;
  State s = State::initial(spec.cfg);
  DriverEnv<LogHooks> env(stacks, placement, scoring, spec);
  play_to_end(s, env);

  nlohmann::json log =
      game_log_document(spec, dealt, s, std::move(env), placement_name, scoring_name);
  if (outcome) *outcome = outcome_of(s);
  return log;
}

}  // namespace carc::sim
