// carcsolo analyse: every placement decision of game logs valued by Monte Carlo from what
// the player saw (sim/analysis/analysis.hpp); the document is docs/analysis-format.md.
// The logs are read and replayed in full before any analysis starts, so a bad log costs
// nothing but its one line (exit status 2).
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/heuristic/heuristic.hpp"
#include "policies/policy.hpp"
#include "sim/analysis/aggregate.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/analysis/log_file.hpp"
#include "sim/analysis/search_analysis.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/driver/matrix.hpp"

namespace carc::sim {
namespace {

// The options of both modes: with a LOG file (its games analysed) or without (the games
// played here, as `run` plays them). A few options mean what suits each mode (--help).
struct AnalyseOptions {
  std::string out, log, placement, analyser, scoring, rollouts = "32", candidates = "8", heldout = "32", seed, games, game, position,
      first_game = "0", colors = "3", meeples = "4", threads = std::to_string(default_threads()), largest = "5";
  std::string tileset = "base";
  std::string aim = "score";
  bool large_meeple = false;
  std::string value_net;
  void add_to(po::options_description& d);
};

struct AnalyseSetup {
  AnalysisOptions opt;
  std::string player;  // the analysing player's canonical spec
  RunConfig rc;        // without LOG: the games played (and the value net, the aim of both)
  bool played = false, by_search = false;
  int largest = 5;
};

void AnalyseOptions::add_to(po::options_description& d) {
  d.add_options()("help,h", "show this help")
      ("placement", po::value(&placement),
       "with LOG: the analysing player (as --analyser). Without: the player whose games are played and analysed "
       "(a placement spec, see `carcsolo policies`)")
      ("analyser", po::value(&analyser), "the analysing player (default search:rollouts=72, search with three times its rollouts): a `search` spec values each decision by its own search "
       "(the played move on every re-deal search's choice saw, paired); any other player continues every rollout to the game's end")
      ("scoring", po::value(&scoring),
       "with LOG: scoring order of the rollouts, `log` (default: the log's when this program has it, else best) or a "
       "scoring spec. Without: the games' scoring policy (default random, as run), which the rollouts use too")
      ("rollouts", po::value(&rollouts), "with a rollout analyser: continuations per move, 1..100000 (default 32)")
      ("candidates", po::value(&candidates), "with a rollout analyser: moves analysed per decision, the heuristic's K best (duplicates removed), the move played and the analysing player's own; 0: every legal move (default 8)")
      ("heldout", po::value(&heldout), "with a search analyser: fresh re-deals on which search's choice and the move played are measured again, 0..100000 (default 32; 0: none)")
      ("seed", po::value(&seed),
       "with LOG: seed of the re-deals (default 1). Without: the games' seed (as run; default 1), also the re-deals'. "
       "The analysis is a function of the games and the options")
      ("games", po::value(&games), "with LOG: analyse the first N games of the file (default: all; at most as many as it holds). Without: games played (default 10)")
      ("game", po::value(&game), "with LOG: analyse only the game whose log says \"game\": G (as replay --from --game G)")
      ("position", po::value(&position), "with LOG: analyse only the game at position P of the file, from 0")
      ("first-game", po::value(&first_game), "without LOG: the first game's index (as run; default 0)")
      ("colors", po::value(&colors), "without LOG: colours in play, 2..6 (default 3)")
      ("meeples", po::value(&meeples), "without LOG: meeples per colour, 1..12 (default 4)")
      ("tileset", po::value(&tileset), "without LOG: the tile set (base, base+inns, base+river, base+inns+river or a file; default base). A LOG's games say their own")
      ("large-meeple", po::bool_switch(&large_meeple), "without LOG: each colour also has the large meeple")
      ("aim", po::value(&aim)->default_value(aim), "what the search analyser values moves by: score (points), a goal id (the goal's chance: a decision's loss is in probability) or goals (docs/aim.md); without LOG the player plays for it too")
      ("log", po::value(&log), "without LOG: also write the games played (carcassonne-solo-log/1, JSON Lines) to FILE")
      ("threads", po::value(&threads)->default_value(threads), "with LOG: threads over the decisions of a game; without: over the games (the analysis does not depend on it)")
      ("out", po::value(&out), "write the analysis (JSON) to FILE")
      ("largest", po::value(&largest)->default_value(largest), "mistakes listed in the summary (and the document's aggregate), 0..1000")
      ("quiet,q", "no summary on stdout");
  add_value_net_option(d, value_net);
}

// The options resolved: the analysis, its player, the games played (without LOG) and
// the checks of both modes.
AnalyseSetup resolve(const AnalyseOptions& o, const po::variables_map& vm, const std::vector<std::string>& files) {
  AnalyseSetup a;
  AnalysisOptions& opt = a.opt;
  std::string& player = a.player;
  RunConfig& rc = a.rc;
  if (files.size() > 1)
    throw UsageError("analyse takes one log file (got " + std::to_string(files.size()) + ": " + files[0] +
                     ", " + files[1] + (files.size() > 2 ? ", ..." : "") + ")");
  const bool played = a.played = files.empty();
  if (played && !vm.count("placement"))
    throw UsageError("analyse needs a log file (carcsolo analyse LOG.jsonl) or a player whose games to play "
                     "(carcsolo analyse --placement P --games N)");
  if (!played && vm.count("placement") && vm.count("analyser"))
    throw UsageError("with a log file --placement names the analysing player: give --placement or --analyser, not both");
  select_value_net(o.value_net, rc);
  select_aim(o.aim, rc);
  opt.context = rc.context;
  try {
    player = canonical_placement(!o.analyser.empty() ? o.analyser : !played && !o.placement.empty() ? o.placement : kAnalysisSearch);
    if (!played && !o.scoring.empty() && o.scoring != "log") opt.scoring = canonical_scoring(o.scoring);
    if (played) {
      rc.placement_policy = canonical_placement(o.placement);
      rc.scoring_policy = canonical_scoring(o.scoring.empty() ? "random" : o.scoring);
    }
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  opt.placement = player;
  const bool by_search = a.by_search = is_search_spec(player);
  if (!rc.context.aim.is_score()) {
    if (!by_search) throw UsageError("--aim needs a search analyser (its rollouts value moves by the aim; got " + player + ")");
    try {
      (void)make_placement_policy(player, rc.context);
      if (played) (void)make_placement_policy(rc.placement_policy, rc.context);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  refuse_rollout_options(vm, player);
  if (!by_search && vm.count("heldout"))
    throw UsageError("--heldout is for a search analyser (the default); a rollout analyser holds out half its rollouts");
  opt.rollouts = int(parse_count("rollouts", o.rollouts, 1, 100000));
  opt.candidates = int(parse_count("candidates", o.candidates, 0, kMaxMoves));
  opt.heldout = int(parse_count("heldout", o.heldout, 0, 100000));
  opt.seed = o.seed.empty() ? 1 : parse_count("seed", o.seed, 0, UINT64_MAX);
  opt.threads = int(parse_count("threads", o.threads, 1, 1024));
  a.largest = int(parse_count("largest", o.largest, 0, 1000));
  if (played) {
    for (const char* name : {"game", "position"})
      if (vm.count(name))
        throw UsageError(std::string("--") + name + " is for a log file; without one give --first-game and --games");
    rc.colors = int(parse_count("colors", o.colors, kMinColors, kMaxColors));
    rc.meeples = int(parse_count("meeples", o.meeples, kMinMeeples, kMaxMeeples));
    select_tileset(o.tileset, o.large_meeple, rc);
    rc.seed = opt.seed;
    rc.first_game = parse_count("first-game", o.first_game, 0, UINT64_MAX / 2);
    rc.games = vm.count("games") ? parse_count("games", o.games, 1, 1000000) : 10;
    check_game_range(rc.first_game, rc.games);
    if (!o.out.empty() && !o.log.empty() && same_path(o.out, o.log))
      throw UsageError("--out and --log must name different files (both are '" + o.out + "')");
  }
  return a;
}



// The games of the LOG file analysed one after another (threads over each game's
// decisions), until opt.stop: then the games finished so far. `selected` receives how
// many games were to be analysed.
std::vector<GameAnalysis> analyse_file(const std::string& file, const po::variables_map& vm,
                                       const AnalyseOptions& o, const AnalysisOptions& opt, std::size_t& selected) {
  for (const char* name : {"first-game", "colors", "meeples", "log", "tileset", "large-meeple"})
    if (vm.count(name) && !vm[name].defaulted() && !(std::string(name) == "large-meeple" && !o.large_meeple))
      throw UsageError(std::string("--") + name + " is for analysing played games (without a LOG file)");
  std::string given;
  for (const char* name : {"games", "game", "position"})
    if (vm.count(name)) given += (given.empty() ? "--" : " and --") + std::string(name);
  if (given.find(" and ") != std::string::npos)
    throw UsageError("give one of --games, --game and --position (got " + given + ")");
  LogSelection selection;
  if (vm.count("games")) selection.games = parse_count("games", o.games, 1, UINT64_MAX / 2);
  if (vm.count("position")) selection.position = parse_count("position", o.position, 0, UINT64_MAX / 2);
  if (vm.count("game")) selection.game = parse_count("game", o.game, 0, UINT64_MAX / 2);
  const std::vector<LogDocument> docs = select_logs(read_game_logs(file), file, selection);
  check_logs(docs, file);
  selected = docs.size();
  return analyse_logs(docs, opt);
}

// The summary: what was analysed (the file, or the games played) by which player, then the
// analysis's own summary and, over several games, the aggregate's.
std::string analyse_summary(const AnalyseSetup& a, const std::vector<GameAnalysis>& results, const std::string& file,
                            const std::string& out, bool partial) {
  const AnalysisOptions& opt = a.opt;
  const RunConfig& rc = a.rc;
  const bool played = a.played;
  std::ostringstream summary;
  summary << "carcsolo analyse: "
          << (played ? short_placement_spec(rc.placement_policy) + " (scoring " + short_scoring_spec(rc.scoring_policy) +
                           ", " + std::to_string(rc.colors) + " colours x " + std::to_string(rc.meeples) +
                           " meeples, seed " + std::to_string(rc.seed) + ", games " + std::to_string(rc.first_game) +
                           ".." + std::to_string(rc.first_game + rc.games - 1) + ")"
                     : file)
          << ", player " << short_placement_spec(a.player) << ", "
          << (a.by_search ? "search's own valuation, " + std::to_string(opt.heldout) + " held-out re-deals"
                        : std::to_string(opt.rollouts) + " rollouts x " +
                              (opt.candidates ? std::to_string(opt.candidates) : std::string("all")) + " moves")
          << ", seed " << opt.seed
          << (out.empty() ? "" : " -> " + out) << (partial ? "  (interrupted: partial)" : "") << "\n"
          << analysis_summary(results, a.largest, opt.context.aim);
  if (results.size() > 1) summary << aggregate_summary(results, a.largest);
  return summary.str();
}

}  // namespace

int cmd_analyse(const Args& args, const ProgramInfo& program) { return cmd_analyse(args, program, nullptr); }

int cmd_analyse(const Args& args, const ProgramInfo& program, Embedding* embed) {
  std::vector<std::string> files;
  AnalyseOptions o;
  po::options_description d(
      "carcsolo analyse: every placement decision of games valued by Monte Carlo from what the\n"
      "player saw: each legal move analysed is played on a copy of the position, the unseen\n"
      "tiles re-dealt at random into stacks of the sizes left, and the game continued to its\n"
      "end by the analysing player (the same re-deals for every move of a decision). Prints the\n"
      "total expected loss against the best moves, the largest mistakes and the loss by stage\n"
      "and by meeple; over several games also the means per game and per decision with 95% CIs\n"
      "(the games are the units) and the costliest situations; --out writes every decision\n"
      "(carcassonne-solo-analysis/1, docs/analysis-format.md; usage: docs/analyse.md).\n\n"
      "usage: carcsolo analyse LOG.jsonl [options]     the games of a log file (any player)\n"
      "       carcsolo analyse --placement P --games N [--seed S --scoring O --colors C --meeples M]\n"
      "                                                 P's games, played as `run` plays them\n\nOptions");
  o.add_to(d);
  const auto vm = parse_with_files(d, args, files);
  if (vm.count("help")) {
    std::cout << d << "\nExamples: carcsolo run --games 10 --placement heuristic --scoring best --log games.jsonl"
                      " && carcsolo analyse games.jsonl --game 3 --out analysis.json\n"
                      "          carcsolo analyse --placement heuristic --scoring best --games 50 --seed 4242 --out a.json\n";
    return 0;
  }
  AnalyseSetup a = resolve(o, vm, files);
  AnalysisOptions& opt = a.opt;
  RunConfig& rc = a.rc;
  const bool played = a.played;

  AtomicFile output, log_file;
  if (!o.out.empty()) output = open_output("out", o.out);
  if (!o.log.empty()) log_file = open_output("log", o.log);
  // Ctrl-C from here on: the games analysed so far are kept (not in a host program, whose
  // own signal handling stays).
  opt.stop = &g_stop;
  if (!embed) install_stop_handlers();
  std::vector<nlohmann::json> logs;
  std::size_t selected = rc.games;
  const std::vector<GameAnalysis> results =
      played ? analyse_played_games(rc, opt, log_file.is_open() ? &logs : nullptr)
             : analyse_file(files[0], vm, o, opt, selected);
  const bool partial = results.size() < selected;
  const std::string done = std::to_string(results.size()) + " of " + games_text(selected);
  if (partial && results.empty()) {  // nothing to keep: no file at all
    if (embed) return 130;
    restore_default_handlers();
    return report_interrupted("analyse", done, "");
  }

  const bool document = output.is_open() || embed;
  if (document) {
    nlohmann::ordered_json j = analysis_document(results, opt, a.player, rc, played, a.largest, partial, program);
    if (output.is_open()) {
      output.write(j.dump(1) + "\n");
      output.commit();
    }
    if (embed) embed->document = nlohmann::json::parse(j.dump());
  }
  if (log_file.is_open()) {
    for (const auto& l : logs) log_file.write(l.dump() + "\n");
    log_file.commit();
  }
  if (!embed) restore_default_handlers();
  if (played) rc.games = results.size();  // the range analysed, for the summary
  const std::string summary = analyse_summary(a, results, played ? "" : files[0], o.out, partial);
  if (embed) embed->summary = summary;
  else if (!vm.count("quiet")) std::cout << summary;
  if (partial) {
    if (embed) return 130;
    std::string written = o.out;
    if (!o.log.empty()) written += (written.empty() ? "" : " and ") + o.log;
    return report_interrupted("analyse", done, written);
  }
  return 0;
}

}  // namespace carc::sim
