// Why the game is a list of actions: a SteppedGame holds a State and the scoring policy's
// stream, and neither can be stepped back; replaying from the start costs a few
// microseconds per action, and it is the same game because every random number is seeded.
// A game resumed from its log is that list read from the log's turns.
#include "sim/serve/table_game.hpp"

#include <algorithm>
#include <stdexcept>

#include "policies/candidates.hpp"
#include "sim/analysis/search_analysis.hpp"
#include "sim/log/verify.hpp"

#include "core/goals.hpp"
#include "core/tiles.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

std::string letter(int type) { return std::string(tile_name(type)); }

json spot_json(int type, int rot, int seg) {
  const Point p = meeple_spot(type, rot, seg);
  return {{"x", p.x}, {"y", p.y}};
}

json per_color(const State& s, int (State::*f)(int) const) {
  json a = json::array();
  for (int c = 0; c < s.colors(); ++c) a.push_back((s.*f)(c));
  return a;
}

// The tiles on the board, and the meeples still standing on them.
json board_json(const State& s) {
  json tiles = json::array();
  for (int i = 0; i < s.tiles_on_board(); ++i) {
    const PlacedTile& t = s.tile(i);
    json meeple = nullptr;
    if (t.meeple_seg != kNoSegment &&
        s.feature(s.feature_of(i, t.meeple_seg)).meeples[t.meeple_color] > 0) {
      meeple = {{"color", int(t.meeple_color)},
                {"segment", segment_name(t.type, t.rot, t.meeple_seg)},
                {"spot", spot_json(t.type, t.rot, t.meeple_seg)}};
      if (s.large_at(i)) meeple["large"] = true;
    }
    tiles.push_back({{"x", int(t.x)}, {"y", int(t.y)}, {"tile", letter(t.type)}, {"rot", int(t.rot)},
                     {"meeple", meeple}});
  }
  return tiles;
}

// The legal placements of `type`, by cell: each rotation with the segments a meeple may
// go on, and whether one must (free segments and a figure in supply: rules.md); with the
// large meeple, whether it may go (`large`) or must (`only_large`: the colour's last figure).
json legal_json(const State& s, int type, std::span<const Placement> legal) {
  json cells = json::array();
  const int c = s.to_move();
  const bool has_meeple = s.figures(c) > 0;
  for (const Placement& p : legal) {
    json* cell = nullptr;
    for (json& c : cells)
      if (c["x"] == int(p.x) && c["y"] == int(p.y)) cell = &c;
    if (!cell) {
      cells.push_back({{"x", int(p.x)}, {"y", int(p.y)}, {"rots", json::array()}});
      cell = &cells.back();
    }
    const std::uint8_t free = has_meeple ? s.free_segments(type, p) : 0;
    json segs = json::array();
    for (int seg = 0; seg < kMaxSegs; ++seg)
      if (free >> seg & 1)
        segs.push_back({{"name", segment_name(type, p.rot, seg)}, {"spot", spot_json(type, p.rot, seg)}});
    (*cell)["rots"].push_back({{"rot", int(p.rot)}, {"meeples", segs}, {"forced", free != 0}});
    if (s.large_meeple()) {
      (*cell)["rots"].back()["large"] = free != 0 && s.large_supply(c) > 0;
      (*cell)["rots"].back()["only_large"] = free != 0 && s.supply(c) == 0;
    }
  }
  return cells;
}



// The names that may be told as the next draw: unseen, and allowed by the river rule.
json drawable_json(const State& s) {
  json names = json::array();
  const DrawTypes d = s.draw_types();
  for (int t = d.first; t < d.end && t < s.type_end(); ++t)
    if (s.draw_rule(t) == DrawRule::ok) names.push_back(letter(t));
  return names;
}

// The index among `completed` of the log's scored entry `want`, not used yet; -1 if none.
int matching_feature(const State& s, std::span<const std::uint16_t> completed, const json& want,
                     const std::vector<bool>& used) {
  for (std::size_t i = 0; i < completed.size(); ++i) {
    if (used[i]) continue;
    const Feature& f = s.feature(completed[i]);
    std::vector<int> colors;
    for (int c = 0; c < s.colors(); ++c)
      for (int k = 0; k < int(f.meeples[std::size_t(c)]); ++k) colors.push_back(c);
    if (want.value("kind", std::string()) == kind_name(f.kind) && want.value("tiles", -1) == int(f.tiles) &&
        want.value("pennants", -1) == int(f.pennants) && want.value("meeples", std::vector<int>{}) == colors)
      return int(i);
  }
  return -1;
}

}  // namespace

std::string color_name(int c) { return kColorStyles[std::size_t(c)].name; }

std::string lower_case(std::string t) {
  for (char& ch : t) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return t;
}

std::string escape_controls(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(s[i]);
    const bool c1 = ch == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(s[i + 1]) <= 0x9f;  // U+0080..U+009F in UTF-8
    if (ch == '\n') out += "\\n";
    else if (ch == '\r') out += "\\r";
    else if (ch == '\t') out += "\\t";
    else if (ch < 0x20 || ch == 0x7f || c1) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
      if (c1) {
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[++i]));
        out += buf;
      }
    } else {
      out += char(ch);
    }
  }
  return out;
}

std::string Undone::text() const {
  const std::string who = "colour " + std::to_string(color) + " (" + color_name(color) + ")";
  std::string t;
  switch (action.kind) {
    case TableAction::draw:
      t = "Undone: " + who + "'s draw of tile " + letter(action.type) + "; tell the draw again.";
      break;
    case TableAction::play: {
      const Move& m = action.move;
      t = "Undone: " + who + "'s tile " + letter(action.type) + " at (" + std::to_string(m.at.x) + ", " +
          std::to_string(m.at.y) + ") turned " + std::to_string(90 * m.at.rot) + "°, " +
          (m.seg == Move::kNoMeeple ? std::string("no meeple")
                                    : std::string(m.large ? "the large meeple on " : "a meeple on ") +
                                          segment_name(action.type, m.at.rot, m.seg)) +
          "; the tile is in hand again.";
      break;
    }
    case TableAction::order:
      t = "Undone: the order of the completed features; choose it again.";
      break;
  }
  if (dealt_back != kNoType)
    t += " Tile " + letter(dealt_back) + ", which the deal had given colour " + std::to_string(dealt_color) + " (" +
         color_name(dealt_color) + ") next, is back on its stack.";
  return t;
}

TableGame::TableGame(const TableSetup& setup, const AdviceOptions& advice)
    : setup_(setup), advice_opt_(advice) {
  set_aim(setup.aim);
  game_ = fresh();
}

void TableGame::set_aim(const Aim& aim) {
  AdviceOptions opt = advice_opt_;
  opt.context.aim = aim;
  if (!aim.is_score()) {
    if (!is_search_spec(opt.analyser))
      throw std::invalid_argument("the advice aims only with a search analyser (this one is " + opt.analyser + ")");
    (void)make_placement_policy(opt.analyser, opt.context);
  }
  advisor_ = std::make_unique<Advisor>(opt);
  advice_opt_ = opt;
  setup_.aim = aim;
  ranked_.reset();
  analysis_.reset();
}

std::unique_ptr<SteppedGame> TableGame::fresh() const {
  if (!setup_.practice)
    return std::make_unique<SteppedGame>(SteppedGame::AtTheTable{}, setup_.cfg, advice_opt_.scoring, advice_opt_.seed);
  GameSpec spec;
  spec.cfg = setup_.cfg;
  spec.seed = setup_.seed;
  spec.game = setup_.game;
  return std::make_unique<SteppedGame>(spec, advice_opt_.scoring);
}

// SteppedGame's std::invalid_argument is the person's mistake here: a conflict.
void TableGame::apply(SteppedGame& g, const TableAction& a) const {
  try {
    switch (a.kind) {
      case TableAction::draw: g.draw(a.type); break;
      case TableAction::play:
        g.play(a.move);
        if (setup_.auto_order && g.ordering()) g.order({});  // the scoring policy's order
        break;
      case TableAction::order: g.order(a.perm); break;
    }
  } catch (const GameConflict&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw GameConflict(e.what());
  }
}

void TableGame::push(TableAction a) {
  apply(*game_, a);
  actions_.push_back(std::move(a));
  ranked_.reset();
  analysis_.reset();
}

void TableGame::rebuild() {
  auto g = fresh();
  for (const TableAction& a : actions_) apply(*g, a);
  game_ = std::move(g);
  ranked_.reset();
  analysis_.reset();
}

void TableGame::draw(int type) {
  if (!game_->at_the_table()) throw GameConflict("a practice game deals its own tiles: no draw to tell");
  if (!game_->needs_draw()) throw GameConflict("no draw is due: " + std::string(game_->over() ? "the game is over"
                                                                                : "a move or an order is awaited"));
  push(TableAction{TableAction::draw, type, Move::none(), {}, false});
}

void TableGame::play(const Move& m) {
  if (game_->tile() == kNoType)
    throw GameConflict(game_->over() ? "the game is over" : game_->ordering() ? "order the completed features first"
                                                                              : "no tile in hand: tell the draw first");
  const int type = game_->tile();
  const bool followed = ranked_ && !ranked_->empty() && move_key(type, m) == move_key(type, ranked_->front().move);
  push(TableAction{TableAction::play, type, m, {}, followed});
}

void TableGame::play(int x, int y, int rot, const std::string& meeple, bool large) {
  if (game_->tile() == kNoType) return play(Move::none());  // the conflict, said once
  const int type = game_->tile();
  Move m{Placement{std::uint16_t(cell_of(x, y)), std::int8_t(x), std::int8_t(y), std::uint8_t(rot)}, Move::kNoMeeple,
         large};
  if (large && meeple.empty()) throw GameConflict("the large meeple goes on a segment: name it (\"meeple\")");
  if (!meeple.empty()) {
    for (int seg = 0; seg < kTiles[type].nseg; ++seg)
      if (segment_name(type, rot, seg) == meeple) m.seg = std::uint8_t(seg);
    if (m.seg == Move::kNoMeeple)
      throw GameConflict("meeple '" + escape_controls(meeple) + "' is no segment of tile " + letter(type) + " turned " +
                         std::to_string(rot));
  }
  play(m);
}

void TableGame::order(const std::vector<int>& perm) {
  if (!game_->ordering()) throw GameConflict("no completed features wait for an order");
  push(TableAction{TableAction::order, 0, Move::none(), perm, false});
}

Undone TableGame::undo() {
  if (actions_.empty()) throw GameConflict("nothing to undo");
  Undone u;
  u.action = actions_.back();
  if (setup_.practice && u.action.kind != TableAction::draw && game_->tile() != kNoType) {
    u.dealt_back = game_->tile();  // drawn from the deal after the move: back on its stack
    u.dealt_color = game_->state().to_move();
  }
  actions_.pop_back();
  if (actions_.size() < resumed_actions_) {  // into the log's moves: its count of followed ones no more than remain
    resumed_actions_ = actions_.size();
    resumed_followed_ = std::min(resumed_followed_, decisions());
  }
  rebuild();
  u.color = game_->state().to_move();
  return u;
}

const std::vector<MoveEstimate>& TableGame::ranked() {
  if (game_->tile() == kNoType) throw GameConflict("no tile in hand: nothing to advise");
  if (!ranked_) ranked_ = advisor_->advise(game_->state(), game_->tile(), game_->legal());
  return *ranked_;
}

int TableGame::decisions() const {
  return int(std::count_if(actions_.begin(), actions_.end(),
                           [](const TableAction& a) { return a.kind == TableAction::play; }));
}

int TableGame::followed() const {
  return resumed_followed_ + int(std::count_if(actions_.begin(), actions_.end(),
                                               [](const TableAction& a) { return a.followed; }));
}

json TableGame::state() const {
  const SteppedGame& g = *game_;
  const State& s = g.state();
  const char* phase = g.over() ? "over" : g.ordering() ? "order" : g.needs_draw() ? "draw" : "play";
  json unseen = json::object();  // the set's types (the start tile's when copies of it are dealt)
  const TileCounts& set = setup_.cfg.tiles();
  for (int t = 0; t < s.type_end(); ++t)
    if (set.count[std::size_t(t)] > (t == set.start ? 1 : 0)) unseen[letter(t)] = s.unseen(t);
  json j = {{"mode", setup_.practice ? "practice" : "table"},
            {"aim", setup_.aim.id()},
            {"colors", s.colors()},
            {"meeples", s.meeples_per_color()},
            {"phase", phase},
            {"turn", s.turn()},
            {"to_move", s.to_move()},
            {"scores", per_color(s, &State::score)},
            {"supply", per_color(s, &State::supply)},
            {"stack_left", per_color(s, &State::stack_left)},
            {"unseen", unseen},
            {"unseen_total", s.unseen_total()},
            {"discards", s.discards()},
            {"board", board_json(s)},
            {"actions", actions_.size()},
            {"tile", nullptr}};
  if (setup_.practice) j["seed"] = setup_.seed, j["game"] = setup_.game;
  if (g.needs_draw()) j["drawable"] = drawable_json(s);
  if (s.beyond_base() || s.large_meeple() || setup_.cfg.rules->name() != "base") {  // the expansions
    j["tileset"] = std::string(setup_.cfg.rules->name());
    j["large_meeple"] = s.large_meeple();
    j["large_supply"] = per_color(s, &State::large_supply);
    j["river_left"] = s.river_left();
  }
  if (g.tile() != kNoType) {
    j["tile"] = letter(g.tile());
    j["legal"] = legal_json(s, g.tile(), g.legal());
  }
  if (g.ordering()) {
    json features = json::array();
    for (const std::uint16_t root : g.completed()) {
      const Feature& f = s.feature(root);
      json meeples = json::array();
      for (int c = 0; c < s.colors(); ++c) meeples.push_back(int(f.meeples[std::size_t(c)]));
      features.push_back({{"kind", std::string(kind_name(f.kind))}, {"tiles", int(f.tiles)},
                          {"pennants", int(f.pennants)}, {"meeples", meeples}});
    }
    j["completed"] = features;
  }
  if (g.over()) {
    j["result"] = s.result();
    j["end_reason"] = std::string(end_reason_id(s.end_reason()));
  }
  return j;
}

json TableGame::advice() {
  const std::vector<MoveEstimate>& list = ranked();
  const int type = game_->tile();
  json moves = json::array();
  for (const MoveEstimate& e : list) {
    const Move& m = e.move;
    const bool meeple = m.seg != Move::kNoMeeple;
    moves.push_back({{"rank", e.rank},
                     {"x", int(m.at.x)},
                     {"y", int(m.at.y)},
                     {"rot", int(m.at.rot)},
                     {"meeple", meeple ? json(segment_name(type, m.at.rot, m.seg)) : json(nullptr)},
                     {"spot", meeple ? spot_json(type, m.at.rot, m.seg) : json(nullptr)},
                     {"mean", e.mean},
                     {"stderr", e.std_error}});
    if (game_->state().large_meeple()) moves.back()["large"] = meeple && m.large;
  }
  return json{{"tile", letter(type)}, {"turn", game_->state().turn()}, {"aim", setup_.aim.id()}, {"moves", moves}};
}

json TableGame::log() const {
  json doc;
  try {
    doc = game_->over() ? game_->log(setup_.program) : game_->unfinished_log(setup_.program);
  } catch (const std::invalid_argument& e) {
    throw GameConflict(e.what());
  }
  const bool by_search = is_search_spec(advice_opt_.analyser);  // no rollouts or candidates of its own
  doc["advisor"] = {{"analyser", advice_opt_.analyser},
                    {"rollouts", by_search ? 0 : advice_opt_.rollouts},
                    {"candidates", by_search ? 0 : advice_opt_.candidates},
                    {"seed", advice_opt_.seed},
                    {"decisions", decisions()},
                    {"followed", followed()}};
  if (!setup_.value_net.is_null()) doc["advisor"]["value_net"] = setup_.value_net;
  if (!setup_.aim.is_score()) doc["advisor"]["aim"] = setup_.aim.id();  // the aim at the game's end
  return doc;
}

json TableGame::analysis() {
  if (analysis_) return *analysis_;
  if (!game_->over()) throw GameConflict("the game is not over: its analysis is given at the end");
  const json doc = log();
  AnalysisOptions opt;
  opt.placement = advice_opt_.analyser;
  opt.scoring = advice_opt_.scoring;
  opt.rollouts = advice_opt_.rollouts;
  opt.candidates = advice_opt_.candidates;
  opt.seed = advice_opt_.seed;
  opt.context = advice_opt_.context;
  const GameAnalysis a = analyse_game(doc, 0, opt);
  analysis_ = json::parse(analysis_json({a}, opt, opt.placement).dump());
  return *analysis_;
}

namespace {

const json& field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw std::invalid_argument(where + ": \"" + key + "\" is missing");
  return j[key];
}

}  // namespace

std::unique_ptr<TableGame> TableGame::resume(const json& log, const TableSetup& base, const AdviceOptions& advice) {
  if (!log.is_object() || log.value("format", std::string()) != "carcassonne-solo-log/1")
    throw std::invalid_argument("not a game log (its \"format\" is not carcassonne-solo-log/1)");
  LogCheck check;
  try {
    check = check_game_log(log);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("not a game log: ") + e.what());
  }
  if (check.bad) throw std::invalid_argument("the log does not agree with the rules: " + check.bad->message());
  const json& cfg = field(log, "config", "the log");
  const std::string set = cfg.value("tileset", std::string("base"));
  const bool large = cfg.value("large_meeple", false);
  const std::string& want = base.cfg.rules->name();
  if (set != want || large != base.cfg.large_meeple() ||
      (cfg.contains("tileset_hash") && cfg["tileset_hash"] != base.cfg.rules->hash()))
    throw std::invalid_argument("the log's tile set is " + set + (large ? " with the large meeple" : "") +
                                "; this game is played with " + want +
                                (base.cfg.large_meeple() ? " with the large meeple" : ""));
  TableSetup setup = base;
  setup.auto_order = false;  // the log's orders are replayed
  setup.cfg.colors = field(cfg, "colors", "config").get<int>();
  setup.cfg.meeples = field(cfg, "meeples", "config").get<int>();
  const json* practice = log.contains("practice") ? &log["practice"] : nullptr;
  if (practice || (log.contains("seed") && log.contains("game"))) {
    const json& deal = practice ? *practice : log;
    setup.practice = true;
    setup.seed = field(deal, "seed", "practice").get<std::uint64_t>();
    setup.game = field(deal, "game", "practice").get<std::uint64_t>();
  } else {
    setup.practice = false;
  }
  setup.aim = Aim::score();
  if (log.contains("advisor") && log["advisor"].is_object() && log["advisor"].contains("aim")) {
    const std::optional<Aim> aim = parse_aim(log["advisor"].value("aim", std::string()));
    if (!aim) throw std::invalid_argument("advisor.aim: not an aim (docs/aim.md)");
    setup.aim = *aim;
  }
  auto g = std::make_unique<TableGame>(setup, advice);
  const json& turns = field(log, "turns", "the log");
  for (std::size_t i = 0; i < turns.size(); ++i) {
    const json& t = turns[i];
    const std::string where = "turns[" + std::to_string(i) + "]";
    const int type = tile_type(field(t, "tile", where).get<std::string>());
    const bool discarded = t.value("discarded", false);
    try {
      if (!setup.practice) {
        g->draw(type);
      } else if (!discarded && g->game().tile() != type) {
        throw std::invalid_argument("tile " + field(t, "tile", where).get<std::string>() + " is not the one dealt (" +
                                    (g->game().tile() == kNoType ? std::string("none") : letter(g->game().tile())) +
                                    "): the log is of another deal");
      }
      if (discarded) continue;
      const json& meeple = field(t, "meeple", where);
      g->play(field(t, "x", where).get<int>(), field(t, "y", where).get<int>(), field(t, "rot", where).get<int>(),
              meeple.is_string() ? meeple.get<std::string>() : std::string(), t.value("large", false));
      if (g->game().ordering()) {
        const json& scored = field(t, "scored", where);
        const std::span<const std::uint16_t> done = g->game().completed();
        std::vector<bool> used(done.size(), false);
        std::vector<int> perm;
        for (const json& f : scored) {
          const int k = matching_feature(g->game().state(), done, f, used);
          if (k < 0) throw std::invalid_argument("a scored feature matches none the tile completed");
          used[std::size_t(k)] = true;
          perm.push_back(k);
        }
        g->order(perm);
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": " + e.what());
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
  }
  g->resumed_actions_ = g->actions_.size();
  if (log.contains("advisor") && log["advisor"].is_object() && log["advisor"].contains("followed") &&
      log["advisor"]["followed"].is_number_integer())
    g->resumed_followed_ = std::clamp(log["advisor"]["followed"].get<int>(), 0, g->decisions());
  return g;
}

}  // namespace carc::sim
