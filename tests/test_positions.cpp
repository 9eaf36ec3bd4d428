// `carcsolo positions` (sim/driver/positions.hpp, docs/positions-format.md): every row agrees
// with the game log of its game, the file does not depend on the thread count, the features
// do not read the hidden order of the stacks, the mix is a function of (seed, game), and bad
// options are one line and exit status 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/positions.hpp"
#include "tests/process.hpp"

namespace {

using namespace carc;
using sim::kPositionFeatures;
using sim::kPositionRowBytes;
using sim::kPositionTargets;
using sim::PositionBytes;
using test::run_carcsolo;
using test::TempDir;

struct Row {
  std::uint64_t game = 0;
  std::uint16_t turn = 0, mover = 0;
  std::array<float, kPositionFeatures> f{};
  std::array<float, kPositionTargets> t{};
};

std::vector<Row> rows_of(const unsigned char* p, std::size_t size) {
  REQUIRE(size % kPositionRowBytes == 0);
  std::vector<Row> rows(size / kPositionRowBytes);
  for (Row& r : rows) {
    std::memcpy(&r.game, p, 8);
    std::memcpy(&r.turn, p + 8, 2);
    std::memcpy(&r.mover, p + 10, 2);
    std::memcpy(r.f.data(), p + 12, sizeof r.f);
    std::memcpy(r.t.data(), p + 12 + sizeof r.f, sizeof r.t);
    p += kPositionRowBytes;
  }
  return rows;
}
std::vector<Row> rows_of(const PositionBytes& b) { return rows_of(b.data(), b.size()); }

// Column index by name.
int col(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  REQUIRE_MESSAGE(it != names.end(), name);
  return int(it - names.begin());
}
int fcol(const std::string& name) {
  static const auto names = sim::position_feature_columns();
  return col(names, name);
}
int tcol(const std::string& name) {
  static const auto names = sim::position_target_columns();
  return col(names, name);
}

// The rows of one game against its game log (game-log.md): one row per placement, in order,
// with the scores, supplies, stacks and unseen tiles after that turn, and the log's outcome.
void check_against_log(const std::vector<Row>& rows, const nlohmann::json& log) {
  const int k = log["config"]["colors"], m = log["config"]["meeples"];
  std::array<int, kMaxColors> stack_size{}, drawn{};
  for (int c = 0; c < k; ++c) stack_size[c] = int(log["stacks"][c].size());
  std::array<int, kTileTypes> unseen{};
  for (int t = 0; t < kBaseTypes; ++t) unseen[t] = kTiles[t].count - (tile_name(t) == "D");
  int placed = 0, discards = 0;
  std::size_t j = 0;
  for (const auto& e : log["turns"]) {
    const int c = e["color"];
    ++drawn[c];
    --unseen[tile_type(e["tile"].get<std::string>()[0])];
    if (e["discarded"]) {
      ++discards;
      continue;
    }
    ++placed;
    REQUIRE(j < rows.size());
    const Row& r = rows[j++];
    INFO("game " << log["game"] << ", turn " << e["turn"]);
    CHECK(r.game == log["game"].get<std::uint64_t>());
    CHECK(r.turn == e["turn"].get<int>());
    CHECK(r.mover == c);
    CHECK(r.f[fcol("colors")] == k);
    CHECK(r.f[fcol("meeples")] == m);
    CHECK(r.f[fcol("turns_played")] == e["turn"].get<int>() + 1);
    CHECK(r.f[fcol("tiles_on_board")] == placed + 1);
    CHECK(r.f[fcol("discards")] == discards);
    int left = 0;
    for (int s = 0; s < kMaxColors; ++s) {
      const std::string n = std::to_string(s);
      if (s >= k) {
        for (const char* q : {"present_", "score_", "supply_", "on_board_", "stack_",
                              "expected_points_", "expected_returns_"})
          CHECK(r.f[fcol(q + n)] == 0);
        CHECK(r.t[tcol("final_score_" + n)] == 0);
        continue;
      }
      const int cc = (c + 1 + s) % k;
      left += stack_size[cc] - drawn[cc];
      CHECK(r.f[fcol("present_" + n)] == 1);
      CHECK(r.f[fcol("score_" + n)] == e["scores"][cc].get<int>());
      CHECK(r.f[fcol("supply_" + n)] == e["supply"][cc].get<int>());
      CHECK(r.f[fcol("on_board_" + n)] == m - e["supply"][cc].get<int>());
      CHECK(r.f[fcol("stack_" + n)] == stack_size[cc] - drawn[cc]);
      CHECK(r.f[fcol("expected_points_" + n)] >= 0);
      CHECK(r.f[fcol("expected_returns_" + n)] >= 0);
      CHECK(r.f[fcol("expected_returns_" + n)] <= r.f[fcol("on_board_" + n)] + 1e-5f);
      CHECK(r.t[tcol("final_score_" + n)] == log["scores"][cc].get<int>());
    }
    CHECK(r.f[fcol("tiles_left")] == left);
    for (int t = 0; t < kBaseTypes; ++t)
      CHECK(r.f[fcol("unseen_" + std::string(tile_name(t)))] == unseen[t]);
    CHECK(r.f[fcol("absorb_share")] >= 0);
    CHECK(r.f[fcol("absorb_share")] <= 1);
    // Only the last decision can end the game, and it did when no turn followed it.
    const bool last = j == rows.size();
    CHECK(r.f[fcol("ended")] == (last && log["end"]["turns"] == e["turn"].get<int>() + 1 ? 1 : 0));
    CHECK(r.t[tcol("result")] == log["result"].get<int>());
    for (int g = 0; g < kGoalCount; ++g) {
      const auto& goals = log["goals"];
      const bool has = std::find(goals.begin(), goals.end(), std::string(kGoalIds[g])) != goals.end();
      CHECK(r.t[tcol("goal_" + std::string(kGoalIds[g]))] == (has ? 1 : 0));
    }
  }
  CHECK(j == rows.size());
  CHECK(int(rows.size()) == log["end"]["tiles_placed"].get<int>());
}

struct PositionsFile {
  nlohmann::json header;
  std::size_t header_bytes = 0;
  std::vector<Row> rows;
};

PositionsFile read_positions(const test::fs::path& p) {
  const std::string bytes = test::read_text(p);
  const std::size_t nl = bytes.find('\n');
  REQUIRE(nl != std::string::npos);
  PositionsFile f;
  f.header = nlohmann::json::parse(bytes.substr(0, nl));
  f.header_bytes = nl + 1;
  f.rows = rows_of(reinterpret_cast<const unsigned char*>(bytes.data()) + nl + 1, bytes.size() - nl - 1);
  return f;
}

// The rows of each game, in game order.
std::map<std::uint64_t, std::vector<Row>> by_game(const std::vector<Row>& rows) {
  std::map<std::uint64_t, std::vector<Row>> out;
  for (const Row& r : rows) out[r.game].push_back(r);
  return out;
}

PositionBytes play_rows(const sim::GameSpec& spec, const std::string& placement) {
  auto p = make_placement_policy(placement);
  auto s = make_scoring_policy("best");
  sim::PositionFeatures features;
  PositionBytes rows;
  sim::play_positions_game(spec, *p, *s, features, rows);
  return rows;
}

}  // namespace

TEST_CASE("positions: every row agrees with the game log of its game, under every policy kind") {
  int games = 0;
  std::map<std::pair<int, int>, int> configs;
  for (const char* placement : {"heuristic", "greedy", "random"})
    for (std::uint64_t game = 0; game < 12; ++game) {
      const Config cfg = sim::mixed_config(5, game);
      const sim::GameSpec spec{cfg, 5, game};
      const PositionBytes rows = play_rows(spec, placement);
      auto p = make_placement_policy(placement);
      auto s = make_scoring_policy("best");
      const nlohmann::json log = sim::play_logged_game(spec, *p, *s, placement, "best");
      INFO(placement << " game " << game);
      check_against_log(rows_of(rows), log);
      ++games;
      configs[{cfg.colors, cfg.meeples}]++;
    }
  CHECK(games == 36);
  CHECK(configs.size() >= 5);  // the mix gave several configurations
}

TEST_CASE("positions: the features do not change when the undrawn tiles are permuted among the stacks") {
  // Game A on its deal; at a decision halfway, every tile not yet drawn is shuffled among
  // the stacks (sizes kept: the same multiset in the same places, another order), and game
  // B plays that deal. Up to and including that decision the games are the same, so each
  // row's features must be too: they cannot depend on what comes next in any stack.
  int changed_later = 0;
  for (std::uint64_t game = 0; game < 24; ++game) {
    const Config cfg = game % 2 ? Config{2, 7} : Config{3, 4};
    const std::string placement = game % 3 ? "heuristic" : "random";
    INFO(placement << " game " << game);
    sim::Stacks a = sim::deal(cfg.colors, 13, game);
    const PositionBytes rows_a = play_rows(sim::GameSpec{cfg, 13, game, &a}, placement);
    const std::vector<Row> ra = rows_of(rows_a);
    const std::size_t t = ra.size() / 2;
    // Tiles each colour had drawn by decision t: its stack's size less what is left.
    sim::Stacks b = a;
    std::vector<int> places;
    for (int slot = 0; slot < cfg.colors; ++slot) {
      const int c = (ra[t].mover + 1 + slot) % cfg.colors;
      const int left = int(ra[t].f[fcol("stack_" + std::to_string(slot))]);
      for (int i = b.begin[c + 1] - left; i < b.begin[c + 1]; ++i) places.push_back(i);
    }
    Rng rng(13, game, Stream::search);
    bool moved = false;
    for (std::size_t i = places.size(); i > 1; --i) {
      const std::size_t j = std::size_t(uniform_below(rng, std::uint32_t(i)));
      std::swap(b.tiles[std::size_t(places[i - 1])], b.tiles[std::size_t(places[j])]);
    }
    for (const int i : places) moved |= a.tiles[std::size_t(i)] != b.tiles[std::size_t(i)];
    REQUIRE(moved);
    const PositionBytes rows_b = play_rows(sim::GameSpec{cfg, 13, game, &b}, placement);
    REQUIRE(rows_b.size() >= (t + 1) * kPositionRowBytes);
    const std::size_t targets = 12 + 4 * std::size_t(kPositionFeatures);  // where a row's targets start
    for (std::size_t r = 0; r <= t; ++r) {
      INFO("row " << r);
      CHECK(std::memcmp(rows_a.data() + r * kPositionRowBytes, rows_b.data() + r * kPositionRowBytes,
                        targets) == 0);
    }
    // The check has teeth: after that decision the games go their own ways.
    const bool same_after =
        rows_a.size() == rows_b.size() &&
        std::memcmp(rows_a.data() + (t + 1) * kPositionRowBytes, rows_b.data() + (t + 1) * kPositionRowBytes,
                    rows_a.size() - (t + 1) * kPositionRowBytes) == 0;
    changed_later += !same_after;
  }
  CHECK(changed_later >= 20);
}

TEST_CASE("positions: the mix is a function of (seed, game), half the games 3 x 4") {
  std::map<std::pair<int, int>, int> count;
  constexpr int kGames = 24000;
  for (std::uint64_t g = 0; g < kGames; ++g) {
    const Config c = sim::mixed_config(3, g);
    CHECK(c.colors == sim::mixed_config(3, g).colors);
    CHECK(c.meeples == sim::mixed_config(3, g).meeples);
    REQUIRE(c.colors >= kMinColors);
    REQUIRE(c.colors <= kMaxColors);
    REQUIRE(c.meeples >= kMinMeeples);
    REQUIRE(c.meeples <= kMaxMeeples);
    count[{c.colors, c.meeples}]++;
  }
  CHECK(count.size() == 60);  // every configuration the program accepts
  // 3 x 4: 1/2 + 1/120 of the games (sd about 77 games); each other pair 1/120 (200 games).
  CHECK(std::abs(count[{3, 4}] - kGames * 61 / 120) < 400);
  for (const auto& [cfg, n] : count)
    if (cfg != std::pair{3, 4}) CHECK(std::abs(n - kGames / 120) < 90);
  // Another seed, other configurations.
  int differ = 0;
  for (std::uint64_t g = 0; g < 200; ++g)
    differ += sim::mixed_config(3, g).meeples != sim::mixed_config(4, g).meeples;
  CHECK(differ > 50);
}

TEST_CASE("positions: the rows do not depend on the thread count, and a stop leaves whole games") {
  sim::PositionsRequest req;
  req.seed = 8;
  req.first_game = 40;
  req.games = 150;
  req.mix = true;
  req.placement = "greedy";
  req.scoring = "best";
  std::vector<unsigned char> one, two;
  req.threads = 1;
  const auto a = sim::play_positions(req, [&](const unsigned char* p, std::size_t n) { one.insert(one.end(), p, p + n); });
  req.threads = 2;
  const auto b = sim::play_positions(req, [&](const unsigned char* p, std::size_t n) { two.insert(two.end(), p, p + n); });
  CHECK(one == two);
  CHECK(a.games_done == 150);
  CHECK_FALSE(a.partial);
  CHECK(a.rows == one.size() / kPositionRowBytes);
  CHECK(b.rows == a.rows);
  const auto games = by_game(rows_of(one.data(), one.size()));
  CHECK(games.size() == 150);
  CHECK(games.begin()->first == 40);
  CHECK(games.rbegin()->first == 189);
  // A stop after the first round: that round's games, whole, and nothing after them.
  std::atomic<bool> stop{false};
  req.stop = &stop;
  std::vector<unsigned char> part;
  const auto c = sim::play_positions(req, [&](const unsigned char* p, std::size_t n) {
    part.insert(part.end(), p, p + n);
    stop = true;
  });
  CHECK(c.partial);
  CHECK(c.games_done > 0);
  CHECK(c.games_done < 150);
  CHECK(part.size() == c.rows * kPositionRowBytes);
  const auto played = by_game(rows_of(part.data(), part.size()));
  CHECK(played.size() == c.games_done);
  CHECK(played.rbegin()->first == 40 + c.games_done - 1);
  CHECK(std::equal(part.begin(), part.end(), one.begin()));  // a prefix of the whole file
}

TEST_CASE("positions command: the rows equal the game logs of `run --log`, which verify accepts") {
  TempDir d;
  const std::uint64_t seed = 9, first = 3, n = 8;
  const auto r = run_carcsolo({"positions", "--games", std::to_string(n), "--first-game", std::to_string(first),
                               "--seed", std::to_string(seed), "--mix", "--placement", "heuristic",
                               "--scoring", "best", "--threads", "2", "-q", "--out", "p.bin"},
                              d.path());
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.out.empty());
  const PositionsFile f = read_positions(d / "p.bin");
  CHECK(f.header["format"] == "carcassonne-solo-positions/1");
  CHECK(f.header_bytes % 64 == 0);
  CHECK(f.header["rows"] == f.rows.size());
  CHECK(f.header["partial"] == false);
  CHECK(f.header["config"]["games"] == n);
  CHECK(f.header["config"]["first_game"] == first);
  CHECK(f.header["config"]["mix"]["rules_share"] == 0.5);
  CHECK(f.header["feature_columns"] == sim::position_feature_columns());
  CHECK(f.header["target_columns"] == sim::position_target_columns());
  CHECK(f.header["record"]["bytes"] == kPositionRowBytes);
  const auto games = by_game(f.rows);
  REQUIRE(games.size() == n);
  std::string logs;
  for (const auto& [game, rows] : games) {
    const Config cfg = sim::mixed_config(seed, game);
    CHECK(rows[0].f[fcol("colors")] == cfg.colors);
    const std::string name = "g" + std::to_string(game) + ".jsonl";
    const auto run = run_carcsolo({"run", "--seed", std::to_string(seed), "--first-game", std::to_string(game),
                                   "--games", "1", "--colors", std::to_string(cfg.colors), "--meeples",
                                   std::to_string(cfg.meeples), "--placement", "heuristic", "--scoring", "best",
                                   "--threads", "1", "-q", "--log", name, "--log-games", "1"},
                                  d.path());
    REQUIRE_MESSAGE(run.status == 0, run.err);
    const std::string log = test::read_text(d / name);
    logs += log;
    const std::uint64_t this_game = game;  // a structured binding cannot be captured (clang 14)
    INFO("game " << this_game);
    check_against_log(rows, nlohmann::json::parse(log));
  }
  test::write_text(d / "all.jsonl", logs);
  const auto v = run_carcsolo({"verify", "all.jsonl"}, d.path());
  CHECK_MESSAGE(v.status == 0, v.out << v.err);
}

TEST_CASE("positions command: the file is the same byte for byte on 1 and 2 threads") {
  TempDir d;
  for (const char* threads : {"1", "2"}) {
    const auto r = run_carcsolo({"positions", "--games", "120", "--seed", "4", "--mix", "--placement", "heuristic",
                                 "--scoring", "best", "--threads", threads, "-q", "--out",
                                 std::string("t") + threads + ".bin"},
                                d.path());
    REQUIRE_MESSAGE(r.status == 0, r.err);
  }
  const std::string one = test::read_text(d / "t1.bin"), two = test::read_text(d / "t2.bin");
  CHECK(one.size() > 120 * 30 * kPositionRowBytes);
  CHECK(one == two);
  // Without --mix: every row 3 colours x 4 meeples, the default.
  const auto r = run_carcsolo({"positions", "--games", "5", "--threads", "2", "--out", "r.bin"}, d.path());
  REQUIRE(r.status == 0);
  CHECK(r.out.find("5 games") != std::string::npos);
  const PositionsFile f = read_positions(d / "r.bin");
  CHECK(f.header["config"]["colors"] == 3);
  CHECK(f.header["config"]["mix"].is_null());
  for (const Row& row : f.rows) CHECK((row.f[fcol("colors")] == 3 && row.f[fcol("meeples")] == 4));
}

TEST_CASE("positions command: bad options are one line, exit status 2, and no file") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"positions", "--games", "5"}, "--out"},
      {{"positions", "--games", "0", "--out", "p.bin"}, "--games"},
      {{"positions", "--colors", "7", "--out", "p.bin"}, "--colors"},
      {{"positions", "--meeples", "13", "--out", "p.bin"}, "--meeples"},
      {{"positions", "--mix", "--colors", "4", "--out", "p.bin"}, "--mix"},
      {{"positions", "--mix", "--meeples", "4", "--out", "p.bin"}, "--mix"},
      {{"positions", "--placement", "nosuch", "--out", "p.bin"}, "nosuch"},
      {{"positions", "--scoring", "nosuch", "--out", "p.bin"}, "nosuch"},
      {{"positions", "--threads", "0", "--out", "p.bin"}, "--threads"},
      {{"positions", "--out", "nodir/p.bin"}, "--out"},
      {{"positions", "--out", "p.bin", "stray"}, "stray"},
      {{"positions", "--mix", "yes", "--out", "p.bin"}, "yes"},
  };
  for (const auto& [args, names] : bad) {
    TempDir d;
    const auto r = run_carcsolo(args, d.path());
    const std::size_t n_args = args.size();  // a structured binding cannot be captured (clang 14)
    INFO(n_args << " args, stderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(names) != std::string::npos);
    CHECK(d.listing().empty());
  }
}

TEST_CASE("positions command: an internal error in a worker thread is exit status 3 and no file") {
  TempDir d;
  const auto r = run_carcsolo({"positions", "--placement", "faulty:after=2000", "--games", "500", "--threads", "2",
                               "-q", "--out", "p.bin"},
                              d.path(), CARCSOLO_FAULTY_BINARY);
  CHECK(r.status == 3);
  CHECK(r.err.find("internal error: faulty policy") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(d.listing().empty());
}

TEST_CASE("positions command: Ctrl-C writes the whole games played so far, marked partial") {
  TempDir d;
  const pid_t pid = test::spawn_carcsolo({"positions", "--games", "1000000000", "--first-game", "50", "--seed", "6",
                                          "--mix", "--threads", "2", "-q", "--out", "p.bin"},
                                         d.path(), d / "stdout", d / "stderr");
  for (int i = 0; i < 6000 && test::cpu_seconds(pid) < 0.4; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGINT);
  CHECK(test::wait_status(pid) == 130);
  INFO("stderr: " << test::read_text(d / "stderr"));
  CHECK(d.listing() == std::set<std::string>{"p.bin", "stdout", "stderr"});
  const PositionsFile f = read_positions(d / "p.bin");
  CHECK(f.header["partial"] == true);
  const std::uint64_t games = f.header["config"]["games"];
  CHECK(games > 0);
  CHECK(f.header["rows"] == f.rows.size());
  const auto played = by_game(f.rows);
  CHECK(played.size() == games);
  CHECK(played.begin()->first == 50);
  CHECK(played.rbegin()->first == 50 + games - 1);
  // A fresh run of that range writes the same rows.
  const auto r = run_carcsolo({"positions", "--games", std::to_string(games), "--first-game", "50", "--seed", "6",
                               "--mix", "--threads", "1", "-q", "--out", "f.bin"},
                              d.path());
  REQUIRE(r.status == 0);
  const PositionsFile fresh = read_positions(d / "f.bin");
  CHECK(fresh.header["partial"] == false);
  const std::string a = test::read_text(d / "p.bin"), b = test::read_text(d / "f.bin");
  CHECK(a.substr(f.header_bytes) == b.substr(fresh.header_bytes));
}
