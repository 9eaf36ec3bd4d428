// The turn sequence of rules.md ("A turn", "End of game", "Final scoring") as one
// template, shared by the driver and by look-ahead policies' rollouts. It has no
// randomness of its own: the Env supplies the draws and the decisions, and is told what
// happened (empty inline hooks cost nothing in the fast path). What an Env must provide
// is the concept TurnEnv below.
#pragma once
#include <array>
#include <concepts>
#include <cstdint>

#include "core/state.hpp"

namespace carc {

// A turn's legal placements: written by State::legal_placements, read by Env::choose.
using MoveBuffer = std::array<Placement, kMaxPlacements>;

template <class E>
concept TurnEnv = requires(E& env, const State& s, int color, int type, const Placement* legal,
                           int n, std::uint16_t* completed, std::uint8_t* colors, const Move& m,
                           std::uint8_t free_mask, const ScoreEvent& e) {
  { env.draw(color) } -> std::convertible_to<int>;          // top of color's stack (kRiverStack: the river's)
  { env.choose(s, type, legal, n) } -> std::same_as<Move>;  // one of legal[0..n)
  env.order(s, type, completed, n);     // permute the n features completed this turn
  env.order_final(s, colors, n);        // permute the n meeples' colours for final scoring
  env.on_discard(s, type);              // hooks: told what happened
  env.on_place(s, type, m, free_mask);
  env.on_score(s, /*root*/ n, e);
  env.on_turn_end(s);                   // before the turn number advances
  env.on_final(s, color, /*points*/ n);
};

// The parts of a turn, for a driver that takes the decisions from outside between them
// (sim/driver/stepper.hpp); play_turn is the three in a row.
//
// One draw: the colour to move drew `type` (from the Env, or told by a player at a table);
// its legal placements go to `legal` (kMaxPlacements entries) and their number is
// returned. A tile that fits nowhere is discarded (out of the game; the same colour draws
// again while its stack lasts) and 0 is returned.
template <TurnEnv Env>
int take_draw(State& s, Env& env, int type, Placement* legal) {
  s.draw(type);
  const int n = s.legal_placements(type, legal);
  if (n == 0) {
    s.discard(type);
    env.on_discard(s, type);
  }
  return n;
}

// Draws for the colour to move until a tile fits, discarding those that fit nowhere.
// Returns the tile in hand with its n legal placements in `legal` (kMaxPlacements
// entries), or kNoType when the colour's stack ran out (the turn is then over).
template <TurnEnv Env>
int draw_placeable(State& s, Env& env, Placement* legal, int& n) {
  const int c = s.to_move();
  for (;;) {
    const int type = env.draw(s.draw_stack());
    n = take_draw(s, env, type, legal);
    if (n > 0) return type;
    if (s.stack_left(c) == 0) return kNoType;
  }
}

// Places the tile in hand; returns the features it completed (roots, as found) in `done`
// (kMaxCompleted entries), to be scored in an order of the Env's choice.
template <TurnEnv Env>
int place_tile(State& s, Env& env, int type, const Move& m, std::uint16_t* done) {
  std::uint8_t free_mask = 0;
  const int n_done = s.place(type, m.at, m.seg, done, &free_mask, m.large);
  env.on_place(s, type, m, free_mask);
  return n_done;
}

// Scores the completed features in the order given.
template <TurnEnv Env>
void score_completed(State& s, Env& env, const std::uint16_t* done, int n_done) {
  for (int i = 0; i < n_done; ++i) {
    const ScoreEvent e = s.score_feature(done[i]);
    env.on_score(s, done[i], e);
  }
}

// ...then ends the turn.
template <TurnEnv Env>
void score_and_end_turn(State& s, Env& env, const std::uint16_t* done, int n_done) {
  score_completed(s, env, done, n_done);
  env.on_turn_end(s);
  s.end_turn();
}

// Steps 1-3 of a turn for the tile in hand: places it with the move's meeple, then scores
// the features it completed in the Env's order. The turn is not ended.
template <TurnEnv Env>
void play_move(State& s, Env& env, int type, const Move& m) {
  std::array<std::uint16_t, kMaxCompleted> done;
  const int n_done = place_tile(s, env, type, m, done.data());
  if (n_done > 1) env.order(s, type, done.data(), n_done);
  score_completed(s, env, done.data(), n_done);
}

// One whole turn. Returns whether a tile was placed (false: the turn ended in discards).
template <TurnEnv Env>
bool play_turn(State& s, Env& env) {
  MoveBuffer legal;  // not zeroed: only the first n entries are read
  int n = 0;
  const int type = draw_placeable(s, env, legal.data(), n);
  if (type != kNoType) play_move(s, env, type, env.choose(s, type, legal.data(), n));
  env.on_turn_end(s);
  s.end_turn();
  return type != kNoType;
}

// After the last turn: each figure left on the board (a colour's large meeple is one
// figure), in the order the Env picks.
template <TurnEnv Env>
void play_final_scoring(State& s, Env& env) {
  std::array<std::uint8_t, kMaxColors * (kMaxMeeples + 1)> colors;
  int n = 0;
  for (int c = 0; c < s.colors(); ++c)
    for (int k = 0; k < s.figures_on_board(c); ++k) colors[std::size_t(n++)] = std::uint8_t(c);
  if (n > 1) env.order_final(s, colors.data(), n);
  for (int i = 0; i < n; ++i) {
    const int c = colors[std::size_t(i)];
    env.on_final(s, c, s.final_meeple(c));
  }
  s.finish();
}

template <TurnEnv Env>
void play_to_end(State& s, Env& env) {
  while (!s.ended()) play_turn(s, env);
  play_final_scoring(s, env);
}

// Hooks that do nothing, to inherit from when only decisions matter.
struct SilentHooks {
  void on_discard(const State&, int) {}
  void on_place(const State&, int, const Move&, std::uint8_t) {}
  void on_score(const State&, int, const ScoreEvent&) {}
  void on_turn_end(const State&) {}
  void on_final(const State&, int, int) {}
};

}  // namespace carc
