// The engine under arbitrary input: bytes choose the colours, meeples, tile order, every
// placement, meeple and scoring order, and after every step the incremental state is
// checked against a brute-force recomputation from the board alone (tile catalogue data,
// rotations and flood fills written here, not the engine's derived tables):
// legal placements (every empty cell next to a tile, every rotation, edge matching), free
// segments, feature membership, open edges, sizes, pennants and meeples per feature;
// tiles and meeples conserved; scores never decrease; every scored feature really is
// closed, was completed by this placement and never scores twice; and no completed
// feature goes unscored. Used by the libFuzzer target fuzz_engine and by ctest (corpus and
// seeded random inputs).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/state.hpp"
#include "core/turn.hpp"

namespace carc::fuzz {

struct Violation : std::logic_error {
  using std::logic_error::logic_error;
};

// Decisions drawn from the input; zeros once it is used up.
class ByteSource {
 public:
  ByteSource(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}
  int below(int bound) {  // in [0, bound)
    if (bound <= 1) return 0;
    unsigned v = 0;
    for (int b = 0; b < (bound > 256 ? 2 : 1); ++b) v = v << 8 | (p_ < end_ ? *p_++ : 0u);
    return int(v % unsigned(bound));
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

class EngineChecker {
 public:
  explicit EngineChecker(ByteSource& in) : in_(in) {}

  void play() {
    const int k = 2 + in_.below(5), m = 1 + in_.below(12);
    deal(k);
    State s = State::initial(Config{k, m});
    meeples_ = m;
    add_tile(Shadow{kStartType, 0, 0, 0, -1, -1});
    need(s.tile(0).type == kStartType && s.tile(0).x == 0 && s.tile(0).y == 0 && s.tile(0).rot == 0,
         "the start tile");
    scores_.assign(std::size_t(k), 0);
    for (int c = 0; c < k; ++c) scores_[std::size_t(c)] = c + 1;
    check_state(s);
    while (!s.ended()) {
      const int c = s.to_move();
      forced_missing_ = false;
      play_turn(s, *this);
      bool all_empty = true;
      for (int i = 0; i < k; ++i) all_empty &= next_[std::size_t(i)] == stack_end(i);
      need(s.ended() == (all_empty || forced_missing_), "the game ends exactly when the rules say");
      if (s.ended())
        need(s.end_reason() == (all_empty ? EndReason::tiles_exhausted : EndReason::no_meeple),
             "end reason");
      if (!s.ended()) {
        int want = c;
        do want = (want + 1) % k;
        while (next_[std::size_t(want)] == stack_end(want));
        need(s.to_move() == want, "the next colour with tiles moves next");
      }
    }
    int standing = 0;
    for (const auto& t : tiles_) standing += t.meeple_color >= 0;
    final_left_ = standing;
    play_final_scoring(s, *this);
    need(final_left_ == 0, "final scoring visits every meeple on the board");
    need(s.result() == *std::min_element(scores_.begin(), scores_.end()), "result is the lowest score");
  }

  // --- Env of core/turn.hpp ----------------------------------------------------------
  int draw(int c) {
    need(next_[std::size_t(c)] < stack_end(c), "draws only from a non-empty stack");
    return deck_[std::size_t(next_[std::size_t(c)]++)];
  }

  Move choose(const State& s, int type, const Placement* legal, int n) {
    std::set<std::tuple<int, int, int>> got, want = brute_legal(type);
    for (int i = 0; i < n; ++i) {
      need(legal[i].cell == cell_of(legal[i].x, legal[i].y), "placement cell matches x, y");
      got.insert({legal[i].x, legal[i].y, legal[i].rot});
    }
    need(int(got.size()) == n, "no placement listed twice");
    need(got == want, "legal placements equal the brute-force set");
    need(s.count_placements(type) == n, "count_placements agrees with legal_placements");
    const Placement p = legal[in_.below(n)];
    const std::uint8_t free = brute_free(type, p.rot, p.x, p.y);
    need(s.free_segments(type, p) == free, "free segments equal the brute-force set");
    Move mv;
    mv.at = p;
    const int nfree = std::popcount(unsigned(free));
    if (nfree && s.supply(s.to_move()) > 0) {
      int pick = in_.below(nfree);
      std::uint8_t bits = free;
      while (pick--) bits &= std::uint8_t(bits - 1);
      mv.seg = std::uint8_t(std::countr_zero(unsigned(bits)));
    }
    forced_missing_ = nfree && s.supply(s.to_move()) == 0;
    expected_free_ = free;
    return mv;
  }

  void on_discard(const State& s, int type) {
    need(brute_legal(type).empty(), "a tile is discarded only when it fits nowhere");
    ++discards_;
    need(s.discards() == discards_, "discards counted");
  }

  void on_place(const State& s, int type, const Move& m, std::uint8_t free_mask) {
    need(free_mask == expected_free_, "place reports the free segments");
    const int idx = int(tiles_.size());
    const PlacedTile& t = s.tile(idx);
    need(s.tiles_on_board() == idx + 1 && t.type == type && t.x == m.at.x && t.y == m.at.y &&
             t.rot == m.at.rot,
         "the tile is placed where chosen");
    Shadow sh{type, m.at.rot, m.at.x, m.at.y, -1, -1};
    need(t.meeple_seg == m.seg, "a meeple stands where chosen, and only then");
    if (m.seg != Move::kNoMeeple) {
      need(t.meeple_color == s.to_move(), "the meeple is the mover's");
      sh.meeple_seg = m.seg;
      sh.meeple_color = s.to_move();
    }
    add_tile(sh);
    // Features this placement completed, by brute force: the tile's own, and monasteries
    // around it (its own included; a closed one in reach was open before this tile).
    completed_.clear();
    const TileDef& def = kTiles[std::size_t(type)];
    for (int seg = 0; seg < def.nseg; ++seg) {
      if (def.segs[std::size_t(seg)].kind == SegKind::monastery) continue;
      const auto f = flood(idx, seg);
      if (f.closed && std::find(completed_.begin(), completed_.end(), f.members) == completed_.end())
        completed_.push_back(f.members);
    }
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int u = at(m.at.x + dx, m.at.y + dy);
        const int ms = u < 0 ? -1 : monastery_seg(tiles_[std::size_t(u)].type);
        if (ms < 0) continue;
        const auto f = flood(u, ms);
        if (f.closed) completed_.push_back(f.members);
      }
  }

  void order(const State&, int, std::uint16_t* done, int n) {
    for (int i = n; i > 1; --i) std::swap(done[i - 1], done[in_.below(i)]);
  }

  void on_score(const State& s, int root, const ScoreEvent& e) {
    const auto f = flood(root / kMaxSegs, root % kMaxSegs);
    need(f.closed, "a scored feature is closed");
    const auto it = std::find(completed_.begin(), completed_.end(), f.members);
    need(it != completed_.end(), "a scored feature was completed by this placement");
    completed_.erase(it);
    for (const auto& node : f.members)
      need(scored_.insert(node).second, "no feature scores twice");
    need(e.kind == f.kind, "score event kind");
    const int tiles = f.kind == SegKind::monastery ? 9 : f.tiles;
    need(e.tiles == tiles && e.pennants == f.pennants, "score event size and pennants");
    const int points = f.kind == SegKind::road ? tiles
                       : f.kind == SegKind::city ? 2 * tiles + 2 * f.pennants : 9;
    need(e.points == points, "score event points");
    std::array<int, kMaxColors> on{};
    for (auto& t : tiles_)
      if (t.meeple_color >= 0 && f.members.count({int(&t - tiles_.data()), t.meeple_seg})) {
        ++on[std::size_t(t.meeple_color)];
        t.meeple_color = -1;  // home again
      }
    int most = 0;
    for (int c = 0; c < kMaxColors; ++c) {
      need(e.meeples[std::size_t(c)] == on[std::size_t(c)], "score event meeples");
      most = std::max(most, on[std::size_t(c)]);
    }
    const int low = *std::min_element(scores_.begin(), scores_.end());
    need(e.low_before == low, "score event low_before");
    std::uint8_t majority = 0;
    bool low_in = false;
    for (int c = 0; c < int(scores_.size()); ++c)
      if (most > 0 && on[std::size_t(c)] == most) {
        majority |= std::uint8_t(1u << c);
        low_in |= scores_[std::size_t(c)] == low;
      }
    need(e.majority == majority, "score event majority");
    need(e.awarded == (low_in ? majority : 0), "score event awarded");
    for (int c = 0; c < int(scores_.size()); ++c) {
      if (e.awarded >> c & 1) scores_[std::size_t(c)] += points;
      need(s.score(c) == scores_[std::size_t(c)], "scores follow the score events");
    }
  }

  void on_turn_end(const State& s) {
    need(completed_.empty(), "every feature completed by the placement is scored");
    check_state(s);
  }

  void order_final(const State&, std::uint8_t* colors, int n) {
    for (int i = n; i > 1; --i) std::swap(colors[i - 1], colors[in_.below(i)]);
  }

  void on_final(const State& s, int color, int points) {
    --final_left_;
    const int low = *std::min_element(scores_.begin(), scores_.end());
    need(points == (scores_[std::size_t(color)] == low ? 2 : 0), "final meeple scores 2 iff lowest");
    scores_[std::size_t(color)] += points;
    need(s.score(color) == scores_[std::size_t(color)], "final scores");
  }

 private:
  struct Shadow {
    int type, rot, x, y, meeple_seg, meeple_color;
  };
  using Node = std::pair<int, int>;  // (tile index, segment)
  struct Flood {
    std::set<Node> members;
    SegKind kind = SegKind::road;
    bool closed = true;
    int open = 0, tiles = 0, pennants = 0;
  };
  static constexpr int kDx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static constexpr int kDy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  static constexpr int kSpan = 80;  // |x|, |y| <= 71 in any game

  static void need(bool ok, const char* what) {
    if (!ok) throw Violation(what);
  }

  void deal(int k) {
    deck_.clear();
    for (int t = 0; t < kBaseTypes; ++t)
      for (int i = 0; i < kTiles[std::size_t(t)].count - (t == kStartType); ++i) deck_.push_back(t);
    for (int i = int(deck_.size()); i > 1; --i) std::swap(deck_[std::size_t(i - 1)], deck_[std::size_t(in_.below(i))]);
    begin_.assign(std::size_t(k + 1), 0);
    const int n = int(deck_.size());
    for (int c = 0; c < k; ++c) begin_[std::size_t(c + 1)] = begin_[std::size_t(c)] + n / k + (c < n % k);
    next_.assign(begin_.begin(), begin_.end() - 1);
  }
  int stack_end(int c) const { return begin_[std::size_t(c + 1)]; }

  // Board geometry from the catalogue alone: edge letter and segment at board direction d.
  static int edge_at(int type, int rot, int d) {
    return kTiles[std::size_t(type)].edges[std::size_t((d - rot + 4) & 3)];
  }
  static int seg_at(int type, int rot, int d) {
    const TileDef& def = kTiles[std::size_t(type)];
    const int unrotated = (d - rot + 4) & 3;
    for (int s = 0; s < def.nseg; ++s)
      if (def.segs[std::size_t(s)].kind != SegKind::monastery && (def.segs[std::size_t(s)].edges >> unrotated & 1))
        return s;
    return -1;
  }
  static int monastery_seg(int type) {
    const TileDef& def = kTiles[std::size_t(type)];
    for (int s = 0; s < def.nseg; ++s)
      if (def.segs[std::size_t(s)].kind == SegKind::monastery) return s;
    return -1;
  }
  int at(int x, int y) const {
    if (x <= -kSpan || x >= kSpan || y <= -kSpan || y >= kSpan) return -1;
    return grid_[std::size_t((y + kSpan) * 2 * kSpan + x + kSpan)];
  }
  void add_tile(const Shadow& t) {
    if (grid_.empty()) grid_.assign(std::size_t(4 * kSpan * kSpan), -1);
    need(at(t.x, t.y) < 0 && std::abs(t.x) < kSpan - 1 && std::abs(t.y) < kSpan - 1, "tiles stay on distinct cells near the start");
    grid_[std::size_t((t.y + kSpan) * 2 * kSpan + t.x + kSpan)] = int(tiles_.size());
    tiles_.push_back(t);
  }

  std::set<std::tuple<int, int, int>> brute_legal(int type) const {
    std::set<std::tuple<int, int, int>> out;
    std::set<std::pair<int, int>> cells;
    for (const auto& t : tiles_)
      for (int d = 0; d < 4; ++d)
        if (at(t.x + kDx[d], t.y + kDy[d]) < 0) cells.insert({t.x + kDx[d], t.y + kDy[d]});
    for (const auto& [x, y] : cells)
      for (int r = 0; r < 4; ++r) {
        bool fits = true;
        for (int d = 0; d < 4 && fits; ++d) {
          const int u = at(x + kDx[d], y + kDy[d]);
          if (u < 0) continue;
          const Shadow& n = tiles_[std::size_t(u)];
          fits = edge_at(type, r, d) == edge_at(n.type, n.rot, (d + 2) & 3);
        }
        if (fits) out.insert({x, y, r});
      }
    return out;
  }

  // The feature of (tile, seg) on the current board.
  Flood flood(int tile, int seg) const {
    Flood f;
    const Shadow& t0 = tiles_[std::size_t(tile)];
    f.kind = kTiles[std::size_t(t0.type)].segs[std::size_t(seg)].kind;
    std::vector<Node> todo{{tile, seg}};
    f.members.insert({tile, seg});
    std::set<int> distinct;
    while (!todo.empty()) {
      const auto [u, s] = todo.back();
      todo.pop_back();
      const Shadow& t = tiles_[std::size_t(u)];
      distinct.insert(u);
      f.pennants += kTiles[std::size_t(t.type)].segs[std::size_t(s)].pennant;
      if (f.kind == SegKind::monastery) {
        for (int d = 0; d < 8; ++d) f.open += at(t.x + kDx[d], t.y + kDy[d]) < 0;
        continue;
      }
      for (int d = 0; d < 4; ++d) {
        if (seg_at(t.type, t.rot, d) != s) continue;
        const int v = at(t.x + kDx[d], t.y + kDy[d]);
        if (v < 0) {
          ++f.open;
          continue;
        }
        const Shadow& n = tiles_[std::size_t(v)];
        const int ns = seg_at(n.type, n.rot, (d + 2) & 3);
        need(ns >= 0, "matching edges join segments of the same kind");
        if (f.members.insert({v, ns}).second) todo.push_back({v, ns});
      }
    }
    f.closed = f.open == 0;
    f.tiles = int(distinct.size());
    return f;
  }

  std::uint8_t brute_free(int type, int rot, int x, int y) const {
    const TileDef& def = kTiles[std::size_t(type)];
    std::uint8_t mask = 0;
    for (int s = 0; s < def.nseg; ++s) {
      bool taken = false;
      if (def.segs[std::size_t(s)].kind != SegKind::monastery)
        for (int d = 0; d < 4; ++d) {
          if (seg_at(type, rot, d) != s) continue;
          const int v = at(x + kDx[d], y + kDy[d]);
          if (v < 0) continue;
          const Shadow& n = tiles_[std::size_t(v)];
          for (const auto& [u, us] : flood(v, seg_at(n.type, n.rot, (d + 2) & 3)).members)
            taken |= tiles_[std::size_t(u)].meeple_color >= 0 && tiles_[std::size_t(u)].meeple_seg == us;
        }
      if (!taken) mask |= std::uint8_t(1u << s);
    }
    return mask;
  }

  // Everything the state claims, against the board.
  void check_state(const State& s) const {
    const int k = s.colors();
    int in_stacks = 0;
    std::array<int, kTileTypes> unseen{};
    for (int c = 0; c < k; ++c) {
      need(s.stack_left(c) == stack_end(c) - next_[std::size_t(c)], "stack sizes");
      in_stacks += s.stack_left(c);
      for (int i = next_[std::size_t(c)]; i < stack_end(c); ++i) ++unseen[std::size_t(deck_[std::size_t(i)])];
    }
    for (int t = 0; t < kTileTypes; ++t) need(s.unseen(t) == unseen[std::size_t(t)], "unseen counts per type");
    need(s.unseen_total() == in_stacks, "unseen tiles are the stacks' tiles");
    need(s.tiles_on_board() == int(tiles_.size()), "tiles on the board");
    need(s.tiles_on_board() - 1 + s.discards() + in_stacks == kBaseCounts.land(), "tiles conserved");
    for (int c = 0; c < k; ++c) {
      int standing = 0;
      for (const auto& t : tiles_) standing += t.meeple_color == c;
      need(s.meeples_on_board(c) == standing, "meeples on the board per colour");
      need(s.supply(c) + standing == meeples_ && s.supply(c) >= 0, "meeples conserved per colour");
      need(s.score(c) == scores_[std::size_t(c)], "scores");
      need(s.score(c) >= (prev_scores_.empty() ? c + 1 : prev_scores_[std::size_t(c)]), "scores never decrease");
    }
    prev_scores_ = scores_;
    // Open cells: exactly the empty cells next to a tile.
    std::set<std::pair<int, int>> empty_next;
    for (const auto& t : tiles_)
      for (int d = 0; d < 4; ++d)
        if (at(t.x + kDx[d], t.y + kDy[d]) < 0) empty_next.insert({t.x + kDx[d], t.y + kDy[d]});
    std::set<std::pair<int, int>> open;
    for (int j = 0; j < s.open_count(); ++j) {
      const OpenCell& o = s.open_cell(j);
      need(o.cell == cell_of(o.x, o.y) && s.tile_at(o.x, o.y) == kNoTile, "open cells are empty");
      open.insert({o.x, o.y});
    }
    need(open == empty_next && int(open.size()) == s.open_count(), "open cells are the empty neighbours");
    // Features: the engine's partition into features is the board's, with the same records.
    std::map<Node, int> comp;
    std::map<int, int> root_of_comp, comp_of_root;
    for (int u = 0; u < int(tiles_.size()); ++u) {
      need(s.tile_at(tiles_[std::size_t(u)].x, tiles_[std::size_t(u)].y) == u, "tile_at");
      for (int g = 0; g < kTiles[std::size_t(tiles_[std::size_t(u)].type)].nseg; ++g) {
        if (comp.count({u, g})) continue;
        const Flood f = flood(u, g);
        const int id = int(root_of_comp.size());
        for (const auto& n : f.members) comp[n] = id;
        const int root = s.feature_of(u, g);
        root_of_comp[id] = root;
        need(comp_of_root.emplace(root, id).second, "one feature per connected component");
        const Feature& rec = s.feature(root);
        need(rec.kind == f.kind, "feature kind");
        if (f.kind == SegKind::monastery) {
          need(rec.open == f.open, "monastery: empty cells around");
        } else {
          need(rec.open == f.open, "feature open edges");
          need(rec.tiles == f.tiles, "feature distinct tiles");
          need(rec.pennants == f.pennants, "feature pennants");
        }
        std::array<int, kMaxColors> on{};
        int total = 0;
        for (const auto& [v, vs] : f.members)
          if (tiles_[std::size_t(v)].meeple_color >= 0 && tiles_[std::size_t(v)].meeple_seg == vs) {
            ++on[std::size_t(tiles_[std::size_t(v)].meeple_color)];
            ++total;
          }
        for (int c = 0; c < kMaxColors; ++c) need(rec.meeples[std::size_t(c)] == on[std::size_t(c)], "feature meeples per colour");
        need(rec.meeple_total == total, "feature meeple total");
      }
    }
    for (int u = 0; u < int(tiles_.size()); ++u)
      for (int g = 0; g < kTiles[std::size_t(tiles_[std::size_t(u)].type)].nseg; ++g)
        need(root_of_comp.at(comp.at({u, g})) == s.feature_of(u, g), "segments of one component share a root");
  }

  ByteSource& in_;
  std::vector<int> deck_, begin_, next_;
  std::vector<Shadow> tiles_;
  std::vector<int> grid_;
  std::vector<int> scores_;
  mutable std::vector<int> prev_scores_;
  std::vector<std::set<Node>> completed_;
  std::set<Node> scored_;
  int meeples_ = 0, discards_ = 0, final_left_ = 0;
  std::uint8_t expected_free_ = 0;
  bool forced_missing_ = false;
};

// One game from `data`; throws Violation naming the first broken invariant.
inline void check_engine_on(const std::uint8_t* data, std::size_t size) {
  ByteSource in(data, size);
  EngineChecker(in).play();
}

}  // namespace carc::fuzz
