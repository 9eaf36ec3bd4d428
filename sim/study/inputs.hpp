// What a study is of, read from the words a person gives: counts, numbers and lists of
// options, a deal file, the value net, the aim and the tile set of a configuration. Every
// mistake is a UsageError (sim/driver/errors.hpp) naming the option, for any front end
// (the command line, the Python module) to report as bad input.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/driver/deal.hpp"
#include "sim/driver/errors.hpp"
#include "sim/stats/stats.hpp"
#include "sim/study/matrix_files.hpp"

namespace carc::sim {

// An integer option in [lo, hi]; anything else is a UsageError naming the option.
std::uint64_t parse_count(const std::string& opt, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi);
// A real option in [lo, hi], or in (lo, hi] when `above_lo`; the message says which.
double parse_real(const std::string& opt, const std::string& text, double lo, double hi,
                  bool above_lo = false);
// "2..8", "3,4", "2..4,6": distinct integers in [lo, hi], in the order given.
std::vector<int> parse_int_list(const std::string& opt, const std::string& text, int lo, int hi);

// --deal FILE: a deal of the set `tiles` as read_deal reads it (sim/driver/deal.hpp: one
// line per colour of its stack's tile names top first, then with the river a line
// `river ...`). A file that cannot be read or does not hold a deal of the set is a
// UsageError naming the option, the file and what is wrong.
Stacks read_deal_file(const std::string& path, const TileCounts& tiles = kBaseCounts);

// Reads the net of `path` (empty: the built-in one) into `rc.context` (policies/context.hpp),
// the context every policy of the run is made with, and writes its record into `rc`
// (value_net_hash, _source, _path). A file that cannot be read or is not a
// carcsolo-value/1 net is a UsageError naming the option and the file. The net lives as
// long as a context or a policy holds it.
void select_value_net(const std::string& path, RunConfig& rc);
// Reads the tile set `spec` (a built-in name or a file; sim/driver/tilesets.hpp) into `rc`
// (name, hash, the engine's counts) and its context, with the large meeple option. An
// unknown name, a bad file or a set too small for rc.colors is a UsageError.
void select_tileset(const std::string& spec, bool large_meeple, RunConfig& rc);

// --aim ID: what the look-ahead players play for (core/goals.hpp: Aim), into rc.context;
// an unknown id is a UsageError listing the ids.
void select_aim(const std::string& id, RunConfig& rc);

// The largest game index any command plays or replays (`replay --game`'s limit): a range
// of games must end at or below it, so that every game a file names can be replayed.
inline constexpr std::uint64_t kMaxGameIndex = UINT64_MAX / 2;
// A UsageError when games [first, first + games) pass kMaxGameIndex.
void check_game_range(std::uint64_t first, std::uint64_t games);

// compare's runs: one configuration per policy from `base`, with the --placement, --scoring
// and --aim lists (each given once, shared by all, or once per policy; empty: random,
// random, score). Fewer than two policies, lists of unequal lengths or a policy that
// cannot aim is a UsageError.
std::vector<RunConfig> compare_configs(const RunConfig& base, std::vector<std::string> placement,
                                       std::vector<std::string> scoring, std::vector<std::string> aims);

// sweep --target GOAL=RATE or mean=VALUE; anything else is a UsageError.
Target parse_target(const std::string& text);

// A game's configuration as words: the colours, meeples, seed, tile set, policies, aims and
// value net a front end was given (the command line's GameOptions: --colors, --meeples,
// --tileset, --large-meeple, --seed, --placement, --scoring, --aim, --value-net).
struct GameChoice {
  std::string colors = "3", meeples = "4", seed = "1";
  std::string tileset = "base";  // a built-in set's name or a tile-set file
  bool large_meeple = false;
  std::string placement = "random", scoring = "random";
  std::vector<std::string> aim_list;  // every --aim given (none: score)
  bool policies = true;  // a placement is chosen: resolve() checks that it can aim
  std::string value_net;  // --value-net: empty for the built-in net
  std::vector<std::string> placement_list;  // with lists: every --placement given
  // Validated and canonical (policy specs with every parameter spelled out); selects the
  // value net (select_value_net) first.
  RunConfig resolve() const;
  // With lists (colors and meeples such as 3,4 or 2..8; placement_list): one configuration
  // per (placement, colours, meeples), placement outer, then colours; the lists themselves
  // (placements canonical) in the three vectors.
  std::vector<RunConfig> resolve_grid(std::vector<std::string>& placements,
                                      std::vector<int>& color_list,
                                      std::vector<int>& meeple_list) const;
};

}  // namespace carc::sim
