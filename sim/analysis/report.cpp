// The analysis document (docs/analysis-format.md) and the text summary of its games.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/analysis/analysis.hpp"
#include "sim/analysis/numbers.hpp"
#include "sim/analysis/search_analysis.hpp"

namespace carc::sim {
namespace {

using ojson = nlohmann::ordered_json;


ojson move_json(int type, const MoveEstimate& e) {
  ojson meeple = nullptr;
  if (e.move.seg != Move::kNoMeeple) meeple = segment_name(type, e.move.at.rot, e.move.seg);
  return {{"x", int(e.move.at.x)}, {"y", int(e.move.at.y)}, {"rot", int(e.move.at.rot)},
          {"meeple", meeple}, {"mean", e.mean}, {"stderr", e.std_error}, {"rank", e.rank}};
}

ojson ci_json(double mean, double se) { return ojson::array({mean - kZ95 * se, mean + kZ95 * se}); }

ojson decision_json(const DecisionAnalysis& d) {
  ojson moves = ojson::array();
  for (const auto& m : d.moves) moves.push_back(move_json(d.tile, m));
  return {{"turn", d.turn},
          {"color", d.color},
          {"tile", std::string(tile_name(d.tile))},
          {"index", d.index},
          {"stage", kStageNames[int(d.stage)]},
          {"kind", kKindNames[int(d.kind)]},
          {"moves", moves},
          {"played", d.played},
          {"best", d.best},
          {"played_rank", d.moves[std::size_t(d.played)].rank},
          {"loss", d.loss},
          {"loss_stderr", d.loss_stderr},
          {"loss_ci95", ci_json(d.loss, d.loss_stderr)},
          {"heldout_best", d.heldout_best},
          {"heldout", d.heldout},
          {"heldout_stderr", d.heldout_stderr},
          {"heldout_ci95", ci_json(d.heldout, d.heldout_stderr)},
          {"own", d.own},
          {"own_loss", d.own_loss},
          {"own_loss_stderr", d.own_loss_stderr}};
}

// Loss summed by stage and by kind over some decisions.
struct Breakdown {
  double stage_loss[3] = {}, kind_loss[4] = {}, stage_held[3] = {}, kind_held[4] = {};
  int stage_n[3] = {}, kind_n[4] = {};
  double loss = 0, var = 0, held = 0, held_var = 0, own = 0, own_var = 0;
  int n = 0;
  void add(const DecisionAnalysis& d) {
    stage_loss[int(d.stage)] += d.loss;
    ++stage_n[int(d.stage)];
    kind_loss[int(d.kind)] += d.loss;
    ++kind_n[int(d.kind)];
    stage_held[int(d.stage)] += d.heldout;
    kind_held[int(d.kind)] += d.heldout;
    loss += d.loss;
    var += d.loss_stderr * d.loss_stderr;
    held += d.heldout;
    held_var += d.heldout_stderr * d.heldout_stderr;
    own += d.own_loss;
    own_var += d.own_loss_stderr * d.own_loss_stderr;
    ++n;
  }
  void add_to(ojson& j) const {
    j["decisions"] = n;
    j["loss"] = loss;
    j["loss_stderr"] = std::sqrt(var);
    j["loss_ci95"] = ci_json(loss, std::sqrt(var));
    j["heldout"] = held;
    j["heldout_stderr"] = std::sqrt(held_var);
    j["heldout_ci95"] = ci_json(held, std::sqrt(held_var));
    j["own_loss"] = own;
    j["own_loss_stderr"] = std::sqrt(own_var);
    ojson by_stage = ojson::object(), by_kind = ojson::object();
    for (int s = 0; s < 3; ++s)
      by_stage[kStageNames[s]] = {{"decisions", stage_n[s]}, {"loss", stage_loss[s]}, {"heldout", stage_held[s]}};
    for (int k = 0; k < 4; ++k)
      by_kind[kKindNames[k]] = {{"decisions", kind_n[k]}, {"loss", kind_loss[k]}, {"heldout", kind_held[k]}};
    j["loss_by_stage"] = by_stage;
    j["loss_by_kind"] = by_kind;
  }
};


std::string move_text(int type, const Move& m) {
  std::string t = "(" + std::to_string(int(m.at.x)) + "," + std::to_string(int(m.at.y)) + ") rot " +
                  std::to_string(int(m.at.rot));
  return t + " " + (m.seg == Move::kNoMeeple ? std::string("no meeple") : segment_name(type, m.at.rot, m.seg));
}

}  // namespace

nlohmann::ordered_json analysis_json(const std::vector<GameAnalysis>& games, const AnalysisOptions& opt,
                                     const std::string& player_spec) {
  ojson doc;
  doc["format"] = "carcassonne-solo-analysis/1";
  const bool by_search = is_search_spec(player_spec);
  doc["config"] = {{"player", player_spec},
                   {"scoring", opt.scoring.empty() ? std::string("log") : opt.scoring},
                   {"valuation", by_search ? "search" : "rollouts"},
                   {"rollouts", by_search ? 0 : opt.rollouts},
                   {"candidates", by_search ? 0 : opt.candidates},
                   {"heldout", by_search ? opt.heldout : 0},
                   {"seed", opt.seed}};
  // Under an aim the values and losses are the aim's (a goal's chance, goals), not points.
  if (!opt.context.aim.is_score()) doc["config"]["aim"] = opt.context.aim.id();
  // The games' colours and meeples, which an analysis does not mix (null if it did).
  for (const char* key : {"colors", "meeples"}) {
    ojson v = nullptr;
    for (std::size_t i = 0; i < games.size(); ++i) {
      const int x = key[0] == 'c' ? games[i].colors : games[i].meeples;
      if (i == 0) v = x;
      else if (v != x) v = nullptr;
    }
    doc["config"][key] = v;
  }
  // The games' tile set (expansions.md), when any is not the base game: null if mixed.
  bool expansions = false;
  for (const auto& g : games) expansions |= g.tileset != "base" || g.large_meeple;
  if (expansions) {
    ojson set = games.front().tileset, large = games.front().large_meeple;
    for (const auto& g : games) {
      if (g.tileset != games.front().tileset) set = nullptr;
      if (g.large_meeple != games.front().large_meeple) large = nullptr;
    }
    doc["config"]["tileset"] = set;
    doc["config"]["large_meeple"] = large;
  }
  ojson list = ojson::array();
  Breakdown all;
  for (const auto& g : games) {
    Breakdown b;
    ojson decisions = ojson::array();
    for (const auto& d : g.decisions) {
      b.add(d);
      all.add(d);
      decisions.push_back(decision_json(d));
    }
    ojson j = {{"index", g.index},
               {"seed", g.seed},
               {"game", g.game},
               {"colors", g.colors},
               {"meeples", g.meeples},
               {"placement_policy", g.placement_policy},
               {"scoring_policy", g.scoring_policy},
               {"rollout_scoring", g.rollout_scoring},
               {"result", g.result}};
    b.add_to(j);
    j["analysis"] = decisions;
    list.push_back(j);
  }
  ojson total = {{"games", games.size()}};
  all.add_to(total);
  doc["total"] = total;
  doc["games"] = list;
  return doc;
}

std::string analysis_summary(const std::vector<GameAnalysis>& games, int largest, const Aim& aim) {
  Breakdown all;
  struct At {
    const GameAnalysis* g;
    const DecisionAnalysis* d;
  };
  std::vector<At> mistakes;
  for (const auto& g : games)
    for (const auto& d : g.decisions) {
      all.add(d);
      mistakes.push_back({&g, &d});
    }
  // Largest loss first; ties in the file's order (stable).
  std::stable_sort(mistakes.begin(), mistakes.end(),
                   [](const At& a, const At& b) { return a.d->loss > b.d->loss; });
  std::ostringstream o;
  const double se = std::sqrt(all.var);
  const std::string unit = aim.is_score() ? " points"
                           : aim.kind == Aim::Kind::goals ? " goals (aim goals)"
                                                          : " of " + aim.id() + "'s chance (aim " + aim.id() + ")";
  o << "expected loss: " << fixed(all.loss) << unit << " over " << all.n << " decisions of "
    << games.size() << (games.size() == 1 ? " game" : " games") << " (95% CI " << fixed(all.loss - kZ95 * se)
    << " to " << fixed(all.loss + kZ95 * se) << "), " << fixed(all.n ? all.loss / all.n : 0, 3)
    << " per decision\n";
  const double hse = std::sqrt(all.held_var);
  const bool by_search = !games.empty() && games.front().by_search;
  o << (by_search ? "held out (search's choice and the move played measured again on fresh re-deals; no selection bias): "
                  : "held out (picked on half the rollouts, measured on the other half; no selection bias): ")
    << fixed(all.held) << " (95% CI " << fixed(all.held - kZ95 * hse) << " to " << fixed(all.held + kZ95 * hse)
    << "), " << fixed(all.n ? all.held / all.n : 0, 3) << " per decision\n";
  // Moves chosen by these very rollouts (advice of `advise` with the same options): the
  // held-out half helped choose the move it measures, so the figure is biased below 0.
  int chosen = 0;
  for (const auto& g : games)
    for (const auto& d : g.decisions) chosen += d.played == d.best;
  if (!by_search && all.n > 0 && 10 * chosen >= 9 * all.n && all.held + kZ95 * hse < 0)
    o << "note: the move played is the rollouts' best in " << chosen << " of " << all.n
      << " decisions (played on this analysis' advice?): the held-out half then took part in choosing it, and "
         "the held-out loss is below 0 for that reason alone; analyse with another --seed (docs/analyse.md)\n";
  o << "largest mistakes:\n";
  for (int i = 0; i < largest && i < int(mistakes.size()); ++i) {
    const auto& [g, d] = mistakes[std::size_t(i)];
    if (d->loss <= 0) break;
    o << "  ";
    if (games.size() > 1) o << "game #" << g->index << " ";
    o << "turn " << d->turn << " (colour " << d->color << ", tile " << tile_name(d->tile) << ", "
      << kStageNames[int(d->stage)] << "): loss " << fixed(d->loss) << " (95% CI "
      << fixed(d->loss - kZ95 * d->loss_stderr) << " to " << fixed(d->loss + kZ95 * d->loss_stderr)
      << "); played " << move_text(d->tile, d->moves[std::size_t(d->played)].move) << " (rank "
      << d->moves[std::size_t(d->played)].rank + 1 << " of " << d->moves.size() << "), best "
      << move_text(d->tile, d->moves[std::size_t(d->best)].move) << "\n";
  }
  o << "loss by stage (decisions, held out):";
  for (int s = 0; s < 3; ++s)
    o << "  " << kStageNames[s] << " " << fixed(all.stage_loss[s]) << " (" << all.stage_n[s] << ", "
      << fixed(all.stage_held[s]) << ")";
  o << "\nloss by meeple (decisions, held out):";
  for (int k = 0; k < 4; ++k)
    o << "  " << kKindNames[k] << " " << fixed(all.kind_loss[k]) << " (" << all.kind_n[k] << ", "
      << fixed(all.kind_held[k]) << ")";
  o << "\n";
  return o.str();
}

}  // namespace carc::sim
