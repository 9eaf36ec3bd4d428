// The tile catalogue and its derived tables (core/tiles.hpp) against rules.md, "Base tile
// set", written out independently in scenario.hpp (kRulesTable).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/tiles.hpp"
#include "tests/scenario.hpp"

namespace {

using namespace carc;
using carc::test::kRulesTable;

constexpr std::string_view kDirLetters = "NESW";

struct Seg {
  std::string kind;   // road, city, monastery
  std::string edges;  // unrotated, e.g. "E,W"
  bool pennant = false;
};
struct Row {
  char name;
  int count;
  std::string edges;  // N,E,S,W unrotated
  std::vector<Seg> segs;
};

Row parse_row(std::string_view text) {
  std::istringstream in{std::string(text)};
  Row r;
  std::string name;
  in >> name >> r.count >> r.edges;
  r.name = name[0];
  std::string tok;
  while (in >> tok) {
    Seg s;
    const auto brace = tok.find('{');
    s.kind = tok.substr(0, brace);
    if (!s.kind.empty() && s.kind.back() == '*') {
      s.pennant = true;
      s.kind.pop_back();
    }
    if (brace != std::string::npos) s.edges = tok.substr(brace + 1, tok.size() - brace - 2);
    r.segs.push_back(s);
  }
  return r;
}

// Rotation r turns the tile r quarter turns clockwise: the edge at N moves to E.
char rotate_letter(char dir, int r) {
  return kDirLetters[(kDirLetters.find(dir) + std::size_t(r)) % 4];
}

std::string rotated_edges(const std::string& edges, int r) {
  std::string out(4, '?');
  for (int d = 0; d < 4; ++d) out[std::size_t((d + r) % 4)] = edges[std::size_t(d)];
  return out;
}

// "road:E,S" after rotation, directions in N, E, S, W order.
std::string rotated_name(const Seg& s, int r) {
  if (s.kind == "monastery") return "monastery";
  std::string dirs;
  for (char c : s.edges)
    if (c != ',') dirs += rotate_letter(c, r);
  std::sort(dirs.begin(), dirs.end(),
            [](char a, char b) { return kDirLetters.find(a) < kDirLetters.find(b); });
  std::string out = s.kind + ":";
  for (std::size_t i = 0; i < dirs.size(); ++i) out += (i ? "," : "") + std::string(1, dirs[i]);
  return out;
}

char letter_of(Edge e) { return e == kCity ? 'C' : e == kRoad ? 'R' : e == kField ? 'F' : '?'; }

}  // namespace

TEST_CASE("tiles: 24 types named A..X with the counts of rules.md, 72 in all") {
  int total = 0;
  REQUIRE(kBaseTypes == 24);
  for (int t = 0; t < 24; ++t) {
    const Row r = parse_row(kRulesTable[std::size_t(t)]);
    CAPTURE(r.name);
    CHECK(std::string(kTiles[std::size_t(t)].name.data()) == std::string(1, r.name));
    CHECK(int(kTiles[std::size_t(t)].count) == r.count);
    CHECK(tile_name(t) == std::string(1, r.name));
    CHECK(tile_type(r.name) == t);
    total += r.count;
  }
  CHECK(total == 72);
  CHECK(total_tiles(kTiles, 0, kBaseTypes) == 72);
  CHECK(kStartType == tile_type('D'));
  CHECK(tile_type('Y') == kNoType);
}

TEST_CASE("tiles: edges and segments of every type under all 4 rotations") {
  for (int t = 0; t < 24; ++t) {
    const Row row = parse_row(kRulesTable[std::size_t(t)]);
    const TileDef& def = kTiles[std::size_t(t)];
    CAPTURE(row.name);
    REQUIRE(int(def.nseg) == int(row.segs.size()));
    for (int r = 0; r < 4; ++r) {
      CAPTURE(r);
      const std::string want_edges = rotated_edges(row.edges, r);
      CHECK(edge_string(t, r) == want_edges);
      std::string from_table;
      for (int d = 0; d < 4; ++d)
        from_table += letter_of(kOriented[std::size_t(t)][std::size_t(r)].edge[std::size_t(d)]);
      CHECK(from_table == want_edges);

      std::multiset<std::string> want, have;
      std::multiset<std::string> want_pennant, have_pennant;
      for (const Seg& s : row.segs) {
        want.insert(rotated_name(s, r));
        if (s.pennant) want_pennant.insert(rotated_name(s, r));
      }
      for (int s = 0; s < def.nseg; ++s) {
        have.insert(segment_name(t, r, s));
        if (def.segs[std::size_t(s)].pennant) have_pennant.insert(segment_name(t, r, s));
      }
      CHECK(have == want);
      CHECK(have_pennant == want_pennant);

      // The edge -> segment map: every road/city edge belongs to the segment named with it,
      // fields to none.
      const Oriented& o = kOriented[std::size_t(t)][std::size_t(r)];
      for (int d = 0; d < 4; ++d) {
        CAPTURE(d);
        const int s = o.seg[std::size_t(d)];
        if (want_edges[std::size_t(d)] == 'F') {
          CHECK(s == -1);
          continue;
        }
        REQUIRE(s >= 0);
        const std::string name = segment_name(t, r, s);
        const std::string kind = want_edges[std::size_t(d)] == 'C' ? "city:" : "road:";
        CHECK(name.rfind(kind, 0) == 0);
        CHECK(name.find(kDirLetters[std::size_t(d)], 5) != std::string::npos);
        CHECK((o.seg_edges[std::size_t(s)] >> d & 1) == 1);
      }
    }
    // The monastery segment.
    const bool has_mon = std::any_of(row.segs.begin(), row.segs.end(),
                                     [](const Seg& s) { return s.kind == "monastery"; });
    if (has_mon) {
      REQUIRE(kMonasterySeg[std::size_t(t)] >= 0);
      CHECK(segment_name(t, 0, kMonasterySeg[std::size_t(t)]) == "monastery");
    } else {
      CHECK(kMonasterySeg[std::size_t(t)] == -1);
    }
  }
}

TEST_CASE("tiles: rotation turns clockwise, N edge to E (hand-written cases)") {
  const int D = tile_type('D'), V = tile_type('V'), L = tile_type('L'), O = tile_type('O');
  CHECK(edge_string(D, 0) == "CRFR");
  CHECK(edge_string(D, 1) == "RCRF");  // the city now faces E
  CHECK(edge_string(D, 2) == "FRCR");
  CHECK(edge_string(D, 3) == "RFRC");
  CHECK(segment_name(D, 1, 0) == "city:E");
  CHECK(segment_name(D, 1, 1) == "road:N,S");
  CHECK(edge_string(V, 1) == "RFFR");  // game-log.md's example
  CHECK(segment_name(V, 1, 0) == "road:N,W");
  CHECK(segment_name(V, 3, 0) == "road:E,S");
  CHECK(segment_name(L, 2, 0) == "city:S");
  CHECK(segment_name(O, 1, 0) == "city:N,E");
  CHECK(segment_name(O, 1, 1) == "road:S,W");
  CHECK(segment_name(tile_type('B'), 3, 0) == "monastery");
}

TEST_CASE("tiles: kFits agrees with a brute-force check of every code, type and rotation") {
  // Code: 2 bits per direction, 0 = no neighbour, 1 city, 2 road, 3 field (tiles.hpp).
  const std::map<char, int> code_of = {{'C', 1}, {'R', 2}, {'F', 3}};
  int mismatches = 0;
  for (int code = 0; code < kCodes; ++code)
    for (int t = 0; t < 24; ++t) {
      const Row row = parse_row(kRulesTable[std::size_t(t)]);
      int want = 0;
      for (int r = 0; r < 4; ++r) {
        const std::string e = rotated_edges(row.edges, r);
        bool ok = true;
        for (int d = 0; d < 4; ++d) {
          const int need = (code >> (2 * d)) & 3;
          if (need != 0 && need != code_of.at(e[std::size_t(d)])) ok = false;
        }
        if (ok) want |= 1 << r;
      }
      if (kFits[std::size_t(code)][std::size_t(t)] != want) {
        ++mismatches;
        if (mismatches < 5) FAIL_CHECK("code " << code << " type " << row.name);
      }
    }
  CHECK(mismatches == 0);
  // Spot checks by hand: C fits a lone city constraint in all 4 rotations; U fits a road to
  // the W in rotations 1 and 3; nothing fits city N + road E + field S + road W but D, r0.
  CHECK(kFits[0b01][tile_type('C')] == 0b1111);
  CHECK(kFits[2 << 6][tile_type('U')] == 0b1010);
  const int dcode = 1 | 2 << 2 | 3 << 4 | 2 << 6;
  for (int t = 0; t < 24; ++t)
    CHECK(kFits[std::size_t(dcode)][std::size_t(t)] == (t == tile_type('D') ? 0b0001 : 0));
}
