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

#include <csignal>
#include <iostream>
#include <string>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/analysis/advice.hpp"
#include "sim/cli/cli.hpp"
#include "sim/serve/line_session.hpp"
#include "sim/serve/table_game.hpp"

namespace carc::sim {
namespace {

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

}  // namespace

int cmd_advise(const Args& args, const ProgramInfo& /*program: writes no results file*/) {
  std::string colors = "3", meeples = "4", k = "5", log, value_net, aim = "score";
  AdvisorOptions a;
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
      ("meeples", po::value(&meeples)->default_value(meeples), "meeples per colour, 1..12 (the rules: 4)");
  a.add_to(d, "tile set: base, base+inns, base+river, base+inns+river (expansions.md) or a tile-set file (docs/tileset-format.md); the tiles are then named as there (I1..I17, R0..R9)",
           "each colour also has the Inns & Cathedrals large meeple; a move places it as x,y,rot,large SEGMENT");
  d.add_options()
      ("aim", po::value(&aim)->default_value(aim), "what the advice plays for: score, a goal id (moves valued by the goal's chance) or goals (docs/aim.md); needs a search analyser")
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
  select_aim(aim, rc);
  const AdviceOptions opt = a.resolve(vm, rc);
  const Config cfg = rc.game_config();
  const bool by_search = is_search_spec(opt.analyser);
  const int listed = int(parse_count("k", k, 1, 1000));
  const bool retry = vm.count("retry") || ::isatty(STDIN_FILENO);

  AtomicFile output;
  if (!log.empty()) output = open_output("log", log);
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
  LineSession session(table, listed, retry, std::cin, std::cout, std::cerr, &g_signalled);
  const LineSession::End end = session.play();
  const SteppedGame& game = session.game();
  const int turns = game.state().turn();
  // Where the game so far went: the tail of the one line a game stopped early gets.
  std::string kept = "no --log, nothing written";
  const bool logged = output.is_open();
  if (logged) {
    output.write(table.log().dump() + "\n");  // with its advisor block, as the table page's
    output.commit();
    if (end != LineSession::End::over) kept = "the game so far (unfinished) written to " + log;
  }
  switch (end) {
    case LineSession::End::over:
      return 0;
    case LineSession::End::quit:
      std::cout << "quit after " << turns << (turns == 1 ? " turn; " : " turns; ") << kept << std::endl;
      return 0;
    case LineSession::End::interrupted:
      std::cout.flush();
      std::cerr << "carcsolo advise: interrupted after " << turns << (turns == 1 ? " turn; " : " turns; ") << kept
                << std::endl;
      return 130;
    case LineSession::End::input_ended:
      throw UsageError("the input ended before the game was over (turn " + std::to_string(turns) + ")" +
                       (logged ? "; " + kept : std::string()));
    case LineSession::End::refused:
      break;
  }
  throw UsageError(session.refusal() + (logged ? "; " + kept : std::string()));
}

}  // namespace carc::sim
