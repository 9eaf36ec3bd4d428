#include "sim/driver/positions.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <memory>

#include "core/turn.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/driver_env.hpp"
#include "sim/driver/errors.hpp"
#include "sim/driver/mpi.hpp"

namespace carc::sim {

static_assert(std::endian::native == std::endian::little,
              "rows are written as the memory holds them: little-endian");

namespace {

// A row's head and features; with the board layout also its root_value and chosen (the
// last two targets).
void put_row(PositionBytes& rows, PositionLayout layout, std::uint64_t game, int turn, int mover,
             const float* features, double root_value, bool chosen = true) {
  const std::size_t at = rows.size();
  rows.resize(at + layout.row_bytes());
  unsigned char* p = rows.data() + at;
  const std::uint16_t t = std::uint16_t(turn), m = std::uint16_t(mover);
  std::memcpy(p, &game, 8);
  std::memcpy(p + 8, &t, 2);
  std::memcpy(p + 10, &m, 2);
  std::memcpy(p + kPositionRowHead, features, 4 * std::size_t(layout.features()));
  if (layout.board) {
    const float v[2] = {float(root_value), chosen ? 1.0f : 0.0f};
    std::memcpy(p + layout.row_bytes() - 8, v, 8);
  }
}

// The targets of every row from `first` on, each in its own row's slots.
void put_targets(PositionBytes& rows, PositionLayout layout, std::size_t first, const State& end) {
  const int k = end.colors();
  for (std::size_t at = first; at < rows.size(); at += layout.row_bytes()) {
    unsigned char* p = rows.data() + at;
    std::uint16_t mover = 0;
    std::memcpy(&mover, p + 10, 2);
    std::array<float, kPositionTargets> t{};
    t[0] = float(end.result());
    for (int slot = 0; slot < k; ++slot) t[std::size_t(1 + slot)] = float(end.score((mover + 1 + slot) % k));
    for (int g = 0; g < kGoalCount; ++g) t[std::size_t(1 + kMaxColors + g)] = float(end.goals() >> g & 1);
    std::memcpy(p + kPositionRowHead + 4 * std::size_t(layout.features()), t.data(), sizeof t);
  }
}

}  // namespace

std::vector<std::string> position_feature_columns(bool board) { return afterstate_feature_columns(board); }

std::vector<std::string> position_target_columns(bool board) {
  std::vector<std::string> names = {"result"};
  for (int slot = 0; slot < kMaxColors; ++slot) names.push_back("final_score_" + std::to_string(slot));
  for (const auto id : kGoalIds) names.push_back("goal_" + std::string(id));
  if (board) names.insert(names.end(), {"root_value", "chosen"});
  return names;
}

GameOutcome play_positions_game(const GameSpec& spec, PlacementPolicy& placement,
                                ScoringPolicy& scoring, PositionFeatures& features,
                                PositionBytes& rows, PositionLayout layout) {
  Stacks stacks = spec.stacks ? *spec.stacks : deal(spec.cfg.colors, spec.seed, spec.game, spec.cfg.tiles());
  State s = State::initial(spec.cfg);
  DriverEnv<SilentHooks> env(stacks, placement, scoring, spec);
  if (layout.candidates) features.rng = Rng(spec.seed, spec.game, Stream::search);
  const std::size_t first = rows.size();
  std::array<float, kAfterstateFeaturesBoard> f;
  // play_to_end of core/turn.hpp, with a row after each turn that placed a tile.
  while (!s.ended()) {
    const int mover = s.to_move(), turn = s.turn();
    if (!layout.candidates) {
      if (!play_turn(s, env)) continue;
      features.extract(s, mover, f.data(), layout.board);
      put_row(rows, layout, spec.game, turn, mover, f.data(), placement.last_value());
      continue;
    }
    // play_turn's parts, the State kept before the move to make the other candidates' afterstates.
    MoveBuffer legal;
    int n = 0;
    const int type = draw_placeable(s, env, legal.data(), n);
    std::array<std::uint16_t, kMaxCompleted> done;
    int n_done = 0;
    Move m = Move::none();
    if (type != kNoType) {
      features.before.copy_from(s);
      m = env.choose(s, type, legal.data(), n);
      n_done = place_tile(s, env, type, m, done.data());
      if (n_done > 1) env.order(s, type, done.data(), n_done);
    }
    score_and_end_turn(s, env, done.data(), n_done);
    if (type == kNoType) continue;
    features.extract(s, mover, f.data(), layout.board);
    put_row(rows, layout, spec.game, turn, mover, f.data(), placement.last_value());
    for (const MoveValue& c : placement.last_candidates()) {
      if (c.move.at.x == m.at.x && c.move.at.y == m.at.y && c.move.at.rot == m.at.rot && c.move.seg == m.seg &&
          c.move.large == m.large)
        continue;  // the move played: its row is above
      play_to_afterstate(features.after, features.before, type, c.move, *features.scoring, features.rng);
      features.extract(features.after, mover, f.data(), layout.board);
      put_row(rows, layout, spec.game, turn, mover, f.data(), c.value, false);
    }
  }
  play_final_scoring(s, env);
  put_targets(rows, layout, first, s);
  return outcome_of(s);
}

Config mixed_config(std::uint64_t seed, std::uint64_t game) {
  Rng rng(seed, game, Stream::config);
  if (uniform_below(rng, 2) == 0) return Config{3, 4};
  constexpr int kMeepleCounts = kMaxMeeples - kMinMeeples + 1;
  constexpr int kPairs = (kMaxColors - kMinColors + 1) * kMeepleCounts;
  const int i = int(uniform_below(rng, kPairs));
  return Config{kMinColors + i / kMeepleCounts, kMinMeeples + i % kMeepleCounts};
}

namespace {

using Clock = std::chrono::steady_clock;

// One thread's policies and feature tables. A policy decides from what it observes alone
// (that is what makes `run` independent of the thread count), so one pair plays every
// configuration.
struct PositionsWorker {
  std::unique_ptr<PlacementPolicy> placement;
  std::unique_ptr<ScoringPolicy> scoring;
  PositionFeatures features;
  explicit PositionsWorker(const PositionsRequest& req)
      : placement(make_placement_policy(req.placement, req.context)), scoring(make_scoring_policy(req.scoring)) {}
};


}  // namespace

PositionsOutcome play_positions(const PositionsRequest& req, const PositionSink& sink) {
  const auto t0 = Clock::now();
  const int threads = std::max(1, req.threads);
  const std::uint64_t ranks = std::uint64_t(processes::count());
  const std::uint64_t rank = std::uint64_t(processes::rank());
  // A round is a few games per thread: short enough for a stop to take effect soon, long
  // enough that the threads stay busy (the games' lengths vary).
  const std::uint64_t round = std::uint64_t(threads) * ranks * 16;
  std::vector<std::unique_ptr<PositionsWorker>> workers;
  for (int t = 0; t < threads; ++t) workers.push_back(std::make_unique<PositionsWorker>(req));
  std::vector<PositionBytes> slots;  // one per game of this process's share of a round
  PositionBytes mine;
  PositionsOutcome out;
  for (std::uint64_t lo = 0; lo < req.games; lo += round) {
    bool stop = req.stop && req.stop->load();
    if (ranks > 1) stop = processes::max_over_all(stop ? 1 : 0) != 0;
    if (stop) break;
    const std::uint64_t n = std::min(round, req.games - lo);
    // This process's share of the round: a contiguous part, in rank order.
    const std::uint64_t begin = lo + n * rank / ranks, end = lo + n * (rank + 1) / ranks;
    const std::size_t count = std::size_t(end - begin);
    if (slots.size() < count) slots.resize(count);
    FirstError errors;
#pragma omp parallel num_threads(threads)
    {
      PositionsWorker& w = *workers[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1)
      for (std::size_t i = 0; i < count; ++i) {
        if (errors.failed()) continue;
        try {
          const std::uint64_t game = req.first_game + begin + i;
          const Config cfg = req.mix ? mixed_config(req.seed, game) : req.config;
          PositionBytes& rows = slots[i];
          rows.clear();
          rows.reserve(std::size_t(kMaxTiles) * req.layout.row_bytes());
          play_positions_game(GameSpec{cfg, req.seed, game}, *w.placement, *w.scoring, w.features,
                              rows, req.layout);
        } catch (...) {
          errors.capture();
        }
      }
    }
    processes::agree_on_failure(errors);
    if (ranks == 1) {
      for (std::size_t i = 0; i < count; ++i) {
        sink(slots[i].data(), slots[i].size());
        out.rows += slots[i].size() / req.layout.row_bytes();
      }
    } else {
      mine.clear();
      for (std::size_t i = 0; i < count; ++i) mine.insert(mine.end(), slots[i].begin(), slots[i].end());
      const PositionBytes all = processes::gather_on_first(mine);
      if (rank == 0) {
        sink(all.data(), all.size());
        out.rows += all.size() / req.layout.row_bytes();
      }
    }
    out.games_done += n;
  }
  out.partial = out.games_done < req.games;
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return out;
}

}  // namespace carc::sim
