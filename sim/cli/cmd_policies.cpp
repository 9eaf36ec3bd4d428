// carcsolo policies: what can be named on the command line.
#include <iostream>

#include "policies/policy.hpp"
#include "sim/cli/cli.hpp"

namespace carc::sim {
namespace {

void print_policies(const char* title, const std::vector<PolicyInfo>& list) {
  std::cout << title << "\n";
  for (const auto& p : list) {
    std::cout << "  " << p.name << "  " << p.help << "\n";
    for (const auto& a : p.params)
      std::cout << "      " << a.key << "=" << a.default_value << "  " << a.help << "\n";
  }
}

}  // namespace

int cmd_policies(const Args& args, const ProgramInfo& /*program: writes no results file*/) {
  if (!args.empty() && args[0] != "--help" && args[0] != "-h")
    throw UsageError("policies takes no arguments (got '" + args[0] + "'; usage: carcsolo policies)");
  if (!args.empty()) {
    std::cout << "carcsolo policies: list every placement and scoring-order policy with its parameters,\n"
                 "their defaults and one line of help\n\n"
                 "usage: carcsolo policies\n\n"
                 "A policy is named wherever --placement or --scoring is taken by NAME or\n"
                 "NAME:key=value,... (values are numbers; each key at most once).\n";
    return 0;
  }
  print_policies("placement policies (--placement NAME[:key=value,...]):", placement_policies());
  print_policies("scoring-order policies (--scoring NAME[:key=value,...]):", scoring_policies());
  return 0;
}

}  // namespace carc::sim
