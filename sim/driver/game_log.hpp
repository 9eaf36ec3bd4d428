// Recording a game as the game log of game-log.md: hooks for core/turn.hpp that write each
// turn as it is played, and the document around them. Used by the driver (game.cpp) and by
// the stepped game (stepper.hpp), so both write the same log.
#pragma once
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/state.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"

namespace carc::sim {

inline nlohmann::json scores_json(const State& s) {
  nlohmann::json a = nlohmann::json::array();
  for (int c = 0; c < s.colors(); ++c) a.push_back(s.score(c));
  return a;
}
inline nlohmann::json supply_json(const State& s) {
  nlohmann::json a = nlohmann::json::array();
  for (int c = 0; c < s.colors(); ++c) a.push_back(s.supply(c));
  return a;
}
inline nlohmann::json large_supply_json(const State& s) {
  nlohmann::json a = nlohmann::json::array();
  for (int c = 0; c < s.colors(); ++c) a.push_back(s.large_supply(c));
  return a;
}
inline nlohmann::json colors_json(std::uint8_t mask) {
  nlohmann::json a = nlohmann::json::array();
  for (int c = 0; c < kMaxColors; ++c)
    if (mask >> c & 1) a.push_back(c);
  return a;
}

// Records the game log of game-log.md as the game is played.
struct LogHooks {
  nlohmann::json turns = nlohmann::json::array();
  nlohmann::json final_scoring = nlohmann::json::array();
  bool placed = false;  // the last turn entry is this turn's placement
  std::array<int, kMaxColors> final_count{};  // figures of each colour scored at the end so far

  void on_discard(const State& s, int type) {
    turns.push_back({{"turn", s.turn()}, {"color", s.to_move()},
                     {"tile", std::string(tile_name(type))}, {"discarded", true},
                     {"scores", scores_json(s)}, {"supply", supply_json(s)}});
    if (s.large_meeple()) turns.back()["large_supply"] = large_supply_json(s);
  }
  void on_place(const State& s, int type, const Move& m, std::uint8_t free_mask) {
    const PlacedTile& t = s.tile(s.tiles_on_board() - 1);
    nlohmann::json free = nlohmann::json::array();
    for (int seg = 0; seg < kMaxSegs; ++seg)
      if (free_mask >> seg & 1) free.push_back(segment_name(type, m.at.rot, seg));
    nlohmann::json meeple = nullptr;
    if (t.meeple_seg != kNoSegment) meeple = segment_name(type, m.at.rot, t.meeple_seg);
    turns.push_back({{"turn", s.turn()}, {"color", s.to_move()},
                     {"tile", std::string(tile_name(type))}, {"discarded", false},
                     {"x", int(t.x)}, {"y", int(t.y)}, {"rot", int(t.rot)},
                     {"edges", edge_string(type, t.rot)}, {"free", free}, {"meeple", meeple},
                     {"scored", nlohmann::json::array()}});
    if (t.meeple_seg != kNoSegment && s.large_at(s.tiles_on_board() - 1)) turns.back()["large"] = true;
    placed = true;
  }
  void on_score(const State& s, int, const ScoreEvent& e) {
    nlohmann::json meeples = nlohmann::json::array();
    for (int c = 0; c < s.colors(); ++c)  // one entry per figure: the large meeple once
      for (int k = 0; k < e.meeples[c] - (e.large >> c & 1); ++k) meeples.push_back(c);
    turns.back()["scored"].push_back(
        {{"kind", std::string(kind_name(e.kind))}, {"tiles", int(e.tiles)}, {"pennants", int(e.pennants)},
         {"points", int(e.points)}, {"meeples", meeples}, {"majority", colors_json(e.majority)},
         {"low_before", int(e.low_before)}, {"awarded", colors_json(e.awarded)},
         {"scores_after", scores_json(s)}});
    if (s.large_meeple()) turns.back()["scored"].back()["large_meeples"] = colors_json(e.large);
  }
  void on_turn_end(const State& s) {
    if (placed) {
      turns.back()["scores"] = scores_json(s);
      turns.back()["supply"] = supply_json(s);
      if (s.large_meeple()) turns.back()["large_supply"] = large_supply_json(s);
    }
    placed = false;
  }
  // A colour's large meeple is the last of its figures in the final order (the figures of
  // one colour score alike: docs/rules-decisions.md).
  void on_final(const State& s, int color, int points) {
    final_scoring.push_back({{"color", color}, {"points", 2}, {"awarded", points > 0},
                             {"scores_after", scores_json(s)}});
    if (s.large_meeple())
      final_scoring.back()["large"] = ++final_count[std::size_t(color)] == s.figures_on_board(color) &&
                                      s.large_supply(color) == 0;
  }
};


// The whole log of a finished game: its spec, the stacks as dealt, the final State and what
// the hooks recorded.
inline nlohmann::json game_log_document(const GameSpec& spec, const Stacks& dealt, const State& s,
                                        LogHooks&& hooks, const std::string& placement_name,
                                        const std::string& scoring_name) {
  nlohmann::json start_scores = nlohmann::json::array();
  nlohmann::json stack_list = nlohmann::json::array();
  for (int c = 0; c < spec.cfg.colors; ++c) {
    start_scores.push_back(c + 1);
    nlohmann::json st = nlohmann::json::array();
    for (int i = dealt.begin[c]; i < dealt.begin[c + 1]; ++i)
      st.push_back(std::string(tile_name(dealt.tiles[i])));
    stack_list.push_back(st);
  }
  const Ruleset& rules = *spec.cfg.rules;
  nlohmann::json goals = nlohmann::json::array();
  for (int g = 0; g < kGoalCount; ++g)
    if (s.goals() >> g & 1) goals.push_back(std::string(kGoalIds[g]));
  nlohmann::json doc = {
      {"format", "carcassonne-solo-log/1"},
      {"config", {{"colors", spec.cfg.colors}, {"meeples", spec.cfg.meeples},
                  {"start_scores", start_scores}, {"tileset", rules.name()},
                  {"placement_policy", placement_name}, {"scoring_policy", scoring_name}}},
      {"seed", spec.seed},
      {"game", spec.game},
      {"stacks", stack_list},
      {"start", {{"tile", std::string(tile_name(spec.cfg.tiles().start))}, {"x", 0}, {"y", 0}, {"rot", 0}}},
      {"turns", std::move(hooks.turns)},
      {"final_scoring", std::move(hooks.final_scoring)},
      {"end", {{"reason", std::string(end_reason_id(s.end_reason()))}, {"turns", s.turn()},
               {"tiles_placed", s.tiles_on_board() - 1}, {"discarded", s.discards()}}},
      {"scores", scores_json(s)},
      {"result", s.result()},
      {"goals", goals}};
  if (!rules.base_game()) {  // the expansions (expansions.md, "Game log with these options")
    doc["config"]["large_meeple"] = rules.large_meeple();
    if (!rules.hash().empty()) doc["config"]["tileset_hash"] = rules.hash();
    // A set of its own travels with its games: verify and analyse replay them from it.
    if (!rules.built_in()) doc["config"]["tileset_text"] = rules.text();
  }
  if (spec.cfg.tiles().river()) {
    nlohmann::json river = nlohmann::json::array();
    for (int i = dealt.begin[kRiverStack]; i < dealt.begin[kRiverStack + 1]; ++i)
      river.push_back(std::string(tile_name(dealt.tiles[i])));
    doc["river_stack"] = river;
  }
  return doc;
}

}  // namespace carc::sim
