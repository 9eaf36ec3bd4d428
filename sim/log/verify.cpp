#include "sim/log/verify.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/state.hpp"
#include "core/turn.hpp"
#include "sim/driver/tilesets.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

struct Mismatch {  // thrown out of the replay at the first disagreement
  Inconsistency what;
};
struct Stopped {};  // thrown out of the replay when an unfinished log's turns run out

// One short line for a value read from a log. Nested values are summarised, not dumped:
// a hostile log may nest arbitrarily deep, and dump() recurses.
std::string describe(const json* j) {
  if (!j) return "missing";
  if (j->is_object()) return "an object";
  if (j->is_array())
    for (const auto& e : *j)
      if (e.is_structured()) return "an array of " + std::to_string(j->size()) + " entries";
  std::string s = j->dump(-1, ' ', true, json::error_handler_t::replace);
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}
std::string describe(const json& j) { return describe(&j); }

json scores_json(const State& s) {
  json a = json::array();
  for (int c = 0; c < s.colors(); ++c) a.push_back(s.score(c));
  return a;
}
json supply_json(const State& s) {
  json a = json::array();
  for (int c = 0; c < s.colors(); ++c) a.push_back(s.supply(c));
  return a;
}
json colors_json(std::uint8_t mask) {
  json a = json::array();
  for (int c = 0; c < kMaxColors; ++c)
    if (mask >> c & 1) a.push_back(c);
  return a;
}
json large_supply_json(const State& s) {
  json a = json::array();
  for (int c = 0; c < s.colors(); ++c) a.push_back(s.large_supply(c));
  return a;
}
// The figures' colours, sorted: a colour's weight less one for its large meeple (`large`).
json meeples_json(const std::array<std::uint8_t, kMaxColors>& m, std::uint8_t large = 0) {
  json a = json::array();
  for (int c = 0; c < kMaxColors; ++c)
    for (int k = 0; k < m[std::size_t(c)] - (large >> c & 1); ++k) a.push_back(c);
  return a;
}
json segment_names(int type, int rot, std::uint8_t mask) {
  json a = json::array();
  for (int seg = 0; seg < kMaxSegs; ++seg)
    if (mask >> seg & 1) a.push_back(segment_name(type, rot, seg));
  return a;
}
// An array of strings, sorted; nullopt when `j` is not one.
std::optional<std::vector<std::string>> sorted_strings(const json* j) {
  if (!j || !j->is_array()) return std::nullopt;
  std::vector<std::string> v;
  for (const auto& e : *j) {
    if (!e.is_string()) return std::nullopt;
    v.push_back(e.get<std::string>());
  }
  std::sort(v.begin(), v.end());
  return v;
}

// The Env of core/turn.hpp that takes draws and decisions from a log and compares every
// consequence with the log.
class Replayer {
 public:
  Replayer(const json& log, DecisionObserver* observer) : log_(log), observer_(observer) {}

  void run() {
    const json* cfg = get(log_, "config");
    if (!cfg || !cfg->is_object()) fail("config", "an object", cfg);
    const int k = get_int(*cfg, "colors", kMinColors, kMaxColors, "config.colors");
    const int m = get_int(*cfg, "meeples", kMinMeeples, kMaxMeeples, "config.meeples");
    json starts = json::array();
    for (int c = 0; c < k; ++c) starts.push_back(c + 1);
    expect(*cfg, "start_scores", starts, "config.start_scores");
    const json* lm = get(*cfg, "large_meeple");
    if (lm && !lm->is_boolean()) fail("config.large_meeple", "true or false", lm);
    const bool large = lm && lm->get<bool>();
    State s = State::initial(Config{k, m, rules_of(*cfg, large)});
    state_ = &s;
    read_stacks(s);
    const json* start = get(log_, "start");
    if (!start || !start->is_object()) fail("start", "an object", start);
    expect(*start, "tile", std::string(tile_name(s.start_type())), "start.tile");
    expect(*start, "x", 0, "start.x");
    expect(*start, "y", 0, "start.y");
    expect(*start, "rot", 0, "start.rot");
    turns_ = get(log_, "turns");
    if (!turns_ || !turns_->is_array()) fail("turns", "an array", turns_);
    const json* unfinished = get(log_, "unfinished");
    if (unfinished && !unfinished->is_boolean()) fail("unfinished", "true or false", unfinished);
    unfinished_ = unfinished && unfinished->get<bool>();
    if (unfinished_)
      for (const char* key : {"final_scoring", "end", "scores", "result", "goals"})
        if (const json* v = get(log_, key)) fail(key, "no such key (the game is unfinished)", v);

    try {
      while (!s.ended()) play_turn(s, *this);
    } catch (const Stopped&) {
      turns_played_ = s.turn();
      return;  // every turn the unfinished log holds agrees with the engine
    }
    turns_played_ = s.turn();

    locate(-1, "end");
    if (unfinished_) fail("unfinished", "false or no such key (the game is over after these turns)", unfinished);
    if (next_ < turns_->size())
      fail("turns", std::to_string(next_) + " entries (the game is over after them)",
           std::to_string(turns_->size()) + " entries");
    locate(-1, "final scoring");
    final_ = get(log_, "final_scoring");
    if (!final_ || !final_->is_array()) fail("final_scoring", "an array", final_);
    int left = 0;
    for (int c = 0; c < k; ++c) left += s.figures_on_board(c);
    if (final_->size() != std::size_t(left))
      fail("final_scoring", std::to_string(left) + " entries (one per figure on the board)",
           std::to_string(final_->size()) + " entries");
    play_final_scoring(s, *this);

    locate(-1, "end");
    const json* end = get(log_, "end");
    if (!end || !end->is_object()) fail("end", "an object", end);
    expect(*end, "reason", std::string(end_reason_id(s.end_reason())), "end.reason");
    expect(*end, "turns", s.turn(), "end.turns");
    expect(*end, "tiles_placed", s.tiles_on_board() - 1, "end.tiles_placed");
    expect(*end, "discarded", s.discards(), "end.discarded");
    expect(log_, "scores", scores_json(s), "scores");
    expect(log_, "result", s.result(), "result");
    json goals = json::array();
    for (int g = 0; g < kGoalCount; ++g)
      if (s.goals() >> g & 1) goals.push_back(std::string(kGoalIds[std::size_t(g)]));
    std::vector<std::string> want = goals.get<std::vector<std::string>>();
    std::sort(want.begin(), want.end());
    const json* got = get(log_, "goals");
    if (sorted_strings(got) != want) fail("goals", describe(goals), got);
  }

  bool unfinished() const { return unfinished_; }
  int turns_played() const { return turns_played_; }

  // --- Env of core/turn.hpp ----------------------------------------------------------
  int draw(int c) {
    const State& s = *state_;
    locate(s.turn(), "turn " + std::to_string(s.turn()) + " (turns[" + std::to_string(next_) + "])");
    if (unfinished_ && next_ >= turns_->size()) throw Stopped{};
    if (next_ >= turns_->size())
      fail("turns", "an entry for this draw", "the log ends after " + std::to_string(next_) + " entries");
    entry_ = &(*turns_)[next_++];
    if (!entry_->is_object()) fail("turns[" + std::to_string(next_ - 1) + "]", "an object", entry_);
    expect(*entry_, "turn", s.turn(), "turn");
    expect(*entry_, "color", s.to_move(), "color");
    const int type = stacks_[std::size_t(c)][pos_[std::size_t(c)]++];
    expect(*entry_, "tile", std::string(tile_name(type)), "tile");
    if (s.draw_rule(type) != DrawRule::ok)  // stacks as read hold only what the rules let come
      fail("stacks", "tiles in an order the rules can draw", std::string(tile_name(type)));
    return type;
  }

  Move choose(const State& s, int type, const Placement* legal, int n) {
    expect_discarded(false, "false (the tile fits in " + std::to_string(n) + " places)");
    const int x = get_int(*entry_, "x", -128, 127, "x");
    const int y = get_int(*entry_, "y", -128, 127, "y");
    const int rot = get_int(*entry_, "rot", 0, 3, "rot");
    const Placement* at = std::find_if(legal, legal + n, [&](const Placement& p) {
      return p.x == x && p.y == y && p.rot == rot;
    });
    if (at == legal + n)
      fail("x/y/rot", "one of the " + std::to_string(n) + " legal placements",
           "(" + std::to_string(x) + ", " + std::to_string(y) + ") rot " + std::to_string(rot));
    expect(*entry_, "edges", edge_string(type, rot), "edges");
    Move mv;
    mv.at = *at;
    const std::uint8_t free = s.free_segments(type, mv.at);
    const bool forced = free != 0 && s.figures(s.to_move()) > 0;
    // The figure (expansions.md): "large": true for the large meeple, false or absent a
    // meeple; a colour whose only figure is the large meeple places it.
    const json* lg = get(*entry_, "large");
    if (lg && !lg->is_boolean()) fail("large", "true or false", lg);
    const bool large = lg && lg->get<bool>();
    if (forced) {
      const bool meeple_in = s.supply(s.to_move()) > 0, large_in = s.large_supply(s.to_move()) > 0;
      if (large && !large_in) fail("large", "false or no such key (no large meeple in supply)", lg);
      if (!large && !meeple_in) fail("large", "true (the large meeple is the only figure in supply)", lg);
      mv.large = large;
    } else if (large) {
      fail("large", "false or no such key (no figure is placed)", lg);
    }
    const json* me = get(*entry_, "meeple");
    if (!me) fail("meeple", "a segment name or null", me);
    if (me->is_null()) {
      if (forced) fail("meeple", "one of " + describe(segment_names(type, rot, free)), "null");
      return decided(s, type, legal, n, mv);
    }
    if (!forced)
      fail("meeple", free ? "null (no figure in supply)" : "null (no free segment)", me);
    for (int seg = 0; seg < kMaxSegs; ++seg)
      if ((free >> seg & 1) && me->is_string() && me->get<std::string>() == segment_name(type, rot, seg))
        mv.seg = std::uint8_t(seg);
    if (mv.seg == Move::kNoMeeple)
      fail("meeple", "one of " + describe(segment_names(type, rot, free)), me);
    return decided(s, type, legal, n, mv);
  }

  void on_place(const State&, int type, const Move& m, std::uint8_t free_mask) {
    const json want = segment_names(type, m.at.rot, free_mask);
    std::vector<std::string> sorted = want.get<std::vector<std::string>>();
    std::sort(sorted.begin(), sorted.end());
    const json* got = get(*entry_, "free");
    if (sorted_strings(got) != sorted) fail("free", describe(want), got);
    scored_ = get(*entry_, "scored");
    if (!scored_ || !scored_->is_array()) fail("scored", "an array", scored_);
    scored_next_ = 0;
    placed_ = true;
  }

  // The log's order: match each entry with a completed feature of the same description.
  // Features alike in kind, size, pennants and meeples score alike, so any match will do.
  void order(const State& s, int, std::uint16_t* done, int n) {
    if (scored_->size() != std::size_t(n))
      fail("scored", std::to_string(n) + " entries (features completed)",
           std::to_string(scored_->size()) + " entries");
    for (int i = 0; i < n; ++i) {
      const json& want = (*scored_)[std::size_t(i)];
      int j = i;
      while (j < n && !describes(want, s, done[j])) ++j;
      if (j == n)
        fail("scored[" + std::to_string(i) + "]", "one of the features this tile completed",
             &want);
      std::swap(done[i], done[j]);
    }
  }

  void on_score(const State& s, int, const ScoreEvent& e) {
    const std::string f = "scored[" + std::to_string(scored_next_) + "]";
    if (scored_next_ >= scored_->size())
      fail("scored", "an entry for each feature completed (at least " +
                         std::to_string(scored_next_ + 1) + ")",
           std::to_string(scored_->size()) + " entries");
    const json& got = (*scored_)[scored_next_++];
    if (!got.is_object()) fail(f, "an object", &got);
    expect(got, "kind", std::string(kind_name(e.kind)), f + ".kind");
    expect(got, "tiles", int(e.tiles), f + ".tiles");
    expect(got, "pennants", int(e.pennants), f + ".pennants");
    expect(got, "points", int(e.points), f + ".points");
    expect(got, "meeples", meeples_json(e.meeples, e.large), f + ".meeples");
    if (s.large_meeple()) expect(got, "large_meeples", colors_json(e.large), f + ".large_meeples");
    expect(got, "majority", colors_json(e.majority), f + ".majority");
    expect(got, "low_before", int(e.low_before), f + ".low_before");
    expect(got, "awarded", colors_json(e.awarded), f + ".awarded");
    expect(got, "scores_after", scores_json(s), f + ".scores_after");
  }

  void on_discard(const State& s, int) {
    expect_discarded(true, "true (the tile fits nowhere)");
    // game-log.md: a discarded draw has none of a placement's keys.
    for (const char* key : {"x", "y", "rot", "edges", "free", "meeple", "scored"})
      if (const json* v = get(*entry_, key)) fail(key, "no such key (the tile was discarded)", v);
    expect(*entry_, "scores", scores_json(s), "scores");
    expect(*entry_, "supply", supply_json(s), "supply");
    if (s.large_meeple()) expect(*entry_, "large_supply", large_supply_json(s), "large_supply");
  }

  void on_turn_end(const State& s) {
    if (!placed_) return;
    placed_ = false;
    if (scored_next_ != scored_->size())
      fail("scored", std::to_string(scored_next_) + " entries (features completed)",
           std::to_string(scored_->size()) + " entries");
    expect(*entry_, "scores", scores_json(s), "scores");
    expect(*entry_, "supply", supply_json(s), "supply");
    if (s.large_meeple()) expect(*entry_, "large_supply", large_supply_json(s), "large_supply");
  }

  void order_final(const State& s, std::uint8_t* colors, int n) {
    std::vector<int> want(colors, colors + n), got;
    for (const auto& e : *final_) {
      const json* c = get(e, "color");
      got.push_back(c && c->is_number_integer() ? int(std::clamp<std::int64_t>(c->get<std::int64_t>(), -1, 99)) : -1);
    }
    std::vector<int> a = want, b = got;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) fail("final_scoring", "the colours " + json(a).dump(), json(got).dump());
    std::copy(got.begin(), got.end(), colors);
    if (!s.large_meeple()) return;
    // One entry marked "large" per large meeple on the board, of its colour.
    std::array<int, kMaxColors> large{};
    for (std::size_t i = 0; i < final_->size(); ++i) {
      const json* l = get((*final_)[i], "large");
      if (!l || !l->is_boolean())
        fail("final_scoring[" + std::to_string(i) + "].large", "true or false", l);
      if (l->get<bool>()) ++large[std::size_t(got[i])];
    }
    for (int c = 0; c < s.colors(); ++c)
      if (large[std::size_t(c)] != (s.large_supply(c) == 0 ? 1 : 0))
        fail("final_scoring", "colour " + std::to_string(c) + "'s large meeple marked " +
                                  (s.large_supply(c) == 0 ? "once" : "never (it is in supply)"),
             std::to_string(large[std::size_t(c)]) + " entries marked large");
  }

  void on_final(const State& s, int color, int points) {
    const std::string f = "final_scoring[" + std::to_string(final_next_) + "]";
    const json& got = (*final_)[final_next_++];
    if (!got.is_object()) fail(f, "an object", &got);
    expect(got, "color", color, f + ".color");
    expect(got, "points", 2, f + ".points");
    expect(got, "awarded", points > 0, f + ".awarded");
    expect(got, "scores_after", scores_json(s), f + ".scores_after");
  }

 private:
  Move decided(const State& s, int type, const Placement* legal, int n, const Move& mv) {
    if (observer_) observer_->on_decision(s, type, {legal, std::size_t(n)}, mv);
    return mv;
  }
  [[noreturn]] void fail(const std::string& field, const std::string& expected,
                         const std::string& got) const {
    throw Mismatch{Inconsistency{turn_, at_, field, expected, got}};
  }
  [[noreturn]] void fail(const std::string& field, const std::string& expected,
                         const json* got) const {
    fail(field, expected, describe(got));
  }
  void locate(int turn, std::string at) {
    turn_ = turn;
    at_ = std::move(at);
  }
  static const json* get(const json& obj, const char* key) {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }
  int get_int(const json& obj, const char* key, int lo, int hi, const std::string& field) const {
    const json* v = get(obj, key);
    if (!v || !v->is_number_integer() || v->get<std::int64_t>() < lo || v->get<std::int64_t>() > hi ||
        (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t(hi)))
      fail(field, "an integer in " + std::to_string(lo) + ".." + std::to_string(hi), v);
    return int(v->get<std::int64_t>());
  }
  void expect(const json& obj, const char* key, const json& want, const std::string& field) const {
    const json* v = get(obj, key);
    if (!v || *v != want) fail(field, describe(want), v);
  }
  void expect_discarded(bool want, const std::string& why) const {
    const json* d = get(*entry_, "discarded");
    if (!d || !d->is_boolean()) fail("discarded", "true or false", d);
    if (d->get<bool>() != want) fail("discarded", why, d);
  }
  // Features alike in kind, size, pennants, figures (the large meeples among them) and
  // marks score alike.
  static bool describes(const json& e, const State& s, int root) {
    const Feature& f = s.feature(root);
    const std::uint8_t large = s.feature_large(root), marks = s.feature_marks(root);
    const json* kind = get(e, "kind");
    const json* tiles = get(e, "tiles");
    const json* pennants = get(e, "pennants");
    const json* meeples = get(e, "meeples");
    const json* points = get(e, "points");
    const json* big = get(e, "large_meeples");
    const int n = f.kind == SegKind::monastery ? 9 : int(f.tiles);
    const int want_points = feature_points(f.kind, n, f.pennants, marks);
    return kind && *kind == std::string(kind_name(f.kind)) && tiles && *tiles == n && pennants &&
           *pennants == int(f.pennants) && meeples && *meeples == meeples_json(f.meeples, large) &&
           points && *points == want_points && (!big || *big == colors_json(large));
  }

  // The rules of the log's games: a built-in set by its name, or a set of its own from the
  // text the log carries (its name and hash must be the log's).
  Rules rules_of(const json& cfg, bool large) {
    const json* ts = get(cfg, "tileset");
    const std::string set_name = ts && ts->is_string() ? ts->get<std::string>() : "";
    const json* text = get(cfg, "tileset_text");
    if (!text) {
      if (!is_builtin_set(set_name))
        fail("config.tileset", "base, base+inns, base+river or base+inns+river (or a set's config.tileset_text)", ts);
      return load_ruleset(set_name, large);
    }
    if (!text->is_string()) fail("config.tileset_text", "a tile set's text (docs/tileset-format.md)", text);
    Rules rules;
    try {
      rules = ruleset_from_text(text->get<std::string>(), large);
    } catch (const std::invalid_argument& e) {
      fail("config.tileset_text", "a tile set the engine plays", e.what());
    }
    if (rules->name() != set_name) fail("config.tileset", "the name in config.tileset_text, " + rules->name(), ts);
    expect(cfg, "tileset_hash", rules->hash(), "config.tileset_hash");
    return rules;
  }

  void read_stacks(const State& s) {
    const int k = s.colors();
    const json* st = get(log_, "stacks");
    if (!st || !st->is_array() || st->size() != std::size_t(k))
      fail("stacks", "an array of " + std::to_string(k) + " stacks", st);
    std::array<int, kTileTypes> count{};
    const auto type_of = [&](const json& t, const std::string& f, bool river) {
      const int type = t.is_string() ? tile_type(t.get<std::string>()) : kNoType;
      if (type < 0 || is_river(type) != river)
        fail(f, river ? "a river tile R1..R9" : "a land tile name (A..X, I1..I17)", &t);
      ++count[std::size_t(type)];
      return std::uint8_t(type);
    };
    const json* rs = get(log_, "river_stack");
    if (s.river_left() > 0) {
      if (!rs || !rs->is_array() || rs->size() != std::size_t(s.river_left()))
        fail("river_stack", "an array of " + std::to_string(s.river_left()) + " river tiles", rs);
      for (std::size_t i = 0; i < rs->size(); ++i)
        stacks_[kRiverStack].push_back(type_of((*rs)[i], "river_stack[" + std::to_string(i) + "]", true));
      if (stacks_[kRiverStack].back() != kLakeType) fail("river_stack", "the lake R9 last", &rs->back());
    } else if (rs) {
      fail("river_stack", "no such key (no river)", rs);
    }
    for (int c = 0; c < k; ++c) {
      const json& a = (*st)[std::size_t(c)];
      const std::string f = "stacks[" + std::to_string(c) + "]";
      if (!a.is_array() || a.size() != std::size_t(s.stack_left(c)))
        fail(f, "an array of " + std::to_string(s.stack_left(c)) + " tiles", &a);
      for (std::size_t i = 0; i < a.size(); ++i)
        stacks_[std::size_t(c)].push_back(type_of(a[i], f + "[" + std::to_string(i) + "]", false));
    }
    for (int t = 0; t < kTileTypes; ++t)
      if (count[std::size_t(t)] != s.unseen(t))
        fail("stacks", std::to_string(s.unseen(t)) + " tiles " + std::string(tile_name(t)) +
                           " (the tile set less the start tile)",
             std::to_string(count[std::size_t(t)]));
  }

  const json& log_;
  DecisionObserver* observer_;
  const State* state_ = nullptr;
  const json* turns_ = nullptr;
  const json* entry_ = nullptr;   // the turn entry being replayed
  const json* scored_ = nullptr;  // its "scored"
  const json* final_ = nullptr;
  std::size_t next_ = 0, scored_next_ = 0, final_next_ = 0;
  bool placed_ = false;
  std::array<std::vector<std::uint8_t>, kMaxColors + 1> stacks_;  // [kRiverStack]: the river's
  std::array<std::size_t, kMaxColors + 1> pos_{};
  int turn_ = -1;
  std::string at_ = "setup";
  bool unfinished_ = false;
  int turns_played_ = 0;
};

}  // namespace

std::string Inconsistency::message() const {
  return at + ": " + field + ": expected " + expected + ", got " + got;
}

std::optional<Inconsistency> verify_game_log(const json& log) { return verify_game_log(log, nullptr); }

std::optional<Inconsistency> verify_game_log(const json& log, DecisionObserver* observer) {
  LogCheck c = check_game_log(log, observer);
  if (c.bad || !c.unfinished) return c.bad;
  return Inconsistency{-1, "end", "unfinished", "a finished game",
                       "true (the game stopped after " + std::to_string(c.turns) + " turns)"};
}

LogCheck check_game_log(const json& log, DecisionObserver* observer) {
  if (!log.is_object()) throw std::runtime_error("not a game log (expected a JSON object)");
  const auto format = log.find("format");
  if (format == log.end() || *format != "carcassonne-solo-log/1")
    throw std::runtime_error("not a game log (\"format\" is not \"carcassonne-solo-log/1\")");
  LogCheck c;
  Replayer r(log, observer);
  try {
    r.run();
  } catch (const Mismatch& m) {
    c.bad = m.what;
    return c;
  }
  c.unfinished = r.unfinished();
  c.turns = r.turns_played();
  return c;
}

bool LogReader::next(json& doc, long& line) {
  std::string text;
  while (std::getline(in_, text)) {
    ++line_;
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    line = line_;
    try {
      doc = json::parse(text);
      any_ = true;
      return true;
    } catch (const json::exception& e) {
      if (!any_ && text[first] == '{') {  // perhaps one pretty-printed document
        const std::string all = text + "\n" + std::string(std::istreambuf_iterator<char>(in_), {});
        try {
          doc = json::parse(all);
          any_ = true;
          return true;
        } catch (const json::exception&) {
        }
      }
      const auto* parse = dynamic_cast<const json::parse_error*>(&e);
      if (!parse) throw std::runtime_error("not JSON: a number too large to read");
      // In the reader's words, not the library's: where on the line, and whether the line
      // simply stops (a file cut short) or holds something else.
      if (parse->byte >= text.size())
        throw std::runtime_error("not JSON: the line ends before its document does (a truncated file?)");
      const std::size_t column = parse->byte == 0 ? 1 : parse->byte;
      throw std::runtime_error("not JSON: unexpected '" + text.substr(column - 1, 1) + "' at column " +
                               std::to_string(column));
    }
  }
  return false;
}

}  // namespace carc::sim
