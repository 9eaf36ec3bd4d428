// The learned value: the built-in net's inference equals its trainer's outputs, the weights
// file is refused when it is not exactly what was trained, and the `value` policy values
// the very afterstates `carcsolo positions` writes features of.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "policies/afterstate_features.hpp"
#include "policies/lookahead.hpp"
#include "policies/policy.hpp"
#include "policies/value_net.hpp"
#include "sim/driver/game.hpp"
#include "sim/driver/positions.hpp"
#include "tests/value_golden.hpp"

namespace {

using namespace carc;

const std::string kSource = CARCSOLO_SOURCE_DIR;

// Plays `inner` and records the features of the afterstate of each move it chose, as the
// `value` policy computes them (play_to_afterstate, then AfterstateFeatures).
class AfterstateRecorder final : public PlacementPolicy {
 public:
  explicit AfterstateRecorder(const std::string& inner)
      : inner_(make_placement_policy(inner)), scoring_(make_lookahead_scoring()), rng_(99, 0, Stream::search) {}
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    const Move m = inner_->choose(obs, legal, rng);
    play_to_afterstate(after_, obs.state(), obs.tile(), m, *scoring_, rng_);
    std::array<float, kAfterstateFeatures> f{};
    features_.extract(after_, obs.state().to_move(), f.data());
    recorded.insert(recorded.end(), f.begin(), f.end());
    return m;
  }
  std::vector<float> recorded;

 private:
  std::unique_ptr<PlacementPolicy> inner_;
  std::unique_ptr<ScoringPolicy> scoring_;
  Rng rng_;
  State after_;
  AfterstateFeatures features_;
};

std::string builtin_text() { return test::read_net_text(kSource + "/policies/value/default.net"); }

}  // namespace

TEST_CASE("value net: the built-in net gives its trainer's golden outputs") {
  const ValueNet& net = ValueNet::builtin();
  const test::Golden g = test::read_golden(kSource + "/policies/value/default.golden");
  CHECK(g.net_hash == net.hash());
  CHECK(g.cases.size() >= 6);
  CHECK(net.inputs() == kAfterstateFeatures);
  const double err = test::golden_error(net, g);
  INFO("largest relative error " << err);
  CHECK(err <= 1e-5);
  // The net built in is the file checked in, and its hash is the file's own.
  const ValueNet file = ValueNet::parse(builtin_text());
  CHECK(file.hash() == net.hash());
  CHECK(builtin_text().find("hash " + net.hash() + "\n") != std::string::npos);
}

TEST_CASE("value net: a file that is not exactly what was trained is refused with one line") {
  const std::string good = builtin_text();
  auto refused = [](const std::string& text, const std::string& why) {
    try {
      (void)ValueNet::parse(text);
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.find(why) != std::string::npos);
      CHECK(what.find('\n') == std::string::npos);
      return true;
    }
    return false;
  };
  CHECK(refused("carcsolo-value/2\n" + good.substr(good.find('\n') + 1), "carcsolo-value/1"));
  // One bit of one weight changed: the hash no longer matches.
  std::string changed = good;
  const std::size_t at = changed.find("\nbias ") + 6;
  changed[at] = changed[at] == '0' ? '1' : '0';
  CHECK(refused(changed, "hash"));
  CHECK(refused(good.substr(0, good.rfind("hash ")), "hash"));
  CHECK(refused(good + "extra\n", "after the `hash` line"));
  std::string short_row = good;
  const std::size_t bias = short_row.find("\nbias ") + 6;
  short_row.erase(bias, 9);  // one value fewer
  CHECK(refused(short_row, "values, expected"));
  CHECK_NOTHROW((void)ValueNet::parse(good));
}

TEST_CASE("value: the afterstate it values is the one `positions` writes features of") {
  for (std::uint64_t game = 0; game < 6; ++game) {
    const Config cfg = sim::mixed_config(3, game);
    const sim::GameSpec spec{cfg, 3, game};
    AfterstateRecorder recorder("heuristic");
    auto scoring = make_scoring_policy("best");
    sim::PositionFeatures features;
    sim::PositionBytes rows;
    sim::play_positions_game(spec, recorder, *scoring, features, rows);
    const std::size_t n = rows.size() / sim::kPositionRowBytes;
    INFO("game " << game);
    REQUIRE(recorder.recorded.size() == n * std::size_t(kAfterstateFeatures));
    int differ = 0;
    for (std::size_t r = 0; r < n; ++r)
      differ += std::memcmp(rows.data() + r * sim::kPositionRowBytes + sim::kPositionRowHead,
                            recorder.recorded.data() + r * kAfterstateFeatures,
                            4 * std::size_t(kAfterstateFeatures)) != 0;
    CHECK(differ == 0);
  }
}

TEST_CASE("value: a game is a function of (seed, game, spec), and with one candidate it plays the heuristic's first") {
  auto scoring = make_scoring_policy("best");
  for (std::uint64_t game = 0; game < 8; ++game) {
    const sim::GameSpec spec{{3, 4}, 11, game};
    auto a = make_placement_policy("value");
    auto b = make_placement_policy("value");
    const auto first = sim::play_game(spec, *a, *scoring);
    (void)sim::play_game(sim::GameSpec{{2, 5}, 12, game}, *b, *scoring);  // b has played before
    const auto second = sim::play_game(spec, *b, *scoring);
    CHECK(first.result == second.result);
    CHECK(first.scores == second.scores);
    auto one = make_placement_policy("value:candidates=1");
    // search:candidates=1 plays the first of the same ranking (random ties alike).
    auto h = make_placement_policy("search:candidates=1");
    const auto v1 = sim::play_game(spec, *one, *scoring);
    const auto hh = sim::play_game(spec, *h, *scoring);
    CHECK(v1.scores == hh.scores);
    CHECK(v1.tiles_placed == hh.tiles_placed);
  }
  CHECK_THROWS_AS(make_placement_policy("value:candidates=1.5"), std::invalid_argument);
  CHECK_THROWS_AS(make_placement_policy("value:candidates=-1"), std::invalid_argument);
}
