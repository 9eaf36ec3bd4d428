#include "sim/cli/pictures.hpp"

#include <optional>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/render/html.hpp"
#include "sim/render/svg.hpp"

namespace carc::sim {

void PictureOptions::add_to(po::options_description& d) {
  d.add_options()
      ("svg", po::value(&svg), "draw the final board as SVG into FILE")
      ("png", po::value(&png), "draw the final board as PNG into FILE (needs rsvg-convert, Debian package librsvg2-bin)")
      ("html", po::value(&html), "write FILE: one self-contained page that steps through the game turn by turn")
      ("turn-numbers", po::bool_switch(&turn_numbers), "--svg/--png: write each tile's turn number on it")
      ("returned-meeples", po::bool_switch(&returned_meeples),
       "--svg/--png: also draw, faintly, the meeples that went home during the game (default: only those left on the board)")
      ("analysis", po::value(&analysis),
       "--html: show FILE's analysis of the game on the page (`carcsolo analyse --out`; the game with the log's seed and "
       "game): the best moves as ghost tiles, the played move's loss, a loss strip across the game")
      ("analyse", po::bool_switch(&analyse),
       "--html: analyse the game first (as `carcsolo analyse` with its defaults) and show it as --analysis does")
      ("ghosts", po::value(&ghosts)->default_value(ghosts), "--analysis/--analyse: best moves drawn per turn, 1..20");
}

PictureWriter::PictureWriter(const PictureOptions& o) : opt_(o) {
  if (!o.png.empty() && !rsvg_convert_available())
    throw UsageError("--png needs rsvg-convert (Debian package librsvg2-bin), which is not installed; --svg works without it");
  if (!o.analysis.empty() || o.analyse) {
    if (o.html.empty()) throw UsageError(std::string(o.analyse ? "--analyse" : "--analysis") + " shows on the --html page: give --html FILE");
    if (!o.analysis.empty() && o.analyse) throw UsageError("--analysis and --analyse: give one of them");
    ghosts_ = int(parse_count("ghosts", o.ghosts, 1, 20));
  }
  if (!o.analysis.empty()) analysis_ = read_analysis_file(o.analysis);
  if (!o.svg.empty()) svg_ = AtomicFile(o.svg);
  if (!o.png.empty()) png_ = AtomicFile(o.png);
  if (!o.html.empty()) html_ = AtomicFile(o.html);
}

bool PictureWriter::write(const nlohmann::json& log) {
  SvgOptions so;
  so.turn_numbers = opt_.turn_numbers;
  so.returned_meeples = opt_.returned_meeples;
  const BoardView view = rebuild_board(log);
  if (svg_.is_open() || png_.is_open()) {
    const std::string svg = board_svg(log, view, so);
    if (svg_.is_open()) svg_.write(svg);
    if (png_.is_open()) png_.write(svg_to_png(svg));
  }
  // The page last: a mistake in it (an analysis of another game) leaves no file at all.
  std::optional<std::string> html;
  if (html_.is_open()) html = page(log);
  if (html) html_.write(*html);
  for (AtomicFile* f : {&svg_, &png_, &html_})
    if (f->is_open() && (f != &html_ || html)) f->commit();
  return !html_.is_open();  // still open: its analysis was stopped, the page not written
}

// The page, with the analysis of the game when one is asked for.
std::optional<std::string> PictureWriter::page(const nlohmann::json& log) const {
  if (opt_.analysis.empty() && !opt_.analyse) return replay_html(log);
  nlohmann::json game;
  if (opt_.analyse) {
    AnalysisOptions o;
    o.threads = default_threads();
    o.stop = &g_stop;
    const GameAnalysis a = analyse_game(log, 0, o);
    if (!a.complete) return std::nullopt;
    game = nlohmann::json::parse(analysis_json({a}, o, canonical_placement(o.placement)).dump()).at("games")[0];
  } else {
    const auto& games = analysis_.at("games");
    for (const auto& g : games)
      if (g.is_object() && analyses(g, log)) game = g;
    if (game.is_null()) {
      const nlohmann::json null;
      const nlohmann::json& c = log.value("config", nlohmann::json::object());
      throw UsageError("--analysis: " + opt_.analysis + " holds no analysis of seed " + log.value("seed", null).dump() +
                       ", game " + log.value("game", null).dump() + " with " + c.value("colors", null).dump() +
                       " colours x " + c.value("meeples", null).dump() + " meeples, placement " +
                       c.value("placement_policy", std::string("?")));
    }
  }
  try {
    return replay_html(log, &game, ghosts_);
  } catch (const BadLog&) {
    throw;
  } catch (const std::runtime_error& e) {
    if (opt_.analyse) throw;
    throw UsageError("--analysis: " + opt_.analysis + ": " + e.what());
  }
}

}  // namespace carc::sim
