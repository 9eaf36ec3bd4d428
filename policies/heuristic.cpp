// `heuristic`: the move with the best HeuristicEvaluator value (heuristic.hpp).
//
// Per turn the evaluator prepares what every move shares: for each open cell and each
// feature beside it, how many unseen tiles would end the feature there, and from that the
// expectation of every unfinished feature with meeples. A move changes only the features
// its tile touches and the cells around it, so it is valued from those deltas; moves that
// complete something are also played on a State copy for their exact scores and supplies.
#include "policies/heuristic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
  return w;
}

namespace {

constexpr std::uint8_t kNone8 = 0xFF;
constexpr int kMaxSides = 63;  // beyond, q^sides is as good as 0
constexpr int kMaxActive = kMaxColors * kMaxMeeples;

// kCloses[code][d]: tile types that, in some rotation fitting an open cell of this code,
// end the feature on side d there: the tile's segment facing d has no edge toward a side
// without a neighbour, so it opens nothing new.
constexpr auto kCloses = [] {
  std::array<std::array<std::uint32_t, 4>, kCodes> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d)
      for (int t = 0; t < kTileTypes; ++t)
        for (int r = 0; r < 4; ++r) {
          if (!(kFits[code][t] >> r & 1)) continue;
          const int s = kOriented[t][r].seg[d];
          if (s < 0) continue;
          bool closes = true;
          for (int e = 0; e < 4; ++e)
            if ((kOriented[t][r].seg_edges[s] >> e & 1) && e != d &&
                code_edge(std::uint8_t(code), e) == kNone)
              closes = false;
          if (closes) m[code][d] |= 1u << t;
        }
  return m;
}();
constexpr auto kFitMask = [] {
  std::array<std::uint32_t, kCodes> m{};
  for (int code = 0; code < kCodes; ++code)
    for (int t = 0; t < kTileTypes; ++t)
      if (kFits[code][t]) m[code] |= 1u << t;
  return m;
}();
// A lone city edge to the north is ended by E (a city cap); a lone road end by A (a
// monastery's road end), never by U (a straight road, which leaves the far end open).
static_assert(kCloses[kCity][0] >> tile_type('E') & 1);
static_assert(kCloses[kRoad][0] >> tile_type('A') & 1);
static_assert(!(kCloses[kRoad][0] >> tile_type('U') & 1));

// kNoFree[code][occ]: tile types that fit an open cell of this code in some rotation where
// every road/city segment touches a side whose neighbour's feature holds a meeple (bit d
// of occ), and that have no monastery: placed there, they need no meeple. (Two segments
// on one unoccupied feature, or a meeple that reaches the cell's features by a merge, are
// not seen: an estimate.)
const std::array<std::array<std::uint32_t, 16>, kCodes>& no_free_table() {
  static const auto table = [] {
    std::array<std::array<std::uint32_t, 16>, kCodes> m{};
    for (int code = 0; code < kCodes; ++code)
      for (int occ = 0; occ < 16; ++occ)
        for (int t = 0; t < kTileTypes; ++t) {
          if (kMonasterySeg[t] >= 0) continue;
          for (int r = 0; r < 4; ++r) {
            if (!(kFits[code][t] >> r & 1)) continue;
            bool ok = true;
            for (int sg = 0; sg < kBaseTiles[t].nseg; ++sg)
              ok &= (kOriented[t][r].seg_edges[sg] & occ) != 0;
            if (ok) {
              m[code][occ] |= 1u << t;
              break;
            }
          }
        }
    return m;
  }();
  return table;
}

// Chance that a feature finishes, kept as log-product plus count of zero factors so a
// factor can be taken out again.
struct Odds {
  double log_m = 0, log_p = 0;  // meeple horizon, points horizon
  int zeros = 0;
  int sides = 0;  // open sides (a monastery: empty cells) counted in
  // Times q^sides, given as a table of powers.
  double meeple(const double* qpow) const { return zeros ? 0 : qpow[clamped()] * std::exp(log_m); }
  double points(const double* qpow) const { return zeros ? 0 : qpow[clamped()] * std::exp(log_p); }
  int clamped() const { return std::clamp(sides, 0, kMaxSides); }
};

struct Factor {
  double log_m, log_p;
  bool zero;
  bool counts = true;  // one more open side (false: a monastery's filled cell)
};

// What an unfinished feature with meeples is expected to bring.
struct Contrib {
  double gain = 0;            // expected points for each majority colour
  double ret = 0;             // expected value of its meeples coming back
  std::uint8_t majority = 0;  // colour mask
};

struct Active {
  std::uint16_t root;
  Contrib now;
  Odds odds;
};

}  // namespace

struct HeuristicEvaluator::Impl {
  HeuristicWeights w;
  std::unique_ptr<ScoringPolicy> scoring;
  State scratch;
  std::array<std::array<double, kMaxSides + 1>, 3> qpow{};  // q^n per SegKind

  // Per turn.
  const State* s = nullptr;
  int k = 0, tiles_left = 0, mover = 0;
  double meeple_w = 0, empty_w = 0, one_w = 0, urgent_w = 0;
  std::array<double, kMaxColors> award{};
  std::array<double, kMaxColors> pend{};  // expected points per colour
  double ret = 0;
  std::array<std::uint8_t, kCells> open_of;
  const std::array<std::array<std::uint32_t, 16>, kCodes>& no_free = no_free_table();
  std::array<std::uint8_t, kMaxOpen> occ_of{};      // per open cell: sides on occupied features
  std::array<std::uint32_t, kMaxOpen> nofree_of{};  // per open cell: kNoFree of it
  std::array<std::int16_t, kCodes * 4> closers_cache;
  std::array<std::int16_t, kCodes> fit_cache;
  std::array<Factor, kMaxTiles + 1> factor_cache;
  std::array<bool, kMaxTiles + 1> factor_known;
  std::array<std::array<std::int16_t, 4>, kMaxOpen> side_root{};
  std::array<Odds, kSlots> odds;                // per feature root, from its open cells
  std::array<std::uint16_t, 4 * kMaxOpen> marked{};  // roots whose odds are set
  int n_marked = 0;
  std::array<bool, kSlots> is_marked;
  std::array<std::uint8_t, kSlots> active_of;  // index into active, or kNone8
  std::array<Active, kMaxActive> active{};
  int n_active = 0;

  explicit Impl(const HeuristicWeights& weights) : w(weights), scoring(make_lookahead_scoring()) {
    const std::array<double, 3> q{w.road_q, w.city_q, w.monastery_q};  // SegKind order
    for (int kind = 0; kind < 3; ++kind) {
      qpow[kind][0] = 1;
      for (int i = 1; i <= kMaxSides; ++i) qpow[kind][i] = qpow[kind][i - 1] * q[kind];
    }
    open_of.fill(kNone8);
    is_marked.fill(false);
    active_of.fill(kNone8);
  }

  int count(std::uint32_t mask) const {
    int n = 0;
    while (mask) {
      n += s->unseen(__builtin_ctz(mask));
      mask &= mask - 1;
    }
    return n;
  }
  int closers(int code, int d) {
    std::int16_t& c = closers_cache[code * 4 + d];
    if (c < 0) c = std::int16_t(count(kCloses[code][d]));
    return c;
  }
  int fit(int code) {
    std::int16_t& c = fit_cache[code];
    if (c < 0) c = std::int16_t(count(kFitMask[code]));
    return c;
  }
  // 1 - (1 - c/T)^h for both horizons, as logs.
  const Factor& factor(int c) {
    if (!factor_known[c]) {
      factor_known[c] = true;
      Factor& f = factor_cache[c];
      f.zero = c == 0;
      if (!f.zero) {
        const double miss = 1.0 - double(c) / tiles_left;
        f.log_m = std::log1p(-std::pow(miss, std::min<double>(w.horizon, tiles_left)));
        f.log_p = std::log1p(-std::pow(miss, std::min<double>(w.points_horizon, tiles_left)));
        if (!std::isfinite(f.log_m) || !std::isfinite(f.log_p)) f.zero = true;
      }
    }
    return factor_cache[c];
  }
  static void apply(Odds& o, const Factor& f, int sign) {
    if (f.counts) o.sides += sign;
    if (f.zero) {
      o.zeros += sign;
    } else {
      o.log_m += sign * f.log_m;
      o.log_p += sign * f.log_p;
    }
  }

  Odds& odds_of(int root) {
    if (!is_marked[root]) {
      is_marked[root] = true;
      odds[root] = Odds{};
      marked[n_marked++] = std::uint16_t(root);
    }
    return odds[root];
  }

  // The cell at (x, y) as a monastery's neighbour: one more empty side, hopeless when it
  // is open and no unseen tile fits it. `placed`: a tile about to go to (px, py) (that cell
  // is full then, and its edges constrain the cells beside it).
  Factor monastery_cell(int x, int y, int px, int py, const Oriented* placed) {
    if (placed && x == px && y == py) return Factor{0, 0, false, false};
    if (s->tile_at(x, y) >= 0) return Factor{0, 0, false, false};
    const int j = open_of[cell_of(x, y)];
    int code = j == kNone8 ? 0 : s->open_cell(j).code;
    bool open = j != kNone8;
    if (placed)
      for (int d = 0; d < 4; ++d)
        if (px + kDx[d] == x && py + kDy[d] == y) {
          code |= placed->edge[d] << (2 * opposite(d));
          open = true;
        }
    if (open && fit(code) == 0) return Factor{0, 0, true, true};
    return Factor{0, 0, false, true};
  }
  Odds monastery_odds(int mx, int my, int px, int py, const Oriented* placed) {
    Odds o;
    for (int d = 0; d < 8; ++d) apply(o, monastery_cell(mx + kDx[d], my + kDy[d], px, py, placed), 1);
    return o;
  }

  Contrib contrib(SegKind kind, const Odds& o, int tiles, int pennants,
                  const std::array<std::uint8_t, kMaxColors>& meeples, int meeple_total) const {
    Contrib c;
    if (meeple_total == 0) return c;
    const int points = kind == SegKind::road ? tiles : kind == SegKind::city ? 2 * (tiles + pennants) : 9;
    int most = 0;
    for (int i = 0; i < k; ++i) most = std::max<int>(most, meeples[i]);
    double a = 0;
    int shared = -1;
    for (int i = 0; i < k; ++i)
      if (meeples[i] == most) {
        c.majority = std::uint8_t(c.majority | 1u << i);
        a = std::max(a, award[i]);
        ++shared;
      }
    a *= 1 + w.share * shared;
    const double* q = qpow[int(kind)].data();
    c.gain = o.points(q) * a * points;
    c.ret = o.meeple(q) * meeple_w * meeple_total;
    return c;
  }

  void begin_turn(const State& st) {
    s = &st;
    k = st.colors();
    mover = st.to_move();
    tiles_left = st.unseen_total();
    meeple_w = tiles_left > 0 ? w.meeple : 0;
    empty_w = tiles_left > 0 ? w.empty : 0;
    one_w = tiles_left > 0 ? w.one : 0;
    urgent_w = tiles_left > 0 ? w.urgent : 0;
    const int low = st.lowest_score();
    for (int c = 0; c < k; ++c) award[c] = std::exp(-(st.score(c) - low) / w.balance);
    closers_cache.fill(-1);
    fit_cache.fill(-1);
    factor_known.fill(false);
    n_marked = 0;
    for (int j = 0; j < st.open_count(); ++j) {
      const OpenCell& oc = st.open_cell(j);
      open_of[oc.cell] = std::uint8_t(j);
      occ_of[j] = 0;
      for (int d = 0; d < 4; ++d) {
        side_root[j][d] = -1;
        const int e = code_edge(oc.code, d);
        if (e == kField || e == kNone) continue;
        const int v = st.tile_at(oc.x + kDx[d], oc.y + kDy[d]);
        const PlacedTile& u = st.tile(v);
        const int r = st.feature_of(v, kOriented[u.type][u.rot].seg[opposite(d)]);
        side_root[j][d] = std::int16_t(r);
        if (st.feature(r).meeple_total) occ_of[j] = std::uint8_t(occ_of[j] | 1u << d);
        apply(odds_of(r), factor(closers(oc.code, d)), 1);
      }
    }
    for (int j = 0; j < st.open_count(); ++j) nofree_of[j] = no_free[st.open_cell(j).code][occ_of[j]];
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
      a.odds = f.kind == SegKind::monastery ? monastery_odds(t.x, t.y, 0, 0, nullptr) : odds_of(r);
      a.now = contrib(f.kind, a.odds, f.tiles, f.pennants, f.meeples, f.meeple_total);
      add(pend, ret, a.now, 1);
    }
  }

  void end_turn() {
    for (int j = 0; j < s->open_count(); ++j) open_of[s->open_cell(j).cell] = kNone8;
    for (int i = 0; i < n_marked; ++i) is_marked[marked[i]] = false;
    for (int i = 0; i < n_active; ++i) active_of[active[i].root] = kNone8;
  }

  void add(std::array<double, kMaxColors>& p, double& r, const Contrib& c, double sign) const {
    for (int i = 0; i < k; ++i)
      if (c.majority >> i & 1) p[i] += sign * c.gain;
    r += sign * c.ret;
  }

  // The value of a position with these scores and supplies (`after`, or the current State
  // with the mover's supply `used` lower) and expectations.
  double value(const State& after, int used, const std::array<double, kMaxColors>& p, double r,
               bool ended) const {
    double lo = std::numeric_limits<double>::max(), sum = 0, supply = 0;
    int empties = 0, ones = 0;
    double v_urgent = 0;
    const int next = mover + 1 == k ? 0 : mover + 1;
    for (int c = 0; c < k; ++c) {
      const double e = after.score(c) + (ended ? 0 : p[c]);
      lo = std::min(lo, e);
      sum += e;
      const int n = after.supply(c) - (c == mover ? used : 0);
      supply += n;
      empties += n == 0;
      ones += n == 1;
      if (n == 0 && c == next) v_urgent = urgent_w;
    }
    double v = w.low * lo + w.mean * sum / k;
    if (!ended) v += meeple_w * supply + r - empty_w * empties - one_w * ones - v_urgent;
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
      const int code_x = jx == kNone8 ? 0 : st.open_cell(jx).code;

      // Deltas shared by every meeple option of this placement.
      std::array<double, kMaxColors> dp{};
      double dr = 0;
      std::array<std::uint16_t, 16> gone{};  // active roots already accounted for
      int n_gone = 0;
      auto is_gone = [&](int root) {
        for (int i = 0; i < n_gone; ++i)
          if (gone[i] == root) return true;
        return false;
      };
      auto retire = [&](int root) {
        const std::uint8_t a = active_of[root];
        if (a == kNone8 || is_gone(root)) return;
        gone[n_gone++] = std::uint16_t(root);
        add(dp, dr, active[a].now, -1);
      };
      std::array<Odds, kMaxSegs> feat_odds{};
      for (int i = 0; i < e.n_feats; ++i) {
        const JoinedFeature& f = e.feats[i];
        for (int r = 0; r < f.n_roots; ++r) retire(f.roots[r]);
        if (f.complete()) continue;
        Odds& fo = feat_odds[i];
        if (f.kind == SegKind::monastery) {
          fo = monastery_odds(pl.x, pl.y, pl.x, pl.y, &o);
        } else {
          for (int r = 0; r < f.n_roots; ++r) {
            if (!is_marked[f.roots[r]]) continue;
            const Odds& ro = odds[f.roots[r]];
            fo.log_m += ro.log_m;
            fo.log_p += ro.log_p;
            fo.zeros += ro.zeros;
          }
          for (int d = 0; d < 4; ++d) {
            if (o.seg[d] < 0 || !(f.segs >> o.seg[d] & 1)) continue;
            if (e.edge_root[d] >= 0) {  // this side of the cell is no longer open
              apply(fo, factor(closers(code_x, d)), -1);
              continue;
            }
            const int j = open_of[step(pl.cell, d)];
            const int code = (j == kNone8 ? 0 : st.open_cell(j).code) | o.edge[d] << (2 * opposite(d));
            apply(fo, factor(closers(code, opposite(d))), 1);
          }
        }
        if (f.meeple_total)
          add(dp, dr, contrib(f.kind, fo, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
      }
      for (int i = 0; i < nb.n_near; ++i) {
        const int root = nb.near[i].root;
        if (active_of[root] == kNone8 || is_gone(root)) continue;
        retire(root);
        if (nb.near[i].open_after == 0) continue;
        const Feature& m = st.feature(root);
        const PlacedTile& mt = st.tile(root / kMaxSegs);
        add(dp, dr, contrib(m.kind, monastery_odds(mt.x, mt.y, pl.x, pl.y, &o), 1, 0, m.meeples,
                            m.meeple_total), 1);
      }
      // Open cells beside the tile get its edges too: features on their other sides may
      // now be harder (or impossible) to finish there.
      for (int d = 0; d < 4; ++d) {
        if (nb.tile[d] >= 0) continue;
        const int j = open_of[step(pl.cell, d)];
        if (j == kNone8) continue;
        const int code = st.open_cell(j).code;
        const int code2 = code | o.edge[d] << (2 * opposite(d));
        for (int d2 = 0; d2 < 4; ++d2) {
          const int root = side_root[j][d2];
          if (root < 0 || d2 == opposite(d) || active_of[root] == kNone8 || is_gone(root)) continue;
          const int before = closers(code, d2), after = closers(code2, d2);
          if (before == after) continue;
          const Active& a = active[active_of[root]];
          Odds no = a.odds;
          apply(no, factor(before), -1);
          apply(no, factor(after), 1);
          retire(root);
          const Feature& f = st.feature(root);
          add(dp, dr, contrib(f.kind, no, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
        }
      }

      // Open road/city edges of features with meeples: a tile put there joins an
      // occupied feature on that side, so it may need no meeple. Their change by this
      // placement (without its meeple; a meeple on a feature adds its open edges below).
      double edges = 0;
      if (w.sink != 0) {
        for (int i = 0; i < e.n_feats; ++i) {
          const JoinedFeature& f = e.feats[i];
          if (f.kind == SegKind::monastery) continue;
          if (f.meeple_total) edges += w.sink * f.open;
          for (int r = 0; r < f.n_roots; ++r) {
            const Feature& bf = st.feature(f.roots[r]);
            if (bf.meeple_total) edges -= w.sink * bf.open;
          }
        }
      }
      // Tile types the next colour could place with no free segment: every open cell but
      // this one and those beside it as they are; those beside it below, per meeple option.
      std::uint32_t nofree_base = 0;
      const int next = mover + 1 == k ? 0 : mover + 1;
      const double absorb_w = w.absorb * (st.supply(next) == 0 ? 1 + w.absorb_empty : 1);
      if (w.absorb != 0 && tiles_left > 0) {
        int skip[5] = {jx, -1, -1, -1, -1};
        for (int d = 0; d < 4; ++d)
          if (nb.tile[d] < 0) skip[d + 1] = open_of[step(pl.cell, d)];
        for (int j = 0; j < st.open_count(); ++j)
          if (j != skip[0] && j != skip[1] && j != skip[2] && j != skip[3] && j != skip[4])
            nofree_base |= nofree_of[j];
      }
      const bool ends = e.free_mask != 0 && !has_meeple && tiles_left > 0;
      const double snug = w.compact * (8 - nb.empty);
      std::uint8_t options = has_meeple ? e.free_mask : 0;
      do {
        Move m{pl, Move::kNoMeeple};
        double v0 = edges;  // open edges of occupied features
        std::array<double, kMaxColors> p = pend;
        for (int c = 0; c < k; ++c) p[c] += dp[c];
        double r = ret + dr;
        if (options) {
          m.seg = std::uint8_t(__builtin_ctz(options));
          options &= std::uint8_t(options - 1);
          const int fi = e.feat_of_seg[m.seg];
          const JoinedFeature& f = e.feats[fi];
          if (f.kind != SegKind::monastery) v0 += w.sink * f.open;
          if (!f.complete()) {
            std::array<std::uint8_t, kMaxColors> mm = f.meeples;
            ++mm[mover];
            add(p, r, contrib(f.kind, feat_odds[fi], f.tiles, f.pennants, mm, f.meeple_total + 1), 1);
          }
        }
        if (w.absorb != 0 && tiles_left > 0) {
          std::uint32_t mask = nofree_base;
          for (int d = 0; d < 4; ++d) {
            if (nb.tile[d] >= 0) continue;
            const int j = open_of[step(pl.cell, d)];
            const int od = opposite(d);
            const int code = (j == kNone8 ? 0 : st.open_cell(j).code) | o.edge[d] << (2 * od);
            int occ = j == kNone8 ? 0 : occ_of[j];
            if (o.seg[d] >= 0) {
              const JoinedFeature& f = e.feats[e.feat_of_seg[o.seg[d]]];
              if (f.meeple_total || (m.seg != Move::kNoMeeple && (f.segs >> m.seg & 1)))
                occ |= 1 << od;
            }
            mask |= no_free[code][occ];
          }
          v0 += absorb_w * count(mask) / tiles_left;
        }
        double v;
        if (e.completes) {
          scratch = st;
          apply_move(scratch, type, m, *scoring, rng);
          v = value(scratch, 0, p, r, ends);
        } else {
          v = value(st, m.seg != Move::kNoMeeple, p, r, ends);
        }
        out[n++] = ScoredMove{m, v + snug + v0};
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

}  // namespace

// Called by the registry (policies/registry.cpp) before its first use.
void register_heuristic() {
  register_placement(
      {"heuristic",
       "best weighted evaluation: balanced expected scores, meeples in supply, features "
       "likely to finish given the unseen tiles",
       HeuristicWeights::params()},
      [](const Params& p) { return std::make_unique<Heuristic>(HeuristicWeights::from(p)); });
}

}  // namespace carc
