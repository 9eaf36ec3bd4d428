#include "sim/render/svg.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tiles.hpp"

extern char** environ;

namespace carc::sim {
namespace {

using nlohmann::json;

constexpr int kTile = 100;
constexpr int kMargin = 20;
constexpr int kMinWidth = 900;  // room for the caption under a small board
constexpr int kCaptionHeight = 146;

std::string num(double v) {
  char buf[32];
  if (v == double(long(v)))
    std::snprintf(buf, sizeof buf, "%ld", long(v));
  else
    std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// A segment's picture is one of five shapes, drawn for a canonical edge set and turned by
// q quarter turns clockwise to the segment's real (rotated) edges.
enum class Shape { single, adjacent, opposite, three, four };
struct Fit {
  Shape shape;
  int q;
};

Fit fit(std::uint8_t m) {
  switch (std::popcount(m)) {
    case 1:
      return {Shape::single, std::countr_zero(m)};
    case 2:
      if (m == 0b0101) return {Shape::opposite, 0};
      if (m == 0b1010) return {Shape::opposite, 1};
      for (int d = 0; d < 4; ++d)
        if ((m >> d & 1) && (m >> ((d + 1) & 3) & 1)) return {Shape::adjacent, d};
      break;
    case 3:
      return {Shape::three, (std::countr_zero(std::uint8_t(~m & 0xF)) + 2) & 3};
    default:
      break;
  }
  return {Shape::four, 0};
}

// Canonical shapes: single = N, adjacent = N+E, opposite = N+S, three = all but S. Pennants
// keep clear of the top-left corner, where the turn number goes.
struct CityShape {
  const char* fill;
  const char* wall;
  Point meeple, pennant;
};
constexpr CityShape kCityShapes[5] = {
    {"M0,0 H100 C75,36 25,36 0,0 Z", "M100,0 C75,36 25,36 0,0", {50, 15}, {80, 9}},
    {"M0,0 H100 V100 Q62,38 0,0 Z", "M100,100 Q62,38 0,0", {62, 31}, {75, 11}},
    {"M0,0 H100 C70,30 70,70 100,100 H0 C30,70 30,30 0,0 Z",
     "M100,0 C70,30 70,70 100,100 M0,100 C30,70 30,30 0,0", {50, 52}, {50, 16}},
    {"M0,0 H100 V100 C75,64 25,64 0,100 Z", "M100,100 C75,64 25,64 0,100", {50, 42}, {50, 15}},
    {"M0,0 H100 V100 H0 Z", "", {50, 52}, {74, 26}},
};
struct RoadShape {
  const char* path;
  Point meeple;
};
constexpr RoadShape kRoadShapes[5] = {
    {"M50,0 V50", {50, 17}},
    {"M50,0 Q50,50 100,50", {62.5, 37.5}},
    {"M50,0 V100", {50, 50}},
    {"M50,0 V50 M0,50 H100", {50, 50}},  // no base tile; drawn as a T
    {"M50,0 V100 M0,50 H100", {50, 50}},
};
constexpr Point kMonasteryMeeple = {50, 54};

// Quarter turns clockwise about the tile centre (y grows downwards).
Point turn(Point p, int q) {
  for (int i = 0; i < q; ++i) p = {100 - p.y, p.x};
  return p;
}

std::string turned(int q) {
  return q == 0 ? std::string() : " transform=\"rotate(" + std::to_string(90 * q) + " 50 50)\"";
}

const char* kStyle = R"(<style>
.bg{fill:#f4f1e8}
.field{fill:#86b84e}
.cell{fill:none;stroke:#2f4f1f;stroke-opacity:.45;stroke-width:1}
.water{fill:none;stroke:#4a90c8;stroke-width:26}
.inn{fill:#8a4b2a;stroke:#ffffff;stroke-width:1.2}
.cathedral{fill:#6b2e6f;stroke:#ffffff;stroke-width:1.2}
.road-edge{fill:none;stroke:#6e5b3e;stroke-width:12}
.road{fill:none;stroke:#f3ead2;stroke-width:8}
.junction{fill:#8a7558;stroke:#4b3d2a;stroke-width:1.5}
.city{fill:#e0c08a}
.wall{fill:none;stroke:#7a5430;stroke-width:4;stroke-linecap:round}
.pennant{fill:#1f4e9c;stroke:#ffffff;stroke-width:1.5}
.mon-body{fill:#f2e6cc;stroke:#5b4636;stroke-width:1.5}
.mon-roof{fill:#b03a2e;stroke:#5b4636;stroke-width:1.5}
.mon-door{fill:#5b4636}
.mon-cross{fill:none;stroke:#5b4636;stroke-width:2}
.meeple path,.meeple-icon path{stroke:#111111;stroke-width:1.4;stroke-linejoin:round}
.meeple.returned{opacity:.35}
.meeple.returned path{stroke-dasharray:3 2}
.turn-label rect{fill:#ffffff;fill-opacity:.85;stroke:#333333;stroke-width:.6}
.turn-label text{font-family:DejaVu Sans,Arial,sans-serif;font-size:11px;font-weight:bold;fill:#222222}
.caption{font-family:DejaVu Sans,Arial,sans-serif;font-size:16px;fill:#222222}
.caption .title{font-weight:bold}
</style>
)";

const char* kMeeplePath =
    "M0,-11 C3.3,-11 5,-8.8 5,-6.6 C5,-5 4.4,-3.9 3.9,-3.3 L10,-1.1 C11.5,-0.5 11.5,2.8 10,3.3 "
    "L5.5,3.9 L8.8,11 L2.2,11 L0,6.6 L-2.2,11 L-8.8,11 L-5.5,3.9 L-10,3.3 C-11.5,2.8 -11.5,-0.5 "
    "-10,-1.1 L-3.9,-3.3 C-4.4,-3.9 -5,-5 -5,-6.6 C-5,-8.8 -3.3,-11 0,-11 Z";

std::string end_text(const std::string& reason) {
  if (reason == "no_meeple") return "no_meeple (a colour had to place a meeple and had none)";
  if (reason == "tiles_exhausted") return "tiles_exhausted (every tile was placed or discarded)";
  return reason;
}

// Seed, game and policies; the scores with each colour's meeple; end reason and counts.
// `width` receives the width the longest line needs.
std::string caption(const json& log, const BoardView& v, int top, bool returned_drawn, int* width) {
  std::ostringstream o;
  const json& cfg = log.at("config");
  o << "<g class=\"caption\" id=\"caption\" transform=\"translate(" << kMargin << ' ' << top << ")\">\n";
  std::string title = "carcsolo game";
  if (log.contains("seed")) title += " · seed " + log["seed"].dump();
  if (log.contains("game")) title += " · game " + log["game"].dump();
  title += " · " + std::to_string(v.colors) + " colours, " + cfg.value("meeples", json(0)).dump() + " meeples";
  const std::string set = cfg.value("tileset", std::string("base"));
  if (set != "base") title += " · " + set;
  if (cfg.value("large_meeple", false)) title += " · large meeple";
  const std::string policies = "placement " + v.placement + " · scoring " + v.scoring;
  o << "<text class=\"title\" x=\"0\" y=\"20\">" << xml_escape(title) << "</text>\n";
  o << "<text id=\"caption-policies\" x=\"0\" y=\"44\">" << xml_escape(policies) << "</text>\n";

  const json& scores = log.at("scores");
  o << "<text id=\"caption-scores\" x=\"0\" y=\"74\">Scores:";
  for (int c = 0; c < v.colors; ++c)
    o << "<tspan x=\"" << 112 + c * 125 << "\" id=\"caption-score-" << c << "\" data-score=\""
      << scores.at(c).get<int>() << "\">" << kColorStyles[c].name << ' ' << scores.at(c).get<int>() << "</tspan>";
  o << "<tspan x=\"" << 100 + v.colors * 125 << "\" id=\"caption-result\" data-result=\""
    << log.at("result").get<int>() << "\">result " << log.at("result").get<int>() << "</tspan></text>\n";
  for (int c = 0; c < v.colors; ++c) o << meeple_svg(c, {96 + c * 125.0, 68}, "", "meeple-icon");

  const json& end = log.value("end", json::object());
  const std::string ending = "End: " + end_text(end.value("reason", std::string("?"))) + " after " +
                             end.value("turns", json(0)).dump() + " turns · " + end.value("tiles_placed", json(0)).dump() +
                             " tiles placed · " + end.value("discarded", json(0)).dump() + " discarded";
  o << "<text id=\"caption-end\" x=\"0\" y=\"102\" data-reason=\"" << xml_escape(end.value("reason", std::string()))
    << "\">" << xml_escape(ending) << "</text>\n";
  std::string goals;
  for (const auto& g : log.value("goals", json::array())) goals += (goals.empty() ? "" : ", ") + g.get<std::string>();
  const std::string legend = "Goals: " + (goals.empty() ? std::string("none") : goals) +
                             " · meeples shown: those on the board at the end (2 points each in the final scoring)" +
                             (returned_drawn ? "; faint: sent home earlier" : "");
  o << "<text x=\"0\" y=\"128\">" << xml_escape(legend) << "</text>\n</g>\n";

  // About 9.2 units per character at 16px (DejaVu Sans is among the widest sans fonts).
  std::size_t chars = 0;
  for (const std::string* line :  // element type spelled out: some are const, clang insists
       std::initializer_list<const std::string*>{&title, &policies, &ending, &legend}) {
    std::size_t n = 0;
    for (unsigned char ch : *line) n += (ch & 0xC0) != 0x80;  // UTF-8 code points
    chars = std::max(chars, n);
  }
  *width = std::max(int(double(chars) * 9.2) + 2 * kMargin, 100 + (v.colors + 1) * 125);
  return o.str();
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += ch;
    }
  }
  return out;
}

std::string tile_style() { return kStyle; }

std::string tile_art(int type, int rot) {
  const TileDef& def = kTiles[type];
  const Oriented& o = kOriented[type][rot];
  std::ostringstream water, roads, cities, walls, marks;
  int road_ends = 0;
  // The river (expansions.md): the water between the tile's water edges, under its roads
  // (a road crosses on a bridge).
  std::uint8_t wet = 0;
  for (int d = 0; d < kDirs; ++d) wet = std::uint8_t(wet | (o.edge[d] == kWater) << d);
  if (wet) {
    const Fit f = fit(wet);
    water << "<path class=\"water\" d=\"" << kRoadShapes[int(f.shape)].path << "\"" << turned(f.q) << "/>";
  }
  for (int s = 0; s < def.nseg; ++s) {
    const SegDef& g = def.segs[s];
    if (g.kind == SegKind::monastery) {
      marks << "<path class=\"mon-cross\" d=\"M50,17 V28 M45.5,21 H54.5\"/>"
               "<rect class=\"mon-body\" x=\"35\" y=\"42\" width=\"30\" height=\"26\"/>"
               "<path class=\"mon-roof\" d=\"M30,44 L50,27 L70,44 Z\"/>"
               "<rect class=\"mon-door\" x=\"46\" y=\"55\" width=\"8\" height=\"13\"/>";
      continue;
    }
    const Fit f = fit(o.seg_edges[s]);
    if (g.kind == SegKind::road) {
      road_ends += f.shape == Shape::single;
      const std::string d = kRoadShapes[int(f.shape)].path;
      roads << "<path class=\"road-edge\" d=\"" << d << "\"" << turned(f.q) << "/>"
            << "<path class=\"road\" d=\"" << d << "\"" << turned(f.q) << "/>";
      if (g.marks & kMarkInn) {  // an inn: a small house beside the road
        const Point p = turn(kRoadShapes[int(f.shape)].meeple, f.q);
        marks << "<path class=\"inn\" transform=\"translate(" << num(p.x + 13) << ' ' << num(p.y - 9)
              << ")\" d=\"M-7,0 L0,-7 L7,0 V8 H-7 Z\"/>";
      }
      continue;
    }
    const CityShape& c = kCityShapes[int(f.shape)];
    cities << "<path class=\"city\" d=\"" << c.fill << "\"" << turned(f.q) << "/>";
    if (*c.wall) walls << "<path class=\"wall\" d=\"" << c.wall << "\"" << turned(f.q) << "/>";
    if (g.marks & kMarkCathedral) {  // a cathedral: a church with a tower in the city
      const Point p = turn(c.meeple, f.q);
      marks << "<path class=\"cathedral\" transform=\"translate(" << num(p.x + 16) << ' ' << num(p.y - 14)
            << ")\" d=\"M-9,10 V-2 L-4,-7 V-14 L0,-19 L4,-14 V-7 L9,-2 V10 Z\"/>";
    }
    if (g.pennant) {
      const Point p = turn(c.pennant, f.q);
      marks << "<path class=\"pennant\" transform=\"translate(" << num(p.x) << ' ' << num(p.y)
            << ")\" d=\"M-7,-8 H7 V0 Q7,7 0,10 Q-7,7 -7,0 Z\"/>";
    }
  }
  std::string junction;
  if (road_ends >= 3) junction = "<rect class=\"junction\" x=\"41\" y=\"41\" width=\"18\" height=\"18\"/>";
  return "<rect class=\"field\" width=\"100\" height=\"100\"/>" + water.str() + roads.str() + junction + cities.str() +
         walls.str() + marks.str() + "<rect class=\"cell\" width=\"100\" height=\"100\"/>";
}

Point meeple_spot(int type, int rot, int seg) {
  const SegDef& g = kTiles[type].segs[seg];
  if (g.kind == SegKind::monastery) return kMonasteryMeeple;
  const Fit f = fit(kOriented[type][rot].seg_edges[seg]);
  return turn(g.kind == SegKind::road ? kRoadShapes[int(f.shape)].meeple : kCityShapes[int(f.shape)].meeple, f.q);
}

std::string meeple_svg(int color, Point at, const std::string& attrs, const std::string& cls, bool large) {
  const bool dark = color == 3;  // a black meeple gets a light outline
  return "<g class=\"" + cls + "\"" + attrs + " transform=\"translate(" + num(at.x) + ' ' + num(at.y) +
         (large ? ") scale(1.45" : "") + ")\"><path d=\"" + kMeeplePath + "\" fill=\"" + kColorStyles[color].fill + "\"" +
         (dark ? " style=\"stroke:#e8e8e8\"" : "") + "/></g>\n";
}

std::string board_svg(const json& log, const SvgOptions& opt) { return board_svg(log, rebuild_board(log), opt); }

std::string board_svg(const json& log, const BoardView& v, const SvgOptions& opt) {
  const int cols = v.max_x - v.min_x + 1, rows = v.max_y - v.min_y + 1;
  const int board_w = cols * kTile + 2 * kMargin, board_h = rows * kTile + 2 * kMargin;
  int caption_width = 0;
  const std::string caption_svg = opt.page ? std::string() : caption(log, v, board_h, opt.returned_meeples, &caption_width);
  const int width = opt.page ? board_w : std::max({board_w, kMinWidth, caption_width});
  const int height = board_h + (opt.page ? 0 : kCaptionHeight);
  const int left = (width - board_w) / 2 + kMargin;
  auto px = [&](int x) { return left + (x - v.min_x) * kTile; };
  auto py = [&](int y) { return kMargin + (y - v.min_y) * kTile; };

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"carcsolo-board\" viewBox=\"0 0 " << width << ' '
    << height << "\"";
  if (!opt.page) o << " width=\"" << width << "\" height=\"" << height << "\"";
  o << ">\n" << kStyle << "<rect class=\"bg\" width=\"" << width << "\" height=\"" << height << "\"/>\n";

  o << "<g id=\"tiles\">\n";
  for (std::size_t i = 0; i < v.tiles.size(); ++i) {
    const ViewTile& t = v.tiles[i];
    o << "<g class=\"tile\" id=\"tile-" << i << "\" data-step=\"" << t.step << "\" data-turn=\"" << t.turn
      << "\" data-type=\"" << tile_name(t.type) << "\" data-rot=\"" << t.rot << "\" data-x=\"" << t.x
      << "\" data-y=\"" << t.y << "\" data-edges=\"" << edge_string(t.type, t.rot) << "\" data-px=\""
      << px(t.x) << "\" data-py=\"" << py(t.y) << "\" transform=\"translate(" << px(t.x) << ' ' << py(t.y)
      << ")\">" << tile_art(t.type, t.rot) << "</g>\n";
  }
  o << "</g>\n";
  if (opt.page) o << "<g id=\"overlay\"></g>\n";

  if (opt.turn_numbers || opt.page) {
    o << "<g id=\"turn-labels\">\n";
    for (const ViewTile& t : v.tiles) {
      if (t.step == 0) continue;
      const std::string label = std::to_string(t.turn);
      const int w = 8 + 7 * int(label.size());
      o << "<g class=\"turn-label\" data-step=\"" << t.step << "\" transform=\"translate(" << px(t.x) + 3 << ' '
        << py(t.y) + 3 << ")\"><rect width=\"" << w << "\" height=\"15\" rx=\"3\"/><text x=\"" << w / 2.0
        << "\" y=\"11.5\" text-anchor=\"middle\">" << label << "</text></g>\n";
    }
    o << "</g>\n";
  }

  o << "<g id=\"meeples\">\n";
  for (const ViewMeeple& m : v.meeples) {
    const bool returned = m.returned_step >= 0;
    if (returned && !opt.returned_meeples && !opt.page) continue;
    const ViewTile& t = v.tiles[std::size_t(m.tile)];
    const Point spot = meeple_spot(t.type, t.rot, m.seg);
    o << meeple_svg(m.color, {px(t.x) + spot.x, py(t.y) + spot.y},
                    " data-color=\"" +
                        std::to_string(m.color) + "\" data-tile=\"" + std::to_string(m.tile) + "\" data-from=\"" +
                        std::to_string(m.placed_step) + "\" data-until=\"" + std::to_string(m.returned_step) + "\"",
                    returned ? (m.large ? "meeple large returned" : "meeple returned") : (m.large ? "meeple large" : "meeple"),
                    m.large);
  }
  o << "</g>\n";
  o << caption_svg;
  o << "</svg>\n";
  return o.str();
}

bool rsvg_convert_available() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::istringstream dirs(path);
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((dir + "/rsvg-convert").c_str(), X_OK) == 0) return true;
  return false;
}

std::string svg_to_png(const std::string& svg) {
  if (!rsvg_convert_available())
    throw std::runtime_error(
        "PNG output needs rsvg-convert (Debian package librsvg2-bin), which is not installed; --svg works without it");
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/carcsolo-png-XXXXXX";
  if (!::mkdtemp(dir.data())) throw std::runtime_error("cannot make a temporary directory: " + std::string(std::strerror(errno)));
  const std::string in = dir + "/board.svg", out = dir + "/board.png";
  struct Cleanup {
    const std::string &in, &out, &dir;
    ~Cleanup() {
      std::remove(in.c_str());
      std::remove(out.c_str());
      ::rmdir(dir.c_str());
    }
  } cleanup{in, out, dir};
  {
    std::ofstream f(in, std::ios::binary);
    f << svg;
    if (!f.flush()) throw std::runtime_error("cannot write a temporary file in " + dir);
  }
  std::vector<std::string> args = {"rsvg-convert", "--format", "png", "--output", out, in};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = ::posix_spawnp(&pid, "rsvg-convert", nullptr, nullptr, argv.data(), environ))
    throw std::runtime_error("cannot run rsvg-convert: " + std::string(std::strerror(err)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waiting for rsvg-convert: " + std::string(std::strerror(errno)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("rsvg-convert failed to convert the SVG");
  std::ifstream f(out, std::ios::binary);
  std::ostringstream bytes;
  bytes << f.rdbuf();
  if (bytes.str().empty()) throw std::runtime_error("rsvg-convert wrote no PNG");
  return bytes.str();
}

}  // namespace carc::sim
