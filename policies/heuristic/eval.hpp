// The state of HeuristicEvaluator (policies/heuristic/heuristic.hpp) and what it computes, by what
// it depends on: per turn (begin_turn, turn.cpp) the chances of every unfinished
// feature and the expectations of those with meeples; per cell (load_cell,
// cell.cpp) the board around it, shared by every rotation of the tile there;
// per placement (cell.cpp) the features the tile joins and the changes to the
// expectations; per meeple option (move.cpp) the terms of terms.hpp.
// Internal to the heuristic's files.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "policies/heuristic/heuristic.hpp"
#include "policies/heuristic/odds.hpp"
#include "policies/placement_analysis.hpp"
#include "policies/turn_scoring.hpp"
#include "policies/type_masks.hpp"

namespace carc {
namespace heuristic {

inline constexpr std::uint8_t kNoOpen = 0xFF;     // open_of of a cell that is not open
inline constexpr std::uint8_t kNotActive = 0xFF;  // active_of of a feature without meeples
inline constexpr std::int16_t kNoRoot = -1;       // side_root of a side with no road or city behind
inline constexpr int kMaxActive = kMaxColors * (kMaxMeeples + 1);  // with the large meeples

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
inline constexpr auto kFeatureSides = [] {
  std::array<std::uint8_t, kCodes> t{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d) {
      const int e = code_edge(std::uint8_t(code), d);
      if (e == kCity || e == kRoad) t[code] = std::uint8_t(t[code] | 1u << d);
    }
  return t;
}();

static_assert(kFeatureSides[0] == 0, "code 0 (no neighbours) has no feature sides");

// kOccupied[code]: the edges of an open cell with a tile behind them.
inline constexpr auto kOccupied = [] {
  std::array<std::uint8_t, kCodes> t{};
  for (int code = 0; code < kCodes; ++code)
    for (int d = 0; d < 4; ++d)
      if (code_edge(std::uint8_t(code), d) != kNone) t[code] = std::uint8_t(t[code] | 1u << d);
  return t;
}();

// kStepDir[dy + 1][dx + 1]: the step() direction of the neighbour at offset (dx, dy).
inline constexpr auto kStepDir = [] {
  std::array<std::array<std::uint8_t, 3>, 3> t{};
  for (int d = 0; d < 8; ++d) t[kDy[d] + 1][kDx[d] + 1] = std::uint8_t(d);
  return t;
}();

// kBits4[m]: the number of bits set in a 4-bit mask.
inline constexpr std::array<std::uint8_t, 16> kBits4 = {0, 1, 1, 2, 1, 2, 2, 3,
                                                        1, 2, 2, 3, 2, 3, 3, 4};

// kSameRotation[type][rot]: the smallest rotation that gives the very same oriented tile
// (edges, segments and their numbering) as `rot`.
inline constexpr auto kSameRotation = [] {
  std::array<std::array<std::uint8_t, 4>, kTileTypes> t{};
  for (int type = 0; type < kTileTypes; ++type)
    for (int r = 0; r < 4; ++r) {
      t[type][r] = std::uint8_t(r);
      for (int r2 = r - 1; r2 >= 0; --r2) {
        const Oriented& a = kOriented[type][r];
        const Oriented& b = kOriented[type][r2];
        if (a.edge == b.edge && a.seg == b.seg && a.seg_edges == b.seg_edges)
          t[type][r] = std::uint8_t(r2);
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
  std::uint8_t marks, large;  // 0 unless the game can have them (JoinedFeature)
  std::uint64_t meeples;  // per colour, one byte each
  const Odds* odds;       // its odds from the open cells (all zero when it has none)
  const Factor* closed;   // the factor of its side at this cell, which the tile closes
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
inline constexpr Odds kNoOdds{};

// The board around a cell, shared by the placements there (M: the mask width).
template <MaskWidth M>
struct CellView {
  CellNeighbours nb;
  int code = 0;                             // the cell's constraint code
  std::array<std::uint8_t, 4> open{};       // open index of the neighbour at d, or kNoOpen
  std::array<std::uint8_t, 4> code_near{};  // its code (0: not open)
  std::array<std::uint8_t, 4> occ_near{};   // its sides on occupied features
  M nofree_base = 0;                        // absorbing tile types at every other open cell
  int nofree_base_count = 0;
  int n_sides = 0;
  std::array<NearSide, 12> sides;
  int n_monasteries = 0;
  std::array<NearActive, 8> monasteries;
  MonasteryCells own;  // the placed tile's own monastery, if it has one
  // Per edge d with a board feature behind it: what the tile joins there.
  std::array<EdgeFeature, 4> edge_feature{};
  std::uint8_t active_edges = 0;  // bit d: that feature is active
};

// What the meeple options of one placement share.
template <MaskWidth M>
struct PlacementView {
  std::array<double, kMaxColors> expect{};  // expected points per colour, without the meeple
  double returns = 0;
  double sink = 0;  // the sink term without the meeple
  double compact = 0;
  bool ends = false;
  M absorb_mask = 0;  // absorbing types, without the meeple
  int absorb_count = 0;
  std::array<M, kMaxSegs> absorb_extra{};  // more of them with the meeple on feature i
};

// The evaluator (HeuristicEvaluator's implementation), compiled for each mask width
// (type_masks.hpp): BaseMask for the positions of base games, TypeMask for those of games
// with the expansions' types. The two give the same values on a base game.
template <MaskWidth M>
struct Evaluator {
  HeuristicWeights w;
  BestOrder best;
  std::array<std::array<double, kMaxSides + 1>, 3> qpow{};  // q^n per SegKind
  const NoFreeTable<M>& no_free = no_free_table<M>();
  ExpCache exp;
  // Factors by (tiles unseen, closers), and award weights by score gap: computed once.
  std::vector<Factor> factors;
  std::vector<double> awards;

  // Per turn.
  const State* s = nullptr;
  int k = 0, tiles_left = 0, mover = 0, next = 0;
  bool has_meeple = false;
  bool ext = false;  // the game deals types beyond the base set's: its features may carry marks
  bool large_game = false;  // the large meeple plays (State::large_meeple)
  bool two_figures = false;  // the mover holds a meeple and the large meeple: it chooses
  bool large_only = false;   // the large meeple is the mover's only figure: it goes
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
  UnseenCounts<M> unseen;
  Factor* factor_row = nullptr;
  std::array<std::uint8_t, kCells> open_of;
  // Per open cell: its sides on occupied features, and its code; both 0 at kNoOpen.
  std::array<std::uint8_t, kNoOpen + 1> occ_of{};
  std::array<std::uint8_t, kNoOpen + 1> open_code{};
  // Per open cell: no_free of it; nofree_of[kNoOpen] stays 0 (no cell there: nothing absorbed).
  std::array<M, kNoOpen + 1> nofree_of{};
  TypeCounts<M> nofree_cells;  // per type: open cells absorbing it
  M nofree_all = 0;
  int nofree_all_count = 0;  // unseen.count(nofree_all)
  std::array<std::int16_t, kCodes> fit_cache;
  // side_factor(code, d); nullptr: not known this turn. Only the entries in side_set are
  // not null (begin_turn resets them: a turn uses few of the 1,024).
  std::array<const Factor*, kCodes * 4> side_cache{};
  std::array<std::uint16_t, kCodes * 4> side_set;
  int n_side_set = 0;
  std::array<std::array<std::int16_t, 4>, kMaxOpen> side_root{};
  std::array<std::array<const Factor*, 4>, kMaxOpen> open_side_factor{};  // where side_root is set
  std::array<Odds, kSlots> odds;                     // per feature root, from its open cells
  std::array<std::uint16_t, 4 * kMaxOpen> marked{};  // roots whose odds are set
  int n_marked = 0;
  std::array<bool, kSlots> is_marked;
  std::array<std::uint8_t, kSlots> active_of;  // index into active, or kNotActive
  std::array<Active, kMaxActive> active{};
  int n_active = 0;
  struct Unfinished {  // an unfinished monastery
    std::uint16_t root;
    std::int8_t x, y;
    std::uint8_t open;
  };
  std::array<Unfinished, kMaxMonasteries> monasteries{};
  int n_monasteries = 0;
  // Per open cell: bit d when an unfinished monastery is in direction d of it, and which
  // (index into monasteries).
  std::array<std::uint8_t, kMaxOpen> monastery_dirs{};
  std::array<std::array<std::uint8_t, 8>, kMaxOpen> monastery_at{};
  // Per unfinished monastery, once a cell near it asks (bit i of around_known): bit d of
  // `empty` when the cell in direction d of it is empty, of `zero` when that cell is also
  // open and no unseen tile fits it (load_cell).
  struct Around {
    std::uint8_t empty, zero;
  };
  std::array<Around, kMaxMonasteries> around{};
  unsigned around_known = 0;

  // Per cell and per placement.
  CellView<M> cell;
  PlacementEffect e;
  Delta delta;
  std::array<Odds, kMaxSegs> feat_odds{};
  PlacementView<M> pv;

  explicit Evaluator(const HeuristicWeights& weights)
      : w(weights), factors((kMaxTiles + 1) * (kMaxTiles + 1)), awards(kScoreLimit, -1.0) {
    const std::array<double, 3> q{w.road_q, w.city_q, w.monastery_q};  // SegKind order
    for (int kind = 0; kind < 3; ++kind) {
      qpow[kind][0] = 1;
      for (int i = 1; i <= kMaxSides; ++i) qpow[kind][i] = qpow[kind][i - 1] * q[kind];
    }
    open_of.fill(kNoOpen);
    is_marked.fill(false);
    active_of.fill(kNotActive);
  }

  // --- chances -----------------------------------------------------------------------

  // Unseen tiles that would end the feature on side d of an open cell of this code.
  int closers(int code, int d) const { return unseen.count(closes<M>(code, d)); }
  // Unseen tiles that fit an open cell of this code.
  int fit(int code) {
    std::int16_t& c = fit_cache[code];
    if (c < 0) c = std::int16_t(unseen.count(kFitMask<M>[code]));
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

  // The factor of side d of an open cell of this code: factor(closers(code, d)), kept
  // for the turn (equal counts give the same factor, so two sides compare by address).
  const Factor& side_factor(int code, int d) {
    const std::size_t i = std::size_t(code * 4 + d);
    const Factor*& f = side_cache[i];
    if (!f) {
      f = &factor(closers(code, d));
      side_set[std::size_t(n_side_set++)] = std::uint16_t(i);
    }
    return *f;
  }

  Odds& odds_of(int root) {
    if (!is_marked[root]) {
      is_marked[root] = true;
      odds[root] = Odds{};
      marked[n_marked++] = std::uint16_t(root);
    }
    return odds[root];
  }

  // The odds of a monastery whose cells are `m` (load_cell) once the tile `o` is
  // placed: the cells beside the tile are open then and show its edges.
  Odds monastery_odds(const MonasteryCells& m, const Oriented& o) {
    Odds odds;
    odds.sides = m.sides;
    odds.zeros = m.zeros;
    for (std::uint8_t b = m.beside; b; b &= std::uint8_t(b - 1)) {
      const int d = std::countr_zero(b);
      ++odds.sides;
      odds.zeros += fit(cell.code_near[d] | (o.edge[d] & 3) << (2 * opposite(d))) == 0;
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

  // The points a feature would score, at the rates of its marks (expansions.md) as the
  // weights value them (`inn`, `cathedral`: the rules' 2 and 3 by default).
  double points_of(SegKind kind, int tiles, int pennants, std::uint8_t marks) const {
    if (marks) [[unlikely]] {
      if (kind == SegKind::road) return (marks & kMarkInn ? w.inn : 1.0) * tiles;
      if (kind == SegKind::city) return (marks & kMarkCathedral ? w.cathedral : 2.0) * (tiles + pennants);
    }
    return kind == SegKind::road ? tiles : kind == SegKind::city ? 2 * (tiles + pennants) : 9;
  }
  // The figures on a feature: the weight of its meeples less one per large meeple.
  static int figures_of(int meeple_total, std::uint8_t large) {
    return meeple_total - std::popcount(unsigned(large));
  }

  // What a feature with meeples is expected to bring (`large`: the colours of the large
  // meeples on it, which weigh 2 in `meeples` and `meeple_total` but come back as one).
  Contrib contrib(SegKind kind, const Odds& o, int tiles, int pennants, std::uint8_t marks,
                  std::uint8_t large, const std::array<std::uint8_t, kMaxColors>& meeples,
                  int meeple_total) {
    Contrib c;
    if (meeple_total == 0) return c;
    const double points = points_of(kind, tiles, pennants, marks);
    double a = 0;
    int shared = -1;
    if (meeple_total == 1) {  // the common case: one meeple, its colour alone in the majority
      int i = 0;
      while (meeples[std::size_t(i)] == 0) ++i;
      c.majority = std::uint8_t(1u << i);
      a = std::max(a, award[std::size_t(i)]);
      shared = 0;
    } else {
      int most = 0;
      for (int i = 0; i < k; ++i) most = std::max<int>(most, meeples[i]);
      for (int i = 0; i < k; ++i)
        if (meeples[i] == most) {
          c.majority = std::uint8_t(c.majority | 1u << i);
          a = std::max(a, award[i]);
          ++shared;
        }
    }
    a *= 1 + w.share * shared;
    const double* q = qpow[int(kind)].data();
    c.gain = points_odds(o, q) * a * points;
    c.ret = meeple_odds(o, q) * meeple_w * figures_of(meeple_total, large);
    return c;
  }
  // contrib() of a feature with no figure but the mover's new one (a free segment's).
  Contrib fresh_contrib(SegKind kind, const Odds& o, int tiles, int pennants, std::uint8_t marks) {
    Contrib c;
    const double points = points_of(kind, tiles, pennants, marks);
    c.majority = std::uint8_t(1u << mover);
    double a = std::max(0.0, award[mover]);
    a *= 1 + w.share * 0;
    const double* q = qpow[int(kind)].data();
    c.gain = points_odds(o, q) * a * points;
    c.ret = meeple_odds(o, q) * meeple_w * 1;
    return c;
  }

  void add(std::array<double, kMaxColors>& p, double& r, const Contrib& c, double sign) const {
    for (unsigned m = c.majority; m; m &= m - 1)
      p[std::size_t(std::countr_zero(m))] += sign * c.gain;
    r += sign * c.ret;
  }
  void retire(int root) {
    const std::uint8_t a = active_of[root];
    if (a == kNotActive || delta.is_gone(root)) return;
    delta.gone[delta.n_gone++] = std::uint16_t(root);
    add(delta.points, delta.returns, active[a].now, -1);
  }

  // --- per turn (turn.cpp) ---------------------------------------------------
  [[gnu::hot]] void begin_turn(const State& st);
  [[gnu::hot]] void end_turn();
  // begin_turn's parts, in its order (always inlined there, in its hot code).
  [[gnu::always_inline]] inline void load_colours(const State& st);
  [[gnu::always_inline]] inline void load_open_cells(const State& st);
  [[gnu::always_inline]] inline void load_active_features(const State& st);
  [[gnu::always_inline]] inline void load_monasteries_near(const State& st);

  // --- per cell and per placement (cell.cpp) ---------------------------------
  // The cell's neighbourhood (what CellNeighbours::load finds, read off the turn's
  // tables: the constraint code shows which edges have a tile) and what the heuristic
  // asks of it.
  [[gnu::hot]] void load_cell(int type, const Placement& pl);
  // load_cell's parts, in its order (always inlined there: it runs once per cell and turn).
  [[gnu::always_inline]] inline void load_corners(int type, int at);
  [[gnu::always_inline]] inline void load_near_monasteries(int jx);
  [[gnu::always_inline]] inline const Around& around_monastery(int i, int root);
  [[gnu::always_inline]] inline void load_edge_features(int jx);
  [[gnu::always_inline]] inline void load_empty_sides(int at, TypeCounts<M>& here, M& in);
  // Adds the tile types open cell j absorbs (kNoOpen absorbs nothing) to `here` and `in`.
  void absorbs(int j, TypeCounts<M>& here, M& in) const {
    if (const M m = nofree_of[std::size_t(j)]) {
      here.add(m);
      in |= m;
    }
  }
  // The factor of the side that a tile showing `edge` (city or road) at d opens there.
  const Factor& opened(int d, int edge) {
    const int od = opposite(d);
    return side_factor(cell.code_near[d] | (edge & 3) << (2 * od), od);
  }
  // What analyse_placement and expect_features do, in one pass, when no board feature is
  // behind two edges of the cell (then every segment is a feature of its own, and the
  // features it joins are distinct): the same results in the same order.
  [[gnu::hot]] void analyse_and_expect(int type, const Oriented& o);
  // Its features by the segment's kind, always inlined there (it runs once per placement).
  [[gnu::always_inline]] inline Odds own_monastery(JoinedFeature& f, const Oriented& o);
  [[gnu::always_inline]] inline Odds lone_segment(const SegDef& sd, unsigned edges, JoinedFeature& f,
                                                  const Oriented& o);
  [[gnu::always_inline]] inline Odds joined_segment(const SegDef& sd, unsigned edges, unsigned joined,
                                                    JoinedFeature& f, const Oriented& o);
  // The features the tile belongs to: the board features it joins give way to the joined
  // feature, whose odds are theirs with this cell's sides taken out and the new open sides
  // put in.
  void expect_features(const Oriented& o);
  // Unfinished monasteries with meeples around the cell: one empty cell fewer.
  [[gnu::hot]] void expect_monasteries(const Oriented& o);
  // Open cells beside the tile get its edges too: features on their other sides may now
  // be harder (or impossible) to finish there.
  [[gnu::hot]] void expect_neighbour_cells(const Oriented& o);

  // --- per meeple option (move.cpp) ----------------------------------------
  // Tile types the next colour could place with no free segment: at every other open cell
  // as they are (cell.nofree_base), at the cells beside this one as the move leaves them;
  // a meeple on a feature adds the sides of those cells on it.
  inline void absorbing(const Oriented& o);
  // The terms of the option with the meeple on segment `seg` (kNoMeeple: none).
  // With `large` (not null), also the option with the large meeple on `seg` instead,
  // written there when the large meeple's weight can matter (large_weight), and
  // `large_found` says whether it was (with `large_only`: whether its term was found).
  [[gnu::always_inline]] inline HeuristicTerms terms(int seg, HeuristicTerms* large = nullptr);
  bool large_found = false;
  // The `large` term of the large meeple on segment `seg` (heuristic.hpp): false when no
  // occupied feature faces its feature (then its weight cannot matter, and the option is
  // the meeple's) or, while the colour also holds a meeple, when the term is not positive.
  // `p` the expected points per colour, `score` the scores after the move.
  [[gnu::noinline]] bool large_weight(int seg, const std::array<double, kMaxColors>& p, const int* score,
                                      double scores, double& out);
  const Placement* placing = nullptr;  // the placement whose options are being valued
  int placing_type = 0;
  // The terms that read the scores and supplies, for a move that completes something.
  [[gnu::noinline, gnu::hot]] void outcome_terms(int seg, const std::array<double, kMaxColors>& p, double r,
                                                 HeuristicTerms& v, Scores& score);
  // Every meeple option of one placement: emit(move, terms).
  template <class Emit>
  [[gnu::hot]] void placement(int type, const Placement& pl, Emit&& emit);
  inline int evaluate(int type, std::span<const Placement> legal, ScoredMove* out);
};

}  // namespace heuristic
}  // namespace carc
