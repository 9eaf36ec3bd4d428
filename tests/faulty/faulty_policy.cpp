#include "tests/faulty/faulty_policy.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "policies/policy.hpp"

namespace carc::test {
namespace {

class FaultyPlacement final : public PlacementPolicy {
 public:
  explicit FaultyPlacement(std::uint64_t after)
      : after_(after), random_(make_placement_policy("random")) {}
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng& rng) override {
    if (after_ != 0 && ++calls_ >= after_)
      throw std::logic_error("faulty policy: planted failure at decision " + std::to_string(calls_));
    return random_->choose(obs, legal, rng);
  }

 private:
  std::uint64_t after_, calls_ = 0;
  std::unique_ptr<PlacementPolicy> random_;
};

}  // namespace

void register_faulty_policy() {
  static const bool registered = register_placement(
      {"faulty", "tests only: plays like random, throws std::logic_error at decision `after`",
       {{"after", 0, "the decision (per thread) that throws; 0: never"}}},
      [](const Params& p, const PolicyContext&) {
        const double after = p.get("after");
        if (after < 0 || after > 1e15)
          throw std::invalid_argument("placement policy 'faulty': parameter 'after' must be >= 0");
        return std::make_unique<FaultyPlacement>(std::uint64_t(after));
      });
  (void)registered;
}

}  // namespace carc::test
