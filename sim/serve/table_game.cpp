// Why the game is a list of actions: a SteppedGame holds a State and the scoring policy's
// stream, and neither can be stepped back; replaying from the start costs a few
// microseconds per action, and it is the same game because every random number is seeded.
#include "sim/analysis/search_analysis.hpp"
#include "sim/serve/table_game.hpp"

#include <algorithm>
#include <stdexcept>

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

}  // namespace

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
      throw std::invalid_argument("the advice aims only with a search analyser (this server's is " + opt.analyser + ")");
    (void)make_placement_policy(opt.analyser, opt.context);
  }
  advisor_ = std::make_unique<Advisor>(opt);
  advice_opt_ = opt;
  setup_.aim = aim;
  advice_.reset();
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
void TableGame::apply(SteppedGame& g, const Action& a) const {
  try {
    switch (a.kind) {
      case Action::draw: g.draw(a.type); break;
      case Action::play: g.play(a.move); break;
      case Action::order: g.order(a.perm); break;
    }
  } catch (const std::invalid_argument& e) {
    throw GameConflict(e.what());
  }
}

void TableGame::rebuild() {
  auto g = fresh();
  for (const Action& a : actions_) apply(*g, a);
  game_ = std::move(g);
  advice_.reset();
}

void TableGame::draw(int type) {
  if (!game_->at_the_table()) throw GameConflict("a practice game deals its own tiles: no draw to tell");
  if (!game_->needs_draw()) throw GameConflict("no draw is due: " + std::string(game_->over() ? "the game is over"
                                                                                : "a move or an order is awaited"));
  Action a{Action::draw, type, Move::none(), {}};
  apply(*game_, a);
  actions_.push_back(a);
  advice_.reset();
}

void TableGame::play(int x, int y, int rot, const std::string& meeple, bool large) {
  if (game_->tile() == kNoType)
    throw GameConflict(game_->over() ? "the game is over" : game_->ordering() ? "order the completed features first"
                                                                              : "no tile in hand: tell the draw first");
  const int type = game_->tile();
  Move m{Placement{0, std::int8_t(x), std::int8_t(y), std::uint8_t(rot)}, Move::kNoMeeple, large};
  if (large && meeple.empty()) throw GameConflict("the large meeple goes on a segment: name it (\"meeple\")");
  if (!meeple.empty()) {
    for (int seg = 0; seg < kTiles[type].nseg; ++seg)
      if (segment_name(type, rot, seg) == meeple) m.seg = std::uint8_t(seg);
    if (m.seg == Move::kNoMeeple)
      throw GameConflict("meeple '" + meeple + "' is no segment of tile " + letter(type) + " turned " +
                         std::to_string(rot));
  }
  Action a{Action::play, type, m, {}};
  apply(*game_, a);
  actions_.push_back(a);
  advice_.reset();
}

void TableGame::order(const std::vector<int>& perm) {
  if (!game_->ordering()) throw GameConflict("no completed features wait for an order");
  Action a{Action::order, 0, Move::none(), perm};
  apply(*game_, a);
  actions_.push_back(a);
  advice_.reset();
}

void TableGame::undo() {
  if (actions_.empty()) throw GameConflict("nothing to undo");
  actions_.pop_back();
  rebuild();
  analysis_.reset();
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
  if (game_->tile() == kNoType) throw GameConflict("no tile in hand: nothing to advise");
  if (advice_) return *advice_;
  const int type = game_->tile();
  const std::vector<MoveEstimate> ranked = advisor_->advise(game_->state(), type, game_->legal());
  json moves = json::array();
  for (const MoveEstimate& e : ranked) {
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
  advice_ = json{{"tile", letter(type)}, {"turn", game_->state().turn()}, {"aim", setup_.aim.id()}, {"moves", moves}};
  return *advice_;
}

json TableGame::log() const {
  if (!game_->over()) throw GameConflict("the game is not over: its log is given at the end");
  json doc = game_->log("serve");
  const bool by_search = is_search_spec(advice_opt_.analyser);  // no rollouts or candidates of its own
  doc["advisor"] = {{"analyser", advice_opt_.analyser}, {"rollouts", by_search ? 0 : advice_opt_.rollouts},
                    {"candidates", by_search ? 0 : advice_opt_.candidates}, {"seed", advice_opt_.seed}};
  if (!setup_.aim.is_score()) doc["advisor"]["aim"] = setup_.aim.id();  // the aim at the game's end
  return doc;
}

json TableGame::analysis() {
  if (analysis_) return *analysis_;
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

}  // namespace carc::sim
