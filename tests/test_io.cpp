// sim/io: output files appear whole or not at all, and no temporary file outlives a
// failure.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/log/io.hpp"
#include "tests/process.hpp"

namespace {

using carc::sim::AtomicFile;
using carc::test::TempDir;
namespace fs = carc::test::fs;

}  // namespace

TEST_CASE("AtomicFile: the target appears only at commit, whole") {
  TempDir d;
  const std::string target = (d / "r.json").string();
  carc::test::write_text(target, "old\n");
  {
    AtomicFile f(target);
    f.write("new ");
    f.write("text\n");
    CHECK(carc::test::read_text(target) == "old\n");  // the old file stays until commit
    CHECK(d.listing().size() == 2);                   // r.json and the temporary file
    f.commit();
  }
  CHECK(carc::test::read_text(target) == "new text\n");
  CHECK(d.listing() == std::set<std::string>{"r.json"});
}

TEST_CASE("AtomicFile: abandoned before commit, nothing is left") {
  TempDir d;
  try {
    AtomicFile f((d / "r.json").string());
    f.write("half of it");
    throw std::runtime_error("the work failed");
  } catch (const std::runtime_error&) {
  }
  CHECK(d.listing().empty());
}

TEST_CASE("AtomicFile: a failed commit leaves no temporary file") {
  TempDir d;
  AtomicFile f((d / "r.json").string());
  f.write("results\n");
  // Something makes the rename fail after the work: a directory took the target's name.
  fs::create_directories(d / "r.json" / "sub");
  CHECK_THROWS_AS(f.commit(), std::runtime_error);
  CHECK(d.listing() == std::set<std::string>{"r.json", "r.json/sub"});
  CHECK_FALSE(f.is_open());
}

TEST_CASE("AtomicFile: a path that cannot be written fails at open, leaving nothing") {
  TempDir d;
  fs::create_directory(d / "adir");
  carc::test::write_text(d / "afile", "x");
  const auto before = d.listing();
  CHECK_THROWS_AS(AtomicFile((d / "nodir" / "r.json").string()), std::runtime_error);
  CHECK_THROWS_AS(AtomicFile((d / "afile" / "r.json").string()), std::runtime_error);
  CHECK_THROWS_AS(AtomicFile((d / "adir").string()), std::runtime_error);
  CHECK(d.listing() == before);
}

TEST_CASE("same_path: one file under different spellings") {
  TempDir d;
  fs::create_directory(d / "sub");
  const std::string a = (d / "x.json").string();
  CHECK(carc::sim::same_path(a, (d / "sub" / ".." / "x.json").string()));
  CHECK(carc::sim::same_path(a, (d / "." / "x.json").string()));
  CHECK_FALSE(carc::sim::same_path(a, (d / "sub" / "x.json").string()));
  fs::create_symlink(d / "sub", d / "link");
  CHECK(carc::sim::same_path((d / "sub" / "y").string(), (d / "link" / "y").string()));
}
