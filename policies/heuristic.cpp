// `heuristic`: the move with the best HeuristicEvaluator value (heuristic.hpp).
//
// Per turn the evaluator prepares what every move shares: the unseen tiles that fit each
// open cell (a cell nothing fits makes the features around it hopeless), and the
// expectation of every unfinished feature with meeples. A move then only changes the few
// features its tile touches, so it is valued from those deltas; moves that complete
// something are also played on a State copy for their exact scores and supplies.
#include "policies/heuristic.hpp"

#include <algorithm>
#include <cmath>

#include "policies/lookahead.hpp"

namespace carc {

std::vector<ParamInfo> HeuristicWeights::params() {
  const HeuristicWeights d;
  return {
      {"low", d.low, "weight of the lowest expected score"},
      {"mean", d.mean, "weight of the mean expected score"},
      {"meeple", d.meeple, "value of a meeple in supply (and of an expected return)"},
      {"empty", d.empty, "penalty per colour whose supply is empty"},
      {"balance", d.balance, "score gap at which a majority colour's award weight falls by e"},
      {"road_q", d.road_q, "chance per open edge that a road gets finished"},
      {"city_q", d.city_q, "chance per open edge that a city gets finished"},
      {"monastery_q", d.monastery_q, "chance per empty cell that a monastery gets surrounded"},
      {"tau", d.tau, "tiles needed per open edge (late-game discount T/(T+tau*open))"},
      {"hopeless", d.hopeless, "finishing chance of a feature next to a cell no unseen tile fits"},
  };
}

HeuristicWeights HeuristicWeights::from(const Params& p) {
  HeuristicWeights w;
  w.low = p.get("low");
  w.mean = p.get("mean");
  w.meeple = p.get("meeple");
  w.empty = p.get("empty");
  w.balance = std::max(1e-6, p.get("balance"));
  w.road_q = p.get("road_q");
  w.city_q = p.get("city_q");
  w.monastery_q = p.get("monastery_q");
  w.tau = p.get("tau");
  w.hopeless = p.get("hopeless");
  return w;
}

namespace {

constexpr std::uint8_t kNone8 = 0xFF;
constexpr int kMaxActive = kMaxColors * kMaxMeeples;
constexpr int kMaxOpenPow = 40;

// What an unfinished feature with meeples is expected to bring.
struct Contrib {
  double gain = 0;             // expected points for each majority colour
  double ret = 0;              // expected value of its meeples coming back
  std::uint8_t majority = 0;   // colour mask
};

struct Active {
  std::uint16_t root;
  Contrib now, doomed;  // as it is; if it became hopeless
};

}  // namespace

struct HeuristicEvaluator::Impl {
  HeuristicWeights w;
  std::unique_ptr<ScoringPolicy> scoring;
  State scratch;
  std::array<std::array<double, kMaxOpenPow + 1>, 3> qpow{};

  // Per turn.
  const State* s = nullptr;
  int k = 0, tiles_left = 0, mover = 0;
  double meeple_w = 0, empty_w = 0;
  std::array<double, kMaxColors> award{};
  std::array<double, kMaxColors> pend{};  // expected points per colour
  double ret = 0;
  std::array<std::uint8_t, kCells> open_of;
  std::array<std::int16_t, kCodes> fit_cache;
  std::array<std::int16_t, kMaxOpen> fit{};
  std::array<std::array<std::int16_t, 4>, kMaxOpen> side_root{};
  std::array<std::uint8_t, kSlots> hopeless;   // hopeless open cells next to a feature
  std::array<std::uint8_t, kSlots> active_of;  // index into active, or kNone8
  std::array<std::uint16_t, 4 * kMaxOpen> marked{};  // roots whose `hopeless` is set
  int n_marked = 0;
  std::array<Active, kMaxActive> active{};
  int n_active = 0;

  explicit Impl(const HeuristicWeights& weights) : w(weights), scoring(make_lookahead_scoring()) {
    const std::array<double, 3> q{w.road_q, w.city_q, w.monastery_q};
    for (int kind = 0; kind < 3; ++kind) {
      qpow[kind][0] = 1;
      for (int i = 1; i <= kMaxOpenPow; ++i) qpow[kind][i] = qpow[kind][i - 1] * q[kind];
    }
    open_of.fill(kNone8);
    hopeless.fill(0);
    active_of.fill(kNone8);
  }

  int fit_of(int code) {
    std::int16_t& f = fit_cache[code];
    if (f < 0) {
      int n = 0;
      for (int t = 0; t < kTileTypes; ++t) n += kFits[code][t] ? s->unseen(t) : 0;
      f = std::int16_t(n);
    }
    return f;
  }

  // The contribution of a feature with these numbers.
  Contrib contrib(SegKind kind, int open, int tiles, int pennants,
                  const std::array<std::uint8_t, kMaxColors>& meeples, int meeple_total,
                  bool doomed) const {
    Contrib c;
    if (meeple_total == 0) return c;
    double p = w.hopeless;
    if (!doomed) {
      p = qpow[int(kind)][std::min(open, kMaxOpenPow)];
      if (open > 0) p *= tiles_left / (tiles_left + w.tau * open);
    }
    const int points = kind == SegKind::road ? tiles : kind == SegKind::city ? 2 * (tiles + pennants) : 9;
    int most = 0;
    for (int i = 0; i < k; ++i) most = std::max<int>(most, meeples[i]);
    double a = 0;
    for (int i = 0; i < k; ++i)
      if (meeples[i] == most) {
        c.majority = std::uint8_t(c.majority | 1u << i);
        a = std::max(a, award[i]);
      }
    c.gain = p * a * points;
    c.ret = p * meeple_w * meeple_total;
    return c;
  }
  Contrib contrib(const Feature& f, bool doomed) const {
    return contrib(f.kind, f.open, f.tiles, f.pennants, f.meeples, f.meeple_total, doomed);
  }

  void mark_hopeless(int root) {
    if (hopeless[root]++ == 0) marked[n_marked++] = std::uint16_t(root);
  }

  void begin_turn(const State& st) {
    s = &st;
    k = st.colors();
    mover = st.to_move();
    tiles_left = st.unseen_total();
    meeple_w = tiles_left > 0 ? w.meeple : 0;
    empty_w = tiles_left > 0 ? w.empty : 0;
    const int low = st.lowest_score();
    for (int c = 0; c < k; ++c) award[c] = std::exp(-(st.score(c) - low) / w.balance);
    fit_cache.fill(-1);
    n_marked = 0;
    for (int j = 0; j < st.open_count(); ++j) {
      const OpenCell& oc = st.open_cell(j);
      open_of[oc.cell] = std::uint8_t(j);
      fit[j] = std::int16_t(fit_of(oc.code));
      for (int d = 0; d < 4; ++d) {
        side_root[j][d] = -1;
        if (code_edge(oc.code, d) == kField || code_edge(oc.code, d) == kNone) continue;
        const int v = st.tile_at(oc.x + kDx[d], oc.y + kDy[d]);
        const PlacedTile& u = st.tile(v);
        const int r = st.feature_of(v, kOriented[u.type][u.rot].seg[opposite(d)]);
        side_root[j][d] = std::int16_t(r);
        if (fit[j] == 0) mark_hopeless(r);
      }
      if (fit[j] == 0)
        for (int d = 0; d < 8; ++d) {
          const int v = st.tile_at(oc.x + kDx[d], oc.y + kDy[d]);
          if (v < 0) continue;
          const int ms = kMonasterySeg[st.tile(v).type];
          if (ms >= 0 && st.feature(st.feature_of(v, ms)).open > 0)
            mark_hopeless(st.feature_of(v, ms));
        }
    }
    n_active = 0;
    pend.fill(0);
    ret = 0;
    for (int i = 0; i < st.tiles_on_board(); ++i) {
      const PlacedTile& t = st.tile(i);
      if (t.meeple_seg == 0xFF) continue;
      const int r = st.feature_of(i, t.meeple_seg);
      const Feature& f = st.feature(r);
      if (f.meeple_total == 0 || active_of[r] != kNone8) continue;
      Active& a = active[n_active];
      active_of[r] = std::uint8_t(n_active++);
      a.root = std::uint16_t(r);
      a.now = contrib(f, hopeless[r] > 0);
      a.doomed = contrib(f, true);
      add(pend, ret, a.now, 1);
    }
  }

  void end_turn() {
    for (int j = 0; j < s->open_count(); ++j) open_of[s->open_cell(j).cell] = kNone8;
    for (int i = 0; i < n_marked; ++i) hopeless[marked[i]] = 0;
    for (int i = 0; i < n_active; ++i) active_of[active[i].root] = kNone8;
  }

  void add(std::array<double, kMaxColors>& p, double& r, const Contrib& c, double sign) const {
    for (int i = 0; i < k; ++i)
      if (c.majority >> i & 1) p[i] += sign * c.gain;
    r += sign * c.ret;
  }

  double value(const State& after, const std::array<double, kMaxColors>& p, double r,
               bool ended) const {
    double lo = 1e18, sum = 0, supply = 0;
    int empties = 0;
    for (int c = 0; c < k; ++c) {
      const double e = after.score(c) + (ended ? 0 : p[c]);
      lo = std::min(lo, e);
      sum += e;
      supply += after.supply(c);
      empties += after.supply(c) == 0;
    }
    double v = w.low * lo + w.mean * sum / k;
    if (!ended) v += meeple_w * supply + r - empty_w * empties;
    return v;
  }
  // The same with the mover's supply one lower (a meeple placed, nothing completed).
  double value_quiet(const std::array<double, kMaxColors>& p, double r, int used,
                     bool ended) const {
    double lo = 1e18, sum = 0, supply = 0;
    int empties = 0;
    for (int c = 0; c < k; ++c) {
      const double e = s->score(c) + (ended ? 0 : p[c]);
      lo = std::min(lo, e);
      sum += e;
      const int n = s->supply(c) - (c == mover ? used : 0);
      supply += n;
      empties += n == 0;
    }
    double v = w.low * lo + w.mean * sum / k;
    if (!ended) v += meeple_w * supply + r - empty_w * empties;
    return v;
  }

  int evaluate(int type, std::span<const Placement> legal, ScoredMove* out, Rng& rng) {
    const State& st = *s;
    const bool has_meeple = st.supply(mover) > 0;
    int n = 0;
    CellNeighbours nb;
    PlacementEffect e;
    for (const Placement& pl : legal) {
      if (pl.cell != nb.cell) nb.load(st, pl);
      analyse_placement(st, type, pl, nb, e);
      const Oriented& o = kOriented[type][pl.rot];
      const int jx = open_of[pl.cell];
      const bool x_hopeless = jx != kNone8 && fit[jx] == 0;

      // Deltas shared by every meeple option of this placement.
      std::array<double, kMaxColors> dp{};
      double dr = 0;
      std::array<std::uint16_t, 16> gone{};  // active roots already accounted for
      int n_gone = 0;
      auto retire = [&](int root) {
        const std::uint8_t a = active_of[root];
        if (a == kNone8) return;
        for (int i = 0; i < n_gone; ++i)
          if (gone[i] == root) return;
        gone[n_gone++] = std::uint16_t(root);
        add(dp, dr, active[a].now, -1);
      };
      std::array<bool, kMaxSegs> doomed{};
      for (int i = 0; i < e.n_feats; ++i) {
        const JoinedFeature& f = e.feats[i];
        for (int r = 0; r < f.n_roots; ++r) retire(f.roots[r]);
        if (f.complete()) continue;
        int h = 0;
        for (int r = 0; r < f.n_roots; ++r) h += hopeless[f.roots[r]];
        for (int d = 0; d < 4; ++d) {
          if (o.seg[d] < 0 || !(f.segs >> o.seg[d] & 1)) continue;
          if (e.edge_root[d] >= 0) {
            h -= x_hopeless;
            continue;
          }
          const int nc = step(pl.cell, d);
          const int j = open_of[nc];
          const int code = (j == kNone8 ? 0 : st.open_cell(j).code) | o.edge[d] << (2 * opposite(d));
          h += fit_of(code) == 0;
        }
        if (f.kind == SegKind::monastery)
          for (int d = 0; d < 8; ++d) {
            if (nb.tile[d] >= 0) continue;
            const int j = open_of[step(pl.cell, d)];
            h += j != kNone8 && fit[j] == 0;
          }
        doomed[i] = h > 0;
        if (f.meeple_total) add(dp, dr, contrib(f.kind, f.open, f.tiles, f.pennants, f.meeples,
                                                f.meeple_total, doomed[i]), 1);
      }
      for (int i = 0; i < e.n_near; ++i) {
        const int root = e.near[i].root;
        const std::uint8_t a = active_of[root];
        if (a == kNone8) continue;
        retire(root);
        if (e.near[i].open_after == 0) continue;
        const Feature& m = st.feature(root);
        const bool h = hopeless[root] - x_hopeless > 0;
        add(dp, dr, contrib(m.kind, e.near[i].open_after, 1, 0, m.meeples, m.meeple_total, h), 1);
      }
      // Cells next to the tile that nothing unseen fits any more: features around them die.
      for (int d = 0; d < 4; ++d) {
        if (nb.tile[d] >= 0) continue;
        const int j = open_of[step(pl.cell, d)];
        if (j == kNone8 || fit[j] == 0) continue;
        if (fit_of(st.open_cell(j).code | o.edge[d] << (2 * opposite(d))) != 0) continue;
        for (int d2 = 0; d2 < 4; ++d2) {
          const int root = side_root[j][d2];
          if (root < 0 || active_of[root] == kNone8 || hopeless[root]) continue;
          bool seen = false;
          for (int i = 0; i < n_gone; ++i) seen |= gone[i] == root;
          if (seen) continue;
          retire(root);
          add(dp, dr, active[active_of[root]].doomed, 1);
        }
      }

      const bool forced = e.free_mask != 0;
      const bool ends = forced && !has_meeple && tiles_left > 0;
      std::uint8_t options = has_meeple ? e.free_mask : 0;
      do {
        Move m{pl, Move::kNoMeeple};
        std::array<double, kMaxColors> p = pend;
        for (int c = 0; c < k; ++c) p[c] += dp[c];
        double r = ret + dr;
        if (options) {
          m.seg = std::uint8_t(__builtin_ctz(options));
          options &= std::uint8_t(options - 1);
          const int fi = e.feat_of_seg[m.seg];
          const JoinedFeature& f = e.feats[fi];
          if (!f.complete()) {
            std::array<std::uint8_t, kMaxColors> mm = f.meeples;
            ++mm[mover];
            add(p, r, contrib(f.kind, f.open, f.tiles, f.pennants, mm, f.meeple_total + 1,
                              doomed[fi]), 1);
          }
        }
        double v;
        if (e.completes) {
          scratch = st;
          apply_move(scratch, type, m, *scoring, rng);
          v = value(scratch, p, r, ends);
        } else {
          v = value_quiet(p, r, m.seg != Move::kNoMeeple, ends);
        }
        out[n++] = ScoredMove{m, v};
      } while (options);
    }
    return n;
  }
};

HeuristicEvaluator::HeuristicEvaluator(const HeuristicWeights& w)
    : impl_(std::make_unique<Impl>(w)) {}
HeuristicEvaluator::~HeuristicEvaluator() = default;

int HeuristicEvaluator::evaluate(const State& s, int type, std::span<const Placement> legal,
                                 ScoredMove* out, Rng& rng) {
  impl_->begin_turn(s);
  const int n = impl_->evaluate(type, legal, out, rng);
  impl_->end_turn();
  return n;
}

namespace {

class Heuristic final : public PlacementPolicy {
 public:
  explicit Heuristic(const HeuristicWeights& w) : eval_(w), moves_(kMaxMoves) {}

  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const int n = eval_.evaluate(obs.state(), obs.tile(), legal, moves_.data(), rng);
    // The best value; ties (mirror-image placements, say) uniformly at random.
    int best = 0, ties = 1;
    for (int i = 1; i < n; ++i) {
      if (moves_[i].value > moves_[best].value) {
        best = i;
        ties = 1;
      } else if (moves_[i].value == moves_[best].value &&
                 uniform_below(rng, std::uint32_t(++ties)) == 0) {
        best = i;
      }
    }
    return moves_[best].move;
  }

 private:
  HeuristicEvaluator eval_;
  std::vector<ScoredMove> moves_;  // sized once
};

const bool registered = register_placement(
    {"heuristic",
     "best weighted evaluation: balanced expected scores, meeples in supply, features "
     "likely to finish given the unseen tiles",
     HeuristicWeights::params()},
    [](const Params& p) { return std::make_unique<Heuristic>(HeuristicWeights::from(p)); });

}  // namespace
}  // namespace carc
