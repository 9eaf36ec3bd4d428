#include "sim/paired.hpp"

#include <omp.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "policies/policy.hpp"
#include "sim/game.hpp"

namespace carc::sim {
namespace {

using Clock = std::chrono::steady_clock;
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
                                             {"ci95", {gm - gh, gm + gh}}};
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

void MatrixOutcome::append(const MatrixOutcome& next) {
  if (acc.empty()) {
    *this = next;
    return;
  }
  assert(acc.size() == next.acc.size() && diff.size() == next.diff.size());
  for (std::size_t k = 0; k < acc.size(); ++k) {
    acc[k].merge(next.acc[k]);
    config_seconds[k] += next.config_seconds[k];
  }
  for (std::size_t k = 0; k < diff.size(); ++k) diff[k].merge(next.diff[k]);
  games_done += next.games_done;
  seconds += next.seconds;
  partial = next.partial;
}

nlohmann::json MatrixOutcome::run_json(const RunConfig& config, std::uint64_t first_game,
                                       const ProgramInfo& program, int threads,
                                       std::size_t k) const {
  RunConfig c = config;
  c.first_game = first_game;
  c.games = acc[k].games();
  auto doc = acc[k].to_json(c, program, Performance{threads, config_seconds[k]});
  if (partial) doc["partial"] = true;
  return doc;
}

MatrixOutcome play_matrix(const MatrixRequest& req) {
  const std::size_t n_cfg = req.configs.size();
  if (n_cfg == 0) throw std::invalid_argument("play_matrix: no configuration");
  const int threads = std::max(1, req.threads);
  // Blocks from one counter; a block once taken is played whole and a stop request only
  // keeps new ones from being taken, so what was played is always a prefix of the range.
  constexpr std::uint64_t kBlock = 64;
  const std::uint64_t n_blocks = (req.games + kBlock - 1) / kBlock;
  std::atomic<std::uint64_t> next_block{0}, games_done{0};
  std::vector<MatrixOutcome> part(static_cast<std::size_t>(threads));
  const auto t0 = Clock::now();

#pragma omp parallel num_threads(threads)
  {
    const int tid = omp_get_thread_num();
    MatrixOutcome& mine = part[std::size_t(tid)];
    mine.acc.assign(n_cfg, Accumulator{});
    mine.diff.assign(req.paired ? n_cfg - 1 : 0, PairedDiff{});
    mine.config_seconds.assign(n_cfg, 0.0);
    std::vector<std::unique_ptr<PlacementPolicy>> placement;
    std::vector<std::unique_ptr<ScoringPolicy>> scoring;
    for (const auto& c : req.configs) {
      placement.push_back(make_placement_policy(c.placement_policy));
      scoring.push_back(make_scoring_policy(c.scoring_policy));
    }
    std::vector<GameOutcome> outcome(n_cfg);
    auto last_print = Clock::now();
    for (;;) {
      if (req.stop && req.stop->load(std::memory_order_relaxed)) break;
      const std::uint64_t b = next_block.fetch_add(1);
      if (b >= n_blocks) break;
      const std::uint64_t lo = b * kBlock, hi = std::min(req.games, lo + kBlock);
      for (std::uint64_t i = lo; i < hi; ++i) {
        for (std::size_t k = 0; k < n_cfg; ++k) {
          const RunConfig& c = req.configs[k];
          const auto start = Clock::now();
          outcome[k] = play_game(GameSpec{Config{c.colors, c.meeples}, c.seed, req.first_game + i},
                                 *placement[k], *scoring[k]);
          mine.config_seconds[k] += std::chrono::duration<double>(Clock::now() - start).count();
          mine.acc[k].add(outcome[k]);
        }
        for (std::size_t k = 1; k < mine.diff.size() + 1; ++k)
          mine.diff[k - 1].add(outcome[0], outcome[k]);
      }
      games_done += hi - lo;
      mine.games_done += hi - lo;
      if (req.progress && tid == 0) {
        const auto now = Clock::now();
        if (now - last_print > std::chrono::milliseconds(250)) {
          last_print = now;
          const double secs = std::chrono::duration<double>(now - t0).count();
          // Games played: every game index is played once per configuration.
          const std::uint64_t done = games_done * n_cfg, total = req.games * n_cfg;
          const double rate = secs > 0 ? double(done) / secs : 0;
          const double eta = rate > 0 ? double(total - done) / rate : 0;
          // Thread 0's games stand in for all of them: a fair sample, no locking.
          std::fprintf(stderr, "\r%llu/%llu games  %.0f games/s  %s  ETA %.0fs   ",
                       static_cast<unsigned long long>(done),
                       static_cast<unsigned long long>(total), rate,
                       req.progress(mine).c_str(), eta);
          std::fflush(stderr);
        }
      }
    }
  }
  MatrixOutcome out;
  out.acc.assign(n_cfg, Accumulator{});
  out.diff.assign(req.paired ? n_cfg - 1 : 0, PairedDiff{});
  out.config_seconds.assign(n_cfg, 0.0);
  for (const auto& p : part) {
    for (std::size_t k = 0; k < n_cfg; ++k) {
      out.acc[k].merge(p.acc[k]);
      out.config_seconds[k] += p.config_seconds[k] / threads;
    }
    for (std::size_t k = 0; k < out.diff.size(); ++k) out.diff[k].merge(p.diff[k]);
    out.games_done += p.games_done;
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  out.partial = out.games_done < req.games;
  if (req.progress) std::fprintf(stderr, "\n");
  return out;
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
