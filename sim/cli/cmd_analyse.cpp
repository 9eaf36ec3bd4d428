// carcsolo analyse: every placement decision of game logs valued by Monte Carlo from what
// the player saw (sim/analysis/analysis.hpp); the document is docs/analysis-format.md.
// The logs are read and replayed in full before any analysis starts, so a bad log costs
// nothing but its one line (exit status 2).
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "policies/heuristic.hpp"
#include "policies/policy.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/cli/cli.hpp"
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

int cmd_analyse(const Args& args) {
  std::vector<std::string> files;
  std::string file, out, placement = "heuristic", scoring = "log", rollouts = "32", candidates = "8",
                       seed = "1", games, game, threads = std::to_string(default_threads()), largest = "5";
  po::options_description d(
      "carcsolo analyse: every placement decision of game logs (carcassonne-solo-log/1, from any\n"
      "player) valued by Monte Carlo from what the player saw: each legal move analysed is played\n"
      "on a copy of the position, the unseen tiles re-dealt at random into stacks of the sizes\n"
      "left, and the game continued to its end by the analysing player (the same re-deals for\n"
      "every move of a decision). Prints the total expected loss against the best moves, the\n"
      "largest mistakes and the loss by stage and by meeple; --out writes every decision\n"
      "(carcassonne-solo-analysis/1, docs/analysis-format.md).\n\n"
      "usage: carcsolo analyse LOG.jsonl [options]\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("placement", po::value(&placement)->default_value(placement), "the analysing player: continues every rollout (a placement spec, see `carcsolo policies`)")
      ("scoring", po::value(&scoring)->default_value(scoring), "scoring order of the rollouts: `log` (the log's when this program has it, else best) or a scoring spec")
      ("rollouts", po::value(&rollouts)->default_value(rollouts), "continuations per move, 1..100000")
      ("candidates", po::value(&candidates)->default_value(candidates), "moves analysed per decision: the heuristic's K best (duplicates removed) and the move played; 0: every legal move")
      ("seed", po::value(&seed)->default_value(seed), "seed of the re-deals (the analysis is a function of the log and the options)")
      ("games", po::value(&games), "analyse the first N games of the file (default: all)")
      ("game", po::value(&game), "analyse only the game at position G of the file, from 0")
      ("threads", po::value(&threads)->default_value(threads), "threads over the decisions of a game (the analysis does not depend on it)")
      ("out", po::value(&out), "write the analysis (JSON) to FILE")
      ("largest", po::value(&largest)->default_value(largest), "mistakes listed in the summary, 0..1000")
      ("quiet,q", "no summary on stdout");
  std::string value_net;
  add_value_net_option(d, value_net);
  const auto vm = parse_with_files(d, args, files);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo run --games 10 --placement heuristic --scoring best --log games.jsonl"
                      " && carcsolo analyse games.jsonl --game 3 --out analysis.json\n";
    return 0;
  }
  if (files.empty()) throw UsageError("analyse needs a log file (carcsolo analyse LOG.jsonl)");
  if (files.size() > 1)
    throw UsageError("analyse takes one log file (got " + std::to_string(files.size()) + ": " + files[0] +
                     ", " + files[1] + (files.size() > 2 ? ", ..." : "") + ")");
  file = files[0];
  AnalysisOptions opt;
  std::string player;
  RunConfig net;  // only its value_net record
  select_value_net(value_net, net);
  try {
    player = canonical_placement(placement);
    if (scoring != "log") opt.scoring = canonical_scoring(scoring);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  opt.placement = player;
  opt.rollouts = int(parse_count("rollouts", rollouts, 1, 100000));
  opt.candidates = int(parse_count("candidates", candidates, 0, kMaxMoves));
  opt.seed = parse_count("seed", seed, 0, UINT64_MAX);
  opt.threads = int(parse_count("threads", threads, 1, 1024));
  const int n_largest = int(parse_count("largest", largest, 0, 1000));
  if (vm.count("games") && vm.count("game")) throw UsageError("--games and --game: give one of them");
  const std::uint64_t first = vm.count("game") ? parse_count("game", game, 0, UINT64_MAX / 2) : 0;
  const std::uint64_t count = vm.count("games") ? parse_count("games", games, 1, UINT64_MAX / 2)
                              : vm.count("game") ? 1 : UINT64_MAX;

  AtomicFile output;
  if (!out.empty()) output = open_output("out", out);
  std::vector<Document> docs = read_logs(file);
  if (first >= docs.size())
    throw UsageError("--game " + std::to_string(first) + ": " + file + " holds " + std::to_string(docs.size()) +
                     (docs.size() == 1 ? " game" : " games") + " (positions 0.." + std::to_string(docs.size() - 1) + ")");
  docs.erase(docs.begin(), docs.begin() + std::ptrdiff_t(first));
  if (docs.size() > count) docs.resize(std::size_t(count));
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

  std::vector<GameAnalysis> results;
  for (const auto& doc : docs) results.push_back(analyse_game(doc.doc, doc.index, opt));

  if (output.is_open()) {
    nlohmann::ordered_json j = analysis_json(results, opt, player);
    j["program"] = nlohmann::ordered_json::parse(program_json(program_info()).dump());
    j["value_net"] = {{"hash", net.value_net_hash}, {"source", net.value_net_source}};
    output.write(j.dump(1) + "\n");
    output.commit();
  }
  if (!vm.count("quiet")) {
    std::cout << "carcsolo analyse: " << file << ", player " << short_placement_spec(player) << ", "
              << opt.rollouts << " rollouts x " << (opt.candidates ? std::to_string(opt.candidates) : "all")
              << " moves, seed " << opt.seed << (out.empty() ? "" : " -> " + out) << "\n"
              << analysis_summary(results, n_largest);
  }
  return 0;
}

}  // namespace carc::sim
