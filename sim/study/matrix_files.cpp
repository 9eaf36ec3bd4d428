#include "sim/study/matrix_files.hpp"

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/study/inputs.hpp"
#include "sim/study/texts.hpp"

namespace carc::sim {

using nlohmann::json;

namespace {

bool is_compare(const MatrixStudy& s) { return s.format == kCompareFormat; }

double value_of(const json& run, const std::string& key) {
  return key == "mean" ? run["result"]["mean"].get<double>()
                       : run["goals"][key]["rate"].get<double>();
}

// Per target (and per placement, when there are several), the run that comes closest
// (the first of equals).
json closest_runs(const MatrixStudy& study, const json& runs) {
  json out = json::array();
  const std::size_t n_p = std::max<std::size_t>(1, study.placements.size());
  const std::size_t block = runs.size() / n_p;
  for (const auto& t : study.targets)
    for (std::size_t p = 0; p < n_p; ++p) {
      std::size_t best = p * block;
      for (std::size_t k = best + 1; k < (p + 1) * block; ++k)
        if (std::abs(value_of(runs[k], t.key) - t.value) < std::abs(value_of(runs[best], t.key) - t.value))
          best = k;
      json entry = {{"target", t.key},
                    {"value", t.value},
                    {"run", best},
                    {"colors", study.configs[best].colors},
                    {"meeples", study.configs[best].meeples},
                    {"achieved", value_of(runs[best], t.key)}};
      if (n_p > 1) entry["placement_policy"] = study.configs[best].placement_policy;
      out.push_back(entry);
    }
  return out;
}

// --until-ci's keys of `config` (MatrixStudy::ci_rules).
void add_until_ci(const MatrixStudy& s, json& config) {
  const bool ruled = !s.ci_rules.empty();
  config["until_ci"] = nullptr;
  config["max_games"] = ruled ? json(s.ci_cap) : json(nullptr);
  json goals = json::object();
  for (const auto& r : s.ci_rules)
    if (r.goal < 0)
      config["until_ci"] = r.half_width;
    else
      goals[ci_rule_name(r)] = r.half_width;
  if (!goals.empty()) config["until_ci_goals"] = goals;
}

// `config.value_net`, as each run's config has it (every run of a study plays one net).
void add_value_net(const RunConfig& c, json& config) {
  if (!c.value_net_hash.empty())
    config["value_net"] = {{"hash", c.value_net_hash}, {"source", c.value_net_source}};
}

// The expansions' set (none in a base game's file).
void add_tileset(const RunConfig& c, json& config) {
  if (c.base_game()) return;
  config["tileset"] = c.rules().name();
  config["tileset_hash"] = c.rules().hash();
  config["large_meeple"] = c.rules().large_meeple();
}

json compare_config(const MatrixStudy& s, std::uint64_t games) {
  json policies = json::array();
  for (const auto& c : s.configs)
    policies.push_back({{"placement_policy", c.placement_policy}, {"scoring_policy", c.scoring_policy}});
  const RunConfig& c0 = s.configs[0];
  json config = {{"colors", c0.colors}, {"meeples", c0.meeples}, {"seed", c0.seed},
                 {"first_game", s.first_game}, {"games", games}, {"policies", policies}};
  add_value_net(c0, config);
  add_tileset(c0, config);
  add_until_ci(s, config);
  if (s.all_pairs) config["pairs"] = "all";
  return config;
}

json sweep_config(const MatrixStudy& s, std::uint64_t games) {
  const RunConfig& c0 = s.configs[0];
  json config = {{"colors", s.colors}, {"meeples", s.meeples},
                 {"placement_policy", c0.placement_policy}, {"scoring_policy", c0.scoring_policy},
                 {"seed", c0.seed}, {"first_game", s.first_game}, {"games", games}};
  if (s.placements.size() > 1) config["placements"] = s.placements;
  add_value_net(c0, config);
  add_tileset(c0, config);
  if (!s.ci_rules.empty()) add_until_ci(s, config);
  return config;
}

// --- reading: every failure is one line naming the key -----------------------------

[[noreturn]] void fail(const MatrixStudy& s, const std::string& key, const std::string& what) {
  throw std::runtime_error(std::string("malformed ") + (is_compare(s) ? "compare" : "sweep") +
                           " file: " + key + ": " + what);
}

const json& member(const MatrixStudy& s, const json& obj, const std::string& key) {
  const auto dot = key.rfind('.');
  const std::string name = dot == std::string::npos ? key : key.substr(dot + 1);
  if (!obj.is_object() || !obj.contains(name)) fail(s, key, "missing");
  return obj[name];
}

template <class T>
T read(const MatrixStudy& s, const json& obj, const std::string& key) {
  try {
    return member(s, obj, key).get<T>();
  } catch (const json::exception&) {
    fail(s, key, "wrong type");
  }
}

// runs[k]: its configuration (the range dropped), accumulators and seconds.
void read_runs(const json& doc, MatrixFile& f, std::uint64_t games) {
  const json& runs = member(f.study, doc, "runs");
  if (!runs.is_array() || runs.empty()) fail(f.study, "runs", "expected a non-empty array");
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const std::string at = "runs[" + std::to_string(k) + "]";
    RunConfig c;
    try {
      c = run_config_from_json(runs[k]);
      f.outcome.acc.push_back(Accumulator::from_json(runs[k]));
    } catch (const std::runtime_error& e) {
      fail(f.study, at, e.what());
    }
    if (c.first_game != f.study.first_game || c.games != games)
      fail(f.study, at + ".config", "game range differs from config's");
    c.first_game = c.games = 0;
    f.study.configs.push_back(c);
    const auto perf = runs[k].find("performance");
    const bool timed = perf != runs[k].end() && perf->is_object();
    f.outcome.config_seconds.push_back(timed ? perf->value("seconds", 0.0) : 0.0);
  }
}

// --until-ci's keys of `config` (compare: until_ci and max_games always there) and the
// first batch of the document's `until_ci` record, when it has one.
void read_until_ci(const json& doc, const json& config, MatrixStudy& s) {
  if (!config.contains("until_ci") && !is_compare(s)) return;
  const json& mean = member(s, config, "config.until_ci");
  const json& cap = member(s, config, "config.max_games");
  if (cap.is_null()) return;
  s.ci_cap = read<std::uint64_t>(s, config, "config.max_games");
  if (!mean.is_null()) s.ci_rules.push_back({-1, read<double>(s, config, "config.until_ci")});
  if (config.contains("until_ci_goals")) {
    const json& goals = config["until_ci_goals"];
    if (!goals.is_object()) fail(s, "config.until_ci_goals", "expected an object");
    for (int g = 0; g < carc::kGoalCount; ++g) {  // the rules in goal order, as given
      const std::string id(carc::kGoalIds[std::size_t(g)]);
      if (goals.contains(id)) s.ci_rules.push_back({g, read<double>(s, goals, "config.until_ci_goals." + id)});
    }
    if (s.ci_rules.size() != goals.size() + (mean.is_null() ? 0 : 1))
      fail(s, "config.until_ci_goals", "unknown goal id");
  }
  const auto rec = doc.find("until_ci");
  if (rec != doc.end() && rec->is_object() && rec->contains("first_batch"))
    s.ci_first_batch = read<std::uint64_t>(s, *rec, "until_ci.first_batch");
}

void read_compare(const json& doc, const json& config, MatrixFile& f) {
  read_until_ci(doc, config, f.study);
  const json& policies = member(f.study, config, "config.policies");
  if (!policies.is_array() || policies.size() != f.study.configs.size())
    fail(f.study, "config.policies", "expected one entry per run");
  for (std::size_t k = 0; k < policies.size(); ++k) {
    const RunConfig& c = f.study.configs[k];
    if (c.colors != read<int>(f.study, config, "config.colors") ||
        c.meeples != read<int>(f.study, config, "config.meeples") ||
        c.seed != read<std::uint64_t>(f.study, config, "config.seed") ||
        c.placement_policy != read<std::string>(f.study, policies[k], "placement_policy") ||
        c.scoring_policy != read<std::string>(f.study, policies[k], "scoring_policy"))
      fail(f.study, "runs[" + std::to_string(k) + "].config", "differs from config");
  }
  const json& diffs = member(f.study, doc, "differences");
  if (!diffs.is_array() || diffs.size() + 1 != f.study.configs.size())
    fail(f.study, "differences", "expected one entry per run but the first");
  for (std::size_t k = 0; k < diffs.size(); ++k) {
    const std::string at = "differences[" + std::to_string(k) + "]";
    if (read<std::size_t>(f.study, diffs[k], at + ".first") != 0 ||
        read<std::size_t>(f.study, diffs[k], at + ".second") != k + 1)
      fail(f.study, at, "expected run " + std::to_string(k + 1) + " against run 0");
    f.outcome.diff.push_back(PairedDiff::from_json(diffs[k], at));
    if (f.outcome.diff.back().games() != f.outcome.games_done) fail(f.study, at + ".games", "differs from config.games");
  }
  if (!config.contains("pairs")) return;
  if (read<std::string>(f.study, config, "config.pairs") != "all") fail(f.study, "config.pairs", "expected \"all\"");
  f.study.all_pairs = true;
  const auto pairs = matrix_pairs(f.study.configs.size(), true);
  const json& all = member(f.study, doc, "pair_differences");
  if (!all.is_array() || all.size() != pairs.size())
    fail(f.study, "pair_differences", "expected one entry per pair of runs");
  for (std::size_t i = f.outcome.diff.size(); i < pairs.size(); ++i) {
    const std::string at = "pair_differences[" + std::to_string(i) + "]";
    if (read<std::size_t>(f.study, all[i], at + ".first") != pairs[i].first ||
        read<std::size_t>(f.study, all[i], at + ".second") != pairs[i].second)
      fail(f.study, at, "expected run " + std::to_string(pairs[i].second) + " against run " +
                            std::to_string(pairs[i].first));
    f.outcome.diff.push_back(PairedDiff::from_json(all[i], at));
    if (f.outcome.diff.back().games() != f.outcome.games_done) fail(f.study, at + ".games", "differs from config.games");
  }
}

void read_sweep(const json& doc, const json& config, MatrixFile& f) {
  MatrixStudy& s = f.study;
  read_until_ci(doc, config, s);
  s.colors = read<std::vector<int>>(s, config, "config.colors");
  s.meeples = read<std::vector<int>>(s, config, "config.meeples");
  if (config.contains("placements"))
    s.placements = read<std::vector<std::string>>(s, config, "config.placements");
  else
    s.placements = {read<std::string>(s, config, "config.placement_policy")};
  const std::size_t per_placement = s.colors.size() * s.meeples.size();
  if (s.placements.empty() || s.placements[0] != read<std::string>(s, config, "config.placement_policy"))
    fail(s, "config.placements", "expected config.placement_policy first");
  if (s.placements.size() * per_placement != s.configs.size())
    fail(s, "runs", "expected one run per (placement, colours, meeples)");
  for (std::size_t k = 0; k < s.configs.size(); ++k) {
    const RunConfig& c = s.configs[k];
    const std::size_t in = k % per_placement;
    if (c.colors != s.colors[in / s.meeples.size()] || c.meeples != s.meeples[in % s.meeples.size()] ||
        c.seed != read<std::uint64_t>(s, config, "config.seed") ||
        c.placement_policy != s.placements[k / per_placement] ||
        c.scoring_policy != read<std::string>(s, config, "config.scoring_policy"))
      fail(s, "runs[" + std::to_string(k) + "].config", "differs from config");
  }
  const json& targets = member(s, doc, "targets");
  if (!targets.is_array()) fail(s, "targets", "expected an array");
  // One entry per target and placement (placements inner): every n-th names the targets.
  if (targets.size() % s.placements.size() != 0)
    fail(s, "targets", "expected one entry per target and placement");
  for (std::size_t i = 0; i < targets.size(); i += s.placements.size())
    s.targets.push_back({read<std::string>(s, targets[i], "targets.target"),
                         read<double>(s, targets[i], "targets.value")});
}

}  // namespace

json matrix_document(const MatrixStudy& study, const MatrixOutcome& r, int threads, const ProgramInfo& program) {
  json runs = json::array();
  for (std::size_t k = 0; k < study.configs.size(); ++k)
    runs.push_back(r.run_json(study.configs[k], study.first_game, program, threads, k));
  json doc = {{"format", study.format},
              {"program", program_json(program)},
              {"runs", runs},
              {"performance", performance_json(program, threads, r.seconds)}};
  if (is_compare(study)) {
    doc["config"] = compare_config(study, r.games_done);
    json diffs = json::array();
    for (std::size_t k = 1; k < study.configs.size(); ++k) {
      auto j = r.diff[k - 1].to_json();
      j["first"] = 0;
      j["second"] = k;
      diffs.push_back(j);
    }
    doc["difference"] = diffs[0];
    doc["differences"] = diffs;
    if (study.all_pairs) {
      json all = json::array();
      const auto pairs = matrix_pairs(study.configs.size(), true);
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        auto j = r.diff[i].to_json();
        j["first"] = pairs[i].first;
        j["second"] = pairs[i].second;
        all.push_back(j);
      }
      doc["pair_differences"] = all;
    }
  } else {
    doc["config"] = sweep_config(study, r.games_done);
    doc["targets"] = closest_runs(study, runs);
  }
  // Whether --until-ci's rules were met (the cap may have stopped the run first), as `run`
  // writes it; files of older versions of the /1 formats lack it.
  if (!study.ci_rules.empty()) doc["until_ci"] = ci_record(r, study.ci_goal(), study.ci_cap);
  if (study.sprt) doc["sprt"] = sprt_record(r, *study.sprt, study.sprt_cap);
  if (r.partial) doc["partial"] = true;
  return doc;
}

CiGoal MatrixStudy::ci_goal() const {
  return {ci_rules, format == kCompareFormat ? CiOf::differences : CiOf::runs, ci_first_batch};
}

MatrixFile read_matrix_file(const json& doc) {
  MatrixFile f;
  f.study.format = doc.value("format", "");
  if (f.study.format != kCompareFormat && f.study.format != kSweepFormat)
    throw std::runtime_error("not a compare or sweep file (format)");
  const json& config = member(f.study, doc, "config");
  f.study.first_game = read<std::uint64_t>(f.study, config, "config.first_game");
  const auto games = read<std::uint64_t>(f.study, config, "config.games");
  f.outcome.games_done = games;
  read_runs(doc, f, games);
  if (is_compare(f.study))
    read_compare(doc, config, f);
  else
    read_sweep(doc, config, f);
  const auto perf = doc.find("performance");
  if (perf != doc.end() && perf->is_object()) {
    f.outcome.seconds = perf->value("seconds", 0.0);
    f.threads = perf->value("threads", 0);
  }
  return f;
}

std::string config_difference(const RunConfig& a, const RunConfig& b) {
  if (a.colors != b.colors) return "colors";
  if (a.meeples != b.meeples) return "meeples";
  // One name, other tiles: other sets (a base game's file records no hash: Ruleset::recorded
  // gives it the base set's).
  if (a.rules().name() != b.rules().name() ||
      (!a.rules().hash().empty() && !b.rules().hash().empty() && a.rules().hash() != b.rules().hash()))
    return "tileset";
  if (a.rules().large_meeple() != b.rules().large_meeple()) return "large_meeple";
  if (a.placement_policy != b.placement_policy) return "placement_policy";
  if (a.scoring_policy != b.scoring_policy) return "scoring_policy";
  if (a.seed != b.seed) return "seed";
  if (a.value_net_hash != b.value_net_hash) return "value_net";
  if (a.context.aim != b.context.aim) return "aim";
  return "";
}

std::string study_difference(const MatrixStudy& a, const MatrixStudy& b) {
  if (a.format != b.format) return "format";
  const bool compare = is_compare(a);
  if (!compare && a.colors != b.colors) return "config.colors";
  if (!compare && a.meeples != b.meeples) return "config.meeples";
  if (!compare && a.placements != b.placements) return "config.placements";
  if (a.configs.size() != b.configs.size()) return "config.policies";
  for (std::size_t k = 0; k < a.configs.size(); ++k) {
    const std::string key = config_difference(a.configs[k], b.configs[k]);
    if (key.empty()) continue;
    const bool policy = key == "placement_policy" || key == "scoring_policy";
    return "config." + (compare && policy ? std::string("policies") : key);
  }
  if (a.ci_rules != b.ci_rules) return "config.until_ci";
  if (a.ci_cap != b.ci_cap) return "config.max_games";
  if (a.all_pairs != b.all_pairs) return "config.pairs";
  if (a.targets.size() != b.targets.size()) return "targets";
  for (std::size_t i = 0; i < a.targets.size(); ++i)
    if (a.targets[i].key != b.targets[i].key || a.targets[i].value != b.targets[i].value)
      return "targets";
  return "";
}

}  // namespace carc::sim
