#include "sim/driver/stepper.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace carc::sim {
namespace {

const GameSpec& checked(const GameSpec& spec) {
  if (spec.cfg.colors < kMinColors || spec.cfg.colors > kMaxColors)
    throw std::invalid_argument("colors must be in 2..6 (got " + std::to_string(spec.cfg.colors) + ")");
  if (spec.cfg.meeples < kMinMeeples || spec.cfg.meeples > kMaxMeeples)
    throw std::invalid_argument("meeples must be in 1..12 (got " + std::to_string(spec.cfg.meeples) + ")");
  return spec;
}

}  // namespace

SteppedGame::SteppedGame(const GameSpec& spec, const std::string& scoring_spec)
    : spec_(checked(spec)),
      dealt_(spec.stacks ? *spec.stacks : deal(spec.cfg.colors, spec.seed, spec.game, spec.cfg.tiles())),
      scoring_(make_scoring_policy(scoring_spec)),
      scoring_name_(canonical_scoring(scoring_spec)) {
  if (dealt_.colors != spec.cfg.colors)
    throw std::invalid_argument("the deal has " + std::to_string(dealt_.colors) +
                                " stacks for " + std::to_string(spec.cfg.colors) + " colours");
  spec_.stacks = nullptr;  // the deal is dealt_ from here on
  env_.stacks = dealt_;
  env_.scoring = scoring_.get();
  env_.rng = Rng(spec.seed, spec.game, Stream::scoring);
  s_ = State::initial(spec.cfg);
  advance();
}

SteppedGame::SteppedGame(AtTheTable, const Config& cfg, const std::string& scoring_spec,
                         std::uint64_t seed)
    : spec_(checked(GameSpec{cfg, seed, 0})),
      scoring_(make_scoring_policy(scoring_spec)),
      scoring_name_(canonical_scoring(scoring_spec)),
      table_(true) {
  dealt_ = Stacks{};
  dealt_.colors = cfg.colors;
  spec_.stacks = nullptr;
  env_.stacks = dealt_;  // never drawn from: draw() takes the tiles
  env_.scoring = scoring_.get();
  env_.rng = Rng(seed, 0, Stream::scoring);
  s_ = State::initial(spec_.cfg);
  advance();
}

void SteppedGame::draw(int type) {
  if (!table_) throw std::invalid_argument("this game has a deal: its tiles are drawn from its stacks");
  if (over_) throw std::invalid_argument("the game is over");
  if (ordering_) throw std::invalid_argument("order the completed features first (order())");
  if (!waiting_draw_)
    throw std::invalid_argument("colour " + std::to_string(s_.to_move()) + " has tile " +
                                std::string(tile_name(tile_)) + " in hand: play it first");
  if (type < 0 || type >= kTileTypes) throw std::invalid_argument("no such tile type");
  const int in_set = type == spec_.cfg.tiles().start ? spec_.cfg.tiles().count[type] - 1 : spec_.cfg.tiles().count[type];
  if (in_set == 0)
    throw std::invalid_argument("tile " + std::string(tile_name(type)) + " is not in this game's set (" +
                                std::string(spec_.cfg.rules->name()) + ")");
  const std::string name(tile_name(type));
  switch (s_.draw_rule(type)) {
    case DrawRule::ok:
      break;
    case DrawRule::none_unseen:
      throw std::invalid_argument("no tile " + name + " is left to draw (all " + std::to_string(in_set) + " are seen)");
    case DrawRule::land_in_river:
      throw std::invalid_argument("the river is laid first: the tile drawn now is a river tile (R1..R9), not " + name);
    case DrawRule::river_spent:
      throw std::invalid_argument("the river stack is empty: " + name + " cannot be drawn");
    case DrawRule::lake_early:
      throw std::invalid_argument("the lake (R9) is the river stack's last tile: " +
                                  std::to_string(s_.river_left() - 1) + " other river tiles come first");
  }
  const int c = s_.to_move();
  const bool river = s_.draw_stack() == kRiverStack;
  std::string& drawn = river ? river_drawn_ : drawn_[std::size_t(c)];
  if (s_.beyond_base()) drawn += ' ';
  drawn += tile_name(type);
  n_legal_ = take_draw(s_, env_, type, legal_.data());
  if (n_legal_ > 0) {
    tile_ = type;
    waiting_draw_ = false;
    return;
  }
  if (s_.stack_left(c) > 0) return;  // discarded: the same colour draws again (the river's tile while it flows)
  score_and_end_turn(s_, env_, nullptr, 0);  // the stack ran out in discards
  advance();
}

std::span<const Placement> SteppedGame::legal() const {
  if (tile() == kNoType) return {};
  return {legal_.data(), std::size_t(n_legal_)};
}

std::span<const std::uint16_t> SteppedGame::completed() const {
  if (!ordering_) return {};
  return {done_.data(), std::size_t(n_done_)};
}

void SteppedGame::advance() {
  if (table_ && !s_.ended()) {
    tile_ = kNoType;
    waiting_draw_ = true;
    return;
  }
  waiting_draw_ = false;
  while (!s_.ended()) {
    tile_ = draw_placeable(s_, env_, legal_.data(), n_legal_);
    if (tile_ != kNoType) return;
    score_and_end_turn(s_, env_, nullptr, 0);  // the stack ran out in discards
  }
  play_final_scoring(s_, env_);
  tile_ = kNoType;
  over_ = true;
}

void SteppedGame::play(const Move& m) {
  if (over_) throw std::invalid_argument("the game is over");
  if (ordering_) throw std::invalid_argument("order the completed features first (order())");
  const auto legal = this->legal();
  const auto it = std::find_if(legal.begin(), legal.end(), [&](const Placement& p) {
    return p.x == m.at.x && p.y == m.at.y && p.rot == m.at.rot;
  });
  if (it == legal.end())
    throw std::invalid_argument("(" + std::to_string(m.at.x) + ", " + std::to_string(m.at.y) +
                                ", rot " + std::to_string(m.at.rot) + ") is no legal placement of tile " +
                                std::string(tile_name(tile_)));
  Move move{*it, m.seg};
  const std::uint8_t free = s_.free_segments(tile_, *it);
  const int c = s_.to_move();
  const bool meeple = free != 0 && s_.figures(c) > 0;
  if (m.large && s_.large_supply(c) == 0)
    throw std::invalid_argument(s_.large_meeple() ? "the large meeple of colour " + std::to_string(c) + " is on the board"
                                                  : std::string("this game has no large meeple (--large-meeple)"));
  move.large = meeple && (m.large || s_.supply(c) == 0);  // the lone large meeple is forced (expansions.md)
  if (meeple && (m.seg >= kMaxSegs || !(free >> m.seg & 1)))
    throw std::invalid_argument("a meeple must go on one of the free segments of this placement");
  if (!meeple && m.seg != Move::kNoMeeple && free == 0)
    throw std::invalid_argument("this placement leaves no free segment: no meeple (None)");
  if (!meeple) move.seg = Move::kNoMeeple;
  n_done_ = place_tile(s_, env_, tile_, move, done_.data());
  if (n_done_ > 1) {
    ordering_ = true;
    return;
  }
  score_and_end_turn(s_, env_, done_.data(), n_done_);
  advance();
}

void SteppedGame::order(std::span<const int> order) {
  if (!ordering_) throw std::invalid_argument("no completed features wait for an order");
  std::array<std::uint16_t, kMaxCompleted> ordered = done_;
  if (order.empty()) {
    scoring_->order_features(Observation(s_, tile_), {ordered.data(), std::size_t(n_done_)},
                             env_.rng);
  } else {
    std::array<bool, kMaxCompleted> seen{};
    if (int(order.size()) != n_done_)
      throw std::invalid_argument("the order must list all " + std::to_string(n_done_) +
                                  " completed features (got " + std::to_string(order.size()) + ")");
    for (std::size_t i = 0; i < order.size(); ++i) {
      const int j = order[i];
      if (j < 0 || j >= n_done_ || seen[std::size_t(j)])
        throw std::invalid_argument("the order must be a permutation of 0.." +
                                    std::to_string(n_done_ - 1));
      seen[std::size_t(j)] = true;
      ordered[i] = done_[std::size_t(j)];
    }
  }
  ordering_ = false;
  score_and_end_turn(s_, env_, ordered.data(), n_done_);
  advance();
}

nlohmann::json SteppedGame::log(const std::string& placement_name) const {
  if (!over_)
    throw std::invalid_argument("the log names the dealt stacks: it is given once the game is over");
  return document(placement_name);
}

nlohmann::json SteppedGame::unfinished_log(const std::string& placement_name) const {
  if (over_) throw std::invalid_argument("the game is over: its log is log()");
  if (ordering_) throw std::invalid_argument("order the completed features first (order())");
  nlohmann::json doc;
  if (table_) {
    doc = document(placement_name);
  } else {  // the tiles drawn from the deal so far; those to come are not told
    std::array<std::string, kMaxColors> drawn;
    std::string river;
    const std::string sep = s_.beyond_base() ? " " : "";
    auto names = [&](int stack, std::string& out) {
      for (int i = env_.stacks.begin[std::size_t(stack)]; i < env_.stacks.next[std::size_t(stack)]; ++i)
        out += (out.empty() ? "" : sep) + std::string(tile_name(env_.stacks.tiles[std::size_t(i)]));
    };
    for (int c = 0; c < s_.colors(); ++c) names(c, drawn[std::size_t(c)]);
    if (env_.stacks.river_size() > 0) names(kRiverStack, river);
    doc = drawn_document(drawn, river, placement_name);
    doc["practice"] = {{"seed", spec_.seed}, {"game", spec_.game}};
  }
  for (const char* key : {"final_scoring", "end", "scores", "result", "goals"}) doc.erase(key);
  doc["unfinished"] = true;
  return doc;
}

nlohmann::json SteppedGame::document(const std::string& placement_name) const {
  if (!table_) {
    LogHooks hooks = env_;
    return game_log_document(spec_, dealt_, s_, std::move(hooks), placement_name, scoring_name_);
  }
  return drawn_document(drawn_, river_drawn_, placement_name);
}

nlohmann::json SteppedGame::drawn_document(const std::array<std::string, kMaxColors>& drawn,
                                           const std::string& river_drawn, const std::string& placement_name) const {
  LogHooks hooks = env_;
  // The stacks as drawn; the tiles never drawn (an early end) after them, in catalogue order.
  // Names are space-separated beyond the base set (names of two and three characters; deal.hpp).
  const std::string sep = s_.beyond_base() ? " " : "";
  std::vector<std::string> stacks(drawn.begin(), drawn.begin() + s_.colors());
  std::vector<int> rest;
  for (int t = 0; t < s_.type_end(); ++t)
    if (!is_river(t))
      for (int k = 0; k < s_.unseen(t); ++k) rest.push_back(t);
  std::size_t at = 0;
  for (int c = 0; c < s_.colors(); ++c)
    for (int k = 0; k < s_.stack_left(c); ++k)
      stacks[std::size_t(c)] += (stacks[std::size_t(c)].empty() ? "" : sep) + std::string(tile_name(rest[at++]));
  std::string river = river_drawn;  // the river's unseen tiles after its draws, the lake last
  for (int t = kFirstRiver; t < s_.type_end(); ++t)
    if (t != kLakeType)
      for (int k = 0; k < s_.unseen(t); ++k) river += (river.empty() ? "" : sep) + std::string(tile_name(t));
  if (s_.type_end() > kLakeType && s_.unseen(kLakeType) > 0)
    river += (river.empty() ? "" : sep) + std::string(tile_name(kLakeType));
  nlohmann::json doc = game_log_document(spec_, stacks_from_letters(stacks, spec_.cfg.tiles(), river), s_,
                                         std::move(hooks), placement_name, scoring_name_);
  doc.erase("seed");  // no deal, so no deal's seed or game number
  doc.erase("game");
  doc["deal"] = "table";
  return doc;
}

}  // namespace carc::sim
