#include <algorithm>
// Tests of `carcsolo merge` through the built binary: shards of one study merge into the
// file one run over their union writes; files of different studies, overlapping or
// non-contiguous ranges are one line and exit status 2, with no output file.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/process.hpp"

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

// What must be equal: everything but timings and the program's identity.
json content(json doc) {
  doc.erase("performance");
  doc.erase("program");
  return doc;
}

Outcome merge(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "merge");
  return carc::test::run_carcsolo(args, dir.path());
}

int lines(const std::string& text) {
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
  REQUIRE(run_shard(dir, 300, 200, "seed.json", {"--seed", "6"}).status == 0);
  REQUIRE(run_shard(dir, 300, 200, "colors.json", {"--colors", "4"}).status == 0);
  REQUIRE(run_shard(dir, 300, 200, "meeples.json", {"--meeples", "5"}).status == 0);
  REQUIRE(run_shard(dir, 300, 200, "policy.json", {"--scoring", "as-found"}).status == 0);
  carc::test::write_text(dir / "broken.json", "{\"format\": ");

  struct Case {
    std::vector<std::string> inputs;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"a.json", "overlap.json"}, "overlaps"},
      {{"a.json", "gap.json"}, "in no file"},
      {{"a.json", "seed.json"}, "config.seed"},
      {{"a.json", "colors.json"}, "config.colors"},
      {{"a.json", "meeples.json"}, "config.meeples"},
      {{"a.json", "policy.json"}, "config.scoring_policy"},
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
    CHECK(lines(m.err) == 1);
    CHECK(m.err.find(c.says) != std::string::npos);
    CHECK(!carc::test::fs::exists(dir / "out.json"));
  }
  CHECK(merge(dir, {"--out", "out.json"}).status == 2);  // no inputs
  CHECK(merge(dir, {"a.json", "b.json", "--out", "out.json", "-q"}).status == 0);
}
