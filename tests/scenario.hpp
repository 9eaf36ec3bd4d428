// Test helpers: build positions from readable placement lines and play them through the
// real turn sequence (core/turn.hpp), recording what happened.
//
//   carc::test::Game g;                       // 3 colours, 4 meeples, start tile only
//   g.turn("U 1 0 1 road:E,W");               // colour to move draws U, places it at
//                                             // (1, 0) turned once, meeple on road:E,W
//   g.turn("2: E 2 -1 3 city:W");             // set-up: colour 2 moves now
//   g.order_next({"-1 0 road:E", "1 -1 city:S"});  // score those features first, in order
//   auto ev = g.turn("L 1 0 0 road:E");       // ScoreEvents of that turn
//
// A line is "[colour:] TILE x y rot [segment]"; the segment is named as in rules.md
// ("road:E,S", "city:N", "monastery"); no segment means no meeple. Draws must respect the
// tile counts of rules.md, and every placement must be legal: the helpers REQUIRE both,
// because the engine only asserts them in debug builds.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/state.hpp"
#include "core/turn.hpp"

namespace doctest {
template <>
struct StringMaker<std::vector<int>> {
  static String convert(const std::vector<int>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return String((s + "]").c_str());
  }
};
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
    return String((s + "]").c_str());
  }
};
}  // namespace doctest

namespace carc {

// Declared a friend of State: sets up positions. Only for building a scenario, never to
// imitate a rule.
struct StateTestAccess {
  static void set_score(State& s, int c, int v) { s.scores_[c] = std::int16_t(v); }
  static void set_scores(State& s, std::initializer_list<int> v) {
    REQUIRE(int(v.size()) == s.colors());
    int c = 0;
    for (int x : v) set_score(s, c++, x);
  }
  static void set_supply(State& s, int c, int n) { s.supply_[c] = std::uint8_t(n); }
  static void set_large_supply(State& s, int c, int n) { s.large_supply_[c] = std::uint8_t(n); }
  static void set_to_move(State& s, int c) { s.to_move_ = std::uint8_t(c); }
  // Tiles left in colour c's stack (to reach the end of the game without playing 71 tiles).
  static void set_stack_left(State& s, int c, int n) { s.stack_left_[c] = std::uint8_t(n); }
};

namespace test {

// The base tile set of rules.md, written out independently of core/tiles.hpp:
// "TYPE COUNT EDGES(N,E,S,W) segment...", a segment is kind{edges}, '*' marks a pennant.
inline constexpr std::array<std::string_view, 24> kRulesTable = {
    "A 2 FFRF monastery road{S}",
    "B 4 FFFF monastery",
    "C 1 CCCC city*{N,E,S,W}",
    "D 4 CRFR city{N} road{E,W}",
    "E 5 CFFF city{N}",
    "F 2 FCFC city*{E,W}",
    "G 1 FCFC city{E,W}",
    "H 3 FCFC city{E} city{W}",
    "I 2 FCCF city{E} city{S}",
    "J 3 CRRF city{N} road{E,S}",
    "K 3 CFRR city{N} road{S,W}",
    "L 3 CRRR city{N} road{E} road{S} road{W}",
    "M 2 CFFC city*{N,W}",
    "N 3 CFFC city{N,W}",
    "O 2 CRRC city*{N,W} road{E,S}",
    "P 3 CRRC city{N,W} road{E,S}",
    "Q 1 CCFC city*{N,E,W}",
    "R 3 CCFC city{N,E,W}",
    "S 2 CCRC city*{N,E,W} road{S}",
    "T 1 CCRC city{N,E,W} road{S}",
    "U 8 RFRF road{N,S}",
    "V 9 FFRR road{S,W}",
    "W 4 FRRR road{E} road{S} road{W}",
    "X 1 RRRR road{N} road{E} road{S} road{W}",
};

// One scripted placement line.
struct Line {
  int color = -1;  // -1: whoever is to move
  std::string tile = "?";  // "A".."X", "I1".."I17", "R0".."R9"
  int x = 0, y = 0, rot = 0;
  std::string meeple;  // empty: no meeple
  bool large = false;  // a trailing "large": the figure is the large meeple
};

inline Line parse_line(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string tok;
  Line l;
  in >> tok;
  if (!tok.empty() && tok.back() == ':') {
    l.color = std::stoi(tok.substr(0, tok.size() - 1));
    in >> tok;
  }
  REQUIRE_MESSAGE(tile_type(tok) != kNoType, "bad line: " << text);
  l.tile = tok;
  REQUIRE_MESSAGE(bool(in >> l.x >> l.y >> l.rot), "bad line: " << text);
  in >> l.meeple;
  std::string large;
  if (in >> large) {
    REQUIRE_MESSAGE(large == "large", "bad line: " << text);
    l.large = true;
  }
  return l;
}

// Segment index of `name` on `type` turned `rot`, or -1.
inline int segment_index(int type, int rot, std::string_view name) {
  for (int s = 0; s < kTiles[type].nseg; ++s)
    if (segment_name(type, rot, s) == name) return s;
  return -1;
}

inline std::vector<std::string> segment_names(int type, int rot, std::uint8_t mask) {
  std::vector<std::string> v;
  for (int s = 0; s < kTiles[type].nseg; ++s)
    if (mask >> s & 1) v.push_back(segment_name(type, rot, s));
  return v;
}

inline std::string colour_list(const std::array<std::uint8_t, kMaxColors>& per_colour) {
  std::string s = "[";
  bool first = true;
  for (int c = 0; c < kMaxColors; ++c)
    for (int k = 0; k < per_colour[c]; ++k) {
      s += (first ? "" : ",") + std::to_string(c);
      first = false;
    }
  return s + "]";
}
inline std::string mask_list(std::uint8_t mask) {
  std::array<std::uint8_t, kMaxColors> v{};
  for (int c = 0; c < kMaxColors; ++c) v[c] = mask >> c & 1;
  return colour_list(v);
}

// "city tiles=4 pennants=0 points=8 meeples=[0,2] majority=[0,2] low=1 awarded=[0,2]"
inline std::string describe(const ScoreEvent& e) {
  const char* kind = e.kind == SegKind::road   ? "road"
                     : e.kind == SegKind::city ? "city"
                                               : "monastery";
  return std::string(kind) + " tiles=" + std::to_string(e.tiles) +
         " pennants=" + std::to_string(e.pennants) + " points=" + std::to_string(e.points) +
         " meeples=" + colour_list(e.meeples) + " majority=" + mask_list(e.majority) +
         " low=" + std::to_string(e.low_before) + " awarded=" + mask_list(e.awarded);
}

// The Env of core/turn.hpp, driven by a script.
struct ScriptEnv {
  const State* state = nullptr;
  std::deque<std::string> draws;        // tiles the next draws return, in order
  std::optional<Line> move;             // the placement of the next non-discarded draw
  std::vector<std::string> order_refs;  // "x y segment" of features to score first
  std::vector<int> final_order;         // colours, in final-scoring order (empty: as found)

  // What happened.
  std::vector<ScoreEvent> scored;  // this turn's features, in scoring order
  std::vector<ScoreEvent> all_scored;
  std::vector<std::pair<int, std::string>> discards;  // (colour, tile)
  std::vector<std::string> free;               // free segments of the last placement
  std::vector<std::pair<int, int>> finals;     // (colour, points gained)
  int completed_count = 0;                     // features the last placement completed

  int draw(int c) {
    REQUIRE_MESSAGE(!draws.empty(), "the script has no tile for colour " << c);
    const std::string letter = draws.front();
    draws.pop_front();
    const int type = tile_type(letter);
    REQUIRE(type >= 0);
    REQUIRE_MESSAGE(state->unseen(type) > 0, "no " << letter << " left (rules.md counts)");
    REQUIRE((c == kRiverStack ? state->river_left() : state->stack_left(c)) > 0);
    return type;
  }

  Move choose(const State&, int type, const Placement* legal, int n) {
    REQUIRE_MESSAGE(move.has_value(), "tile " << tile_name(type) << " is placeable");
    const Line l = *move;
    move.reset();
    REQUIRE_MESSAGE(tile_type(l.tile) == type,
                    "drew " << tile_name(type) << ", script says " << l.tile);
    Move m;
    bool found = false;
    for (int i = 0; i < n; ++i)
      if (legal[i].x == l.x && legal[i].y == l.y && legal[i].rot == l.rot) {
        m.at = legal[i];
        found = true;
      }
    REQUIRE_MESSAGE(found,
                    l.tile << " at " << l.x << "," << l.y << " rot " << l.rot << " is not legal");
    if (!l.meeple.empty()) {
      const int seg = segment_index(type, l.rot, l.meeple);
      REQUIRE_MESSAGE(seg >= 0, l.tile << " rot " << l.rot << " has no segment " << l.meeple);
      m.seg = std::uint8_t(seg);
      m.large = l.large;
    }
    return m;
  }

  // Feature root named by "x y segment" (the tile at x, y and one of its segments).
  int feature_ref(std::string_view ref) const {
    std::istringstream in{std::string(ref)};
    int x = 0, y = 0;
    std::string seg;
    in >> x >> y >> seg;
    const int t = state->tile_at(x, y);
    REQUIRE_MESSAGE(t >= 0, "no tile at " << x << "," << y);
    const PlacedTile& p = state->tile(t);
    const int s = segment_index(p.type, p.rot, seg);
    REQUIRE_MESSAGE(s >= 0, "no segment " << seg << " at " << x << "," << y);
    return state->feature_of(t, s);
  }

  void order(const State&, int, std::uint16_t* done, int n) {
    if (order_refs.empty()) return;  // as found
    std::vector<std::uint16_t> want;
    for (const auto& r : order_refs) want.push_back(std::uint16_t(feature_ref(r)));
    order_refs.clear();
    std::vector<std::uint16_t> have(done, done + n);
    REQUIRE(std::is_permutation(want.begin(), want.end(), have.begin(), have.end()));
    std::copy(want.begin(), want.end(), done);
  }

  void order_final(const State&, std::uint8_t* colors, int n) {
    if (final_order.empty()) return;
    std::vector<std::uint8_t> want(final_order.begin(), final_order.end());
    REQUIRE(std::is_permutation(want.begin(), want.end(), colors, colors + n));
    std::copy(want.begin(), want.end(), colors);
  }

  void on_discard(const State& s, int type) { discards.emplace_back(s.to_move(), std::string(tile_name(type))); }
  void on_place(const State&, int type, const Move& m, std::uint8_t free_mask) {
    free = segment_names(type, m.at.rot, free_mask);
  }
  void on_score(const State&, int, const ScoreEvent& e) {
    scored.push_back(e);
    all_scored.push_back(e);
  }
  void on_turn_end(const State&) {}
  void on_final(const State&, int color, int points) { finals.emplace_back(color, points); }
};

// A game under test: the State and its scripted Env.
class Game {
 public:
  explicit Game(Config cfg = {}) : s_(State::initial(cfg)) { env_.state = &s_; }
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  State& state() { return s_; }
  const State& state() const { return s_; }
  ScriptEnv& env() { return env_; }

  // Plays one colour turn: first draws every tile of `discards` (each must fit nowhere),
  // then the tile of `line`. Returns the features scored that turn, in order.
  const std::vector<ScoreEvent>& turn(std::string_view line, std::string_view discards = "") {
    const Line l = parse_line(line);
    if (l.color >= 0) StateTestAccess::set_to_move(s_, l.color);
    REQUIRE_FALSE(s_.ended());
    for (char d : discards) env_.draws.emplace_back(1, d);
    env_.draws.push_back(l.tile);
    env_.move = l;
    env_.scored.clear();
    env_.free.clear();
    play_turn(s_, env_);
    REQUIRE(env_.draws.empty());
    REQUIRE_FALSE(env_.move.has_value());
    return env_.scored;
  }

  // A turn in which every tile drawn fits nowhere (the stack runs out).
  void discard_turn(std::string_view tiles) {
    REQUIRE_FALSE(s_.ended());
    for (char d : tiles) env_.draws.emplace_back(1, d);
    env_.move.reset();
    env_.scored.clear();
    play_turn(s_, env_);
    REQUIRE(env_.draws.empty());
  }

  // The features the next turn completes are scored in this order ("x y segment").
  void order_next(std::vector<std::string> refs) { env_.order_refs = std::move(refs); }

  // Final scoring, meeples in the given colour order (empty: as found).
  void final_scoring(std::vector<int> order = {}) {
    REQUIRE(s_.ended());
    env_.final_order = std::move(order);
    play_final_scoring(s_, env_);
  }

  // Makes the colour to move hold the last tile: every other stack empty.
  void last_tile_next() {
    for (int c = 0; c < s_.colors(); ++c)
      StateTestAccess::set_stack_left(s_, c, c == s_.to_move() ? 1 : 0);
  }

  void set_scores(std::initializer_list<int> v) { StateTestAccess::set_scores(s_, v); }

  std::vector<int> scores() const {
    std::vector<int> v;
    for (int c = 0; c < s_.colors(); ++c) v.push_back(s_.score(c));
    return v;
  }
  std::vector<int> supplies() const {
    std::vector<int> v;
    for (int c = 0; c < s_.colors(); ++c) v.push_back(s_.supply(c));
    return v;
  }
  std::vector<std::string> events() const {
    std::vector<std::string> v;
    for (const auto& e : env_.scored) v.push_back(describe(e));
    return v;
  }
  // Free segments a tile would have at (x, y, rot), without placing it.
  std::vector<std::string> free_if(char tile, int x, int y, int rot) const {
    const int type = tile_type(tile);
    const Placement p{std::uint16_t(cell_of(x, y)), std::int8_t(x), std::int8_t(y),
                      std::uint8_t(rot)};
    return segment_names(type, rot, s_.free_segments(type, p));
  }
  // Meeple colour on the tile at (x, y), -1 if none was placed with it.
  int meeple_at(int x, int y) const {
    const int t = s_.tile_at(x, y);
    REQUIRE(t >= 0);
    return s_.tile(t).meeple_seg == kNoSegment ? -1 : s_.tile(t).meeple_color;
  }

 private:
  State s_;
  ScriptEnv env_;
};

inline GoalMask goals_of(std::initializer_list<Goal> gs) {
  GoalMask m = 0;
  for (Goal g : gs) m = GoalMask(m | goal_bit(g));
  return m;
}

inline std::string goal_names(GoalMask m) {
  std::string s;
  for (int g = 0; g < kGoalCount; ++g)
    if (m >> g & 1) s += (s.empty() ? "" : " ") + std::string(kGoalIds[g]);
  return s;
}

}  // namespace test
}  // namespace carc
