#include "sim/study/run_file.hpp"

#include <sstream>

#include "sim/driver/mpi.hpp"
#include "sim/study/stopping.hpp"
#include "sim/study/texts.hpp"

namespace carc::sim {

nlohmann::json run_document(const MatrixOutcome& r, const RunConfig& rc, const ProgramInfo& program, int threads,
                            const Stacks* deal, const CiGoal& goal) {
  auto doc = r.run_json(rc, rc.first_game, program, threads, 0);
  if (deal) {
    doc["deal"] = stack_letters(*deal);
    if (rc.rules().river()) doc["deal_river"] = river_letters(*deal);
  }
  if (processes::count() > 1) doc["performance"]["processes"] = processes::count();
  if (!goal.rules.empty())  // config.first_game and config.games name the range played
    doc["until_ci"] = ci_record(r, goal, rc.games);
  return doc;
}

std::string run_summary(const MatrixOutcome& r, const RunConfig& rc, int threads, const std::string& deal_path,
                        const CiGoal& goal, bool replayable) {
  std::ostringstream summary;
  summary << "carcsolo run: " << policies_text(rc) << value_net_text(rc) << ", " << rc.colors
          << " colours x " << rc.meeples << " meeples, "
          << (!deal_path.empty() ? "deal " + deal_path + " in every game, policies' streams of seed "
                                 : std::string("seed "))
          << rc.seed << (r.partial ? "  (interrupted: partial)" : "") << "\n"
          << aim_line(rc, r.acc[0]) << r.acc[0].summary() << "speed: " << rate_text(r.seconds > 0 ? double(r.games_done) / r.seconds : 0)
          << " games/s on " << threads << " thread(s)\n";
  if (!replayable)
    summary << "replay a game: not from the command line (a policy of the calling program played)\n";
  else
    summary << "replay a game: " << replay_command(rc, std::to_string(rc.first_game), deal_path) << "\n";
  if (!goal.rules.empty()) summary << until_ci_summary(r, goal, rc.games);
  return summary.str();
}

}  // namespace carc::sim
