// carcsolo replay: one game's log.
#include <unistd.h>

#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"
#include "sim/driver/game.hpp"
#include "sim/log/board_view.hpp"
#include "sim/log/io.hpp"
#include "sim/cli/pictures.hpp"

namespace carc::sim {

int cmd_replay(const Args& args, const ProgramInfo& /*program: writes no results file*/) {
  GameOptions g;
  std::string game = "0", out, from, deal_path;
  PictureOptions pictures;
  po::options_description d("carcsolo replay: print one game's log (carcassonne-solo-log/1)\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("game", po::value(&game)->default_value(game), "game index within the seed (with --deal: of the policies' streams)");
  g.add_to(d);
  d.add_options()("deal", po::value(&deal_path),
                  "play this deal of the set (as run --deal: one line per colour of tile names, top first, then with the river "
                  "a line 'river' and the river stack's names) instead of "
                  "the seed's; --seed and --game still seed the policies");
  d.add_options()("out", po::value(&out), "write the log to FILE instead of stdout");
  pictures.add_to(d);
  d.add_options()("from", po::value(&from),
                  "take the game log from FILE (one log, or JSON lines from `run --log`: the game given by --game, "
                  "else the first) instead of playing the game")
      ("quiet,q", "do not name the game and its policies on stderr");
  const auto vm = parse(d, args);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo replay --seed 1 --game 17 --placement heuristic\n"
                      "Play the game with the policies (and --deal) of the run it came from: `run` prints the command.\n"
                      "The log goes to stdout unless --out, --svg, --png or --html is given.\n";
    return 0;
  }
  if (vm.count("deal") && vm.count("from"))
    throw UsageError("--deal and --from exclude each other (--from reads a game that was played)");
  Stacks deal{};
  if (vm.count("deal")) {
    deal = read_deal_option(deal_path, vm, g);
  }
  const RunConfig rc = g.resolve();
  const GameSpec spec{rc.game_config(), rc.seed,
                      parse_count("game", game, 0, UINT64_MAX / 2), vm.count("deal") ? &deal : nullptr};
  AtomicFile out_file;
  if (!out.empty()) out_file = open_output("out", out);
  PictureWriter picture_writer(pictures);
  auto placement = make_placement_policy(rc.placement_policy, rc.context);
  auto scoring = make_scoring_policy(rc.scoring_policy);
  nlohmann::json log =
      !from.empty() ? read_log_file(from, vm["game"].defaulted() ? std::nullopt : std::optional(spec.game))
                    : play_logged_game(spec, *placement, *scoring, rc.placement_policy, rc.scoring_policy);
  if (from.empty() && !rc.context.aim.is_score()) log["config"]["aim"] = rc.context.aim.id();  // what the player played for
  // A log read from a file is checked by rebuilding its board (the pictures need the board
  // anyway): one line and exit 2 for a log that does not hold together.
  if (!from.empty()) (void)rebuild_board(log);
  // Which game with which policies: a replay of the wrong policies is a different game, so
  // it is said every time (stderr: the log on stdout stays clean).
  if (!vm.count("quiet")) {
    const nlohmann::json& c = log.value("config", nlohmann::json::object());
    std::cerr << "carcsolo replay: " << (from.empty() ? "" : from + ": ")
              << (deal_path.empty() ? "" : "deal " + deal_path + ", ") << "seed "
              << log.value("seed", nlohmann::json()).dump() << ", game " << log.value("game", nlohmann::json()).dump()
              << ", " << c.value("colors", 0) << " colours x " << c.value("meeples", 0) << " meeples, placement "
              << short_placement_spec(c.value("placement_policy", std::string("?"))) << ", scoring "
              << short_scoring_spec(c.value("scoring_policy", std::string("?")))
              << "\n";
  }
  const std::string text = log.dump(2) + "\n";
  if (out_file.is_open()) {
    out_file.write(text);
    out_file.commit();
  } else if (!pictures.any()) {
    std::cout << text;
  }
  // Analysing the game for the page takes a while: Ctrl-C stops it, and the page is not
  // written (the log and the board pictures are).
  if (pictures.analyse) install_stop_handlers();
  const bool page_written = picture_writer.write(log);
  if (pictures.analyse) restore_default_handlers();
  if (!page_written) {
    std::cerr << "carcsolo replay: interrupted while analysing the game for the page; " << pictures.html
              << " not written\n";
    return 130;
  }
  return 0;
}

}  // namespace carc::sim
