// The learned value's second feature set: the board block (policies/afterstate_features.hpp)
// worked by hand on a small board, a net of 109 inputs reading it, a net of any other width
// refused, search's own value of its move (last_value), and `positions --board` (the 35
// columns and root_value after the first file's columns, which stay the same).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/afterstate_features.hpp"
#include "policies/policy.hpp"
#include "policies/value_lookahead.hpp"
#include "policies/value_net.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/positions.hpp"
#include "tests/process.hpp"
#include "tests/scenario.hpp"

namespace {

using namespace carc;

std::vector<float> features_of(const State& s, int mover) {
  std::vector<float> f(kAfterstateFeaturesBoard, -1.0f);
  AfterstateFeatures x;
  x.extract(s, mover, f.data(), true);
  return f;
}

float at(const std::vector<float>& f, const std::string& name) {
  static const std::vector<std::string> names = afterstate_feature_columns(true);
  const auto it = std::find(names.begin(), names.end(), name);
  REQUIRE_MESSAGE(it != names.end(), name);
  return f[std::size_t(it - names.begin())];
}

// A carcsolo-value/1 text: one linear layer of `inputs` inputs and one output, weight 1 on
// input `one` and 0 elsewhere, no scaling: the net's value is that feature.
std::string picking_net(int inputs, int one) {
  std::string zeros, ones, w;
  for (int i = 0; i < inputs; ++i) {
    zeros += " 00000000";
    ones += " 3f800000";
    w += i == one ? " 3f800000" : " 00000000";
  }
  const std::string body = "carcsolo-value/1\nlayers " + std::to_string(inputs) +
                           " 1\nactivation relu\ninput_shift" + zeros + "\ninput_scale" + ones +
                           "\noutput 3f800000 00000000\nweights" + w + "\nbias 00000000\n";
  return body + "hash " + fnv1a64_hex(body) + "\n";
}

}  // namespace

TEST_CASE("board block: the frontier and each colour's figures on a board worked by hand") {
  test::Game g(Config{3, 4});
  // D at (0,0): city N, road E and W. Colour 0: A (monastery, its road turned to face W) at
  // (1,0), its meeple on the monastery: 7 empty neighbours; the road D-A is open to the west.
  g.turn("A 1 0 1 monastery");
  std::vector<float> f = features_of(g.state(), 0);
  CHECK(at(f, "colors") == 3);  // the first 74 are the first feature set's
  CHECK(at(f, "open_cells") == 6);  // N, S and W of D; N, E and S of A
  CHECK(at(f, "open_cells_2") == 0);
  CHECK(at(f, "open_cells_3") == 0);
  CHECK(at(f, "dead_cells") == 0);
  CHECK(at(f, "fit_share") > 0);
  CHECK(at(f, "fit_share") <= 1);
  // slots after mover 0: slot 0 colour 1, slot 1 colour 2, slot 2 colour 0 (the mover)
  CHECK(at(f, "monastery_figures_2") == 1);
  CHECK(at(f, "open_edges_2") == 7);
  CHECK(at(f, "led_tiles_2") == 1);
  for (const char* q : {"road_figures_", "city_figures_", "monastery_figures_", "open_edges_", "led_tiles_"})
    for (int slot : {0, 1, 3, 4, 5}) CHECK(at(f, q + std::to_string(slot)) == 0);

  // Colour 1: U (straight road) turned to run E-W at (-1,0), its meeple on the road: 3 tiles
  // (U, D, A), open at U's west end only.
  g.turn("U -1 0 1 road:E,W");
  f = features_of(g.state(), 1);
  CHECK(at(f, "open_cells") == 8);
  CHECK(at(f, "open_cells_2") == 0);
  // slots after mover 1: slot 0 colour 2, slot 1 colour 0, slot 2 colour 1
  CHECK(at(f, "road_figures_2") == 1);
  CHECK(at(f, "open_edges_2") == 1);
  CHECK(at(f, "led_tiles_2") == 3);
  CHECK(at(f, "monastery_figures_1") == 1);
  CHECK(at(f, "open_edges_1") == 7);
  CHECK(at(f, "road_figures_0") == 0);

  // Colour 2: E (a city on one side) turned to face west at (1,-1), above A (field against
  // A's field): the cell (0,-1) between its city and D's then has two neighbours; the
  // meeple on E's city, open towards (0,-1).
  g.turn("E 1 -1 3 city:W");
  f = features_of(g.state(), 2);
  CHECK(at(f, "open_cells_2") == 1);  // (0,-1): D south of it, E east of it
  CHECK(at(f, "city_figures_2") == 1);
  CHECK(at(f, "open_edges_2") == 1);
  CHECK(at(f, "led_tiles_2") == 1);
  CHECK(at(f, "monastery_figures_0") == 1);
  CHECK(at(f, "open_edges_0") == 6);  // the monastery now has E above it
  CHECK(at(f, "road_figures_1") == 1);
}

TEST_CASE("board block: led_tiles counts a feature's tiles only for the colours that lead it") {
  // One road built of three parts, each with a figure: colour 0's (D and U), colour 1's
  // (V at 1,1), colour 0's again (V at 0,1); the tiles that join them carry no meeple (the
  // parts they join are taken). y grows to the south.
  test::Game g(Config{3, 4});
  g.turn("0: U 1 0 1 road:E,W");  // D-U, open at (-1,0) and (2,0)
  g.turn("1: V 1 1 3 road:E,S");  // south of U, open at (2,1) and (1,2)
  g.turn("0: V 0 1 0 road:S,W");  // south of D, open at (0,2) and (-1,1)
  g.turn("2: V 1 2 1");           // joins colour 1's part
  g.turn("2: V 0 2 2");           // ... to colour 0's second: 1 figure each, 4 tiles
  // Mover 2: slot 0 colour 0, slot 1 colour 1, slot 2 colour 2.
  std::vector<float> f = features_of(g.state(), 2);
  CHECK(at(f, "road_figures_0") == 2);  // the road D-U and the road of four tiles
  CHECK(at(f, "road_figures_1") == 1);
  CHECK(at(f, "led_tiles_0") == 2 + 4);  // a tie leads: both lead the four tiles
  CHECK(at(f, "led_tiles_1") == 4);
  CHECK(at(f, "led_tiles_2") == 0);
  g.turn("2: V 2 0 0");  // extends D-U to (2,0), open south
  g.turn("2: V 2 1 1");  // joins it to the four: one road of 8 tiles, colour 0 two figures, colour 1 one
  const int root = g.state().feature_of(1, 0);  // U's road (the second tile on the board)
  REQUIRE(g.state().feature(root).meeples[0] == 2);
  REQUIRE(g.state().feature(root).meeples[1] == 1);
  REQUIRE(g.state().feature(root).tiles == 8);
  f = features_of(g.state(), 2);
  CHECK(at(f, "road_figures_0") == 2);
  CHECK(at(f, "road_figures_1") == 1);
  CHECK(at(f, "open_edges_0") == 2);  // the road's two open ends: west of D, west of V at 0,1
  CHECK(at(f, "open_edges_1") == 2);
  CHECK(at(f, "led_tiles_0") == 8);  // colour 0 leads the road
  CHECK(at(f, "led_tiles_1") == 0);  // colour 1 has a figure on it but does not lead
  CHECK(at(f, "led_tiles_2") == 0);
}

TEST_CASE("board block: a net of 109 inputs reads it, one of another width is refused") {
  test::Game g(Config{3, 4});
  g.turn("A 1 0 1 monastery");
  const std::vector<std::string> names = afterstate_feature_columns(true);
  const int col = int(std::find(names.begin(), names.end(), "open_edges_2") - names.begin());
  REQUIRE(col >= kAfterstateFeatures);
  const ValueNet net = ValueNet::parse(picking_net(kAfterstateFeaturesBoard, col));
  NetValuer valuer(net);
  CHECK(valuer.afterstate(g.state(), 0) == 7.0f);  // the monastery's empty neighbours
  const ValueNet first = ValueNet::parse(picking_net(kAfterstateFeatures, 0));
  NetValuer plain(first);
  CHECK(plain.afterstate(g.state(), 0) == 3.0f);  // colours: the first set reads no board block
  CHECK_THROWS_WITH_AS(ValueNet::parse(picking_net(80, 0)),
                       "value net: the net takes 80 inputs: a feature set has 74 (the afterstate's) or 109 "
                       "(with the board block)",
                       std::invalid_argument);
}

TEST_CASE("search's last_value is the mean of its chosen move's rollouts, and NaN for players without one") {
  auto search = make_placement_policy("search:candidates=6,beam=3,rollouts=4,leaf=1");
  auto heuristic = make_placement_policy("heuristic");
  auto scoring = make_scoring_policy("best");
  const sim::GameOutcome o = sim::play_game({{3, 4}, 5, 0}, *search, *scoring);
  REQUIRE(o.tiles_placed > 10);
  CHECK(std::isfinite(search->last_value()));  // its last decision had rollouts
  CHECK(search->last_value() > 0);
  CHECK(search->last_value() < 200);
  (void)sim::play_game({{3, 4}, 5, 0}, *heuristic, *scoring);
  CHECK(std::isnan(heuristic->last_value()));
}

TEST_CASE("positions --board: 109 features, root_value and chosen after the first file's columns, which are unchanged") {
  using test::run_carcsolo;
  test::TempDir dir;
  const std::vector<std::string> common = {"positions", "--games", "3", "--seed", "17", "--scoring", "best",
                                           "--placement", "search:candidates=6,beam=3,rollouts=4,leaf=1", "-q"};
  auto args = common;
  args.insert(args.end(), {"--out", "plain.bin"});
  REQUIRE(run_carcsolo(args, dir.path()).status == 0);
  args = common;
  args.insert(args.end(), {"--board", "--out", "board.bin"});
  REQUIRE(run_carcsolo(args, dir.path()).status == 0);
  const std::string plain = test::read_text(dir / "plain.bin"), board = test::read_text(dir / "board.bin");
  const nlohmann::json hp = nlohmann::json::parse(plain.substr(0, plain.find('\n')));
  const nlohmann::json hb = nlohmann::json::parse(board.substr(0, board.find('\n')));
  CHECK(hb["record"]["bytes"] == 540);
  CHECK(hb["feature_columns"].size() == 109);
  CHECK(hb["target_columns"].size() == 23);
  CHECK(hb["target_columns"][21] == "root_value");
  CHECK(hb["target_columns"][22] == "chosen");
  CHECK(hb["candidates"] == false);
  CHECK(hb["rows"] == hp["rows"]);
  const std::size_t n = hp["rows"].get<std::size_t>();
  REQUIRE(n > 20);
  const unsigned char* a = reinterpret_cast<const unsigned char*>(plain.data()) + plain.find('\n') + 1;
  const unsigned char* b = reinterpret_cast<const unsigned char*>(board.data()) + board.find('\n') + 1;
  int finite = 0;
  for (std::size_t r = 0; r < n; ++r, a += sim::kPositionRowBytes, b += 540) {
    CHECK(std::memcmp(a, b, 12 + 4 * 74) == 0);                       // head and the 74 features
    CHECK(std::memcmp(a + 12 + 4 * 74, b + 12 + 4 * 109, 4 * 21) == 0);  // the 21 targets
    float root = 0, result = 0, chosen = 0;
    std::memcpy(&root, b + 540 - 8, 4);
    std::memcpy(&chosen, b + 540 - 4, 4);
    CHECK(chosen == 1);
    std::memcpy(&result, b + 12 + 4 * 109, 4);
    if (std::isfinite(root)) {
      ++finite;
      CHECK(std::fabs(root - result) < 60);  // the net's value of its rollouts, in points
    }
  }
  CHECK(finite * 2 > int(n));  // most decisions had rollouts
}

TEST_CASE("positions --candidates: a row for every other move of search's beam, valued by its rollouts") {
  using test::run_carcsolo;
  test::TempDir dir;
  const std::vector<std::string> common = {"positions", "--games", "4", "--seed", "23", "--scoring", "best", "--board",
                                           "--placement", "search:candidates=6,beam=3,rollouts=4,leaf=1", "-q"};
  auto args = common;
  args.insert(args.end(), {"--out", "chosen.bin"});
  REQUIRE(run_carcsolo(args, dir.path()).status == 0);
  args = common;
  args.insert(args.end(), {"--candidates", "--threads", "1", "--out", "all.bin"});
  REQUIRE(run_carcsolo(args, dir.path()).status == 0);
  args = common;
  args.insert(args.end(), {"--candidates", "--threads", "2", "--out", "all2.bin"});
  REQUIRE(run_carcsolo(args, dir.path()).status == 0);
  const std::string chosen = test::read_text(dir / "chosen.bin"), all = test::read_text(dir / "all.bin");
  CHECK(test::read_text(dir / "all2.bin") == all);  // the same on 1 and 2 threads
  const nlohmann::json hc = nlohmann::json::parse(chosen.substr(0, chosen.find('\n')));
  const nlohmann::json ha = nlohmann::json::parse(all.substr(0, all.find('\n')));
  CHECK(ha["candidates"] == true);
  const std::size_t nc = hc["rows"].get<std::size_t>(), na = ha["rows"].get<std::size_t>();
  CHECK(na > nc + nc / 2);  // a beam of 3: up to two more rows per decision
  CHECK(na <= 3 * nc);
  const unsigned char* c = reinterpret_cast<const unsigned char*>(chosen.data()) + chosen.find('\n') + 1;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(all.data()) + all.find('\n') + 1;
  std::size_t matched = 0, others = 0, differ = 0;
  const unsigned char* last_chosen = nullptr;
  for (std::size_t r = 0; r < na; ++r, p += 540) {
    float root = 0, flag = 0;
    std::memcpy(&root, p + 540 - 8, 4);
    std::memcpy(&flag, p + 540 - 4, 4);
    if (flag == 1) {  // the move played: the row the file without --candidates has, byte for byte
      REQUIRE(matched < nc);
      CHECK(std::memcmp(p, c + matched * 540, 540) == 0);
      ++matched;
      last_chosen = p;
      continue;
    }
    ++others;
    REQUIRE(last_chosen != nullptr);
    CHECK(flag == 0);
    CHECK(std::memcmp(p, last_chosen, 12) == 0);  // the same game, turn and mover as the decision's row
    differ += std::memcmp(p + 12, last_chosen + 12, 4 * 109) != 0;  // another afterstate (the features sum up the board: some agree)
    CHECK(std::isfinite(root));
    CHECK(root > 0);  // the net's value of its rollouts' ends, in points
  }
  CHECK(matched == nc);
  CHECK(others > 0);
  CHECK(differ * 2 > others);
  args = {"positions", "--games", "1", "--candidates", "--out", "x.bin"};
  const auto bad = run_carcsolo(args, dir.path());
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--candidates needs --board") != std::string::npos);
}

namespace {

// search, its beam recorded at each decision: how many rows `positions --candidates` owes
// the decision (the move played, and one per other move of the beam, told apart by
// placement, meeple and large meeple), and how many of the others lie at the played
// move's placement with another meeple.
class BeamRecorder final : public PlacementPolicy {
 public:
  explicit BeamRecorder(PlacementPolicy& inner) : inner_(inner) {}
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const Move m = inner_.choose(obs, legal, rng);
    int rows = 1;
    for (const MoveValue& c : inner_.last_candidates()) {
      const bool same_at = c.move.at.x == m.at.x && c.move.at.y == m.at.y && c.move.at.rot == m.at.rot;
      if (same_at && c.move.seg == m.seg && c.move.large == m.large) continue;  // the move played
      ++rows;
      same_placement += same_at;
    }
    due.push_back(rows);
    return m;
  }
  double last_value() const override { return inner_.last_value(); }
  std::span<const MoveValue> last_candidates() const override { return inner_.last_candidates(); }
  std::vector<int> due;  // rows owed per decision, in order
  int same_placement = 0;

 private:
  PlacementPolicy& inner_;
};

}  // namespace

TEST_CASE("positions --candidates: exactly the rows due, a candidate at the played placement with another meeple included") {
  using test::run_carcsolo;
  constexpr const char* kSpec = "search:candidates=6,beam=3,rollouts=4,leaf=1";
  constexpr int kGames = 4;
  constexpr std::uint64_t kSeed = 23;
  // What is due, from the same games played by the library with the beam recorded.
  std::vector<std::vector<int>> due(kGames);
  int same_placement = 0;
  std::size_t total = 0;
  for (int game = 0; game < kGames; ++game) {
    auto search = make_placement_policy(kSpec);
    auto scoring = make_scoring_policy("best");
    BeamRecorder rec(*search);
    (void)sim::play_game({{3, 4}, kSeed, std::uint64_t(game)}, rec, *scoring);
    due[std::size_t(game)] = rec.due;
    same_placement += rec.same_placement;
    for (const int n : rec.due) total += std::size_t(n);
  }
  REQUIRE(same_placement > 0);  // the games have such candidates: the case is tested
  test::TempDir dir;
  const auto r = run_carcsolo({"positions", "--games", std::to_string(kGames), "--seed", std::to_string(kSeed),
                               "--scoring", "best", "--board", "--candidates", "--placement", kSpec, "-q",
                               "--out", "all.bin"},
                              dir.path());
  REQUIRE(r.status == 0);
  const std::string all = test::read_text(dir / "all.bin");
  const std::size_t body = all.find('\n') + 1;
  const nlohmann::json h = nlohmann::json::parse(all.substr(0, body - 1));
  const std::size_t rows = h["rows"].get<std::size_t>();
  REQUIRE(all.size() == body + rows * 540);
  CHECK(rows == total);
  // Decision by decision: a row with chosen 1, then the decision's other candidates.
  std::vector<std::vector<int>> found(kGames);
  const unsigned char* p = reinterpret_cast<const unsigned char*>(all.data()) + body;
  for (std::size_t i = 0; i < rows; ++i, p += 540) {
    std::uint64_t game = 0;
    float chosen = 0;
    std::memcpy(&game, p, 8);
    std::memcpy(&chosen, p + 540 - 4, 4);
    REQUIRE(game < std::uint64_t(kGames));
    auto& g = found[std::size_t(game)];
    if (chosen == 1) {
      g.push_back(1);
    } else {
      REQUIRE(!g.empty());
      ++g.back();
    }
  }
  for (int game = 0; game < kGames; ++game) {
    CAPTURE(game);
    CHECK(found[std::size_t(game)] == due[std::size_t(game)]);
  }
}
