// Tests of `carcsolo merge` through the built binary: shards of one study (results, ceiling,
// compare or sweep files) merge into the file one run over their union writes; files of
// different kinds or studies, overlapping or non-contiguous ranges are one line and exit
// status 2, with no output file.
#include <doctest/doctest.h>

#include <algorithm>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/process.hpp"
#include "tests/value_golden.hpp"

namespace {

using carc::test::Outcome;
using carc::test::TempDir;
using nlohmann::json;

// carcsolo run over games [first, first + games) of the small study, into `out`.
Outcome run_shard(const TempDir& dir, std::uint64_t first, std::uint64_t games,
                  const std::string& out, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"run",     "--first-game", std::to_string(first),
                                   "--games", std::to_string(games),
                                   "--threads", "2", "-q", "--out", out};
  if (std::find(extra.begin(), extra.end(), "--seed") == extra.end())
    args.insert(args.end(), {"--seed", "5"});  // an option may be given once
  args.insert(args.end(), extra.begin(), extra.end());
  return carc::test::run_carcsolo(args, dir.path());
}

json load(const TempDir& dir, const std::string& name) {
  return json::parse(carc::test::read_text(dir / name));
}

// What must be equal: everything but timings and the program's identity (of the runs of
// a compare or sweep file too).
json content(json doc) {
  doc.erase("performance");
  doc.erase("program");
  if (doc.contains("runs"))
    for (auto& run : doc["runs"]) run = content(run);
  return doc;
}

// `carcsolo COMMAND` (compare or sweep) over games [first, first + games), into `out`.
Outcome run_matrix(const TempDir& dir, const std::vector<std::string>& command,
                   std::uint64_t first, std::uint64_t games, const std::string& out) {
  std::vector<std::string> args = command;
  args.insert(args.end(), {"--first-game", std::to_string(first), "--games", std::to_string(games),
                           "--threads", "2", "-q", "--out", out});
  return carc::test::run_carcsolo(args, dir.path());
}

const std::vector<std::string> kCompare = {"compare", "--scoring", "as-found", "--scoring",
                                           "random", "--scoring", "lowest-first", "--seed", "5"};
const std::vector<std::string> kSweep = {"sweep", "--meeples", "2,4", "--colors", "3..4",
                                         "--seed", "5", "--target", "mean=4",
                                         "--target", "total_50=0.01"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

Outcome merge(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "merge");
  return carc::test::run_carcsolo(args, dir.path());
}

int line_total(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("merge: shards 0-299 and 300-999 give the file of the run over games 0-999") {
  TempDir dir;
  REQUIRE(run_shard(dir, 0, 300, "a.json").status == 0);
  REQUIRE(run_shard(dir, 300, 700, "b.json").status == 0);
  REQUIRE(run_shard(dir, 0, 1000, "all.json").status == 0);
  const Outcome m = merge(dir, {"a.json", "b.json", "--out", "merged.json", "-q"});
  REQUIRE(m.status == 0);
  CHECK(content(load(dir, "merged.json")) == content(load(dir, "all.json")));
  CHECK(content(load(dir, "merged.json")) != content(load(dir, "a.json")));

  SUBCASE("in any order, and merged files merge again") {
    REQUIRE(run_shard(dir, 1000, 24, "c.json").status == 0);
    REQUIRE(run_shard(dir, 0, 1024, "all2.json").status == 0);
    REQUIRE(merge(dir, {"c.json", "merged.json", "--out", "merged2.json"}).status == 0);
    CHECK(content(load(dir, "merged2.json")) == content(load(dir, "all2.json")));
  }
  SUBCASE("a shard marked partial (an interrupted run) is exact over its range") {
    json b = load(dir, "b.json");
    b["partial"] = true;
    carc::test::write_text(dir / "b-partial.json", b.dump());
    REQUIRE(merge(dir, {"b-partial.json", "a.json", "--out", "m3.json"}).status == 0);
    CHECK(content(load(dir, "m3.json")) == content(load(dir, "all.json")));
  }
}

TEST_CASE("merge: different studies, overlaps, gaps and bad files are exit 2, no file") {
  TempDir dir;
  REQUIRE(run_shard(dir, 0, 300, "a.json").status == 0);
  REQUIRE(run_shard(dir, 300, 200, "b.json").status == 0);
  REQUIRE(run_shard(dir, 200, 200, "overlap.json").status == 0);
  REQUIRE(run_shard(dir, 600, 100, "gap.json").status == 0);
  // Overlaps of exactly one game: game 299 in a.json and in each of these.
  REQUIRE(run_shard(dir, 299, 201, "one.json").status == 0);
  REQUIRE(run_shard(dir, 299, 1, "last.json").status == 0);
  REQUIRE(run_shard(dir, 300, 200, "seed.json", {"--seed", "6"}).status == 0);
  REQUIRE(run_shard(dir, 300, 200, "colors.json", {"--colors", "4"}).status == 0);
  REQUIRE(run_shard(dir, 300, 200, "meeples.json", {"--meeples", "5"}).status == 0);
  REQUIRE(run_shard(dir, 300, 200, "policy.json", {"--scoring", "as-found"}).status == 0);
  carc::test::write_text(dir / "broken.json", "{\"format\": ");
  // Another value net (the same weights under another name), and a copy of the built-in one.
  carc::test::write_text(dir / "other.net", carc::test::renamed_builtin_net(CARCSOLO_SOURCE_DIR));
  carc::test::write_text(dir / "copy.net",
                         carc::test::read_net_text(std::string(CARCSOLO_SOURCE_DIR) + "/policies/value/default.net"));
  REQUIRE(run_shard(dir, 300, 200, "net.json", {"--value-net", "other.net"}).status == 0);
  REQUIRE(run_shard(dir, 300, 200, "copy.json", {"--value-net", "copy.net"}).status == 0);

  struct Case {
    std::vector<std::string> inputs;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"a.json", "overlap.json"}, "overlaps"},
      {{"a.json", "one.json"}, "one.json [299, 500) overlaps a.json [0, 300)"},
      {{"one.json", "a.json"}, "one.json [299, 500) overlaps a.json [0, 300)"},
      {{"a.json", "last.json"}, "last.json [299, 300) overlaps a.json [0, 300)"},
      {{"a.json", "gap.json"}, "in no file"},
      {{"a.json", "seed.json"}, "results files of different studies (config.seed differs)"},
      {{"a.json", "colors.json"}, "config.colors"},
      {{"a.json", "meeples.json"}, "config.meeples"},
      {{"a.json", "policy.json"}, "config.scoring_policy"},
      {{"a.json", "net.json"}, "config.value_net"},
      {{"a.json", "broken.json"}, "broken.json"},
      {{"a.json", "missing.json"}, "missing.json"},
      {{"a.json", "a.json"}, "overlaps"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.inputs[1]);
    std::vector<std::string> args = c.inputs;
    args.insert(args.end(), {"--out", "out.json"});
    const Outcome m = merge(dir, args);
    CHECK(m.status == 2);
    CHECK(line_total(m.err) == 1);
    CHECK(m.err.find(c.says) != std::string::npos);
    CHECK(!carc::test::fs::exists(dir / "out.json"));
  }
  CHECK(merge(dir, {"--out", "out.json"}).status == 2);  // no inputs
  CHECK(merge(dir, {"a.json", "b.json", "--out", "out.json", "-q"}).status == 0);
  // A copy of the built-in net is the built-in net (one hash): its shard merges.
  CHECK(merge(dir, {"a.json", "copy.json", "--out", "copy-merged.json", "-q"}).status == 0);
  CHECK(load(dir, "copy-merged.json")["config"]["value_net"]["hash"] == load(dir, "a.json")["config"]["value_net"]["hash"]);
}

TEST_CASE("merge: compare and sweep shards give the file of one run over their union") {
  for (const auto& command : {kCompare, kSweep}) {
    CAPTURE(command[0]);
    TempDir dir;
    REQUIRE(run_matrix(dir, command, 10, 290, "a.json").status == 0);
    REQUIRE(run_matrix(dir, command, 300, 500, "b.json").status == 0);
    REQUIRE(run_matrix(dir, command, 10, 790, "all.json").status == 0);
    const Outcome m = merge(dir, {"b.json", "a.json", "--out", "merged.json"});
    REQUIRE(m.status == 0);
    CHECK(m.out.find("2 " + command[0] + " files, games [10, 800)") != std::string::npos);
    const json merged = load(dir, "merged.json");
    CHECK(content(merged) == content(load(dir, "all.json")));
    CHECK(merged["performance"]["shards"] == 2);
    CHECK(content(merged) != content(load(dir, "a.json")));
  }
}

TEST_CASE("compare --pairs all: every pair in the summary and the file, and shards merge") {
  const auto command = with(kCompare, {"--pairs", "all"});
  TempDir dir;
  REQUIRE(run_matrix(dir, command, 0, 60, "a.json").status == 0);
  REQUIRE(run_matrix(dir, command, 60, 40, "b.json").status == 0);
  auto all = command;
  all.insert(all.end(), {"--games", "100", "--threads", "2", "--out", "all.json"});
  const Outcome whole = carc::test::run_carcsolo(all, dir.path());
  REQUIRE(whole.status == 0);
  for (const char* line : {"[1] - [0]: mean difference ", "[2] - [0]: mean difference ",
                           "[2] - [1]: mean difference "})
    CHECK(whole.out.find(line) != std::string::npos);
  const json doc = load(dir, "all.json");
  CHECK(doc["config"]["pairs"] == "all");
  REQUIRE(doc["pair_differences"].size() == 3);
  CHECK(doc["differences"].size() == 2);  // as without --pairs
  const json& d12 = doc["pair_differences"][2];
  CHECK(d12["first"] == 1);
  CHECK(d12["second"] == 2);
  CHECK(d12["sum"].get<std::int64_t>() ==
        doc["differences"][1]["sum"].get<std::int64_t>() - doc["differences"][0]["sum"].get<std::int64_t>());
  CHECK(d12["ci95"].size() == 2);
  for (std::size_t k = 0; k < 2; ++k) CHECK(doc["pair_differences"][k] == doc["differences"][k]);
  const Outcome m = merge(dir, {"b.json", "a.json", "--out", "merged.json"});
  REQUIRE(m.status == 0);
  CHECK(m.out.find("[2] - [1]: mean difference ") != std::string::npos);
  CHECK(content(load(dir, "merged.json")) == content(doc));
  // A file without every pair is of another study.
  REQUIRE(run_matrix(dir, kCompare, 100, 20, "c.json").status == 0);
  const Outcome mixed = merge(dir, {"a.json", "b.json", "c.json"});
  CHECK(mixed.status == 2);
  CHECK(mixed.err.find("config.pairs") != std::string::npos);
  // Without --pairs: no pair_differences, no config.pairs.
  const json plain = load(dir, "c.json");
  CHECK_FALSE(plain.contains("pair_differences"));
  CHECK_FALSE(plain["config"].contains("pairs"));
}

TEST_CASE("merge: the summary of merged compare files is compare's: means, paired differences, goals") {
  // heuristic's canonical spec is near 200 characters: the lines must neither be cut nor
  // print it (only what differs from the defaults).
  const std::vector<std::string> command = {"compare", "--placement", "heuristic:compact=1", "--placement",
                                            "greedy", "--scoring", "best", "--seed", "5"};
  TempDir dir;
  REQUIRE(run_matrix(dir, command, 0, 60, "a.json").status == 0);
  REQUIRE(run_matrix(dir, command, 60, 40, "b.json").status == 0);
  auto all = command;
  all.insert(all.end(), {"--games", "100", "--threads", "2"});
  const Outcome whole = carc::test::run_carcsolo(all, dir.path());
  REQUIRE(whole.status == 0);
  const Outcome m = merge(dir, {"a.json", "b.json"});
  REQUIRE(m.status == 0);
  // compare's lines from the first policy's to the goal table's last, as merge prints them.
  const auto body = [](const std::string& text) {
    const auto from = text.find("  [0] ");
    return from == std::string::npos ? std::string() : text.substr(from, text.find("speed:", from) - from);
  };
  const std::string want = body(whole.out);
  REQUIRE(want.find("  [0] heuristic:compact=1 / best: mean ") == 0);
  CHECK(want.find("[1] - [0]: mean difference ") != std::string::npos);
  CHECK(want.find("    total_60 ") != std::string::npos);
  CHECK(m.out == "carcsolo merge: 2 compare files, games [0, 100)\n3 colours x 4 meeples, seed 5\n" + want);
  CHECK(m.out.find("compact=0.3") == std::string::npos);  // no default spelled out
}

TEST_CASE("merge: ceiling shards give the file of one ceiling run, other studies are exit 2") {
  TempDir dir;
  const auto ceiling = [&](std::uint64_t first, std::uint64_t games, const std::string& out,
                           std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"ceiling", "--seed", "5", "--first-game",
                                     std::to_string(first), "--games", std::to_string(games),
                                     "--threads", "2", "-q", "--out", out};
    if (std::find(extra.begin(), extra.end(), "--width") == extra.end())
      args.insert(args.end(), {"--width", "3"});  // an option may be given once
    args.insert(args.end(), extra.begin(), extra.end());
    return carc::test::run_carcsolo(args, dir.path()).status;
  };
  REQUIRE(ceiling(0, 3, "a.json") == 0);
  REQUIRE(ceiling(3, 2, "b.json") == 0);
  REQUIRE(ceiling(0, 5, "all.json") == 0);
  const Outcome m = merge(dir, {"b.json", "a.json", "--out", "merged.json"});
  REQUIRE(m.status == 0);
  CHECK(m.out.find("2 ceiling files, games [0, 5)") != std::string::npos);
  CHECK(m.out.find("REFERENCE") != std::string::npos);
  const auto parts = [](json doc) {  // the policy's results without timings and program
    doc = content(doc);
    doc["against"]["results"] = content(doc["against"]["results"]);
    return doc;
  };
  const json merged = load(dir, "merged.json");
  CHECK(merged.contains("reference"));
  CHECK(merged["per_game"].size() == 5);
  CHECK(parts(merged) == parts(load(dir, "all.json")));
  CHECK(parts(merged) != parts(load(dir, "a.json")));
  // How often the beam beat the policy: counted again over the joined games.
  std::uint64_t better = 0;
  for (const auto& g : merged["per_game"])
    better += g["result"].get<int>() > g["against_result"].get<int>() ? 1 : 0;
  CHECK(merged["ceiling"]["better"] == better);
  CHECK(merged["ceiling"]["policy_line"] == true);
  CHECK(m.out.find("better line than the policy's own in " + std::to_string(better) + " of 5") !=
        std::string::npos);

  SUBCASE("another policy beside it, another width, a results file, a torn per_game") {
    REQUIRE(ceiling(3, 2, "greedy.json", {"--against", "greedy"}) == 0);
    REQUIRE(ceiling(3, 2, "width.json", {"--width", "4"}) == 0);
    REQUIRE(run_shard(dir, 3, 2, "run.json").status == 0);
    json torn = load(dir, "b.json");
    torn["per_game"].erase(1);
    carc::test::write_text(dir / "torn.json", torn.dump());
    json before = load(dir, "b.json");  // as older versions wrote it: the beam without the policy's line
    before["reference"] =
        "clairvoyant beam search over the dealt stacks: it sees every colour's stack order, which "
        "no player may; a ceiling to measure policies against, never a policy";
    before["ceiling"] = {{"width", 3}};
    for (auto& g : before["per_game"]) g.erase("beam_alone_result");
    carc::test::write_text(dir / "before.json", before.dump());
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"greedy.json", "against.results.config.placement_policy differs"},
        {"width.json", "config.placement_policy differs"},
        {"run.json", "merge joins files of one kind"},
        {"torn.json", "'per_game' needs one entry per game"},
        {"before.json", "ceiling.policy_line differs"}};
    for (const auto& c : cases) {
      const std::string &file = c.first, &words = c.second;  // not a binding: CAPTURE takes it
      CAPTURE(file);
      const Outcome bad = merge(dir, {"a.json", file, "--out", "bad.json"});
      CHECK(bad.status == 2);
      CHECK(bad.err.find(words) != std::string::npos);
      CHECK(line_total(bad.err) == 1);
      CHECK_FALSE(carc::test::fs::exists(dir / "bad.json"));
    }
  }
}

TEST_CASE("merge: compare and sweep files of different kinds or studies are exit 2, no file") {
  TempDir dir;
  REQUIRE(run_matrix(dir, kCompare, 0, 200, "c.json").status == 0);
  REQUIRE(run_matrix(dir, kCompare, 100, 200, "c-overlap.json").status == 0);
  REQUIRE(run_matrix(dir, kCompare, 300, 100, "c-gap.json").status == 0);
  REQUIRE(run_matrix(dir, kCompare, 199, 101, "c-one.json").status == 0);  // game 199 twice
  REQUIRE(run_matrix(dir, with(kCompare, {"--scoring", "best"}), 200, 100, "c-policies.json").status == 0);
  REQUIRE(run_matrix(dir, with(kCompare, {"--colors", "4"}), 200, 100, "c-colors.json").status == 0);
  auto reseeded = kCompare;
  reseeded.back() = "6";
  REQUIRE(run_matrix(dir, reseeded, 200, 100, "c-seed.json").status == 0);
  REQUIRE(run_matrix(dir, kSweep, 200, 100, "s.json").status == 0);
  REQUIRE(run_matrix(dir, kSweep, 0, 200, "s0.json").status == 0);
  auto meeples = kSweep;
  meeples[2] = "2,5";
  REQUIRE(run_matrix(dir, meeples, 200, 100, "s-meeples.json").status == 0);
  REQUIRE(run_matrix(dir, with(kSweep, {"--target", "mean=5"}), 200, 100, "s-targets.json").status == 0);
  REQUIRE(run_shard(dir, 200, 100, "r.json").status == 0);
  json broken = load(dir, "c-gap.json");
  broken["differences"][0]["wins"] = 1000000;
  carc::test::write_text(dir / "c-broken.json", broken.dump());

  struct Case {
    std::vector<std::string> inputs;
    std::vector<std::string> says;
  };
  const std::vector<Case> cases = {
      {{"c.json", "c-overlap.json"}, {"overlaps"}},
      {{"c.json", "c-one.json"}, {"c-one.json [199, 300) overlaps c.json [0, 200)"}},
      {{"c.json", "c-gap.json"}, {"in no file"}},
      {{"c.json", "c-policies.json"}, {"compare files", "config.policies differs"}},
      {{"c.json", "c-colors.json"}, {"compare files", "config.colors differs"}},
      {{"c.json", "c-seed.json"}, {"compare files", "config.seed differs"}},
      {{"c.json", "s.json"}, {"s.json is a sweep file", "c.json a compare file"}},
      {{"c.json", "r.json"}, {"r.json is a results file"}},
      {{"c.json", "c-broken.json"}, {"c-broken.json", "differences[0]"}},
      {{"s0.json", "s-meeples.json"}, {"sweep files", "config.meeples differs"}},
      {{"s0.json", "s-targets.json"}, {"sweep files", "targets differ"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.inputs[1]);
    const Outcome m = merge(dir, with(c.inputs, {"--out", "out.json"}));
    CHECK(m.status == 2);
    CHECK(line_total(m.err) == 1);
    for (const auto& s : c.says) {
      CAPTURE(m.err);
      CHECK(m.err.find(s) != std::string::npos);
    }
    CHECK(!carc::test::fs::exists(dir / "out.json"));
  }
  CHECK(merge(dir, {"s0.json", "s.json", "--out", "out.json", "-q"}).status == 0);
}

TEST_CASE("sweep: several placements, each option's run is what `run` writes, shards merge") {
  const std::vector<std::string> sweep = {"sweep", "--meeples", "3,5", "--colors", "3",
                                          "--placement", "random", "--placement", "greedy",
                                          "--scoring", "best", "--seed", "8",
                                          "--target", "mean=6"};
  TempDir dir;
  REQUIRE(run_matrix(dir, sweep, 0, 150, "a.json").status == 0);
  REQUIRE(run_matrix(dir, sweep, 150, 100, "b.json").status == 0);
  REQUIRE(run_matrix(dir, sweep, 0, 250, "all.json").status == 0);
  const json all = load(dir, "all.json");
  REQUIRE(all["runs"].size() == 4);  // placement outer, then meeples
  CHECK(all["config"]["placements"] == json::array({"random", "greedy:snug=0"}));
  CHECK(all["targets"].size() == 2);  // the closest option per placement
  CHECK(all["targets"][1]["placement_policy"] == "greedy:snug=0");
  const std::vector<std::pair<std::string, std::string>> expect = {
      {"random", "3"}, {"random", "5"}, {"greedy", "3"}, {"greedy", "5"}};
  for (std::size_t k = 0; k < expect.size(); ++k) {
    const std::string out = "run" + std::to_string(k) + ".json";
    REQUIRE(carc::test::run_carcsolo({"run", "--games", "250", "--seed", "8", "--colors", "3",
                                      "--meeples", expect[k].second, "--placement",
                                      expect[k].first, "--scoring", "best", "--threads", "2",
                                      "-q", "--out", out},
                                     dir.path()).status == 0);
    CHECK(content(all["runs"][k]) == content(load(dir, out)));
  }
  REQUIRE(merge(dir, {"a.json", "b.json", "--out", "merged.json"}).status == 0);
  CHECK(content(load(dir, "merged.json")) == content(all));
  // A sweep of one placement is another study.
  auto one = sweep;
  one.erase(one.begin() + 7, one.begin() + 9);
  REQUIRE(run_matrix(dir, one, 250, 50, "one.json").status == 0);
  const Outcome m = merge(dir, {"all.json", "one.json", "--out", "x.json"});
  CHECK(m.status == 2);
  CHECK(m.err.find("config.placements") != std::string::npos);
}

TEST_CASE("merge: results files of two tile sets of one name but other tiles are exit 2, no file") {
  TempDir dir;
  const Outcome base_text = carc::test::run_carcsolo({"tiles", "base", "--text"}, dir.path());
  REQUIRE(base_text.status == 0);
  REQUIRE(base_text.out.find("name base\n") != std::string::npos);
  REQUIRE(base_text.out.find("| U | 8 |") != std::string::npos);
  // The base set's text under `name`, with `u` straight roads.
  const auto set = [&](const std::string& name, int u) {
    std::string t = base_text.out;
    t.replace(t.find("name base\n"), 10, "name " + name + "\n");
    t.replace(t.find("| U | 8 |"), 9, "| U | " + std::to_string(u) + " |");
    return t;
  };
  carc::test::write_text(dir / "twin8.tiles", set("twin", 8));
  carc::test::write_text(dir / "twin7.tiles", set("twin", 7));
  carc::test::write_text(dir / "base7.tiles", set("base", 7));
  carc::test::write_text(dir / "base8.tiles", set("base", 8));  // the base set itself, from a file
  REQUIRE(run_shard(dir, 0, 20, "twin8.json", {"--tileset", "twin8.tiles"}).status == 0);
  REQUIRE(run_shard(dir, 20, 20, "twin8b.json", {"--tileset", "twin8.tiles"}).status == 0);
  REQUIRE(run_shard(dir, 20, 20, "twin7.json", {"--tileset", "twin7.tiles"}).status == 0);
  REQUIRE(run_shard(dir, 0, 20, "base.json").status == 0);
  REQUIRE(run_shard(dir, 20, 20, "base7.json", {"--tileset", "base7.tiles"}).status == 0);
  REQUIRE(run_shard(dir, 20, 20, "base8.json", {"--tileset", "base8.tiles"}).status == 0);
  REQUIRE(load(dir, "twin8.json")["config"]["tileset"] == load(dir, "twin7.json")["config"]["tileset"]);
  REQUIRE(load(dir, "twin8.json")["config"]["tileset_hash"] != load(dir, "twin7.json")["config"]["tileset_hash"]);
  REQUIRE(load(dir, "base7.json")["config"]["tileset"] == "base");
  // One name, other tiles: two studies. A base game's file records no hash: a set named
  // base with other tiles is not the base game all the same.
  for (const std::vector<std::string>& pair : std::vector<std::vector<std::string>>{
           {"twin8.json", "twin7.json"}, {"base.json", "base7.json"}, {"base7.json", "base.json"}}) {
    CAPTURE(pair[0]);
    CAPTURE(pair[1]);
    const Outcome m = merge(dir, {pair[0], pair[1], "--out", "out.json"});
    CHECK(m.status == 2);
    CHECK(line_total(m.err) == 1);
    CHECK(m.err.find("config.tileset differs") != std::string::npos);
    CHECK(!carc::test::fs::exists(dir / "out.json"));
  }
  // The same tiles under the same name merge, and the merged file keeps the set's hash.
  REQUIRE(merge(dir, {"twin8.json", "twin8b.json", "--out", "twins.json", "-q"}).status == 0);
  CHECK(load(dir, "twins.json")["config"]["tileset_hash"] == load(dir, "twin8.json")["config"]["tileset_hash"]);
  REQUIRE(merge(dir, {"base.json", "base8.json", "--out", "bases.json", "-q"}).status == 0);
  CHECK(!load(dir, "bases.json")["config"].contains("tileset_hash"));  // the base game's file
  // Two shards of the set named base with other tiles merge, and keep the hash that tells it apart.
  REQUIRE(run_shard(dir, 0, 20, "base7a.json", {"--tileset", "base7.tiles"}).status == 0);
  REQUIRE(merge(dir, {"base7a.json", "base7.json", "--out", "base7s.json", "-q"}).status == 0);
  CHECK(load(dir, "base7s.json")["config"]["tileset_hash"] == load(dir, "base7.json")["config"]["tileset_hash"]);
}
