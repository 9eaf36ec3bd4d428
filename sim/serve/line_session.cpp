#include "sim/serve/line_session.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>

#include "sim/render/svg.hpp"
#include "sim/render/text.hpp"

namespace carc::sim {
namespace {

std::string trimmed(const std::string& line) {
  std::size_t a = 0, b = line.size();
  while (a < b && std::isspace(static_cast<unsigned char>(line[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(line[b - 1]))) --b;
  return line.substr(a, b - a);
}

// "x,y,rot meeple": the meeple's segment name, "-" for none, "large " before it for the
// large meeple (expansions.md).
std::string move_text(int type, const Move& m) {
  std::string t = std::to_string(m.at.x) + "," + std::to_string(m.at.y) + "," + std::to_string(m.at.rot) + " ";
  if (m.seg == Move::kNoMeeple) return t + "-";
  return t + (m.large ? "large " : "") + segment_name(type, m.at.rot, m.seg);
}

// The tile names a colour can say it drew now: the set's, the river's while it flows.
std::string names_hint(const State& s) {
  if (s.river_left() > 0) return "a river tile, R1..R9";
  if (!s.beyond_base()) return "one of A..X (rules.md)";
  return s.type_end() > kFirstInn ? "one of A..X or I1..I17 (expansions.md)" : "one of A..X (rules.md)";
}

std::string numbers(const State& s, int (State::*f)(int) const) {
  std::string t;
  for (int c = 0; c < s.colors(); ++c) t += " " + std::to_string((s.*f)(c));
  return t;
}

bool whole_number(const std::string& t) {
  return !t.empty() && t.size() < 10 &&
         std::all_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

// A whole number, possibly negative, that fits a board coordinate.
bool coordinate(const std::string& t, int& v) {
  const std::string digits = !t.empty() && t[0] == '-' ? t.substr(1) : t;
  if (!whole_number(digits) || digits.size() > 3) return false;
  v = std::stoi(t);
  return true;
}


}  // namespace

LineSession::End LineSession::play() {
  bool ask = true;
  while (!game().over()) {
    if (signalled()) return End::interrupted;
    const bool drawing = game().needs_draw();
    if (!drawing && !advised_) {
      advise();
      if (signalled()) return End::interrupted;
      ask = true;
    }
    if (ask) out_ << (drawing ? draw_prompt() : "play") << std::endl;
    std::string line;
    if (!std::getline(in_, line)) return signalled() ? End::interrupted : End::input_ended;
    if (signalled()) return End::interrupted;
    line = trimmed(line);
    ask = true;
    if (!line.empty() && line[0] == '#') {
      ask = false;  // a comment: read on
      continue;
    }
    if (line.empty()) continue;  // the question again
    const std::string word = lower_case(line);
    if (word == "quit") return End::quit;
    if (word == "board") {
      show_board();
      continue;
    }
    try {
      if (word == "undo")
        undo();
      else if (drawing)
        take_tile(line);
      else
        take_move(line);
    } catch (const std::invalid_argument& e) {
      if (!retry_) {
        refusal_ = e.what();
        return End::refused;
      }
      err_ << "carcsolo advise: " << e.what() << std::endl;
    }
  }
  const State& s = game().state();
  out_ << "over result " << s.result() << " reason " << end_reason_id(s.end_reason()) << " scores"
       << numbers(s, &State::score) << std::endl;
  return End::over;
}

std::string LineSession::draw_prompt() const {
  const State& s = game().state();
  return "draw " + std::to_string(s.to_move()) + " (" + color_name(s.to_move()) + ") turn " +
         std::to_string(s.turn()) + " stack " + std::to_string(s.stack_left(s.to_move())) +
         (s.river_left() > 0 ? " river " + std::to_string(s.river_left()) : std::string()) + " unseen " +
         std::to_string(s.unseen_total());
}

void LineSession::undo() {
  if (table_.actions().empty()) throw std::invalid_argument("nothing to undo: no tile or move was typed yet");
  const TableAction a = table_.undo().action;
  advised_ = false;
  out_ << "undone "
       << (a.kind == TableAction::draw ? "draw " + std::string(tile_name(a.type)) : "move " + move_text(a.type, a.move))
       << std::endl;
}

void LineSession::show_board() const {
  const State& s = game().state();
  const PlacedTile& t = s.tile(s.tiles_on_board() - 1);
  std::string colors;
  for (int c = 0; c < s.colors(); ++c) colors += (c ? ", " : "") + std::to_string(c) + " " + color_name(c);
  out_ << "board around " << int(t.x) << "," << int(t.y) << " (the last tile placed, in [ ]); meeples: " << colors
       << "\n"
       << board_text(s, t.x, t.y, 3) << std::flush;
}

void LineSession::take_tile(const std::string& line) {
  std::string name = line;
  if (!name.empty()) name[0] = char(std::toupper(static_cast<unsigned char>(name[0])));
  const int type = name.size() <= 3 ? tile_type(name) : kNoType;
  const State& s = game().state();
  if (type == kNoType || type >= s.type_end())
    throw std::invalid_argument("'" + line + (s.beyond_base() ? "' is no tile of this game" : "' is no tile letter") +
                                ": the tile colour " + std::to_string(s.to_move()) + " drew, " + names_hint(s));
  const int discards = s.discards();
  table_.draw(type);
  advised_ = false;
  if (game().state().discards() > discards) out_ << "discard " << tile_name(type) << std::endl;
}

void LineSession::advise() {
  const State& s = game().state();
  const int type = game().tile();
  ranked_ = table_.ranked();
  listed_ = std::min<int>(k_, int(ranked_.size()));
  advised_ = true;
  out_ << "tile " << tile_name(type) << " color " << s.to_move() << " (" << color_name(s.to_move()) << ") legal "
       << game().legal().size() << " moves " << listed_ << "\n";
  const std::ios_base::fmtflags flags = out_.flags();
  const std::streamsize precision = out_.precision();
  out_ << std::fixed << std::setprecision(2);
  for (int i = 0; i < listed_; ++i) {
    const MoveEstimate& e = ranked_[std::size_t(i)];
    out_ << "move " << i + 1 << " " << move_text(type, e.move) << " " << e.mean << " " << e.std_error << "\n";
  }
  out_.flags(flags);
  out_.precision(precision);
}

void LineSession::take_move(const std::string& line) {
  const int type = game().tile();
  const Move played = parse_move(line, type);
  table_.play(played);  // several features completed: the scoring policy's order (auto_order)
  advised_ = false;
  const State& after = game().state();
  out_ << "played " << move_text(type, played) << " scores" << numbers(after, &State::score) << " supply"
       << numbers(after, &State::supply) << std::endl;
}

Move LineSession::parse_move(const std::string& line, int type) {
  if (whole_number(line)) {
    const int r = std::stoi(line);
    if (r < 1 || r > listed_)
      throw std::invalid_argument("rank " + line + ": the moves listed are 1.." + std::to_string(listed_));
    return ranked_[std::size_t(r - 1)].move;
  }
  std::string t = line;
  std::replace_if(t.begin(), t.end(), [](char ch) { return std::isspace(static_cast<unsigned char>(ch)); }, ',');
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = t.find(',', at);
    parts.push_back(t.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    at = comma == std::string::npos ? t.size() : comma + 1;
  }
  std::string meeple = at < t.size() ? t.substr(at) : "";
  while (!meeple.empty() && meeple[0] == ',') meeple.erase(0, 1);
  bool large = false;  // "large SEGMENT": the large meeple
  if (meeple.rfind("large,", 0) == 0) {
    large = true;
    meeple.erase(0, 6);
    while (!meeple.empty() && meeple[0] == ',') meeple.erase(0, 1);
  }
  int x = 0, y = 0, rot = 0;
  if (!coordinate(parts[0], x) || !coordinate(parts[1], y) || !whole_number(parts[2]) ||
      (rot = std::stoi(parts[2])) > 3)
    throw std::invalid_argument("'" + line + "' is no move: a rank (1.." + std::to_string(listed_) +
                                ") or x,y,rot[,meeple] such as 1,0,3,road:E,W");
  if (x < -kMaxTiles || x > kMaxTiles || y < -kMaxTiles || y > kMaxTiles)
    throw std::invalid_argument("(" + std::to_string(x) + ", " + std::to_string(y) + ", rot " +
                                std::to_string(rot) + ") is no legal placement of tile " +
                                std::string(tile_name(type)));
  Move m{Placement{std::uint16_t(cell_of(x, y)), std::int8_t(x), std::int8_t(y), std::uint8_t(rot)},
         Move::kNoMeeple};
  m.large = large;
  if (large && (meeple.empty() || meeple == "-"))
    throw std::invalid_argument("'" + line + "': the large meeple goes on a segment, such as large road:E,W");
  if (meeple.empty() || meeple == "-") {
    // Rejected by play() when a meeple is forced: name the free segments then.
    for (const Placement& p : game().legal())
      if (p.x == x && p.y == y && p.rot == rot && game().state().figures(game().state().to_move()) > 0) {
        const std::uint8_t free = game().state().free_segments(type, p);
        if (!free) break;
        std::string names;
        for (int seg = 0; seg < kMaxSegs; ++seg)
          if (free >> seg & 1) names += (names.empty() ? "" : " or ") + segment_name(type, rot, seg);
        throw std::invalid_argument("a meeple must go on a free segment of this placement: " + line + "," +
                                    names);
      }
    return m;
  }
  for (int seg = 0; seg < kTiles[type].nseg; ++seg)
    if (segment_name(type, rot, seg) == meeple) {
      m.seg = std::uint8_t(seg);
      return m;
    }
  throw std::invalid_argument("meeple '" + meeple + "' is no segment of tile " + std::string(tile_name(type)) +
                              " turned " + std::to_string(rot));
}

}  // namespace carc::sim
