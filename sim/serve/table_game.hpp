// One game at the table, the one session type of `carcsolo advise` (a line protocol) and
// of the table page (`carcsolo serve`, docs/serve.md): a SteppedGame at the table (the
// person says which tile was drawn) or dealt from (seed, game) for practice, the advice at
// its decisions, undo, the log with its `advisor` block, the log's analysis at the end,
// and a game resumed from its log.
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
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/analysis/advice.hpp"
#include "sim/driver/stepper.hpp"

namespace carc::sim {

// A request that does not fit the game (a tile with no copy unseen, a move that is not
// legal, a draw while a tile is in hand): the HTTP answer 409, advise's refused line.
struct GameConflict : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// `s` with its control characters written out (\n, \x1b, \x00: C0, DEL and C1), fit for a
// message or a log line that quotes what a person or a client sent.
std::string escape_controls(std::string_view s);

// Colour c's name as the pages and the line protocol say it ("blue"); `t` in lower case.
std::string color_name(int c);
std::string lower_case(std::string t);

struct TableSetup {
  Config cfg;
  bool practice = false;       // dealt from (seed, game); else at the table
  std::uint64_t seed = 1, game = 0;
  Aim aim;                     // what the advice plays for (docs/aim.md)
  // The scoring policy orders the features a move completes (advise), instead of an
  // order() from the person (the page).
  bool auto_order = false;
  std::string program = "serve";  // the log's placement policy: the program that kept it
  nlohmann::json value_net;       // the advisor's value net {hash, source}, or null
};

struct TableAction {
  enum Kind { draw, play, order } kind = draw;
  int type = 0;                // the tile drawn, or the tile played
  Move move = Move::none();
  std::vector<int> perm;
  bool followed = false;       // a move that was the advice ranked first
};

// What undo() took back: the action, the colour whose it was, and in a practice game the
// tile the deal had put in the next colour's hand, back on its stack (kNoType: none).
struct Undone {
  TableAction action;
  int color = 0;
  int dealt_back = kNoType, dealt_color = -1;
  std::string text() const;  // one sentence for a person
};

class TableGame {
 public:
  // Throws std::invalid_argument for bad advice options.
  TableGame(const TableSetup& setup, const AdviceOptions& advice);
  // The game of a log (docs/game-log.md, finished or "unfinished"), replayed to where it
  // ends: its colours, meeples and aim (advisor.aim), at the table or, with "practice" or
  // a seed and game, dealt. `base` gives the tile set and the large meeple, which the log
  // must match, and the program. Throws std::invalid_argument naming what does not fit.
  static std::unique_ptr<TableGame> resume(const nlohmann::json& log, const TableSetup& base,
                                           const AdviceOptions& advice);

  // Each throws GameConflict when the game is not waiting for it.
  void draw(int type);
  void play(const Move& m);
  // x, y, rot of a legal placement; `meeple` a segment name (segment_name) or empty for
  // none; `large`: the large meeple goes there (expansions.md).
  void play(int x, int y, int rot, const std::string& meeple, bool large = false);
  // Indices into the completed features, a permutation; empty: the scoring policy's order.
  void order(const std::vector<int>& order);
  // Takes back the last action; GameConflict when there is none.
  Undone undo();
  // What the advice plays for from now on (the goal chosen before the game, changed during
  // it); the advice of the decision in hand is computed again. std::invalid_argument when
  // the analyser cannot aim.
  void set_aim(const Aim& aim);

  const SteppedGame& game() const { return *game_; }
  const TableSetup& setup() const { return setup_; }
  const std::vector<TableAction>& actions() const { return actions_; }
  // The ranked moves of the tile in hand, computed once per decision; GameConflict when
  // no tile is in hand.
  const std::vector<MoveEstimate>& ranked();
  int decisions() const;  // moves played
  int followed() const;   // moves that were the advice ranked first when it was given

  // What the page shows: phase ("draw", "play", "order", "over"), scores, supplies,
  // stacks, unseen tiles and the names that may be drawn now, the board with its meeples,
  // the tile in hand with its legal placements and their free segments, the completed
  // features to order.
  nlohmann::json state() const;
  // ranked() as the page shows it.
  nlohmann::json advice();
  // The game log (game-log.md) with its "advisor" record; marked unfinished while the
  // game goes on (GameConflict while an order is wanted).
  nlohmann::json log() const;
  // The analysis document (carcassonne-solo-analysis/1) of the log, with the advice's
  // options; GameConflict while the game goes on.
  nlohmann::json analysis();

 private:
  std::unique_ptr<SteppedGame> fresh() const;
  void apply(SteppedGame& g, const TableAction& a) const;
  void push(TableAction a);
  void rebuild();

  TableSetup setup_;
  AdviceOptions advice_opt_;
  std::unique_ptr<SteppedGame> game_;
  std::vector<TableAction> actions_;
  std::unique_ptr<Advisor> advisor_;
  std::optional<std::vector<MoveEstimate>> ranked_;
  std::optional<nlohmann::json> analysis_;
  // A resumed game: the actions read from its log, and how many of its moves its advisor
  // followed (the log's advisor.followed).
  std::size_t resumed_actions_ = 0;
  int resumed_followed_ = 0;
};

}  // namespace carc::sim
