#include "policies/context.hpp"

#include "policies/value_net.hpp"

namespace carc {

const ValueNet& PolicyContext::value_net() const { return net ? *net : ValueNet::builtin(); }

std::string PolicyContext::value_net_hash() const { return value_net().hash(); }

}  // namespace carc
