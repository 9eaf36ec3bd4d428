// play_until_ci: batches of play_matrix until every rule's 95% CI is narrow enough. The
// widths are read from exact counts only (the accumulators of whole game prefixes), so the
// batch ends, and the game the command stops at, do not depend on threads or processes.
#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/driver/matrix.hpp"
#include "sim/driver/mpi.hpp"

namespace carc::sim {
namespace {

// Half the width of the 95% Wilson interval of goal g's rate (the interval the results
// file writes as `goals.ID.wilson95`).
double wilson_half_width(const Accumulator& a, int g) {
  const auto w = wilson95(a.goal_count(g), a.games());
  return (w[1] - w[0]) / 2;
}

const char* interval_name(CiOf of, const CiRule& rule) {
  if (of == CiOf::differences) return "paired";
  return rule.goal < 0 ? "normal" : "wilson";
}

std::string number(const char* f, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

double ci_width(const MatrixOutcome& o, CiOf of, const CiRule& rule) {
  double w = 0;
  if (of == CiOf::differences)
    for (const auto& d : o.diff)
      w = std::max(w, rule.goal < 0 ? d.ci_half_width() : d.goal_ci_half_width(rule.goal));
  else
    for (const auto& a : o.acc)
      w = std::max(w, rule.goal < 0 ? a.ci_half_width() : wilson_half_width(a, rule.goal));
  return w;
}

bool ci_met(const MatrixOutcome& o, const CiGoal& goal) {
  return std::all_of(goal.rules.begin(), goal.rules.end(),
                     [&](const CiRule& r) { return ci_width(o, goal.of, r) <= r.half_width; });
}

std::string ci_rule_name(const CiRule& rule) {
  return rule.goal < 0 ? "mean" : std::string(carc::kGoalIds.at(std::size_t(rule.goal)));
}

std::string ci_status(const MatrixOutcome& o, const CiGoal& goal) {
  std::string out;
  for (const auto& r : goal.rules) {
    if (!out.empty()) out += ", ";
    const double w = ci_width(o, goal.of, r);
    out += ci_rule_name(r) + " ± " +
           (r.goal < 0 ? number("%.3f", w) + " (to " + number("%g", r.half_width) + ")"
                       : number("%.2f%%", 100 * w) + " (to " + number("%g%%", 100 * r.half_width) + ")");
  }
  return out;
}

nlohmann::json ci_record(const MatrixOutcome& o, const CiGoal& goal, std::uint64_t cap) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : goal.rules) {
    const double w = ci_width(o, goal.of, r);
    rules.push_back({{"target", ci_rule_name(r)},
                     {"half_width", r.half_width},
                     {"interval", interval_name(goal.of, r)},
                     {"achieved", w},
                     {"met", w <= r.half_width}});
  }
  nlohmann::json doc = {{"cap", cap}, {"met", ci_met(o, goal)}, {"rules", rules}};
  if (goal.first_batch > 0) doc["first_batch"] = goal.first_batch;  // 0: not known
  for (const auto& r : goal.rules)
    if (r.goal < 0) doc["half_width"] = r.half_width;
  return doc;
}

std::string until_ci_progress_line(const MatrixOutcome& so_far, double seconds,
                                   std::uint64_t check_at, const CiGoal& goal,
                                   const ProgressText& text, int processes) {
  const std::uint64_t done = so_far.acc.empty() ? 0 : so_far.acc[0].games();
  char buf[96];
  std::snprintf(buf, sizeof buf, "%llu games", static_cast<unsigned long long>(done));
  std::string line = buf;
  if (done == 0) return line + ", next check at " + std::to_string(check_at);
  const double rate = seconds > 0 ? double(done) / seconds : 0;
  std::snprintf(buf, sizeof buf, "  %.0f games/s", rate);
  line += buf;
  if (text) line += "  " + text(so_far);
  line += "  until-ci: " + ci_status(so_far, goal) + "  next check at " + std::to_string(check_at);
  if (rate > 0 && check_at > done)
    line += " in " + duration_text(double(check_at - done) / rate);
  // Mid-batch under MPI only process 0's games of the batch are known here.
  if (processes > 1) line += " (process 0's games of this batch)";
  return line;
}

MatrixOutcome play_until_ci(const MatrixRequest& req, const CiGoal& goal) {
  if (goal.rules.empty()) return play_matrix(req);
  const std::uint64_t cap = req.games;
  MatrixOutcome total;
  MatrixRequest batch = req;
  std::uint64_t want = std::min(std::max<std::uint64_t>(goal.first_batch, 1), cap);
  if (req.progress || req.line)  // the line speaks of all batches so far, not of this one
    batch.line = [&total, &want, &req, &goal](const ProgressView& v) {
      MatrixOutcome so_far = total;
      if (v.so_far && !v.so_far->acc.empty()) so_far.append(*v.so_far);
      // At a batch's end v.so_far is every process's; before, process 0's share.
      return until_ci_progress_line(so_far, total.seconds + v.seconds, want, goal,
                                    req.progress, v.processes);
    };
  for (;;) {
    batch.first_game = req.first_game + total.games_done;
    batch.games = want - total.games_done;
    total.append(play_matrix(batch));
    if (total.partial || ci_met(total, goal) || total.games_done >= cap) break;
    // The rule that needs the most games sets the next look.
    std::uint64_t next = total.games_done;
    for (const auto& r : goal.rules)
      next = std::max(next, next_checkpoint(total.games_done, ci_width(total, goal.of, r),
                                            r.half_width, goal.first_batch, cap));
    want = next;
    if ((req.progress || req.line) && processes::rank() == 0)
      std::fprintf(stderr, "until-ci: %llu games: %s: playing on to %llu\n",
                   static_cast<unsigned long long>(total.games_done),
                   ci_status(total, goal).c_str(), static_cast<unsigned long long>(want));
  }
  return total;
}

}  // namespace carc::sim
