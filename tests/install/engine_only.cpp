// Links carcsolo::engine alone (no JSON, no OpenMP, no program options): lists the
// registered policies, which must all survive static linking, and plays a game with the
// named placement policy from stacks it deals itself.
#include <cstdio>
#include <cstring>

#include "core/turn.hpp"
#include "policies/policy.hpp"

namespace {

struct Env : carc::SilentHooks {
  carc::PlacementPolicy& placement;
  carc::ScoringPolicy& scoring;
  carc::Rng rng{7};
  int deck[carc::kMaxTiles];
  int next = 0;
  Env(carc::PlacementPolicy& p, carc::ScoringPolicy& s) : placement(p), scoring(s) {
    int n = 0;  // every non-start tile, in catalogue order, shuffled
    for (int t = 0; t < carc::kBaseTypes; ++t)
      for (int k = 0; k < carc::kTiles[t].count - (t == carc::kStartType ? 1 : 0); ++k)
        deck[n++] = t;
    for (int i = n - 1; i > 0; --i)
      std::swap(deck[i], deck[carc::uniform_below(rng, std::uint32_t(i + 1))]);
  }
  int draw(int) { return deck[next++]; }
  carc::Move choose(const carc::State& s, int type, const carc::Placement* legal, int n) {
    return placement.choose(carc::Observation(s, type), {legal, std::size_t(n)}, rng);
  }
  void order(const carc::State& s, int type, std::uint16_t* done, int n) {
    scoring.order_features(carc::Observation(s, type), {done, std::size_t(n)}, rng);
  }
  void order_final(const carc::State& s, std::uint8_t* colors, int n) {
    scoring.order_final(carc::Observation(s, -1), {colors, std::size_t(n)}, rng);
  }
};

}  // namespace

int main(int argc, char** argv) {
  for (const auto& p : carc::placement_policies()) std::printf("placement %s\n", p.name.c_str());
  for (const auto& p : carc::scoring_policies()) std::printf("scoring %s\n", p.name.c_str());
  auto placement = carc::make_placement_policy(argc > 1 ? argv[1] : "heuristic");
  auto scoring = carc::make_scoring_policy("best");
  Env env(*placement, *scoring);
  carc::State s = carc::State::initial(carc::Config{});
  carc::play_to_end(s, env);
  std::printf("played %d tiles, result %d\n", s.tiles_on_board() - 1, s.result());
  return s.tiles_on_board() > 1 ? 0 : 1;
}
