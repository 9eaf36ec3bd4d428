// The picture outputs of `carcsolo replay` (--svg, --png, --html), kept out of the
// subcommand so it stays a few lines.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/analysis/log_file.hpp"
#include "sim/cli/cli.hpp"
#include "sim/log/io.hpp"

namespace carc::sim {

struct PictureOptions {
  std::string svg, png, html;
  bool turn_numbers = false, returned_meeples = false;
  std::string analysis, ghosts = "3";  // --analysis FILE, --ghosts N (the --html page)
  bool analyse = false;                // --analyse: analyse the game for the page
  void add_to(po::options_description& d);
  bool any() const { return !svg.empty() || !png.empty() || !html.empty(); }
};

// Opens every requested file (and checks that rsvg-convert exists when --png is asked)
// before any work, so a mistake is reported at once; write() renders, writes and commits
// them all, each atomically.
class PictureWriter {
 public:
  explicit PictureWriter(const PictureOptions& o);
  // False when g_stop (a signal) stopped the analysis of --analyse: the page is not
  // written (no temporary file either), the other pictures are.
  bool write(const nlohmann::json& log);

 private:
  std::optional<std::string> page(const nlohmann::json& log) const;  // none: stopped
  PictureOptions opt_;
  AtomicFile svg_, png_, html_;
  nlohmann::json analysis_;  // the --analysis document
  int ghosts_ = 3;
};

}  // namespace carc::sim
