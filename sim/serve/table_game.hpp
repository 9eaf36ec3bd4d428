// One game of the table page (docs/serve.md): a SteppedGame at the table (the person says
// which tile was drawn) or dealt from (seed, game) for practice, the advice at its
// decisions, undo, and at the end its log and the log's analysis.
//
// Undo keeps no copies of the game: the game is the list of actions (draws, moves, scoring
// orders) replayed from the start, so undoing is replaying all but the last. The scoring
// policy's stream is seeded, so the replay is the same game.
//
// Not thread-safe: the server holds a TableGame under its session's lock.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/analysis/advice.hpp"
#include "sim/driver/stepper.hpp"

namespace carc::sim {

// A request that does not fit the game (a tile with no copy unseen, a move that is not
// legal, a draw while a tile is in hand): the HTTP answer 409 with its text.
struct GameConflict : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct TableSetup {
  Config cfg;
  bool practice = false;       // dealt from (seed, game); else at the table
  std::uint64_t seed = 1, game = 0;
  Aim aim;                     // what the advice plays for (docs/aim.md)
};

class TableGame {
 public:
  // Throws std::invalid_argument for bad advice options.
  TableGame(const TableSetup& setup, const AdviceOptions& advice);

  // Each throws GameConflict when the game is not waiting for it.
  void draw(int type);
  // x, y, rot of a legal placement; `meeple` a segment name (segment_name) or empty for
  // none; `large`: the large meeple goes there (expansions.md).
  void play(int x, int y, int rot, const std::string& meeple, bool large = false);
  // Indices into the completed features, a permutation; empty: the scoring policy's order.
  void order(const std::vector<int>& order);
  // Takes back the last action; GameConflict when there is none.
  void undo();
  // What the advice plays for from now on (the goal chosen before the game, changed during
  // it); the advice of the decision in hand is computed again. std::invalid_argument when
  // the analyser cannot aim.
  void set_aim(const Aim& aim);

  // What the page shows: phase ("draw", "play", "order", "over"), scores, supplies,
  // stacks, unseen tiles, the board with its meeples, the tile in hand with its legal
  // placements and their free segments, the completed features to order.
  nlohmann::json state() const;
  // The ranked moves of the tile in hand (computed once per decision); GameConflict when
  // no tile is in hand.
  nlohmann::json advice();
  // The game log (game-log.md) with an "advisor" record; GameConflict while the game goes on.
  nlohmann::json log() const;
  // The analysis document (carcassonne-solo-analysis/1) of the log, with the advice's
  // options; GameConflict while the game goes on.
  nlohmann::json analysis();

 private:
  struct Action {
    enum Kind { draw, play, order } kind;
    int type = 0;
    Move move = Move::none();
    std::vector<int> perm;
  };
  std::unique_ptr<SteppedGame> fresh() const;
  void apply(SteppedGame& g, const Action& a) const;
  void rebuild();

  TableSetup setup_;
  AdviceOptions advice_opt_;
  std::unique_ptr<SteppedGame> game_;
  std::vector<Action> actions_;
  std::unique_ptr<Advisor> advisor_;
  std::optional<nlohmann::json> advice_, analysis_;
};

}  // namespace carc::sim
