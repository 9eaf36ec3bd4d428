// carcsolo positions: training data for a learned value. Seeded games under any policies,
// one row per decision: its afterstate's features and the game's outcome
// (sim/driver/positions.hpp; the file is docs/positions-format.md, its header line
// sim/driver/positions_file.hpp).
#include <cstdio>
#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/errors.hpp"
#include "sim/driver/mpi.hpp"
#include "sim/driver/positions.hpp"
#include "sim/driver/positions_file.hpp"
#include "sim/log/io.hpp"

namespace carc::sim {

int cmd_positions(const Args& args, const ProgramInfo& program) {
  GameOptions g;
  RangeOptions range("1000", UINT64_MAX / 2);
  std::string out;
  po::options_description d(
      "carcsolo positions: play seeded games and write every decision's afterstate features "
      "with the game's outcome (training data; docs/positions-format.md)\n\nOptions");
  d.add_options()("help,h", "show this help");
  range.add_to(d, "number of games, >= 1");
  g.add_to(d);
  d.add_options()
      ("board", "also the board block's 35 feature columns (the learned value's second feature set) and the targets root_value, the placement policy's own value of its move (search's rollouts' mean; NaN when it has none), and chosen (1)")
      ("candidates", "with --board: after each decision's row, a row for every other move the placement policy valued (search's beam): that move's afterstate, its value as root_value, chosen 0")
      ("mix", "draw each game's colours and meeples from (seed, game): half the games 3 x 4 (the rules), the rest uniform over 2..6 colours x 1..12 meeples (not with --colors or --meeples)")
      ("out", po::value(&out), "write the positions (carcassonne-solo-positions/1) to FILE (required)")
      ("quiet,q", "no summary on stdout");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo positions --games 10000 --mix --placement heuristic "
                      "--scoring best --out positions.bin\n";
    return 0;
  }
  const bool mix = vm.count("mix") > 0;
  if (mix && (!vm["colors"].defaulted() || !vm["meeples"].defaulted()))
    throw UsageError("--mix draws each game's colours and meeples: give neither --colors nor --meeples with it");
  if (out.empty()) throw UsageError("--out FILE is required (where the positions go)");
  const RunConfig rc = g.resolve();
  PositionsRequest req;
  req.seed = rc.seed;
  req.first_game = range.first_game();
  req.games = range.game_count(1);
  if (mix && !rc.base_game())
    throw UsageError("--mix draws base games' colours and meeples: give it without --tileset and --large-meeple");
  req.config = rc.game_config();
  req.mix = mix;
  req.layout.board = vm.count("board") > 0;
  req.layout.candidates = vm.count("candidates") > 0;
  if (req.layout.candidates && !req.layout.board) throw UsageError("--candidates needs --board (its rows' columns)");
  req.placement = rc.placement_policy;
  req.scoring = rc.scoring_policy;
  req.context = rc.context;
  req.threads = range.thread_count();
  req.stop = &g_stop;

  const bool writer = writes_output();
  AtomicFile file;  // opened now: a bad path fails before the work
  const std::size_t room = positions_header_room(req, rc, program);
  if (writer) {
    file = open_output("out", out);
    file.write(positions_header_line(positions_header(req, rc, program, 0, 0, true), room));
  }
  install_stop_handlers();
  const PositionsOutcome r = play_positions(req, [&](const unsigned char* bytes, std::size_t n) {
    file.write(bytes, n);
  });
  if (!writer) return r.partial ? 130 : 0;
  file.overwrite(0, positions_header_line(positions_header(req, rc, program, r.games_done, r.rows, r.partial), room));
  file.commit();
  restore_default_handlers();
  if (!vm.count("quiet")) {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.0f", r.seconds > 0 ? double(r.rows) / r.seconds : 0.0);
    std::cout << "carcsolo positions: " << short_placement_spec(rc.placement_policy) << " / "
              << short_scoring_spec(rc.scoring_policy) << ", "
              << (mix ? std::string("mixed colours and meeples")
                      : std::to_string(rc.colors) + " colours x " + std::to_string(rc.meeples) + " meeples")
              << ", seed " << rc.seed << (r.partial ? "  (interrupted: partial)" : "") << "\n"
              << r.rows << " positions from " << r.games_done << " games, " << rate
              << " positions/s on " << req.threads << " thread(s)"
              << (processes::count() > 1 ? " x " + std::to_string(processes::count()) + " processes" : "")
              << " -> " << out << "\n";
  }
  if (r.partial)
    return report_interrupted("positions", std::to_string(r.games_done) + " of " +
                                               std::to_string(req.games) + " games", out);
  return 0;
}

}  // namespace carc::sim
