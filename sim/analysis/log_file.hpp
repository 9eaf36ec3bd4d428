// The game logs and analysis documents of files. As `analyse` takes a file's logs: read whole, a selection of them, each
// replayed and all of one configuration before any analysis starts, so a bad log costs
// nothing but its one line. Every mistake is a UsageError naming the file and the line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/analysis/analysis.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim {

struct LogDocument {
  nlohmann::json doc;
  long line;            // its line in the file
  std::uint64_t index;  // its position in the file, from 0
};

// Every game log of `file` (JSON Lines); none, or a line that is no JSON, is a UsageError.
std::vector<LogDocument> read_game_logs(const std::string& file);

// At most one of: the first `games` logs, the log at `position`, or the one whose log says
// "game": G (as replay --from --game G); none: every log.
struct LogSelection {
  std::optional<std::uint64_t> games, position, game;
};
std::vector<LogDocument> select_logs(std::vector<LogDocument> docs, const std::string& file, const LogSelection& s);

// Every log replayed (verify_game_log), all of one configuration (colours, meeples and the
// player): else a UsageError naming the first that is not.
void check_logs(const std::vector<LogDocument>& docs, const std::string& file);

// The logs analysed one after another (threads over each game's decisions) until
// opt.stopped(): then the games finished so far.
std::vector<GameAnalysis> analyse_logs(const std::vector<LogDocument>& docs, const AnalysisOptions& opt);

// The analysis document (docs/analysis-format.md) of `results`: analysis_json's with the
// aggregate (`largest` mistakes), `program` and the value net of `rc`; "partial" when
// `partial`; with `played` (the games played here) config.games_played of rc.
nlohmann::ordered_json analysis_document(const std::vector<GameAnalysis>& results, const AnalysisOptions& opt,
                                         const std::string& player, const RunConfig& rc, bool played,
                                         int largest, bool partial, const ProgramInfo& program);

// The analysis document of `replay --analysis FILE` (carcassonne-solo-analysis/1); a
// UsageError of one line when the file cannot be read, is cut short ("the JSON ends early")
// or is something else.
nlohmann::json read_analysis_file(const std::string& path);

// Whether analysis entry `g` (of a document's `games`) is of the game of `log`: the same
// seed, game, colours and meeples, and the same player when both name one.
bool analyses(const nlohmann::json& g, const nlohmann::json& log);

// A game log from FILE (`replay --from`): a single JSON document, or JSON lines (`run
// --log`) from which the game numbered `game` is taken (the first line when no game is
// given). A UsageError of one line when the file is missing, malformed, or lacks that game.
nlohmann::json read_log_file(const std::string& path, std::optional<std::uint64_t> game);

}  // namespace carc::sim
