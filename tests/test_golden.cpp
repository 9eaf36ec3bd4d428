// Seeded games are a contract with the user: game g of seed s under a given spec is the
// same game in every build, so a study re-run reproduces the checked-in one. The logs in
// tests/golden/ were written by `carcsolo run` (the commands are in tests/golden/README.md);
// each must come out again, deal and every decision, byte for byte. A change that alters
// seeded games (the deal, a random stream, a policy's decisions or defaults) fails here
// and must re-write the logs and the studies on purpose, saying so.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/game.hpp"

using namespace carc;

namespace {

struct Golden {
  std::string file;
  std::string placement, scoring;  // as given to `run`
};

// Every file and the short specs it was written with.
const std::vector<Golden> kGolden = {
    {"random-3x4.jsonl", "random", "random"},
    {"random-6x2.jsonl", "random", "random"},
    {"greedy-4x5.jsonl", "greedy", "best"},
    {"heuristic-3x4.jsonl", "heuristic", "best"},
    {"heuristic-2x3-as-found.jsonl", "heuristic", "as-found"},
    {"mc-3x4.jsonl", "mc:rollouts=4", "best"},
    {"search-cheap-3x4.jsonl",
     "search:candidates=10,filter=0,beam=8,rollouts=10,turns=3,halving=0", "best"},
};

std::vector<nlohmann::json> read_logs(const std::string& file) {
  const auto path = std::filesystem::path(CARCSOLO_SOURCE_DIR) / "tests" / "golden" / file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "missing golden log ", path.string());
  std::vector<nlohmann::json> logs;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) logs.push_back(nlohmann::json::parse(line));
  return logs;
}

}  // namespace

TEST_CASE("golden games: the checked-in logs come out again, deal and decisions") {
  int games = 0;
  for (const Golden& g : kGolden) {
    CAPTURE(g.file);
    const auto logs = read_logs(g.file);
    CHECK(logs.size() >= 1);
    for (const auto& want : logs) {
      const auto& cfg = want["config"];
      const int colors = cfg["colors"], meeples = cfg["meeples"];
      const std::uint64_t seed = want["seed"], game = want["game"];
      CAPTURE(game);
      // Today's defaults are the logged ones: a changed default changes seeded games.
      CHECK(cfg["placement_policy"] == canonical_placement(g.placement));
      CHECK(cfg["scoring_policy"] == canonical_scoring(g.scoring));
      // The deal alone first, for a clear message when it is what changed.
      const auto dealt = sim::stack_letters(sim::deal(colors, seed, game));
      REQUIRE(dealt.size() == want["stacks"].size());
      for (std::size_t c = 0; c < dealt.size(); ++c) {
        std::string logged;
        for (const auto& t : want["stacks"][c]) logged += t.get<std::string>();
        CHECK(dealt[c] == logged);
      }
      auto p = make_placement_policy(g.placement);
      auto s = make_scoring_policy(g.scoring);
      const nlohmann::json got = sim::play_logged_game(
          sim::GameSpec{Config{colors, meeples}, seed, game}, *p, *s,
          canonical_placement(g.placement), canonical_scoring(g.scoring));
      CHECK(got["turns"] == want["turns"]);
      CHECK(got["final_scoring"] == want["final_scoring"]);
      CHECK(got == want);
      ++games;
    }
  }
  CHECK(games == 23);
}
