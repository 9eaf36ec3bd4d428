// Tests of the pictures of a game: the board rebuilt from a log (sim/board_view), the SVG
// (sim/svg), the HTML page (sim/html) and `carcsolo replay --svg/--png/--html/--from`.
// The page's script is tested in a real browser by tests/browser/ (ctest), the drawn tile
// rotations pixel by pixel by tests/pictures/ (ctest).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/log/board_view.hpp"
#include "sim/driver/game.hpp"
#include "sim/render/html.hpp"
#include "sim/render/svg.hpp"
#include "tests/process.hpp"
#include "tests/skip.hpp"

namespace {

using nlohmann::json;
using carc::test::TempDir;

json logged_game(int colors, int meeples, std::uint64_t seed, std::uint64_t game,
                 const std::string& placement = "random", const std::string& scoring = "random") {
  auto p = carc::make_placement_policy(placement);
  auto s = carc::make_scoring_policy(scoring);
  const carc::sim::GameSpec spec{carc::Config{colors, meeples}, seed, game};
  return carc::sim::play_logged_game(spec, *p, *s, placement, scoring);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

// "" when every element is closed, in order, and no '<' or '&' stands loose in text;
// otherwise what is wrong. Enough XML to catch a broken writer, not a validator.
std::string tag_problem(const std::string& s) {
  std::vector<std::string> open;
  std::size_t i = 0;
  for (std::size_t amp = s.find('&'); amp != std::string::npos; amp = s.find('&', amp + 1)) {
    const std::size_t semi = s.find(';', amp);
    if (semi == std::string::npos || semi - amp > 8) return "a loose '&' at " + std::to_string(amp);
  }
  while ((i = s.find('<', i)) != std::string::npos) {
    if (s.compare(i, 4, "<!--") == 0 || s.compare(i, 2, "<?") == 0) {
      i = s.find('>', i);
      if (i == std::string::npos) return "an unclosed comment";
      continue;
    }
    std::size_t end = i + 1;
    char quote = 0;
    for (; end < s.size(); ++end) {
      const char c = s[end];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        break;
      } else if (c == '<') {
        return "a '<' inside a tag at " + std::to_string(i);
      }
    }
    if (end == s.size()) return "an unterminated tag at " + std::to_string(i);
    const std::string tag = s.substr(i + 1, end - i - 1);
    const std::string name = tag.substr(tag[0] == '/', tag.find_first_of(" \t\n/>", 1) - (tag[0] == '/'));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes <" + (open.empty() ? std::string("nothing") : open.back()) + ">";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(name);
    }
    i = end + 1;
  }
  return open.empty() ? "" : "<" + open.back() + "> is never closed";
}

struct Case {
  int colors, meeples;
  std::uint64_t seed, game;
};
const Case kCases[] = {{3, 4, 7, 17}, {3, 4, 1, 0}, {2, 4, 5, 3}, {4, 5, 9, 1}, {6, 12, 2, 8}, {3, 7, 11, 4}};

int placed_tiles(const json& log) {
  int n = 0;
  for (const auto& t : log["turns"]) n += !t["discarded"].get<bool>();
  return n;
}

}  // namespace

TEST_CASE("the board rebuilt from a log agrees with the engine on every scoring") {
  // 300 games of each kind: every scored feature must be one the rebuilt board completes,
  // every completed one must be scored, and final_scoring must list exactly the meeples left.
  int returned = 0, left = 0;
  for (int colors : {2, 3, 5})
    for (std::uint64_t g = 0; g < 100; ++g) {
      const json log = logged_game(colors, colors == 5 ? 6 : 4, 21, g, "random", g % 2 ? "random" : "as-found");
      carc::sim::BoardView v;
      REQUIRE_NOTHROW(v = carc::sim::rebuild_board(log));
      CHECK(int(v.tiles.size()) == placed_tiles(log) + 1);
      for (const auto& m : v.meeples) (m.returned_step >= 0 ? returned : left) += 1;
      CHECK(std::count_if(v.meeples.begin(), v.meeples.end(), [](const auto& m) { return m.returned_step < 0; }) ==
            std::ptrdiff_t(log["final_scoring"].size()));
    }
  CHECK(returned > 100);  // the games do complete features with meeples on them
  CHECK(left > 100);
}

TEST_CASE("a log that is not a consistent game is refused with the turn named") {
  const json good = logged_game(3, 4, 7, 17);
  REQUIRE_NOTHROW(carc::sim::rebuild_board(good));
  std::size_t first = 0;  // the first placed turn
  while (good["turns"][first]["discarded"].get<bool>()) ++first;

  json bad = good;
  bad["turns"][first]["rot"] = (good["turns"][first]["rot"].get<int>() + 1) % 4;
  CHECK_THROWS_WITH_AS(carc::sim::rebuild_board(bad), doctest::Contains("edges"), std::runtime_error);

  bad = good;
  bad["turns"][first]["x"] = 0;
  bad["turns"][first]["y"] = 0;
  CHECK_THROWS_WITH_AS(carc::sim::rebuild_board(bad), doctest::Contains("already taken"), std::runtime_error);

  bad = good;
  bad["turns"][first]["tile"] = "Z";
  CHECK_THROWS_WITH_AS(carc::sim::rebuild_board(bad), doctest::Contains("unknown tile 'Z'"), std::runtime_error);

  bad = good;
  bad["final_scoring"].erase(0);
  CHECK_THROWS_WITH_AS(carc::sim::rebuild_board(bad), doctest::Contains("final_scoring"), std::runtime_error);

  bad = good;
  for (auto& t : bad["turns"])
    if (t.contains("scored") && !t["scored"].empty()) {
      t["scored"].erase(0);
      break;
    }
  CHECK_THROWS_WITH_AS(carc::sim::rebuild_board(bad), doctest::Contains("does not score"), std::runtime_error);
}

TEST_CASE("SVG: well formed, one tile group per tile on the board, the caption's scores") {
  for (const Case& c : kCases) {
    CAPTURE(c.seed);
    CAPTURE(c.game);
    const json log = logged_game(c.colors, c.meeples, c.seed, c.game);
    const std::string svg = carc::sim::board_svg(log);
    CHECK(tag_problem(svg) == "");
    CHECK(svg.rfind("<svg ", 0) == 0);
    CHECK(count(svg, "<g class=\"tile\"") == std::size_t(placed_tiles(log) + 1));
    CHECK(count(svg, "<g class=\"tile\"") == std::size_t(log["end"]["tiles_placed"].get<int>() + 1));
    // Only the meeples left on the board, one per final_scoring entry, each in its colour.
    CHECK(count(svg, "<g class=\"meeple\"") == log["final_scoring"].size());
    CHECK(count(svg, "meeple returned") == 0);
    for (int k = 0; k < c.colors; ++k) {
      const int score = log["scores"][k].get<int>();
      CHECK(svg.find("id=\"caption-score-" + std::to_string(k) + "\" data-score=\"" + std::to_string(score) + "\">" +
                     carc::sim::kColorStyles[k].name + " " + std::to_string(score) + "<") != std::string::npos);
      const auto on_board = std::count_if(log["final_scoring"].begin(), log["final_scoring"].end(),
                                          [&](const json& f) { return f["color"].get<int>() == k; });
      CHECK(count(svg, "data-color=\"" + std::to_string(k) + "\"") == std::size_t(on_board));
    }
    CHECK(svg.find("result " + std::to_string(log["result"].get<int>()) + "<") != std::string::npos);
    CHECK(svg.find(log["end"]["reason"].get<std::string>()) != std::string::npos);
    CHECK(count(svg, "class=\"turn-label\"") == 0);

    carc::sim::SvgOptions opt;
    opt.turn_numbers = opt.returned_meeples = true;
    const std::string all = carc::sim::board_svg(log, opt);
    CHECK(tag_problem(all) == "");
    CHECK(count(all, "class=\"turn-label\"") == std::size_t(placed_tiles(log)));
    std::size_t placed_meeples = 0;
    for (const auto& t : log["turns"]) placed_meeples += t.contains("meeple") && !t["meeple"].is_null();
    CHECK(count(all, "<g class=\"meeple\"") + count(all, "<g class=\"meeple returned\"") == placed_meeples);
    CHECK(count(all, "<g class=\"meeple returned\"") == placed_meeples - log["final_scoring"].size());
  }
}

TEST_CASE("SVG caption and HTML title: the policies as short specs, the log keeps them whole") {
  // A log names its policies canonically: every parameter, near 200 characters for heuristic.
  const std::string placement = carc::canonical_placement("heuristic:compact=1");
  const json log = logged_game(3, 4, 2, 5, placement, carc::canonical_scoring("best"));
  REQUIRE(log["config"]["placement_policy"] == placement);
  REQUIRE(placement.size() > 150);
  const std::string shown = "placement heuristic:compact=1 · scoring best";
  const std::string svg = carc::sim::board_svg(log);
  CHECK(svg.find("id=\"caption-policies\" x=\"0\" y=\"44\">" + shown + "</text>") != std::string::npos);
  const std::string html = carc::sim::replay_html(log);
  CHECK(html.find("<title>carcsolo replay · seed 2 · game 5 · 3 colours, 4 meeples · " + shown + "</title>") !=
        std::string::npos);
  CHECK(html.find("<div id=\"meta\">seed 2 · game 5 · 3 colours, 4 meeples · " + shown + "</div>") !=
        std::string::npos);
  CHECK(count(html, "low=0.5") == 1);  // in the embedded log only
}

TEST_CASE("SVG: each tile is drawn from the log's tile, position and rotation") {
  const json log = logged_game(3, 4, 7, 17);
  const std::string svg = carc::sim::board_svg(log);
  for (const auto& t : log["turns"]) {
    if (t["discarded"].get<bool>()) continue;
    const std::string attrs = "data-type=\"" + t["tile"].get<std::string>() + "\" data-rot=\"" +
                              std::to_string(t["rot"].get<int>()) + "\" data-x=\"" + std::to_string(t["x"].get<int>()) +
                              "\" data-y=\"" + std::to_string(t["y"].get<int>()) + "\" data-edges=\"" +
                              t["edges"].get<std::string>() + "\"";
    CHECK_MESSAGE(svg.find(attrs) != std::string::npos, attrs);
  }
  // Shapes follow the rotated edges: a road tile turned a quarter is a different picture,
  // and the same picture as the tile type whose edges are those (U turned = U, V turned
  // twice = the corner on the other side).
  const int u = carc::tile_type('U'), v = carc::tile_type('V');
  CHECK(carc::sim::tile_art(u, 0) == carc::sim::tile_art(u, 2));
  CHECK(carc::sim::tile_art(u, 0) != carc::sim::tile_art(u, 1));
  for (int r = 1; r < 4; ++r) CHECK(carc::sim::tile_art(v, 0) != carc::sim::tile_art(v, r));
  // V (road S,W) turned once is road W,N: its meeple stands on the curve's north-west side.
  const auto spot = carc::sim::meeple_spot(v, 1, 0);
  CHECK(spot.x < 50);
  CHECK(spot.y < 50);
}

TEST_CASE("PNG through rsvg-convert: a real PNG of the board's size") {
  if (!carc::sim::rsvg_convert_available()) {
    carc::test::skip("rsvg-convert is not installed (Debian package librsvg2-bin): PNG not checked");
    return;
  }
  const json log = logged_game(3, 4, 7, 17);
  const std::string svg = carc::sim::board_svg(log);
  const std::string png = carc::sim::svg_to_png(svg);
  REQUIRE(png.size() > 5000);
  CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  CHECK(png.compare(12, 4, "IHDR") == 0);
  auto be32 = [&](std::size_t at) {
    return (unsigned(std::uint8_t(png[at])) << 24) | (unsigned(std::uint8_t(png[at + 1])) << 16) |
           (unsigned(std::uint8_t(png[at + 2])) << 8) | unsigned(std::uint8_t(png[at + 3]));
  };
  const std::size_t w = svg.find("width=\""), h = svg.find("height=\"");
  CHECK(be32(16) == unsigned(std::stoi(svg.substr(w + 7))));
  CHECK(be32(20) == unsigned(std::stoi(svg.substr(h + 8))));
}

TEST_CASE("HTML: self-contained, the log embedded intact, every hook the script needs") {
  const json log = logged_game(4, 4, 9, 1);
  const std::string html = carc::sim::replay_html(log);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  // Nothing is fetched: no external script, style sheet, image, font or frame.
  for (const char* ext : {" src=", "<link", "@import", "url(", "<iframe", "<img", "fetch(", "XMLHttpRequest"})
    CHECK_MESSAGE(html.find(ext) == std::string::npos, ext);
  CHECK(count(html, "http") == count(html, "http://www.w3.org/2000/svg"));
  const std::string open = "<script type=\"application/json\" id=\"game-log\">";
  const std::size_t a = html.find(open), b = html.find("</script>", a);
  REQUIRE(a != std::string::npos);
  std::string embedded = html.substr(a + open.size(), b - a - open.size());
  for (std::size_t at = 0; (at = embedded.find("<\\/", at)) != std::string::npos;) embedded.replace(at, 3, "</");
  CHECK(json::parse(embedded) == log);
  for (const char* id : {"btn-first", "btn-prev", "btn-next", "btn-last", "scoreboard", "step-label", "scored",
                         "discards", "final", "overlay", "board-view"})
    CHECK_MESSAGE(html.find("id=\"" + std::string(id) + "\"") != std::string::npos, id);
  CHECK(count(html, "<g class=\"tile\"") == std::size_t(placed_tiles(log) + 1));
}

TEST_CASE("replay --svg --png --html --from: files written, the log not printed, clear errors") {
  TempDir dir;
  const bool png = carc::sim::rsvg_convert_available();
  std::vector<std::string> args = {"replay", "--seed", "7", "--game", "17", "--svg", "b.svg", "--html", "g.html",
                                   "--out", "log.json", "--turn-numbers"};
  if (png) args.insert(args.end(), {"--png", "b.png"});
  auto r = carc::test::run_carcsolo(args, dir.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.empty());
  const std::string svg = carc::test::read_text(dir / "b.svg");
  CHECK(svg == carc::sim::board_svg(logged_game(3, 4, 7, 17), {true, false, false}));
  CHECK(carc::test::read_text(dir / "g.html").find("id=\"game-log\"") != std::string::npos);
  if (png) CHECK(carc::test::read_text(dir / "b.png").compare(0, 4, "\x89PNG") == 0);

  // The same pictures from the log file, and from a line of a JSON-lines file.
  r = carc::test::run_carcsolo({"replay", "--from", "log.json", "--svg", "c.svg", "--turn-numbers"}, dir.path());
  REQUIRE(r.status == 0);
  CHECK(carc::test::read_text(dir / "c.svg") == svg);
  const json log = json::parse(carc::test::read_text(dir / "log.json"));
  carc::test::write_text(dir / "games.jsonl", logged_game(3, 4, 7, 16).dump() + "\n" + log.dump() + "\n");
  r = carc::test::run_carcsolo({"replay", "--from", "games.jsonl", "--game", "17", "--svg", "d.svg", "--turn-numbers"},
                               dir.path());
  REQUIRE(r.status == 0);
  CHECK(carc::test::read_text(dir / "d.svg") == svg);
  r = carc::test::run_carcsolo({"replay", "--from", "games.jsonl", "--game", "99", "--svg", "e.svg"}, dir.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("no game 99") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "e.svg"));

  // An inconsistent log: one line, exit 2, no picture.
  json bad = log;
  bad["final_scoring"] = json::array();
  carc::test::write_text(dir / "bad.json", bad.dump());
  r = carc::test::run_carcsolo({"replay", "--from", "bad.json", "--svg", "f.svg"}, dir.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("final_scoring") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(!std::filesystem::exists(dir / "f.svg"));

  // A tampered result (or final scores) fails too, with or without a picture asked for.
  bad = log;
  bad["result"] = log["result"].get<int>() + 5;
  carc::test::write_text(dir / "result.json", bad.dump());
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--svg", "g.svg"}, std::vector<std::string>{}}) {
    std::vector<std::string> a = {"replay", "--from", "result.json"};
    a.insert(a.end(), extra.begin(), extra.end());
    r = carc::test::run_carcsolo(a, dir.path());
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("result: " + bad["result"].dump() + " is not the lowest final score (" + log["result"].dump()) !=
          std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  CHECK(!std::filesystem::exists(dir / "g.svg"));
  bad = log;
  bad["scores"][1] = bad["scores"][1].get<int>() + 1;
  carc::test::write_text(dir / "scores.json", bad.dump());
  r = carc::test::run_carcsolo({"replay", "--from", "scores.json"}, dir.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("game log: scores: ") != std::string::npos);
  if (!png) carc::test::skip("rsvg-convert is not installed (Debian package librsvg2-bin): --png not checked");
}

TEST_CASE("replay --png without rsvg-convert: one line naming the package, no file") {
  TempDir dir;
  const std::string cmd = "cd '" + dir.path().string() + "' && PATH=/nonexistent '" + CARCSOLO_BINARY +
                          "' replay --seed 7 --png b.png 2>err.txt";
  const int status = std::system(cmd.c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(carc::test::read_text(dir / "err.txt").find("librsvg2-bin") != std::string::npos);
  CHECK(!std::filesystem::exists(dir / "b.png"));
}
