#include "sim/stats/paired_diff.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace carc::sim {
namespace {

constexpr double kZ95 = 1.96;

// Sample variance from exact sums, in long double: the sums are exact integers, so this is
// the same number on every run; the cancellation is negligible for results below 1024.
double sample_variance(std::uint64_t n, long double sum, long double sum_sq) {
  if (n < 2) return 0.0;
  const long double nn = static_cast<long double>(n);
  const long double v = (sum_sq - sum * sum / nn) / (nn - 1);
  return v > 0 ? double(v) : 0.0;
}

double half_width(std::uint64_t n, double variance) {
  return n == 0 ? 0.0 : kZ95 * std::sqrt(variance / double(n));
}

// --- reading: every failure is one line naming the key -----------------------------

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("malformed paired difference: " + path + ": " + what);
}

const nlohmann::json& member(const nlohmann::json& obj, const std::string& path,
                             const std::string& key) {
  if (!obj.is_object()) fail(path, "expected an object");
  const auto it = obj.find(key);
  if (it == obj.end()) fail(path + "." + key, "missing");
  return *it;
}

std::uint64_t read_count(const nlohmann::json& obj, const std::string& path,
                         const std::string& key) {
  const nlohmann::json& j = member(obj, path, key);
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0)
    return std::uint64_t(j.get<std::int64_t>());
  fail(path + "." + key, "expected a non-negative integer");
}

}  // namespace

void PairedDiff::add(const GameOutcome& first, const GameOutcome& second) {
  const std::int64_t d = std::int64_t(second.result) - std::int64_t(first.result);
  ++games_;
  sum_ += d;
  sum_sq_ += std::uint64_t(d * d);
  if (d > 0) ++wins_;
  else if (d < 0) ++losses_;
  else ++draws_;
  for (int g = 0; g < carc::kGoalCount; ++g) {
    const bool a = (first.goals >> g) & 1u, b = (second.goals >> g) & 1u;
    only_first_[std::size_t(g)] += a && !b;
    only_second_[std::size_t(g)] += b && !a;
    both_[std::size_t(g)] += a && b;
  }
}

void PairedDiff::merge(const PairedDiff& o) {
  games_ += o.games_;
  sum_ += o.sum_;
  sum_sq_ += o.sum_sq_;
  wins_ += o.wins_;
  draws_ += o.draws_;
  losses_ += o.losses_;
  for (std::size_t g = 0; g < only_first_.size(); ++g) {
    only_first_[g] += o.only_first_[g];
    only_second_[g] += o.only_second_[g];
    both_[g] += o.both_[g];
  }
}

double PairedDiff::mean() const { return games_ == 0 ? 0.0 : double(sum_) / double(games_); }

double PairedDiff::stddev() const {
  return std::sqrt(sample_variance(games_, static_cast<long double>(sum_),
                                   static_cast<long double>(sum_sq_)));
}

double PairedDiff::ci_half_width() const { return half_width(games_, stddev() * stddev()); }

double PairedDiff::goal_mean(int g) const {
  if (games_ == 0) return 0.0;
  const auto i = std::size_t(g);
  return (double(only_second_[i]) - double(only_first_[i])) / double(games_);
}

double PairedDiff::goal_ci_half_width(int g) const {
  const auto i = std::size_t(g);
  // Per-game differences are +1 (only second), -1 (only first) or 0.
  const long double s = static_cast<long double>(only_second_[i]) -
                        static_cast<long double>(only_first_[i]);
  const long double ss = static_cast<long double>(only_second_[i] + only_first_[i]);
  return half_width(games_, sample_variance(games_, s, ss));
}

nlohmann::json PairedDiff::to_json() const {
  const double m = mean(), sd = stddev(), h = ci_half_width();
  nlohmann::json goals = nlohmann::json::object();
  for (int g = 0; g < carc::kGoalCount; ++g) {
    const auto i = std::size_t(g);
    const double gm = goal_mean(g), gh = goal_ci_half_width(g);
    goals[std::string(carc::kGoalIds[i])] = {{"first_count", only_first_[i] + both_[i]},
                                             {"second_count", only_second_[i] + both_[i]},
                                             {"only_first", only_first_[i]},
                                             {"only_second", only_second_[i]},
                                             {"difference", gm},
                                             // A difference of two rates lies in [-1, 1].
                                             {"ci95", {std::max(-1.0, gm - gh), std::min(1.0, gm + gh)}}};
  }
  return {{"games", games_},
          {"mean", m},
          {"std", sd},
          {"stderr", games_ == 0 ? 0.0 : sd / std::sqrt(double(games_))},
          {"ci95", {m - h, m + h}},
          {"sum", sum_},
          {"sum_of_squares", sum_sq_},
          {"wins", wins_},
          {"draws", draws_},
          {"losses", losses_},
          {"goals", goals}};
}

PairedDiff PairedDiff::from_json(const nlohmann::json& doc, const std::string& where) {
  PairedDiff d;
  d.games_ = read_count(doc, where, "games");
  d.sum_sq_ = read_count(doc, where, "sum_of_squares");
  d.wins_ = read_count(doc, where, "wins");
  d.draws_ = read_count(doc, where, "draws");
  d.losses_ = read_count(doc, where, "losses");
  const nlohmann::json& sum = member(doc, where, "sum");
  if (!sum.is_number_integer()) fail(where + ".sum", "expected an integer");
  d.sum_ = sum.get<std::int64_t>();
  // Every game is a win, a draw or a loss.
  if (d.wins_ > d.games_ || d.draws_ > d.games_ - d.wins_ ||
      d.losses_ != d.games_ - d.wins_ - d.draws_)
    fail(where, "wins, draws and losses do not add up to games");
  const nlohmann::json& goals = member(doc, where, "goals");
  if (!goals.is_object() || goals.size() != std::size_t(carc::kGoalCount))
    fail(where + ".goals", "expected one entry per goal");
  for (int g = 0; g < carc::kGoalCount; ++g) {
    const auto i = std::size_t(g);
    const std::string id(carc::kGoalIds[i]), at = where + ".goals." + id;
    const nlohmann::json& goal = member(goals, where + ".goals", id);
    d.only_first_[i] = read_count(goal, at, "only_first");
    d.only_second_[i] = read_count(goal, at, "only_second");
    const std::uint64_t first = read_count(goal, at, "first_count");
    const std::uint64_t second = read_count(goal, at, "second_count");
    if (first < d.only_first_[i] || second < d.only_second_[i] ||
        first - d.only_first_[i] != second - d.only_second_[i])
      fail(at, "counts disagree");
    d.both_[i] = first - d.only_first_[i];
    const std::uint64_t rest = d.games_ - std::min(d.games_, d.both_[i]);
    if (d.both_[i] > d.games_ || d.only_first_[i] > rest ||
        d.only_second_[i] > rest - d.only_first_[i])
      fail(at, "counts exceed games");
  }
  return d;
}

std::uint64_t next_checkpoint(std::uint64_t done, double half_width, double target,
                              std::uint64_t min_step, std::uint64_t cap) {
  min_step = std::max<std::uint64_t>(min_step, 1);
  if (done >= cap) return cap;
  std::uint64_t want = done + min_step;
  if (done > 0 && target > 0 && half_width > target) {
    const double ratio = half_width / target;
    const double need = 1.1 * double(done) * ratio * ratio;
    const double limit = 4.0 * double(done);
    want = std::max(want, std::uint64_t(std::ceil(std::min(need, limit))));
  }
  return std::min(want, cap);
}

}  // namespace carc::sim
