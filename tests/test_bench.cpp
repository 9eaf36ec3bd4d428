// Tests of sim/bench: the report has every figure it promises, in every output form. No
// speed is asserted (speeds are the benchmark's to measure, not the tests').
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "policies/policy.hpp"
#include "policies/value_net.hpp"
#include "sim/bench/bench.hpp"
#include "sim/driver/tilesets.hpp"

namespace {

carc::sim::BenchOptions tiny() {
  carc::sim::BenchOptions o;
  o.games = 40;
  o.seconds = 0.01;
  o.reps = 2;
  o.threads = 2;
  o.placements = {"random"};
  return o;
}

}  // namespace

TEST_CASE("bench: samples give the median and the best in the right direction") {
  carc::sim::Samples rate;
  rate.values = {3, 1, 2, 10};
  CHECK(rate.median() == 2.5);
  CHECK(rate.best() == 10);
  carc::sim::Samples time = rate;
  time.higher_is_better = false;
  CHECK(time.best() == 1);
  CHECK(carc::sim::Samples{}.median() == 0);
}

TEST_CASE("bench: games per second on 1 and all threads, for each policy asked") {
  auto o = tiny();
  o.micro = false;
  const auto r = carc::sim::run_bench(o);
  REQUIRE(r.policies.size() == 1);
  const auto& f = r.policies[0];
  CHECK(f.placement == "random");
  CHECK(f.label == "random");
  CHECK(f.scoring == "as-found");
  CHECK(f.games >= 8);  // at least a few games per thread
  CHECK(f.games <= 40);
  for (const auto* s : {&f.one_thread, &f.all_threads, &f.one_thread_cpu, &f.all_threads_cpu}) {
    CHECK(s->values.size() == 2);
    CHECK(std::all_of(s->values.begin(), s->values.end(), [](double v) { return v > 0; }));
  }
  CHECK(f.scaling() > 0);
  CHECK(f.mean_tiles > 10);  // random games place about 15 tiles
  CHECK(f.mean_tiles < 71);
  CHECK(f.mean_result > 0);
  CHECK(r.micro.empty());
  const auto j = r.to_json(carc::sim::ProgramInfo{});
  CHECK(j["format"] == "carcsolo-bench/1");
  CHECK(j["policies"][0]["games_per_second_1_thread"]["samples"].size() == 2);
  CHECK(j["options"]["threads"] == 2);
  CHECK(r.table().find("random/as-found") != std::string::npos);
  CHECK(r.markdown().find("| `random` / `as-found` |") != std::string::npos);
  CHECK(r.table().find("2 threads") != std::string::npos);
  CHECK(r.markdown().find("| 2 threads |") != std::string::npos);
  // A spec off its defaults: labelled with what differs only.
  o.placements = {carc::canonical_placement("greedy:snug=1")};
  CHECK(carc::sim::run_bench(o).policies.at(0).label == "greedy:snug=1");
}

TEST_CASE("bench: one thread asked is headed \"1 thread\", not \"1 threads\"") {
  auto o = tiny();
  o.micro = false;
  o.reps = 1;
  o.threads = 1;
  const auto r = carc::sim::run_bench(o);
  CHECK(r.table().find("1 threads") == std::string::npos);
  CHECK(r.markdown().find("1 threads") == std::string::npos);
  CHECK(r.markdown().find("per CPU-s, 1 thread |") != std::string::npos);
}

TEST_CASE("bench: every placement with every scoring order asked") {
  auto o = tiny();
  o.micro = false;
  o.reps = 1;
  o.placements = {"random", "greedy"};
  o.scorings = {"as-found", "best"};
  const auto r = carc::sim::run_bench(o);
  REQUIRE(r.policies.size() == 4);
  CHECK(r.policies[0].scoring == "as-found");
  CHECK(r.policies[1].placement == "greedy");
  CHECK(r.policies[3].scoring == "best");
  CHECK(r.markdown().find("| `greedy` / `best` |") != std::string::npos);
}

TEST_CASE("bench: the engine's micro-benchmarks") {
  auto o = tiny();
  o.policies = false;
  o.reps = 1;
  const auto r = carc::sim::run_bench(o);
  CHECK(r.policies.empty());
  std::string names;
  for (const auto& m : r.micro) {
    names += m.name + ";";
    CHECK(m.unit == "ns");
    REQUIRE(m.samples.values.size() == 1);
    CHECK(m.samples.values[0] > 0);
  }
  CHECK(names ==
        "State::initial;deal;State::place;State::legal_placements;State copy;State::copy_from;"
        "State copy, heuristic games;State::copy_from, heuristic games;heuristic evaluation;"
        "afterstate features;value net;random rollout;greedy:snug=1 rollout;");
  for (const auto& m : r.micro) {
    if (m.name == "heuristic evaluation") {
      CHECK(m.what.find("per candidate move") != std::string::npos);
      CHECK(m.what.find("(mean 0.0 candidates") == std::string::npos);
    }
    // The learned value's cost per candidate names the net it timed (the context's: built-in).
    if (m.name == "value net") CHECK(m.what.find(carc::ValueNet::builtin().hash()) != std::string::npos);
  }
  CHECK(r.to_json(carc::sim::ProgramInfo{})["micro"].size() == r.micro.size());
  CHECK(r.markdown().find("| State::place |") != std::string::npos);
}

TEST_CASE("bench --tileset: the games and the engine on an expansion set, recorded in the figures") {
  auto o = tiny();
  o.reps = 1;
  const carc::sim::LoadedTileSet set = carc::sim::load_tileset("base+inns+river");
  o.context.rules = carc::sim::load_ruleset("base+inns+river", true);
  const auto r = carc::sim::run_bench(o);
  REQUIRE(r.policies.size() == 1);
  CHECK(r.policies[0].mean_tiles > 11);  // random games of this set place at least the river's tiles
  const auto j = r.to_json(carc::sim::ProgramInfo{});
  CHECK(j["options"]["tileset"] == "base+inns+river");
  CHECK(j["options"]["tileset_hash"] == set.hash);
  CHECK(j["options"]["large_meeple"] == true);
  CHECK(r.table().find("tile set base+inns+river, large meeple") != std::string::npos);
  std::string names;
  for (const auto& m : r.micro) {
    names += m.name + ";";
    if (m.name == "deal") CHECK(m.what.find("101 tiles") != std::string::npos);  // every tile but the spring
  }
  // the learned value plays the base game only: its micro-benchmarks are left out
  CHECK(names.find("value net") == std::string::npos);
  CHECK(names.find("heuristic evaluation") != std::string::npos);
  // a base bench records no set
  auto b = tiny();
  b.micro = false;
  b.reps = 1;
  CHECK(!carc::sim::run_bench(b).to_json(carc::sim::ProgramInfo{})["options"].contains("tileset"));
}
