// carcsolo merge: results files of shards of one study (same config and seed, game
// ranges that together form one contiguous range) into the file one run over the union
// writes (results-format.md: equal but for `performance` and `program`).
#include <algorithm>
#include <fstream>
#include <iostream>

#include "sim/cli/cli.hpp"
#include "sim/log/io.hpp"

namespace carc::sim {
namespace {

struct Shard {
  std::string path;
  RunConfig config;
  Accumulator acc;
  double seconds = 0;
  int threads = 0;
};

Shard read_shard(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const std::exception& e) {  // also a read error: a directory, say
    throw UsageError(path + ": not JSON (" + e.what() + ")");
  }
  Shard s;
  s.path = path;
  try {
    s.config = run_config_from_json(doc);
    s.acc = Accumulator::from_json(doc);
  } catch (const std::exception& e) {
    throw UsageError(path + ": " + e.what());
  }
  const auto perf = doc.find("performance");
  if (perf != doc.end() && perf->is_object()) {
    s.seconds = perf->value("seconds", 0.0);
    s.threads = perf->value("threads", 0);
  }
  return s;
}

std::string range_text(const Shard& s) {
  return "[" + std::to_string(s.config.first_game) + ", " +
         std::to_string(s.config.first_game + s.config.games) + ")";
}

// The first key in which two configs differ, or "" when they are of one study.
std::string config_difference(const RunConfig& a, const RunConfig& b) {
  if (a.colors != b.colors) return "colors";
  if (a.meeples != b.meeples) return "meeples";
  if (a.tileset != b.tileset) return "tileset";
  if (a.placement_policy != b.placement_policy) return "placement_policy";
  if (a.scoring_policy != b.scoring_policy) return "scoring_policy";
  if (a.seed != b.seed) return "seed";
  return "";
}

}  // namespace

int cmd_merge(const Args& args) {
  std::vector<std::string> inputs;
  std::string out;
  po::options_description d(
      "carcsolo merge: join results files of shards of one study (same config and seed,\n"
      "game ranges that together are contiguous) into the file of their union\n\n"
      "usage: carcsolo merge FILE... [--out FILE]\n\nOptions");
  d.add_options()("help,h", "show this help")
      ("out", po::value(&out), "write the merged results JSON to FILE (otherwise: a summary only)")
      ("quiet,q", "no summary on stdout")
      ("input", po::value(&inputs), "results files (positional)");
  po::positional_options_description pos;
  pos.add("input", -1);
  const auto vm = parse(d, args, pos);
  if (vm.count("help")) {
    std::cout << d << "\nExample: carcsolo merge shard-*.json --out all.json\n";
    return 0;
  }
  if (inputs.empty()) throw UsageError("no input files (usage: carcsolo merge FILE... --out FILE)");
  AtomicFile out_file;  // opened now: a bad path fails before the work
  if (!out.empty()) out_file = open_output("out", out);

  std::vector<Shard> shards;
  for (const auto& path : inputs) shards.push_back(read_shard(path));
  for (std::size_t i = 1; i < shards.size(); ++i) {
    const std::string key = config_difference(shards[0].config, shards[i].config);
    if (!key.empty())
      throw UsageError(shards[i].path + " and " + shards[0].path + " are of different studies (config." +
                       key + " differs)");
  }
  std::stable_sort(shards.begin(), shards.end(), [](const Shard& a, const Shard& b) {
    return a.config.first_game < b.config.first_game;
  });
  for (std::size_t i = 1; i < shards.size(); ++i) {
    const Shard &a = shards[i - 1], &b = shards[i];
    const std::uint64_t end = a.config.first_game + a.config.games;
    if (b.config.first_game < end)
      throw UsageError(b.path + " " + range_text(b) + " overlaps " + a.path + " " + range_text(a));
    if (b.config.first_game > end)
      throw UsageError("games [" + std::to_string(end) + ", " + std::to_string(b.config.first_game) +
                       ") are in no file (between " + a.path + " and " + b.path + ")");
  }

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
  // performance: the shards' seconds added up (the work, as if run one after another).
  auto doc = all.to_json(config, program_info(), Performance{threads, seconds});
  doc["performance"]["shards"] = shards.size();
  if (out_file.is_open()) {
    out_file.write(doc.dump(2) + "\n");
    out_file.commit();
  }
  if (!vm.count("quiet"))
    std::cout << "carcsolo merge: " << shards.size() << " files, games " << "["
              << config.first_game << ", " << config.first_game + config.games << ")\n"
              << all.summary();
  return 0;
}

}  // namespace carc::sim
