// Checking game logs (carcassonne-solo-log/1, docs/game-log.md) by replaying them through
// the engine: draws come from the log's stacks, decisions (placement, meeple, scoring
// orders) from its turns, and everything the log states that follows from the rules
// (free segments, scored features, scores, supplies, the end) is compared with what the
// engine computes. The policies named in the log are not consulted.
#pragma once
#include <istream>
#include <optional>
#include <span>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/state.hpp"

namespace carc::sim {

// The first place where a log and the engine disagree.
struct Inconsistency {
  int turn = -1;         // colour-turn number, or -1 outside the turns
  std::string at;        // "turn 12", "setup", "final scoring", "end"
  std::string field;     // the log's key, e.g. "free", "scored[1].points", "stacks[2]"
  std::string expected;  // what the engine computes (or the shape the format requires)
  std::string got;       // what the log says ("missing" when absent)
  std::string message() const;  // "turn 12: free: expected [...], got [...]"
};

// Replays one log document. Returns the first inconsistency, or nothing when the log
// agrees with the engine throughout. A malformed field of a game log (missing, wrong type,
// out of range) is an inconsistency too. Throws std::runtime_error only when `log` is not
// a game log at all (not an object, or its "format" is not carcassonne-solo-log/1).
// The log of a game stopped before its end ("unfinished": true, docs/game-log.md) is an
// inconsistency here ("unfinished": expected a finished game): the callers of this
// function need whole games; check_game_log tells such a log apart.
std::optional<Inconsistency> verify_game_log(const nlohmann::json& log);

// Told of every placement decision of a replay (sim/analysis replays a log this way): the
// State with the tile in hand drawn, the tile, its legal placements and the move the log
// plays (found legal; `played.seg` is Move::kNoMeeple when no meeple could go). Discarded
// draws are no decisions and are not reported.
class DecisionObserver {
 public:
  virtual ~DecisionObserver() = default;
  virtual void on_decision(const State& s, int type, std::span<const Placement> legal,
                           const Move& played) = 0;
};
// The same replay, telling `observer` of each decision as it is reached (a decision is
// reported only once the log's move for it is found legal).
std::optional<Inconsistency> verify_game_log(const nlohmann::json& log, DecisionObserver* observer);

// What `carcsolo verify` makes of one log: its first inconsistency, or, when it has none,
// whether the game stopped before its end ("unfinished": true; every turn the log holds
// agrees with the engine, and it has no end, final scoring, scores, result or goals) and
// how many colour turns it holds (a turn stopped between a discard and its redraw counts).
struct LogCheck {
  std::optional<Inconsistency> bad;
  bool unfinished = false;
  int turns = 0;
};
LogCheck check_game_log(const nlohmann::json& log, DecisionObserver* observer = nullptr);

// Reads the documents of a log file one at a time: JSON Lines (blank lines skipped), or a
// file holding one pretty-printed document (what `replay --out` writes).
class LogReader {
 public:
  explicit LogReader(std::istream& in) : in_(in) {}
  // The next document and the line it starts on; false at the end. Throws
  // std::runtime_error on text that is not JSON (`line` then says where).
  bool next(nlohmann::json& doc, long& line);

 private:
  std::istream& in_;
  long line_ = 0;
  bool any_ = false;
};

}  // namespace carc::sim
