// `search`: plans a few turns ahead with the draws as chance events.
//
// To the player the next tile of any colour is uniform over the multiset of unseen tiles
// (the stacks are shuffled and face down), so what it knows is a Markov state. A move is
// valued in two stages:
//   1. `filter`: the expectation, over the next colour's draw (every unseen type, weighted
//      by its count: an exact chance node), of the best heuristic value of that colour's
//      move. The `beam` best root moves by it go on (without the filter: the heuristic's).
//   2. Truncated rollouts: the unseen tiles re-dealt from the counts, the heuristic's move
//      played for `turns` turns (6: two rounds of 3 colours), the heuristic's value of the
//      last one. Every move compared sees the same deals (common random numbers), and
//      successive halving (`halving`) gives the better moves more of them.
// The heuristic values the meeple economy beyond the rollout from the unseen tiles
// (features' odds to finish, tiles placeable without a meeple); the rollouts play out the
// turns that decide whether a colour will be forced to place a meeple it does not have.
// What the paired measurements behind this shape found (docs/policies.md):
// rollouts to the game's end cannot rank moves (one rollout's result varies by about 15
// points between moves whose values differ by 1); expectimax with exact chance nodes two
// draws deep is weaker than truncated rollouts two rounds long at equal cost; rollouts of
// 4 or 8 turns are weaker than 6.
//
// The learned value (policies/value_net.hpp, policies/value_lookahead.hpp) can take the
// heuristic's place in either stage: `vfilter=1` values stage 1's draws by the net (the
// best net value among the `vreplies` best replies by the heuristic, NetValuer::next_draw),
// `leaf=1` values a rollout by the net's value of the afterstate it ends on instead of the
// heuristic's value of its last move. The rollouts are played by the heuristic either way.
// Both are 0 by default, and then nothing of the net is made or read.
//
// The cost is fixed by the parameters (heuristic evaluations and net evaluations, not
// time), so a game is a pure function of (seed, game, spec, net). Nothing is allocated per
// decision: the States and the move buffers are members.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "policies/search.hpp"

#include "policies/candidates.hpp"
#include "policies/lookahead.hpp"
#include "policies/value_lookahead.hpp"

namespace carc {
namespace {

struct SearchParams {
  int candidates, beam, rollouts, turns;
  bool filter, halving;
  bool leaf, vfilter;  // the net values the rollouts' leaves, the filter's draws
  int vreplies;        // with vfilter: replies valued per draw (0: all)
};

class Search final : public PlacementPolicy {
 public:
  Search(const SearchParams& p, const HeuristicWeights& w, const PolicyContext& context)
      : p_(p), aim_(context.aim), eval_(w, context.aim), leaf_(w, context.aim), scoring_(make_lookahead_scoring()), moves_(kMaxMoves),
        inner_(kMaxMoves), legal_(kMaxPlacements), value_(kMaxMoves), order_(kMaxMoves) {
    if (p_.leaf || p_.vfilter) {
      net_ = context.net;
      valuer_ = std::make_unique<NetValuer>(context.value_net());
    }
  }

  double last_value() const override { return last_value_; }
  std::span<const MoveValue> last_candidates() const override { return {cand_.data(), std::size_t(n_cand_)}; }

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const State& s = obs.state();
    const int type = obs.tile();
    last_value_ = std::numeric_limits<double>::quiet_NaN();
    n_cand_ = 0;
    const int n = std::min(ranked_candidates(eval_, s, type, legal, moves_.data(), rng), p_.candidates);
    for (int i = 0; i < n; ++i) order_[i] = i;
    if (n == 1) return moves_[0].move;
    if (p_.filter) rank_by_next_draw(s, type, n, rng);
    const int b = std::min(n, p_.beam);
    if (b == 1 || p_.rollouts == 0) return moves_[order_[0]].move;
    seed_ = rng();
    const int w = halving(s, type, b, rng);
    last_value_ = value_[w] / std::max(1, deals_);  // the winner met every deal
    for (int k = 0; k < b; ++k) {  // the beam, the winner first, each by its rollouts' mean
      const int i = order_[k];
      cand_[std::size_t(k)] = MoveValue{moves_[i].move, value_[i] / std::max(1, seen_[i])};
    }
    n_cand_ = b;
    return moves_[w].move;
  }

  // choose() as above, with what it computed written to `out` (policies/search.hpp).
  Move choose_reporting(const Observation& obs, std::span<const Placement> legal, Rng& rng,
                        std::span<const Move> asked, SearchReport& out, int heldout);

 private:
  // Stage 1: order_[0, n) best first by the expected best value of the next colour's move.
  void rank_by_next_draw(const State& s, int type, int n, Rng& rng) {
    for (int i = 0; i < n; ++i) value_[i] = next_draw_value(s, type, moves_[i], rng);
    // Equal values keep the heuristic's order (std::stable_sort would allocate).
    std::sort(order_.begin(), order_.begin() + n, [&](int x, int y) {
      return value_[x] != value_[y] ? value_[x] > value_[y] : x < y;
    });
  }

  double next_draw_value(const State& s, int type, const ScoredMove& m, Rng& rng) {
    play_to_afterstate(after_, s, type, m.move, *scoring_, rng);
    if (p_.vfilter) return valuer_->next_draw(after_, s.to_move(), p_.vreplies, rng);
    if (after_.ended()) return m.value;
    // The best heuristic value of each draw's moves (a discard is rare enough to leave out).
    const double v = expect_next_draw(after_, child_, legal_.data(),
                                      [&](const State& child, int t, const Placement* legal, int nl) {
      const int ne = leaf_.evaluate(child, t, {legal, std::size_t(nl)}, inner_.data(), rng);
      double best = -HUGE_VAL;
      for (int j = 0; j < ne; ++j) best = std::max(best, inner_[j].value);
      return best;
    });
    return std::isnan(v) ? m.value : v;
  }

  // Stage 2 over order_[0, b): rounds of rollouts on the same deals for every move still
  // in, the better half kept after each (one round without `halving`). Returns the
  // winner's index into moves_.
  int halving(const State& s, int type, int b, Rng& rng) {
    int rounds = 1;
    if (p_.halving)
      while ((1 << rounds) < b) ++rounds;
    for (int k = 0; k < b; ++k) value_[order_[k]] = 0;
    base_ = moves_[order_[0]].value;
    const int budget = p_.rollouts * b;
    int alive = b, spent = 0, deal = 0;
    for (int round = 0; round < rounds && alive > 1; ++round) {
      const int per = std::max(1, (budget - spent) / (alive * (rounds - round)));
      for (int r = 0; r < per; ++r, ++deal) {
        deal_on(s, deal);
        for (int k = 0; k < alive; ++k) {
          const double v = rollout(s, type, moves_[order_[k]], rng);
          value_[order_[k]] += v;
          if (record_) record_->put(order_[k], deal, reported_);
        }
      }
      deals_ = deal;
      for (int k = 0; k < alive; ++k) seen_[order_[k]] = deal;  // the deals each move met
      spent += per * alive;
      std::sort(order_.begin(), order_.begin() + alive, [&](int x, int y) {
        return value_[x] != value_[y] ? value_[x] > value_[y] : x < y;
      });
      alive = (alive + 1) / 2;
    }
    return order_[0];
  }

  // Deal number `deal` of the decision (seed_ drawn by choose()): the same unseen tiles
  // for every move that meets it.
  void deal_on(const State& s, int deal) { deal_.deal_numbered(s, seed_, deal); }

  // `m` played, then the heuristic's moves for `turns` turns on the deal, each turn by
  // core's turn template (the draws, discards and the river's order as in a game); the
  // value of the last move (leaf=1: the net's value of the afterstate reached). Under an
  // aim (docs/aim.md) the moves are the aimed evaluation's and the value is the aim's:
  // its chances at the position reached (exact when the game ended), with the last move's
  // heuristic value, less the decision's constant base_, breaking ties.
  double rollout(const State& s, int type, const ScoredMove& m, Rng& rng) {
    State& st = after_;
    play_to_afterstate(st, s, type, m.move, *scoring_, rng);
    deal_.rewind();
    LeafEnv env{{{}, &deal_, nullptr, scoring_.get(), &rng}, &leaf_, inner_.data(), m.value, m.value, s.to_move()};
    for (int t = 0; t < p_.turns && !st.ended(); ++t) play_turn(st, env);
    if (p_.leaf) return reported_ = double(valuer_->afterstate(st, env.mover));
    if (aim_.is_score()) return reported_ = env.value;
    if (st.ended()) {
      play_final_scoring(st, env);
      reported_ = aim_.outcome(st.goals(), st.result());
    } else {
      reported_ = aim_value(st, aim_, env.heuristic);
    }
    return reported_ + aim_tie_break(aim_) * (env.heuristic - base_);
  }

  // The rollouts' turns: the heuristic's best move, its value and whose it was kept.
  struct LeafEnv : RolloutEnv {
    AimedEvaluator* leaf;
    ScoredMove* moves;  // kMaxMoves
    double value;       // the (aimed) evaluation's value of the last move chosen
    double heuristic;   // ...and the heuristic's, without the aim's term
    int mover;          // whose decision the current afterstate follows
    Move choose(const State& st, int tile, const Placement* legal, int n) {
      const int ne = leaf->evaluate(st, tile, {legal, std::size_t(n)}, moves, *rng);
      int best = 0;
      for (int j = 1; j < ne; ++j)
        if (moves[j].value > moves[best].value) best = j;
      value = moves[best].value;
      heuristic = value - leaf->aim_term(best);
      mover = st.to_move();
      return moves[best].move;
    }
  };

  // Reporting only (choose_reporting): each rollout's value by (candidate, deal).
  struct Record;
  // choose_reporting's parts, in its order.
  std::vector<int> find_asked(const State& s, int type, int ranked, std::span<const Move> asked, int& all);
  void complete_asked(const State& s, int type, const std::vector<int>& asked_at, int deals, Record& rec,
                      Rng& extra);
  std::vector<double> held_out(const State& s, int type, int chosen, const std::vector<int>& asked_at,
                               int deals, int heldout, bool rolled, Rng& extra);
  SearchCandidate candidate(int i, int chosen, double next_draw, const std::vector<int>& asked_at,
                            const std::vector<double>& fresh, int heldout, const Record* rec);

  struct Record {
    int stride = 0;
    std::vector<double> value;  // candidate * stride + deal
    std::vector<int> count;     // rollouts per candidate
    void reset(int candidates, int deals) {
      stride = deals;
      value.assign(std::size_t(candidates) * std::size_t(deals), 0.0);
      count.assign(std::size_t(candidates), 0);
    }
    void put(int candidate, int deal, double v) {
      value[std::size_t(candidate) * std::size_t(stride) + std::size_t(deal)] = v;
      ++count[std::size_t(candidate)];
    }
  };

  SearchParams p_;
  Aim aim_;
  double base_ = 0;  // under an aim: the first move's value at the decision (rollout())
  // The last rollout's value as reports give it: under an aim, the aim's value alone (a
  // goal's chance) without the heuristic's tie-break that ranks the moves.
  double reported_ = 0;
  Record* record_ = nullptr;
  int deals_ = 0;  // deals played by the last halving()
  double last_value_ = std::numeric_limits<double>::quiet_NaN();  // last_value()
  std::vector<MoveValue> cand_ = std::vector<MoveValue>(kMaxMoves);  // last_candidates(), sized once
  std::vector<int> seen_ = std::vector<int>(kMaxMoves);
  int n_cand_ = 0;
  AimedEvaluator eval_;  // the root's candidates
  AimedEvaluator leaf_;  // every later decision
  std::unique_ptr<ScoringPolicy> scoring_;
  State after_, child_;
  Redeal deal_;
  std::uint64_t seed_ = 0;
  std::vector<ScoredMove> moves_, inner_;  // sized once
  std::vector<Placement> legal_;
  std::vector<double> value_;
  std::vector<int> order_;
  std::shared_ptr<const ValueNet> net_;  // with leaf or vfilter: kept alive (null: built-in)
  std::unique_ptr<NetValuer> valuer_;  // with leaf or vfilter
};

// The asked moves, found among the candidates by the position they leave: their indices
// into moves_. The large meeple where the heuristic does not offer it (its weight can
// decide no majority there) is added after the candidates (`all` of them, from `ranked`),
// valued as the meeple's move: the choice is unchanged.
std::vector<int> Search::find_asked(const State& s, int type, int ranked, std::span<const Move> asked, int& all) {
  all = ranked;
  std::vector<int> asked_at;
  for (Move m : asked) {
    const Move want = position_move(s, type, m);
    const std::uint32_t key = move_key(type, want);
    int at = -1;
    for (int i = 0; i < all && at < 0; ++i)
      if (move_key(type, position_move(s, type, moves_[i].move)) == key) at = i;
    if (at < 0 && want.large) {
      Move meeple = want;
      meeple.large = false;
      const std::uint32_t twin = move_key(type, meeple);
      for (int i = 0; i < ranked && at < 0; ++i)
        if (move_key(type, position_move(s, type, moves_[i].move)) == twin) {
          at = all;
          moves_[std::size_t(all++)] = ScoredMove{want, moves_[i].value};
        }
    }
    if (at < 0) throw std::invalid_argument("search: an asked move is not a legal move of the tile in hand");
    asked_at.push_back(at);
  }
  return asked_at;
}

// The asked moves' rollouts on the decision's deals [0, deals) that halving did not give
// them, on the stream `extra`.
void Search::complete_asked(const State& s, int type, const std::vector<int>& asked_at, int deals, Record& rec,
                            Rng& extra) {
  for (const int j : asked_at)
    for (int d = rec.count[std::size_t(j)]; d < deals; ++d) {
      deal_on(s, d);
      rollout(s, type, moves_[j], extra);
      rec.put(j, d, reported_);
    }
}

// Held out: the choice and the asked moves on deals [deals, deals + heldout), every move
// of a deal on the same stream. (1 + asked) x heldout values, row 0 the choice's; none
// without asked moves.
std::vector<double> Search::held_out(const State& s, int type, int chosen, const std::vector<int>& asked_at,
                                     int deals, int heldout, bool rolled, Rng& extra) {
  std::vector<double> fresh;
  if (heldout <= 0 || asked_at.empty()) return fresh;
  if (!rolled) seed_ = extra();  // no deals yet: a stream of their own
  fresh.assign((asked_at.size() + 1) * std::size_t(heldout), 0.0);
  for (int d = 0; d < heldout; ++d) {
    deal_on(s, deals + d);
    const Rng start(extra() + std::uint64_t(d));
    Rng r = start;
    rollout(s, type, moves_[chosen], r);
    fresh[std::size_t(d)] = reported_;
    for (std::size_t a = 0; a < asked_at.size(); ++a) {
      r = start;
      rollout(s, type, moves_[asked_at[a]], r);
      fresh[(a + 1) * std::size_t(heldout) + std::size_t(d)] = reported_;
    }
  }
  return fresh;
}

// Candidate i as the report gives it: its values, its loss against the choice on their
// shared deals (`rec`: null without rollouts) and, asked, on the held-out deals.
SearchCandidate Search::candidate(int i, int chosen, double next_draw, const std::vector<int>& asked_at,
                                  const std::vector<double>& fresh, int heldout, const Record* rec) {
  SearchCandidate c;
  c.move = moves_[i].move;
  c.heuristic = moves_[i].value;
  c.next_draw = next_draw;
  const auto asked_it = std::find(asked_at.begin(), asked_at.end(), i);
  c.asked = asked_it != asked_at.end();
  if (c.asked && !fresh.empty()) {
    const std::size_t a = std::size_t(asked_it - asked_at.begin()) + 1;
    paired_se(&fresh[0], &fresh[a * std::size_t(heldout)], 0, 1, std::size_t(heldout), c.heldout_loss,
              c.heldout_std_error);
  }
  if (rec) {
    const int k = rec->count[std::size_t(i)];
    const double* x = &rec->value[std::size_t(i) * std::size_t(rec->stride)];
    const double* y = &rec->value[std::size_t(chosen) * std::size_t(rec->stride)];
    c.rollouts = k;
    mean_se(x, std::size_t(k), c.mean, c.std_error);
    if (i == chosen) {
      c.loss = c.loss_std_error = 0;
    } else {
      paired_se(y, x, 0, 1, std::size_t(std::min(k, rec->count[std::size_t(chosen)])), c.loss, c.loss_std_error);
    }
  } else if (i == chosen) {
    c.loss = c.loss_std_error = 0;
  }
  return c;
}

// The same steps as choose(), in the same order with the same random numbers, so the move
// is choose()'s; then the asked moves' missing deals on a copy of the stream. A move's
// rollouts are always a prefix of the decision's deals (halving keeps playing the next
// deals for the moves still in), so two moves are paired over the shorter prefix. Not a
// hot path: it allocates its record and report.
Move Search::choose_reporting(const Observation& obs, std::span<const Placement> legal, Rng& rng,
                              std::span<const Move> asked, SearchReport& out, int heldout) {
  const State& s = obs.state();
  const int type = obs.tile();
  const int ranked = ranked_candidates(eval_, s, type, legal, moves_.data(), rng);
  const int n = std::min(ranked, p_.candidates);
  int all = ranked;
  const std::vector<int> asked_at = find_asked(s, type, ranked, asked, all);
  for (int i = 0; i < all; ++i) order_[i] = i;
  std::vector<double> next(std::size_t(all), std::numeric_limits<double>::quiet_NaN());
  Record rec;
  int b = 1, chosen = 0;
  bool rolled = false;
  if (n > 1) {
    if (p_.filter) {
      rank_by_next_draw(s, type, n, rng);
      for (int i = 0; i < n; ++i) next[std::size_t(i)] = value_[i];
    }
    b = std::min(n, p_.beam);
    if (b > 1 && p_.rollouts > 0) {
      seed_ = rng();
      rec.reset(all, p_.rollouts * b + 64);
      record_ = &rec;
      chosen = halving(s, type, b, rng);
      record_ = nullptr;
      rolled = true;
    } else {
      chosen = order_[0];
    }
  }
  const Move choice = moves_[chosen].move;

  const int deals = rolled ? deals_ : 0;
  Rng extra = rng;  // the caller's stream stays as choose() leaves it
  if (rolled) complete_asked(s, type, asked_at, deals, rec, extra);
  const std::vector<double> fresh = held_out(s, type, chosen, asked_at, deals, heldout, rolled, extra);

  out.moves.clear();
  out.deals = deals;
  std::vector<char> listed(std::size_t(all), 0);
  const auto list = [&](int i) {
    if (!listed[std::size_t(i)]) {
      listed[std::size_t(i)] = 1;
      out.moves.push_back(candidate(i, chosen, next[std::size_t(i)], asked_at, fresh, heldout, rolled ? &rec : nullptr));
    }
  };
  list(chosen);
  for (int k = 0; k < n; ++k) list(order_[k]);  // the beam in halving's order, then the filter's
  for (const int j : asked_at) list(j);         // asked moves past `candidates`
  return choice;
}

}  // namespace

class SearchValuer::Impl {
 public:
  std::unique_ptr<PlacementPolicy> owner;
  Search* search = nullptr;
};

SearchValuer::SearchValuer(std::string_view spec, const PolicyContext& context)
    : impl_(std::make_unique<Impl>()) {
  impl_->owner = make_placement_policy(spec, context);
  impl_->search = dynamic_cast<Search*>(impl_->owner.get());
  if (!impl_->search)
    throw std::invalid_argument("'" + std::string(spec) + "' is not a spec of the placement policy 'search'");
}

SearchValuer::~SearchValuer() = default;

Move SearchValuer::value(const Observation& obs, std::span<const Placement> legal, Rng& rng,
                         std::span<const Move> asked, SearchReport& out, int heldout) {
  return impl_->search->choose_reporting(obs, legal, rng, asked, out, heldout);
}

// Called by the registry (policies/registry.cpp) before its first use.
void register_search() {
  std::vector<ParamInfo> params = {
      {"candidates", 200, "root moves, best first by the heuristic, duplicates removed", true},
      {"filter", 1, "1: rank them by the expected best heuristic value after the next draw", true},
      {"beam", 10, "moves given rollouts, best first", true},
      {"rollouts", 24, "truncated rollouts per move in the beam (0: the first of the beam)", true},
      {"turns", 6, "turns per rollout, played by the heuristic", true},
      {"halving", 1, "1: successive halving, the better moves get more of the rollouts", true}};
  for (ParamInfo i : HeuristicWeights::params()) {
    // Its evaluations value an unfinished inn road and cathedral city as any road and city:
    // the heuristic's own defaults for them (set for its own play) cost search points
    // (paired, docs/expansions.md).
    if (i.key == "inn") i.default_value = 1;
    if (i.key == "cathedral") i.default_value = 2;
    params.push_back(i);
  }
  params.push_back({"leaf", 0, "1: a rollout's value is the learned value of the afterstate it ends on", true, true});
  params.push_back({"vfilter", 0, "1: the filter values each draw by the learned value of the best of `vreplies` replies", true, true});
  params.push_back({"vreplies", 1, "with vfilter=1: replies valued per draw, best first by the heuristic (0: all)", true, true});
  PolicyInfo info{"search",
                  "plans ahead with the draws as chance: moves filtered by the expectation over the "
                  "next draw, then truncated heuristic rollouts on re-dealt unseen tiles (leaf=1, "
                  "vfilter=1: valued by the learned value); takes --aim",
                  params};
  info.aims = true;
  register_placement(
      std::move(info),
      [](const Params& p, const PolicyContext& context) {
        if (!context.aim.is_score() && (p.get("leaf") == 1 || p.get("vfilter") == 1))
          throw std::invalid_argument("placement policy 'search': leaf=1 and vfilter=1 value the result by the learned value and cannot aim at " +
                                      context.aim.id());
        if (p.get("vfilter") == 1 && p.get("filter") == 0)
          throw std::invalid_argument("placement policy 'search': vfilter=1 needs filter=1 (it values the filter's draws)");
        return std::make_unique<Search>(
            SearchParams{p.whole("search", "candidates", 1, kMaxMoves), p.whole("search", "beam", 1, kMaxMoves),
                         p.whole("search", "rollouts", 0, 1000000), p.whole("search", "turns", 1, kMaxTiles),
                         p.whole("search", "filter", 0, 1) == 1, p.whole("search", "halving", 0, 1) == 1,
                         p.whole("search", "leaf", 0, 1) == 1, p.whole("search", "vfilter", 0, 1) == 1,
                         p.whole("search", "vreplies", 0, kMaxMoves)},
            HeuristicWeights::from(p), context);
      });
}

}  // namespace carc
