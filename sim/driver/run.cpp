#include "sim/driver/run.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "policies/policy.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/mpi.hpp"
#include "sim/driver/paired.hpp"

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
  const std::uint64_t rank = std::uint64_t(processes::rank());
  const std::uint64_t ranks = std::uint64_t(processes::count());
  // Games are played in blocks; block b belongs to process b mod ranks (there is one
  // process unless run under mpirun), whose threads take its blocks in order from one
  // counter. A block once taken is played whole, and a stop request only keeps new blocks
  // from being taken; then the processes agree on the first block that none has taken and
  // each finishes its blocks below it. So the games played are always a prefix
  // [0, blocks * block size) of the range: a partial file covers an exact game range that
  // a later run can complete. Blocks are small enough to share the range out evenly.
  const std::uint64_t workers = std::uint64_t(threads) * ranks;
  const std::uint64_t block = std::clamp<std::uint64_t>(rc.games / (workers * 64), 1, 256);
  const std::uint64_t n_blocks = (rc.games + block - 1) / block;
  const std::uint64_t my_blocks = n_blocks > rank ? (n_blocks - rank + ranks - 1) / ranks : 0;
  std::atomic<std::uint64_t> next{0}, games_done{0};
  std::vector<Accumulator> acc(static_cast<std::size_t>(threads));
  const auto t0 = Clock::now();

  // Plays this process's blocks from `next` up to (not including) its k_end-th.
  auto play = [&](std::uint64_t k_end, bool stoppable) {
#pragma omp parallel num_threads(threads)
    {
      auto placement = make_placement_policy(rc.placement_policy);
      auto scoring = make_scoring_policy(rc.scoring_policy);
      const int tid = omp_get_thread_num();
      Accumulator mine;  // on this thread's stack: no cache line shared with other threads
      auto last_print = Clock::now();
      for (;;) {
        if (stoppable && req.stop && req.stop->load(std::memory_order_relaxed)) break;
        const std::uint64_t k = next.fetch_add(1);
        if (k >= k_end) break;
        const std::uint64_t lo = (rank + k * ranks) * block, hi = std::min(rc.games, lo + block);
        for (std::uint64_t i = lo; i < hi; ++i)
          mine.add(play_game(GameSpec{cfg, rc.seed, rc.first_game + i}, *placement, *scoring));
        games_done += hi - lo;
        if (req.progress && tid == 0 && rank == 0) {
          const auto now = Clock::now();
          if (now - last_print > std::chrono::milliseconds(250)) {
            last_print = now;
            print_progress(games_done * ranks, rc.games,
                           std::chrono::duration<double>(now - t0).count(), mine);
          }
        }
      }
      acc[std::size_t(tid)].merge(mine);
    }
  };
  play(my_blocks, true);
  // After a stop: every process completes its blocks below the first one not taken by
  // all (nothing to do without a stop, or with one process).
  const std::uint64_t taken = std::min<std::uint64_t>(next.load(), my_blocks);
  const std::uint64_t first_untaken =
      processes::max_over_all(std::min(n_blocks, rank + taken * ranks));
  const std::uint64_t k_end = first_untaken > rank ? (first_untaken - rank + ranks - 1) / ranks : 0;
  if (k_end > taken) {
    next = taken;
    play(k_end, false);
  }

  RunOutcome out;
  Accumulator local;
  for (const auto& a : acc) local.merge(a);
  out.acc = processes::combine(local);
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  out.games_done = out.acc.games();
  out.partial = out.games_done < rc.games;
  if (req.progress && rank == 0) std::fprintf(stderr, "\n");
  return out;
}

RunOutcome run_until_ci(const RunRequest& req, double half_width, std::uint64_t first_batch) {
  const std::uint64_t cap = req.config.games;
  RunOutcome total;
  for (std::uint64_t goal = std::min(std::max<std::uint64_t>(first_batch, 2), cap);;) {
    RunRequest batch = req;
    batch.config.first_game = req.config.first_game + total.games_done;
    batch.config.games = goal - total.games_done;
    const RunOutcome r = run_games(batch);
    total.acc.merge(r.acc);
    total.games_done += r.games_done;
    total.seconds += r.seconds;
    total.partial = r.partial;
    const double w = total.acc.ci_half_width();
    if (r.partial || w <= half_width || total.games_done >= cap) break;
    goal = next_checkpoint(total.games_done, w, half_width, first_batch, cap);
    if (req.progress && processes::rank() == 0)
      std::fprintf(stderr, "%llu games: mean %.3f ± %.3f, target ± %g: playing on to %llu\n",
                   static_cast<unsigned long long>(total.games_done), total.acc.mean(), w,
                   half_width, static_cast<unsigned long long>(goal));
  }
  return total;
}

}  // namespace carc::sim
