// `heuristic`: the move with the best HeuristicEvaluator value (heuristic.hpp).
//
// The work is split by what it depends on. Per turn: for each open cell and each feature
// beside it, how many unseen tiles would end the feature there, and from that the
// expectation of every unfinished feature with meeples. Per cell (every rotation of the
// tile there shares it): the board around the cell and the tiles the next colour could
// place without a free segment elsewhere. Per placement: the features the tile joins and
// their new expectations, as deltas to the turn's. Per meeple option: the terms
// (heuristic_terms.hpp), summed. A move that completes something is scored exactly
// without a State copy: its turn is the small problem of policies/turn_scoring.hpp,
// solved in the `best` order.
#include "policies/heuristic.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "policies/heuristic_odds.hpp"
#include "policies/heuristic_terms.hpp"
#include "policies/turn_scoring.hpp"

namespace carc {

namespace {

using namespace heuristic;

constexpr std::uint8_t kNone8 = 0xFF;
constexpr int kMaxActive = kMaxColors * kMaxMeeples;

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

// The colours' expectations as a move changes them: the contributions of the features it
// touches taken out (each once: `gone`) and their new ones added, in a fixed order.
struct Delta {
  std::array<double, kMaxColors> points{};
  double returns = 0;
  std::array<std::uint16_t, 16> gone;
  int n_gone = 0;
  bool is_gone(int root) const {
    for (int i = 0; i < n_gone; ++i)
      if (gone[i] == root) return true;
    return false;
  }
};

// kFeatureSides[code]: the sides of an open cell with a road or city edge behind them.
constexpr auto kFeatureSides = [] {
  std::array<std::uint8_t, kCodes> t{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d) {
      const int e = code_edge(std::uint8_t(code), d);
      if (e == kCity || e == kRoad) t[code] = std::uint8_t(t[code] | 1u << d);
    }
  return t;
}();

// kOccupied[code]: the edges of an open cell with a tile behind them.
constexpr auto kOccupied = [] {
  std::array<std::uint8_t, kCodes> t{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d)
      if (code_edge(std::uint8_t(code), d) != kNone) t[code] = std::uint8_t(t[code] | 1u << d);
  return t;
}();

// kStepDir[dy + 1][dx + 1]: the step() direction of the neighbour at offset (dx, dy).
constexpr auto kStepDir = [] {
  std::array<std::array<std::uint8_t, 3>, 3> t{};
  for (int d = 0; d < 8; ++d) t[kDy[d] + 1][kDx[d] + 1] = std::uint8_t(d);
  return t;
}();

constexpr std::array<std::uint8_t, 16> kBits4 = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// kSameRotation[type][rot]: the smallest rotation that gives the very same oriented tile
// (edges, segments and their numbering) as `rot`.
constexpr auto kSameRotation = [] {
  std::array<std::array<std::uint8_t, 4>, kTileTypes> t{};
  for (int type = 0; type < kTileTypes; ++type)
    for (int r = 0; r < 4; ++r) {
      t[type][r] = std::uint8_t(r);
      for (int r2 = r - 1; r2 >= 0; --r2) {
        const Oriented& a = kOriented[type][r];
        const Oriented& b = kOriented[type][r2];
        if (a.edge == b.edge && a.seg == b.seg && a.seg_edges == b.seg_edges) t[type][r] = std::uint8_t(r2);
      }
    }
  return t;
}();
static_assert(kSameRotation[tile_type('U')][2] == 0 && kSameRotation[tile_type('U')][3] == 1);
static_assert(kSameRotation[tile_type('B')][3] == 0 && kSameRotation[tile_type('V')][2] == 2);
static_assert(kSameRotation[tile_type('H')][2] == 2, "segments numbered differently: not the same");

// A neighbouring open cell's side on an active feature: the tile's edge toward that cell
// may change how many unseen tiles would close the feature there.
struct NearSide {
  std::uint8_t d;   // direction of the open cell from the placed one
  std::uint8_t d2;  // the side of the open cell
  std::uint16_t root;
};

// A monastery's cells around it as a tile placed at a cell leaves them, the part that
// does not depend on the rotation: empty cells other than the placed one and hopeless
// ones among them, except the cells beside the placed one (bit d of `beside`: the cell in
// direction d of it), which the tile's edges constrain.
struct MonasteryCells {
  int sides = 0, zeros = 0;
  std::uint8_t beside = 0;
};

// An unfinished monastery with meeples among the 8 cells around the placed one.
struct NearActive {
  std::uint16_t root;
  std::uint8_t open_after;
  MonasteryCells cells;
};

// The board feature behind an edge of a cell, as the tile placed there would join it.
struct EdgeFeature {
  std::uint16_t root;
  std::uint8_t open, tiles, pennants, meeple_total;
  std::uint64_t meeples;   // per colour, one byte each
  const Odds* odds;        // its odds from the open cells (all zero when it has none)
  const Factor* closed;    // the factor of its side at this cell, which the tile closes
};

inline std::uint64_t pack(const std::array<std::uint8_t, kMaxColors>& m) {
  std::uint64_t v = 0;
  std::memcpy(&v, m.data(), kMaxColors);
  return v;
}
inline std::array<std::uint8_t, kMaxColors> unpack(std::uint64_t v) {
  std::array<std::uint8_t, kMaxColors> m;
  std::memcpy(m.data(), &v, kMaxColors);
  return m;
}
const Odds kNoOdds{};

// The board around a cell, shared by the placements there.
struct CellView {
  CellNeighbours nb;
  int code = 0;                              // the cell's constraint code
  std::array<std::uint8_t, 4> open{};        // open index of the neighbour at d, or kNone8
  std::array<std::uint8_t, 4> code_near{};   // its code (0: not open)
  std::array<std::uint8_t, 4> occ_near{};    // its sides on occupied features
  TypeMask nofree_base = 0;  // absorbing tile types at every other open cell
  int nofree_base_count = 0;
  int n_sides = 0;
  std::array<NearSide, 12> sides;
  int n_monasteries = 0;
  std::array<NearActive, 8> monasteries;
  MonasteryCells own;  // the placed tile's own monastery, if it has one
  // Per edge d with a board feature behind it: what the tile joins there.
  std::array<EdgeFeature, 4> edge_feature{};
  std::uint8_t active_edges = 0;  // bit d: that feature is active
  // Per empty edge d: the factor of the side the tile opens there, showing a city (0) or
  // a road (1).
  std::array<std::array<const Factor*, 2>, 4> opened{};
};

// What the meeple options of one placement share.
struct PlacementView {
  std::array<double, kMaxColors> expect{};  // expected points per colour, without the meeple
  double returns = 0;
  double sink = 0;                        // the sink term without the meeple
  double compact = 0;
  bool ends = false;
  TypeMask absorb_mask = 0;               // absorbing types, without the meeple
  int absorb_count = 0;
  std::array<TypeMask, kMaxSegs> absorb_extra{};  // more of them with the meeple on feature i
};

}  // namespace

struct HeuristicEvaluator::Impl {
  HeuristicWeights w;
  BestOrder best;
  std::array<std::array<double, kMaxSides + 1>, 3> qpow{};  // q^n per SegKind
  const NoFreeTable& no_free = no_free_table();
  ExpCache exp;
  // Factors by (tiles unseen, closers), and award weights by score gap: computed once.
  std::vector<Factor> factors;
  std::vector<double> awards;

  // Per turn.
  const State* s = nullptr;
  int k = 0, tiles_left = 0, mover = 0, next = 0;
  bool has_meeple = false;
  double meeple_w = 0, empty_w = 0, one_w = 0, urgent_w = 0, absorb_w = 0;
  std::array<double, kMaxColors> award{};
  std::array<double, kMaxColors> pend{};  // expected points per colour
  double ret = 0;                         // expected returns of meeples on the board
  // Supplies after a move that completes nothing: without and with its meeple.
  struct Supplies {
    Scores supply{};
    int total = 0, empties = 0, ones = 0;
  };
  std::array<Supplies, 2> quiet;
  Scores scores_now{};
  UnseenCounts unseen;
  Factor* factor_row = nullptr;
  std::array<std::uint8_t, kCells> open_of;
  std::array<std::uint8_t, kMaxOpen> occ_of{};      // per open cell: sides on occupied features
  std::array<TypeMask, kMaxOpen> nofree_of{};       // per open cell: no_free of it
  std::array<std::uint8_t, kTileTypes> nofree_cells{};  // per type: open cells absorbing it
  TypeMask nofree_all = 0;
  std::array<std::int16_t, kCodes * 4> closers_cache;  // -1: not known this turn
  std::array<std::int16_t, kCodes> fit_cache;
  std::array<std::array<std::int16_t, 4>, kMaxOpen> side_root{};
  std::array<Odds, kSlots> odds;                     // per feature root, from its open cells
  std::array<std::uint16_t, 4 * kMaxOpen> marked{};  // roots whose odds are set
  int n_marked = 0;
  std::array<bool, kSlots> is_marked;
  std::array<std::uint8_t, kSlots> active_of;  // index into active, or kNone8
  std::array<Active, kMaxActive> active{};
  int n_active = 0;
  struct Unfinished {  // an unfinished monastery
    std::uint16_t root;
    std::int8_t x, y;
    std::uint8_t open;
  };
  std::array<Unfinished, kMaxMonasteries> monasteries{};
  int n_monasteries = 0;

  // Per cell and per placement.
  CellView cell;
  PlacementEffect e;
  Delta delta;
  std::array<Odds, kMaxSegs> feat_odds{};
  PlacementView pv;

  explicit Impl(const HeuristicWeights& weights)
      : w(weights), factors((kMaxTiles + 1) * (kMaxTiles + 1)), awards(kScoreLimit, -1.0) {
    const std::array<double, 3> q{w.road_q, w.city_q, w.monastery_q};  // SegKind order
    for (int kind = 0; kind < 3; ++kind) {
      qpow[kind][0] = 1;
      for (int i = 1; i <= kMaxSides; ++i) qpow[kind][i] = qpow[kind][i - 1] * q[kind];
    }
    open_of.fill(kNone8);
    is_marked.fill(false);
    active_of.fill(kNone8);
  }

  // --- chances -----------------------------------------------------------------------

  // Unseen tiles that would end the feature on side d of an open cell of this code.
  int closers(int code, int d) {
    std::int16_t& c = closers_cache[code * 4 + d];
    if (c < 0) c = std::int16_t(unseen.count(kCloses[code][d]));
    return c;
  }
  // Unseen tiles that fit an open cell of this code.
  int fit(int code) {
    std::int16_t& c = fit_cache[code];
    if (c < 0) c = std::int16_t(unseen.count(kFitMask[code]));
    return c;
  }
  // 1 - (1 - c/T)^h for both horizons, as logs (T unseen tiles).
  const Factor& factor(int c) {
    Factor& f = factor_row[c];
    if (!f.known) {
      f.known = true;
      f.zero = c == 0;
      if (!f.zero) {
        const double miss = 1.0 - double(c) / tiles_left;
        f.log_m = std::log1p(-std::pow(miss, std::min<double>(w.horizon, tiles_left)));
        f.log_p = std::log1p(-std::pow(miss, std::min<double>(w.points_horizon, tiles_left)));
        if (!std::isfinite(f.log_m) || !std::isfinite(f.log_p)) f.zero = true;
      }
    }
    return f;
  }

  Odds& odds_of(int root) {
    if (!is_marked[root]) {
      is_marked[root] = true;
      odds[root] = Odds{};
      marked[n_marked++] = std::uint16_t(root);
    }
    return odds[root];
  }

  // A monastery at `mcell`: one open side per empty cell around it, hopeless when one of
  // them is open and no unseen tile fits it. With `pcell` >= 0, as a tile placed there
  // leaves them (that cell is full then), but for the cells beside it (see MonasteryCells).
  MonasteryCells monastery_cells(int mcell, int pcell) {
    MonasteryCells m;
    for (int d = 0; d < 8; ++d) {
      const int c = step(mcell, d);
      if (c == pcell || s->tile_near(c) >= 0) continue;
      if (pcell >= 0) {
        int beside = -1;
        for (int dd = 0; dd < 4; ++dd)
          if (step(pcell, dd) == c) beside = dd;
        if (beside >= 0) {
          m.beside = std::uint8_t(m.beside | 1u << beside);
          continue;
        }
      }
      const int j = open_of[c];
      ++m.sides;
      m.zeros += j != kNone8 && fit(s->open_cell(j).code) == 0;
    }
    return m;
  }
  // The odds of such a monastery once the tile `o` is placed: the cells beside it are open
  // and show its edges.
  Odds monastery_odds(const MonasteryCells& m, const Oriented& o) {
    Odds odds;
    odds.sides = m.sides;
    odds.zeros = m.zeros;
    for (std::uint8_t b = m.beside; b; b &= std::uint8_t(b - 1)) {
      const int d = __builtin_ctz(b);
      ++odds.sides;
      odds.zeros += fit(cell.code_near[d] | o.edge[d] << (2 * opposite(d))) == 0;
    }
    return odds;
  }

  // The chances within the meeple and the points horizon, times q^sides (q per kind).
  // exp(0) is 1 exactly, so it is skipped.
  double scaled(const Odds& o, const double* q, double log) {
    return log == 0 ? q[o.clamped()] : q[o.clamped()] * exp(log);
  }
  double meeple_odds(const Odds& o, const double* q) { return o.zeros ? 0 : scaled(o, q, o.log_m); }
  double points_odds(const Odds& o, const double* q) { return o.zeros ? 0 : scaled(o, q, o.log_p); }

  Contrib contrib(SegKind kind, const Odds& o, int tiles, int pennants,
                  const std::array<std::uint8_t, kMaxColors>& meeples, int meeple_total) {
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
    c.gain = points_odds(o, q) * a * points;
    c.ret = meeple_odds(o, q) * meeple_w * meeple_total;
    return c;
  }
  // contrib() of a feature with no meeple but the mover's new one (a free segment's).
  Contrib fresh_contrib(SegKind kind, const Odds& o, int tiles, int pennants) {
    Contrib c;
    const int points = kind == SegKind::road ? tiles : kind == SegKind::city ? 2 * (tiles + pennants) : 9;
    c.majority = std::uint8_t(1u << mover);
    double a = std::max(0.0, award[mover]);
    a *= 1 + w.share * 0;
    const double* q = qpow[int(kind)].data();
    c.gain = points_odds(o, q) * a * points;
    c.ret = meeple_odds(o, q) * meeple_w * 1;
    return c;
  }

  void add(std::array<double, kMaxColors>& p, double& r, const Contrib& c, double sign) const {
    for (unsigned m = c.majority; m; m &= m - 1) p[std::size_t(__builtin_ctz(m))] += sign * c.gain;
    r += sign * c.ret;
  }
  void retire(int root) {
    const std::uint8_t a = active_of[root];
    if (a == kNone8 || delta.is_gone(root)) return;
    delta.gone[delta.n_gone++] = std::uint16_t(root);
    add(delta.points, delta.returns, active[a].now, -1);
  }

  // --- per turn ------------------------------------------------------------------------

  void begin_turn(const State& st) {
    s = &st;
    k = st.colors();
    mover = st.to_move();
    next = mover + 1 == k ? 0 : mover + 1;
    has_meeple = st.supply(mover) > 0;
    tiles_left = st.unseen_total();
    meeple_w = tiles_left > 0 ? w.meeple : 0;
    empty_w = tiles_left > 0 ? w.empty : 0;
    one_w = tiles_left > 0 ? w.one : 0;
    urgent_w = tiles_left > 0 ? w.urgent : 0;
    absorb_w = absorb_weight(w, st.supply(next) == 0);
    factor_row = &factors[std::size_t(tiles_left * (kMaxTiles + 1))];
    const int low = st.lowest_score();
    for (int c = 0; c < k; ++c) {
      double& a = awards[std::size_t(st.score(c) - low)];
      if (a < 0) a = std::exp(-(st.score(c) - low) / w.balance);
      award[c] = a;
    }
    for (int c = 0; c < k; ++c) scores_now[c] = st.score(c);
    for (int used = 0; used < 2; ++used) {
      Supplies& q = quiet[used];
      q.total = q.empties = q.ones = 0;
      for (int c = 0; c < k; ++c) {
        const int n = st.supply(c) - (c == mover ? used : 0);
        q.supply[c] = n;
        q.total += n;
        q.empties += n == 0;
        q.ones += n == 1;
      }
    }
    unseen.load(st);
    std::memset(closers_cache.data(), 0xFF, sizeof closers_cache);  // all -1
    std::memset(fit_cache.data(), 0xFF, sizeof fit_cache);
    n_marked = 0;
    for (int j = 0; j < st.open_count(); ++j) {
      const OpenCell& oc = st.open_cell(j);
      open_of[oc.cell] = std::uint8_t(j);
      occ_of[j] = 0;
      side_root[j].fill(-1);
      for (unsigned b = kFeatureSides[oc.code]; b; b &= b - 1) {
        const int d = __builtin_ctz(b);
        const int v = st.tile_near(step(oc.cell, d));
        const PlacedTile& u = st.tile(v);
        const int r = st.feature_of(v, kOriented[u.type][u.rot].seg[opposite(d)]);
        side_root[j][d] = std::int16_t(r);
        if (st.feature(r).meeple_total) occ_of[j] = std::uint8_t(occ_of[j] | 1u << d);
        apply(odds_of(r), factor(closers(oc.code, d)), 1);
      }
    }
    nofree_all = 0;
    nofree_cells.fill(0);
    for (int j = 0; j < st.open_count(); ++j) {
      const TypeMask m = no_free[st.open_cell(j).code][occ_of[j]];
      nofree_of[j] = m;
      nofree_all |= m;
      for (TypeMask b = m; b; b &= b - 1) ++nofree_cells[std::size_t(__builtin_ctz(b))];
    }
    n_active = 0;
    n_monasteries = 0;
    pend.fill(0);
    ret = 0;
    for (int i = 0; i < st.tiles_on_board(); ++i) {
      const PlacedTile& t = st.tile(i);
      if (const int ms = kMonasterySeg[t.type]; ms >= 0) {
        const int r = st.feature_of(i, ms);
        if (st.feature(r).open > 0)
          monasteries[n_monasteries++] = Unfinished{std::uint16_t(r), t.x, t.y, st.feature(r).open};
      }
      if (t.meeple_seg == 0xFF) continue;
      const int r = st.feature_of(i, t.meeple_seg);
      const Feature& f = st.feature(r);
      if (f.meeple_total == 0 || active_of[r] != kNone8) continue;
      Active& a = active[n_active];
      active_of[r] = std::uint8_t(n_active++);
      a.root = std::uint16_t(r);
      if (f.kind == SegKind::monastery) {
        const MonasteryCells m = monastery_cells(t.cell, -1);
        a.odds = Odds{};
        a.odds.sides = m.sides;
        a.odds.zeros = m.zeros;
      } else {
        a.odds = odds_of(r);
      }
      a.now = contrib(f.kind, a.odds, f.tiles, f.pennants, f.meeples, f.meeple_total);
      add(pend, ret, a.now, 1);
    }
  }

  void end_turn() {
    for (int j = 0; j < s->open_count(); ++j) open_of[s->open_cell(j).cell] = kNone8;
    for (int i = 0; i < n_marked; ++i) is_marked[marked[i]] = false;
    for (int i = 0; i < n_active; ++i) active_of[active[i].root] = kNone8;
  }

  // --- per cell ------------------------------------------------------------------------

  // The cell's neighbourhood (what CellNeighbours::load finds, read off the turn's
  // tables: the constraint code shows which edges have a tile) and what the heuristic
  // asks of it.
  void load_cell(int type, const Placement& pl) {
    CellView& v = cell;
    CellNeighbours& nb = v.nb;
    const int jx = open_of[pl.cell];
    v.code = s->open_cell(jx).code;
    nb.cell = pl.cell;
    nb.occupied = kOccupied[v.code];
    nb.empty = 4 - kBits4[nb.occupied];
    for (int d = 4; d < 8; ++d) nb.empty += s->tile_near(step(pl.cell, d)) < 0;
    // Unfinished monasteries around, in the order of the 8 directions.
    nb.n_near = 0;
    nb.near_completes = false;
    std::array<std::uint8_t, 8> at;
    unsigned near_dirs = 0;
    for (int i = 0; i < n_monasteries; ++i) {
      const unsigned dx = unsigned(monasteries[i].x - pl.x + 1), dy = unsigned(monasteries[i].y - pl.y + 1);
      if (dx <= 2 && dy <= 2) {
        const int d = kStepDir[dy][dx];
        at[d] = std::uint8_t(i);
        near_dirs |= 1u << d;
      }
    }
    if (near_dirs) {
      for (unsigned b = near_dirs; b; b &= b - 1) {
        const Unfinished& m = monasteries[at[std::size_t(__builtin_ctz(b))]];
        nb.near[nb.n_near++] = NearMonastery{m.root, std::uint8_t(m.open - 1)};
        nb.near_completes |= m.open == 1;
      }
    }
    // Edges: the board feature behind each, and the open cells beside.
    v.n_sides = 0;
    v.active_edges = 0;
    std::array<std::uint8_t, 5> skip{std::uint8_t(jx), kNone8, kNone8, kNone8, kNone8};
    for (int d = 0; d < 4; ++d) {
      const int root = side_root[jx][d];
      nb.root[d] = std::int16_t(root);
      nb.root_meeples[d] = 0;
      v.opened[d] = {nullptr, nullptr};
      v.open[d] = kNone8;
      v.code_near[d] = 0;
      v.occ_near[d] = 0;
      if (root >= 0) {
        const Feature& f = s->feature(root);
        nb.root_meeples[d] = f.meeple_total;
        v.edge_feature[d] = EdgeFeature{std::uint16_t(root), f.open, f.tiles, f.pennants,
                                        f.meeple_total, pack(f.meeples),
                                        is_marked[root] ? &odds[root] : &kNoOdds,
                                        &factor(closers(v.code, d))};
        v.active_edges = std::uint8_t(v.active_edges | (active_of[root] != kNone8) << d);
        continue;
      }
      if (nb.occupied >> d & 1) continue;
      const std::uint8_t j = open_of[step(pl.cell, d)];
      if (j == kNone8) continue;
      v.open[d] = j;
      skip[d + 1] = j;
      v.code_near[d] = s->open_cell(j).code;
      v.occ_near[d] = occ_of[j];
      for (unsigned b = kFeatureSides[v.code_near[d]]; b; b &= b - 1) {
        const int d2 = __builtin_ctz(b);
        const int r = side_root[j][d2];
        if (active_of[r] != kNone8)
          v.sides[v.n_sides++] = NearSide{std::uint8_t(d), std::uint8_t(d2), std::uint16_t(r)};
      }
    }
    nb.shared_root = false;
    for (int a = 1; a < 4; ++a)
      for (int b = 0; b < a; ++b) nb.shared_root |= nb.root[a] >= 0 && nb.root[a] == nb.root[b];
    // Absorbing types at every open cell but this one and those beside it: a type drops
    // out when all the open cells that absorb it are among those.
    TypeMask skipped = 0;
    for (const std::uint8_t j : skip)
      if (j != kNone8) skipped |= nofree_of[j];
    v.nofree_base = nofree_all;
    for (TypeMask b = skipped; b; b &= b - 1) {
      const int t = __builtin_ctz(b);
      int here = 0;
      for (const std::uint8_t j : skip) here += j != kNone8 && (nofree_of[j] >> t & 1);
      if (here == nofree_cells[t]) v.nofree_base &= ~(TypeMask(1) << t);
    }
    v.nofree_base_count = unseen.count(v.nofree_base);
    v.n_monasteries = 0;
    for (int i = 0; i < nb.n_near; ++i) {
      const NearMonastery& m = nb.near[i];
      if (active_of[m.root] != kNone8)
        v.monasteries[v.n_monasteries++] = NearActive{
            m.root, m.open_after, monastery_cells(s->tile(m.root / kMaxSegs).cell, pl.cell)};
    }
    if (kMonasterySeg[type] >= 0) v.own = monastery_cells(pl.cell, pl.cell);
  }

  // The factor of the side that a tile showing `edge` (city or road) at d opens there.
  const Factor& opened(int d, int edge) {
    const Factor*& f = cell.opened[d][edge - 1];
    if (!f) {
      const int od = opposite(d);
      f = &factor(closers(cell.code_near[d] | edge << (2 * od), od));
    }
    return *f;
  }

  // What analyse_placement and expect_features do, in one pass, when no board feature is
  // behind two edges of the cell (then every segment is a feature of its own, and the
  // features it joins are distinct): the same results in the same order.
  void analyse_and_expect(int type, const Oriented& o) {
    const TileDef& def = kBaseTiles[type];
    const unsigned occupied = cell.nb.occupied;
    const int nseg = def.nseg;
    unsigned free_mask = 0;
    bool completes = cell.nb.near_completes;
    for (int sg = 0; sg < nseg; ++sg) {
      const SegDef& sd = def.segs[sg];
      JoinedFeature f;
      f.kind = sd.kind;
      f.segs = std::uint8_t(1u << sg);
      f.n_roots = 0;
      e.feat_of_seg[sg] = std::int8_t(sg);
      Odds fo{};
      if (sd.kind == SegKind::monastery) {
        f.open = std::uint8_t(cell.nb.empty);
        f.tiles = 1;
        f.pennants = 0;
        f.meeple_total = 0;
        f.meeples.fill(0);
        free_mask |= f.segs;
        if (f.open == 0)
          completes = true;
        else
          fo = monastery_odds(cell.own, o);
        e.feats[sg] = f;
        feat_odds[sg] = fo;
        continue;
      }
      const unsigned edges = o.seg_edges[sg], joined = edges & occupied;
      int open = kBits4[edges & ~joined], tiles = 1, pennants = sd.pennant, total = 0;
      std::uint64_t meeples = 0;
      for (unsigned b = joined; b; b &= b - 1) {
        const EdgeFeature& ef = cell.edge_feature[std::size_t(__builtin_ctz(b))];
        f.roots[f.n_roots++] = ef.root;
        open += ef.open - 1;
        tiles += ef.tiles;
        pennants += ef.pennants;
        total += ef.meeple_total;
        meeples += ef.meeples;
      }
      f.open = std::uint8_t(open);
      f.tiles = std::uint8_t(tiles);
      f.pennants = std::uint8_t(pennants);
      f.meeple_total = std::uint8_t(total);
      f.meeples = unpack(meeples);
      if (total == 0) free_mask |= f.segs;
      for (unsigned b = joined & cell.active_edges; b; b &= b - 1)
        retire(cell.edge_feature[std::size_t(__builtin_ctz(b))].root);
      if (f.open == 0) {
        completes = true;
      } else {
        for (unsigned b = joined; b; b &= b - 1) {
          const Odds& ro = *cell.edge_feature[std::size_t(__builtin_ctz(b))].odds;
          fo.log_m += ro.log_m;
          fo.log_p += ro.log_p;
          fo.zeros += ro.zeros;
        }
        for (unsigned b = edges; b; b &= b - 1) {
          const int d = __builtin_ctz(b);
          if (joined >> d & 1)
            apply(fo, *cell.edge_feature[d].closed, -1);
          else
            apply(fo, opened(d, o.edge[d]), 1);
        }
        if (total)
          add(delta.points, delta.returns,
              contrib(f.kind, fo, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
      }
      e.feats[sg] = f;
      feat_odds[sg] = fo;
    }
    e.n_feats = nseg;
    e.free_mask = std::uint8_t(free_mask);
    e.completes = completes;
  }


  // --- per placement: the colours' expectations ----------------------------------------

  // The features the tile belongs to: the board features it joins give way to the joined
  // feature, whose odds are theirs with this cell's sides taken out and the new open sides
  // put in.
  void expect_features(const Oriented& o) {
    for (int i = 0; i < e.n_feats; ++i) {
      const JoinedFeature& f = e.feats[i];
      for (int r = 0; r < f.n_roots; ++r) retire(f.roots[r]);
      Odds& fo = feat_odds[i];
      fo = Odds{};
      if (f.complete()) continue;
      if (f.kind == SegKind::monastery) {
        fo = monastery_odds(cell.own, o);
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
            apply(fo, factor(closers(cell.code, d)), -1);
            continue;
          }
          const int code = cell.code_near[d] | o.edge[d] << (2 * opposite(d));
          apply(fo, factor(closers(code, opposite(d))), 1);
        }
      }
      if (f.meeple_total)
        add(delta.points, delta.returns,
            contrib(f.kind, fo, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
    }
  }

  // Unfinished monasteries with meeples around the cell: one empty cell fewer.
  void expect_monasteries(const Oriented& o) {
    for (int i = 0; i < cell.n_monasteries; ++i) {
      const NearActive& m = cell.monasteries[i];
      if (delta.is_gone(m.root)) continue;
      retire(m.root);
      if (m.open_after == 0) continue;
      const Feature& f = s->feature(m.root);
      add(delta.points, delta.returns,
          contrib(f.kind, monastery_odds(m.cells, o), 1, 0, f.meeples, f.meeple_total), 1);
    }
  }

  // Open cells beside the tile get its edges too: features on their other sides may now
  // be harder (or impossible) to finish there.
  void expect_neighbour_cells(const Oriented& o) {
    for (int i = 0; i < cell.n_sides; ++i) {
      const NearSide& ns = cell.sides[i];
      if (delta.is_gone(ns.root)) continue;
      const int code = cell.code_near[ns.d];
      const int code2 = code | o.edge[ns.d] << (2 * opposite(ns.d));
      const int before = closers(code, ns.d2), after = closers(code2, ns.d2);
      if (before == after) continue;
      Odds no = active[active_of[ns.root]].odds;
      apply(no, factor(before), -1);
      apply(no, factor(after), 1);
      retire(ns.root);
      const Feature& f = s->feature(ns.root);
      add(delta.points, delta.returns,
          contrib(f.kind, no, f.tiles, f.pennants, f.meeples, f.meeple_total), 1);
    }
  }

  // Tile types the next colour could place with no free segment: at every other open cell
  // as they are (cell.nofree_base), at the cells beside this one as the move leaves them;
  // a meeple on a feature adds the sides of those cells on it.
  void absorbing(const Oriented& o) {
    pv.absorb_mask = cell.nofree_base;
    pv.absorb_extra.fill(0);
    for (unsigned b = ~cell.nb.occupied & 15u; b; b &= b - 1) {
      const int d = __builtin_ctz(b);
      const int od = opposite(d);
      const int code = cell.code_near[d] | o.edge[d] << (2 * od);
      const int occ = cell.occ_near[d];
      if (o.seg[d] >= 0) {
        const int fi = e.feat_of_seg[o.seg[d]];
        if (e.feats[fi].meeple_total) {
          pv.absorb_mask |= no_free[code][occ | 1 << od];
        } else {
          pv.absorb_mask |= no_free[code][occ];
          pv.absorb_extra[fi] |= no_free[code][occ | 1 << od];
        }
      } else {
        pv.absorb_mask |= no_free[code][occ];
      }
    }
    pv.absorb_count = cell.nofree_base_count + unseen.count(pv.absorb_mask & ~cell.nofree_base);
  }

  // Scores and supplies after the move's turn, exactly as State::place and scoring in the
  // `best` order leave them.
  void outcome(int seg, Scores& score, Scores& supply) {
    TurnScoring t;
    t.colors = k;
    for (int c = 0; c < k; ++c) {
      t.start[c] = s->score(c);
      supply[c] = s->supply(c) - (c == mover && seg != Move::kNoMeeple);
    }
    int relevant = 0;
    auto completed = [&](int points, const std::array<std::uint8_t, kMaxColors>& meeples) {
      t.points[t.n] = points;
      t.majority[t.n] = majority_of(meeples, k);
      relevant += t.majority[t.n] != 0;
      ++t.n;
      for (int c = 0; c < k; ++c) supply[c] += meeples[c];
    };
    for (int i = 0; i < e.n_feats; ++i) {
      const JoinedFeature& f = e.feats[i];
      if (!f.complete()) continue;
      std::array<std::uint8_t, kMaxColors> meeples = f.meeples;
      if (seg != Move::kNoMeeple && (f.segs >> seg & 1)) ++meeples[mover];
      // The analysis may count a tile twice when it joins several board features.
      const int tiles = f.n_roots > 1 ? 1 + s->distinct_tiles({f.roots.data(), f.n_roots}) : f.tiles;
      completed(feature_points(f.kind, tiles, f.pennants), meeples);
    }
    for (int i = 0; i < cell.nb.n_near; ++i)
      if (cell.nb.near[i].open_after == 0) completed(9, s->feature(cell.nb.near[i].root).meeples);
    std::array<std::uint8_t, kMaxCompleted> order;
    if (relevant > 1) {
      best.solve(t, order);
    } else {  // one feature awards at most: the order does not matter
      for (int i = 0; i < t.n; ++i) order[i] = std::uint8_t(i);
    }
    score_in_order(t, {order.data(), std::size_t(t.n)}, score);
  }

  // --- per meeple option -------------------------------------------------------------------

  // The terms of the option with the meeple on segment `seg` (kNoMeeple: none).
  [[gnu::always_inline]] HeuristicTerms terms(int seg) {
    std::array<double, kMaxColors> p = pv.expect;
    double r = pv.returns;
    const JoinedFeature* meeple_on = nullptr;
    int absorbing_unseen = pv.absorb_count;
    if (seg != Move::kNoMeeple) {
      const int fi = e.feat_of_seg[seg];
      const JoinedFeature& f = e.feats[fi];
      meeple_on = &f;
      if (!f.complete()) {
        const Contrib c = fresh_contrib(f.kind, feat_odds[fi], f.tiles, f.pennants);
        p[mover] += 1.0 * c.gain;  // add(p, r, c, 1): the mover is its only majority colour
        r += 1.0 * c.ret;
      }
      absorbing_unseen += unseen.count(pv.absorb_extra[fi] & ~pv.absorb_mask);
    }
    HeuristicTerms v;
    if (e.completes) [[unlikely]] {
      outcome_terms(seg, p, r, v);
    } else {
      const Supplies& q = quiet[seg != Move::kNoMeeple];
      v.scores = expected_scores_term(w, k, scores_now.data(), p.data(), pv.ends);
      v.supply = supply_term(meeple_w, q.total, r);
      v.empty = empty_term(empty_w, q.empties);
      v.one = one_term(one_w, q.ones);
      v.urgent = urgent_term(urgent_w, q.supply[next] == 0);
    }
    v.ended = pv.ends;
    v.compact = pv.compact;
    v.sink = sink_term(pv.sink, w.sink, meeple_on);
    if (w.absorb != 0 && tiles_left > 0) v.absorb = absorb_term(absorb_w, absorbing_unseen, tiles_left);
    return v;
  }
  // The terms that read the scores and supplies, for a move that completes something.
  [[gnu::noinline]] void outcome_terms(int seg, const std::array<double, kMaxColors>& p, double r,
                                       HeuristicTerms& v) {
    Scores score, supply;
    outcome(seg, score, supply);
    int in_supply = 0, empties = 0, ones = 0;
    for (int c = 0; c < k; ++c) {
      in_supply += supply[c];
      empties += supply[c] == 0;
      ones += supply[c] == 1;
    }
    v.scores = expected_scores_term(w, k, score.data(), p.data(), pv.ends);
    v.supply = supply_term(meeple_w, in_supply, r);
    v.empty = empty_term(empty_w, empties);
    v.one = one_term(one_w, ones);
    v.urgent = urgent_term(urgent_w, supply[next] == 0);
  }

  // Every meeple option of one placement: emit(move, terms).
  template <class Emit>
  void placement(int type, const Placement& pl, Emit&& emit) {
    if (pl.cell != cell.nb.cell) load_cell(type, pl);
    const Oriented& o = kOriented[type][pl.rot];
    delta.points.fill(0);
    delta.returns = 0;
    delta.n_gone = 0;
    if (cell.nb.shared_root) {
      analyse_placement(*s, type, pl, cell.nb, e);
      expect_features(o);
    } else {
      analyse_and_expect(type, o);
    }
    expect_monasteries(o);
    expect_neighbour_cells(o);
    pv.expect = pend;
    for (int c = 0; c < k; ++c) pv.expect[c] += delta.points[c];
    pv.returns = ret + delta.returns;
    pv.sink = sink_placement(w.sink, *s, e);
    pv.ends = e.free_mask != 0 && !has_meeple && tiles_left > 0;
    pv.compact = compact_term(w, 8 - cell.nb.empty);
    absorbing(o);
    std::uint8_t options = has_meeple ? e.free_mask : 0;
    do {
      Move m{pl, Move::kNoMeeple};
      if (options) {
        m.seg = std::uint8_t(__builtin_ctz(options));
        options &= std::uint8_t(options - 1);
      }
      emit(m, terms(m.seg));
    } while (options);
  }

  int evaluate(int type, std::span<const Placement> legal, ScoredMove* out) {
    int n = 0;
    cell.nb.cell = -1;
    // Where each rotation's options went at the current cell: a rotation that turns the
    // tile into the very same oriented tile as an earlier one (U turned twice, any turn
    // of B) has the same options with the same values.
    std::array<int, 4> first{}, count{};
    int at_cell = -1;
    std::uint8_t done = 0;
    for (const Placement& pl : legal) {
      if (pl.cell != at_cell) {
        at_cell = pl.cell;
        done = 0;
      }
      const int same = kSameRotation[type][pl.rot];
      if (done >> same & 1) {
        for (int i = 0; i < count[same]; ++i) {
          out[n] = out[first[same] + i];
          out[n++].move.at = pl;
        }
        continue;
      }
      first[pl.rot] = n;
      placement(type, pl, [&](const Move& m, const HeuristicTerms& t) {
        out[n++] = ScoredMove{m, t.total()};
      });
      count[pl.rot] = n - first[pl.rot];
      done = std::uint8_t(done | 1u << pl.rot);
    }
    return n;
  }
};

HeuristicEvaluator::HeuristicEvaluator(const HeuristicWeights& w)
    : impl_(std::make_unique<Impl>(w)) {}
HeuristicEvaluator::~HeuristicEvaluator() = default;

int HeuristicEvaluator::evaluate(const State& s, int type, std::span<const Placement> legal,
                                 ScoredMove* out, Rng&) {
  impl_->begin_turn(s);
  const int n = impl_->evaluate(type, legal, out);
  impl_->end_turn();
  return n;
}

HeuristicTerms HeuristicEvaluator::terms(const State& s, int type, const Move& m) {
  impl_->begin_turn(s);
  impl_->cell.nb.cell = -1;
  HeuristicTerms found, first;
  bool matched = false, any = false;
  impl_->placement(type, m.at, [&](const Move& option, const HeuristicTerms& t) {
    if (!any) first = t;
    any = true;
    if (option.seg == m.seg) {
      found = t;
      matched = true;
    }
  });
  if (!matched) found = first;  // the only option is then the one without a meeple
  impl_->end_turn();
  return found;
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
