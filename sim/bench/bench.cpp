#include "sim/bench/bench.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/turn.hpp"
#include "policies/afterstate_features.hpp"
#include "policies/heuristic/heuristic.hpp"
#include "policies/lookahead.hpp"
#include "policies/value_net.hpp"
#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/matrix.hpp"

namespace carc::sim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU time: of this thread (micro-benchmarks: time the scheduler gives to others on a
// busy machine is not counted) or of the process (all threads of a run).
double cpu_seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Makes the compiler believe `v` is read (and memory written), so measured work is kept.
template <class T>
void keep(const T& v) {
  asm volatile("" : : "g"(&v) : "memory");
}

template <class... Args>
void appendf(std::string& out, const char* fmt, Args... args) {
  char buf[512];
  const int len = std::snprintf(buf, sizeof buf, fmt, args...);
  if (len > 0) out.append(buf, std::min<std::size_t>(std::size_t(len), sizeof buf - 1));
}

// --- games per second ----------------------------------------------------------------

struct Rates {
  double wall = 0, cpu = 0;  // games per second of wall-clock time, and of CPU time
  double mean_tiles = 0, mean_result = 0;
};

Rates run_rate(RunConfig rc, std::uint64_t games, int threads) {
  MatrixRequest req;
  req.configs = {rc};
  req.first_game = rc.first_game;
  req.games = games;
  req.threads = threads;
  const double cpu0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
  const MatrixOutcome out = play_matrix(req);
  const double cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
  Rates r;
  r.wall = out.seconds > 0 ? double(out.games_done) / out.seconds : 0.0;
  r.cpu = cpu > 0 ? double(out.games_done) / cpu : 0.0;
  r.mean_tiles = out.acc[0].mean_tiles_placed();
  r.mean_result = out.acc[0].mean();
  return r;
}

// Games per repetition: as many as fit in `seconds` on one thread (from a pilot run that
// also warms up), at most `options.games`, at least a few per thread.
std::uint64_t games_per_rep(const RunConfig& rc, const BenchOptions& o) {
  std::uint64_t g = 1;
  double rate = 0;
  for (;;) {
    const auto t0 = Clock::now();
    rate = run_rate(rc, g, 1).wall;
    if (seconds_since(t0) >= 0.2 || g >= o.games) break;
    g = std::min(o.games, g * 4);
  }
  const double want = rate * o.seconds;
  const std::uint64_t floor = std::uint64_t(4 * o.threads);
  return std::clamp<std::uint64_t>(std::uint64_t(want), std::min(floor, o.games), o.games);
}

PolicyFigures bench_policy(const std::string& placement, const std::string& scoring,
                           const BenchOptions& o) {
  RunConfig rc;
  rc.colors = o.colors;
  rc.meeples = o.meeples;
  rc.placement_policy = placement;
  rc.scoring_policy = scoring;
  rc.seed = 1;
  rc.context = o.context;
  PolicyFigures f;
  f.placement = placement;
  // In tables: only the parameters that differ from the defaults.
  f.label = short_placement_spec(placement);
  f.scoring = scoring;
  f.games = games_per_rep(rc, o);
  for (int r = 0; r < o.reps; ++r) {  // interleaved, so drifting load hits both alike
    const Rates one = run_rate(rc, f.games, 1), all = run_rate(rc, f.games, o.threads);
    if (r == 0) {
      f.mean_tiles = one.mean_tiles;
      f.mean_result = one.mean_result;
    }
    f.one_thread.values.push_back(one.wall);
    f.all_threads.values.push_back(all.wall);
    f.one_thread_cpu.values.push_back(one.cpu);
    f.all_threads_cpu.values.push_back(all.cpu);
  }
  return f;
}

// --- micro-benchmarks ------------------------------------------------------------------

// One recorded turn step: a draw that was discarded, or a draw and its move.
struct Step {
  std::uint8_t type;
  bool discard;
  Move move;
};

struct Recording {
  Config cfg;
  std::vector<Step> steps;
  std::uint64_t games = 0, placements = 0;
  // States before a turn's draw (not ended) and the tile drawn there.
  std::vector<State> snapshots;
  std::vector<std::uint8_t> snapshot_type;
};

struct RecordEnv : SilentHooks {
  static constexpr std::size_t kSnapshots = 256;
  Stacks& stacks;
  PlacementPolicy& placement;
  Rng rng;
  const State& state;
  Recording& rec;
  int last_turn = -1;
  std::uint64_t turns_seen = 0;

  RecordEnv(Stacks& st, PlacementPolicy& p, Rng r, const State& s, Recording& re)
      : stacks(st), placement(p), rng(r), state(s), rec(re) {}

  int draw(int c) {
    const int type = stacks.pop(c);
    if (state.turn() != last_turn) {
      last_turn = state.turn();
      if (turns_seen++ % 7 == 3 && rec.snapshots.size() < kSnapshots) {
        rec.snapshots.push_back(state);
        rec.snapshot_type.push_back(std::uint8_t(type));
      }
    }
    return type;
  }
  Move choose(const State& s, int type, const Placement* legal, int n) {
    return placement.choose(Observation(s, type), {legal, std::size_t(n)}, rng);
  }
  void order(const State&, int, std::uint16_t*, int) {}  // as found
  void order_final(const State&, std::uint8_t*, int) {}
  void on_discard(const State&, int type) {
    rec.steps.push_back(Step{std::uint8_t(type), true, Move::none()});
  }
  void on_place(const State&, int type, const Move& m, std::uint8_t) {
    rec.steps.push_back(Step{std::uint8_t(type), false, m});
    ++rec.placements;
  }
};

Recording record_games(const Config& cfg, std::uint64_t games, const char* placement_spec = "random") {
  Recording rec;
  rec.cfg = cfg;
  rec.games = games;
  rec.steps.reserve(games * 20);
  rec.snapshots.reserve(RecordEnv::kSnapshots);
  auto placement = make_placement_policy(placement_spec);
  for (std::uint64_t g = 0; g < games; ++g) {
    Stacks stacks = deal(cfg.colors, 1, g, cfg.tiles());
    State s = State::initial(cfg);
    RecordEnv env(stacks, *placement, Rng(1, g, Stream::placement), s, rec);
    while (!s.ended()) play_turn(s, env);
  }
  return rec;
}

// Plays the recorded games again through the turn protocol, without legal-move
// generation or policies: what remains is State::initial and, per placement, draw, place,
// the scoring of completed features (as found) and the end of the turn.
std::uint64_t replay(const Recording& rec) {
  std::size_t i = 0;
  std::uint64_t check = 0;
  for (std::uint64_t g = 0; g < rec.games; ++g) {
    State s = State::initial(rec.cfg);
    while (!s.ended()) {
      const Step& st = rec.steps[i++];
      s.draw(st.type);
      if (st.discard) {
        s.discard(st.type);
        if (s.stack_left(s.to_move()) == 0) s.end_turn();
        continue;
      }
      std::uint16_t done[kMaxCompleted];
      std::uint8_t free_mask = 0;
      const int n = s.place(st.type, st.move.at, st.move.seg, done, &free_mask);
      for (int k = 0; k < n; ++k) s.score_feature(done[k]);
      s.end_turn();
    }
    check += std::uint64_t(s.result());
  }
  if (i != rec.steps.size()) throw std::logic_error("bench: replay diverged from the recording");
  return check;
}

// Repeats `batch` (which returns how many operations it did) until `min_seconds` of this
// thread's CPU time have passed, `reps` times; each sample is nanoseconds per operation.
template <class Batch>
Samples time_per_op(int reps, double min_seconds, Batch&& batch) {
  Samples s;
  s.higher_is_better = false;
  batch();  // warm-up
  for (int r = 0; r < reps; ++r) {
    std::uint64_t ops = 0;
    const double t0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    double secs = 0;
    do {
      ops += batch();
      secs = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
    } while (secs < min_seconds);
    s.values.push_back(secs * 1e9 / double(ops));
  }
  return s;
}

// What `heuristic` and the look-ahead policies pay per candidate move: the evaluator's
// value of every (placement, meeple) option of the tile drawn, in the recorded States as
// the policy sees them (the tile drawn). None when no recorded turn placed a tile.
std::optional<MicroFigure> heuristic_evaluation(const Recording& rec, int reps,
                                                double min_seconds) {
  struct Decision {
    State state;
    int type;
    std::vector<Placement> legal;
  };
  std::vector<Decision> decisions;
  for (std::size_t i = 0; i < rec.snapshots.size(); ++i) {
    Decision d{rec.snapshots[i], rec.snapshot_type[i], std::vector<Placement>(kMaxPlacements)};
    d.state.draw(d.type);
    d.legal.resize(std::size_t(d.state.legal_placements(d.type, d.legal.data())));
    if (!d.legal.empty()) decisions.push_back(std::move(d));  // empty: a discard
  }
  if (decisions.empty()) return std::nullopt;
  HeuristicEvaluator eval{HeuristicWeights{}};
  std::vector<ScoredMove> moves(kMaxMoves);
  Rng unused(1, 0, Stream::search);  // evaluate() draws nothing
  auto batch = [&] {
    std::uint64_t n = 0;
    for (const Decision& d : decisions) {
      n += std::uint64_t(eval.evaluate(d.state, d.type, d.legal, moves.data(), unused));
      keep(moves);
    }
    return n;
  };
  const double per_decision = double(batch()) / double(decisions.size());
  MicroFigure f{"heuristic evaluation", "ns", "", time_per_op(reps, min_seconds, batch)};
  appendf(f.what,
          "per candidate move (placement and meeple option) of the tile drawn, over %zu "
          "States of heuristic games (mean %.1f candidates, %.0f ns per decision)",
          decisions.size(), per_decision, f.samples.median() * per_decision);
  return f;
}

// What the learned value pays per candidate beside the heuristic evaluation (`value`, and
// search's leaf and vfilter): the afterstate's features, then one evaluation of the
// context's net (the built-in one, or --value-net's). Over the afterstates of the heuristic's best
// move in the recorded States. None when no recorded turn placed a tile.
std::vector<MicroFigure> value_evaluation(const Recording& rec, int reps, double min_seconds,
                                          const PolicyContext& context) {
  HeuristicEvaluator eval{HeuristicWeights{}};
  auto scoring = make_lookahead_scoring();
  std::vector<ScoredMove> moves(kMaxMoves);
  std::vector<Placement> legal(kMaxPlacements);
  Rng rng(1, 0, Stream::search);
  std::vector<State> after;
  std::vector<int> mover;
  for (std::size_t i = 0; i < rec.snapshots.size(); ++i) {
    State s = rec.snapshots[i];
    const int type = rec.snapshot_type[i];
    s.draw(type);
    const int nl = s.legal_placements(type, legal.data());
    if (nl == 0) continue;  // a discard
    const int n = eval.evaluate(s, type, {legal.data(), std::size_t(nl)}, moves.data(), rng);
    const auto best = std::max_element(moves.begin(), moves.begin() + n,
                                       [](const ScoredMove& a, const ScoredMove& b) { return a.value < b.value; });
    after.emplace_back();
    play_to_afterstate(after.back(), s, type, best->move, *scoring, rng);
    mover.push_back(s.to_move());
  }
  if (after.empty()) return {};
  AfterstateFeatures features;
  const ValueNet& net = context.value_net();
  const bool board = net.inputs() == kAfterstateFeaturesBoard;  // the net reads the board block
  const std::size_t width = std::size_t(net.inputs());
  std::vector<float> x(after.size() * width);
  for (std::size_t i = 0; i < after.size(); ++i) features.extract(after[i], mover[i], x.data() + i * width, board);
  std::vector<MicroFigure> out;
  std::string what;
  appendf(what, "per afterstate: the %d input columns of the learned value (one heuristic "
          "expectations() of it%s), over %zu afterstates of the heuristic's moves in heuristic games",
          int(width), board ? ", and the board block" : "", after.size());
  out.push_back({"afterstate features", "ns", what, time_per_op(reps, min_seconds, [&] {
                   std::vector<float> f(width);
                   for (std::size_t i = 0; i < after.size(); ++i) {
                     features.extract(after[i], mover[i], f.data(), board);
                     keep(f);
                   }
                   return std::uint64_t(after.size());
                 })});
  ValueNet::Scratch scratch;
  out.push_back({"value net", "ns",
                 "per evaluation of the learned value (net " + net.hash() +
                     ") on the same afterstates' features: what `value` pays per candidate "
                     "beside the features, a State copy and the move",
                 time_per_op(reps, min_seconds, [&] {
                   float sink = 0;
                   for (std::size_t i = 0; i < after.size(); ++i)
                     sink += net.evaluate(x.data() + i * width, scratch);
                   keep(sink);
                   return std::uint64_t(after.size());
                 })});
  return out;
}

constexpr double kMinSeconds = 0.2;  // CPU time per sample of a micro-benchmark

// The engine's own steps: a new game's State, a deal, a placement (replaying the recorded
// games) and legal-move generation (in the recorded States).
template <class Add>
void engine_figures(const Config& cfg, const Recording& rec, int reps, Add&& add) {
  const Samples initial = time_per_op(reps, kMinSeconds, [&] {
    for (int i = 0; i < 1000; ++i) {
      State s = State::initial(cfg);
      keep(s);
    }
    return std::uint64_t(1000);
  });
  add({"State::initial", "ns", "a new game's State (start tile placed)", initial});

  add({"deal", "ns",
       "one game's deal: " + std::to_string(cfg.tiles().land() + cfg.tiles().river_stack()) +
           " tiles shuffled with its own stream, cut into stacks",
       time_per_op(reps, kMinSeconds, [&] {
         for (std::uint64_t g = 0; g < 1000; ++g) {
           const Stacks st = deal(cfg.colors, 1, g, cfg.tiles());
           keep(st);
         }
         return std::uint64_t(1000);
       })});

  // Replay time minus the games' State::initial, per placement.
  Samples place = time_per_op(reps, kMinSeconds, [&] {
    std::uint64_t sink = replay(rec);
    keep(sink);
    return rec.placements;
  });
  const double initial_per_placement =
      initial.median() * double(rec.games) / double(rec.placements);
  for (double& v : place.values) v -= initial_per_placement;
  add({"State::place", "ns",
       "per placement, with its draw, as-found scoring and end of turn (replay of " +
           std::to_string(rec.games) + " recorded random games, minus State::initial)",
       place});

  Placement legal[kMaxPlacements];
  std::uint64_t total_legal = 0;
  for (std::size_t i = 0; i < rec.snapshots.size(); ++i)
    total_legal += std::uint64_t(rec.snapshots[i].legal_placements(rec.snapshot_type[i], legal));
  std::string what;
  appendf(what, "per call, for the tile drawn, over %zu mid-game States (mean %.1f placements)",
          rec.snapshots.size(), double(total_legal) / double(rec.snapshots.size()));
  add({"State::legal_placements", "ns", what, time_per_op(reps, kMinSeconds, [&] {
         std::uint64_t sink = 0;
         for (std::size_t i = 0; i < rec.snapshots.size(); ++i) {
           sink += std::uint64_t(rec.snapshots[i].legal_placements(rec.snapshot_type[i], legal));
           keep(legal);
         }
         keep(sink);
         return std::uint64_t(rec.snapshots.size());
       })});
}

// What a look-ahead pays for a State copy from each of `snaps`: by assignment (figure
// `name`) and by State::copy_from (`from_name`), into `scratch`.
template <class Add>
void copy_figures(const std::vector<State>& snaps, State& scratch, int reps, const std::string& name,
                  const std::string& what, const std::string& from_name, const std::string& from_what,
                  Add&& add) {
  add({name, "ns", what, time_per_op(reps, kMinSeconds, [&] {
         for (const State& snap : snaps) {
           scratch = snap;
           keep(scratch);
         }
         return std::uint64_t(snaps.size());
       })});
  add({from_name, "ns", from_what, time_per_op(reps, kMinSeconds, [&] {
         for (const State& snap : snaps) {
           scratch.copy_from(snap);
           keep(scratch);
         }
         return std::uint64_t(snaps.size());
       })});
}

// What policies/mc.cpp does per rollout: a copy of the State, the unseen tiles
// re-dealt, the rollout policy to the end, turns scored in the look-ahead order
// (policies/lookahead.hpp). `rollout=0` is random, `rollout=1` (mc's default) greedy:snug=1.
template <class Add>
void rollout_figures(const Recording& rec, int reps, Add&& add) {
  auto lookahead_scoring = make_lookahead_scoring();
  Redeal redeal;
  Rng rng(1, 0, Stream::search);
  for (const char* spec : {"random", "greedy:snug=1"}) {
    auto policy = make_placement_policy(spec);
    RolloutEnv env{{}, &redeal, policy.get(), lookahead_scoring.get(), &rng};
    MicroFigure f{std::string(spec) + " rollout", "ns", "", time_per_op(reps, kMinSeconds, [&] {
                    std::uint64_t sink = 0;
                    for (const State& snap : rec.snapshots) {
                      State s = snap;
                      redeal.deal(s, rng);
                      play_to_end(s, env);
                      sink += std::uint64_t(s.result());
                    }
                    keep(sink);
                    return std::uint64_t(rec.snapshots.size());
                  })};
    appendf(f.what,
            "from a mid-game State as mc's rollouts (rollout=%d): copy, re-deal of the unseen "
            "tiles, %s placement to the end; %.0f rollouts per second on one thread",
            spec[0] == 'r' ? 0 : 1, spec, 1e9 / f.samples.median());
    add(std::move(f));
  }
}

std::vector<MicroFigure> bench_micro(const BenchOptions& o,
                                     const std::function<void(const std::string&)>& say) {
  const Config cfg = o.game_config();
  const Recording rec = record_games(cfg, 2000);
  std::vector<MicroFigure> out;
  auto add = [&](MicroFigure f) {
    if (say) {
      std::string line;
      appendf(line, "%s: %.1f %s (median)", f.name.c_str(), f.samples.median(), f.unit.c_str());
      say(line);
    }
    out.push_back(std::move(f));
  };
  engine_figures(cfg, rec, o.reps, add);

  State scratch = rec.snapshots[0];
  std::string copy_what;
  appendf(copy_what, "State (%zu bytes) assigned from one of %zu mid-game States", sizeof(State),
          rec.snapshots.size());
  copy_figures(rec.snapshots, scratch, o.reps, "State copy", copy_what, "State::copy_from",
               "the same, by State::copy_from (only the parts in use)", add);
  // The States a search meets: from games of the heuristic (three times as many tiles
  // placed as random play, so more of the State in use).
  const Recording late = record_games(cfg, 40, "heuristic");
  double late_tiles = 0;
  for (const State& snap : late.snapshots) late_tiles += snap.tiles_on_board();
  late_tiles /= double(late.snapshots.size());
  std::string late_what;
  appendf(late_what, "State assigned from one of %zu States of heuristic games (mean %.1f tiles placed)",
          late.snapshots.size(), late_tiles);
  copy_figures(late.snapshots, scratch, o.reps, "State copy, heuristic games", late_what,
               "State::copy_from, heuristic games", "the same, by State::copy_from", add);

  if (auto f = heuristic_evaluation(late, o.reps, kMinSeconds)) add(std::move(*f));
  if (o.base_game())  // the learned value plays the base game only
    for (MicroFigure& f : value_evaluation(late, o.reps, kMinSeconds, o.context)) add(std::move(f));
  rollout_figures(rec, o.reps, add);
  return out;
}

// "1 thread", "2 threads": the head of the all-threads column.
std::string threads_head(int threads) {
  return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

// Whole numbers, but two significant digits at least: `search` plays about one game a
// second, which "%.0f" would print as 1.
std::string fmt_rate(double v) {
  std::string s;
  appendf(s, v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
  return s;
}

}  // namespace

double Samples::median() const {
  if (values.empty()) return 0;
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double Samples::best() const {
  if (values.empty()) return 0;
  return higher_is_better ? *std::max_element(values.begin(), values.end())
                          : *std::min_element(values.begin(), values.end());
}

nlohmann::json Samples::to_json() const {
  return {{"median", median()}, {"best", best()}, {"samples", values}};
}

double PolicyFigures::scaling() const {
  const double one = one_thread.median();
  return one > 0 ? all_threads.median() / one : 0.0;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        v.erase(0, v.find_first_not_of(" \t"));
        return v;
      }
    }
  return "unknown";
}

std::string compiler_version() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("g++ ") + __VERSION__;
#else
  return "unknown";
#endif
}

BenchReport run_bench(const BenchOptions& options,
                      const std::function<void(const std::string&)>& progress) {
  BenchReport r;
  r.options = options;
  r.cpu = cpu_model();
  r.compiler = compiler_version();
  r.logical_cpus = default_threads();
  if (options.policies) {
    std::vector<std::string> specs = options.placements;
    if (specs.empty())
      for (const auto& p : placement_policies()) specs.push_back(canonical_placement(p.name));
    for (const auto& scoring : options.scorings)
    for (const auto& spec : specs) {
      r.policies.push_back(bench_policy(spec, scoring, options));
      if (progress) {
        const auto& f = r.policies.back();
        std::string line;
        appendf(line, "%s: %.0f games/s on 1 thread, %.0f on %d (x%.2f)", spec.c_str(),
                f.one_thread.median(), f.all_threads.median(), options.threads, f.scaling());
        progress(line);
      }
    }
  }
  if (options.micro) r.micro = bench_micro(options, progress);
  return r;
}

nlohmann::json BenchReport::to_json(const ProgramInfo& p) const {
  nlohmann::json pol = nlohmann::json::array();
  for (const auto& f : policies)
    pol.push_back({{"placement", f.placement},
                   {"scoring", f.scoring},
                   {"mean_tiles_placed", f.mean_tiles},
                   {"mean_result", f.mean_result},
                   {"games_per_repetition", f.games},
                   {"games_per_second_1_thread", f.one_thread.to_json()},
                   {"games_per_second_all_threads", f.all_threads.to_json()},
                   {"games_per_cpu_second_1_thread", f.one_thread_cpu.to_json()},
                   {"games_per_cpu_second_all_threads", f.all_threads_cpu.to_json()},
                   {"scaling", f.scaling()}});
  nlohmann::json mic = nlohmann::json::array();
  for (const auto& m : micro) {
    nlohmann::json j = m.samples.to_json();
    j["name"] = m.name;
    j["unit"] = m.unit;
    j["what"] = m.what;
    mic.push_back(j);
  }
  nlohmann::json doc = {{"format", "carcsolo-bench/1"},
          {"program", {{"name", p.name}, {"version", p.version}, {"git", p.git}}},
          {"machine",
           {{"cpu", cpu}, {"logical_cpus", logical_cpus}, {"compiler", compiler}}},
          {"options",
           {{"repetitions", options.reps},
            {"threads", options.threads},
            {"colors", options.colors},
            {"meeples", options.meeples},
            {"scorings", options.scorings},
            {"max_games", options.games},
            {"seconds", options.seconds}}},
          {"policies", pol},
          {"micro", mic}};
  if (!options.base_game()) {  // the expansions: the set and the large meeple (a base bench has neither key)
    doc["options"]["tileset"] = options.rules().name();
    doc["options"]["tileset_hash"] = options.rules().hash();
    doc["options"]["large_meeple"] = options.rules().large_meeple();
  }
  return doc;
}

std::string BenchReport::table() const {
  std::string s;
  appendf(s, "machine: %s, %d logical CPUs; %s\n", cpu.c_str(), logical_cpus, compiler.c_str());
  appendf(s, "medians of %d repetitions [best]\n", options.reps);
  if (!options.base_game())
    appendf(s, "tile set %s%s\n", options.rules().name().c_str(), options.rules().large_meeple() ? ", large meeple" : "");
  if (!policies.empty()) {
    const std::string all_head = threads_head(options.threads);
    appendf(s, "\n%-26s %8s %6s %6s %18s %18s %8s %18s\n", "games/s placement/scoring", "games",
            "tiles", "mean", "1 thread", all_head.c_str(), "scaling", "per CPU-s 1 / all");
    for (const auto& f : policies) {
      const std::string name = f.label + "/" + f.scoring;
      const std::string one = fmt_rate(f.one_thread.median()) + " [" +
                              fmt_rate(f.one_thread.best()) + "]";
      const std::string all = fmt_rate(f.all_threads.median()) + " [" +
                              fmt_rate(f.all_threads.best()) + "]";
      const std::string cpu_rates = fmt_rate(f.one_thread_cpu.median()) + " / " +
                                    fmt_rate(f.all_threads_cpu.median());
      appendf(s, "%-26s %8llu %6.1f %6.2f %18s %18s %7.2fx %18s\n", name.c_str(),
              static_cast<unsigned long long>(f.games), f.mean_tiles, f.mean_result, one.c_str(),
              all.c_str(), f.scaling(), cpu_rates.c_str());
    }
  }
  if (!micro.empty()) {
    appendf(s, "\n%-24s %12s %12s  %s\n", "engine, CPU time", "median", "best", "what");
    for (const auto& m : micro)
      appendf(s, "%-24s %9.1f %s %9.1f %s  %s\n", m.name.c_str(), m.samples.median(),
              m.unit.c_str(), m.samples.best(), m.unit.c_str(), m.what.c_str());
  }
  return s;
}

std::string BenchReport::markdown() const {
  std::string s;
  appendf(s, "Machine: %s, %d logical CPUs; compiler %s. Medians of %d repetitions, the best "
             "repetition in brackets.\n",
          cpu.c_str(), logical_cpus, compiler.c_str(), options.reps);
  if (!policies.empty()) {
    appendf(s, "\nGames per second of wall-clock time (per CPU-second: games over the CPU "
               "time of all threads, less disturbed by other programs).\n\n"
               "Tiles placed and mean result: of the games of the first one-thread repetition.\n\n"
               "| placement / scoring | games per repetition | tiles placed | mean result | "
               "1 thread | %s | scaling | per CPU-s, 1 thread | per CPU-s, %s |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            threads_head(options.threads).c_str(), threads_head(options.threads).c_str());
    for (const auto& f : policies)
      appendf(s, "| `%s` / `%s` | %llu | %.1f | %.2f | %s [%s] | %s [%s] | %.2fx | %s | %s |\n",
              f.label.c_str(), f.scoring.c_str(), static_cast<unsigned long long>(f.games),
              f.mean_tiles, f.mean_result,
              fmt_rate(f.one_thread.median()).c_str(), fmt_rate(f.one_thread.best()).c_str(),
              fmt_rate(f.all_threads.median()).c_str(), fmt_rate(f.all_threads.best()).c_str(),
              f.scaling(), fmt_rate(f.one_thread_cpu.median()).c_str(),
              fmt_rate(f.all_threads_cpu.median()).c_str());
  }
  if (!micro.empty()) {
    s += "\nEngine micro-benchmarks, CPU time of one thread.\n\n"
         "| operation | median | best | what |\n|---|---:|---:|---|\n";
    for (const auto& m : micro)
      appendf(s, "| %s | %.1f %s | %.1f %s | %s |\n", m.name.c_str(), m.samples.median(),
              m.unit.c_str(), m.samples.best(), m.unit.c_str(), m.what.c_str());
  }
  return s;
}

}  // namespace carc::sim
