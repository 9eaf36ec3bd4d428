// The heuristic's parameters: registry entries, their defaults, and reading them.
#include <algorithm>

#include "policies/heuristic/heuristic.hpp"

namespace carc {

std::vector<ParamInfo> HeuristicWeights::params() {
  const HeuristicWeights d;
  return {
      {"low", d.low, "weight of the lowest expected score"},
      {"mean", d.mean, "weight of the mean expected score"},
      {"meeple", d.meeple, "value of a meeple in supply (and of an expected return)"},
      {"empty", d.empty, "penalty per colour whose supply is empty"},
      {"balance", d.balance, "score gap at which a majority colour's award weight falls by e"},
      {"one", d.one, "penalty per colour with exactly one meeple in supply"},
      {"urgent", d.urgent, "extra penalty when the next colour to move has an empty supply"},
      {"absorb", d.absorb, "value of the share of unseen tiles that could be placed with no free segment next turn"},
      {"absorb_empty", d.absorb_empty, "extra share of `absorb` when the next colour's supply is empty"},
      {"sink", d.sink, "bonus per open road/city edge of a feature with meeples"},
      {"compact", d.compact, "bonus per tile among the 8 cells around the placed tile"},
      {"share", d.share, "extra weight of a feature's points per additional majority colour"},
      {"horizon", d.horizon, "draws within which a meeple's return counts"},
      {"points_horizon", d.points_horizon, "draws within which a feature's points count"},
      {"road_q", d.road_q, "discount per open end of a road"},
      {"city_q", d.city_q, "discount per open edge of a city"},
      {"monastery_q", d.monastery_q, "discount per empty cell around a monastery"},
      // The expansions' weights: left out of a spec while they have their defaults (added_later).
      {"inn", d.inn, "expected points per tile of an unfinished inn road (completed: the rules' 2)", false, true},
      {"cathedral", d.cathedral,
       "expected points per tile and pennant of an unfinished cathedral city (completed: the rules' 3)", false, true},
      {"large_merge", d.large_merge,
       "share of a facing feature's joined points whose majority the large meeple's weight decides", false, true},
      {"large_monastery", d.large_monastery,
       "value of the large meeple on a monastery, where its weight can never decide a majority", false, true},
  };
}

HeuristicWeights HeuristicWeights::from(const Params& p) {
  HeuristicWeights w;
  w.low = p.get("low");
  w.mean = p.get("mean");
  w.meeple = p.get("meeple");
  w.empty = p.get("empty");
  w.balance = std::max(1e-6, p.get("balance"));
  w.share = p.get("share");
  w.compact = p.get("compact");
  w.one = p.get("one");
  w.sink = p.get("sink");
  w.absorb = p.get("absorb");
  w.absorb_empty = p.get("absorb_empty");
  w.urgent = p.get("urgent");
  w.horizon = std::max(0.0, p.get("horizon"));
  w.points_horizon = std::max(0.0, p.get("points_horizon"));
  w.road_q = std::clamp(p.get("road_q"), 0.0, 1.0);
  w.city_q = std::clamp(p.get("city_q"), 0.0, 1.0);
  w.monastery_q = std::clamp(p.get("monastery_q"), 0.0, 1.0);
  w.inn = p.get("inn");
  w.cathedral = p.get("cathedral");
  w.large_merge = p.get("large_merge");
  w.large_monastery = p.get("large_monastery");
  return w;
}

}  // namespace carc
