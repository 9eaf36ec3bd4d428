// Errors by kind: an exception inside the driver's worker threads (here planted by the
// test-only `faulty` placement policy, tests/faulty) is caught where it happens, stops the
// other threads and comes out of play_matrix as an InternalError; the program reports it
// as one line "internal error: ..." with exit status 3 and leaves no file, while bad input
// stays exit status 2.
#include <doctest/doctest.h>
#include <omp.h>

#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/driver/errors.hpp"
#include "sim/driver/matrix.hpp"
#include "tests/faulty/faulty_policy.hpp"
#include "tests/process.hpp"

#ifndef CARCSOLO_FAULTY_BINARY
#error "CARCSOLO_FAULTY_BINARY (carcsolo with the faulty policy) must be defined by the build"
#endif

namespace {

using carc::sim::InternalError;
using carc::sim::MatrixRequest;
using carc::sim::RunConfig;
using carc::test::Outcome;
using carc::test::TempDir;

RunConfig config(const std::string& placement) {
  RunConfig c;
  c.placement_policy = placement;
  c.scoring_policy = "random";
  return c;
}

// The message of the InternalError `f` throws ("" when it throws nothing or another type).
template <class F>
std::string internal_error_of(F&& f) {
  try {
    f();
  } catch (const InternalError& e) {
    return e.what();
  } catch (...) {
    return "(another exception type)";
  }
  return "";
}

Outcome faulty(const TempDir& dir, const std::vector<std::string>& args) {
  return carc::test::run_carcsolo(args, dir.path(), CARCSOLO_FAULTY_BINARY);
}

int lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("FirstError: the first exception of a parallel region, as an InternalError") {
  carc::sim::FirstError errors;
#pragma omp parallel num_threads(4)
  {
    try {
      throw std::logic_error("broken invariant in thread " + std::to_string(omp_get_thread_num()));
    } catch (...) {
      errors.capture();
    }
  }
  CHECK(errors.failed());
  const std::string what = internal_error_of([&] { errors.rethrow_if_failed(); });
  CHECK(what.rfind("broken invariant in thread ", 0) == 0);

  carc::sim::FirstError odd;
#pragma omp parallel num_threads(2)
  {
    try {
      if (omp_get_thread_num() == 1) throw 42;
    } catch (...) {
      odd.capture();
    }
  }
  CHECK(internal_error_of([&] { odd.rethrow_if_failed(); }).find("unknown type") != std::string::npos);

  carc::sim::FirstError none;
  CHECK_FALSE(none.failed());
  CHECK_NOTHROW(none.rethrow_if_failed());
}

TEST_CASE("play_matrix: an exception in a worker thread stops the work and is rethrown") {
  carc::test::register_faulty_policy();
  MatrixRequest req;
  req.games = 1000000000;  // would take hours: the failure must stop every thread
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    req.threads = threads;
    for (const auto& configs : {std::vector<RunConfig>{config("faulty:after=2000")},
                                std::vector<RunConfig>{config("random"), config("faulty:after=2000")}}) {
      req.configs = configs;
      const auto t0 = std::chrono::steady_clock::now();
      CHECK(internal_error_of([&] { carc::sim::play_matrix(req); }) ==
            "faulty policy: planted failure at decision 2000");
      CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60));
    }
  }
}

TEST_CASE("play_until_ci: an exception in a later batch is rethrown too") {
  carc::test::register_faulty_policy();
  MatrixRequest req;
  req.configs = {config("random"), config("faulty:after=20000")};
  req.configs[0].scoring_policy = "as-found";  // games that differ: the CI never closes
  req.threads = 2;
  req.games = 1000000;
  const carc::sim::CiGoal goal{{{-1, 1e-6}}, carc::sim::CiOf::differences, 100};
  CHECK(internal_error_of([&] { carc::sim::play_until_ci(req, goal); }).find("planted failure") !=
        std::string::npos);
  req.configs = {config("faulty:after=0")};  // never fails: plays the whole range
  req.games = 300;
  CHECK(carc::sim::play_matrix(req).games_done == 300);
}

TEST_CASE("the program: an internal error is one line, exit status 3 and no file") {
  const std::vector<std::vector<std::string>> commands = {
      {"run", "--placement", "faulty:after=3000", "--games", "100000000", "--out", "r.json",
       "--log", "l.jsonl"},
      // in the game logs, played before the run on the main thread
      {"run", "--placement", "faulty:after=30", "--out", "r.json", "--log", "l.jsonl",
       "--log-games", "50"},
      {"compare", "--placement", "random", "--placement", "faulty:after=3000", "--games",
       "100000000", "--out", "c.json"},
      {"sweep", "--placement", "faulty:after=3000", "--meeples", "3..5", "--games", "100000000",
       "--out", "s.json"},
  };
  for (const auto& command : commands) {
    for (const std::string threads : {"1", "2"}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--threads", threads});
      CAPTURE(args[0]);
      CAPTURE(threads);
      TempDir dir;
      const Outcome r = faulty(dir, args);
      CHECK(r.status == 3);
      CHECK(lines(r.err) == 1);
      CHECK(r.err.rfind("carcsolo " + args[0] + ": internal error: faulty policy: planted failure", 0) == 0);
      CHECK(dir.listing().empty());  // no output file, no temporary file
    }
  }
}

TEST_CASE("the program: bad input stays exit status 2, and a sound run works") {
  TempDir dir;
  const Outcome bad = faulty(dir, {"run", "--placement", "faulty:after=-1", "--out", "r.json"});
  CHECK(bad.status == 2);
  CHECK(lines(bad.err) == 1);
  CHECK(bad.err.find("internal error") == std::string::npos);
  CHECK(faulty(dir, {"run", "--games", "0", "--out", "r.json"}).status == 2);
  CHECK(dir.listing().empty());
  const Outcome good =
      faulty(dir, {"run", "--placement", "faulty:after=0", "--games", "200", "-q", "--out", "r.json"});
  CHECK(good.status == 0);
  CHECK(dir.listing() == std::set<std::string>{"r.json"});
}
