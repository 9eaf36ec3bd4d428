#include "sim/analysis/log_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "policies/policy.hpp"
#include "sim/analysis/aggregate.hpp"
#include "sim/driver/errors.hpp"
#include "sim/log/io.hpp"
#include "sim/log/verify.hpp"

namespace carc::sim {
namespace {

std::string where(const std::string& file, const LogDocument& d) {
  auto id = [&](const char* key) {
    const auto it = d.doc.is_object() ? d.doc.find(key) : d.doc.end();
    return it == d.doc.end() || !it->is_number_integer() ? std::string("?") : it->dump();
  };
  return file + ":" + std::to_string(d.line) + ": game " + id("game") + " (seed " + id("seed") + ")";
}


std::uint64_t log_game(const LogDocument& d) {
  const auto it = d.doc.is_object() ? d.doc.find("game") : d.doc.end();
  return it != d.doc.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : UINT64_MAX;
}

// What an analysis over several games must not mix: colours, meeples and the player.
std::string configuration(const nlohmann::json& log) {
  const nlohmann::json& c = log.value("config", nlohmann::json::object());
  return c.value("colors", nlohmann::json()).dump() + " colours x " + c.value("meeples", nlohmann::json()).dump() +
         " meeples, placement " + short_placement_spec(c.value("placement_policy", std::string("?")));
}

}  // namespace

std::vector<LogDocument> read_game_logs(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) throw UsageError("cannot read " + file + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw UsageError("cannot read " + file + ": Is a directory");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot read " + file + ": " + std::strerror(errno));
  LogReader reader(in);
  std::vector<LogDocument> docs;
  for (;;) {
    LogDocument d{};
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

std::vector<LogDocument> select_logs(std::vector<LogDocument> docs, const std::string& file, const LogSelection& s) {
  const std::size_t n = docs.size();
  if (s.games) {
    const std::uint64_t count = *s.games;
    const std::string games = std::to_string(count);
    if (count > n)
      throw UsageError("--games " + games + ": " + file + " holds " + games_text(n) +
                       (n == 1 ? "" : " (give --games " + std::to_string(n) + " or less)"));
    docs.resize(std::size_t(count));
  } else if (s.position) {
    const std::uint64_t at = *s.position;
    if (at >= n)
      throw UsageError("--position " + std::to_string(at) + ": " + file + " holds " + games_text(n) + " (positions 0.." +
                       std::to_string(n - 1) + ")");
    docs = {std::move(docs[std::size_t(at)])};
  } else if (s.game) {
    // As replay --from: the game whose log says "game": G.
    const std::uint64_t g = *s.game;
    const std::string game = std::to_string(g);
    std::vector<std::size_t> found;
    for (std::size_t i = 0; i < n; ++i)
      if (log_game(docs[i]) == g) found.push_back(i);
    if (found.empty())
      throw UsageError("--game " + game + ": " + file + " holds no game " + game + " (" + games_text(n) +
                       "; --position P picks one by its place in the file, from 0)");
    if (found.size() > 1)
      throw UsageError("--game " + game + ": " + file + " holds game " + game + " " +
                       std::to_string(found.size()) + " times (positions " + std::to_string(found[0]) + " and " +
                       std::to_string(found[1]) + ": seeds " + docs[found[0]].doc.value("seed", nlohmann::json()).dump() +
                       " and " + docs[found[1]].doc.value("seed", nlohmann::json()).dump() +
                       "); pick one with --position P");
    docs = {std::move(docs[found[0]])};
  }
  return docs;
}

void check_logs(const std::vector<LogDocument>& docs, const std::string& file) {
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
}

std::vector<GameAnalysis> analyse_logs(const std::vector<LogDocument>& docs, const AnalysisOptions& opt) {
  std::vector<GameAnalysis> results;
  for (const auto& doc : docs) {
    if (opt.stopped()) break;
    GameAnalysis g = analyse_game(doc.doc, doc.index, opt);
    if (!g.complete) break;
    results.push_back(std::move(g));
  }
  return results;
}

nlohmann::ordered_json analysis_document(const std::vector<GameAnalysis>& results, const AnalysisOptions& opt,
                                         const std::string& player, const RunConfig& rc, bool played,
                                         int largest, bool partial, const ProgramInfo& program) {
  nlohmann::ordered_json j = analysis_json(results, opt, player);
  if (partial) j["partial"] = true;
  if (played)
    j["config"]["games_played"] = {{"placement", rc.placement_policy}, {"scoring", rc.scoring_policy},
                                   {"colors", rc.colors},          {"meeples", rc.meeples},
                                   {"seed", rc.seed},              {"first_game", rc.first_game},
                                   {"games", results.size()}};
  if (played && !rc.base_game()) {  // the expansions (a base game's analysis holds neither field)
    j["config"]["games_played"]["tileset"] = rc.rules().name();
    j["config"]["games_played"]["large_meeple"] = rc.rules().large_meeple();
  }
  nlohmann::ordered_json games = std::move(j["games"]);
  j.erase("games");
  j["aggregate"] = aggregate_json(results, largest);
  j["games"] = std::move(games);
  j["program"] = nlohmann::ordered_json::parse(program_json(program).dump());
  j["value_net"] = {{"hash", rc.value_net_hash}, {"source", rc.value_net_source}};
return j;
}

nlohmann::json read_analysis_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("--analysis: cannot read " + path);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // The last byte reached without an error: the document stops in the middle.
    if (text.find_first_not_of(" \t\r\n") != std::string::npos && e.byte >= text.size())
      throw UsageError("--analysis: " + path + ": the JSON ends early, after " + std::to_string(text.size()) +
                       " bytes (a truncated file?)");
    throw UsageError("--analysis: " + path + " is not an analysis document (carcassonne-solo-analysis/1): not JSON at byte " +
                     std::to_string(e.byte));
  }
  if (!doc.is_object() || doc.value("format", "") != "carcassonne-solo-analysis/1" || !doc.contains("games") ||
      !doc.at("games").is_array())
    throw UsageError("--analysis: " + path + " is not an analysis document (carcassonne-solo-analysis/1)");
  return doc;
}

bool analyses(const nlohmann::json& g, const nlohmann::json& log) {
  const nlohmann::json null;
  const nlohmann::json& c = log.value("config", nlohmann::json::object());
  if (g.value("seed", null) != log.value("seed", null) || g.value("game", null) != log.value("game", null) ||
      g.value("colors", null) != c.value("colors", null) || g.value("meeples", null) != c.value("meeples", null))
    return false;
  const std::string a = g.value("placement_policy", std::string()), b = c.value("placement_policy", std::string());
  return a.empty() || b.empty() || a == b;
}

nlohmann::json read_log_file(const std::string& path, std::optional<std::uint64_t> game) {
  std::ifstream in(path);
  if (!in) throw UsageError("--from: cannot read " + path);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  auto whole = nlohmann::json::parse(text, nullptr, false);
  if (!whole.is_discarded() && whole.is_object()) {
    if (game && whole.value("game", UINT64_MAX) != *game)
      throw UsageError("--from: " + path + " holds game " + whole.value("game", nlohmann::json()).dump() +
                       ", not " + std::to_string(*game));
    return whole;
  }
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      throw UsageError("--from: " + path + " line " + std::to_string(number) + " is not a JSON game log");
    if (!game || j.value("game", UINT64_MAX) == *game) return j;
  }
  throw UsageError("--from: " + path + (game ? " has no game " + std::to_string(*game) : std::string(" holds no game log")));
}

}  // namespace carc::sim
