#include "sim/reference/ceiling.hpp"

#include <algorithm>
#include <memory>
#include <span>
#include <stdexcept>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "core/turn.hpp"
#include "policies/aim.hpp"
#include "policies/heuristic/heuristic.hpp"
#include "policies/lookahead.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"

namespace carc::sim {
namespace {

std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }

// A key that two positions share when a player could not tell them apart: each placed
// tile by its cell, type, edge letters and segments as sets of board edges (so the
// rotations of a symmetric tile agree, and the order tiles came in does not matter), each
// meeple still standing by its cell, segment edges and colour, and per colour the score,
// supply and tiles left in its stack.
std::uint64_t position_key(const State& s) {
  std::uint64_t h = 0;
  for (int i = 1; i < s.tiles_on_board(); ++i) {
    const PlacedTile& t = s.tile(i);
    const Oriented& o = kOriented[t.type][t.rot];
    std::uint64_t segs = 0;
    for (int g = 0; g < kTiles[t.type].nseg; ++g)
      segs += mix(o.seg_edges[g] | std::uint64_t(kTiles[t.type].segs[g].kind) << 8);
    const std::uint64_t edges = o.edge[0] | o.edge[1] << 2 | o.edge[2] << 4 | o.edge[3] << 6;
    h += mix(t.cell | std::uint64_t(t.type) << 16 | edges << 24 | segs << 32);
    if (t.meeple_seg == kNoSegment) continue;
    if (s.feature(s.feature_of(i, t.meeple_seg)).open == 0) continue;  // scored: went home
    h += mix(0x5EED0000000000ull ^ (t.cell | std::uint64_t(o.seg_edges[t.meeple_seg]) << 16 |
                                     std::uint64_t(t.meeple_color) << 24));
  }
  for (int c = 0; c < s.colors(); ++c)
    h += mix(std::uint64_t(c + 1) << 56 | std::uint64_t(s.score(c)) << 16 |
             std::uint64_t(s.supply(c)) << 8 | std::uint64_t(s.stack_left(c)));
  return h;
}

// The ceiling's Env of core/turn.hpp: the draws read from the dealt stacks at the position
// `at` has reached (many positions share one deal), final scoring in the `best` order. The
// beam chooses the moves itself, between the template's steps.
struct CeilingEnv : SilentHooks {
  const Stacks* stacks;
  const State* at;
  ScoringPolicy* scoring;
  Rng* rng;
  int draw(int c) const {
    const int left = c == kRiverStack ? at->river_left() : at->stack_left(c);
    return stacks->tiles[std::size_t(stacks->begin[c] + stacks->size(c) - left)];
  }
  Move choose(const State&, int, const Placement*, int) { throw std::logic_error("ceiling: the beam chooses"); }
  void order(const State&, int, std::uint16_t*, int) { throw std::logic_error("ceiling: the beam orders"); }
  void order_final(const State& s, std::uint8_t* colors, int n) {
    scoring->order_final(Observation(s, kNoType), {colors, std::size_t(n)}, *rng);
  }
};

struct Step {  // one placed tile of a line; lines share their prefixes
  int parent;  // index of the previous step, -1 at the start
  Move move;
};

struct Node {
  State s;
  int line;             // last step, -1 before the first placement
  bool policy = false;  // the position of the policy's line
  bool helped = false;  // its line went through a position kept only for being the policy's
};

struct Child {
  double value;
  int node, order;  // which expanded node, and the move's index among its moves
  Move move;
};

bool same_move(const Move& a, const Move& b) {
  return a.at.cell == b.at.cell && a.at.rot == b.at.rot && a.seg == b.seg;
}

class Beam {
 public:
  Beam(const Config& cfg, std::uint64_t seed, std::uint64_t game, int width,
       std::span<const Move> policy_line, const Aim& aim)
      : stacks_(deal(cfg.colors, seed, game, cfg.tiles())), width_(width), policy_line_(policy_line),
        scoring_(make_lookahead_scoring()), aim_(aim), eval_(HeuristicWeights{}, aim), rng_(seed, game, Stream::search) {
    beam_.push_back({State::initial(cfg), -1, !policy_line.empty(), false});
  }

  CeilingLine run() {
    while (!beam_.empty()) turn();
    if (best_.moves.empty() && best_.outcome.colors == 0)
      throw std::logic_error("ceiling: no line reached the end of the game");
    if (policy_line_.empty()) best_.beam_alone_result = best_.outcome.result;
    else if (policy_next_ != policy_line_.size())
      throw std::logic_error("ceiling: the policy's line has moves left at the end of the game");
    return best_;
  }

 private:
  // The colour to move draws until a tile fits (discarding those that fit nowhere), by the
  // turn template. Returns the tile and its placements, or kNoType when the stack ran out.
  int draw_placeable(State& s, MoveBuffer& legal, int& n) {
    CeilingEnv env{{}, &stacks_, &s, scoring_.get(), &rng_};
    return carc::draw_placeable(s, env, legal.data(), n);
  }

  void finish(State& s, int line, bool helped) {
    CeilingEnv env{{}, &stacks_, &s, scoring_.get(), &rng_};
    play_final_scoring(s, env);
    const GameOutcome o = outcome_of(s);
    const double k = key(o);
    if (!helped && k > beam_alone_key_) {
      beam_alone_key_ = k;
      best_.beam_alone_result = o.result;
    }
    if (best_.outcome.colors != 0 && k <= best_key_) return;
    best_key_ = k;
    best_.outcome = o;
    best_.moves.clear();
    for (int k = line; k >= 0; k = steps_[std::size_t(k)].parent)
      best_.moves.push_back(steps_[std::size_t(k)].move);
    std::reverse(best_.moves.begin(), best_.moves.end());
  }

  // Keeps a position for the next turn, or finishes it when the game is over. Returns
  // whether it is a new one in the next beam. The policy's position is kept even when an
  // equal one is there: its exact State is what its next move is legal in.
  bool keep(State& s, int line, bool policy, bool helped) {
    if (s.ended()) {
      finish(s, line, helped);
      return false;
    }
    const bool fresh = seen_.insert(position_key(s)).second;
    if (fresh || policy) next_.push_back({s, line, policy, helped});
    return fresh;
  }

  // The index among moves_[0, k) of the policy's next move. A placement that takes no
  // meeple is one option whatever segment the policy named.
  int policy_order(int k) {
    if (policy_next_ >= policy_line_.size())
      throw std::logic_error("ceiling: the policy's line ran out of moves");
    const Move m = policy_line_[policy_next_++];
    int same_placement = -1, options = 0;
    for (int i = 0; i < k; ++i) {
      const Move& c = moves_[std::size_t(i)].move;
      if (c.at.cell != m.at.cell || c.at.rot != m.at.rot) continue;
      if (same_move(c, m)) return i;
      same_placement = i;
      ++options;
    }
    if (options == 1 && moves_[std::size_t(same_placement)].move.seg == Move::kNoMeeple)
      return same_placement;
    throw std::logic_error("ceiling: the policy's move is not legal in its own line");
  }

  void turn() {
    drawn_.clear();
    children_.clear();
    next_.clear();
    seen_.clear();
    int policy_child = -1;  // index in children_ of the policy's move
    for (Node& node : beam_) {
      MoveBuffer legal;
      int n = 0;
      const int type = draw_placeable(node.s, legal, n);
      if (type == kNoType) {  // the turn ended in discards: nothing to choose
        CeilingEnv env{{}, &stacks_, &node.s, scoring_.get(), &rng_};
        score_and_end_turn(node.s, env, nullptr, 0);
        keep(node.s, node.line, node.policy, node.helped);
        continue;
      }
      const int k = eval_.evaluate(node.s, type, {legal.data(), std::size_t(n)}, moves_.data(), rng_);
      const int id = int(drawn_.size());
      drawn_.push_back(node);
      types_.resize(drawn_.size());
      types_[std::size_t(id)] = type;
      if (node.policy) policy_child = int(children_.size()) + policy_order(k);
      for (int i = 0; i < k; ++i) children_.push_back({moves_[std::size_t(i)].value, id, i, moves_[std::size_t(i)].move});
    }
    Child policy{};
    const bool follow = policy_child >= 0;
    if (follow) policy = children_[std::size_t(policy_child)];
    std::sort(children_.begin(), children_.end(), [](const Child& a, const Child& b) {
      if (a.value != b.value) return a.value > b.value;
      return a.node != b.node ? a.node < b.node : a.order < b.order;
    });
    // The `width` best distinct positions; the policy's, when it is not among them, goes on
    // as the one extra position.
    bool policy_kept = false;
    int kept = 0;
    for (const Child& ch : children_) {
      if (kept >= width_) break;
      const bool is_policy = follow && ch.node == policy.node && ch.order == policy.order;
      policy_kept = policy_kept || is_policy;
      kept += expand(ch, is_policy, false);
    }
    if (follow && !policy_kept) expand(policy, true, true);
    beam_.swap(next_);
  }

  bool expand(const Child& ch, bool is_policy, bool only_for_policy) {
    const Node& from = drawn_[std::size_t(ch.node)];
    State s = from.s;
    apply_move(s, types_[std::size_t(ch.node)], ch.move, *scoring_, rng_);
    s.end_turn();
    steps_.push_back({from.line, ch.move});
    return keep(s, int(steps_.size()) - 1, is_policy, from.helped || only_for_policy);
  }

  // Lines are ranked by the aim's outcome, then the result (under `score`: the result).
  double key(const GameOutcome& o) const { return aim_.outcome(o.goals, o.result) * 4096.0 + o.result; }

  Stacks stacks_;
  int width_;
  double best_key_ = -1, beam_alone_key_ = -1;
  std::span<const Move> policy_line_;
  std::size_t policy_next_ = 0;
  std::unique_ptr<ScoringPolicy> scoring_;
  Aim aim_;
  AimedEvaluator eval_;
  Rng rng_;
  std::vector<Node> beam_, next_, drawn_;
  std::vector<int> types_;
  std::vector<Child> children_;
  std::vector<Step> steps_;
  std::unordered_set<std::uint64_t> seen_;
  std::array<ScoredMove, kMaxMoves> moves_;
  CeilingLine best_;
};

// Passes a policy's choices on and records them.
class Recording final : public PlacementPolicy {
 public:
  Recording(PlacementPolicy& inner, std::vector<Move>& moves) : inner_(inner), moves_(moves) {}
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const Move m = inner_.choose(obs, legal, rng);
    moves_.push_back(m);
    return m;
  }

 private:
  PlacementPolicy& inner_;
  std::vector<Move>& moves_;
};

// Plays a line's moves in order (the driver deals the same stacks, so the same tiles come).
class Scripted final : public PlacementPolicy {
 public:
  explicit Scripted(const std::vector<Move>& moves) : moves_(moves) {}
  Move choose(const Observation&, std::span<const Placement> legal, Rng&) override {
    if (next_ >= moves_.size()) throw std::logic_error("ceiling: the line ran out of moves");
    const Move m = moves_[next_++];
    const bool is_legal = std::any_of(legal.begin(), legal.end(), [&](const Placement& p) {
      return p.cell == m.at.cell && p.rot == m.at.rot;
    });
    if (!is_legal) throw std::logic_error("ceiling: the line's move is not legal on replay");
    return m;
  }

 private:
  const std::vector<Move>& moves_;
  std::size_t next_ = 0;
};

}  // namespace

nlohmann::json ceiling_log(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                           const CeilingLine& line, const std::string& label) {
  Scripted placement(line.moves);
  auto scoring = make_lookahead_scoring();
  GameOutcome o;
  nlohmann::json log = play_logged_game(GameSpec{cfg, seed, game}, placement, *scoring, label,
                                        "best", &o);
  if (o.result != line.outcome.result || o.scores != line.outcome.scores)
    throw std::logic_error("ceiling: the replayed line ends differently from the search");
  return log;
}

CeilingLine clairvoyant_ceiling(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                                int width, std::span<const Move> policy_line, const Aim& aim) {
  if (width < 1) throw std::invalid_argument("ceiling: the beam width must be at least 1");
  auto beam = std::make_unique<Beam>(cfg, seed, game, width, policy_line, aim);  // large: not on the stack
  return beam->run();
}

std::vector<Move> policy_line(const Config& cfg, std::uint64_t seed, std::uint64_t game,
                              PlacementPolicy& placement, ScoringPolicy& scoring,
                              GameOutcome* outcome) {
  std::vector<Move> moves;
  moves.reserve(kMaxTiles);
  Recording recording(placement, moves);
  const GameOutcome o = play_game(GameSpec{cfg, seed, game}, recording, scoring);
  if (outcome) *outcome = o;
  return moves;
}

}  // namespace carc::sim
