#include "sim/run.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "policies/policy.hpp"
#include "sim/game.hpp"

namespace carc::sim {
namespace {

using Clock = std::chrono::steady_clock;

void print_progress(std::uint64_t done, std::uint64_t total, double secs, const Accumulator& acc) {
  const double rate = secs > 0 ? done / secs : 0;
  const double eta = rate > 0 ? (total - done) / rate : 0;
  std::fprintf(stderr, "\r%llu/%llu games  %.0f games/s  mean %.3f ± %.3f  ETA %.0fs   ",
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
               rate, acc.mean(), acc.ci_half_width(), eta);
  std::fflush(stderr);
}

}  // namespace

int default_threads() { return std::max(1, omp_get_num_procs()); }

RunOutcome run_games(const RunRequest& req) {
  const RunConfig& rc = req.config;
  const int threads = std::max(1, req.threads);
  const Config cfg{rc.colors, rc.meeples};
  // Games are handed out in blocks from one counter. A block once taken is played whole,
  // and a stop request only keeps new blocks from being taken, so the games played are
  // always the prefix [0, blocks taken * kBlock) of the range: a partial file covers an
  // exact game range that a later run can complete.
  constexpr std::uint64_t kBlock = 256;
  const std::uint64_t n_blocks = (rc.games + kBlock - 1) / kBlock;
  std::atomic<std::uint64_t> next_block{0}, games_done{0};
  std::vector<Accumulator> acc(threads);
  const auto t0 = Clock::now();

#pragma omp parallel num_threads(threads)
  {
    auto placement = make_placement_policy(rc.placement_policy);
    auto scoring = make_scoring_policy(rc.scoring_policy);
    const int tid = omp_get_thread_num();
    Accumulator& mine = acc[tid];
    auto last_print = Clock::now();
    for (;;) {
      if (req.stop && req.stop->load(std::memory_order_relaxed)) break;
      const std::uint64_t b = next_block.fetch_add(1);
      if (b >= n_blocks) break;
      const std::uint64_t lo = b * kBlock, hi = std::min(rc.games, lo + kBlock);
      for (std::uint64_t i = lo; i < hi; ++i)
        mine.add(play_game(GameSpec{cfg, rc.seed, rc.first_game + i}, *placement, *scoring));
      games_done += hi - lo;
      if (req.progress && tid == 0) {
        const auto now = Clock::now();
        if (now - last_print > std::chrono::milliseconds(250)) {
          last_print = now;
          print_progress(games_done, rc.games,
                         std::chrono::duration<double>(now - t0).count(), mine);
        }
      }
    }
  }
  RunOutcome out;
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  for (const auto& a : acc) out.acc.merge(a);
  out.games_done = out.acc.games();
  out.partial = out.games_done < rc.games;
  if (req.progress) std::fprintf(stderr, "\n");
  return out;
}

}  // namespace carc::sim
