// The turn sequence of rules.md ("A turn", "End of game", "Final scoring") as one
// template, shared by the driver and by look-ahead policies' rollouts. It has no
// randomness of its own: the Env supplies the draws and the decisions, and is told what
// happened (empty inline hooks cost nothing in the fast path).
//
// Env must provide:
//   int  draw(int color);                                   // top of color's stack
//   Move choose(const State&, int type, const Placement* legal, int n);
//   void order(const State&, int type, std::uint16_t* completed, int n);   // permute
//   void order_final(const State&, std::uint8_t* colors, int n);          // permute
//   void on_discard(const State&, int type);
//   void on_place(const State&, int type, const Move&, std::uint8_t free_mask);
//   void on_score(const State&, int root, const ScoreEvent&);
//   void on_turn_end(const State&);          // before the turn number advances
//   void on_final(const State&, int color, int points);
#pragma once
#include "core/state.hpp"

namespace carc {

template <class Env>
void play_turn(State& s, Env& env) {
  const int c = s.to_move();
  Placement legal[kMaxPlacements];
  for (;;) {
    const int type = env.draw(c);
    s.draw(type);
    const int n = s.legal_placements(type, legal);
    if (n == 0) {  // fits nowhere: out of the game, and the same colour draws again
      s.discard(type);
      env.on_discard(s, type);
      if (s.stack_left(c) == 0) break;
      continue;
    }
    const Move m = env.choose(s, type, legal, n);
    std::uint16_t done[kMaxCompleted];
    std::uint8_t free_mask = 0;
    const int n_done = s.place(type, m.at, m.seg, done, &free_mask);
    env.on_place(s, type, m, free_mask);
    if (n_done > 1) env.order(s, type, done, n_done);
    for (int i = 0; i < n_done; ++i) {
      const ScoreEvent e = s.score_feature(done[i]);
      env.on_score(s, done[i], e);
    }
    break;
  }
  env.on_turn_end(s);
  s.end_turn();
}

// After the last turn: each meeple left on the board, in the order the Env picks.
template <class Env>
void play_final_scoring(State& s, Env& env) {
  std::uint8_t colors[kMaxColors * kMaxMeeples];
  int n = 0;
  for (int c = 0; c < s.colors(); ++c)
    for (int k = 0; k < s.meeples_on_board(c); ++k) colors[n++] = std::uint8_t(c);
  if (n > 1) env.order_final(s, colors, n);
  for (int i = 0; i < n; ++i) env.on_final(s, colors[i], s.final_meeple(colors[i]));
  s.finish();
}

template <class Env>
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
