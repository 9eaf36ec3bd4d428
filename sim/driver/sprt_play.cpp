// play_sprt: batches of play_matrix that end at the SPRT's fixed checkpoints. The test is
// read from the exact sums of whole game prefixes, so the batch ends, the decision and the
// game it is taken at do not depend on threads or processes.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "sim/driver/matrix.hpp"
#include "sim/driver/mpi.hpp"

namespace carc::sim {
namespace {

std::string llr_status(const SprtTest& t, double llr) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "LLR %.3f in (%.3f, %.3f)", llr, t.lower(), t.upper());
  return buf;
}

}  // namespace

double sprt_llr(const SprtTest& test, const MatrixOutcome& o) {
  if (o.diff.empty()) return 0.0;
  const PairedDiff& d = o.diff[0];
  return sprt_llr(test, d.games(), static_cast<long double>(d.sum()),
                  static_cast<long double>(d.sum_of_squares()));
}

SprtDecision sprt_decision(const SprtTest& test, const MatrixOutcome& o) {
  return o.partial ? SprtDecision::inconclusive : sprt_decide(test, sprt_llr(test, o));
}

nlohmann::json sprt_record(const MatrixOutcome& o, const SprtTest& test, std::uint64_t cap) {
  return {{"d0", test.d0},           {"d1", test.d1},
          {"alpha", test.alpha},     {"beta", test.beta},
          {"lower", test.lower()},   {"upper", test.upper()},
          {"llr", sprt_llr(test, o)}, {"result", sprt_result_name(sprt_decision(test, o))},
          {"games", o.games_done},   {"cap", cap}};
}

std::string sprt_progress_line(const MatrixOutcome& so_far, double seconds, std::uint64_t check_at,
                               const SprtTest& test, double llr, std::uint64_t llr_at,
                               const ProgressText& text, int processes) {
  ProgressView all;
  all.so_far = so_far.acc.empty() ? nullptr : &so_far;  // none yet: just "0/N games"
  all.range = check_at;
  all.seconds = seconds;
  all.processes = processes;
  std::string line = progress_line(all, text);
  if (llr_at > 0) line += "  sprt: " + llr_status(test, llr) + " at " + std::to_string(llr_at);
  return line + "  next check at " + std::to_string(check_at);
}

MatrixOutcome play_sprt(const MatrixRequest& req, const SprtTest& test) {
  const std::uint64_t cap = req.games;
  MatrixOutcome total;
  MatrixRequest batch = req;
  std::uint64_t want = sprt_next_checkpoint(0, cap);
  if (req.progress || req.line)  // the line speaks of all batches so far, not of this one
    batch.line = [&total, &want, &req, &test](const ProgressView& v) {
      MatrixOutcome so_far = total;
      if (v.so_far && !v.so_far->acc.empty()) so_far.append(*v.so_far);
      return sprt_progress_line(so_far, total.seconds + v.seconds, want, test, sprt_llr(test, total),
                                total.games_done, req.progress, v.processes);
    };
  for (;;) {
    batch.first_game = req.first_game + total.games_done;
    batch.games = want - total.games_done;
    total.append(play_matrix(batch));
    if (total.partial || total.games_done >= cap ||
        sprt_decide(test, sprt_llr(test, total)) != SprtDecision::inconclusive)
      break;
    want = sprt_next_checkpoint(total.games_done, cap);
  }
  return total;
}

}  // namespace carc::sim
