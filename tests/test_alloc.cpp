// The game loop allocates nothing once warm, and a run's memory does not grow with its
// number of games. This test binary's global operator new/delete are replaced by versions
// that count, but only on a thread inside a CountAllocations scope, so other tests and
// other threads are not affected.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/analysis/analysis.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/driver/positions.hpp"
#include "sim/log/verify.hpp"

namespace {

thread_local bool t_counting = false;
thread_local std::uint64_t t_allocations = 0;

void* allocate(std::size_t n) {
  if (t_counting) ++t_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

void* allocate_aligned(std::size_t n, std::align_val_t al) {
  if (t_counting) ++t_allocations;
  const std::size_t a = static_cast<std::size_t>(al);
  const std::size_t rounded = (n + a - 1) / a * a;  // aligned_alloc wants a multiple
  if (void* p = std::aligned_alloc(a, rounded == 0 ? a : rounded)) return p;
  throw std::bad_alloc();
}

// Allocations made by this thread while it lives.
class CountAllocations {
 public:
  CountAllocations() {
    start_ = t_allocations;
    t_counting = true;
  }
  ~CountAllocations() { t_counting = false; }
  CountAllocations(const CountAllocations&) = delete;
  CountAllocations& operator=(const CountAllocations&) = delete;
  std::uint64_t count() const { return t_allocations - start_; }

 private:
  std::uint64_t start_;
};

// Allocations during `games` games of play_game after one warm-up game.
std::uint64_t allocations_per_games(const std::string& placement, const std::string& scoring,
                                    int games) {
  auto p = carc::make_placement_policy(placement);
  auto s = carc::make_scoring_policy(scoring);
  carc::sim::GameSpec spec{carc::Config{3, 4}, 5, 0};
  std::uint64_t sink = std::uint64_t(carc::sim::play_game(spec, *p, *s).result);
  CountAllocations counter;
  for (int g = 1; g <= games; ++g) {
    spec.game = std::uint64_t(g);
    sink += std::uint64_t(carc::sim::play_game(spec, *p, *s).result);
  }
  CHECK(sink > 0);  // the games were played
  return counter.count();
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return operator new(n, t);
}
void* operator new(std::size_t n, std::align_val_t a) { return allocate_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_aligned(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

TEST_CASE("the counter sees allocations in its scope and on its thread only") {
  std::uint64_t outside = 0;
  {
    CountAllocations c;
    auto* v = new std::uint64_t[100];
    v[0] = 1;
    outside = v[0];
    delete[] v;
    auto* w = new (std::align_val_t(64)) std::uint64_t(2);
    outside += *w;
    operator delete(w, std::align_val_t(64));
    CHECK(c.count() == 2);
  }
  auto* v = new std::uint64_t(outside);
  CHECK(*v == 3);
  delete v;
  CountAllocations none;
  CHECK(none.count() == 0);
}

TEST_CASE("1,000 games of random placement allocate nothing once warm") {
  CHECK(allocations_per_games("random", "random", 1000) == 0);
  CHECK(allocations_per_games("random", "as-found", 1000) == 0);
}

TEST_CASE("no registered placement policy allocates per game once warm") {
  // Search policies on small budgets: what matters is that nothing is allocated per
  // decision, not how strong the play is.
  for (const auto& info : carc::placement_policies()) {
    std::string spec = info.name;
    std::string small;
    for (const auto& p : info.params) {
      if (p.key == "rollouts") small += ",rollouts=1";
      if (p.key == "candidates") small += ",candidates=4";
      if (p.key == "halving") small += ",halving=1";
    }
    if (!small.empty()) spec += ":" + small.substr(1);
    CAPTURE(spec);
    CHECK(allocations_per_games(spec, "as-found", 20) == 0);
    CHECK(allocations_per_games(spec, "best", 20) == 0);
  }
  // The learned value's settings: the expectation over the next draw, the net in search.
  for (const char* spec : {"value:candidates=3,expect=1,replies=2",
                           "search:candidates=4,rollouts=1,leaf=1,vfilter=1,vreplies=2"}) {
    CAPTURE(spec);
    CHECK(allocations_per_games(spec, "best", 5) == 0);
  }
}

TEST_CASE("a run's allocations do not depend on its number of games") {
  auto allocations_of_run = [](std::uint64_t games) {
    carc::sim::MatrixRequest req;
    req.configs.resize(1);
    req.configs[0].placement_policy = "random";
    req.configs[0].scoring_policy = "as-found";
    req.games = games;
    req.threads = 1;  // the run's work happens on this thread, where the counter is
    CountAllocations c;
    const auto out = carc::sim::play_matrix(req);
    CHECK(out.games_done == games);
    return c.count();
  };
  allocations_of_run(10);  // warm-up: the thread pool, the policy registry
  const std::uint64_t small = allocations_of_run(1000), large = allocations_of_run(20000);
  CHECK(small == large);
}

TEST_CASE("positions: a game's rows, features included, allocate nothing once warm") {
  // The rows' buffer has room for a game (as the positions driver reserves it); the
  // features' evaluator and the policies keep their tables from game to game.
  for (const char* placement : {"heuristic", "greedy", "random"}) {
    CAPTURE(placement);
    auto p = carc::make_placement_policy(placement);
    auto s = carc::make_scoring_policy("best");
    carc::sim::PositionFeatures features;
    carc::sim::PositionBytes rows;
    rows.reserve(std::size_t(carc::kMaxTiles) * carc::sim::kPositionRowBytes);
    carc::sim::GameSpec spec{carc::Config{3, 4}, 5, 0};
    carc::sim::play_positions_game(spec, *p, *s, features, rows);  // warm-up
    std::uint64_t decisions = 0;
    CountAllocations counter;
    for (int g = 1; g <= 20; ++g) {
      spec.game = std::uint64_t(g);
      spec.cfg = g % 2 ? carc::Config{3, 4} : carc::Config{5, 2};
      rows.clear();
      carc::sim::play_positions_game(spec, *p, *s, features, rows);
      decisions += rows.size() / carc::sim::kPositionRowBytes;
    }
    CHECK(counter.count() == 0);
    CHECK(decisions > 20 * 10);  // the games were played, with their rows
  }
}

namespace {

// Analyses one decision of a replayed log twice, the second time counted.
struct AnalyseOnce : carc::sim::DecisionObserver {
  carc::sim::DecisionAnalyser analyser{carc::canonical_placement("heuristic"), carc::canonical_scoring("best")};
  int decision = 0, at = 10;
  std::uint64_t counted = ~0ull;
  double loss = -1;
  void on_decision(const carc::State& s, int type, std::span<const carc::Placement> legal,
                   const carc::Move& played) override {
    if (decision++ != at) return;
    carc::sim::DecisionAnalysis a;
    analyser.analyse(s, type, legal, played, 1, 8, 4, a);  // warm: buffers grow here
    CountAllocations counter;
    analyser.analyse(s, type, legal, played, 2, 8, 4, a);
    counted = counter.count();
    loss = a.loss;
  }
};

}  // namespace

TEST_CASE("analyse: a decision's rollouts allocate nothing once the analyser is warm") {
  auto p = carc::make_placement_policy("heuristic");
  auto s = carc::make_scoring_policy("best");
  const nlohmann::json log = carc::sim::play_logged_game({{3, 4}, 5, 1}, *p, *s, "heuristic", "best");
  AnalyseOnce once;
  REQUIRE(!carc::sim::verify_game_log(log, &once));
  CHECK(once.loss >= 0);  // the decision was analysed
  CHECK(once.counted == 0);
}
