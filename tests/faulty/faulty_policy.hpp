// A placement policy for tests only, `faulty:after=N`: plays like `random` and throws
// std::logic_error at its N-th decision (counted per instance, so per thread; 0: never).
// It provokes an internal error inside the driver's worker threads.
#pragma once

namespace carc::test {

void register_faulty_policy();  // idempotent

}  // namespace carc::test
