#include "policies/context.hpp"

#include <stdexcept>

#include "policies/value_net.hpp"

namespace carc {

const ValueNet& PolicyContext::value_net() const {
  if (!rules->base_tiles())
    throw std::invalid_argument(
        "the learned value knows the base game only (its features are the base set's): play it "
        "with --tileset base and without --large-meeple");
  return net ? *net : ValueNet::builtin();
}

std::string PolicyContext::value_net_hash() const { return value_net().hash(); }

}  // namespace carc
