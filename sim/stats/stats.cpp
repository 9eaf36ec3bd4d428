#include "sim/stats/stats.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace carc::sim {

using nlohmann::json;

namespace {

constexpr double kZ95 = 1.96;
constexpr std::array<carc::EndReason, 2> kEndReasons = {carc::EndReason::no_meeple,
                                                        carc::EndReason::tiles_exhausted};
constexpr std::array<int, 9> kQuantilePercents = {1, 5, 10, 25, 50, 75, 90, 95, 99};

double ratio(double num, std::uint64_t den) { return den == 0 ? 0.0 : num / double(den); }

// Only non-zero buckets, in increasing value, so the text does not depend on the
// capacity of the array.
template <std::size_t N>
json histogram_json(const std::array<std::uint64_t, N>& hist) {
  json out = json::array();
  for (std::size_t v = 0; v < N; ++v)
    if (hist[v] != 0) out.push_back(json::array({std::uint64_t(v), hist[v]}));
  return out;
}

json rate_json(std::uint64_t count, std::uint64_t n) {
  const auto w = wilson95(count, n);
  return {{"count", count}, {"rate", ratio(double(count), n)}, {"wilson95", {w[0], w[1]}}};
}

// --- reading: every failure is one line naming the key -----------------------------

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("malformed results file: " + (path.empty() ? "document" : path) +
                           ": " + what);
}

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

const json& member(const json& obj, const std::string& path, const std::string& key) {
  if (!obj.is_object()) fail(path, "expected an object");
  const auto it = obj.find(key);
  if (it == obj.end()) fail(join(path, key), "missing");
  return *it;
}

std::uint64_t read_count(const json& j, const std::string& path) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0)
    return std::uint64_t(j.get<std::int64_t>());
  fail(path, "expected a non-negative integer");
}

int read_int(const json& j, const std::string& path, int lo, int hi) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    if (hi >= 0 && v >= std::uint64_t(std::max(lo, 0)) && v <= std::uint64_t(hi)) return int(v);
  } else if (j.is_number_integer()) {
    const auto v = j.get<std::int64_t>();
    if (v >= lo && v <= hi) return int(v);
  }
  fail(path, "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
}

std::uint64_t add_checked(std::uint64_t a, std::uint64_t b, const std::string& path) {
  if (a > std::numeric_limits<std::uint64_t>::max() - b) fail(path, "counts overflow");
  return a + b;
}

// Reads `[[value, count], ...]` (values strictly increasing, counts > 0) into `out`;
// returns the total count.
template <std::size_t N>
std::uint64_t read_histogram(const json& j, const std::string& path,
                             std::array<std::uint64_t, N>& out) {
  if (!j.is_array()) fail(path, "expected an array of [value, count] pairs");
  std::uint64_t total = 0;
  int previous = -1;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    const json& pair = j[i];
    if (!pair.is_array() || pair.size() != 2) fail(at, "expected a [value, count] pair");
    const int v = read_int(pair[0], at + "[0]", 0, int(N) - 1);
    if (v <= previous) fail(at, "values must be strictly increasing");
    const std::uint64_t c = read_count(pair[1], at + "[1]");
    if (c == 0) fail(at, "zero counts are not listed");
    out[std::size_t(v)] = c;
    total = add_checked(total, c, path);
    previous = v;
  }
  return total;
}

std::string read_string(const json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "expected a string");
  return j.get<std::string>();
}

// Appends printf-style text; the summary is not a hot path.
template <class... Args>
void appendf(std::string& out, const char* fmt, Args... args) {
  char buf[256];
  const int len = std::snprintf(buf, sizeof buf, fmt, args...);
  if (len > 0) out.append(buf, std::min<std::size_t>(std::size_t(len), sizeof buf - 1));
}

}  // namespace

std::string games_text(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " game" : " games"); }

std::array<double, 2> wilson95(std::uint64_t successes, std::uint64_t trials) {
  assert(successes <= trials);
  if (trials == 0) return {0.0, 0.0};
  const double n = double(trials), p = double(successes) / n, z2 = kZ95 * kZ95;
  const double denom = 1.0 + z2 / n;
  const double center = (p + z2 / (2.0 * n)) / denom;
  const double half = kZ95 * std::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom;
  // The exact bounds at the ends are 0 and 1; rounding could leave them a hair off.
  const double lo = successes == 0 ? 0.0 : std::max(0.0, center - half);
  const double hi = successes == trials ? 1.0 : std::min(1.0, center + half);
  return {lo, hi};
}

void Accumulator::add(const GameOutcome& g) {
  assert(g.colors >= 2 && g.colors <= kMaxColors);
  assert(colors_ == 0 || colors_ == g.colors);
  assert(g.result >= 0 && g.result <= kMaxResult);
  assert(g.end == carc::EndReason::no_meeple || g.end == carc::EndReason::tiles_exhausted);
  assert(g.tiles_placed >= 0 && g.tiles_placed <= kMaxTilesPlaced);
  assert(g.discards >= 0);
  assert(g.goals < (1u << carc::kGoalCount));

  const int k = std::clamp(g.colors, 0, kMaxColors);
  colors_ = k;
  ++games_;
  ++result_hist_[std::size_t(std::clamp(g.result, 0, kMaxResult))];
  for (int c = 0; c < k; ++c) {
    assert(g.scores[std::size_t(c)] >= 0);
    score_sums_[std::size_t(c)] += std::uint64_t(std::max(0, g.scores[std::size_t(c)]));
  }
  ++end_counts_[std::min<std::size_t>(std::size_t(g.end), end_counts_.size() - 1)];
  ++tiles_hist_[std::size_t(std::clamp(g.tiles_placed, 0, kMaxTilesPlaced))];
  if (g.discards > 0) {
    discards_total_ += std::uint64_t(g.discards);
    ++games_with_discard_;
  }
  for (int i = 0; i < carc::kGoalCount; ++i)
    goal_counts_[std::size_t(i)] += (g.goals >> i) & 1u;
}

void Accumulator::merge(const Accumulator& o) {
  if (games_ != 0 && o.games_ != 0 && colors_ != o.colors_)
    throw std::invalid_argument("cannot merge statistics of " + std::to_string(colors_) +
                                " and " + std::to_string(o.colors_) + " colours");
  if (games_ == 0) colors_ = o.colors_;
  games_ += o.games_;
  for (std::size_t i = 0; i < result_hist_.size(); ++i) result_hist_[i] += o.result_hist_[i];
  for (std::size_t i = 0; i < score_sums_.size(); ++i) score_sums_[i] += o.score_sums_[i];
  for (std::size_t i = 0; i < end_counts_.size(); ++i) end_counts_[i] += o.end_counts_[i];
  for (std::size_t i = 0; i < tiles_hist_.size(); ++i) tiles_hist_[i] += o.tiles_hist_[i];
  discards_total_ += o.discards_total_;
  games_with_discard_ += o.games_with_discard_;
  for (std::size_t i = 0; i < goal_counts_.size(); ++i) goal_counts_[i] += o.goal_counts_[i];
}

std::uint64_t Accumulator::result_sum() const {
  std::uint64_t s = 0;
  for (std::size_t v = 0; v < result_hist_.size(); ++v) s += v * result_hist_[v];
  return s;
}

std::uint64_t Accumulator::result_sum_of_squares() const {
  std::uint64_t s = 0;
  for (std::size_t v = 0; v < result_hist_.size(); ++v) s += v * v * result_hist_[v];
  return s;
}

double Accumulator::mean() const { return ratio(double(result_sum()), games_); }

double Accumulator::stddev() const {
  if (games_ < 2) return 0.0;
  // Two passes over the (at most 1024) buckets: no cancellation, same order every time.
  const double m = mean();
  double ss = 0.0;
  for (std::size_t v = 0; v < result_hist_.size(); ++v)
    if (result_hist_[v] != 0) ss += double(result_hist_[v]) * (double(v) - m) * (double(v) - m);
  return std::sqrt(ss / double(games_ - 1));
}

double Accumulator::ci_half_width() const {
  return games_ == 0 ? 0.0 : kZ95 * stddev() / std::sqrt(double(games_));
}

int Accumulator::quantile(int percent) const {
  assert(percent >= 1 && percent <= 100);
  if (games_ == 0) return 0;
  // ceil(percent * n / 100) in integers: 0.07 * 100 is not 7 in binary.
  const std::uint64_t p = std::uint64_t(std::clamp(percent, 1, 100));
  const std::uint64_t need = games_ / 100 * p + ((games_ % 100) * p + 99) / 100;
  std::uint64_t seen = 0;
  for (std::size_t v = 0; v < result_hist_.size(); ++v) {
    seen += result_hist_[v];
    if (seen >= need) return int(v);
  }
  return kMaxResult;  // unreachable: need <= games_
}

int Accumulator::min_result() const {
  for (std::size_t v = 0; v < result_hist_.size(); ++v)
    if (result_hist_[v] != 0) return int(v);
  return 0;
}

int Accumulator::max_result() const {
  for (std::size_t v = result_hist_.size(); v-- > 0;)
    if (result_hist_[v] != 0) return int(v);
  return 0;
}

double Accumulator::mean_tiles_placed() const {
  if (games_ == 0) return 0.0;
  std::uint64_t sum = 0;
  for (std::size_t v = 0; v < tiles_hist_.size(); ++v) sum += v * tiles_hist_[v];
  return double(sum) / double(games_);
}

json program_json(const ProgramInfo& p) {
  json j = {{"name", p.name}, {"version", p.version}, {"git", p.git}};
  if (p.dirty >= 0) j["dirty"] = p.dirty == 1;
  if (!p.compiler.empty())
    j["build"] = {{"compiler", p.compiler}, {"flags", p.flags}, {"build_type", p.build_type}};
  return j;
}

json performance_json(const ProgramInfo& p, int threads, double seconds) {
  json j = {{"threads", threads}, {"seconds", seconds}};
  if (!p.command_line.empty()) j["command_line"] = p.command_line;
  if (!p.python_call.empty()) j["python_call"] = p.python_call;
  return j;
}

json Accumulator::to_json(const RunConfig& config, const ProgramInfo& program,
                          const Performance& performance) const {
  assert(config.colors >= 2 && config.colors <= kMaxColors);
  assert(games_ == 0 || config.colors == colors_);
  const std::uint64_t n = games_;
  const int k = std::clamp(config.colors, 0, kMaxColors);

  json start_scores = json::array();
  for (int c = 1; c <= k; ++c) start_scores.push_back(c);

  json quantiles = json::object();
  for (int p : kQuantilePercents) quantiles["p" + std::to_string(p)] = quantile(p);
  const double m = mean(), sd = stddev(), half = ci_half_width();
  const double se = n == 0 ? 0.0 : sd / std::sqrt(double(n));

  json colors = json::array();
  for (int c = 0; c < k; ++c) {
    const std::uint64_t s = score_sums_[std::size_t(c)];
    colors.push_back({{"mean_score", ratio(double(s), n)}, {"score_sum", s}});
  }

  json end_reasons = json::object();
  for (auto r : kEndReasons)
    end_reasons[std::string(carc::end_reason_id(r))] = rate_json(end_counts_[std::size_t(r)], n);

  json goals = json::object();
  for (int i = 0; i < carc::kGoalCount; ++i)
    goals[std::string(carc::kGoalIds[std::size_t(i)])] = rate_json(goal_counts_[std::size_t(i)], n);

  std::uint64_t tiles_sum = 0;
  for (std::size_t v = 0; v < tiles_hist_.size(); ++v) tiles_sum += v * tiles_hist_[v];

  json doc = json::object();
  doc["format"] = kResultsFormat;
  doc["program"] = program_json(program);
  doc["config"] = {{"colors", k},
                   {"meeples", config.meeples},
                   {"start_scores", start_scores},
                   {"tileset", config.rules().name()},
                   {"placement_policy", config.placement_policy},
                   {"scoring_policy", config.scoring_policy},
                   {"seed", config.seed},
                   {"first_game", config.first_game},
                   {"games", n}};
  if (!config.base_game()) {  // the expansions (a base game's file holds neither field)
    doc["config"]["tileset_hash"] = config.rules().hash();
    doc["config"]["large_meeple"] = config.rules().large_meeple();
  }
  if (!config.value_net_hash.empty())
    doc["config"]["value_net"] = {{"hash", config.value_net_hash}, {"source", config.value_net_source}};
  if (!config.context.aim.is_score()) doc["config"]["aim"] = config.context.aim.id();  // score play: none
  doc["games"] = n;
  doc["result"] = {{"mean", m},
                   {"std", sd},
                   {"stderr", se},
                   {"ci95", {m - half, m + half}},
                   {"min", min_result()},
                   {"max", max_result()},
                   {"quantiles", quantiles},
                   {"histogram", histogram_json(result_hist_)},
                   {"sum", result_sum()}};
  doc["colors"] = colors;
  doc["end_reasons"] = end_reasons;
  doc["tiles_placed"] = {{"mean", ratio(double(tiles_sum), n)},
                         {"histogram", histogram_json(tiles_hist_)}};
  doc["discards"] = {{"mean", ratio(double(discards_total_), n)},
                     {"games_with_discard", games_with_discard_},
                     {"total", discards_total_}};
  doc["goals"] = goals;
  doc["performance"] = performance_json(program, performance.threads, performance.seconds);
  doc["performance"]["games_per_second"] =
      performance.seconds > 0 ? double(n) / performance.seconds : 0.0;
  return doc;
}

Accumulator Accumulator::from_json(const json& doc) {
  if (!doc.is_object()) fail("", "expected a JSON object");
  if (read_string(member(doc, "", "format"), "format") != kResultsFormat)
    fail("format", std::string("expected \"") + kResultsFormat + "\"");

  Accumulator a;
  const std::uint64_t n = read_count(member(doc, "", "games"), "games");
  a.games_ = n;
  const json& config = member(doc, "", "config");
  if (read_count(member(config, "config", "games"), "config.games") != n)
    fail("config.games", "differs from games");

  const json& result = member(doc, "", "result");
  if (read_histogram(member(result, "result", "histogram"), "result.histogram",
                     a.result_hist_) != n)
    fail("result.histogram", "counts do not add up to games");
  if (read_count(member(result, "result", "sum"), "result.sum") != a.result_sum())
    fail("result.sum", "does not match result.histogram");

  const json& colors = member(doc, "", "colors");
  if (!colors.is_array() || colors.size() < 2 || colors.size() > std::size_t(kMaxColors))
    fail("colors", "expected an array of 2.." + std::to_string(kMaxColors) + " entries");
  const int k = int(colors.size());
  if (read_int(member(config, "config", "colors"), "config.colors", 2, kMaxColors) != k)
    fail("colors", "length differs from config.colors");
  for (int c = 0; c < k; ++c) {
    const std::string at = "colors[" + std::to_string(c) + "]";
    const std::uint64_t s = read_count(member(colors[std::size_t(c)], at, "score_sum"),
                                       at + ".score_sum");
    if (n == 0 && s != 0) fail(at + ".score_sum", "non-zero with zero games");
    a.score_sums_[std::size_t(c)] = s;
  }
  a.colors_ = n == 0 ? 0 : k;

  const json& ends = member(doc, "", "end_reasons");
  std::uint64_t ended = 0;
  for (auto r : kEndReasons) {
    const std::string id(carc::end_reason_id(r));
    const std::string at = "end_reasons." + id;
    const std::uint64_t c = read_count(member(member(ends, "end_reasons", id), at, "count"),
                                       at + ".count");
    a.end_counts_[std::size_t(r)] = c;
    ended = add_checked(ended, c, "end_reasons");
  }
  if (ends.size() != kEndReasons.size()) fail("end_reasons", "unknown end reason");
  if (ended != n) fail("end_reasons", "counts do not add up to games");

  if (read_histogram(member(member(doc, "", "tiles_placed"), "tiles_placed", "histogram"),
                     "tiles_placed.histogram", a.tiles_hist_) != n)
    fail("tiles_placed.histogram", "counts do not add up to games");

  const json& discards = member(doc, "", "discards");
  a.discards_total_ = read_count(member(discards, "discards", "total"), "discards.total");
  a.games_with_discard_ = read_count(member(discards, "discards", "games_with_discard"),
                                     "discards.games_with_discard");
  if (a.games_with_discard_ > n) fail("discards.games_with_discard", "exceeds games");
  if (a.games_with_discard_ > a.discards_total_ ||
      (a.discards_total_ > 0 && a.games_with_discard_ == 0))
    fail("discards", "total and games_with_discard disagree");

  const json& goals = member(doc, "", "goals");
  for (int i = 0; i < carc::kGoalCount; ++i) {
    const std::string id(carc::kGoalIds[std::size_t(i)]);
    const std::string at = "goals." + id;
    const std::uint64_t c = read_count(member(member(goals, "goals", id), at, "count"),
                                       at + ".count");
    if (c > n) fail(at + ".count", "exceeds games");
    a.goal_counts_[std::size_t(i)] = c;
  }
  if (goals.size() != std::size_t(carc::kGoalCount)) fail("goals", "unknown goal id");
  return a;
}

RunConfig run_config_from_json(const json& doc) {
  const json& j = member(doc, "", "config");
  RunConfig c;
  c.colors = read_int(member(j, "config", "colors"), "config.colors", 2, kMaxColors);
  c.meeples = read_int(member(j, "config", "meeples"), "config.meeples", 0, 1 << 20);
  const json& start = member(j, "config", "start_scores");
  bool standard = start.is_array() && start.size() == std::size_t(c.colors);
  for (std::size_t i = 0; standard && i < start.size(); ++i)
    standard = start[i].is_number_integer() && start[i].get<std::int64_t>() == std::int64_t(i + 1);
  if (!standard) fail("config.start_scores", "expected [1, ..., colors]");
  const std::string tileset = read_string(member(j, "config", "tileset"), "config.tileset");
  std::string tileset_hash;
  bool large_meeple = false;
  if (j.contains("tileset_hash"))
    tileset_hash = read_string(member(j, "config", "tileset_hash"), "config.tileset_hash");
  if (j.contains("large_meeple")) {
    const json& lm = j["large_meeple"];
    if (!lm.is_boolean()) fail("config.large_meeple", "expected true or false");
    large_meeple = lm.get<bool>();
  }
  c.context.rules = Ruleset::recorded(tileset, tileset_hash, large_meeple);
  if (j.contains("aim")) {  // files of score play have none
    const std::optional<Aim> aim = parse_aim(read_string(j["aim"], "config.aim"));
    if (!aim) fail("config.aim", "expected score, goals or a goal id");
    c.context.aim = *aim;
  }
  c.placement_policy =
      read_string(member(j, "config", "placement_policy"), "config.placement_policy");
  c.scoring_policy = read_string(member(j, "config", "scoring_policy"), "config.scoring_policy");
  c.seed = read_count(member(j, "config", "seed"), "config.seed");
  c.first_game = read_count(member(j, "config", "first_game"), "config.first_game");
  c.games = read_count(member(j, "config", "games"), "config.games");
  if (j.contains("value_net")) {  // files of versions that did not record it have none
    const json& net = j["value_net"];
    c.value_net_hash = read_string(member(net, "config.value_net", "hash"), "config.value_net.hash");
    c.value_net_source = read_string(member(net, "config.value_net", "source"), "config.value_net.source");
  }
  return c;
}

std::string Accumulator::summary() const {
  std::string out;
  const auto n = games_;
  if (n == 1) return game_summary();
  appendf(out, "%llu games", static_cast<unsigned long long>(n));
  if (n == 0) return out + "\n";
  appendf(out, "; result mean %.3f ± %.3f (95%% CI), std %.2f, min %d, max %d\n", mean(),
          ci_half_width(), stddev(), min_result(), max_result());
  appendf(out, "  p10 %d, p50 %d, p90 %d\n", quantile(10), quantile(50), quantile(90));
  // Every rate in one format (percent, three decimals), every goal whether reached or not,
  // each with its 95% Wilson interval.
  out += "  end:";
  const char* sep = " ";
  for (auto r : kEndReasons) {
    appendf(out, "%s%s %.3f%%", sep, std::string(carc::end_reason_id(r)).c_str(),
            100.0 * ratio(double(end_counts_[std::size_t(r)]), n));
    sep = ", ";
  }
  std::uint64_t tiles_sum = 0;
  for (std::size_t v = 0; v < tiles_hist_.size(); ++v) tiles_sum += v * tiles_hist_[v];
  appendf(out, "; tiles placed %.2f, discards %.4f per game\n", ratio(double(tiles_sum), n),
          ratio(double(discards_total_), n));
  out += "  goals (rate, 95% Wilson interval):\n";
  for (int i = 0; i < carc::kGoalCount; ++i) {
    const std::uint64_t c = goal_counts_[std::size_t(i)];
    const auto ci = wilson95(c, n);
    appendf(out, "    %-13s %7.3f%%  [%.3f%%, %.3f%%]\n", std::string(carc::kGoalIds[std::size_t(i)]).c_str(),
            100.0 * ratio(double(c), n), 100.0 * ci[0], 100.0 * ci[1]);
  }
  return out;
}

// One game holds no distribution: its sums are its values.
std::string Accumulator::game_summary() const {
  std::string out;
  appendf(out, "1 game: result %d; scores", min_result());
  for (int c = 0; c < colors_; ++c)
    appendf(out, "%s %llu", c == 0 ? "" : ",", static_cast<unsigned long long>(score_sums_[std::size_t(c)]));
  out += "\n  end: ";
  for (auto r : kEndReasons)
    if (end_counts_[std::size_t(r)]) out += std::string(carc::end_reason_id(r));
  std::uint64_t tiles = 0;
  for (std::size_t v = 0; v < tiles_hist_.size(); ++v) tiles += v * tiles_hist_[v];
  appendf(out, "; tiles placed %llu, discards %llu\n", static_cast<unsigned long long>(tiles),
          static_cast<unsigned long long>(discards_total_));
  std::string reached;
  int count = 0;
  for (int i = 0; i < carc::kGoalCount; ++i)
    if (goal_counts_[std::size_t(i)]) {
      reached += (count++ ? ", " : " ") + std::string(carc::kGoalIds[std::size_t(i)]);
    }
  appendf(out, "  goals reached (%d of %d):", count, carc::kGoalCount);
  return out + (count ? reached : std::string(" none")) + "\n";
}

}  // namespace carc::sim
