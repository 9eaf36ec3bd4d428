#include "sim/log/board_view.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/state.hpp"
#include "core/tiles.hpp"
#include "policies/policy.hpp"

namespace carc::sim {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error("game log: " + where + ": " + what);
}


// A feature as the log describes it when it is scored.
struct Signature {
  std::string kind;
  int tiles = 0, pennants = 0;
  std::vector<int> meeples;  // colours, sorted
  bool operator==(const Signature&) const = default;
};

// Features are rebuilt with a union-find over segment slots (tile * kMaxSegs + segment),
// independent of the engine's own bookkeeping, so a picture also checks the log.
class Builder {
 public:
  explicit Builder(int colors) { v_.colors = colors; }

  void place(const ViewTile& t, const std::string& where) {
    if (cell_.count({t.x, t.y})) fail(where, "cell (" + xy(t.x, t.y) + ") is already taken");
    const int idx = int(v_.tiles.size());
    const Oriented& o = kOriented[t.type][t.rot];
    bool touches = false;
    for (int d = 0; d < kDirs; ++d) {
      const int n = tile_at(t.x + kDx[d], t.y + kDy[d]);
      if (n < 0) continue;
      touches = true;
      if (o.edge[d] != oriented(n).edge[opposite(d)])
        fail(where, std::string("the ") + kDirName[d] + " edge does not match the tile at (" +
                        xy(v_.tiles[n].x, v_.tiles[n].y) + ")");
    }
    if (idx > 0 && !touches) fail(where, "(" + xy(t.x, t.y) + ") touches no placed tile");
    v_.tiles.push_back(t);
    cell_[{t.x, t.y}] = idx;
    parent_.resize(std::size_t(idx + 1) * kMaxSegs, -1);
    open_.resize(parent_.size(), 0);

    const TileDef& def = kTiles[t.type];
    for (int s = 0; s < def.nseg; ++s) {
      const int slot = idx * kMaxSegs + s;
      parent_[slot] = slot;
      if (def.segs[s].kind == SegKind::monastery) {
        for (int d = 0; d < 8; ++d) open_[slot] += tile_at(t.x + kDx[d], t.y + kDy[d]) == kNoTile;
      } else {
        open_[slot] = std::popcount(o.seg_edges[s]);
      }
    }
    for (int d = 0; d < kDirs; ++d) {
      const int n = tile_at(t.x + kDx[d], t.y + kDy[d]);
      if (n >= 0 && o.seg[d] >= 0)
        unite(idx * kMaxSegs + o.seg[d], n * kMaxSegs + oriented(n).seg[opposite(d)]);
    }
    completed_.clear();
    for (int d = 0; d < 8; ++d) {
      const int n = tile_at(t.x + kDx[d], t.y + kDy[d]);
      if (n < 0 || kMonasterySeg[v_.tiles[n].type] < 0) continue;
      const int slot = n * kMaxSegs + kMonasterySeg[v_.tiles[n].type];
      if (--open_[slot] == 0) completed_.push_back(slot);
    }
    for (int s = 0; s < def.nseg; ++s) {
      const int root = find(idx * kMaxSegs + s);
      if (open_[root] == 0 && std::find(completed_.begin(), completed_.end(), root) == completed_.end())
        completed_.push_back(root);
    }
  }

  void put_meeple(int color, const std::string& name, int step, const std::string& where, bool large) {
    const int idx = int(v_.tiles.size()) - 1;
    const ViewTile& t = v_.tiles[idx];
    int seg = -1;
    for (int s = 0; s < kTiles[t.type].nseg; ++s)
      if (segment_name(t.type, t.rot, s) == name) seg = s;
    if (seg < 0) fail(where, "tile " + std::string(tile_name(t.type)) + " has no segment " + name);
    if (!meeples_on(find(idx * kMaxSegs + seg)).empty())
      fail(where, "the meeple on " + name + " joins a feature that already holds one");
    v_.meeples.push_back({color, idx, seg, step, -1, large});
  }

  // Matches the log's scored entries, in order, to the features this placement completed.
  void score(const json& scored, int step, const std::string& where) {
    std::vector<bool> used(completed_.size(), false);
    auto& out = v_.scored[std::size_t(step)];
    for (std::size_t j = 0; j < scored.size(); ++j) {
      Signature want{scored[j].at("kind").get<std::string>(), scored[j].at("tiles").get<int>(),
                     scored[j].at("pennants").get<int>(), scored[j].at("meeples").get<std::vector<int>>()};
      std::sort(want.meeples.begin(), want.meeples.end());
      std::size_t k = 0;
      while (k < completed_.size() && (used[k] || signature(completed_[k]) != want)) ++k;
      if (k == completed_.size())
        fail(where, "scored feature " + std::to_string(j + 1) + " (" + want.kind + ", " +
                        std::to_string(want.tiles) + " tiles) is not completed on the board");
      used[k] = true;
      std::vector<ViewSegment> segs;
      for (int slot = 0; slot < int(parent_.size()); ++slot)
        if (parent_[slot] >= 0 && find(slot) == completed_[k]) segs.push_back({slot / kMaxSegs, slot % kMaxSegs});
      out.push_back(std::move(segs));
      for (int m : meeples_on(completed_[k])) v_.meeples[m].returned_step = step;
    }
    for (std::size_t k = 0; k < completed_.size(); ++k)
      if (!used[k]) fail(where, "the placement completes a " + signature(completed_[k]).kind + " the log does not score");
  }

  BoardView finish(const json& final_scoring) {
    std::vector<int> left(std::size_t(v_.colors), 0), listed(std::size_t(v_.colors), 0);
    for (const auto& m : v_.meeples)
      if (m.returned_step < 0) ++left[std::size_t(m.color)];
    for (const auto& f : final_scoring) {
      const int c = f.at("color").get<int>();
      if (c < 0 || c >= v_.colors) fail("final_scoring", "colour " + std::to_string(c) + " out of range");
      ++listed[std::size_t(c)];
    }
    for (int c = 0; c < v_.colors; ++c)
      if (left[c] != listed[c])
        fail("final_scoring", "lists " + std::to_string(listed[c]) + " meeples of colour " + std::to_string(c) +
                                  ", the board holds " + std::to_string(left[c]));
    for (const auto& t : v_.tiles) {
      v_.min_x = std::min(v_.min_x, t.x);
      v_.max_x = std::max(v_.max_x, t.x);
      v_.min_y = std::min(v_.min_y, t.y);
      v_.max_y = std::max(v_.max_y, t.y);
    }
    return std::move(v_);
  }

  BoardView& view() { return v_; }

 private:
  static std::string xy(int x, int y) { return std::to_string(x) + ", " + std::to_string(y); }
  int tile_at(int x, int y) const {
    const auto it = cell_.find({x, y});
    return it == cell_.end() ? -1 : it->second;
  }
  const Oriented& oriented(int n) const { return kOriented[v_.tiles[n].type][v_.tiles[n].rot]; }
  int find(int s) {
    while (parent_[s] != s) s = parent_[s] = parent_[parent_[s]];
    return s;
  }
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) {
      open_[a] -= 2;
      return;
    }
    parent_[b] = a;
    open_[a] += open_[b] - 2;
  }
  std::vector<int> meeples_on(int root) {
    std::vector<int> out;
    for (int m = 0; m < int(v_.meeples.size()); ++m) {
      const ViewMeeple& x = v_.meeples[m];
      if (x.returned_step < 0 && find(x.tile * kMaxSegs + x.seg) == root) out.push_back(m);
    }
    return out;
  }
  Signature signature(int root) {
    const ViewTile& t = v_.tiles[root / kMaxSegs];
    const SegDef& def = kTiles[t.type].segs[root % kMaxSegs];
    Signature g{std::string(kind_name(def.kind)), 0, 0, {}};
    std::vector<int> tiles;
    for (int slot = 0; slot < int(parent_.size()); ++slot) {
      if (parent_[slot] < 0 || find(slot) != root) continue;
      tiles.push_back(slot / kMaxSegs);
      g.pennants += kTiles[v_.tiles[slot / kMaxSegs].type].segs[slot % kMaxSegs].pennant;
    }
    std::sort(tiles.begin(), tiles.end());
    g.tiles = def.kind == SegKind::monastery ? 9 : int(std::unique(tiles.begin(), tiles.end()) - tiles.begin());
    for (int m : meeples_on(root)) g.meeples.push_back(v_.meeples[m].color);
    std::sort(g.meeples.begin(), g.meeples.end());
    return g;
  }

  BoardView v_;
  std::map<std::pair<int, int>, int> cell_;
  std::vector<int> parent_, open_;
  std::vector<int> completed_;  // roots completed by the last placement
};

int checked_type(const json& j, const std::string& where) {
  const std::string name = j.get<std::string>();
  const int type = tile_type(name);
  if (type < 0) fail(where, "unknown tile '" + name + "'");
  return type;
}

int checked_rot(const json& j, const std::string& where) {
  const int rot = j.get<int>();
  if (rot < 0 || rot > 3) fail(where, "rotation " + std::to_string(rot) + " is not 0..3");
  return rot;
}

// The final scores are those after the last turn and the final scoring, and the result is
// the lowest of them (rules.md, "Result").
void check_result(const json& log, int colors) {
  const json& scores = log.at("scores");
  if (!scores.is_array() || int(scores.size()) != colors) fail("scores", "expected one score per colour");
  const json& final_scoring = log.value("final_scoring", json::array());
  const json& turns = log.at("turns");
  const json* last = !final_scoring.empty() ? &final_scoring.back().at("scores_after")
                     : !turns.empty()       ? &turns.back().at("scores")
                                            : nullptr;
  if (last && *last != scores)
    fail("scores", scores.dump() + " are not the scores after the last turn and the final scoring (" +
                       last->dump() + ")");
  int low = scores[0].get<int>();
  for (const auto& v : scores) low = std::min(low, v.get<int>());
  const json& result = log.at("result");
  if (!result.is_number_integer() || result.get<int>() != low)
    fail("result", result.dump() + " is not the lowest final score (" + std::to_string(low) + " of " +
                       scores.dump() + ")");
}

BoardView rebuild(const json& log) {
  const int colors = log.at("config").at("colors").get<int>();
  if (colors < kMinColors || colors > kMaxColors) fail("config", "colors must be 2..6");
  Builder b(colors);
  const json& turns = log.at("turns");
  b.view().steps = int(turns.size()) + 2;
  b.view().scored.resize(turns.size() + 2);

  const json& start = log.at("start");
  b.place({checked_type(start.at("tile"), "start"), start.at("x").get<int>(), start.at("y").get<int>(),
           checked_rot(start.at("rot"), "start"), 0, -1, -1},
          "start");
  for (std::size_t i = 0; i < turns.size(); ++i) {
    const json& t = turns[i];
    const int step = int(i) + 1;
    const std::string where = "turns[" + std::to_string(i) + "] (turn " + std::to_string(t.value("turn", -1)) + ")";
    const int color = t.at("color").get<int>();
    if (color < 0 || color >= colors) fail(where, "colour " + std::to_string(color) + " out of range");
    const int type = checked_type(t.at("tile"), where);
    if (t.value("discarded", false)) continue;
    const int rot = checked_rot(t.at("rot"), where);
    if (t.contains("edges") && t["edges"].get<std::string>() != edge_string(type, rot))
      fail(where, "edges " + t["edges"].get<std::string>() + " are not those of tile " +
                      std::string(tile_name(type)) + " turned " + std::to_string(rot) + " (" +
                      edge_string(type, rot) + ")");
    b.place({type, t.at("x").get<int>(), t.at("y").get<int>(), rot, step, t.value("turn", -1), color}, where);
    if (t.contains("meeple") && !t["meeple"].is_null())
      b.put_meeple(color, t["meeple"].get<std::string>(), step, where, t.value("large", false));
    b.score(t.value("scored", json::array()), step, where);
  }
  BoardView view = b.finish(log.value("final_scoring", json::array()));
  check_result(log, colors);
  const json& cfg = log.at("config");
  view.placement = short_placement_spec(cfg.value("placement_policy", std::string("?")));
  view.scoring = short_scoring_spec(cfg.value("scoring_policy", std::string("?")));
  return view;
}

}  // namespace

BoardView rebuild_board(const nlohmann::json& log) {
  try {
    return rebuild(log);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("game log: ") + e.what());
  }
}

}  // namespace carc::sim
