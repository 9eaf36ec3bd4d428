#include "policies/aim.hpp"

#include <algorithm>
#include <cmath>

#include "policies/placement_analysis.hpp"

namespace carc {
namespace {

// The goals that are an event on one road or city (rules.md, "Goals").
struct FeatureGoal {
  Goal goal;
  SegKind kind;
  int colors, lo, hi;  // colours awarded at once; points in [lo, hi]
};
inline constexpr int kNoBound = 1 << 20;
inline constexpr std::array<FeatureGoal, 8> kFeatureGoals = {{
    {Goal::road_10, SegKind::road, 1, 10, kNoBound},
    {Goal::road_10_2c, SegKind::road, 2, 10, kNoBound},
    {Goal::road_10_3c, SegKind::road, 3, 10, kNoBound},
    {Goal::road_5_3c, SegKind::road, 3, 5, 5},
    {Goal::city_16, SegKind::city, 1, 16, kNoBound},
    {Goal::city_16_2c, SegKind::city, 2, 16, kNoBound},
    {Goal::city_16_3c, SegKind::city, 3, 16, kNoBound},
    {Goal::city_8_10_3c, SegKind::city, 3, 8, 10},
}};

// The model's constants (docs/aim.md).
inline constexpr double kColourStep = 0.3;     // per colour the majority still lacks
inline constexpr double kNotLowest = 0.7;      // no majority colour is the lowest now
inline constexpr double kRoadGrowth = 3, kCityGrowth = 6;  // points short of the bound, per factor e
inline constexpr double kRoadQ = 0.8, kCityQ = 0.7;         // per open edge
inline constexpr double kMonasteryQ = 0.88;    // per empty cell around
inline constexpr double kMonasteryNotLowest = 0.75;
inline constexpr double kFutureMonastery = 0.15;  // per unseen monastery tile
inline constexpr double kMergeChance = 0.4;  // two features facing across an empty cell join

// Goal g's index in kFeatureGoals (its size: not a feature goal), and its entry (null).
std::size_t feature_goal_index(Goal g) {
  for (std::size_t k = 0; k < kFeatureGoals.size(); ++k)
    if (kFeatureGoals[k].goal == g) return k;
  return kFeatureGoals.size();
}

const FeatureGoal* feature_goal(Goal g) {
  const std::size_t k = feature_goal_index(g);
  return k < kFeatureGoals.size() ? &kFeatureGoals[k] : nullptr;
}

bool is_monastery_goal(Goal g) { return g == Goal::monastery_3 || g == Goal::monastery_4; }
int monasteries_needed(Goal g) { return g == Goal::monastery_3 ? 3 : 4; }

double logistic(double x) { return 1 / (1 + std::exp(-x)); }

// A road or city as it stands (or would stand after a move): what its chance is read from.
struct FeatureView {
  SegKind kind;
  int tiles, pennants, open;
  std::uint8_t marks;
  const std::uint8_t* weights;  // per colour
};

// What a feature's chance is read from, the same for every goal: its majority, its points
// and the least it can be worth once finished.
struct FeatureFacts {
  SegKind kind;
  int most, tied, points, least, open;
  bool low;
};

FeatureFacts facts_of(const FeatureView& f, const State& s, int lowest) {
  FeatureFacts x{f.kind, 0, 0, 0, 0, f.open, false};
  for (int c = 0; c < s.colors(); ++c) x.most = std::max<int>(x.most, f.weights[c]);
  if (x.most == 0) return x;
  for (int c = 0; c < s.colors(); ++c)
    if (f.weights[c] == x.most) {
      ++x.tied;
      x.low |= s.score(c) == lowest;
    }
  x.points = feature_points(f.kind, f.tiles, f.pennants, f.marks);
  const int per_tile = feature_points(f.kind, f.tiles + 1, f.pennants, f.marks) - x.points;
  x.least = x.points + per_tile * (f.kind == SegKind::road ? f.open : (f.open + 1) / 2);
  return x;
}

FeatureFacts facts_of(const FeatureView& f, const State& s) { return facts_of(f, s, s.lowest_score()); }

// The model's powers, read from tables (the values std::pow and std::exp give): q^k for
// the open edges of roads and cities, e^(-k / growth) for the points short, kColourStep^k
// for the colours missing, kMonasteryQ^k for a monastery's empty cells.
struct Powers {
  std::array<std::array<double, 256>, 2> open, short_by;
  std::array<double, kMaxColors + 1> colour;
  std::array<double, 9> monastery;
};
const Powers kPowers = [] {
  Powers t{};
  for (int k = 0; k < 256; ++k) {
    t.open[0][std::size_t(k)] = std::pow(kRoadQ, k);
    t.open[1][std::size_t(k)] = std::pow(kCityQ, k);
    t.short_by[0][std::size_t(k)] = std::exp(-k / kRoadGrowth);
    t.short_by[1][std::size_t(k)] = std::exp(-k / kCityGrowth);
  }
  for (int k = 0; k <= kMaxColors; ++k) t.colour[std::size_t(k)] = std::pow(kColourStep, k);
  for (int k = 0; k <= 8; ++k) t.monastery[std::size_t(k)] = std::pow(kMonasteryQ, k);
  return t;
}();

// The chance that the feature becomes goal `fg` (exact when it is finished).
double feature_chance(const FeatureGoal& fg, const FeatureFacts& x) {
  if (x.kind != fg.kind || x.most == 0) return 0;
  if (x.open == 0) return x.tied >= fg.colors && x.low && x.points >= fg.lo && x.points <= fg.hi ? 1 : 0;
  if (x.least > fg.hi) return 0;
  const std::size_t kind = x.kind == SegKind::road ? 0 : 1;
  double p = x.least >= fg.lo ? 1 : kPowers.short_by[kind][std::size_t(std::min(fg.lo - x.least, 255))];
  if (x.tied < fg.colors) p *= kPowers.colour[std::size_t(fg.colors - x.tied)];
  if (!x.low) p *= kNotLowest;
  return p * kPowers.open[kind][std::size_t(std::min(x.open, 255))];
}

FeatureView board_view(const State& s, int root) {
  const Feature& f = s.feature(root);
  return {f.kind, f.tiles, f.pennants, f.open, s.feature_marks(root), f.meeples.data()};
}

// A board monastery's chance to finish and score: `open` empty cells around, its figures'
// colour.
double monastery_chance(const State& s, int open, const std::uint8_t* weights) {
  if (open == 0) {  // finished now: scored when its colour is the lowest
    for (int c = 0; c < s.colors(); ++c)
      if (weights[c] > 0) return s.score(c) == s.lowest_score() ? 1 : 0;
    return 0;
  }
  double p = kPowers.monastery[std::size_t(std::min(open, 8))];
  for (int c = 0; c < s.colors(); ++c)
    if (weights[c] > 0 && s.score(c) != s.lowest_score()) p *= kMonasteryNotLowest;
  return p;
}

int unseen_monasteries(const State& s) {
  int n = 0;
  for (int t = 0; t < s.type_end(); ++t)
    if (kMonasterySeg[t] >= 0) n += s.unseen(t);
  return n;
}

// P(scored + sum of Bernoulli(p_i) + Binomial(future, kFutureMonastery) >= need).
double monastery_count_chance(int scored, int need, std::span<const double> p, int future) {
  const int want = need - scored;
  if (want <= 0) return 1;
  std::array<double, 8> dist{};  // dist[k]: k more so far, k = want meaning "enough"
  dist[0] = 1;
  const auto add = [&](double q) {
    for (int k = want; k >= 0; --k) {
      const double here = dist[std::size_t(k)];
      if (k == want) continue;  // enough stays enough
      dist[std::size_t(k)] = here * (1 - q);
      dist[std::size_t(k + 1)] += here * q;
    }
  };
  for (const double q : p) add(q);
  for (int i = 0; i < std::min(future, 16); ++i) add(kFutureMonastery);
  return dist[std::size_t(want)];
}

// The unfinished monasteries holding a figure: root and chance.
struct MonasteryChances {
  int n = 0;
  std::array<std::uint16_t, kMaxMonasteries> root{};
  std::array<double, kMaxMonasteries + 1> p{};  // one spare for a move's new monastery
  void load(const State& s) {
    n = 0;
    for (const std::uint16_t r : s.unfinished_monasteries()) {
      const Feature& f = s.feature(r);
      if (f.meeple_total == 0) continue;
      root[std::size_t(n)] = r;
      p[std::size_t(n++)] = monastery_chance(s, f.open, f.meeples.data());
    }
  }
};

// The feature goals' sums over a position, for the goals `which` (bit g: goal g): each
// unfinished road or city holding figures adds its chance (`single`), and two such
// features of the same kind that face each other across an empty cell add their merged
// feature's chance times kMergeChance (`merged`): a tile there joins them into one feature
// with both colours' figures, both sizes and one tile more, and the open edges of both less
// the two closed. The goals of several colours are made so (a colour can put a meeple only
// on a free segment), which no feature alone shows. Each feature's facts are read once.
void feature_sums(const State& s, GoalMask which, std::array<double, kFeatureGoals.size()>& single,
                  std::array<double, kFeatureGoals.size()>& merged) {
  single.fill(0);
  merged.fill(0);
  const auto add = [&](const FeatureFacts& x, std::array<double, kFeatureGoals.size()>& to, double weight) {
    for (std::size_t k = 0; k < kFeatureGoals.size(); ++k)
      if ((which & goal_bit(kFeatureGoals[k].goal)) && kFeatureGoals[k].kind == x.kind)
        to[k] += weight * feature_chance(kFeatureGoals[k], x);
  };
  for (int i = 0; i < s.tiles_on_board(); ++i) {
    const TileDef& def = kTiles[s.tile(i).type];
    for (int sg = 0; sg < def.nseg; ++sg) {
      const int root = s.feature_of(i, sg);
      if (root != i * kMaxSegs + sg || def.segs[sg].kind == SegKind::monastery) continue;
      const Feature& f = s.feature(root);
      if (f.open == 0 || f.meeple_total == 0) continue;
      add(facts_of(board_view(s, root), s), single, 1.0);
    }
  }
  for (int j = 0; j < s.open_count(); ++j) {
    const OpenCell& oc = s.open_cell(j);
    std::array<int, 4> roots{};
    int n = 0;
    for (int d = 0; d < 4; ++d) {
      const int v = s.tile_near(step(oc.cell, d));
      if (v < 0) continue;
      const PlacedTile& t = s.tile(v);
      const int sg = kOriented[t.type][t.rot].seg[opposite(d)];
      if (sg < 0 || kTiles[t.type].segs[sg].kind == SegKind::monastery) continue;
      const int root = s.feature_of(v, sg);
      const Feature& f = s.feature(root);
      if (f.meeple_total == 0 || f.open == 0) continue;
      bool seen = false;
      for (int k = 0; k < n; ++k) seen |= roots[std::size_t(k)] == root;
      if (!seen) roots[std::size_t(n++)] = root;
    }
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        const Feature& x = s.feature(roots[std::size_t(a)]);
        const Feature& y = s.feature(roots[std::size_t(b)]);
        if (x.kind != y.kind) continue;
        std::array<std::uint8_t, kMaxColors> w{};
        for (int c = 0; c < s.colors(); ++c) w[std::size_t(c)] = std::uint8_t(x.meeples[std::size_t(c)] + y.meeples[std::size_t(c)]);
        const FeatureView joined{x.kind, x.tiles + y.tiles + 1, x.pennants + y.pennants, std::max(0, x.open + y.open - 2),
                                 std::uint8_t(s.feature_marks(roots[std::size_t(a)]) | s.feature_marks(roots[std::size_t(b)])),
                                 w.data()};
        add(facts_of(joined, s), merged, kMergeChance);
      }
  }
}

// Goal g's chance; a feature goal's from its sums (feature_sums over the goals asked).
double goal_chance_with(const State& s, Goal g, double h, const MonasteryChances& mon, double alive,
                        const std::array<double, kFeatureGoals.size()>& single,
                        const std::array<double, kFeatureGoals.size()>& merged) {
  if (s.goals() & goal_bit(g)) return 1;
  if (const std::size_t k = feature_goal_index(g); k < kFeatureGoals.size())
    return alive * std::min(1.0, single[k] + merged[k]);
  if (is_monastery_goal(g))
    return alive * monastery_count_chance(s.monasteries_scored(), monasteries_needed(g),
                                          {mon.p.data(), std::size_t(mon.n)}, unseen_monasteries(s));
  if (g == Goal::total_40) return logistic((h - 40) / 8);
  if (g == Goal::total_50) return logistic((h - 50) / 8);
  if (g == Goal::total_60) return logistic((h - 60) / 8);
  return logistic((h - 45) / 10);  // all_tiles
}

inline constexpr double kSurviveOne = 0.6, kSurviveNone = 0.25;

// The chance the game lasts for a goal still to come: each colour with one figure left
// multiplies by kSurviveOne, with none by kSurviveNone (its next tile with a free segment
// ends the game).
double survival(const State& s) {
  double p = 1;
  for (int c = 0; c < s.colors(); ++c) {
    const int f = s.figures(c);
    if (f == 0) p *= kSurviveNone;
    else if (f == 1) p *= kSurviveOne;
  }
  return p;
}

}  // namespace

double aim_points(const Aim& aim) { return aim.kind == Aim::Kind::goals ? kGoalsShare * kAimPoints : kAimPoints; }
double aim_tie_break(const Aim& aim) { return aim.kind == Aim::Kind::goals ? kGoalsTieBreak : kAimTieBreak; }

double goal_chance(const State& s, Goal g, double h) {
  MonasteryChances mon;
  if (is_monastery_goal(g)) mon.load(s);
  std::array<double, kFeatureGoals.size()> single{}, merged{};
  if (feature_goal(g) && !(s.goals() & goal_bit(g))) feature_sums(s, goal_bit(g), single, merged);
  return goal_chance_with(s, g, h, mon, survival(s), single, merged);
}

double aim_value(const State& s, const Aim& aim, double h) {
  if (aim.is_score()) return h;
  if (aim.kind == Aim::Kind::goal) return goal_chance(s, aim.goal, h);
  MonasteryChances mon;
  mon.load(s);
  double v = 0;
  const double alive = survival(s);
  std::array<double, kFeatureGoals.size()> single{}, merged{};
  feature_sums(s, GoalMask(~s.goals()), single, merged);
  for (int g = 0; g < kGoalCount; ++g) v += goal_chance_with(s, static_cast<Goal>(g), h, mon, alive, single, merged);
  return v;
}

// Per decision: the aim's feature goals still open, the monasteries' chances before the
// move, and the placement last analysed.
struct AimedEvaluator::Scratch {
  std::array<const FeatureGoal*, kFeatureGoals.size()> goals{};
  int n_goals = 0;
  std::array<int, 2> monastery_need{};  // monastery goals still open
  int n_monastery = 0;
  MonasteryChances mon;
  int future = 0;
  std::array<double, 2> mon_before{};
  CellNeighbours nb;
  PlacementEffect e;
  Placement at{kNoCell, 0, 0, 0};
  double base = 0;  // the placement's change without the meeple
  int lowest = 0;   // the lowest score of the position
  std::array<std::array<double, kMaxSegs>, kFeatureGoals.size()> joined{};  // per goal, per feature: chance after

  void begin(const State& s, const Aim& aim) {
    lowest = s.lowest_score();
    n_goals = 0;
    n_monastery = 0;
    for (int g = 0; g < kGoalCount; ++g) {
      const Goal goal = static_cast<Goal>(g);
      if (!aim.counts(goal) || (s.goals() & goal_bit(goal))) continue;
      if (const FeatureGoal* fg = feature_goal(goal)) goals[std::size_t(n_goals++)] = fg;
      if (is_monastery_goal(goal)) monastery_need[std::size_t(n_monastery++)] = monasteries_needed(goal);
    }
    at.cell = kNoCell;
    nb.cell = -1;  // another State: the cells around are read again
    if (n_monastery == 0) return;
    mon.load(s);
    future = unseen_monasteries(s);
    for (int k = 0; k < n_monastery; ++k)
      mon_before[std::size_t(k)] = monastery_count_chance(s.monasteries_scored(), monastery_need[std::size_t(k)],
                                                          {mon.p.data(), std::size_t(mon.n)}, future);
  }

  // The feature goals' change of a placement without its meeple; the chances after, per
  // joined feature, kept for the meeple's variants.
  void analyse(const State& s, int type, const Placement& p) {
    if (p.cell != nb.cell) nb.load(s, p);
    analyse_placement(s, type, p, nb, e);
    at = p;
    base = 0;
    if (n_goals == 0) return;
    // Each feature's facts once: after the placement, and of the board features it joins.
    // Not zeroed (this runs per placement): an entry is read only where it was written.
    std::array<FeatureFacts, kMaxSegs> after;
    std::array<std::array<FeatureFacts, 4>, kMaxSegs> before;
    for (int i = 0; i < e.n_feats; ++i) {
      const JoinedFeature& j = e.feats[std::size_t(i)];
      if (j.kind == SegKind::monastery) continue;
      after[std::size_t(i)] = facts_of({j.kind, j.tiles, j.pennants, j.open, j.marks, j.meeples.data()}, s, lowest);
      for (int r = 0; r < j.n_roots; ++r) {
        const int root = j.roots[std::size_t(r)];
        before[std::size_t(i)][std::size_t(r)] =
            s.feature(root).meeple_total > 0 ? facts_of(board_view(s, root), s, lowest) : FeatureFacts{j.kind, 0, 0, 0, 0, 0, false};
      }
    }
    for (int k = 0; k < n_goals; ++k) {
      const FeatureGoal& fg = *goals[std::size_t(k)];
      for (int i = 0; i < e.n_feats; ++i) {
        const JoinedFeature& j = e.feats[std::size_t(i)];
        if (j.kind != fg.kind) continue;
        const double a = feature_chance(fg, after[std::size_t(i)]);
        joined[std::size_t(k)][std::size_t(i)] = a;
        base += a;
        for (int r = 0; r < j.n_roots; ++r)
          if (s.feature(j.roots[std::size_t(r)]).meeple_total > 0) base -= feature_chance(fg, before[std::size_t(i)][std::size_t(r)]);
      }
    }
  }

  // The aim's change of placing the tile at `at` with the meeple on `seg` (weight `w`,
  // kNoMeeple: none).
  double change(const State& s, int seg, int w) {
    double d = base;
    const int c = s.to_move();
    const int fi = seg == Move::kNoMeeple ? -1 : e.feat_of_seg[std::size_t(seg)];
    if (fi >= 0) {
      const JoinedFeature& j = e.feats[std::size_t(fi)];
      std::array<std::uint8_t, kMaxColors> weights = j.meeples;
      weights[std::size_t(c)] = std::uint8_t(weights[std::size_t(c)] + w);
      const FeatureFacts x = facts_of({j.kind, j.tiles, j.pennants, j.open, j.marks, weights.data()}, s, lowest);
      for (int k = 0; k < n_goals; ++k) {
        const FeatureGoal& fg = *goals[std::size_t(k)];
        if (j.kind != fg.kind) continue;
        d += feature_chance(fg, x) - joined[std::size_t(k)][std::size_t(fi)];
      }
    }
    // The monasteries around lose empty cells (or finish); a meeple on the tile's own
    // monastery adds one. Neither: their chances stay as they were.
    const bool own = fi >= 0 && e.feats[std::size_t(fi)].kind == SegKind::monastery;
    if (n_monastery == 0 || (nb.n_near == 0 && !own)) return d;
    MonasteryChances m = mon;
    for (int i = 0; i < nb.n_near; ++i) {
      const NearMonastery& near = nb.near[std::size_t(i)];
      for (int k = 0; k < m.n; ++k)
        if (m.root[std::size_t(k)] == near.root)
          m.p[std::size_t(k)] = monastery_chance(s, near.open_after, s.feature(near.root).meeples.data());
    }
    int n = m.n;
    if (own) {
      std::array<std::uint8_t, kMaxColors> weights{};
      weights[std::size_t(c)] = std::uint8_t(w);
      m.p[std::size_t(n++)] = monastery_chance(s, e.feats[std::size_t(fi)].open, weights.data());
    }
    for (int k = 0; k < n_monastery; ++k)
      d += monastery_count_chance(s.monasteries_scored(), monastery_need[std::size_t(k)], {m.p.data(), std::size_t(n)},
                                  future) -
           mon_before[std::size_t(k)];
    return d;
  }
};

AimedEvaluator::AimedEvaluator(const HeuristicWeights& w, const Aim& aim)
    : heuristic_(w), aim_(aim), terms_(aim.is_score() ? 0 : kMaxMoves), scratch_(std::make_unique<Scratch>()) {}
AimedEvaluator::~AimedEvaluator() = default;

int AimedEvaluator::evaluate(const State& s, int type, std::span<const Placement> legal, ScoredMove* out, Rng& rng) {
  const int n = heuristic_.evaluate(s, type, legal, out, rng);
  terms_live_ = false;
  if (aim_.is_score()) return n;
  Scratch& x = *scratch_;
  x.begin(s, aim_);
  if (x.n_goals == 0 && x.n_monastery == 0) return n;  // nothing on the board decides it
  terms_live_ = true;
  const int c = s.to_move();
  for (int i = 0; i < n; ++i) {
    const Move& m = out[i].move;
    if (m.at.cell != x.at.cell || m.at.rot != x.at.rot) x.analyse(s, type, m.at);
    int seg = Move::kNoMeeple, w = 0;
    if (m.seg != Move::kNoMeeple && (x.e.free_mask >> m.seg & 1) && s.figures(c) > 0) {
      seg = m.seg;
      w = (m.large && s.large_supply(c) > 0) || s.supply(c) == 0 ? 2 : 1;
    }
    terms_[std::size_t(i)] = aim_points(aim_) * x.change(s, seg, w);
    out[i].value += terms_[std::size_t(i)];
  }
  return n;
}

}  // namespace carc
