// Training data for a learned value (docs/training.md; the file format is
// docs/positions-format.md): every decision of seeded games as one row, the features of its
// afterstate and the game's outcome.
//
// The afterstate of a decision is the State after the colour's placement, meeple and the
// scoring of what it completed, and after State::end_turn (which only decides whether the
// game ended and whose turn is next), before the next draw. The features read nothing but
// that State, which holds what a player may know (board, scores, supplies, stack sizes,
// unseen tile counts) and never the order of the stacks, which the driver alone holds.
//
// Colour slots: slot i (0..5) of a row is colour (mover + 1 + i) mod k, so slot 0 is the
// colour after the mover in turn order and slot k-1 the mover; slots k..5 are zero. The
// targets' per-colour scores use the same slots.
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/state.hpp"
#include "policies/afterstate_features.hpp"
#include "policies/lookahead.hpp"
#include "policies/policy.hpp"
#include "sim/driver/game.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

// Feature columns: those of policies/afterstate_features.hpp, the input of the learned value.
inline constexpr int kPositionFeatures = kAfterstateFeatures;
// Target columns: the result, the final score per slot, the 14 goals (0 or 1).
inline constexpr int kPositionTargets = 1 + kMaxColors + kGoalCount;
// A row: game (uint64), turn (uint16), mover (uint16), the features, the targets (float32),
// little-endian, packed.
inline constexpr std::size_t kPositionRowHead = 12;
inline constexpr std::size_t kPositionRowBytes =
    kPositionRowHead + 4 * std::size_t(kPositionFeatures + kPositionTargets);
static_assert(kPositionFeatures == 74 && kPositionTargets == 21 && kPositionRowBytes == 392,
              "a change of columns is a new format version (docs/positions-format.md)");

// `positions --board`: the board block's 35 feature columns after the 74 (the learned
// value's second feature set, policies/afterstate_features.hpp) and two target columns
// after the 21: root_value, the placement policy's own value of the move (last_value();
// NaN when it computed none), and chosen (1: the move played; 0: a row of --candidates).
// A row is then 12 + 4 x (109 + 23) = 540 bytes.
//
// `--candidates` (with --board): after each decision's row, one row per other move the
// policy valued (last_candidates(): search's beam), the afterstate that move would have
// made, its value as root_value, chosen 0, and the game's outcome as the other targets
// (the game did not go that way: a trainer reads root_value from such rows).
struct PositionLayout {
  bool board = false;
  bool candidates = false;
  int features() const { return board ? kAfterstateFeaturesBoard : kPositionFeatures; }
  int targets() const { return kPositionTargets + (board ? 2 : 0); }
  std::size_t row_bytes() const { return kPositionRowHead + 4 * std::size_t(features() + targets()); }
};

// Column names, in order (docs/positions-format.md says what each holds).
std::vector<std::string> position_feature_columns(bool board = false);
std::vector<std::string> position_target_columns(bool board = false);

// The features of afterstates (policies/afterstate_features.hpp), with what --candidates
// needs to make the other moves' afterstates: one per thread.
struct PositionFeatures : AfterstateFeatures {
  State before, after;  // the State before the move, a candidate's afterstate
  std::unique_ptr<ScoringPolicy> scoring = make_lookahead_scoring();
  Rng rng;  // the candidates' scoring order (reseeded per game: Stream::search of the game)
};

// Rows of kPositionRowBytes bytes each, back to back.
using PositionBytes = std::vector<unsigned char>;

// Plays one game (the very game play_game plays for the same spec and policies) and appends
// one row per decision to `rows`, their targets written once the game is over. Allocates
// nothing when `rows` has capacity for kMaxTiles more rows.
GameOutcome play_positions_game(const GameSpec& spec, PlacementPolicy& placement,
                                ScoringPolicy& scoring, PositionFeatures& features,
                                PositionBytes& rows, PositionLayout layout = {});

// `positions --mix`: the configuration of game `game` of seed `seed`, from its own stream
// (Stream::config): with chance 1/2 the rules' 3 colours x 4 meeples, otherwise uniform over
// the 60 pairs of 2..6 colours and 1..12 meeples (3 x 4 among them).
Config mixed_config(std::uint64_t seed, std::uint64_t game);

struct PositionsRequest {
  std::uint64_t seed = 1, first_game = 0, games = 0;
  Config config;      // every game's configuration, unless `mix`
  bool mix = false;   // each game's from mixed_config
  PositionLayout layout;  // --board
  std::string placement = "random", scoring = "random";  // policy specs
  PolicyContext context;  // what the placement policy is made from (its learned value)
  int threads = 1;    // per process
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: finish early
};

struct PositionsOutcome {
  std::uint64_t games_done = 0;  // games [first_game, first_game + games_done)
  std::uint64_t rows = 0;        // rows handed to the sink (process 0)
  bool partial = false;          // stopped before the requested range was complete
  double seconds = 0;
};

// Receives rows, in game order and whole games at a time (process 0 only).
using PositionSink = std::function<void(const unsigned char* bytes, std::size_t size)>;

// Plays the request on `threads` OpenMP threads in every process of an MPI job (each calls
// it with the same request): games go in rounds, each round's range split over the processes
// and their threads, the rows gathered to process 0 and given to `sink` in game order, so
// what the sink receives does not depend on the thread or process count. A stop is looked
// at between rounds (all processes agree on it): the games played are a prefix of the
// range. An exception in any thread of any process stops the work and is thrown here as an
// InternalError (sim/driver/errors.hpp).
PositionsOutcome play_positions(const PositionsRequest& req, const PositionSink& sink);

}  // namespace carc::sim
