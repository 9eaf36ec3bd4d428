#include "sim/study/stopping.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "core/goals.hpp"
#include "sim/driver/mpi.hpp"
#include "sim/study/inputs.hpp"
#include "sim/study/texts.hpp"

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

namespace {
// An error rate: above 0 and below 1, both ends excluded (parse_real's "at most 1" would
// promise 1).
double error_rate(const std::string& opt, const std::string& text) {
  double v = 0;
  try {
    v = parse_real(opt, text, 0, 1, true);
  } catch (const UsageError&) {
    v = 1;
  }
  if (v >= 1) throw UsageError("--" + opt + " must be a number above 0 and below 1 (got '" + text + "')");
  return v;
}
}  // namespace

SprtTest parse_sprt(const std::string& spec, const std::string& alpha, const std::string& beta) {
  SprtTest t;
  const auto comma = spec.find(',');
  if (comma == std::string::npos || spec.find(',', comma + 1) != std::string::npos)
    throw UsageError("--sprt takes D0,D1: two numbers of points, D0 < D1 (got '" + spec + "')");
  t.d0 = parse_real("sprt", spec.substr(0, comma), -1e9, 1e9);
  t.d1 = parse_real("sprt", spec.substr(comma + 1), -1e9, 1e9);
  if (!(t.d0 < t.d1))
    throw UsageError("--sprt D0,D1 needs D0 < D1 (H0: the mean difference is at most D0, H1: at least D1) "
                     "(got '" + spec + "')");
  t.alpha = error_rate("sprt-alpha", alpha);
  t.beta = error_rate("sprt-beta", beta);
  if (t.alpha + t.beta >= 1)
    throw UsageError("--sprt-alpha and --sprt-beta must add up to less than 1 (got " + alpha + " and " + beta + ")");
  return t;
}

std::string sprt_summary(const MatrixOutcome& r, const SprtTest& t, std::uint64_t cap) {
  const double llr = sprt_llr(t, r);
  char buf[320];
  const SprtDecision d = sprt_decision(t, r);
  if (d == SprtDecision::accept_h1)
    std::snprintf(buf, sizeof buf, "sprt: accepted H1 (mean difference >= %g) after %s: LLR %.3f >= %.3f", t.d1,
                  games_text(r.games_done).c_str(), llr, t.upper());
  else if (d == SprtDecision::accept_h0)
    std::snprintf(buf, sizeof buf, "sprt: accepted H0 (mean difference <= %g) after %s: LLR %.3f <= %.3f", t.d0,
                  games_text(r.games_done).c_str(), llr, t.lower());
  else
    std::snprintf(buf, sizeof buf, "sprt: inconclusive: %s %s: LLR %.3f in (%.3f, %.3f)",
                  r.partial ? "interrupted after" : "stopped at the cap of",
                  games_text(r.partial ? r.games_done : cap).c_str(), llr, t.lower(), t.upper());
  std::string out = buf;
  std::snprintf(buf, sizeof buf, " (H0 <= %g, H1 >= %g, alpha %g, beta %g)\n", t.d0, t.d1, t.alpha, t.beta);
  return out + buf;
}

std::string until_ci_summary(const MatrixOutcome& r, const CiGoal& goal, std::uint64_t cap) {
  std::string out;
  for (const auto& rule : goal.rules)
    out += until_ci_line(interval_words(goal, rule, r.acc.size()), rule.half_width,
                         ci_width(r, goal.of, rule), r.games_done, cap, r.partial);
  return out;
}

DryRun dry_run(MatrixRequest req, const CiGoal& goal, const std::string& each, double seconds) {
  const std::uint64_t range = req.games, first = req.first_game;
  const auto workers = std::uint64_t(std::max(1, req.threads)) * std::uint64_t(processes::count());
  req.progress = nullptr;
  req.line = nullptr;
  req.per_game = nullptr;
  // A first game per worker, then parts sized by the rate so far to fill the time asked
  // for, each a whole number of games per worker so that no thread idles at its end (as
  // none does in a long run): the first parts' start-up weighs little in the rate.
  req.games = std::min(range, workers);
  DryRun d;
  d.played = play_matrix(req);
  const MatrixOutcome& o = d.played;
  for (int part = 0; part < 8 && !o.partial && o.games_done < range && o.seconds < 0.8 * seconds; ++part) {
    const double rate = double(o.games_done) / std::max(o.seconds, 1e-6);
    const auto want = std::uint64_t(rate * (seconds - o.seconds));
    req.first_game = first + o.games_done;
    req.games = std::min((want + workers - 1) / workers * workers, range - o.games_done);
    req.games = std::max<std::uint64_t>(req.games, 1);
    d.played.append(play_matrix(req));
  }
  const double rate = double(o.games_done) / std::max(o.seconds, 1e-6);
  const std::size_t configs = req.configs.size();
  char buf[256];
  std::snprintf(buf, sizeof buf, rate < 100 ? "dry run: %s in %s on %d thread(s)%s: %.3g games/s"
                                            : "dry run: %s in %s on %d thread(s)%s: %.0f games/s",
                games_text(o.games_done).c_str(), duration_text(o.seconds).c_str(), req.threads,
                processes::count() > 1 ? (" x " + std::to_string(processes::count()) + " processes").c_str() : "",
                rate);
  d.report = buf;
  if (configs > 1) d.report += ", each under " + std::to_string(configs) + " " + each;
  d.report += "\n";
  const auto at_rate = [&](std::uint64_t n) { return duration_text(double(n) / rate); };
  if (goal.rules.empty()) {
    d.report += "estimate: the " + games_text(range) + " take about " + at_rate(range) + " at that rate\n";
  } else {
    d.report += "estimate: at most " + games_text(range) + " (the cap) take about " + at_rate(range) +
                " at that rate\n";
    // A half-width shrinks as 1/sqrt(games): the games each rule needs, by the spread seen.
    double need = 0;
    for (const auto& r : goal.rules) {
      const double ratio = ci_width(o, goal.of, r) / r.half_width;
      need = std::max(need, double(o.games_done) * ratio * ratio);
    }
    const auto guess = std::uint64_t(std::clamp(std::ceil(need), double(std::min(goal.first_batch, range)),
                                                double(range)));
    d.report += guess >= range ? "estimate: by the spread of these " + games_text(o.games_done) +
                                     ", the rules are not met before the cap (a rough guess)\n"
                               : "estimate: by the spread of these " + games_text(o.games_done) +
                                     ", the rules are met near " + games_text(guess) + ", about " +
                                     at_rate(guess) + " (a rough guess)\n";
  }
  d.report += "dry run: nothing written\n";
  return d;
}

}  // namespace carc::sim
