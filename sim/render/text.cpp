#include "sim/render/text.hpp"

#include <algorithm>
#include <bit>

namespace carc::sim {
namespace {

constexpr int kEdgeRow[4] = {0, 1, 2, 1}, kEdgeCol[4] = {1, 2, 1, 0};      // N E S W
constexpr int kCornerRow[4] = {0, 2, 2, 0}, kCornerCol[4] = {2, 2, 0, 0};  // NE SE SW NW

}  // namespace

std::array<std::string, 3> tile_text(int type, int rot, int meeple_seg, int meeple_color) {
  const TileDef& t = kTiles[std::size_t(type)];
  const Oriented& o = kOriented[std::size_t(type)][std::size_t(rot)];
  char px[3][3], mark[3][3];
  for (auto& row : px) std::fill(row, row + 3, '.');
  for (auto& row : mark) std::fill(row, row + 3, ' ');
  for (int d = 0; d < kDirs; ++d)
    if (o.edge[std::size_t(d)] != kField)
      px[kEdgeRow[d]][kEdgeCol[d]] = o.edge[std::size_t(d)] == kCity ? 'C' : o.edge[std::size_t(d)] == kWater ? '~' : 'R';
  int road_ends = 0;
  for (int seg = 0; seg < t.nseg; ++seg) {
    const SegDef& g = t.segs[std::size_t(seg)];
    const unsigned mask = o.seg_edges[std::size_t(seg)];
    const int n = std::popcount(mask);
    if (g.kind == SegKind::monastery) {
      px[1][1] = 'M';
    } else if (g.kind == SegKind::road) {
      if (n >= 2) px[1][1] = g.marks & kMarkInn ? 'I' : 'R';
      if (n == 1 && (g.marks & kMarkInn)) px[kEdgeRow[std::countr_zero(mask)]][kEdgeCol[std::countr_zero(mask)]] = 'I';
      road_ends += n == 1;
    } else {
      const bool through = n >= 3 || mask == 0b0101 || mask == 0b1010;
      if (through) px[1][1] = g.marks & kMarkCathedral ? 'K' : g.pennant ? '*' : 'C';
      for (int d = 0; d < kDirs; ++d)
        if ((mask >> d & 1) && (mask >> ((d + 1) & 3) & 1))
          px[kCornerRow[d]][kCornerCol[d]] = g.pennant && !through ? '*' : 'C';
    }
    if (seg == meeple_seg) {
      int r = 1, c = 1;
      for (int d = kDirs - 1; d >= 0; --d)
        if (mask >> d & 1) r = kEdgeRow[d], c = kEdgeCol[d];
      mark[r][c] = char('0' + meeple_color);
    }
  }
  if (road_ends >= 3) px[1][1] = '+';
  int wet = 0;  // the river runs through the middle
  for (int d = 0; d < kDirs; ++d) wet += o.edge[std::size_t(d)] == kWater;
  if (wet == 2 && px[1][1] == '.') px[1][1] = '~';
  std::array<std::string, 3> rows;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) rows[std::size_t(r)] += std::string{px[r][c], mark[r][c]};
  return rows;
}

std::string board_text(const State& s, int x, int y, int radius) {
  int x0 = x, x1 = x, y0 = y, y1 = y;  // the tiles placed, within the window
  for (int i = 0; i < s.tiles_on_board(); ++i) {
    const PlacedTile& t = s.tile(i);
    if (std::abs(t.x - x) > radius || std::abs(t.y - y) > radius) continue;
    x0 = std::min<int>(x0, t.x), x1 = std::max<int>(x1, t.x);
    y0 = std::min<int>(y0, t.y), y1 = std::max<int>(y1, t.y);
  }
  std::string out = "     ";
  for (int cx = x0; cx <= x1; ++cx) {
    std::string n = "   " + std::to_string(cx);  // over the centre pixel
    out += n + std::string(8 - n.size(), ' ');
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += "\n";
  for (int cy = y0; cy <= y1; ++cy)
    for (int r = 0; r < 3; ++r) {
      std::string line;
      if (r == 1) {
        const std::string n = std::to_string(cy);
        line = std::string(4 - std::min<std::size_t>(4, n.size()), ' ') + n + " ";
      } else {
        line = "     ";
      }
      for (int cx = x0; cx <= x1; ++cx) {
        const int i = s.tile_at(cx, cy);
        const bool last = cx == x && cy == y;
        if (i == kNoTile) {
          line += std::string(8, ' ');
          continue;
        }
        const PlacedTile& t = s.tile(i);
        const bool standing = t.meeple_seg != kNoSegment && s.feature(s.feature_of(i, t.meeple_seg)).meeple_total > 0;
        const auto rows = tile_text(t.type, t.rot, standing ? t.meeple_seg : kNoSegment, t.meeple_color);
        line += (last ? "[" : " ") + rows[std::size_t(r)] + (last ? "]" : " ");
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  return out;
}

}  // namespace carc::sim
