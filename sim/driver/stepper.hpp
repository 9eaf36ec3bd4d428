// A game played one decision at a time by a caller outside the driver (the Python module's
// Game): the tile in hand and its legal placements, then a move, then, when the tile
// completed several features, the order they are scored in. Draws, discards and the
// final scoring (in the scoring policy's order) happen in between, through core/turn.hpp as
// in the driver, and the game log is recorded as the driver records it.
//
// The stacks stay inside: nothing here tells the order of tiles not yet drawn, except the
// log, which names the dealt stacks and is given only once the game is over.
//
// A game at the table (docs/advise.md) has no deal: the caller says which tile the colour
// to move drew (draw()), checked against the tiles not yet seen; its log's stacks are the
// tiles as drawn, followed, when the game ended before every stack was empty, by the
// unseen tiles in catalogue order (no one knows their real order).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "core/turn.hpp"
#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/game_log.hpp"

namespace carc::sim {

class SteppedGame {
 public:
  // `spec.stacks` (a given deal) or the deal of (seed, game). The scoring policy orders the
  // features when order() is given no order, and the meeples of the final scoring; it
  // draws from the game's scoring stream as in the driver. Throws std::invalid_argument
  // for a bad spec or policy.
  SteppedGame(const GameSpec& spec, const std::string& scoring_spec);
  // A game at the table: no deal, every draw told by draw(). `seed` seeds the scoring
  // policy's stream (the final scoring's order, and features' when order() has none).
  struct AtTheTable {};
  SteppedGame(AtTheTable, const Config& cfg, const std::string& scoring_spec, std::uint64_t seed = 1);

  bool at_the_table() const { return table_; }
  // At the table: the colour to move waits for the tile it drew.
  bool needs_draw() const { return waiting_draw_ && !over_; }
  // At the table: the colour to move drew `type`. Throws std::invalid_argument when the game
  // has a deal, when no draw is due (a tile in hand, an order wanted, the game over), or
  // when no tile of that type is left unseen. A tile that fits nowhere is discarded and the
  // same colour draws again (or, its stack empty, the next colour).
  void draw(int type);

  const State& state() const { return s_; }
  const GameSpec& spec() const { return spec_; }
  bool over() const { return over_; }
  // A tile in hand waiting for play(): its type, else kNoType.
  int tile() const { return ordering_ || over_ ? kNoType : tile_; }
  std::span<const Placement> legal() const;
  // After a play() that completed several features: their roots, as found, waiting for order().
  bool ordering() const { return ordering_; }
  std::span<const std::uint16_t> completed() const;

  // Plays one of legal(); m.seg is the meeple's segment, one of the free segments when the
  // placement leaves some and the colour has a meeple (ignored when its supply is empty),
  // else Move::kNoMeeple. Throws std::invalid_argument naming what is wrong.
  void play(const Move& m);
  // Scores the completed features in this order (indices into completed(), a permutation),
  // or in the scoring policy's order when `order` is empty.
  void order(std::span<const int> order);
  // The game log (game-log.md); throws std::invalid_argument while the game goes on.
  nlohmann::json log(const std::string& placement_name) const;
  // The log of the game so far, marked "unfinished": true (docs/game-log.md): the turns
  // played, the stacks as a game at the table's log gives them (each colour's draws, a tile
  // in hand included, then the unseen tiles in catalogue order), and no end, final scoring,
  // scores, result or goals. A game with a deal is written the same way, so that its log
  // does not tell the tiles to come, with "practice": {"seed", "game"} naming its deal.
  // Throws std::invalid_argument while an order is wanted (a turn half scored) and once
  // the game is over (log() then).
  nlohmann::json unfinished_log(const std::string& placement_name) const;
  const std::string& scoring_name() const { return scoring_name_; }

 private:
  struct Env : LogHooks {
    Stacks stacks;
    ScoringPolicy* scoring = nullptr;
    Rng rng;
    int draw(int c) { return stacks.pop(c); }
    Move choose(const State&, int, const Placement*, int) { return Move::none(); }
    void order(const State&, int, std::uint16_t*, int) {}
    void order_final(const State& s, std::uint8_t* colors, int n) {
      scoring->order_final(Observation(s, kNoType), {colors, std::size_t(n)}, rng);
    }
  };
  void advance();  // to the next tile in hand (the next draw at the table), or to the end
  nlohmann::json document(const std::string& placement_name) const;  // log() without the check
  // A log whose stacks are these draws, then the tiles unseen in catalogue order.
  nlohmann::json drawn_document(const std::array<std::string, kMaxColors>& drawn, const std::string& river_drawn,
                                const std::string& placement_name) const;

  GameSpec spec_;
  Stacks dealt_;
  std::unique_ptr<ScoringPolicy> scoring_;
  std::string scoring_name_;
  Env env_;
  State s_;
  MoveBuffer legal_;
  int n_legal_ = 0, tile_ = kNoType;
  std::array<std::uint16_t, kMaxCompleted> done_{};
  int n_done_ = 0;
  bool ordering_ = false, over_ = false;
  bool table_ = false, waiting_draw_ = false;
  std::array<std::string, kMaxColors> drawn_;  // at the table: each colour's draws, in order
  std::string river_drawn_;                    // at the table: the river stack's draws
};

}  // namespace carc::sim
