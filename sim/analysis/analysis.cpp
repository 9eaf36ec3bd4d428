// How a decision is valued, in stages:
//   1. the moves: the heuristic's K best (ranked_candidates: duplicates removed) and the
//      move played, which replaces its duplicate among them or comes last;
//   2. rollout r: one re-deal of the unseen tiles and one policy stream, both from
//      (key, r); every move is played on a copy of the State and continued to the end
//      on them (common random numbers);
//   3. each move's mean and standard error; ranks by mean; the loss of the played move
//      against the best mean, paired over the rollouts, and held out: the best picked on
//      the even rollouts, measured on the odd ones.
// Why: the moves of one decision differ by a point or two in expectation while one
// continuation's result varies by fifteen or more, so the moves are compared on the same
// continuations. Pairing helps less than one would hope, as a different move soon leads
// the game elsewhere: at 32 rollouts over 4 heuristic games (seed 11) the standard error
// of a paired loss was 2.4 points on average, against 2.7 for the same two means unpaired
// (a correlation of about 0.2). So the in-sample loss, a maximum over noisy means, is
// biased upwards, and the held-out figure is given beside it. The continuation is the analysing player itself, so the figures are
// what that player would make of the position after each move, not what optimal play would.
#include "sim/analysis/analysis.hpp"
#include "sim/analysis/search_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <omp.h>

#include "policies/candidates.hpp"
#include "sim/driver/errors.hpp"
#include "sim/log/verify.hpp"

namespace carc::sim {

namespace {

// Over a game's decisions: the sum of one estimate, and the standard error of that sum
// (the decisions' rollouts are independent).
double sum_of(const std::vector<DecisionAnalysis>& ds, double DecisionAnalysis::*x) {
  double t = 0;
  for (const auto& d : ds) t += d.*x;
  return t;
}

double stderr_of_sum(const std::vector<DecisionAnalysis>& ds, double DecisionAnalysis::*se) {
  double v = 0;
  for (const auto& d : ds) v += d.*se * (d.*se);
  return std::sqrt(v);
}

}  // namespace

double GameAnalysis::loss() const { return sum_of(decisions, &DecisionAnalysis::loss); }
double GameAnalysis::loss_stderr() const {
  return stderr_of_sum(decisions, &DecisionAnalysis::loss_stderr);
}
double GameAnalysis::heldout() const { return sum_of(decisions, &DecisionAnalysis::heldout); }
double GameAnalysis::heldout_stderr() const {
  return stderr_of_sum(decisions, &DecisionAnalysis::heldout_stderr);
}
double GameAnalysis::own_loss() const { return sum_of(decisions, &DecisionAnalysis::own_loss); }
double GameAnalysis::own_loss_stderr() const {
  return stderr_of_sum(decisions, &DecisionAnalysis::own_loss_stderr);
}

std::uint64_t decision_key(std::uint64_t seed, std::uint64_t index, int decision) {
  std::uint64_t h = seed ^ 0x616E616C79736531ull;  // "analyse1": apart from the games' streams
  h = splitmix64(h) ^ index * 0xD1B54A32D192ED03ull;
  h = splitmix64(h) ^ std::uint64_t(decision) * 0x8CB92BA72F3D8DD7ull;
  return splitmix64(h);
}

DecisionAnalyser::DecisionAnalyser(const std::string& placement, const std::string& scoring,
                                   const PolicyContext& context)
    : player_(make_placement_policy(placement, context)), scoring_(make_scoring_policy(scoring)),
      eval_(HeuristicWeights{}), ranked_(kMaxMoves) {}

DecisionAnalyser::~DecisionAnalyser() = default;

namespace {

// Mean and standard error of x[a] - y[a] over a = from, from + step, ... < n (the kit's,
// with 0 where it has no value: no rollout, or one).
void paired(const double* x, const double* y, std::size_t from, std::size_t step, std::size_t n,
            double& mean, double& se) {
  paired_se(x, y, from, step, n, mean, se);
  if (std::isnan(mean)) mean = 0;
  if (std::isnan(se)) se = 0;
}

}  // namespace

void DecisionAnalyser::analyse(const State& s, int type, std::span<const Placement> legal,
                               Move played, std::uint64_t key, int rollouts, int candidates,
                               DecisionAnalysis& out) {
  Rng order_rng(key, 0, Stream::search);  // ties of equal heuristic value in a random order
  const int n = ranked_candidates(eval_, s, type, legal, ranked_.data(), order_rng);
  int k = candidates > 0 ? std::min(n, candidates) : n;
  const bool advice = played.is_none();
  if (!advice) played = position_move(s, type, played);
  const std::uint32_t played_key = advice ? ~std::uint32_t(0) : move_key(type, played);
  moves_.clear();
  int at = -1;
  for (int i = 0; i < n; ++i) {
    const Move m = position_move(s, type, ranked_[std::size_t(i)].move);
    if (move_key(type, m) == played_key) at = i;
    if (i < k) moves_.push_back(m);
  }
  if (advice) {
    at = -1;
  } else if (at >= k || at < 0) {  // the played move past the K best (or, defensively, not ranked)
    moves_.push_back(played);
    at = k++;
  } else {
    moves_[std::size_t(at)] = played;  // the same position; as the log spells it
  }
  // The analysing player's own move, on a stream apart from the rollouts'.
  Rng own_rng(key, 0, Stream::config);
  const Move own = position_move(s, type, player_->choose(Observation(s, type), legal, own_rng));
  const std::uint32_t own_key = move_key(type, own);
  int own_at = -1;
  for (int i = 0; i < k && own_at < 0; ++i)
    if (move_key(type, moves_[std::size_t(i)]) == own_key) own_at = i;
  if (own_at < 0) {
    moves_.push_back(own);
    own_at = k++;
  }

  const std::size_t R = std::size_t(rollouts);
  results_.resize(std::size_t(k) * R);
  RolloutEnv env{{}, &deal_, player_.get(), scoring_.get(), nullptr};
  for (std::size_t r = 0; r < R; ++r) {
    Rng deal_rng(key, r, Stream::deal);
    deal_.deal(s, deal_rng);
    const Rng policy_start(key, r, Stream::placement);
    for (int i = 0; i < k; ++i) {
      Rng rng = policy_start;  // every move meets the same policy stream
      env.rng = &rng;
      play_to_afterstate(sim_, s, type, moves_[std::size_t(i)], *scoring_, rng);
      deal_.rewind();
      play_to_end(sim_, env);
      results_[std::size_t(i) * R + r] = sim_.result();
    }
  }

  out.moves.resize(std::size_t(k));
  for (int i = 0; i < k; ++i) {
    MoveEstimate& e = out.moves[std::size_t(i)];
    e.move = moves_[std::size_t(i)];
    mean_se(&results_[std::size_t(i) * R], R, e.mean, e.std_error);
    if (std::isnan(e.std_error)) e.std_error = 0;  // one rollout
  }
  // Ranks: best mean first, ties in the heuristic's order (insertion sort of indices).
  std::vector<int>& order = order_;
  order.resize(std::size_t(k));
  for (int i = 0; i < k; ++i) {
    int j = i;
    for (; j > 0 && out.moves[std::size_t(order[std::size_t(j - 1)])].mean < out.moves[std::size_t(i)].mean; --j)
      order[std::size_t(j)] = order[std::size_t(j - 1)];
    order[std::size_t(j)] = i;
  }
  for (int r = 0; r < k; ++r) out.moves[std::size_t(order[std::size_t(r)])].rank = r;
  out.best = order[0];
  out.played = at;
  if (advice) {
    out.loss = out.loss_stderr = out.heldout = out.heldout_stderr = 0;
    out.heldout_best = out.best;
    return;
  }
  // Paired: best's result less the played move's, rollout by rollout.
  const double* p = &results_[std::size_t(at) * R];
  paired(&results_[std::size_t(out.best) * R], p, 0, 1, R, out.loss, out.loss_stderr);
  out.own = own_at;
  paired(&results_[std::size_t(own_at) * R], p, 0, 1, R, out.own_loss, out.own_loss_stderr);
  // Held out: picked on the even rollouts, measured on the odd ones.
  if (R < 2) {
    out.heldout_best = out.best;
    out.heldout = out.loss;
    out.heldout_stderr = out.loss_stderr;
    return;
  }
  int pick = 0;
  double pick_sum = -1;
  for (int i = 0; i < k; ++i) {
    double sum = 0;
    for (std::size_t r = 0; r < R; r += 2) sum += results_[std::size_t(i) * R + r];
    if (sum > pick_sum) {
      pick = i;
      pick_sum = sum;
    }
  }
  out.heldout_best = pick;
  paired(&results_[std::size_t(pick) * R], p, 1, 2, R, out.heldout, out.heldout_stderr);
}

namespace {

struct Snapshot {
  State s;
  int type;
  std::vector<Placement> legal;
  Move played;
};

// Collects every decision of a replay.
struct Collector : DecisionObserver {
  std::vector<Snapshot> seen;
  void on_decision(const State& s, int type, std::span<const Placement> legal, const Move& played) override {
    seen.push_back(Snapshot{s, type, {legal.begin(), legal.end()}, played});
  }
};

const nlohmann::json* member(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

std::string string_member(const nlohmann::json& j, const char* key) {
  const auto* v = member(j, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

// The log's scoring order when it names one this program has, else `best`.
std::string log_scoring(const std::string& named) {
  if (named.empty()) return canonical_scoring("best");
  try {
    return canonical_scoring(named);
  } catch (const std::invalid_argument&) {
    return canonical_scoring("best");
  }
}

}  // namespace

GameAnalysis analyse_game(const nlohmann::json& log, std::uint64_t index, const AnalysisOptions& opt) {
  Collector seen;
  if (const auto bad = verify_game_log(log, &seen))
    throw BadLog("not a consistent game log (carcsolo verify): " + bad->message());
  GameAnalysis g;
  g.index = index;
  const auto* seed = member(log, "seed");
  const auto* game = member(log, "game");
  g.seed = seed ? *seed : nlohmann::json();
  g.game = game ? *game : nlohmann::json();
  const auto& cfg = log.at("config");
  g.colors = cfg.at("colors").get<int>();
  g.meeples = cfg.at("meeples").get<int>();
  g.tileset = cfg.value("tileset", std::string("base"));
  g.large_meeple = cfg.value("large_meeple", false);
  g.placement_policy = string_member(cfg, "placement_policy");
  g.scoring_policy = string_member(cfg, "scoring_policy");
  g.rollout_scoring = opt.scoring.empty() ? log_scoring(g.scoring_policy) : opt.scoring;
  g.result = log.at("result").get<int>();

  const int n = int(seen.seen.size());
  g.decisions.resize(std::size_t(n));
  const int threads = std::max(1, std::min(opt.threads, n));
  const bool by_search = g.by_search = is_search_spec(opt.placement);
  std::vector<std::unique_ptr<DecisionAnalyser>> analysers;
  std::vector<std::unique_ptr<SearchDecisionAnalyser>> searches;
  for (int t = 0; t < threads; ++t)
    if (by_search)
      searches.push_back(std::make_unique<SearchDecisionAnalyser>(opt.placement, opt.context));
    else
      analysers.push_back(std::make_unique<DecisionAnalyser>(opt.placement, g.rollout_scoring, opt.context));
  FirstError errors;
  std::atomic<bool> skipped{false};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int i = 0; i < n; ++i) {
    if (errors.failed()) continue;
    if (opt.stopped()) {
      skipped.store(true);
      continue;
    }
    try {
      const Snapshot& d = seen.seen[std::size_t(i)];
      DecisionAnalysis& a = g.decisions[std::size_t(i)];
      a.turn = d.s.turn();
      a.color = d.s.to_move();
      a.tile = d.type;
      a.index = i;
      a.stage = Stage(std::min(2, 3 * i / n));
      const std::uint64_t key = decision_key(opt.seed, index, i);
      if (by_search)
        searches[std::size_t(omp_get_thread_num())]->analyse(d.s, d.type, d.legal, d.played, key, opt.heldout, a);
      else
        analysers[std::size_t(omp_get_thread_num())]->analyse(d.s, d.type, d.legal, d.played, key, opt.rollouts,
                                                              opt.candidates, a);
      const Move& m = a.moves[std::size_t(a.played)].move;
      a.kind = m.seg == Move::kNoMeeple ? DecisionKind::none
                                        : DecisionKind(1 + int(kTiles[d.type].segs[m.seg].kind));
    } catch (...) {
      errors.capture();
    }
  }
  errors.rethrow_if_failed();
  g.complete = !skipped.load();
  return g;
}

}  // namespace carc::sim
