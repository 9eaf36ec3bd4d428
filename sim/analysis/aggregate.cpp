// The aggregate over games (sim/analysis/aggregate.hpp) and the played games' analysis.
#include "sim/analysis/aggregate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <omp.h>

#include "sim/analysis/numbers.hpp"
#include "sim/driver/errors.hpp"
#include "sim/driver/game.hpp"

namespace carc::sim {
namespace {

using ojson = nlohmann::ordered_json;


// One group's per-game sums: loss, held-out loss and decisions, one entry per game.
struct Group {
  std::vector<double> loss, held, own, n;
  explicit Group(std::size_t games = 0) : loss(games), held(games), own(games), n(games) {}
  void add(std::size_t g, const DecisionAnalysis& d) {
    loss[g] += d.loss;
    held[g] += d.heldout;
    own[g] += d.own_loss;
    n[g] += 1;
  }
  double decisions() const {
    double t = 0;
    for (double x : n) t += x;
    return t;
  }
};

struct Estimate {
  double mean = 0, se = 0;
  bool has_se = false;
};

// Mean over games and its standard error.
Estimate per_game(const std::vector<double>& x) {
  Estimate e;
  const double G = double(x.size());
  if (x.empty()) return e;
  for (double v : x) e.mean += v;
  e.mean /= G;
  if (x.size() < 2) return e;
  double sq = 0;
  for (double v : x) sq += (v - e.mean) * (v - e.mean);
  e.se = std::sqrt(sq / (G - 1) / G);
  e.has_se = true;
  return e;
}

// Ratio sum(x) / sum(n) and its delta-method standard error over games.
Estimate per_decision(const std::vector<double>& x, const std::vector<double>& n) {
  Estimate e;
  double sx = 0, sn = 0;
  for (std::size_t g = 0; g < x.size(); ++g) sx += x[g], sn += n[g];
  if (sn == 0) return e;
  e.mean = sx / sn;
  if (x.size() < 2) return e;
  const double G = double(x.size()), mean_n = sn / G;
  double sq = 0;
  for (std::size_t g = 0; g < x.size(); ++g) sq += (x[g] - e.mean * n[g]) * (x[g] - e.mean * n[g]);
  e.se = std::sqrt(sq / (G * (G - 1))) / mean_n;
  e.has_se = true;
  return e;
}

ojson estimate_json(const Estimate& e) {
  if (!e.has_se) return {{"mean", e.mean}, {"stderr", nullptr}, {"ci95", nullptr}};
  return {{"mean", e.mean}, {"stderr", e.se}, {"ci95", {e.mean - kZ95 * e.se, e.mean + kZ95 * e.se}}};
}

ojson group_json(const Group& g) {
  return {{"decisions", int(g.decisions())},
          {"loss_per_game", estimate_json(per_game(g.loss))},
          {"loss_per_decision", estimate_json(per_decision(g.loss, g.n))},
          {"heldout_per_game", estimate_json(per_game(g.held))},
          {"heldout_per_decision", estimate_json(per_decision(g.held, g.n))},
          {"own_loss_per_game", estimate_json(per_game(g.own))},
          {"own_loss_per_decision", estimate_json(per_decision(g.own, g.n))}};
}

// Every group of decisions over the games.
struct Groups {
  Group all;
  std::vector<Group> stage, kind, situation, tile;  // situation: stage * 4 + kind
  explicit Groups(const std::vector<GameAnalysis>& games)
      : all(games.size()), stage(3, Group(games.size())), kind(4, Group(games.size())),
        situation(12, Group(games.size())), tile(std::size_t(kTileTypes), Group(games.size())) {
    for (std::size_t g = 0; g < games.size(); ++g)
      for (const auto& d : games[g].decisions) {
        all.add(g, d);
        stage[std::size_t(d.stage)].add(g, d);
        kind[std::size_t(d.kind)].add(g, d);
        situation[std::size_t(int(d.stage) * 4 + int(d.kind))].add(g, d);
        tile[std::size_t(d.tile)].add(g, d);
      }
  }
  // Situations with decisions, by held-out loss per game, largest first (ties: stage, kind).
  std::vector<int> costliest() const {
    std::vector<int> order;
    for (int i = 0; i < 12; ++i)
      if (situation[std::size_t(i)].decisions() > 0) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return per_game(situation[std::size_t(a)].held).mean > per_game(situation[std::size_t(b)].held).mean;
    });
    return order;
  }
};

struct At {
  const GameAnalysis* g;
  const DecisionAnalysis* d;
};

// Every decision, largest in-sample loss first (ties in the games' order).
std::vector<At> by_loss(const std::vector<GameAnalysis>& games) {
  std::vector<At> all;
  for (const auto& g : games)
    for (const auto& d : g.decisions) all.push_back({&g, &d});
  std::stable_sort(all.begin(), all.end(), [](const At& a, const At& b) { return a.d->loss > b.d->loss; });
  return all;
}

ojson move_json(int type, const Move& m) {
  ojson meeple = nullptr;
  if (m.seg != Move::kNoMeeple) meeple = segment_name(type, m.at.rot, m.seg);
  return {{"x", int(m.at.x)}, {"y", int(m.at.y)}, {"rot", int(m.at.rot)}, {"meeple", meeple}};
}


std::string ci_text(const Estimate& e, int places = 2) {
  if (!e.has_se) return fixed(e.mean, places);
  return fixed(e.mean, places) + " (" + fixed(e.mean - kZ95 * e.se, places) + " to " +
         fixed(e.mean + kZ95 * e.se, places) + ")";
}

std::string group_text(const Group& g) {
  return std::to_string(int(g.decisions())) + " decisions: per decision " + ci_text(per_decision(g.loss, g.n), 3) +
         ", held out " + ci_text(per_decision(g.held, g.n), 3) + "; per game held out " + ci_text(per_game(g.held));
}

}  // namespace

ojson aggregate_json(const std::vector<GameAnalysis>& games, int largest) {
  const Groups gr(games);
  ojson j;
  j["games"] = games.size();
  j["decisions"] = int(gr.all.decisions());
  j["units"] = "games";
  ojson all = group_json(gr.all);
  all.erase("decisions");
  for (auto it = all.begin(); it != all.end(); ++it) j[it.key()] = it.value();
  ojson stage = ojson::object(), kind = ojson::object(), tile = ojson::object();
  for (int s = 0; s < 3; ++s) stage[kStageNames[s]] = group_json(gr.stage[std::size_t(s)]);
  for (int k = 0; k < 4; ++k) kind[kKindNames[k]] = group_json(gr.kind[std::size_t(k)]);
  for (int t = 0; t < kTileTypes; ++t)
    if (gr.tile[std::size_t(t)].decisions() > 0) tile[std::string(tile_name(t))] = group_json(gr.tile[std::size_t(t)]);
  j["by_stage"] = stage;
  j["by_kind"] = kind;
  ojson situations = ojson::array();
  for (int i : gr.costliest()) {
    ojson s = {{"stage", kStageNames[i / 4]}, {"kind", kKindNames[i % 4]}};
    const ojson stats = group_json(gr.situation[std::size_t(i)]);
    for (auto it = stats.begin(); it != stats.end(); ++it) s[it.key()] = it.value();
    situations.push_back(s);
  }
  j["situations"] = situations;
  j["by_tile"] = tile;
  ojson top = ojson::array();
  const auto ranked = by_loss(games);
  for (int i = 0; i < largest && i < int(ranked.size()); ++i) {
    const auto& [g, d] = ranked[std::size_t(i)];
    top.push_back({{"index", g->index},
                   {"seed", g->seed},
                   {"game", g->game},
                   {"turn", d->turn},
                   {"decision", d->index},
                   {"color", d->color},
                   {"tile", std::string(tile_name(d->tile))},
                   {"stage", kStageNames[int(d->stage)]},
                   {"kind", kKindNames[int(d->kind)]},
                   {"loss", d->loss},
                   {"loss_stderr", d->loss_stderr},
                   {"heldout", d->heldout},
                   {"heldout_stderr", d->heldout_stderr},
                   {"own_loss", d->own_loss},
                   {"played_rank", d->moves[std::size_t(d->played)].rank},
                   {"moves", d->moves.size()},
                   {"played_move", move_json(d->tile, d->moves[std::size_t(d->played)].move)},
                   {"best_move", move_json(d->tile, d->moves[std::size_t(d->best)].move)}});
  }
  j["largest"] = top;
  return j;
}

std::string aggregate_summary(const std::vector<GameAnalysis>& games, int largest) {
  const Groups gr(games);
  std::ostringstream o;
  o << "over " << games.size() << " games (a game's sums are the units: means over games, 95% CIs from their spread):\n";
  o << "  loss per game " << ci_text(per_game(gr.all.loss)) << ", held out " << ci_text(per_game(gr.all.held)) << "\n";
  o << "  loss per decision " << ci_text(per_decision(gr.all.loss, gr.all.n), 3) << ", held out "
    << ci_text(per_decision(gr.all.held, gr.all.n), 3) << "\n";
  o << "  against the analysing player's own moves: per game " << ci_text(per_game(gr.all.own)) << ", per decision "
    << ci_text(per_decision(gr.all.own, gr.all.n), 3) << " (how much better it would have done; no selection bias)\n";
  o << "by stage:\n";
  for (int s = 0; s < 3; ++s) o << "  " << kStageNames[s] << ": " << group_text(gr.stage[std::size_t(s)]) << "\n";
  o << "by meeple:\n";
  for (int k = 0; k < 4; ++k) o << "  " << kKindNames[k] << ": " << group_text(gr.kind[std::size_t(k)]) << "\n";
  o << "costliest situations (stage, meeple; by held-out loss per game):\n";
  const auto order = gr.costliest();
  for (std::size_t i = 0; i < order.size() && i < 5; ++i)
    o << "  " << kStageNames[order[i] / 4] << ", " << kKindNames[order[i] % 4] << ": "
      << group_text(gr.situation[std::size_t(order[i])]) << "\n";
  const auto ranked = by_loss(games);
  o << "largest losses (game index, turn):";
  for (int i = 0; i < largest && i < int(ranked.size()); ++i) {
    const auto& [g, d] = ranked[std::size_t(i)];
    o << (i ? ", " : " ") << "#" << g->index << " turn " << d->turn << " " << fixed(d->loss) << " (held out "
      << fixed(d->heldout) << ")";
  }
  o << "\n";
  return o.str();
}

std::vector<GameAnalysis> analyse_played_games(const RunConfig& rc, const AnalysisOptions& opt,
                                               std::vector<nlohmann::json>* logs) {
  const int n = int(rc.games);
  std::vector<GameAnalysis> out(static_cast<std::size_t>(n));
  std::vector<char> done(static_cast<std::size_t>(n), 0);
  if (logs) logs->assign(std::size_t(n), nlohmann::json());
  AnalysisOptions one = opt;
  one.threads = 1;  // the games are the parallel units
  const int threads = std::max(1, std::min(opt.threads, n));
  FirstError errors;
#pragma omp parallel num_threads(threads)
  {
    std::unique_ptr<PlacementPolicy> placement;
    std::unique_ptr<ScoringPolicy> scoring;
    try {
      placement = make_placement_policy(rc.placement_policy, rc.context);
      scoring = make_scoring_policy(rc.scoring_policy);
    } catch (...) {
      errors.capture();
    }
#pragma omp for schedule(dynamic, 1)
    for (int i = 0; i < n; ++i) {
      if (errors.failed() || opt.stopped()) continue;
      try {
        const std::uint64_t game = rc.first_game + std::uint64_t(i);
        const GameSpec spec{rc.game_config(), rc.seed, game, nullptr};
        nlohmann::json log = play_logged_game(spec, *placement, *scoring, rc.placement_policy, rc.scoring_policy);
        out[std::size_t(i)] = analyse_game(log, game, one);
        done[std::size_t(i)] = out[std::size_t(i)].complete;
        if (logs) (*logs)[std::size_t(i)] = std::move(log);
      } catch (...) {
        errors.capture();
      }
    }
  }
  errors.rethrow_if_failed();
  // Stopped: the games before the first one not finished, an exact range.
  const auto kept = std::size_t(std::find(done.begin(), done.end(), 0) - done.begin());
  out.resize(kept);
  if (logs) logs->resize(kept);
  return out;
}

}  // namespace carc::sim
