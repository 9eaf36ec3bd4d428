// Hidden information: a placement policy sees the unseen tiles as a multiset, never the
// order of the stacks. Every registered placement policy (and the settings of kMoreSpecs,
// 40 games each) plays 200 games twice on the same
// deal: once as dealt, once with the undrawn tiles of every stack reshuffled before every
// draw (the tile drawn is put back on top, so both games see the same tiles). No decision
// may change.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/turn.hpp"
#include "policies/policy.hpp"
#include "rng/rng.hpp"
#include "sim/driver/deal.hpp"

namespace carc {
namespace {

// Small budgets for the policies that search: the test is about what they read, not how
// well they play (mc's rollouts still re-deal the unseen tiles, with random continuations
// after a heuristic first turn). A policy not named here plays with its defaults: give a
// new expensive policy its entry.
const std::map<std::string, std::string> kSmallBudget = {
    {"mc", "mc:rollouts=2,candidates=2,head=1,rollout=0"},
    {"search", "search:candidates=3,beam=2,rollouts=1,turns=2"},
};

std::string test_spec(const std::string& name) {
  const auto it = kSmallBudget.find(name);
  if (it == kSmallBudget.end()) return name;
  // A budget the policy refuses (a key it does not have) falls back to its defaults.
  try {
    (void)make_placement_policy(it->second);
    return it->second;
  } catch (const std::invalid_argument&) {
    return name;
  }
}

// Plays one game on `stacks`; with `shuffler`, the undrawn tiles of every stack are
// reshuffled before each draw, and the tile `script` says was drawn (the unshuffled game's)
// is moved to the top first. Records every decision and every draw.
struct RecordingEnv : SilentHooks {
  sim::Stacks stacks;
  PlacementPolicy& placement;
  ScoringPolicy& scoring;
  Rng placement_rng, scoring_rng;
  Rng* shuffler;
  const std::vector<int>* script;
  std::vector<int> drawn;
  std::vector<int> decisions;
  int reshuffled = 0;  // draws at which some stack's hidden order changed

  RecordingEnv(const sim::Stacks& st, PlacementPolicy& p, ScoringPolicy& s, std::uint64_t seed,
               std::uint64_t game, Rng* shuf, const std::vector<int>* scr)
      : stacks(st), placement(p), scoring(s), placement_rng(seed, game, Stream::placement),
        scoring_rng(seed, game, Stream::scoring), shuffler(shuf), script(scr) {}

  int draw(int c) {
    if (shuffler) {
      bool changed = false;
      for (int k = 0; k < stacks.colors; ++k) {
        const int from = stacks.next[k], to = stacks.begin[k + 1];
        const auto before = std::vector<std::uint8_t>(stacks.tiles.begin() + from, stacks.tiles.begin() + to);
        for (int i = to - 1; i > from; --i)
          std::swap(stacks.tiles[i], stacks.tiles[from + int(uniform_below(*shuffler, std::uint32_t(i - from + 1)))]);
        changed |= !std::equal(before.begin(), before.end(), stacks.tiles.begin() + from);
      }
      reshuffled += changed;
      // The unshuffled game's tile, which is still in this stack while the games agree.
      const std::size_t i = drawn.size();
      if (i < script->size()) {
        auto* first = stacks.tiles.data() + stacks.next[c];
        auto* last = stacks.tiles.data() + stacks.begin[c + 1];
        auto* at = std::find(first, last, std::uint8_t((*script)[i]));
        if (at != last) std::iter_swap(first, at);
      }
    }
    const int t = stacks.pop(c);
    drawn.push_back(t);
    return t;
  }
  Move choose(const State& s, int type, const Placement* legal, int n) {
    const Move m = placement.choose(Observation(s, type), {legal, std::size_t(n)}, placement_rng);
    decisions.insert(decisions.end(), {m.at.x, m.at.y, m.at.rot, m.seg});
    return m;
  }
  void order(const State& s, int type, std::uint16_t* done, int n) {
    scoring.order_features(Observation(s, type), {done, std::size_t(n)}, scoring_rng);
    decisions.insert(decisions.end(), done, done + n);
  }
  void order_final(const State& s, std::uint8_t* colors, int n) {
    scoring.order_final(Observation(s, -1), {colors, std::size_t(n)}, scoring_rng);
    decisions.insert(decisions.end(), colors, colors + n);
  }
};

struct Played {
  std::vector<int> drawn, decisions;
  int reshuffled = 0;
  int result = 0;
};

Played play(const std::string& placement, const Config& cfg, std::uint64_t seed, std::uint64_t game,
            Rng* shuffler, const std::vector<int>* script) {
  auto p = make_placement_policy(placement);
  auto s = make_scoring_policy("best");
  RecordingEnv env(sim::deal(cfg.colors, seed, game), *p, *s, seed, game, shuffler, script);
  State st = State::initial(cfg);
  play_to_end(st, env);
  return {env.drawn, env.decisions, env.reshuffled, st.result()};
}

// Settings beside the defaults that read more of the position: the learned value's
// expectation over the next draw, search with the net at its leaves and in its filter.
// Fewer games each (they cost more per move).
const std::vector<std::string> kMoreSpecs = {
    "value:expect=1,candidates=2,replies=1",
    "search:candidates=3,beam=2,rollouts=1,turns=2,leaf=1,vfilter=1",
};

TEST_CASE("hidden stacks: reshuffling every stack's undrawn tiles before every draw changes no decision") {
  const std::uint64_t seed = 17;
  std::vector<std::pair<std::string, int>> specs;  // spec, games
  for (const auto& info : placement_policies()) specs.emplace_back(test_spec(info.name), 200);
  for (const auto& spec : kMoreSpecs) specs.emplace_back(spec, 40);
  for (const auto& entry : specs) {
    const std::string& spec = entry.first;
    const int games = entry.second;
    INFO(spec);
    int games_reshuffled = 0, draws = 0, reshuffled_draws = 0, mismatches = 0;
    for (std::uint64_t game = 0; game < std::uint64_t(games); ++game) {
      // 3 colours with 4 meeples, and 2 colours with 7, so stacks of 24 and of 36.
      const Config cfg = game % 2 ? Config{2, 7} : Config{3, 4};
      const Played a = play(spec, cfg, seed, game, nullptr, nullptr);
      Rng shuffler(seed, game, Stream::search);
      const Played b = play(spec, cfg, seed, game, &shuffler, &a.drawn);
      if (a.drawn != b.drawn || a.decisions != b.decisions || a.result != b.result) {
        if (++mismatches <= 3) FAIL_CHECK(spec << " game " << game << ": a decision changed with the hidden order");
      }
      games_reshuffled += b.reshuffled > 0;
      draws += int(b.drawn.size());
      reshuffled_draws += b.reshuffled;
    }
    CHECK(mismatches == 0);
    // The hidden order did change, at nearly every draw (not at the last tiles).
    CHECK(games_reshuffled == games);
    CHECK(reshuffled_draws * 10 > draws * 8);
  }
}

// The check can fail: a policy that reads the hidden order (here, through a tile order the
// test leaks to it) is caught.
TEST_CASE("hidden stacks: the check catches a policy that reads the order") {
  // A stand-in for a peeking policy: it picks by the next tile of the colour's stack.
  struct Peeking : PlacementPolicy {
    const sim::Stacks* stacks = nullptr;
    Move choose(const Observation& obs, std::span<const Placement> legal, Rng&) override {
      const int c = obs.state().to_move();
      const int next = stacks->next[c] < stacks->begin[c + 1] ? stacks->tiles[stacks->next[c]] : 0;
      const Placement at = legal[std::size_t(next) % legal.size()];
      const unsigned free = obs.state().free_segments(obs.tile(), at);
      return Move{at, free ? std::uint8_t(std::countr_zero(free)) : Move::kNoMeeple};
    }
  };
  int changed = 0;
  for (std::uint64_t game = 0; game < 20; ++game) {
    std::vector<int> decisions[2], drawn_a;
    for (int shuffled = 0; shuffled < 2; ++shuffled) {
      Peeking p;
      auto s = make_scoring_policy("best");
      Rng shuffler(17, game, Stream::search);
      RecordingEnv env(sim::deal(3, 17, game), p, *s, 17, game, shuffled ? &shuffler : nullptr, &drawn_a);
      p.stacks = &env.stacks;
      State st = State::initial({3, 4});
      play_to_end(st, env);
      if (!shuffled) drawn_a = env.drawn;
      decisions[shuffled] = env.decisions;
    }
    changed += decisions[0] != decisions[1];
  }
  CHECK(changed >= 18);
}

}  // namespace
}  // namespace carc
