// play_until_ci: batches of play_matrix until a 95% CI is narrow enough.
#include <algorithm>
#include <cstdio>

#include "sim/driver/matrix.hpp"
#include "sim/driver/mpi.hpp"

namespace carc::sim {

double mean_half_width(const MatrixOutcome& o) { return o.acc.at(0).ci_half_width(); }

double widest_difference_width(const MatrixOutcome& o) {
  double w = 0;
  for (const auto& d : o.diff) w = std::max(w, d.ci_half_width());
  return w;
}

MatrixOutcome play_until_ci(const MatrixRequest& req, const CiGoal& goal) {
  const std::uint64_t cap = req.games;
  MatrixOutcome total;
  MatrixRequest batch = req;
  if (req.progress)  // the progress line speaks of all batches so far
    batch.progress = [&total, &req](const MatrixOutcome& part) {
      MatrixOutcome so_far = total;
      so_far.append(part);
      return req.progress(so_far);
    };
  for (std::uint64_t want = std::min(goal.first_batch, cap);;) {
    batch.first_game = req.first_game + total.games_done;
    batch.games = want - total.games_done;
    total.append(play_matrix(batch));
    const double w = goal.width(total);
    if (total.partial || w <= goal.half_width || total.games_done >= cap) break;
    want = next_checkpoint(total.games_done, w, goal.half_width, goal.first_batch, cap);
    if (req.progress && processes::rank() == 0)
      std::fprintf(stderr, "%llu games: %s, target ± %g: playing on to %llu\n",
                   static_cast<unsigned long long>(total.games_done), req.progress(total).c_str(),
                   goal.half_width, static_cast<unsigned long long>(want));
  }
  return total;
}

}  // namespace carc::sim
