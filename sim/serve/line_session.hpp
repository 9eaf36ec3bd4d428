// The table's line protocol (docs/advise.md), the session of `carcsolo advise`: a person or
// a program says on one line which tile the colour to move drew, then the move played (a
// rank of the advice or x,y,rot[,meeple]); `undo`, `board`, `quit` and comments besides.
// The game, its undo and its log are a TableGame's, as the table page's are.
#pragma once
#include <csignal>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "sim/analysis/advice.hpp"
#include "sim/serve/table_game.hpp"

namespace carc::sim {

class LineSession {
 public:
  enum class End { over, quit, input_ended, interrupted, refused };

  // The game, its undo and its log are the table's (sim/serve/table_game.hpp, shared with
  // the table page); the session reads lines from `in` and writes the protocol to `out`,
  // `k` moves listed per advice. With `retry` a refused line is said on `err` and the
  // question comes again. `signalled`, when given, is a flag a signal handler sets: the
  // session then ends as interrupted.
  LineSession(TableGame& table, int k, bool retry, std::istream& in, std::ostream& out, std::ostream& err,
              const volatile std::sig_atomic_t* signalled = nullptr)
      : table_(table), k_(k), retry_(retry), in_(in), out_(out), err_(err), signalled_(signalled) {}

  // Plays the game until it is over, `quit` is typed, the input ends, a signal comes, or
  // (without retry) a line is refused (refusal() says why).
  End play();

  const SteppedGame& game() const { return table_.game(); }
  const std::string& refusal() const { return refusal_; }

 private:
  bool signalled() const { return signalled_ && *signalled_; }
  std::string draw_prompt() const;
  void undo();
  void show_board() const;
  void take_tile(const std::string& line);
  void advise();

  void take_move(const std::string& line);

  // A rank among the moves listed, or x,y,rot with the meeple's segment after a comma or a
  // space ("-" or nothing for none).
  Move parse_move(const std::string& line, int type);

  TableGame& table_;
  int k_;
  bool retry_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream& err_;
  const volatile std::sig_atomic_t* signalled_;
  std::vector<MoveEstimate> ranked_;
  int listed_ = 0;
  bool advised_ = false;  // ranked_ is the advice for the tile in hand
  std::string refusal_;
};

}  // namespace carc::sim
