#include "sim/driver/errors.hpp"

#include <string>

namespace carc::sim {

void FirstError::capture() noexcept {
  if (!claimed_.exchange(true)) first_ = std::current_exception();
  failed_.store(true);
}

void FirstError::rethrow_if_failed() const {
  if (!failed_.load()) return;
  try {
    std::rethrow_exception(first_);
  } catch (const InternalError&) {
    throw;
  } catch (const std::exception& e) {
    throw InternalError(e.what());
  } catch (...) {
    throw InternalError("an exception of unknown type in a worker thread");
  }
}

}  // namespace carc::sim
