// The analysis layer of the replay page (sim/render/html.hpp): what the page's second
// script needs of one game's analysis, checked against the log, and that script.
#include "sim/render/html_analysis.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/tiles.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

std::string turn_text(const json& d) { return "analysis of turn " + d.at("turn").dump(); }

bool same_move(const json& a, const json& b) {
  return a.at("x") == b.at("x") && a.at("y") == b.at("y") && a.at("rot") == b.at("rot");
}

}  // namespace

json analysis_view(const json& log, const json& game, int ghosts, BoardView& v) {
  if (!game.is_object() || !game.contains("analysis") || !game.at("analysis").is_array())
    throw std::runtime_error("not one game of an analysis document (carcassonne-solo-analysis/1): no \"analysis\" list");
  const json& turns = log.at("turns");
  std::map<int, std::size_t> step_of_turn;  // the log's turn number -> its step (1-based)
  for (std::size_t i = 0; i < turns.size(); ++i) step_of_turn[turns[i].at("turn").get<int>()] = i + 1;
  json steps = json::array();
  for (int s = 0; s < v.steps; ++s) steps.push_back(nullptr);
  json art = json::object();
  for (const json& d : game.at("analysis")) {
    const auto at = step_of_turn.find(d.at("turn").get<int>());
    if (at == step_of_turn.end()) throw std::runtime_error(turn_text(d) + ": the log has no such turn");
    const json& t = turns[at->second - 1];
    const json& moves = d.at("moves");
    const json& played = moves.at(d.at("played").get<std::size_t>());
    if (t.value("discarded", false) || d.at("tile") != t.at("tile") || !same_move(played, t))
      throw std::runtime_error(turn_text(d) + ": its played move is not the log's (an analysis of another game?)");
    const int type = tile_type(d.at("tile").get<std::string>()[0]);
    // The best `ghosts` moves, by rank.
    std::vector<const json*> ranked;
    for (const json& m : moves) ranked.push_back(&m);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const json* a, const json* b) { return a->at("rank").get<int>() < b->at("rank").get<int>(); });
    json best = json::array();
    for (int i = 0; i < ghosts && i < int(ranked.size()); ++i) {
      const json& m = *ranked[std::size_t(i)];
      const int x = m.at("x").get<int>(), y = m.at("y").get<int>(), rot = m.at("rot").get<int>();
      if (rot < 0 || rot > 3) throw std::runtime_error(turn_text(d) + ": a move with rotation " + std::to_string(rot));
      const std::string key = d.at("tile").get<std::string>() + std::to_string(rot);
      if (!art.contains(key)) art[key] = tile_art(type, rot);
      v.min_x = std::min(v.min_x, x), v.max_x = std::max(v.max_x, x);
      v.min_y = std::min(v.min_y, y), v.max_y = std::max(v.max_y, y);
      best.push_back({{"x", x}, {"y", y}, {"rot", rot}, {"meeple", m.at("meeple")}, {"mean", m.at("mean")},
                      {"stderr", m.at("stderr")}, {"rank", m.at("rank")}, {"art", key},
                      {"played", &m == &played}});
    }
    // Moves on the same cell (other rotations, other meeples) share it: each drawn smaller
    // in a part of its own ("slot" of "share", in rank order), none hidden under another.
    for (json& m : best) {
      int slot = 0, share = 0;
      for (const json& o : best)
        if (o.at("x") == m.at("x") && o.at("y") == m.at("y")) {
          if (o.at("rank").get<int>() < m.at("rank").get<int>()) ++slot;
          ++share;
        }
      m["slot"] = slot;
      m["share"] = share;
    }
    steps[at->second] = {{"turn", d.at("turn")},
                         {"loss", d.at("loss")},
                         {"loss_stderr", d.at("loss_stderr")},
                         {"heldout", d.value("heldout", json())},
                         {"played_rank", moves.at(d.at("played").get<std::size_t>()).at("rank")},
                         {"moves", moves.size()},
                         {"played", {{"x", played.at("x")}, {"y", played.at("y")}, {"rot", played.at("rot")},
                                     {"meeple", played.at("meeple")}, {"mean", played.at("mean")}}},
                         {"best", best}};
  }
  return {{"steps", steps}, {"art", art}, {"ghosts", ghosts}};
}

// The page's files (sim/render/page/), their bytes written by CMake into the build's
// generated/ folder.
const char kPageFrameCss[] = {
#include "sim/render/page/frame.css.inc"
    '\0'};

const char kAnalysisCss[] = {
#include "sim/render/page/analysis.css.inc"
    '\0'};

const char kAnalysisScript[] = {
#include "sim/render/page/analysis.js.inc"
    '\0'};

}  // namespace carc::sim
