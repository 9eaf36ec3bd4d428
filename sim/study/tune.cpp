// carcsolo tune: the search space and the run. The games of a step are a matrix of two
// configurations (minus, plus) over one range of game indices of the tuning seed, so both
// points meet the same deals and their paired difference is the SPSA measurement; the
// driver's exact sums make the run the same on any number of threads.
//
// Game indices: steps take [0, pairs) in order, batch after batch; every check replays
// [pairs, pairs + check_games) of the same seed (the same games at every check, so the
// checks' gains are comparable with each other; none of them is a tuning game); the
// verification plays [0, verify_games) of the verify seed.
#include "sim/study/tune.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "policies/policy.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/study/inputs.hpp"
#include "sim/study/texts.hpp"

namespace carc::sim {
namespace {

std::string number_text(double v) {  // as the registry writes a canonical spec
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

double parse_number(const std::string& option, const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw UsageError("--param " + option + ": '" + text + "' is not a number");
  return v;
}

// "name:k=v,..." as canonical_placement writes it.
std::vector<std::pair<std::string, double>> spec_values(const std::string& canonical) {
  std::vector<std::pair<std::string, double>> out;
  const auto colon = canonical.find(':');
  if (colon == std::string::npos) return out;
  std::size_t pos = colon + 1;
  while (pos < canonical.size()) {
    const auto comma = std::min(canonical.find(',', pos), canonical.size());
    const std::string item = canonical.substr(pos, comma - pos);
    const auto eq = item.find('=');
    out.emplace_back(item.substr(0, eq), std::stod(item.substr(eq + 1)));
    pos = comma + 1;
  }
  return out;
}

}  // namespace

TuneSpace::TuneSpace(const std::string& start_spec, const std::vector<std::string>& param_options) {
  std::string canonical;
  try {
    canonical = canonical_placement(start_spec);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--placement: ") + e.what());
  }
  policy = canonical.substr(0, canonical.find(':'));
  std::vector<ParamInfo> info;
  for (const PolicyInfo& p : placement_policies())
    if (p.name == policy) info = p.params;
  // Every registered parameter, at the value the spec gives or else its default: a canonical
  // spec leaves out an `added_later` parameter while it has its default, and a point must
  // still be able to move it (else plus and minus would play the same policy).
  const auto given = spec_values(canonical);
  for (const ParamInfo& i : info) {
    double v = i.default_value;
    for (const auto& [k, x] : given)
      if (k == i.key) v = x;
    fixed.emplace_back(i.key, v);
  }
  if (param_options.empty())
    throw UsageError("tune needs at least one --param KEY=LO..HI (a parameter of " + policy + " to tune)");
  for (const std::string& o : param_options) {
    const auto eq = o.find('=');
    const auto dots = o.find("..", eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || dots == std::string::npos)
      throw UsageError("--param must be KEY=LO..HI, e.g. absorb=0..20 (got '" + o + "')");
    const std::string key = o.substr(0, eq);
    const auto it = std::find_if(info.begin(), info.end(), [&](const ParamInfo& i) { return i.key == key; });
    if (it == info.end()) {
      std::string keys;
      for (const auto& i : info) keys += (keys.empty() ? "" : ", ") + i.key;
      throw UsageError("--param " + o + ": placement policy '" + policy + "' has no parameter '" + key +
                       "' (parameters: " + (keys.empty() ? "none" : keys) + ")");
    }
    for (const SpsaParam& p : params)
      if (p.key == key) throw UsageError("--param " + o + ": '" + key + "' is tuned twice");
    SpsaParam p;
    p.key = key;
    p.lo = parse_number(o, o.substr(eq + 1, dots - eq - 1));
    p.hi = parse_number(o, o.substr(dots + 2));
    p.whole = it->whole;
    for (const auto& [k, v] : fixed)
      if (k == key) p.start = v;
    if (!(p.lo < p.hi)) throw UsageError("--param " + o + ": the range needs LO < HI");
    if (p.whole && (p.lo != std::floor(p.lo) || p.hi != std::floor(p.hi)))
      throw UsageError("--param " + o + ": '" + key + "' is a whole number: give whole bounds");
    if (p.start < p.lo || p.start > p.hi)
      throw UsageError("--param " + o + ": the start value " + key + "=" + number_text(p.start) +
                       " (from --placement) lies outside the range");
    params.push_back(p);
  }
  // Every bound must make a policy: fail here, not in the middle of the run.
  for (std::size_t i = 0; i < params.size(); ++i)
    for (const double bound : {params[i].lo, params[i].hi}) {
      std::vector<double> v;
      for (const SpsaParam& p : params) v.push_back(p.start);
      v[i] = bound;
      try {
        spec(v);
      } catch (const std::invalid_argument& e) {
        throw UsageError("--param " + param_options[i] + ": " + e.what());
      }
    }
}

std::string TuneSpace::spec(const std::vector<double>& values) const {
  std::string s = policy;
  for (std::size_t i = 0; i < fixed.size(); ++i) {
    double v = fixed[i].second;
    for (std::size_t j = 0; j < params.size(); ++j)
      if (params[j].key == fixed[i].first) v = values[j];
    s += (i == 0 ? ":" : ",") + fixed[i].first + "=" + number_text(v);
  }
  return canonical_placement(s);
}

std::string TuneSpace::start_spec() const {
  std::vector<double> v;
  for (const SpsaParam& p : params) v.push_back(p.start);
  return spec(v);
}

nlohmann::json TuneSpace::values_json(const std::vector<double>& values) const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < params.size(); ++i) j[params[i].key] = std::stod(number_text(values[i]));
  return j;
}

std::uint64_t TuneOptions::pairs() const {
  const std::uint64_t check_cost = 2 * checks * check_games;
  if (budget <= check_cost + 1)
    throw UsageError("--budget " + std::to_string(budget) + " leaves no games for tuning after the " +
                     std::to_string(checks) + " checks of 2 x " + std::to_string(check_games) +
                     " games (raise --budget, or lower --checks or --check-games)");
  return (budget - check_cost) / 2;
}

namespace {

using Clock = std::chrono::steady_clock;

// A paired difference without its per-goal detail (the checks': a trajectory stays small).
nlohmann::json gain_json(const PairedDiff& d) {
  nlohmann::json j = d.to_json();
  j.erase("goals");
  return j;
}

struct Progress {
  bool on = false;
  Clock::time_point t0 = Clock::now(), last{};
  void show(std::uint64_t games, std::uint64_t budget, std::uint64_t step, std::uint64_t steps,
            const std::string& point, const std::string& gain, bool force = false) {
    if (!on) return;
    const auto now = Clock::now();
    if (!force && now - last < std::chrono::milliseconds(250)) return;
    last = now;
    const double s = std::chrono::duration<double>(now - t0).count();
    const double rate = s > 0 ? double(games) / s : 0;
    std::string eta = rate > 0 ? duration_text(double(budget - std::min(games, budget)) / rate) : "?";
    std::fprintf(stderr, "\rtune: step %llu/%llu  %llu/%llu games  %.0f games/s  %s  gain %s  ETA %s   ",
                 static_cast<unsigned long long>(step), static_cast<unsigned long long>(steps),
                 static_cast<unsigned long long>(games), static_cast<unsigned long long>(budget), rate,
                 point.c_str(), gain.c_str(), eta.c_str());
    std::fflush(stderr);
  }
};

std::string point_text(const TuneSpace& space, const std::vector<double>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? " " : "") + space.params[i].key + "=" + number_text(v[i]);
  return s;
}

std::string gain_text(const PairedDiff& d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.3f ± %.3f", d.mean(), d.ci_half_width());
  return buf;
}

// The document before the first step: the run's configuration, SPSA's settings, the
// parameters and the start as the trajectory's first point.
nlohmann::json tune_document(const TuneSpace& space, const TuneOptions& opt, const std::string& start_spec,
                             std::uint64_t steps, std::uint64_t checks, const ProgramInfo& program) {
  const std::uint64_t pairs = opt.spsa.pairs;
  nlohmann::json doc;
  doc["format"] = kTuneFormat;
  doc["program"] = program_json(program);
  doc["status"] = "running";
  doc["config"] = {{"colors", opt.base.colors},         {"meeples", opt.base.meeples},
                   {"seed", opt.base.seed},             {"scoring_policy", opt.base.scoring_policy},
                   {"placement_start", start_spec},
                   {"method", "spsa"},                  {"budget", opt.budget},
                   {"batch", opt.batch},                {"checks", checks},
                   {"check_games", opt.check_games},    {"check_first_game", pairs},
                   {"verify_seed", opt.verify_seed},    {"verify_games", opt.verify_games}};
  if (!opt.base.base_game()) {  // the expansions: the set the games dealt
    doc["config"]["tileset"] = opt.base.rules().name();
    doc["config"]["tileset_hash"] = opt.base.rules().hash();
    doc["config"]["large_meeple"] = opt.base.rules().large_meeple();
  }
  doc["spsa"] = {{"pairs", pairs}, {"steps", steps}, {"c_end", opt.spsa.c_end}, {"r_end", opt.spsa.r_end},
                 {"alpha", opt.spsa.alpha}, {"gamma", opt.spsa.gamma}, {"a_ratio", opt.spsa.a_ratio}};
  doc["params"] = nlohmann::json::array();
  for (const SpsaParam& p : space.params)
    doc["params"].push_back({{"key", p.key}, {"lo", p.lo}, {"hi", p.hi}, {"start", p.start}, {"whole", p.whole}});
  doc["steps"] = nlohmann::json::array();
  doc["trajectory"] = nlohmann::json::array();
  std::vector<double> start_values;
  for (const SpsaParam& p : space.params) start_values.push_back(p.start);
  doc["trajectory"].push_back({{"step", 0}, {"games", 0}, {"params", space.values_json(start_values)},
                               {"placement", start_spec}, {"gain", nullptr}});
  return doc;
}

// The final verification: start and final on games of the verification seed, into
// doc["verify"]; false when stopped.
bool verify(const RunConfig& start, const std::string& final_spec, const TuneOptions& opt, MatrixRequest& req,
            nlohmann::json& doc) {
  RunConfig a = start, f = start;
  a.seed = f.seed = opt.verify_seed;
  f.placement_policy = final_spec;
  req.configs = {a, f};
  req.first_game = 0;
  req.games = opt.verify_games;
  if (opt.progress)
    req.progress = [](const MatrixOutcome& o) { return "verify: final - start " + gain_text(o.diff[0]); };
  const MatrixOutcome v = play_matrix(req);
  if (v.partial) return false;
  doc["verify"] = {{"seed", opt.verify_seed},
                   {"first_game", 0},
                   {"games", opt.verify_games},
                   {"start", {{"placement", a.placement_policy}, {"mean", v.acc[0].mean()},
                              {"ci95_half_width", v.acc[0].ci_half_width()}}},
                   {"final", {{"placement", f.placement_policy}, {"mean", v.acc[1].mean()},
                              {"ci95_half_width", v.acc[1].ci_half_width()}}},
                   {"difference", v.diff[0].to_json()}};
  return true;
}

}  // namespace

nlohmann::json run_tune(const TuneSpace& space, TuneOptions opt, const ProgramInfo& program) {
  const std::uint64_t pairs = opt.pairs();
  opt.spsa.pairs = pairs;
  Spsa spsa(space.params, opt.spsa, opt.base.seed);
  const std::uint64_t steps = (pairs + opt.batch - 1) / opt.batch;
  const std::uint64_t checks = std::min(opt.checks, steps);
  const auto check_after = [&](std::uint64_t j) { return (j * steps + checks - 1) / checks; };
  const auto start_time = Clock::now();
  const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start_time).count(); };

  RunConfig start = opt.base;
  start.placement_policy = space.start_spec();
  const auto config_at = [&](const std::vector<double>& v) {
    RunConfig c = opt.base;
    c.placement_policy = space.spec(v);
    return c;
  };
  MatrixRequest req;
  req.threads = opt.threads;
  req.stop = opt.stop;

  nlohmann::json doc = tune_document(space, opt, start.placement_policy, steps, checks, program);
  std::uint64_t games = 0, next_check = 1;
  bool interrupted = false;
  const auto save = [&] {
    doc["games"] = games;
    doc["performance"] = performance_json(program, opt.threads, seconds());
    if (opt.save) opt.save(doc);
  };
  save();
  Progress progress{opt.progress};
  std::string last_gain = "-";
  const std::uint64_t shown_budget = 2 * pairs + 2 * checks * opt.check_games;

  for (std::uint64_t b = 0; b < steps; ++b) {
    if (opt.stop && opt.stop->load()) {
      interrupted = true;
      break;
    }
    const std::uint64_t n = std::min(opt.batch, pairs - b * opt.batch);
    const Spsa::Probe probe = spsa.probe();
    req.configs = {config_at(probe.minus), config_at(probe.plus)};
    req.first_game = b * opt.batch;
    req.games = n;
    const MatrixOutcome out = play_matrix(req);
    if (out.partial) {  // a step is whole or not taken
      interrupted = true;
      break;
    }
    const std::int64_t sum = out.diff[0].sum();
    spsa.update(probe, double(sum), n);
    games += 2 * n;
    doc["steps"].push_back({{"step", b + 1},
                            {"games", games},
                            {"plus", space.values_json(probe.plus)},
                            {"minus", space.values_json(probe.minus)},
                            {"plus_placement", req.configs[1].placement_policy},
                            {"minus_placement", req.configs[0].placement_policy},
                            {"difference", double(sum) / double(n)},
                            {"theta", space.values_json(spsa.theta())}});
    const std::vector<double> point = spsa.point();
    if (next_check <= checks && b + 1 == check_after(next_check)) {
      req.configs = {start, config_at(point)};
      req.first_game = pairs;
      req.games = opt.check_games;
      const MatrixOutcome c = play_matrix(req);
      if (c.partial) {
        interrupted = true;
        break;
      }
      games += 2 * opt.check_games;
      doc["trajectory"].push_back({{"step", b + 1}, {"games", games}, {"params", space.values_json(point)},
                                   {"placement", req.configs[1].placement_policy},
                                   {"gain", gain_json(c.diff[0])}});
      last_gain = gain_text(c.diff[0]);
      ++next_check;
      save();
    } else if ((b + 1) % 50 == 0) {
      save();
    }
    progress.show(games, shown_budget, b + 1, steps, point_text(space, point), last_gain);
  }
  if (opt.progress) {
    progress.show(games, shown_budget, spsa.batches_done(), steps, point_text(space, spsa.point()),
                  last_gain, true);
    std::fprintf(stderr, "\n");
  }
  const std::vector<double> final_point = spsa.point();
  const std::string final_spec = space.spec(final_point);
  doc["final"] = {{"params", space.values_json(final_point)},
                  {"theta", space.values_json(spsa.theta())},
                  {"placement", final_spec},
                  {"steps", spsa.batches_done()}};
  if (!interrupted && opt.verify_games > 0 && !verify(start, final_spec, opt, req, doc)) interrupted = true;
  doc["status"] = interrupted ? "interrupted" : "done";
  save();
  return doc;
}

std::string tune_summary(const nlohmann::json& doc) {
  char buf[512];
  std::string s = "carcsolo tune: " + short_placement_spec(doc["config"]["placement_start"].get<std::string>()) +
                  " -> " + short_placement_spec(doc["final"]["placement"].get<std::string>()) + "\n";
  std::snprintf(buf, sizeof buf, "  %s after %llu steps, %llu games (seed %llu, %.1fs)\n",
                doc["status"].get<std::string>().c_str(),
                static_cast<unsigned long long>(doc["final"]["steps"].get<std::uint64_t>()),
                static_cast<unsigned long long>(doc["games"].get<std::uint64_t>()),
                static_cast<unsigned long long>(doc["config"]["seed"].get<std::uint64_t>()),
                doc["performance"]["seconds"].get<double>());
  s += buf;
  s += "  final:";
  for (const auto& [k, v] : doc["final"]["params"].items()) s += " " + k + "=" + number_text(v.get<double>());
  s += "\n";
  const auto& t = doc["trajectory"];
  if (t.size() > 1) {
    const auto& g = t.back()["gain"];
    std::snprintf(buf, sizeof buf, "  last check (%llu games of the tuning seed): gain %+.3f, 95%% CI [%.3f, %.3f]\n",
                  static_cast<unsigned long long>(g["games"].get<std::uint64_t>()), g["mean"].get<double>(),
                  g["ci95"][0].get<double>(), g["ci95"][1].get<double>());
    s += buf;
  }
  if (doc.contains("verify")) {
    const auto& v = doc["verify"];
    const auto& d = v["difference"];
    std::snprintf(buf, sizeof buf,
                  "  verified on seed %llu, %llu games: start %.3f, final %.3f, final - start %+.3f, "
                  "95%% CI [%.3f, %.3f]\n",
                  static_cast<unsigned long long>(v["seed"].get<std::uint64_t>()),
                  static_cast<unsigned long long>(v["games"].get<std::uint64_t>()),
                  v["start"]["mean"].get<double>(), v["final"]["mean"].get<double>(), d["mean"].get<double>(),
                  d["ci95"][0].get<double>(), d["ci95"][1].get<double>());
    s += buf;
  }
  return s;
}

}  // namespace carc::sim
