// carcsolo advise: advice at the table, one line at a time (docs/advise.md). The person (or
// program) says which tile the colour to move drew; the advisor ranks its moves as
// `carcsolo analyse` would value them (sim/analysis/advice.hpp) and the move played comes
// back as a rank or as x,y,rot[,meeple]. The game is a SteppedGame at the table: it knows
// the board and the tiles not yet seen, never an order of the stacks.
//
// Bad input (a letter that is no tile or has no copy left unseen, a move that is not legal,
// the input ending before the game is over) is one line on stderr. With --retry (the
// default when the input is a terminal) the advisor repeats its prompt; otherwise it exits with
// status 2, so that a program driving it cannot go on from a position it did not mean.
// Nothing typed is lost: `quit`, the end of the input, a refused line and SIGINT, SIGTERM or
// SIGHUP all write the game so far to --log, marked unfinished (docs/game-log.md), and say
// so in their one line; `undo` replays every action typed but the last.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cctype>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/candidates.hpp"
#include "policies/policy.hpp"
#include "sim/analysis/advice.hpp"
#include "sim/analysis/search_analysis.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/stepper.hpp"
#include "sim/render/svg.hpp"
#include "sim/render/text.hpp"
#include "sim/serve/table_game.hpp"

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

// Set by SIGINT, SIGTERM and SIGHUP. The handlers are installed without SA_RESTART, so a
// read waiting for the person's next line returns at once (std::getline fails) and the
// game so far can be kept.
volatile std::sig_atomic_t g_signalled = 0;
extern "C" void on_advise_signal(int) { g_signalled = 1; }

void install_advise_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_advise_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

std::string color_name(int c) { return kColorStyles[std::size_t(c)].name; }

std::string lower(std::string t) {
  for (char& ch : t) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return t;
}

class Session {
 public:
  enum class End { over, quit, input_ended, interrupted, refused };

  // The game, its undo and its log are the table's (sim/serve/table_game.hpp, shared with
  // the table page); the session reads lines and writes the protocol.
  Session(TableGame& table, int k, bool retry, std::istream& in, std::ostream& out)
      : table_(table), k_(k), retry_(retry), in_(in), out_(out) {}

  // Plays the game until it is over, `quit` is typed, the input ends, a signal comes, or
  // (without retry) a line is refused (refusal() says why).
  End play() {
    bool ask = true;
    while (!game().over()) {
      if (g_signalled) return End::interrupted;
      const bool drawing = game().needs_draw();
      if (!drawing && !advised_) {
        advise();
        if (g_signalled) return End::interrupted;
        ask = true;
      }
      if (ask) out_ << (drawing ? draw_prompt() : "play") << std::endl;
      std::string line;
      if (!std::getline(in_, line)) return g_signalled ? End::interrupted : End::input_ended;
      if (g_signalled) return End::interrupted;
      line = trimmed(line);
      ask = true;
      if (!line.empty() && line[0] == '#') {
        ask = false;  // a comment: read on
        continue;
      }
      if (line.empty()) continue;  // the question again
      const std::string word = lower(line);
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
        std::cerr << "carcsolo advise: " << e.what() << std::endl;
      }
    }
    const State& s = game().state();
    out_ << "over result " << s.result() << " reason " << end_reason_id(s.end_reason()) << " scores"
         << numbers(s, &State::score) << std::endl;
    return End::over;
  }

  const SteppedGame& game() const { return table_.game(); }
  const std::string& refusal() const { return refusal_; }

 private:
  std::string draw_prompt() const {
    const State& s = game().state();
    return "draw " + std::to_string(s.to_move()) + " (" + color_name(s.to_move()) + ") turn " +
           std::to_string(s.turn()) + " stack " + std::to_string(s.stack_left(s.to_move())) +
           (s.river_left() > 0 ? " river " + std::to_string(s.river_left()) : std::string()) + " unseen " +
           std::to_string(s.unseen_total());
  }

  void undo() {
    if (table_.actions().empty()) throw std::invalid_argument("nothing to undo: no tile or move was typed yet");
    const TableAction a = table_.undo().action;
    advised_ = false;
    out_ << "undone "
         << (a.kind == TableAction::draw ? "draw " + std::string(tile_name(a.type)) : "move " + move_text(a.type, a.move))
         << std::endl;
  }

  void show_board() const {
    const State& s = game().state();
    const PlacedTile& t = s.tile(s.tiles_on_board() - 1);
    std::string colors;
    for (int c = 0; c < s.colors(); ++c) colors += (c ? ", " : "") + std::to_string(c) + " " + color_name(c);
    out_ << "board around " << int(t.x) << "," << int(t.y) << " (the last tile placed, in [ ]); meeples: " << colors
         << "\n"
         << board_text(s, t.x, t.y, 3) << std::flush;
  }

  void take_tile(const std::string& line) {
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

  void advise() {
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

  void take_move(const std::string& line) {
    const int type = game().tile();
    const Move played = parse_move(line, type);
    table_.play(played);  // several features completed: the scoring policy's order (auto_order)
    advised_ = false;
    const State& after = game().state();
    out_ << "played " << move_text(type, played) << " scores" << numbers(after, &State::score) << " supply"
         << numbers(after, &State::supply) << std::endl;
  }

  // A rank among the moves listed, or x,y,rot with the meeple's segment after a comma or a
  // space ("-" or nothing for none).
  Move parse_move(const std::string& line, int type) {
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

  TableGame& table_;
  int k_;
  bool retry_;
  std::istream& in_;
  std::ostream& out_;
  std::vector<MoveEstimate> ranked_;
  int listed_ = 0;
  bool advised_ = false;  // ranked_ is the advice for the tile in hand
  std::string refusal_;
};

}  // namespace

int cmd_advise(const Args& args, const ProgramInfo& /*program: writes no results file*/) {
  std::string colors = "3", meeples = "4", analyser = "search", scoring = "best", rollouts = "32",
              candidates = "8", seed = "1", k = "5", log, value_net, tileset = "base", aim = "score";
  bool large_meeple = false;
  po::options_description d(
      "carcsolo advise: advice at the table. Say which tile the colour to move drew (its letter,\n"
      "A..X); the advisor lists the best moves of it, each valued as `carcsolo analyse` values\n"
      "moves: by default by `search`'s own search (the first advice is search's choice), or with\n"
      "another --analyser by rollouts to the game's end that it plays, the unseen tiles re-dealt\n"
      "at random; answer with the move played: its rank, or x,y,rot[,meeple]. Until the game is over. It\n"
      "knows the board and the tiles not yet seen, never the order of the stacks. At any\n"
      "question: `undo` takes back the last tile or move typed, `board` draws the board around\n"
      "the last tile, `quit` stops (the game so far to --log, marked unfinished), a blank line\n"
      "asks again. The protocol, line by line, and pictures of the tiles are in docs/advise.md.\n"
      "Bad input is one line on stderr, then the question again (--retry, the default on a\n"
      "terminal) or exit status 2.\n\n"
      "usage: carcsolo advise [options]   (then type tile letters and moves)\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("colors", po::value(&colors)->default_value(colors), "colours in play, 2..6 (the rules: 3)")
      ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour, 1..12 (the rules: 4)")
      ("tileset", po::value(&tileset)->default_value(tileset), "tile set: base, base+inns, base+river, base+inns+river (expansions.md) or a tile-set file (docs/tileset-format.md); the tiles are then named as there (I1..I17, R0..R9)")
      ("large-meeple", po::bool_switch(&large_meeple), "each colour also has the Inns & Cathedrals large meeple; a move places it as x,y,rot,large SEGMENT")
      ("aim", po::value(&aim)->default_value(aim), "what the advice plays for: score, a goal id (moves valued by the goal's chance) or goals (docs/aim.md); needs a search analyser")
      ("analyser", po::value(&analyser)->default_value(analyser), "the analysing player (a placement spec, see `carcsolo policies`): a `search` spec values the moves by its own search; any other player continues every rollout to the game's end")
      ("scoring", po::value(&scoring)->default_value(scoring), "scoring order of the features a move completes (applied for you) and of the rollouts (a scoring spec)")
      ("rollouts", po::value(&rollouts), "with a rollout analyser: continuations per move, 1..100000 (default 32)")
      ("candidates", po::value(&candidates), "with a rollout analyser: moves valued, the heuristic's K best (duplicates removed); 0: every legal move (default 8)")
      ("seed", po::value(&seed)->default_value(seed), "seed of the advisor's re-deals (the advice is a function of the position and the options)")
      (",k", po::value(&k)->default_value(k), "moves listed, best first, 1..1000")
      ("log", po::value(&log), "write the game's log (docs/game-log.md) to FILE once it is over; a game stopped before (quit, end of input, a signal, a refused line) is written too, marked unfinished")
      ("retry", "on bad input, say so and ask again (the default when the input is a terminal)")
      ("quiet,q", "no `advise` header line");
  add_value_net_option(d, value_net);
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: printf 'V\\n1\\n' | carcsolo advise  (colour 0 drew a V; play the advice)\n";
    return 0;
  }
  RunConfig rc;
  rc.colors = int(parse_count("colors", colors, kMinColors, kMaxColors));
  rc.meeples = int(parse_count("meeples", meeples, kMinMeeples, kMaxMeeples));
  select_value_net(value_net, rc);
  select_tileset(tileset, large_meeple, rc);
  select_aim(aim, rc);
  const Config cfg = rc.game_config();
  AdviceOptions opt;
  opt.context = rc.context;
  try {
    opt.analyser = canonical_placement(analyser);
    opt.scoring = canonical_scoring(scoring);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const bool by_search = is_search_spec(opt.analyser);
  if (!rc.context.aim.is_score() && !by_search)
    throw UsageError("--aim needs a search analyser (its rollouts value moves by the aim; got --analyser " + analyser + ")");
  refuse_rollout_options(vm, opt.analyser);
  opt.rollouts = int(parse_count("rollouts", rollouts, 1, 100000));
  opt.candidates = int(parse_count("candidates", candidates, 0, kMaxMoves));
  opt.seed = parse_count("seed", seed, 0, UINT64_MAX);
  const int listed = int(parse_count("k", k, 1, 1000));
  const bool retry = vm.count("retry") || ::isatty(STDIN_FILENO);

  AtomicFile output;
  if (!log.empty()) output = open_output("log", log);
  if (!rc.base_game() || !rc.context.aim.is_score()) {  // a player that cannot play the set (the learned value off the base game) or aim is bad input
    try {
      make_placement_policy(opt.analyser, opt.context);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--analyser: ") + e.what());
    }
  }
  TableSetup setup;
  setup.cfg = cfg;
  setup.aim = rc.context.aim;
  setup.auto_order = true;
  setup.program = "advise";
  setup.value_net = {{"hash", rc.value_net_hash}, {"source", rc.value_net_source}};
  TableGame table(setup, opt);
  install_advise_handlers();
  if (!vm.count("quiet"))
    std::cout << "advise colors " << cfg.colors << " meeples " << cfg.meeples
              << (rc.base_game() ? std::string()
                                 : " tileset " + rc.rules().name() + (rc.rules().large_meeple() ? " large-meeple" : ""))
              << " analyser "
              << short_placement_spec(opt.analyser) << " rollouts " << (by_search ? 0 : opt.rollouts)
              << " candidates " << (by_search ? 0 : opt.candidates) << " seed " << opt.seed
              << (rc.context.aim.is_score() ? std::string() : " aim " + rc.context.aim.id()) << std::endl;
  Session session(table, listed, retry, std::cin, std::cout);
  const Session::End end = session.play();
  const SteppedGame& game = session.game();
  const int turns = game.state().turn();
  // Where the game so far went: the tail of the one line a game stopped early gets.
  std::string kept = "no --log, nothing written";
  const bool logged = output.is_open();
  if (logged) {
    output.write(table.log().dump() + "\n");  // with its advisor block, as the table page's
    output.commit();
    if (end != Session::End::over) kept = "the game so far (unfinished) written to " + log;
  }
  switch (end) {
    case Session::End::over:
      return 0;
    case Session::End::quit:
      std::cout << "quit after " << turns << (turns == 1 ? " turn; " : " turns; ") << kept << std::endl;
      return 0;
    case Session::End::interrupted:
      std::cout.flush();
      std::cerr << "carcsolo advise: interrupted after " << turns << (turns == 1 ? " turn; " : " turns; ") << kept
                << std::endl;
      return 130;
    case Session::End::input_ended:
      throw UsageError("the input ended before the game was over (turn " + std::to_string(turns) + ")" +
                       (logged ? "; " + kept : std::string()));
    case Session::End::refused:
      break;
  }
  throw UsageError(session.refusal() + (logged ? "; " + kept : std::string()));
}

}  // namespace carc::sim
