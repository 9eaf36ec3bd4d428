#include "sim/cli/pictures.hpp"

#include <fstream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

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
       "--svg/--png: also draw, faintly, the meeples that went home during the game (default: only those left on the board)");
}

PictureWriter::PictureWriter(const PictureOptions& o) : opt_(o) {
  if (!o.png.empty() && !rsvg_convert_available())
    throw UsageError("--png needs rsvg-convert (Debian package librsvg2-bin), which is not installed; --svg works without it");
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
  if (html_.is_open()) html_.write(replay_html(log));
  for (AtomicFile* f : {&svg_, &png_, &html_})
    if (f->is_open()) f->commit();
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
