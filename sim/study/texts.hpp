// The words summaries print about a study: its policies, its value net, what its aim
// cost, its rates, --until-ci's verdict, and the command that replays one of its games.
#pragma once
#include <cstdint>
#include <string>

#include "sim/stats/stats.hpp"

namespace carc::sim {

// The summary's line for --until-ci: whether the target half-width was met, and if not,
// that the cap stopped the run. `what` names the interval ("the mean's 95% CI").
std::string until_ci_line(const std::string& what, double target, double achieved,
                          std::uint64_t games, std::uint64_t cap, bool partial);

// The command that replays game `game` of a configuration: "carcsolo replay [--deal FILE]
// --seed S --colors C --meeples M --placement P --scoring Q [--value-net FILE] --game G"
// (short specs, the same policies as the configuration's; --value-net when the
// configuration's net came from a file; words quoted for a POSIX shell when needed);
// `deal_path` empty: the seed's own deal.
std::string replay_command(const RunConfig& rc, const std::string& game,
                           const std::string& deal_path = "");
// `w` as one word of a POSIX shell: unchanged when nothing in it is special, else in single
// quotes.
std::string shell_word(const std::string& w);

// "P / Q": a configuration's policies as summaries print them, each with only the
// parameters that differ from their defaults (short_placement_spec).
std::string policies_text(const RunConfig& rc);
// ", value net FILE (hash 0123abcd)" when --value-net gave one, else empty: a summary's
// header names what played.
std::string value_net_text(const RunConfig& rc);

// Under an aim other than score, a summary's line of what the aim cost: "aim road_5_3c:
// reached in R% [lo%, hi%] (95% Wilson) of N games; mean result M ± h" (goals: the goals
// reached per game with its 95% CI). Empty under score.
std::string aim_line(const RunConfig& rc, const Accumulator& acc);

// A rate for a summary, rounded as people read it: three significant figures below 1000
// ("7.21", "45.7", "512"), whole numbers above ("320412").
std::string rate_text(double per_second);

}  // namespace carc::sim
