#include "sim/driver/matrix.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/errors.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/mpi.hpp"

namespace carc::sim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Games are played in blocks; block b belongs to process b mod ranks (there is one process
// unless run under mpirun), whose threads take its blocks in order from one counter: the
// k-th block of this process is block rank + k * ranks. A block once taken is played
// whole, so after a stop the processes can agree on the first block none has taken, and
// each finish their blocks below it: the games played are always a prefix of the range,
// and a partial file covers an exact game range that a later run can complete. Blocks are
// small enough to share the range out evenly.
struct BlockPlan {
  std::uint64_t games = 0, block = 1, blocks = 0, rank = 0, ranks = 1;

  BlockPlan(std::uint64_t n, int threads, std::size_t configs)
      : games(n), rank(std::uint64_t(processes::rank())), ranks(std::uint64_t(processes::count())) {
    const std::uint64_t workers = std::uint64_t(threads) * ranks;
    const std::uint64_t most = std::max<std::uint64_t>(1, 256 / configs);
    block = std::clamp<std::uint64_t>(games / (workers * 64), 1, most);
    blocks = (games + block - 1) / block;
  }
  std::uint64_t global(std::uint64_t k) const { return rank + k * ranks; }
  std::uint64_t begin(std::uint64_t k) const { return global(k) * block; }
  std::uint64_t end(std::uint64_t k) const { return std::min(games, begin(k) + block); }
  // How many of this process's blocks lie below block b (all of them: b = blocks).
  std::uint64_t mine_below(std::uint64_t b) const {
    return b > rank ? (b - rank + ranks - 1) / ranks : 0;
  }
};

// One thread's policies (made per thread: they keep buffers) and accumulators.
struct Worker {
  std::vector<std::unique_ptr<PlacementPolicy>> placement;
  std::vector<std::unique_ptr<ScoringPolicy>> scoring;
  std::vector<GameSpec> specs;  // per configuration: its game config, seed and deal
  std::vector<GameOutcome> outcome;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // of part.diff
  MatrixOutcome part;

  explicit Worker(const MatrixRequest& req) : outcome(req.configs.size()) {
    for (std::size_t k = 0; k < req.configs.size(); ++k) {
      const RunConfig& c = req.configs[k];
      auto p = req.makers.placement ? req.makers.placement(c) : nullptr;
      auto q = req.makers.scoring ? req.makers.scoring(c) : nullptr;
      placement.push_back(p ? std::move(p) : make_placement_policy(c.placement_policy, c.context));
      scoring.push_back(q ? std::move(q) : make_scoring_policy(c.scoring_policy));
      specs.push_back(GameSpec{c.game_config(), c.seed, 0, req.deal});  // made once: a game sets its index
    }
    const auto& configs = req.configs;
    part.acc.resize(configs.size());
    pairs = matrix_pairs(configs.size(), req.all_pairs);
    part.diff.resize(pairs.size());
    part.config_seconds.resize(configs.size());
  }

  // Game index `game` under every configuration. `timed`: clock each configuration's
  // share (only worth its cost when there are several).
  void play(const MatrixRequest& req, std::uint64_t game, bool timed) {
    const auto& configs = req.configs;
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const auto start = timed ? Clock::now() : Clock::time_point{};
      specs[k].game = game;
      outcome[k] = play_game(specs[k], *placement[k], *scoring[k]);
      if (timed) part.config_seconds[k] += seconds_since(start);
      part.acc[k].add(outcome[k]);
      if (req.per_game)
        req.per_game->rows[(game - req.per_game->first_game) * configs.size() + k] = outcome[k];
    }
    for (std::size_t i = 0; i < pairs.size(); ++i)
      part.diff[i].add(outcome[pairs[i].first], outcome[pairs[i].second]);
  }
};

// What the threads of one play_matrix call share.
struct Shared {
  const MatrixRequest& req;
  BlockPlan plan;
  Clock::time_point t0 = Clock::now();
  std::atomic<std::uint64_t> next{0};
  std::vector<MatrixOutcome> parts;  // per thread, filled when it ends
  alignas(64) FirstError errors;  // read every game: a cache line apart from the counter
  bool prints = false;  // this process keeps the progress line

  // The progress line's view of the threads' games (only when this process prints): each
  // thread copies its accumulators into its slot, under the slot's lock, every 100 ms; the
  // line merges the slots into `shown`, so its count and its statistics are of the same
  // whole games (of every thread, not one thread's standing in for all).
  struct Slot {
    std::mutex m;
    MatrixOutcome part;
  };
  std::unique_ptr<Slot[]> slots;
  MatrixOutcome shown;      // the printing thread's
  std::uint64_t share = 0;  // games of this process's blocks

  explicit Shared(const MatrixRequest& r)
      : req(r), plan(r.games, std::max(1, r.threads), r.configs.size()),
        parts(std::size_t(std::max(1, r.threads))) {
    prints = (req.progress || req.line) && plan.rank == 0;
    if (!prints) return;
    slots.reset(new Slot[parts.size()]);
    for (std::uint64_t k = 0; k < plan.mine_below(plan.blocks); ++k)
      share += plan.end(k) - plan.begin(k);
  }

  void publish(std::size_t tid, const MatrixOutcome& part) {
    std::lock_guard lock(slots[tid].m);
    slots[tid].part = part;
  }
  // Every slot merged into `shown` (one thread calls it).
  const MatrixOutcome& gather() {
    shown.acc.assign(req.configs.size(), Accumulator{});
    shown.diff.assign(matrix_pairs(req.configs.size(), req.all_pairs).size(), PairedDiff{});
    shown.config_seconds.assign(req.configs.size(), 0.0);  // not shown
    for (std::size_t t = 0; t < parts.size(); ++t) {
      std::lock_guard lock(slots[t].m);
      const MatrixOutcome& p = slots[t].part;
      if (p.acc.empty()) continue;  // nothing published yet
      for (std::size_t k = 0; k < p.acc.size(); ++k) shown.acc[k].merge(p.acc[k]);
      for (std::size_t k = 0; k < p.diff.size(); ++k) shown.diff[k].merge(p.diff[k]);
    }
    shown.games_done = shown.acc[0].games();
    return shown;
  }
};

// One line, "\r" first so that it overwrites the last: `so_far` (null before the first
// game) are the games of this process it shows, of `range`; every process's at the end.
void print_progress(const Shared& s, const MatrixOutcome* so_far, std::uint64_t range,
                    int processes) {
  const ProgressView v{so_far, range, seconds_since(s.t0), processes};
  const std::string line = s.req.line ? s.req.line(v) : progress_line(v, s.req.progress);
  std::fprintf(stderr, "\r%s   ", line.c_str());
  std::fflush(stderr);
}

// This thread takes blocks from the counter until the k_end-th, a stop (when stoppable)
// or another thread's failure. A stop lets the block finish (the games played stay a
// prefix); a failure does not (nothing played is kept).
void take_blocks(Shared& s, Worker& w, std::size_t tid, std::uint64_t k_end, bool stoppable,
                 bool prints) {
  const bool timed = s.req.configs.size() > 1;
  const bool publishes = s.prints && stoppable;
  auto last_publish = Clock::now(), last_print = Clock::now();
  for (;;) {
    if (stoppable && s.req.stop && s.req.stop->load(std::memory_order_relaxed)) break;
    const std::uint64_t k = s.next.fetch_add(1);
    if (k >= k_end) break;
    const std::uint64_t lo = s.plan.begin(k), hi = s.plan.end(k);
    for (std::uint64_t i = lo; i < hi; ++i) {
      if (s.errors.failed()) return;
      w.play(s.req, s.req.first_game + i, timed);
      if (!publishes) continue;
      // Within a block too (a block of slow games would otherwise show nothing for
      // seconds), but not every game: that spares the copies when games are fast.
      const auto now = Clock::now();
      if (now - last_publish > std::chrono::milliseconds(100)) {
        s.publish(tid, w.part);
        last_publish = now;
      }
      if (prints && now - last_print > std::chrono::milliseconds(250)) {
        last_print = now;
        const int ranks = int(s.plan.ranks);
        print_progress(s, &s.gather(), ranks > 1 ? s.share : s.plan.games, ranks);
      }
    }
  }
}
// This process's blocks from `next` up to (not including) its k_end-th, on all threads.
// Nothing escapes the region: the first exception is kept in s.errors.
void play_blocks(Shared& s, std::uint64_t k_end, bool stoppable) {
#pragma omp parallel num_threads(int(s.parts.size()))
  {
    const int tid = omp_get_thread_num();
    try {
      Worker w(s.req);
      take_blocks(s, w, std::size_t(tid), k_end, stoppable, s.prints && stoppable && tid == 0);
      s.parts[std::size_t(tid)].append(w.part);
    } catch (...) {
      s.errors.capture();
    }
  }
}


MatrixOutcome sum_of_parts(const Shared& s) {
  const std::size_t n_cfg = s.req.configs.size();
  MatrixOutcome out;
  out.acc.resize(n_cfg);
  out.diff.resize(matrix_pairs(n_cfg, s.req.all_pairs).size());
  out.config_seconds.assign(n_cfg, 0.0);
  for (const auto& p : s.parts) {
    if (p.acc.empty()) continue;  // a thread that never ran
    for (std::size_t k = 0; k < n_cfg; ++k) {
      out.acc[k].merge(p.acc[k]);
      out.config_seconds[k] += p.config_seconds[k] / double(s.parts.size());
    }
    for (std::size_t k = 0; k < out.diff.size(); ++k) out.diff[k].merge(p.diff[k]);
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> matrix_pairs(std::size_t configs, bool all) {
  std::vector<std::pair<std::size_t, std::size_t>> v;
  for (std::size_t i = 0; i < (all ? configs : std::min<std::size_t>(configs, 1)); ++i)
    for (std::size_t j = i + 1; j < configs; ++j) v.emplace_back(i, j);
  return v;
}

void MatrixOutcome::append(const MatrixOutcome& next) {
  if (acc.empty()) {
    *this = next;
    return;
  }
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

int default_threads() { return std::max(1, omp_get_num_procs()); }

std::string duration_text(double seconds) {
  char buf[48];
  const auto whole = static_cast<unsigned long long>(std::max(0.0, seconds) + 0.5);
  if (seconds < 10)
    std::snprintf(buf, sizeof buf, "%.1fs", std::max(0.0, seconds));
  else if (whole < 60)
    std::snprintf(buf, sizeof buf, "%llus", whole);
  else if (whole < 60 * 60)
    std::snprintf(buf, sizeof buf, "%llum %02llus", whole / 60, whole % 60);
  else
    std::snprintf(buf, sizeof buf, "%lluh %02llum", whole / 3600, whole / 60 % 60);
  return buf;
}

std::string progress_line(const ProgressView& v, const ProgressText& text) {
  const std::uint64_t done = v.so_far ? v.so_far->acc.at(0).games() : 0;
  const std::string who = v.processes > 1 ? "process 0: " : "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s%llu/%llu games", who.c_str(),
                static_cast<unsigned long long>(done), static_cast<unsigned long long>(v.range));
  if (done == 0) return buf;
  const double rate = v.seconds > 0 ? double(done) / v.seconds : 0;
  std::string line = buf;
  std::snprintf(buf, sizeof buf, "  %.0f games/s", rate);
  line += buf;
  if (text) line += "  " + text(*v.so_far);
  line += "  ETA " + (rate > 0 ? duration_text(double(v.range - std::min(done, v.range)) / rate)
                              : std::string("?"));
  return line;
}

MatrixOutcome play_matrix(const MatrixRequest& req) {
  if (req.configs.empty()) throw std::invalid_argument("play_matrix: no configuration");
  if (req.per_game) {
    if (processes::count() > 1)
      throw std::invalid_argument("per-game outcomes are kept by one process only (not under mpirun)");
    req.per_game->rows.resize((req.first_game + req.games - req.per_game->first_game) *
                              req.configs.size());
  }
  Shared s(req);
  if (s.prints) print_progress(s, nullptr, req.games, 1);
  const std::uint64_t mine = s.plan.mine_below(s.plan.blocks);
  play_blocks(s, mine, true);
  processes::agree_on_failure(s.errors);
  // After a stop: every process completes its blocks below the first one not taken by
  // all (nothing to do without a stop, or with one process).
  const std::uint64_t taken = std::min(s.next.load(), mine);
  const std::uint64_t first_untaken =
      processes::max_over_all(std::min(s.plan.blocks, s.plan.global(taken)));
  const std::uint64_t k_end = s.plan.mine_below(first_untaken);
  if (k_end > taken) {
    s.next = taken;
    play_blocks(s, k_end, false);
  }
  processes::agree_on_failure(s.errors);

  MatrixOutcome out = sum_of_parts(s);
  processes::combine(out.acc, out.diff);
  out.seconds = seconds_since(s.t0);
  if (out.acc.size() == 1) out.config_seconds[0] = out.seconds;
  out.games_done = out.acc[0].games();
  out.partial = out.games_done < req.games;
  if (req.per_game)  // a stop leaves a prefix of the range played
    req.per_game->rows.resize((req.first_game + out.games_done - req.per_game->first_game) *
                              req.configs.size());
  if (s.prints) {  // the line's last state: every process's games
    print_progress(s, &out, req.games, 1);
    std::fprintf(stderr, "\n");
  }
  return out;
}

}  // namespace carc::sim
