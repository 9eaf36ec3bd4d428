// Playing for an aim (core/goals.hpp: Aim; docs/aim.md): the chance of a goal, or the
// number of goals, read off a position that has not reached them yet, and a move's
// heuristic value with the change it makes to that chance.
//
// A goal that is an event on a feature (road_10.., city_16.., road_5_3c, city_8_10_3c) is
// judged feature by feature: each unfinished road or city holding figures has a chance of
// becoming the goal, the product of
//   - its colours: the colours tied at its majority against the colours the goal needs
//     (each one missing, which only a merge with another colour's feature can bring,
//     multiplies by kColourStep), and a majority colour that is lowest (or not);
//   - its size: the least it can be worth once finished (every open road end takes a
//     tile, every two open city edges at least one), which must not pass the goal's upper
//     bound (road_5_3c, city_8_10_3c: it only grows) and is short of the lower bound by
//     some points (each kGrowthScale points a factor e);
//   - its finishing: q per open edge (roads 0.8, cities 0.7).
// Two such features of one kind facing each other across an empty cell add their merged
// feature's chance times 0.4 (three colours share a road only when roads join). The
// goal's chance is the sum, at most 1. A finished feature is the goal or not, exactly as
// the rules score it.
// monastery_3 and monastery_4: the chance that the monasteries scored, the unfinished
// ones holding a meeple (each finishes with 0.88 per empty cell around it, times 0.75
// when its colour is not the lowest) and the unseen monastery tiles (each 0.15) reach
// the count, by convolution.
// total_40/50/60: a logistic of the heuristic's value (an estimate of the result) about
// the threshold, scale 8 points: a move with a fatter upper tail can be worth more than
// one with a higher mean. all_tiles: the same about 45, scale 10 (a game that lasts to the
// last tile is one that keeps its meeples, which is what the score's value measures).
//
// A goal still to come needs the game to last: each colour with one figure left multiplies
// its chance by 0.6, with none by 0.25 (its next tile with a free segment ends the game).
// A finished game is valued exactly: Aim::outcome.
#pragma once
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "core/goals.hpp"
#include "core/state.hpp"
#include "policies/heuristic/heuristic.hpp"

namespace carc {

// How much one goal's chance weighs against the heuristic's points when a rollout or the
// root ranks moves under an aim (AimedEvaluator), and how much a point of the heuristic's
// value weighs beside the aim's value at a rollout's end (it breaks ties, and it keeps the
// meeple economy in view: without the survival factor, at 0.002, aimed search starved
// itself of meeples; 0.01 reached road_5_3c in 7 of 60 games where 0.03 did in 2, at
// seed 31; docs/aim.md).
inline constexpr double kAimPoints = 20;
inline constexpr double kAimTieBreak = 0.01;
// Under `goals` the 14 goals share the points (each goal's chance weighs kGoalsShare of
// kAimPoints) and the heuristic's value breaks ties more: the sum of 14 chances played
// with the single goal's weights gave up 13 points of the result and reached fewer goals
// than score play (60-game paired runs at seed 31: 5.5 against 5.7 goals per game; 7.3
// with these).
inline constexpr double kGoalsShare = 0.1;
inline constexpr double kGoalsTieBreak = 0.2;

// The weights of an aim: points per unit of chance in the aimed evaluation, and the
// heuristic's weight per point beside the aim's value at a rollout's end.
double aim_points(const Aim& aim);
double aim_tie_break(const Aim& aim);

// The aim's value of a position whose game is not over: the goals reached count 1 each,
// the others their chance as above. `h`: the heuristic's value of the move that led here
// (total_*, all_tiles). Under `score`: h.
double aim_value(const State& s, const Aim& aim, double h);

// The chance that goal `g` will be reached from `s`, as above (1 when it was).
double goal_chance(const State& s, Goal g, double h);

// The heuristic's evaluation with the aim's change added: a move's value is the
// heuristic's plus kAimPoints times the change it makes to the aim's chances (of the
// features it joins, extends, finishes or puts a meeple on, and the monasteries around).
// Under `score` it is the heuristic's evaluation itself.
class AimedEvaluator {
 public:
  AimedEvaluator(const HeuristicWeights& w, const Aim& aim);
  ~AimedEvaluator();
  AimedEvaluator(const AimedEvaluator&) = delete;
  AimedEvaluator& operator=(const AimedEvaluator&) = delete;
  const Aim& aim() const { return aim_; }
  HeuristicEvaluator& heuristic() { return heuristic_; }
  // As HeuristicEvaluator::evaluate, with the aim's term.
  int evaluate(const State& s, int type, std::span<const Placement> legal, ScoredMove* out, Rng& rng);
  // The aim's term in the value of move i of the last evaluate() (0 under `score`).
  double aim_term(int i) const { return terms_live_ ? terms_[std::size_t(i)] : 0.0; }

 private:
  struct Scratch;
  HeuristicEvaluator heuristic_;
  Aim aim_;
  bool terms_live_ = false;
  std::vector<double> terms_;
  std::unique_ptr<Scratch> scratch_;
};

}  // namespace carc
