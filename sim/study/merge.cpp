#include "sim/study/merge.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "policies/policy.hpp"
#include "sim/driver/errors.hpp"
#include "sim/study/ceiling_file.hpp"
#include "sim/study/matrix_files.hpp"
#include "sim/study/summaries.hpp"
#include "sim/study/texts.hpp"

namespace carc::sim {
namespace {

struct Shard {
  std::string path, kind;  // kind: "results", "ceiling", "compare" or "sweep"
  std::uint64_t first_game = 0, games = 0;
  RunConfig config;  // results files
  Accumulator acc;
  double seconds = 0;
  int threads = 0;
  MatrixFile matrix;  // compare and sweep files
  CeilingFile ceiling;  // ceiling files (config, first_game and games as above)
};

constexpr const char* kMergeJoins = "merge joins results, ceiling, compare and sweep files";

// A file of another of the program's formats, named as such: the JSON library's message
// about a game log's second line would say nothing useful.
[[noreturn]] void not_mergeable(const std::string& path, const std::string& format) {
  if (format == "carcassonne-solo-log/1")
    throw UsageError(path + " is a game log (" + format + "), not a results file; " + kMergeJoins);
  throw UsageError(path + " is a " + format + " file, not a results file; " + kMergeJoins);
}

// The `format` of the first line when it is a JSON object naming one (a JSON Lines file).
std::string first_line_format(const std::string& text) {
  const nlohmann::json first = nlohmann::json::parse(text.substr(0, text.find('\n')), nullptr, false);
  if (first.is_object() && first.contains("format") && first["format"].is_string())
    return first["format"].get<std::string>();
  return "";
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    if (in.bad()) throw std::runtime_error("a read error");  // a directory, say
    return nlohmann::json::parse(text.str());
  } catch (const std::exception& e) {
    const std::string format = first_line_format(text.str());
    if (!format.empty()) not_mergeable(path, format);
    throw UsageError(path + ": not JSON (" + e.what() + ")");
  }
}

Shard read_shard(const std::string& path) {
  const nlohmann::json doc = read_json(path);
  const std::string format =
      doc.is_object() && doc.contains("format") && doc["format"].is_string() ? doc["format"].get<std::string>() : "";
  if (format.rfind("carcassonne-solo-", 0) == 0 && format != kResultsFormat && format != kCompareFormat &&
      format != kSweepFormat)
    not_mergeable(path, format);
  Shard s;
  s.path = path;
  if (format == kCompareFormat && doc.contains("sprt"))
    throw UsageError(path + ": a compare --sprt file: its decision belongs to its prefix of games, "
                     "and merging shards would not repeat it; merge does not join such files");
  try {
    if (format == kCompareFormat || format == kSweepFormat) {
      s.kind = format == kCompareFormat ? "compare" : "sweep";
      s.matrix = read_matrix_file(doc);
      s.first_game = s.matrix.study.first_game;
      s.games = s.matrix.outcome.games_done;
      return s;
    }
    if (is_ceiling_file(doc)) {
      s.kind = "ceiling";
      s.ceiling = read_ceiling_file(doc);
      s.config = s.ceiling.config;
    } else {
      s.kind = "results";
      s.config = run_config_from_json(doc);
      s.acc = Accumulator::from_json(doc);
    }
  } catch (const std::exception& e) {
    throw UsageError(path + ": " + e.what());
  }
  s.first_game = s.config.first_game;
  s.games = s.config.games;
  const auto perf = doc.find("performance");
  if (perf != doc.end() && perf->is_object()) {
    s.seconds = perf->value("seconds", 0.0);
    s.threads = perf->value("threads", 0);
  }
  return s;
}

std::string range_text(const Shard& s) {
  return "[" + std::to_string(s.first_game) + ", " + std::to_string(s.first_game + s.games) + ")";
}

// One kind, one study: else a UsageError naming the kind and the difference.
void check_one_study(const std::vector<Shard>& shards) {
  const Shard& a = shards[0];
  for (std::size_t i = 1; i < shards.size(); ++i) {
    const Shard& b = shards[i];
    if (b.kind != a.kind)
      throw UsageError(b.path + " is a " + b.kind + " file, " + a.path + " a " + a.kind +
                       " file: merge joins files of one kind");
    std::string key = a.kind == "results" || a.kind == "ceiling"
                          ? "config." + config_difference(a.config, b.config)
                          : study_difference(a.matrix.study, b.matrix.study);
    if (a.kind == "ceiling" && key == "config." && a.ceiling.against != b.ceiling.against)
      key = "against.results.config.placement_policy";
    if (a.kind == "ceiling" && key == "config." && a.ceiling.policy_line != b.ceiling.policy_line)
      key = "ceiling.policy_line";
    if (key != "config." && !key.empty())
      throw UsageError(b.path + " and " + a.path + " are " + a.kind +
                       " files of different studies (" + key +
                       (key == "targets" ? " differ)" : " differs)"));
  }
}

// Sorted by first game, the ranges must follow each other without overlap or gap.
void check_contiguous(std::vector<Shard>& shards) {
  std::stable_sort(shards.begin(), shards.end(),
                   [](const Shard& a, const Shard& b) { return a.first_game < b.first_game; });
  for (std::size_t i = 1; i < shards.size(); ++i) {
    const Shard &a = shards[i - 1], &b = shards[i];
    const std::uint64_t end = a.first_game + a.games;
    if (b.first_game < end)
      throw UsageError(b.path + " " + range_text(b) + " overlaps " + a.path + " " + range_text(a));
    if (b.first_game > end)
      throw UsageError("games [" + std::to_string(end) + ", " + std::to_string(b.first_game) +
                       ") are in no file (between " + a.path + " and " + b.path + ")");
  }
}

// performance: the shards' seconds added up (the work, as if run one after another).
nlohmann::json merge_results(const std::vector<Shard>& shards, const ProgramInfo& program, std::string& summary) {
  Accumulator all;
  double seconds = 0;
  int threads = 0;
  for (const auto& s : shards) {
    try {
      all.merge(s.acc);
    } catch (const std::invalid_argument& e) {
      throw UsageError(s.path + ": " + e.what());
    }
    seconds += s.seconds;
    threads = std::max(threads, s.threads);
  }
  RunConfig config = shards[0].config;
  config.games = all.games();
  summary = policies_text(config) + ", " + std::to_string(config.colors) + " colours x " +
            std::to_string(config.meeples) + " meeples, seed " + std::to_string(config.seed) + "\n" +
            all.summary();
  return all.to_json(config, program, Performance{threads, seconds});
}

// The ceiling's results, the policy's and their difference merged exactly; per_game in
// game order.
nlohmann::json merge_ceiling(const std::vector<Shard>& shards, const ProgramInfo& program, std::string& summary) {
  CeilingFile all = shards[0].ceiling;
  all.ceiling = Accumulator{};
  all.against_results = Accumulator{};
  all.difference = PairedDiff{};
  all.per_game = nlohmann::json::array();
  double seconds = 0;
  int threads = 0;
  for (const auto& s : shards) {
    try {
      all.ceiling.merge(s.ceiling.ceiling);
      all.against_results.merge(s.ceiling.against_results);
    } catch (const std::invalid_argument& e) {
      throw UsageError(s.path + ": " + e.what());
    }
    all.difference.merge(s.ceiling.difference);
    for (const auto& g : s.ceiling.per_game) all.per_game.push_back(g);
    seconds += s.seconds;
    threads = std::max(threads, s.threads);
  }
  all.config.games = all.ceiling.games();
  summary = "REFERENCE THAT CHEATS, NOT A POLICY (sees the dealt stacks): the best line a beam "
            "of width " + std::to_string(all.width) + " found; a lower bound on each deal's optimum\n" +
            all.ceiling.summary() + ceiling_summary(all);
  return ceiling_document(all, threads, seconds, program);
}

nlohmann::json merge_matrix(const std::vector<Shard>& shards, const ProgramInfo& program, std::string& summary) {
  MatrixOutcome all;
  int threads = 0;
  for (const auto& s : shards) {
    all.append(s.matrix.outcome);
    threads = std::max(threads, s.matrix.threads);
  }
  all.partial = false;  // every shard covers exactly its range
  const MatrixStudy& study = shards[0].matrix.study;
  // What the command itself prints of these games (compare: the paired differences too).
  std::ostringstream os;
  const RunConfig& c0 = study.configs[0];
  if (study.format == kCompareFormat) {
    os << c0.colors << " colours x " << c0.meeples << " meeples, seed " << c0.seed << "\n";
    print_compare_table(os, study.configs, all);
  } else {
    os << (study.placements.size() > 1 ? std::to_string(study.placements.size()) + " placements"
                                       : short_placement_spec(c0.placement_policy))
       << " / " << short_scoring_spec(c0.scoring_policy) << ", seed " << c0.seed << "\n";
    print_sweep_table(os, study.configs, all);
  }
  summary = os.str();
  return matrix_document(study, all, threads, program);
}

}  // namespace

Merged merge_files(const std::vector<std::string>& paths, const ProgramInfo& program) {
  std::vector<Shard> shards;
  for (const auto& path : paths) shards.push_back(read_shard(path));
  check_one_study(shards);
  check_contiguous(shards);
  Merged m;
  m.kind = shards[0].kind;
  m.document = m.kind == "results"   ? merge_results(shards, program, m.summary)
               : m.kind == "ceiling" ? merge_ceiling(shards, program, m.summary)
                                     : merge_matrix(shards, program, m.summary);
  m.files = shards.size();
  m.document["performance"]["shards"] = m.files;
  m.first_game = shards.front().first_game;
  m.end_game = shards.back().first_game + shards.back().games;
  return m;
}

}  // namespace carc::sim
