#include "sim/cli/pictures.hpp"

#include <fstream>
#include <sstream>

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
  if (!o.analysis.empty()) {
    std::ifstream in(o.analysis);
    if (!in) throw UsageError("--analysis: cannot read " + o.analysis);
    analysis_ = nlohmann::json::parse(in, nullptr, false);
    if (analysis_.is_discarded() || !analysis_.is_object() || analysis_.value("format", "") != "carcassonne-solo-analysis/1" ||
        !analysis_.contains("games") || !analysis_.at("games").is_array())
      throw UsageError("--analysis: " + o.analysis + " is not an analysis document (carcassonne-solo-analysis/1)");
  }
  if (!o.svg.empty()) svg_ = AtomicFile(o.svg);
  if (!o.png.empty()) png_ = AtomicFile(o.png);
  if (!o.html.empty()) html_ = AtomicFile(o.html);
}

void PictureWriter::write(const nlohmann::json& log) {
  SvgOptions so;
  so.turn_numbers = opt_.turn_numbers;
  so.returned_meeples = opt_.returned_meeples;
  const BoardView view = rebuild_board(log);
  if (svg_.is_open() || png_.is_open()) {
    const std::string svg = board_svg(log, view, so);
    if (svg_.is_open()) svg_.write(svg);
    if (png_.is_open()) png_.write(svg_to_png(svg));
  }
  if (html_.is_open()) html_.write(page(log));
  for (AtomicFile* f : {&svg_, &png_, &html_})
    if (f->is_open()) f->commit();
}

// The page, with the analysis of the game when one is asked for.
std::string PictureWriter::page(const nlohmann::json& log) const {
  if (opt_.analysis.empty() && !opt_.analyse) return replay_html(log);
  nlohmann::json game;
  if (opt_.analyse) {
    AnalysisOptions o;
    o.threads = default_threads();
    game = nlohmann::json::parse(analysis_json({analyse_game(log, 0, o)}, o, canonical_placement(o.placement)).dump())
               .at("games")[0];
  } else {
    const auto& games = analysis_.at("games");
    for (const auto& g : games)
      if (g.value("seed", nlohmann::json()) == log.value("seed", nlohmann::json()) &&
          g.value("game", nlohmann::json()) == log.value("game", nlohmann::json()))
        game = g;
    if (game.is_null())
      throw UsageError("--analysis: " + opt_.analysis + " holds no analysis of seed " + log.value("seed", nlohmann::json()).dump() +
                       ", game " + log.value("game", nlohmann::json()).dump());
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

nlohmann::json read_log_file(const std::string& path, std::optional<std::uint64_t> game) {
  std::ifstream in(path);
  if (!in) throw UsageError("--from: cannot read " + path);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  auto whole = nlohmann::json::parse(text, nullptr, false);
  if (!whole.is_discarded() && whole.is_object()) {
    if (game && whole.value("game", UINT64_MAX) != *game)
      throw UsageError("--from: " + path + " holds game " + whole.value("game", nlohmann::json()).dump() +
                       ", not " + std::to_string(*game));
    return whole;
  }
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      throw UsageError("--from: " + path + " line " + std::to_string(number) + " is not a JSON game log");
    if (!game || j.value("game", UINT64_MAX) == *game) return j;
  }
  throw UsageError("--from: " + path + (game ? " has no game " + std::to_string(*game) : std::string(" holds no game log")));
}

}  // namespace carc::sim
