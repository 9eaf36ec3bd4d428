#include "sim/driver/paired.hpp"

#include <omp.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "policies/policy.hpp"
#include "sim/driver/game.hpp"

namespace carc::sim {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

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

}  // namespace carc::sim
