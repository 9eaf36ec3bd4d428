#include "sim/cli/stopping.hpp"

#include <algorithm>

#include "core/goals.hpp"
#include "sim/cli/cli.hpp"

namespace carc::sim {
namespace {

// The interval a rule reads, as the summary names it.
std::string interval_words(const CiGoal& goal, const CiRule& r, std::size_t configs) {
  const std::string id = ci_rule_name(r);
  if (goal.of == CiOf::differences)
    return r.goal < 0 ? "the widest difference's 95% CI"
                      : "the widest " + id + " rate difference's paired 95% CI";
  if (configs > 1)
    return r.goal < 0 ? "the widest option's mean 95% CI"
                      : "the widest option's " + id + " 95% Wilson interval";
  return r.goal < 0 ? "the mean's 95% CI" : id + "'s 95% Wilson interval";
}

}  // namespace

std::vector<CiRule> parse_until_ci(const std::vector<std::string>& specs) {
  std::vector<CiRule> rules;
  for (const auto& spec : specs) {
    CiRule r;
    std::string key = "mean", value = spec;
    if (const auto eq = spec.find('='); eq != std::string::npos) {
      key = spec.substr(0, eq);
      value = spec.substr(eq + 1);
    }
    if (key != "mean") {
      const auto it = std::find(carc::kGoalIds.begin(), carc::kGoalIds.end(), key);
      if (it == carc::kGoalIds.end())
        throw UsageError("--until-ci: unknown goal '" + key + "' (GOAL=W takes a goal id of rules.md, e.g. "
                         "total_60=0.01; a plain W or mean=W rules the mean) (got '" + spec + "')");
      r.goal = int(it - carc::kGoalIds.begin());
    }
    const bool percent = !value.empty() && value.back() == '%';
    if (r.goal < 0) {
      if (percent)
        throw UsageError("--until-ci: the mean's half-width is in points, not a percentage "
                         "(percentages are for GOAL=W) (got '" + spec + "')");
      r.half_width = parse_real("until-ci", value, 0, 1e9, true);
    } else {
      try {
        const double v = parse_real("until-ci", percent ? value.substr(0, value.size() - 1) : value, 0,
                                    percent ? 100 : 1, true);
        r.half_width = percent ? v / 100 : v;
      } catch (const UsageError&) {
        throw UsageError("--until-ci " + key + "=W: W must be a proportion above 0, at most 1 (0.01 "
                         "is ± 1 percentage point), or a percentage such as 1% (got '" + spec + "')");
      }
    }
    for (const auto& other : rules)
      if (other.goal == r.goal)
        throw UsageError("--until-ci names " + ci_rule_name(r) + " twice (got '" + spec + "')");
    rules.push_back(r);
  }
  std::sort(rules.begin(), rules.end(), [](const CiRule& a, const CiRule& b) { return a.goal < b.goal; });
  return rules;
}

std::string until_ci_summary(const MatrixOutcome& r, const CiGoal& goal, std::uint64_t cap) {
  std::string out;
  for (const auto& rule : goal.rules)
    out += until_ci_line(interval_words(goal, rule, r.acc.size()), rule.half_width,
                         ci_width(r, goal.of, rule), r.games_done, cap, r.partial);
  return out;
}

}  // namespace carc::sim
