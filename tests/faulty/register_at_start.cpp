// carcsolo_faulty: the program with the test-only `faulty` placement policy registered
// before main runs (tests/test_errors.cpp drives it).
#include "tests/faulty/faulty_policy.hpp"

namespace {
const bool registered = (carc::test::register_faulty_policy(), true);
}  // namespace
