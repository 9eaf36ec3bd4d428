// Errors by kind (docs/robustness.md). Bad input is a UsageError: one line naming the
// option or file at fault, which the command line prints with exit status 2 (the Python
// module raises it as ValueError). An InternalError is a broken invariant: a logic_error from the
// engine or any exception that escaped a worker thread; the program reports it as
// "internal error: ..." with exit status 3 and writes no output file.
#pragma once
#include <atomic>
#include <exception>
#include <stdexcept>

namespace carc::sim {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// The first exception thrown by any thread of a parallel region. An exception must not
// leave an OpenMP region (that calls std::terminate), so each thread wraps its work in
// `try { ... } catch (...) { errors.capture(); }`; the others see failed() and take no
// more work; after the region, rethrow_if_failed() throws an InternalError with the first
// exception's message.
class FirstError {
 public:
  void capture() noexcept;  // in a catch block: keeps the exception being handled if first
  bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }
  // After the region (its barrier orders the capture before this).
  void rethrow_if_failed() const;

 private:
  std::atomic<bool> claimed_{false}, failed_{false};
  std::exception_ptr first_;
};

}  // namespace carc::sim
