// carcsolo verify: replay game logs through the engine and report the first inconsistency
// of each game, and each game stopped before its end (an unfinished log, every turn it
// holds consistent). Exit 0 when every game agrees, 1 when one does not, 2 when a file
// cannot be read or holds something that is not a game log.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "sim/cli/cli.hpp"
#include "sim/log/verify.hpp"

namespace carc::sim {
namespace {

std::string id_part(const nlohmann::json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end() || !it->is_number_integer()) return "?";
  return it->dump();
}

// "game G (seed S)", or for a game played at the table (no deal) "game at the table".
std::string game_name(const nlohmann::json& doc) {
  const auto deal = doc.find("deal");
  if (deal != doc.end() && *deal == "table" && !doc.contains("seed")) return "game at the table";
  return "game " + id_part(doc, "game") + " (seed " + id_part(doc, "seed") + ")";
}

}  // namespace

int cmd_verify(const Args& args, const ProgramInfo& /*program: writes no results file*/) {
  std::vector<std::string> files;
  po::options_description d(
      "carcsolo verify: replay game logs (carcassonne-solo-log/1) through the engine and\n"
      "report each game's first inconsistency as FILE:LINE: game G (seed S): turn T: FIELD:\n"
      "expected ENGINE'S VALUE, got LOG'S VALUE. A game stopped before its end (\"unfinished\":\n"
      "true) whose turns all agree is consistent and reported as FILE:LINE: game ...:\n"
      "unfinished after N turns, all consistent. Exit 0: all consistent, 1: an inconsistency,\n"
      "2: a file that cannot be read or is not game logs.\n\n"
      "usage: carcsolo verify LOG.jsonl [LOG ...]\n\nOptions");
  d.add_options()("help,h", "show this help")("quiet,q", "no summary line");
  const auto vm = parse_with_files(d, args, files);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo run --games 100 --log games.jsonl --log-games 100 && carcsolo verify games.jsonl\n";
    return 0;
  }
  if (files.empty()) throw UsageError("verify needs a log file (carcsolo verify LOG.jsonl)");

  std::uint64_t games = 0, bad = 0, unfinished = 0;
  for (const auto& file : files) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
      throw std::runtime_error("cannot read " + file + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw std::runtime_error("cannot read " + file + ": Is a directory");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file + ": " + std::strerror(errno));
    LogReader reader(in);
    nlohmann::json doc;
    long line = 0;
    std::uint64_t in_file = 0;
    for (;;) {
      LogCheck r;
      try {
        if (!reader.next(doc, line)) break;
        r = check_game_log(doc);
      } catch (const std::runtime_error& e) {
        const std::uint64_t before = games + in_file;
        throw std::runtime_error(file + ":" + std::to_string(line) + ": " + e.what() + "; " +
                                 std::to_string(before) + (before == 1 ? " game" : " games") +
                                 " checked before it, " + std::to_string(before - bad) + " consistent");
      }
      ++in_file;
      if (r.unfinished && !r.bad) {
        ++unfinished;
        std::cout << file << ":" << line << ": " << game_name(doc) << ": unfinished after " << r.turns
                  << (r.turns == 1 ? " turn" : " turns") << ", all consistent\n";
      }
      if (!r.bad) continue;
      ++bad;
      std::cout << file << ":" << line << ": " << game_name(doc) << ": " << r.bad->message() << "\n";
    }
    if (in.bad()) throw std::runtime_error("cannot read " + file + ": read error");
    if (in_file == 0) throw std::runtime_error(file + ": no game log in it");
    games += in_file;
  }
  if (!vm.count("quiet"))
    std::cout << "verify: " << games << " games, " << games - bad << " consistent, " << bad << " inconsistent"
              << (unfinished ? "; " + std::to_string(unfinished) + " unfinished" : std::string()) << "\n";
  return bad ? 1 : 0;
}

}  // namespace carc::sim
