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

namespace {
// The State a game starts from, per thread: the set-up of the last configuration asked for,
// and the State the game is played in, made equal to it by copy_from (which rewrites only
// the cells in use; a State built afresh fills the whole board, a cost as large as a random
// game's).
State& fresh_state(const Config& cfg) {
  thread_local State start, s;
  thread_local Config start_cfg{0, 0};
  if (start_cfg.colors != cfg.colors || start_cfg.meeples != cfg.meeples ||
      !(start_cfg.tiles() == cfg.tiles()) || start_cfg.large_meeple() != cfg.large_meeple()) {
    start = State::initial(cfg);
    start_cfg = cfg;
  }
  s.copy_from(start);
  return s;
}
}  // namespace

GameOutcome play_game(const GameSpec& spec, PlacementPolicy& placement, ScoringPolicy& scoring) {
  Stacks stacks = spec.stacks ? *spec.stacks : deal(spec.cfg.colors, spec.seed, spec.game, spec.cfg.tiles());
  State& s = fresh_state(spec.cfg);
  DriverEnv<SilentHooks> env(stacks, placement, scoring, spec);
  play_to_end(s, env);
  return outcome_of(s);
}

nlohmann::json play_logged_game(const GameSpec& spec, PlacementPolicy& placement,
                                ScoringPolicy& scoring, const std::string& placement_name,
                                const std::string& scoring_name, GameOutcome* outcome) {
  Stacks stacks = spec.stacks ? *spec.stacks : deal(spec.cfg.colors, spec.seed, spec.game, spec.cfg.tiles());
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
