// carcsolo analyse: every placement decision of game logs valued by Monte Carlo from what
// the player saw (sim/analysis/analysis.hpp); the document is docs/analysis-format.md.
// The logs are read and replayed in full before any analysis starts, so a bad log costs
// nothing but its one line (exit status 2).
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/heuristic/heuristic.hpp"
#include "policies/policy.hpp"
#include "sim/analysis/aggregate.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/analysis/search_analysis.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/log/verify.hpp"

namespace carc::sim {
namespace {

struct Document {
  nlohmann::json doc;
  long line;
  std::uint64_t index;
};

std::vector<Document> read_logs(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) throw UsageError("cannot read " + file + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw UsageError("cannot read " + file + ": Is a directory");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot read " + file + ": " + std::strerror(errno));
  LogReader reader(in);
  std::vector<Document> docs;
  for (;;) {
    Document d{};
    try {
      if (!reader.next(d.doc, d.line)) break;
    } catch (const std::runtime_error& e) {
      throw UsageError(file + ":" + std::to_string(d.line) + ": " + e.what());
    }
    d.index = docs.size();
    docs.push_back(std::move(d));
  }
  if (in.bad()) throw UsageError("cannot read " + file + ": read error");
  if (docs.empty()) throw UsageError(file + ": no game log in it");
  return docs;
}

std::string where(const std::string& file, const Document& d) {
  auto id = [&](const char* key) {
    const auto it = d.doc.is_object() ? d.doc.find(key) : d.doc.end();
    return it == d.doc.end() || !it->is_number_integer() ? std::string("?") : it->dump();
  };
  return file + ":" + std::to_string(d.line) + ": game " + id("game") + " (seed " + id("seed") + ")";
}

}  // namespace

namespace {

// The options of both modes: with a LOG file (its games analysed) or without (the games
// played here, as `run` plays them). A few options mean what suits each mode (--help).
struct AnalyseOptions {
  std::string out, log, placement, analyser, scoring, rollouts = "32", candidates = "8", heldout = "32", seed, games, game, position,
      first_game = "0", colors = "3", meeples = "4", threads = std::to_string(default_threads()), largest = "5";
  std::string tileset = "base";
  std::string aim = "score";
  bool large_meeple = false;
};

std::string games_text(std::size_t n) { return std::to_string(n) + (n == 1 ? " game" : " games"); }

std::uint64_t log_game(const Document& d) {
  const auto it = d.doc.is_object() ? d.doc.find("game") : d.doc.end();
  return it != d.doc.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : UINT64_MAX;
}

// What an analysis over several games must not mix: colours, meeples and the player.
std::string configuration(const nlohmann::json& log) {
  const nlohmann::json& c = log.value("config", nlohmann::json::object());
  return c.value("colors", nlohmann::json()).dump() + " colours x " + c.value("meeples", nlohmann::json()).dump() +
         " meeples, placement " + short_placement_spec(c.value("placement_policy", std::string("?")));
}

// The documents --games, --game or --position select (the whole file without them).
std::vector<Document> select_games(std::vector<Document> docs, const std::string& file, const po::variables_map& vm,
                                   const AnalyseOptions& o) {
  std::string given;
  for (const char* name : {"games", "game", "position"})
    if (vm.count(name)) given += (given.empty() ? "--" : " and --") + std::string(name);
  if (given.find(" and ") != std::string::npos)
    throw UsageError("give one of --games, --game and --position (got " + given + ")");
  const std::size_t n = docs.size();
  if (vm.count("games")) {
    const std::uint64_t count = parse_count("games", o.games, 1, UINT64_MAX / 2);
    if (count > n)
      throw UsageError("--games " + o.games + ": " + file + " holds " + games_text(n) +
                       (n == 1 ? "" : " (give --games " + std::to_string(n) + " or less)"));
    docs.resize(std::size_t(count));
  } else if (vm.count("position")) {
    const std::uint64_t at = parse_count("position", o.position, 0, UINT64_MAX / 2);
    if (at >= n)
      throw UsageError("--position " + o.position + ": " + file + " holds " + games_text(n) + " (positions 0.." +
                       std::to_string(n - 1) + ")");
    docs = {std::move(docs[std::size_t(at)])};
  } else if (vm.count("game")) {
    // As replay --from: the game whose log says "game": G.
    const std::uint64_t g = parse_count("game", o.game, 0, UINT64_MAX / 2);
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < n; ++i)
      if (log_game(docs[i]) == g) found.push_back(i);
    if (found.empty())
      throw UsageError("--game " + o.game + ": " + file + " holds no game " + o.game + " (" + games_text(n) +
                       "; --position P picks one by its place in the file, from 0)");
    if (found.size() > 1)
      throw UsageError("--game " + o.game + ": " + file + " holds game " + o.game + " " +
                       std::to_string(found.size()) + " times (positions " + std::to_string(found[0]) + " and " +
                       std::to_string(found[1]) + ": seeds " + docs[found[0]].doc.value("seed", nlohmann::json()).dump() +
                       " and " + docs[found[1]].doc.value("seed", nlohmann::json()).dump() +
                       "); pick one with --position P");
    docs = {std::move(docs[found[0]])};
  }
  return docs;
}

// The games of the LOG file analysed one after another (threads over each game's
// decisions), until opt.stop: then the games finished so far. `selected` receives how
// many games were to be analysed.
std::vector<GameAnalysis> analyse_file(const std::string& file, const po::variables_map& vm,
                                       const AnalyseOptions& o, const AnalysisOptions& opt, std::size_t& selected) {
  for (const char* name : {"first-game", "colors", "meeples", "log", "tileset", "large-meeple"})
    if (vm.count(name) && !vm[name].defaulted() && !(std::string(name) == "large-meeple" && !o.large_meeple))
      throw UsageError(std::string("--") + name + " is for analysing played games (without a LOG file)");
  const std::vector<Document> docs = select_games(read_logs(file), file, vm, o);
  // Every log replayed before the work starts.
  for (const auto& doc : docs) {
    std::optional<Inconsistency> bad;
    try {
      bad = verify_game_log(doc.doc);
    } catch (const std::runtime_error& e) {
      throw UsageError(file + ":" + std::to_string(doc.line) + ": " + e.what());
    }
    if (bad) throw UsageError(where(file, doc) + ": not a consistent game log: " + bad->message());
  }
  // One configuration: the aggregate over games is a mean over one player's games of one
  // size of game.
  for (const auto& doc : docs)
    if (configuration(doc.doc) != configuration(docs[0].doc))
      throw UsageError(file + " mixes configurations: position " + std::to_string(docs[0].index) + " is " +
                       configuration(docs[0].doc) + ", position " + std::to_string(doc.index) + " is " +
                       configuration(doc.doc) + "; analyse one at a time (--position P, --games N)");
  selected = docs.size();
  std::vector<GameAnalysis> results;
  for (const auto& doc : docs) {
    if (opt.stopped()) break;
    GameAnalysis g = analyse_game(doc.doc, doc.index, opt);
    if (!g.complete) break;
    results.push_back(std::move(g));
  }
  return results;
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
  d.add_options()("help,h", "show this help")
      ("placement", po::value(&o.placement),
       "with LOG: the analysing player (as --analyser). Without: the player whose games are played and analysed "
       "(a placement spec, see `carcsolo policies`)")
      ("analyser", po::value(&o.analyser), "the analysing player (default search:rollouts=72, search with three times its rollouts): a `search` spec values each decision by its own search "
       "(the played move on every re-deal search's choice saw, paired); any other player continues every rollout to the game's end")
      ("scoring", po::value(&o.scoring),
       "with LOG: scoring order of the rollouts, `log` (default: the log's when this program has it, else best) or a "
       "scoring spec. Without: the games' scoring policy (default random, as run), which the rollouts use too")
      ("rollouts", po::value(&o.rollouts), "with a rollout analyser: continuations per move, 1..100000 (default 32)")
      ("candidates", po::value(&o.candidates), "with a rollout analyser: moves analysed per decision, the heuristic's K best (duplicates removed), the move played and the analysing player's own; 0: every legal move (default 8)")
      ("heldout", po::value(&o.heldout), "with a search analyser: fresh re-deals on which search's choice and the move played are measured again, 0..100000 (default 32; 0: none)")
      ("seed", po::value(&o.seed),
       "with LOG: seed of the re-deals (default 1). Without: the games' seed (as run; default 1), also the re-deals'. "
       "The analysis is a function of the games and the options")
      ("games", po::value(&o.games), "with LOG: analyse the first N games of the file (default: all; at most as many as it holds). Without: games played (default 10)")
      ("game", po::value(&o.game), "with LOG: analyse only the game whose log says \"game\": G (as replay --from --game G)")
      ("position", po::value(&o.position), "with LOG: analyse only the game at position P of the file, from 0")
      ("first-game", po::value(&o.first_game), "without LOG: the first game's index (as run; default 0)")
      ("colors", po::value(&o.colors), "without LOG: colours in play, 2..6 (default 3)")
      ("meeples", po::value(&o.meeples), "without LOG: meeples per colour, 1..12 (default 4)")
      ("tileset", po::value(&o.tileset), "without LOG: the tile set (base, base+inns, base+river, base+inns+river or a file; default base). A LOG's games say their own")
      ("large-meeple", po::bool_switch(&o.large_meeple), "without LOG: each colour also has the large meeple")
      ("aim", po::value(&o.aim)->default_value(o.aim), "what the search analyser values moves by: score (points), a goal id (the goal's chance: a decision's loss is in probability) or goals (docs/aim.md); without LOG the player plays for it too")
      ("log", po::value(&o.log), "without LOG: also write the games played (carcassonne-solo-log/1, JSON Lines) to FILE")
      ("threads", po::value(&o.threads)->default_value(o.threads), "with LOG: threads over the decisions of a game; without: over the games (the analysis does not depend on it)")
      ("out", po::value(&o.out), "write the analysis (JSON) to FILE")
      ("largest", po::value(&o.largest)->default_value(o.largest), "mistakes listed in the summary (and the document's aggregate), 0..1000")
      ("quiet,q", "no summary on stdout");
  std::string value_net;
  add_value_net_option(d, value_net);
  const auto vm = parse_with_files(d, args, files);
  if (vm.count("help")) {
    std::cout << d << "\nExamples: carcsolo run --games 10 --placement heuristic --scoring best --log games.jsonl"
                      " && carcsolo analyse games.jsonl --game 3 --out analysis.json\n"
                      "          carcsolo analyse --placement heuristic --scoring best --games 50 --seed 4242 --out a.json\n";
    return 0;
  }
  if (files.size() > 1)
    throw UsageError("analyse takes one log file (got " + std::to_string(files.size()) + ": " + files[0] +
                     ", " + files[1] + (files.size() > 2 ? ", ..." : "") + ")");
  const bool played = files.empty();
  if (played && !vm.count("placement"))
    throw UsageError("analyse needs a log file (carcsolo analyse LOG.jsonl) or a player whose games to play "
                     "(carcsolo analyse --placement P --games N)");
  if (!played && vm.count("placement") && vm.count("analyser"))
    throw UsageError("with a log file --placement names the analysing player: give --placement or --analyser, not both");
  AnalysisOptions opt;
  std::string player;
  RunConfig rc;
  select_value_net(value_net, rc);
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
  const bool by_search = is_search_spec(player);
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
  const int n_largest = int(parse_count("largest", o.largest, 0, 1000));
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
    nlohmann::ordered_json j = analysis_json(results, opt, player);
    if (partial) j["partial"] = true;
    if (played)
      j["config"]["games_played"] = {{"placement", rc.placement_policy}, {"scoring", rc.scoring_policy},
                                     {"colors", rc.colors},          {"meeples", rc.meeples},
                                     {"seed", rc.seed},              {"first_game", rc.first_game},
                                     {"games", results.size()}};
    if (played && !rc.base_game()) {  // the expansions (a base game's analysis as before them)
      j["config"]["games_played"]["tileset"] = rc.rules().name();
      j["config"]["games_played"]["large_meeple"] = rc.rules().large_meeple();
    }
    nlohmann::ordered_json games = std::move(j["games"]);
    j.erase("games");
    j["aggregate"] = aggregate_json(results, n_largest);
    j["games"] = std::move(games);
    j["program"] = nlohmann::ordered_json::parse(program_json(program).dump());
    j["value_net"] = {{"hash", rc.value_net_hash}, {"source", rc.value_net_source}};
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
  std::ostringstream summary;
  summary << "carcsolo analyse: "
          << (played ? short_placement_spec(rc.placement_policy) + " (scoring " + short_scoring_spec(rc.scoring_policy) +
                           ", " + std::to_string(rc.colors) + " colours x " + std::to_string(rc.meeples) +
                           " meeples, seed " + std::to_string(rc.seed) + ", games " + std::to_string(rc.first_game) +
                           ".." + std::to_string(rc.first_game + rc.games - 1) + ")"
                     : files[0])
          << ", player " << short_placement_spec(player) << ", "
          << (by_search ? "search's own valuation, " + std::to_string(opt.heldout) + " held-out re-deals"
                        : std::to_string(opt.rollouts) + " rollouts x " +
                              (opt.candidates ? std::to_string(opt.candidates) : std::string("all")) + " moves")
          << ", seed " << opt.seed
          << (o.out.empty() ? "" : " -> " + o.out) << (partial ? "  (interrupted: partial)" : "") << "\n"
          << analysis_summary(results, n_largest, opt.context.aim);
  if (results.size() > 1) summary << aggregate_summary(results, n_largest);
  if (embed) embed->summary = summary.str();
  else if (!vm.count("quiet")) std::cout << summary.str();
  if (partial) {
    if (embed) return 130;
    std::string written = o.out;
    if (!o.log.empty()) written += (written.empty() ? "" : " and ") + o.log;
    return report_interrupted("analyse", done, written);
  }
  return 0;
}

}  // namespace carc::sim
