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
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/candidates.hpp"
#include "policies/policy.hpp"
#include "sim/analysis/advice.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/stepper.hpp"

namespace carc::sim {
namespace {

std::string trimmed(const std::string& line) {
  std::size_t a = 0, b = line.size();
  while (a < b && std::isspace(static_cast<unsigned char>(line[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(line[b - 1]))) --b;
  return line.substr(a, b - a);
}

std::string move_text(int type, const Move& m) {
  std::string t = std::to_string(m.at.x) + "," + std::to_string(m.at.y) + "," + std::to_string(m.at.rot) + " ";
  return t + (m.seg == Move::kNoMeeple ? std::string("-") : segment_name(type, m.at.rot, m.seg));
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

class Session {
 public:
  Session(SteppedGame& game, Advisor& advisor, int k, bool retry, std::istream& in, std::ostream& out)
      : g_(game), advisor_(advisor), k_(k), retry_(retry), in_(in), out_(out) {}

  // Plays the game to its end, counting the decisions and those where the move played was
  // the advice (rank 1).
  void play() {
    while (!g_.over()) {
      if (g_.needs_draw()) {
        const State& s = g_.state();
        const std::string prompt = "draw " + std::to_string(s.to_move()) + " turn " + std::to_string(s.turn()) +
                                   " stack " + std::to_string(s.stack_left(s.to_move())) + " unseen " +
                                   std::to_string(s.unseen_total());
        out_ << prompt << std::endl;
        const int discards = s.discards();
        ask(prompt, [&](const std::string& line) { take_tile(line); });
        if (g_.state().discards() > discards) out_ << "discard " << last_tile_ << std::endl;
        continue;
      }
      advise_and_play();
    }
    const State& s = g_.state();
    out_ << "over result " << s.result() << " reason " << end_reason_id(s.end_reason()) << " scores"
         << numbers(s, &State::score) << std::endl;
  }

  int decisions = 0, followed = 0;

 private:
  // Reads lines until `take` accepts one (throws nothing); blank lines and # comments are
  // skipped. A rejected line: one line on stderr, then the prompt again (retry) or exit
  // status 2.
  template <class Take>
  void ask(const std::string& prompt, Take take) {
    std::string line;
    for (;;) {
      if (!std::getline(in_, line))
        throw UsageError("the input ended before the game was over (turn " + std::to_string(g_.state().turn()) +
                         ")");
      line = trimmed(line);
      if (line.empty() || line[0] == '#') continue;
      try {
        take(line);
        return;
      } catch (const std::invalid_argument& e) {
        if (!retry_) throw UsageError(e.what());
        std::cerr << "carcsolo advise: " << e.what() << std::endl;
        out_ << prompt << std::endl;
      }
    }
  }

  void take_tile(const std::string& line) {
    const int type = line.size() == 1 ? tile_type(char(std::toupper(static_cast<unsigned char>(line[0]))))
                                      : kNoType;
    if (type == kNoType)
      throw std::invalid_argument("'" + line + "' is no tile letter: the tile colour " +
                                  std::to_string(g_.state().to_move()) + " drew, one of A..X (rules.md)");
    g_.draw(type);
    last_tile_ = tile_name(type);
  }

  void advise_and_play() {
    const State& s = g_.state();
    const int type = g_.tile();
    ranked_ = advisor_.advise(s, type, g_.legal());
    listed_ = std::min<int>(k_, int(ranked_.size()));
    out_ << "tile " << tile_name(type) << " color " << s.to_move() << " legal " << g_.legal().size() << " moves "
         << listed_ << "\n";
    const std::ios_base::fmtflags flags = out_.flags();
    const std::streamsize precision = out_.precision();
    out_ << std::fixed << std::setprecision(2);
    for (int i = 0; i < listed_; ++i) {
      const MoveEstimate& e = ranked_[std::size_t(i)];
      out_ << "move " << i + 1 << " " << move_text(type, e.move) << " " << e.mean << " " << e.std_error << "\n";
    }
    out_.flags(flags);
    out_.precision(precision);
    out_ << "play" << std::endl;
    Move played = Move::none();
    ask("play", [&](const std::string& line) {
      played = parse_move(line, type);
      g_.play(played);
    });
    ++decisions;
    followed += move_key(type, played) == move_key(type, ranked_[0].move);
    if (g_.ordering()) g_.order({});  // several features completed: the scoring policy's order
    const State& after = g_.state();
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
    int x = 0, y = 0, rot = 0;
    if (!coordinate(parts[0], x) || !coordinate(parts[1], y) || !whole_number(parts[2]) ||
        (rot = std::stoi(parts[2])) > 3)
      throw std::invalid_argument("'" + line + "' is no move: a rank (1.." + std::to_string(listed_) +
                                  ") or x,y,rot[,meeple] such as 1,0,3,road:E,W");
    if (x < -kMaxTiles || x > kMaxTiles || y < -kMaxTiles || y > kMaxTiles)
      throw std::invalid_argument("(" + std::to_string(x) + ", " + std::to_string(y) + ", rot " +
                                  std::to_string(rot) + ") is no legal placement of tile " +
                                  std::string(1, tile_name(type)));
    Move m{Placement{std::uint16_t(cell_of(x, y)), std::int8_t(x), std::int8_t(y), std::uint8_t(rot)},
           Move::kNoMeeple};
    if (meeple.empty() || meeple == "-") {
      // Rejected by play() when a meeple is forced: name the free segments then.
      for (const Placement& p : g_.legal())
        if (p.x == x && p.y == y && p.rot == rot && g_.state().supply(g_.state().to_move()) > 0) {
          const std::uint8_t free = g_.state().free_segments(type, p);
          if (!free) break;
          std::string names;
          for (int seg = 0; seg < kMaxSegs; ++seg)
            if (free >> seg & 1) names += (names.empty() ? "" : " or ") + segment_name(type, rot, seg);
          throw std::invalid_argument("a meeple must go on a free segment of this placement: " + line + "," +
                                      names);
        }
      return m;
    }
    for (int seg = 0; seg < kBaseTiles[type].nseg; ++seg)
      if (segment_name(type, rot, seg) == meeple) {
        m.seg = std::uint8_t(seg);
        return m;
      }
    throw std::invalid_argument("meeple '" + meeple + "' is no segment of tile " + std::string(1, tile_name(type)) +
                                " turned " + std::to_string(rot));
  }

  SteppedGame& g_;
  Advisor& advisor_;
  int k_;
  bool retry_;
  std::istream& in_;
  std::ostream& out_;
  std::vector<MoveEstimate> ranked_;
  int listed_ = 0;
  char last_tile_ = '?';
};

}  // namespace

int cmd_advise(const Args& args) {
  std::string colors = "3", meeples = "4", analyser = "heuristic", scoring = "best", rollouts = "32",
              candidates = "8", seed = "1", k = "5", log;
  po::options_description d(
      "carcsolo advise: advice at the table. Say which tile the colour to move drew (its letter,\n"
      "A..X); the advisor lists the best moves of it, each valued as `carcsolo analyse` values\n"
      "moves (the game continued by the analysing player, the unseen tiles re-dealt at random);\n"
      "answer with the move played: its rank, or x,y,rot[,meeple]. Until the game is over. It\n"
      "knows the board and the tiles not yet seen, never the order of the stacks. The protocol,\n"
      "line by line, is in docs/advise.md. Bad input is one line on stderr, then the question\n"
      "again (--retry, the default on a terminal) or exit status 2.\n\n"
      "usage: carcsolo advise [options]   (then type tile letters and moves)\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("colors", po::value(&colors)->default_value(colors), "colours in play, 2..6 (the rules: 3)")
      ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour, 1..12 (the rules: 4)")
      ("analyser", po::value(&analyser)->default_value(analyser), "the analysing player: continues every rollout (a placement spec, see `carcsolo policies`)")
      ("scoring", po::value(&scoring)->default_value(scoring), "scoring order of the features a move completes (applied for you) and of the rollouts (a scoring spec)")
      ("rollouts", po::value(&rollouts)->default_value(rollouts), "continuations per move, 1..100000")
      ("candidates", po::value(&candidates)->default_value(candidates), "moves valued: the heuristic's K best (duplicates removed); 0: every legal move")
      ("seed", po::value(&seed)->default_value(seed), "seed of the advisor's re-deals (the advice is a function of the position and the options)")
      (",k", po::value(&k)->default_value(k), "moves listed, best first, 1..1000")
      ("log", po::value(&log), "write the game's log (docs/game-log.md) to FILE once it is over")
      ("retry", "on bad input, say so and ask again (the default when the input is a terminal)")
      ("quiet,q", "no `advise` header line");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: printf 'V\\n1\\n' | carcsolo advise --rollouts 8  (colour 0 drew a V; play the advice)\n";
    return 0;
  }
  const Config cfg{int(parse_count("colors", colors, kMinColors, kMaxColors)),
                   int(parse_count("meeples", meeples, kMinMeeples, kMaxMeeples))};
  AdviceOptions opt;
  try {
    opt.analyser = canonical_placement(analyser);
    opt.scoring = canonical_scoring(scoring);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  opt.rollouts = int(parse_count("rollouts", rollouts, 1, 100000));
  opt.candidates = int(parse_count("candidates", candidates, 0, kMaxMoves));
  opt.seed = parse_count("seed", seed, 0, UINT64_MAX);
  const int listed = int(parse_count("k", k, 1, 1000));
  const bool retry = vm.count("retry") || ::isatty(STDIN_FILENO);

  AtomicFile output;
  if (!log.empty()) output = open_output("log", log);
  SteppedGame game(SteppedGame::AtTheTable{}, cfg, opt.scoring, opt.seed);
  Advisor advisor(opt);
  if (!vm.count("quiet"))
    std::cout << "advise colors " << cfg.colors << " meeples " << cfg.meeples << " analyser "
              << short_placement_spec(opt.analyser) << " rollouts " << opt.rollouts << " candidates "
              << opt.candidates << " seed " << opt.seed << std::endl;
  Session session(game, advisor, listed, retry, std::cin, std::cout);
  session.play();
  if (output.is_open()) {
    nlohmann::json doc = game.log("advise");
    doc["advisor"] = {{"analyser", opt.analyser}, {"rollouts", opt.rollouts}, {"candidates", opt.candidates},
                      {"seed", opt.seed}, {"decisions", session.decisions}, {"followed", session.followed}};
    output.write(doc.dump() + "\n");
    output.commit();
  }
  return 0;
}

}  // namespace carc::sim
