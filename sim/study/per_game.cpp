#include "sim/study/per_game.hpp"

#include "core/goals.hpp"

namespace carc::sim {
namespace {

// Policy specs hold commas (heuristic:low=0.5,mean=0.5): quoted as RFC 4180 says.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

void write_per_game_csv(AtomicFile& file, const std::vector<RunConfig>& configs,
                        const PerGameRows& rows) {
  std::string out = "run,game,colors,meeples,placement,scoring,result";
  for (int c = 0; c < kMaxColors; ++c) out += ",score_" + std::to_string(c);
  out += ",tiles_placed,discards,end_reason";
  for (const auto id : kGoalIds) out += "," + std::string(id);
  out += "\n";
  const std::size_t k_n = configs.size();
  for (std::size_t r = 0; r < rows.rows.size(); ++r) {
    const std::size_t k = r % k_n;
    const RunConfig& c = configs[k];
    const GameOutcome& g = rows.rows[r];
    out += std::to_string(k) + "," + std::to_string(rows.first_game + r / k_n) + "," +
           std::to_string(c.colors) + "," + std::to_string(c.meeples) + "," +
           quoted(c.placement_policy) + "," + quoted(c.scoring_policy) + "," +
           std::to_string(g.result);
    for (int i = 0; i < kMaxColors; ++i)
      out += "," + (i < g.colors ? std::to_string(g.scores[std::size_t(i)]) : std::string());
    out += "," + std::to_string(g.tiles_placed) + "," + std::to_string(g.discards) + "," +
           std::string(end_reason_id(g.end));
    for (int i = 0; i < kGoalCount; ++i) out += (g.goals >> i & 1) ? ",1" : ",0";
    out += "\n";
    if (out.size() > (1 << 20)) {  // in pieces: a million games need not be one string
      file.write(out);
      out.clear();
    }
  }
  file.write(out);
}

}  // namespace carc::sim
