// Random-game invariants over every registered policy, determinism, dealing, and what a
// policy can see.
//
// The invariant games run the real turn sequence with the real policies and check every
// step against an independent model written here from rules.md: legal placements by brute
// force over the board, features by flood fill over the tile table of scenario.hpp, free
// segments, which features a placement completes, each scoring event (points, majority,
// low, award), final scoring, goals, and the conservation of tiles and meeples.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/turn.hpp"
#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "tests/scenario.hpp"

namespace {

using namespace carc;

// ---------------------------------------------------------------------------------------
// What a policy can see, enforced by what compiles.
// ---------------------------------------------------------------------------------------
// clang-format off
template <class T>
concept ExposesStacks =
    requires(const T& t) { t.stacks; } || requires(const T& t) { t.stacks_; } ||
    requires(const T& t) { t.stack; } || requires(const T& t) { t.stack_; } ||
    requires(const T& t) { t.deck; } || requires(const T& t) { t.deck_; } ||
    requires(const T& t) { t.order_; } || requires(const T& t) { t.stacks(); } ||
    requires(const T& t) { t.deck(); } || requires(const T& t) { t.next_tile(0); } ||
    requires(const T& t) { t.top(0); } || requires(const T& t) { t.peek(0); };
template <class O>
concept ObservationExposesStacks =
    requires(const O& o) { o.state().stacks; } || requires(const O& o) { o.state().stacks_; } ||
    requires(const O& o) { o.state().top(0); } || requires(const O& o) { o.stacks; } ||
    requires(const O& o) { o.stacks(); };
// clang-format on

struct ProbeHasStacks {
  int stacks = 0;
};
static_assert(ExposesStacks<ProbeHasStacks>, "the probe detects a visible stack");
static_assert(!ExposesStacks<State>, "State must not hold the stacks' order");
static_assert(!ExposesStacks<Observation>);
static_assert(!ObservationExposesStacks<Observation>);

// An Observation is a State and the tile in hand, and nothing else.
static_assert(std::is_same_v<decltype(&Observation::state), const State& (Observation::*)() const>);
static_assert(std::is_same_v<decltype(&Observation::tile), int (Observation::*)() const>);
static_assert(sizeof(Observation) <= sizeof(const State*) + sizeof(long));
static_assert(std::is_constructible_v<Observation, const State&, int>);
static_assert(!std::is_constructible_v<Observation, const sim::Stacks&, int>);
static_assert(!std::is_constructible_v<Observation, const State&, int, const sim::Stacks&>);
// The policies receive an Observation, the legal moves and their own random stream.
static_assert(std::is_same_v<decltype(&PlacementPolicy::choose),
                             Move (PlacementPolicy::*)(const Observation&,
                                                       std::span<const Placement>, Rng&)>);
static_assert(
    std::is_same_v<decltype(&ScoringPolicy::order_features),
                   void (ScoringPolicy::*)(const Observation&, std::span<std::uint16_t>, Rng&)>);
static_assert(
    std::is_same_v<decltype(&ScoringPolicy::order_final),
                   void (ScoringPolicy::*)(const Observation&, std::span<std::uint8_t>, Rng&)>);
// A State is made from the configuration alone and told only the type drawn.
static_assert(std::is_same_v<decltype(&State::initial), State (*)(const Config&)>);
static_assert(std::is_same_v<decltype(&State::draw), void (State::*)(int)>);

// ---------------------------------------------------------------------------------------
// The independent model.
// ---------------------------------------------------------------------------------------
constexpr std::string_view kDirLetters = "NESW";
constexpr int kStepX[4] = {0, 1, 0, -1};
constexpr int kStepY[4] = {-1, 0, 1, 0};

struct ModelSeg {
  char kind;  // 'r', 'c', 'm'
  int edges;  // unrotated bit mask, bit d = direction d
  bool pennant;
};
struct ModelTile {
  std::string edges;  // N, E, S, W unrotated
  std::vector<ModelSeg> segs;
};

const std::vector<ModelTile>& model_table() {
  static const std::vector<ModelTile> table = [] {
    std::vector<ModelTile> t;
    for (std::string_view row : test::kRulesTable) {
      std::istringstream in{std::string(row)};
      std::string name, count, tok;
      ModelTile mt;
      in >> name >> count >> mt.edges;
      while (in >> tok) {
        ModelSeg s{};
        s.kind = tok[0] == 'r' ? 'r' : tok[0] == 'c' ? 'c' : 'm';
        s.pennant = tok.find('*') != std::string::npos;
        const auto brace = tok.find('{');
        if (brace != std::string::npos)
          for (char ch : tok.substr(brace)) {
            const auto d = kDirLetters.find(ch);
            if (d != std::string_view::npos) s.edges |= 1 << d;
          }
        mt.segs.push_back(s);
      }
      t.push_back(mt);
    }
    return t;
  }();
  return table;
}

int rot_mask(int mask, int r) {
  int m = 0;
  for (int d = 0; d < 4; ++d)
    if (mask >> d & 1) m |= 1 << ((d + r) % 4);
  return m;
}
char model_edge(int type, int rot, int d) {
  return model_table()[std::size_t(type)].edges[std::size_t((d - rot + 4) % 4)];
}
std::string model_seg_name(int type, int rot, int seg) {
  const ModelSeg& s = model_table()[std::size_t(type)].segs[std::size_t(seg)];
  if (s.kind == 'm') return "monastery";
  std::string n = s.kind == 'r' ? "road:" : "city:";
  bool first = true;
  for (int d = 0; d < 4; ++d)
    if (rot_mask(s.edges, rot) >> d & 1) {
      n += (first ? "" : ",") + std::string(1, kDirLetters[std::size_t(d)]);
      first = false;
    }
  return n;
}
int model_seg_at(int type, int rot, int d) {
  const auto& segs = model_table()[std::size_t(type)].segs;
  for (std::size_t s = 0; s < segs.size(); ++s)
    if (rot_mask(segs[s].edges, rot) >> d & 1) return int(s);
  return -1;
}
int model_monastery(int type) {
  const auto& segs = model_table()[std::size_t(type)].segs;
  for (std::size_t s = 0; s < segs.size(); ++s)
    if (segs[s].kind == 'm') return int(s);
  return -1;
}

using SegRef = std::pair<int, int>;  // (tile index, model segment)

struct Flood {
  char kind = 0;
  std::set<SegRef> members;
  std::set<int> tiles;
  int pennants = 0;
  bool complete = true;
};

Flood flood(const State& s, int tile, int seg) {
  Flood f;
  const PlacedTile& p0 = s.tile(tile);
  f.kind = model_table()[p0.type].segs[std::size_t(seg)].kind;
  if (f.kind == 'm') {
    f.members.insert({tile, seg});
    f.tiles.insert(tile);
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        if ((dx || dy) && s.tile_at(p0.x + dx, p0.y + dy) == kNoTile) f.complete = false;
    return f;
  }
  std::vector<SegRef> todo = {{tile, seg}};
  while (!todo.empty()) {
    const SegRef r = todo.back();
    todo.pop_back();
    if (!f.members.insert(r).second) continue;
    const PlacedTile& p = s.tile(r.first);
    const ModelSeg& ms = model_table()[p.type].segs[std::size_t(r.second)];
    f.tiles.insert(r.first);
    if (ms.pennant) ++f.pennants;
    const int m = rot_mask(ms.edges, p.rot);
    for (int d = 0; d < 4; ++d) {
      if (!(m >> d & 1)) continue;
      const int n = s.tile_at(p.x + kStepX[d], p.y + kStepY[d]);
      if (n < 0) {
        f.complete = false;
        continue;
      }
      const PlacedTile& q = s.tile(n);
      todo.push_back({n, model_seg_at(q.type, q.rot, (d + 2) % 4)});
    }
  }
  return f;
}

// Every legal (x, y, rot) for `type`, by brute force over the cells next to placed tiles.
std::vector<std::array<int, 3>> brute_legal(const State& s, int type) {
  std::set<std::array<int, 3>> out;
  for (int i = 0; i < s.tiles_on_board(); ++i)
    for (int d = 0; d < 4; ++d) {
      const int x = s.tile(i).x + kStepX[d], y = s.tile(i).y + kStepY[d];
      if (s.tile_at(x, y) != kNoTile) continue;
      for (int r = 0; r < 4; ++r) {
        bool ok = true;
        for (int e = 0; e < 4 && ok; ++e) {
          const int n = s.tile_at(x + kStepX[e], y + kStepY[e]);
          if (n >= 0 &&
              model_edge(s.tile(n).type, s.tile(n).rot, (e + 2) % 4) != model_edge(type, r, e))
            ok = false;
        }
        if (ok) out.insert({x, y, r});
      }
    }
  return {out.begin(), out.end()};
}

// The Env: real policies and dealt stacks, every step checked against the model.
struct CheckedEnv {
  sim::Stacks stacks;
  PlacementPolicy& placement;
  ScoringPolicy& scoring;
  Rng prng, srng;
  const State* st;
  bool brute_force;

  int failures = 0;
  std::vector<std::string> record;  // every draw and decision, in order
  std::vector<int> drawn;           // every tile drawn, in order
  std::array<int, kMaxColors> score{};
  std::vector<std::pair<SegRef, int>> meeples;  // (segment, colour) on the board
  std::set<SegRef> expected_done, scored_done;  // canonical member of each feature
  int supply_before = 0;
  std::uint8_t free_before = 0;  // State::free_segments for the chosen placement
  int monasteries = 0;
  GoalMask goals = 0;

#define ENSURE(cond)                                               \
  do {                                                             \
    if (!(cond)) {                                                 \
      if (++failures <= 5) FAIL_CHECK("invariant broken: " #cond); \
    }                                                              \
  } while (0)

  CheckedEnv(const sim::Stacks& s, PlacementPolicy& p, ScoringPolicy& sc, std::uint64_t seed,
             std::uint64_t game, const State* state, bool brute)
      : stacks(s),
        placement(p),
        scoring(sc),
        prng(seed, game, Stream::placement),
        srng(seed, game, Stream::scoring),
        st(state),
        brute_force(brute) {
    for (int c = 0; c < state->colors(); ++c) score[std::size_t(c)] = state->score(c);
  }

  int meeples_in(const Flood& f, int c) const {
    int n = 0;
    for (const auto& [ref, colour] : meeples) n += colour == c && f.members.count(ref);
    return n;
  }
  int lowest() const { return *std::min_element(score.begin(), score.begin() + st->colors()); }

  int draw(int c) {
    ENSURE(stacks.next[c] < stacks.begin[c + 1]);
    const int t = stacks.pop(c);
    drawn.push_back(t);
    record.push_back("draw " + std::to_string(c) + " " + std::to_string(t));
    return t;
  }

  Move choose(const State& s, int type, const Placement* legal, int n) {
    if (brute_force) {
      std::vector<std::array<int, 3>> engine;
      for (int i = 0; i < n; ++i) engine.push_back({legal[i].x, legal[i].y, legal[i].rot});
      std::sort(engine.begin(), engine.end());
      ENSURE(engine == brute_legal(s, type));
    }
    supply_before = s.supply(s.to_move());
    const Move m = placement.choose(Observation(s, type), {legal, std::size_t(n)}, prng);
    bool listed = false;
    for (int i = 0; i < n; ++i) listed |= legal[i].cell == m.at.cell && legal[i].rot == m.at.rot;
    ENSURE(listed);
    ENSURE(s.count_placements(type) == n);
    free_before = s.free_segments(type, m.at);
    record.push_back("place " + std::to_string(type) + " " + std::to_string(m.at.x) + " " +
                     std::to_string(m.at.y) + " " + std::to_string(m.at.rot) + " " +
                     std::to_string(m.seg));
    return m;
  }

  void order(const State& s, int type, std::uint16_t* done, int n) {
    const std::vector<std::uint16_t> before(done, done + n);
    scoring.order_features(Observation(s, type), {done, std::size_t(n)}, srng);
    ENSURE(std::is_permutation(before.begin(), before.end(), done, done + n));
    std::string r = "order";
    for (int i = 0; i < n; ++i) r += " " + std::to_string(done[i]);
    record.push_back(r);
  }

  void order_final(const State& s, std::uint8_t* colors, int n) {
    const std::vector<std::uint8_t> before(colors, colors + n);
    scoring.order_final(Observation(s, -1), {colors, std::size_t(n)}, srng);
    ENSURE(std::is_permutation(before.begin(), before.end(), colors, colors + n));
  }

  void on_discard(const State& s, int type) {
    ENSURE(brute_legal(s, type).empty());
    ENSURE(s.count_placements(type) == 0);
  }

  void on_place(const State& s, int type, const Move& m, std::uint8_t free_mask) {
    const int idx = s.tiles_on_board() - 1;
    const PlacedTile& p = s.tile(idx);
    ENSURE(p.type == type && p.x == m.at.x && p.y == m.at.y && p.rot == m.at.rot);
    ENSURE(s.tile_at(p.x, p.y) == idx);
    // Edges match every neighbour, and there is one.
    int neighbours = 0;
    for (int d = 0; d < 4; ++d) {
      const int n = s.tile_at(p.x + kStepX[d], p.y + kStepY[d]);
      if (n < 0) continue;
      ++neighbours;
      ENSURE(model_edge(s.tile(n).type, s.tile(n).rot, (d + 2) % 4) == model_edge(type, p.rot, d));
    }
    ENSURE(neighbours > 0);
    // Free segments (rules.md step 2), from the model.
    const auto& segs = model_table()[std::size_t(type)].segs;
    std::set<std::string> free_model, free_engine;
    for (std::size_t sg = 0; sg < segs.size(); ++sg) {
      const Flood f = flood(s, idx, int(sg));
      bool taken = false;
      if (segs[sg].kind != 'm')
        for (const auto& mp : meeples) taken |= f.members.count(mp.first) > 0;
      if (!taken) free_model.insert(model_seg_name(type, p.rot, int(sg)));
      if (f.complete && segs[sg].kind != 'm') expected_done.insert(*f.members.begin());
    }
    for (int sg = 0; sg < kMaxSegs; ++sg)
      if (free_mask >> sg & 1) free_engine.insert(segment_name(type, p.rot, sg));
    ENSURE(free_model == free_engine);
    ENSURE(free_mask == free_before);  // what a policy is told before placing
    // Monasteries completed: its own, and any neighbour's whose last cell this was.
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy) {
        const int n = s.tile_at(p.x + dx, p.y + dy);
        if (n < 0 || model_monastery(s.tile(n).type) < 0) continue;
        const Flood f = flood(s, n, model_monastery(s.tile(n).type));
        if (f.complete) expected_done.insert({n, model_monastery(s.tile(n).type)});
      }
    // The meeple: forced when something is free and the supply allows.
    if (!free_model.empty() && supply_before > 0) {
      ENSURE(p.meeple_seg != kNoSegment);
      if (p.meeple_seg != kNoSegment) {
        ENSURE(p.meeple_color == s.to_move());
        const std::string name = segment_name(type, p.rot, p.meeple_seg);
        ENSURE(free_model.count(name) == 1);
        for (std::size_t sg = 0; sg < segs.size(); ++sg)
          if (model_seg_name(type, p.rot, int(sg)) == name)
            meeples.push_back({{idx, int(sg)}, s.to_move()});
      }
    } else {
      ENSURE(p.meeple_seg == kNoSegment);
    }
    ENSURE(s.forced_without_meeple() == (!free_model.empty() && supply_before == 0));
  }

  void on_score(const State& s, int root, const ScoreEvent& e) {
    const int tile = root / kMaxSegs;
    const PlacedTile& p = s.tile(tile);
    const std::string name = segment_name(p.type, p.rot, root % kMaxSegs);
    int seg = -1;
    for (std::size_t sg = 0; sg < model_table()[p.type].segs.size(); ++sg)
      if (model_seg_name(p.type, p.rot, int(sg)) == name) seg = int(sg);
    ENSURE(seg >= 0);
    if (seg < 0) return;
    const Flood f = flood(s, tile, seg);
    ENSURE(f.complete);
    scored_done.insert(*f.members.begin());
    const int tiles = f.kind == 'm' ? 9 : int(f.tiles.size());
    const int points = f.kind == 'r' ? tiles : f.kind == 'c' ? 2 * tiles + 2 * f.pennants : 9;
    ENSURE(e.kind == (f.kind == 'r'   ? SegKind::road
                      : f.kind == 'c' ? SegKind::city
                                      : SegKind::monastery));
    ENSURE(e.tiles == tiles);
    ENSURE(e.points == points);
    if (f.kind != 'm') ENSURE(e.pennants == f.pennants);
    int most = 0;
    for (int c = 0; c < s.colors(); ++c) {
      ENSURE(e.meeples[std::size_t(c)] == meeples_in(f, c));
      most = std::max(most, meeples_in(f, c));
    }
    const int low = lowest();
    ENSURE(e.low_before == low);
    int majority = 0;
    bool low_in = false;
    for (int c = 0; c < s.colors(); ++c)
      if (most > 0 && meeples_in(f, c) == most) {
        majority |= 1 << c;
        low_in |= score[std::size_t(c)] == low;
      }
    ENSURE(e.majority == majority);
    const int awarded = low_in ? majority : 0;
    ENSURE(e.awarded == awarded);
    const int n_awarded = std::popcount(unsigned(awarded));
    for (int c = 0; c < s.colors(); ++c)
      if (awarded >> c & 1) score[std::size_t(c)] += points;
    for (int c = 0; c < s.colors(); ++c) ENSURE(s.score(c) == score[std::size_t(c)]);
    std::erase_if(meeples, [&](const auto& mp) { return f.members.count(mp.first) > 0; });
    if (n_awarded > 0) {
      if (f.kind == 'r' && points >= 10) goals |= goal_bit(Goal::road_10);
      if (f.kind == 'r' && points >= 10 && n_awarded >= 2) goals |= goal_bit(Goal::road_10_2c);
      if (f.kind == 'r' && points >= 10 && n_awarded >= 3) goals |= goal_bit(Goal::road_10_3c);
      if (f.kind == 'r' && points == 5 && n_awarded >= 3) goals |= goal_bit(Goal::road_5_3c);
      if (f.kind == 'c' && points >= 16) goals |= goal_bit(Goal::city_16);
      if (f.kind == 'c' && points >= 16 && n_awarded >= 2) goals |= goal_bit(Goal::city_16_2c);
      if (f.kind == 'c' && points >= 16 && n_awarded >= 3) goals |= goal_bit(Goal::city_16_3c);
      if (f.kind == 'c' && points >= 8 && points <= 10 && n_awarded >= 3)
        goals |= goal_bit(Goal::city_8_10_3c);
      if (f.kind == 'm' && ++monasteries >= 3) goals |= goal_bit(Goal::monastery_3);
      if (f.kind == 'm' && monasteries >= 4) goals |= goal_bit(Goal::monastery_4);
    }
  }

  void on_turn_end(const State& s) {
    ENSURE(expected_done == scored_done);
    expected_done.clear();
    scored_done.clear();
    // Tiles: on the board (without the start tile) + discarded + in stacks = 71.
    int left = 0;
    for (int c = 0; c < s.colors(); ++c) {
      left += s.stack_left(c);
      ENSURE(s.stack_left(c) == stacks.begin[c + 1] - stacks.next[c]);
    }
    ENSURE(s.tiles_on_board() - 1 + s.discards() + left == 71);
    ENSURE(int(drawn.size()) == s.tiles_on_board() - 1 + s.discards());
    ENSURE(s.unseen_total() == left);
    // Meeples: supply + on the board = m, per colour, and the engine's features agree.
    std::array<int, kMaxColors> on_board{};
    std::set<int> roots;
    for (int i = 0; i < s.tiles_on_board(); ++i)
      for (int sg = 0; sg < kTiles[s.tile(i).type].nseg; ++sg) {
        const int r = s.feature_of(i, sg);
        if (roots.insert(r).second)
          for (int c = 0; c < s.colors(); ++c)
            on_board[std::size_t(c)] += s.feature(r).meeples[std::size_t(c)];
      }
    for (int c = 0; c < s.colors(); ++c) {
      int mine = 0;
      for (const auto& mp : meeples) mine += mp.second == c;
      ENSURE(s.supply(c) + mine == s.meeples_per_color());
      ENSURE(on_board[std::size_t(c)] == mine);
      ENSURE(s.meeples_on_board(c) == mine);
      ENSURE(s.score(c) == score[std::size_t(c)]);  // scores only ever grow by awards
    }
  }

  void on_final(const State& s, int color, int points) {
    const bool lowest_now = score[std::size_t(color)] == lowest();
    ENSURE(points == (lowest_now ? 2 : 0));
    if (lowest_now) score[std::size_t(color)] += 2;
    ENSURE(s.score(color) == score[std::size_t(color)]);
    record.push_back("final " + std::to_string(color) + " " + std::to_string(points));
  }
#undef ENSURE
};

struct CheckedGame {
  int failures = 0;
  int turns = 0;
  EndReason end = EndReason::none;
};

// Plays one game with the model checking every step.
CheckedGame play_checked(const Config& cfg, std::uint64_t seed, std::uint64_t game, PlacementPolicy& p,
                     ScoringPolicy& sc, bool brute) {
  State s = State::initial(cfg);
  const sim::Stacks dealt = sim::deal(cfg.colors, seed, game);
  CheckedEnv env(dealt, p, sc, seed, game, &s, brute);
  CheckedGame out;
  std::array<int, kMaxColors> prev{};
  for (int c = 0; c < cfg.colors; ++c) prev[std::size_t(c)] = s.score(c);
  while (!s.ended() && out.turns < 200) {
    play_turn(s, env);
    ++out.turns;
    for (int c = 0; c < cfg.colors; ++c) {
      CHECK(s.score(c) >= prev[std::size_t(c)]);
      prev[std::size_t(c)] = s.score(c);
    }
  }
  CHECK(s.ended());  // terminates: every turn draws at least one of 71 tiles
  CHECK(out.turns <= 71);
  CHECK(s.turn() == out.turns);
  int left = 0;
  for (int c = 0; c < cfg.colors; ++c) left += s.stack_left(c);
  if (s.end_reason() == EndReason::tiles_exhausted) {
    CHECK(left == 0);
  } else {
    CHECK(s.end_reason() == EndReason::no_meeple);
    CHECK(s.forced_without_meeple());
    CHECK(left > 0);
  }
  play_final_scoring(s, env);
  for (int c = 0; c < cfg.colors; ++c) CHECK(s.score(c) >= prev[std::size_t(c)]);
  int lowest = s.score(0);
  for (int c = 1; c < cfg.colors; ++c) lowest = std::min(lowest, s.score(c));
  CHECK(s.result() == lowest);
  GoalMask goals = env.goals;
  if (lowest >= 40) goals |= goal_bit(Goal::total_40);
  if (lowest >= 50) goals |= goal_bit(Goal::total_50);
  if (lowest >= 60) goals |= goal_bit(Goal::total_60);
  if (s.end_reason() == EndReason::tiles_exhausted) goals |= goal_bit(Goal::all_tiles);
  CHECK(test::goal_names(s.goals()) == test::goal_names(goals));
  CHECK(s.monasteries_scored() == env.monasteries);
  out.failures = env.failures;
  out.end = s.end_reason();
  return out;
}

std::vector<std::string> placement_names() {
  std::vector<std::string> v;
  // Search policies play with small budgets here: the rules, not their strength, are tested.
  for (const auto& i : placement_policies())
    v.push_back(i.name == "mc"       ? "mc:rollouts=2,candidates=2"
                : i.name == "search" ? "search:candidates=6,beam=3,rollouts=3,turns=4,halving=1"
                                     : i.name);
  return v;
}
std::vector<std::string> scoring_names() {
  std::vector<std::string> v;
  for (const auto& i : scoring_policies()) v.push_back(i.name);
  return v;
}

// Pairs that cover every registered policy: each placement policy with the first scoring
// policy, and the first placement policy with each other scoring policy. (Every pair would
// multiply the cost of the search policies by the number of scoring policies.)
std::vector<std::pair<std::string, std::string>> covering_pairs() {
  std::vector<std::pair<std::string, std::string>> v;
  const auto pn = placement_names();
  const auto sn = scoring_names();
  for (const auto& p : pn) v.emplace_back(p, sn.front());
  for (std::size_t i = 1; i < sn.size(); ++i) v.emplace_back(pn.front(), sn[i]);
  return v;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("random games: every policy keeps the rules and conserves tiles and meeples") {
  // Each placement policy plays rounds i = 0, 1, ...: configuration i mod 6, scoring policy
  // i mod S, game i; at least S rounds (every scoring policy once), then more while it is
  // under its time budget (search policies are slow), at most 150.
  const auto pn = placement_names();
  const auto sn = scoring_names();
  REQUIRE_FALSE(pn.empty());
  REQUIRE_FALSE(sn.empty());
  const Config configs[] = {{3, 4}, {2, 1}, {4, 3}, {5, 6}, {3, 12}, {6, 12}};
  int ends[3] = {0, 0, 0};
  int games = 0;
  for (const auto& name : pn) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < 150; ++i) {
      if (i >= sn.size() && seconds_since(t0) > 1.0) break;
      const Config cfg = configs[i % 6];
      const std::string& sname = sn[i % sn.size()];
      INFO("placement " << name << ", scoring " << sname << ", colours " << cfg.colors
                        << ", meeples " << cfg.meeples << ", game " << i);
      auto p = make_placement_policy(name);
      auto sc = make_scoring_policy(sname);
      const CheckedGame c = play_checked(cfg, 7, i, *p, *sc, i < 24);
      CHECK(c.failures == 0);
      ++ends[int(c.end)];
      ++games;
    }
  }
  MESSAGE("checked games: " << games);
  // Both ends occur (1 meeple runs out at once; 12 rarely).
  CHECK(ends[int(EndReason::no_meeple)] > 0);
  CHECK(ends[int(EndReason::tiles_exhausted)] > 0);
}

TEST_CASE("determinism: the same (seed, game) gives the same log") {
  std::uint64_t game = 0;
  for (const auto& pair : covering_pairs()) {  // no structured binding: clang 14 cannot
    const std::string &pn = pair.first, &sn = pair.second;  // capture one (in INFO)
    game += 7;
    INFO(pn << " / " << sn << " game " << game);
    const sim::GameSpec spec{{3, 4}, 42, game};
    auto p1 = make_placement_policy(pn);
    auto s1 = make_scoring_policy(sn);
    sim::GameOutcome o1{}, o2{};
    const auto log1 = sim::play_logged_game(spec, *p1, *s1, pn, sn, &o1);
    // A second run, with policy instances that have played other games first.
    auto p2 = make_placement_policy(pn);
    auto s2 = make_scoring_policy(sn);
    sim::play_game({{3, 4}, 42, game + 100}, *p2, *s2);
    const auto log2 = sim::play_logged_game(spec, *p2, *s2, pn, sn, &o2);
    CHECK(log1.dump() == log2.dump());
    const sim::GameOutcome o3 = sim::play_game(spec, *p2, *s2);
    CHECK(o3.result == o1.result);
    CHECK(o3.scores == o1.scores);
    CHECK(o3.goals == o1.goals);
    CHECK(o3.end == o1.end);
    CHECK(o3.tiles_placed == o1.tiles_placed);
    CHECK(o3.discards == o1.discards);
    // The log's stacks are the deal, and each colour drew its own stack in order.
    const sim::Stacks st = sim::deal(3, 42, game);
    for (int c = 0; c < 3; ++c) {
      std::vector<std::string> want, drawn;
      for (int i = st.begin[c]; i < st.begin[c + 1]; ++i)
        want.push_back(std::string(tile_name(st.tiles[i])));
      CHECK(log1["stacks"][std::size_t(c)].get<std::vector<std::string>>() == want);
      for (const auto& t : log1["turns"])
        if (t["color"] == c) drawn.push_back(t["tile"].get<std::string>());
      REQUIRE(drawn.size() <= want.size());
      CHECK(std::equal(drawn.begin(), drawn.end(), want.begin()));
    }
    CHECK(log1["result"] == o1.result);
  }
}

TEST_CASE(
    "dealing: the base set minus one D, stacks of the right sizes, fixed by (colours, seed, "
    "game)") {
  for (int k = 2; k <= 6; ++k)
    for (std::uint64_t seed : {1u, 99u})
      for (std::uint64_t game = 0; game < 20; ++game) {
        CAPTURE(k);
        CAPTURE(game);
        const sim::Stacks s = sim::deal(k, seed, game);
        CHECK(s.colors == k);
        std::array<int, kTileTypes> count{};
        int total = 0;
        for (int c = 0; c < k; ++c) {
          CHECK(s.size(c) == 71 / k + (c < 71 % k ? 1 : 0));
          CHECK(s.next[c] == s.begin[c]);
          for (int i = s.begin[c]; i < s.begin[c + 1]; ++i) {
            ++count[s.tiles[i]];
            ++total;
          }
        }
        CHECK(s.begin[0] == 0);
        CHECK(total == 71);
        for (int t = 0; t < kBaseTypes; ++t)
          CHECK(count[std::size_t(t)] == kTiles[t].count - (t == kStartType ? 1 : 0));
      }
  // The same inputs give the same deal whatever happened before; other inputs differ.
  const sim::Stacks a = sim::deal(3, 5, 12);
  for (std::uint64_t g = 0; g < 50; ++g) (void)sim::deal(4, 6, g);
  Rng unrelated(5, 12, Stream::placement);
  for (int i = 0; i < 100; ++i) (void)unrelated();
  const sim::Stacks b = sim::deal(3, 5, 12);
  CHECK(a.tiles == b.tiles);
  for (int c = 0; c <= 3; ++c) CHECK(a.begin[std::size_t(c)] == b.begin[std::size_t(c)]);
  CHECK(a.tiles != sim::deal(3, 5, 13).tiles);
  CHECK(a.tiles != sim::deal(3, 6, 12).tiles);
}

TEST_CASE("dealing: the 71 tiles are shuffled uniformly (every type as often at every position)") {
  // Over many games each position holds type t in about count(t)/71 of them: a chi-square
  // statistic per position (23 degrees of freedom; above 60 with probability 4e-5). A
  // shuffle that leaves some positions alone, or favours the deck's order, fails. The games
  // are fixed, so the outcome is too.
  constexpr int kGames = 60000, kPositions = kBaseCounts.land();
  std::vector<std::array<int, kTileTypes>> seen(kPositions);
  int same_as_next = 0;  // adjacent positions with the same type
  for (std::uint64_t game = 0; game < kGames; ++game) {
    const sim::Stacks s = sim::deal(3, 2024, game);
    for (int i = 0; i < kPositions; ++i) ++seen[std::size_t(i)][s.tiles[std::size_t(i)]];
    for (int i = 0; i + 1 < kPositions; ++i)
      same_as_next += s.tiles[std::size_t(i)] == s.tiles[std::size_t(i + 1)];
  }
  std::array<int, kTileTypes> in_deck{};  // the start D is not dealt
  double worst = 0, pairs = 0;
  for (int t = 0; t < kBaseTypes; ++t) {
    const int n = kTiles[t].count - (t == kStartType ? 1 : 0);
    in_deck[std::size_t(t)] = n;
    pairs += double(n) * (n - 1);
  }
  for (int i = 0; i < kPositions; ++i) {
    double chi2 = 0;
    for (int t = 0; t < kBaseTypes; ++t) {
      const double want = double(kGames) * in_deck[std::size_t(t)] / kPositions;
      const double d = seen[std::size_t(i)][std::size_t(t)] - want;
      chi2 += d * d / want;
    }
    worst = std::max(worst, chi2);
  }
  CAPTURE(worst);
  CHECK(worst < 60);
  // Two given positions hold the same type with probability sum n(n-1) / (71 * 70). The
  // spread is the binomial one, a little wider than the true one (neighbouring pairs
  // overlap: 2.93 against 3.12 per deal, by simulation), so 5 of them is generous.
  const double p = pairs / (double(kPositions) * (kPositions - 1));
  const double trials = double(kGames) * (kPositions - 1);
  const double expect = trials * p, sd = std::sqrt(trials * p * (1 - p));
  CAPTURE(same_as_next);
  CAPTURE(expect);
  CHECK(std::abs(same_as_next - expect) < 5 * sd);
}

