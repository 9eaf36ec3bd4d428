#include "sim/render/html.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "core/tiles.hpp"
#include "sim/log/board_view.hpp"
#include "sim/render/html_analysis.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

// JSON inside <script>: "</" would end the element early.
std::string script_json(const json& j) {
  std::string s = j.dump();
  for (std::size_t at = 0; (at = s.find("</", at)) != std::string::npos; at += 3) s.replace(at, 2, "<\\/");
  return s;
}

// What the page's script needs beyond the log: the rebuilt board (which tiles each scored
// feature covered, where each tile is drawn), the colours, and the art of every tile type
// drawn in the game (north up, unrotated) for the "tile drawn" panel.
json view_json(const json& log, const BoardView& v) {
  json colors = json::array();
  for (int c = 0; c < v.colors; ++c) colors.push_back({{"name", kColorStyles[c].name}, {"fill", kColorStyles[c].fill}});
  json tile_of_step = json::array();
  for (int s = 0; s < v.steps; ++s) tile_of_step.push_back(nullptr);
  for (std::size_t i = 0; i < v.tiles.size(); ++i) tile_of_step[std::size_t(v.tiles[i].step)] = i;
  json scored = json::array();
  for (const auto& step : v.scored) {
    json features = json::array();
    for (const auto& f : step) {
      std::set<int> tiles;
      for (const auto& s : f) tiles.insert(s.tile);
      features.push_back(tiles);
    }
    scored.push_back(features);
  }
  std::set<std::string> types = {log.at("start").at("tile").get<std::string>()};
  for (const auto& t : log.at("turns")) types.insert(t.at("tile").get<std::string>());
  json art = json::object();
  for (const auto& name : types) art[name] = tile_art(tile_type(name[0]), 0);
  return {{"colors", colors}, {"tile_of_step", tile_of_step}, {"scored", scored}, {"art", art}};
}

// The replay page's own style and script (sim/render/page/, compiled in by CMake).
const char kCss[] = {
#include "sim/render/page/replay.css.inc"
    '\0'};

const char kScript[] = {
#include "sim/render/page/replay.js.inc"
    '\0'};

}  // namespace

std::string replay_html(const json& log) { return replay_html(log, nullptr); }

std::string replay_html(const json& log, const json* analysis, int ghosts) {
  BoardView v = rebuild_board(log);
  const json aview = analysis ? analysis_view(log, *analysis, ghosts, v) : json();
  SvgOptions opt;
  opt.page = true;
  const json& cfg = log.at("config");
  std::string meta;
  if (log.contains("seed")) meta += "seed " + log["seed"].dump();
  if (log.contains("game")) meta += " · game " + log["game"].dump();
  meta += " · " + std::to_string(v.colors) + " colours, " + cfg.value("meeples", json(0)).dump() + " meeples · placement " +
          v.placement + " · scoring " + v.scoring;
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<title>carcsolo replay · " + xml_escape(meta) + "</title>\n<style>\n" + kPageFrameCss + "\n" + kCss + "</style>\n";
  if (analysis) h += "<style>\n" + std::string(kAnalysisCss) + "</style>\n";
  h += "</head>\n";
  h += "<body data-step=\"0\">\n<header><h1>carcsolo replay</h1><div id=\"meta\">" + xml_escape(meta) + "</div></header>\n";
  if (analysis)
    h += "<div id=\"loss-strip\"><div class=\"caption\">expected loss of each turn's move (click a turn to go there; "
         "ghost tiles on the board: the best moves by the analysis, numbered by rank, green when played)</div>"
         "<svg id=\"loss-svg\"></svg></div>\n";
  h += "<main>\n<section id=\"board-wrap\">\n" + board_svg(log, v, opt) + "</section>\n<aside>\n";
  h += "<div id=\"controls\"><button id=\"btn-first\" title=\"first (Home)\">&#x21E4; first</button>"
       "<button id=\"btn-prev\" title=\"previous (Left)\">&#x25C0; prev</button>"
       "<button id=\"btn-next\" title=\"next (Right)\">next &#x25B6;</button>"
       "<button id=\"btn-last\" title=\"last (End)\">last &#x21E5;</button></div>\n";
  h += "<input type=\"range\" id=\"step-slider\" min=\"0\" value=\"0\" aria-label=\"step\">\n";
  h += "<div id=\"step-label\"></div>\n";
  h += "<h2>Tile drawn</h2><div id=\"draw\"><svg id=\"hand\" viewBox=\"0 0 100 100\"></svg><div id=\"draw-text\"></div></div>\n";
  if (analysis) h += "<h2>Analysis</h2><div id=\"analysis\"></div>\n";
  h += "<h2>Scored this turn, in order</h2><div id=\"scored\"></div>\n";
  h += "<h2>Scoreboard after this step</h2><table id=\"scoreboard\"></table>\n";
  h += "<h2>Discards</h2><div id=\"discards\"></div>\n";
  h += "<h2>Final scoring</h2><div id=\"final\"></div>\n";
  h += "<p><label><input type=\"checkbox\" id=\"show-turns\"> turn numbers on tiles</label></p>\n";
  h += "<p class=\"keys\">Keys: Home, &#x2190;, &#x2192;, End. The frame marks the tile just placed; dashed "
       "boxes the tiles of each feature scored (numbered in scoring order, in the colour that got the points, "
       "grey if no one); faint meeples went home this step.</p>\n";
  h += "</aside>\n</main>\n";
  h += "<script type=\"application/json\" id=\"game-log\">" + script_json(log) + "</script>\n";
  h += "<script type=\"application/json\" id=\"board-view\">" + script_json(view_json(log, v)) + "</script>\n";
  if (analysis) {
    h += "<script type=\"application/json\" id=\"analysis-view\">" + script_json(aview) + "</script>\n";
    h += "<script>\n" + std::string(kAnalysisScript) + "</script>\n";
  }
  h += "<script>\n" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace carc::sim
