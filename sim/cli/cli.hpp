// Pieces shared by the subcommands (sim/cmd_*.cpp): option parsing that turns every user
// mistake into one UsageError line (main prints it and exits 2), and the options that
// say which game is played by which policies.
#pragma once
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/driver/deal.hpp"
#include "sim/log/io.hpp"
#include "sim/stats/stats.hpp"

// Declared only: the units that parse options include <boost/program_options.hpp>.
namespace boost::program_options {
class options_description;
class positional_options_description;
class variables_map;
}  // namespace boost::program_options

namespace carc::sim {

namespace po = boost::program_options;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Args = std::vector<std::string>;

// An integer option in [lo, hi]; anything else is a UsageError naming the option.
std::uint64_t parse_count(const std::string& opt, const std::string& text, std::uint64_t lo,
                          std::uint64_t hi);
// A real option in [lo, hi], or in (lo, hi] when `above_lo`; the message says which.
double parse_real(const std::string& opt, const std::string& text, double lo, double hi,
                  bool above_lo = false);
// "2..8", "3,4", "2..4,6": distinct integers in [lo, hi], in the order given.
std::vector<int> parse_int_list(const std::string& opt, const std::string& text, int lo, int hi);

// Arguments that are not options are a UsageError unless `positional` takes them.
po::variables_map parse(const po::options_description& d, const Args& args);
po::variables_map parse(const po::options_description& d, const Args& args,
                        const po::positional_options_description& positional);
// `d` and the file names of the usage line (every argument that is not an option) into
// `files`, through a hidden option `name` that --help does not show.
po::variables_map parse_with_files(const po::options_description& d, const Args& args,
                                   std::vector<std::string>& files, const char* name = "file");

// The output file of option --opt (an AtomicFile, opened before the work starts); a path
// that cannot be written is a UsageError naming the option.
AtomicFile open_output(const std::string& opt, const std::string& path);

// The program's version, commit and build and the command line `words` ("carcsolo" and
// its arguments, a path inside the working directory written relative to it, one outside
// by its file name), for the files it writes: built once, by main or by the Python
// module, and handed to every command. A study whose policy no command line can play (a
// Python callable) records the host program's call instead (ProgramInfo::python_call).
ProgramInfo make_program_info(const std::vector<std::string>& words);

// --deal FILE: a deal of the set `tiles` as read_deal reads it (sim/driver/deal.hpp: one
// line per colour of its stack's tile names top first, then with the river a line
// `river ...`). A file that cannot be read or does not hold a deal of the set is a
// UsageError naming the option, the file and what is wrong.
Stacks read_deal_file(const std::string& path, const TileCounts& tiles = kBaseCounts);

// Set by SIGINT, SIGTERM or SIGHUP while a long command runs (install_stop_handlers; a
// SIGHUP ignored from the start, as under nohup, stays ignored). The handlers restart
// interrupted system calls (SA_RESTART), as std::signal's do. restore_default_handlers
// puts back the removal of temporary files on those signals (sim/log/io.hpp).
extern std::atomic<bool> g_stop;
void install_stop_handlers();
void restore_default_handlers();

// A command stopped by SIGINT, SIGTERM or SIGHUP: one line on stderr, "carcsolo COMMAND: interrupted
// after DONE; " and what became of --out (`out`, empty when none was asked for). Returns
// the exit status of an interrupted command, 130.
int report_interrupted(const std::string& command, const std::string& done, const std::string& out);

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

// --value-net FILE: the learned value of every policy that uses one (`value`, search's
// leaf and vfilter), instead of the built-in net. Adds the option to `d`, into `path`.
void add_value_net_option(po::options_description& d, std::string& path);
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

// --colors, --meeples, --tileset, --large-meeple, --seed, --placement, --scoring, --aim,
// --value-net.
struct GameOptions {
  std::string colors = "3", meeples = "4", seed = "1";
  std::string tileset = "base";  // a built-in set's name or a tile-set file
  bool large_meeple = false;
  std::string placement = "random", scoring = "random";
  std::vector<std::string> aim_list;  // every --aim given (none: score)
  bool policies = true;  // add_to's with_policies: resolve() checks the placement can aim
  std::string value_net;  // --value-net: empty for the built-in net
  std::vector<std::string> placement_list;  // with lists: every --placement given
  // `lists`: --colors and --meeples take lists and ranges such as 3,4 or 2..8 (sweep).
  void add_to(po::options_description& d, bool with_policies = true, bool lists = false);
  // Validated and canonical (policy specs with every parameter spelled out); selects the
  // value net (select_value_net) first.
  RunConfig resolve() const;
  // With lists: one configuration per (placement, colours, meeples), placement outer, then
  // colours; the lists themselves (placements canonical) in the three vectors.
  std::vector<RunConfig> resolve_grid(std::vector<std::string>& placements,
                                      std::vector<int>& color_list,
                                      std::vector<int>& meeple_list) const;
};

// --deal FILE as run and replay take it: a deal of the set g.tileset, whose number of
// stacks an explicit --colors must equal (a UsageError otherwise) and which becomes g.colors.
Stacks read_deal_option(const std::string& path, const po::variables_map& vm, GameOptions& g);

// The largest game index any command plays or replays (`replay --game`'s limit): a range
// of games must end at or below it, so that every game a file names can be replayed.
inline constexpr std::uint64_t kMaxGameIndex = UINT64_MAX / 2;
// A UsageError when games [first, first + games) pass kMaxGameIndex.
void check_game_range(std::uint64_t first, std::uint64_t games);

// The options every command over a game range takes: --games (its default given),
// --first-game, --threads. --games is at most `limit`; --first-game and the last game
// (--first-game + --games - 1, checked by game_count) at most kMaxGameIndex.
struct RangeOptions {
  std::string games, first = "0", threads;
  std::uint64_t limit;
  RangeOptions(std::string default_games, std::uint64_t limit);
  void add_to(po::options_description& d, const char* games_help);
  std::uint64_t game_count(std::uint64_t at_least) const;
  std::uint64_t first_game() const;
  int thread_count() const;
  // The same; under mpirun, when --threads was not given, process 0 also says on stderr
  // how many threads each process plays on ("carcsolo COMMAND: under mpirun: ..."): the
  // default follows the cores mpirun lets a process use, often 1. Collective: every
  // process calls it.
  int thread_count(const po::variables_map& vm, const std::string& command) const;
};

// --rollouts and --candidates belong to the rollout analysis: with a `search` analysing
// player (which values moves by its own search) either one given is a UsageError.
void refuse_rollout_options(const po::variables_map& vm, const std::string& analyser);

// --per-game under mpirun is a UsageError (each process holds only its own games): every
// process finds it alike, so all exit with status 2 and process 0 alone prints it.
void refuse_per_game_under_mpirun(const std::string& per_game);

// Under mpirun every process plays its share; only process 0 writes files and prints
// (bad input too: main prints a UsageError from process 0 only).
bool writes_output();

struct Embedding;  // sim/cli/embedding.hpp

// The subcommands. Each returns the process exit status. `run`, `compare`, `sweep` and `tune` also
// run embedded in another program (the Python module), which gets the document back.
int cmd_run(const Args& args, const ProgramInfo& program);
int cmd_run(const Args& args, const ProgramInfo& program, Embedding* embed);
int cmd_compare(const Args& args, const ProgramInfo& program, Embedding* embed);
int cmd_sweep(const Args& args, const ProgramInfo& program, Embedding* embed);
int cmd_replay(const Args& args, const ProgramInfo& program);
int cmd_policies(const Args& args, const ProgramInfo& program);
int cmd_tiles(const Args& args, const ProgramInfo& program);
int cmd_compare(const Args& args, const ProgramInfo& program);
int cmd_sweep(const Args& args, const ProgramInfo& program);
int cmd_verify(const Args& args, const ProgramInfo& program);
int cmd_bench(const Args& args, const ProgramInfo& program);
int cmd_merge(const Args& args, const ProgramInfo& program);
int cmd_ceiling(const Args& args, const ProgramInfo& program);
int cmd_positions(const Args& args, const ProgramInfo& program);
int cmd_analyse(const Args& args, const ProgramInfo& program);
int cmd_advise(const Args& args, const ProgramInfo& program);
int cmd_serve(const Args& args, const ProgramInfo& program);
int cmd_analyse(const Args& args, const ProgramInfo& program, Embedding* embed);
int cmd_tune(const Args& args, const ProgramInfo& program);
int cmd_tune(const Args& args, const ProgramInfo& program, Embedding* embed);

}  // namespace carc::sim
