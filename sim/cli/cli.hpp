// Pieces shared by the subcommands (sim/cli/cmd_*.cpp): option parsing that turns every
// user mistake into one UsageError line (main prints it and exits 2), and the options that
// say which game is played by which policies. What they call lives below the command line
// (sim/study/ and the rooms it builds on).
#pragma once
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/analysis/advice.hpp"
#include "sim/driver/deal.hpp"
#include "sim/driver/errors.hpp"
#include "sim/log/io.hpp"
#include "sim/stats/stats.hpp"
#include "sim/study/inputs.hpp"
#include "sim/study/stopping.hpp"
#include "sim/study/texts.hpp"

// Declared only: the units that parse options include <boost/program_options.hpp>.
namespace boost::program_options {
class options_description;
class positional_options_description;
class variables_map;
}  // namespace boost::program_options

namespace carc::sim {

namespace po = boost::program_options;

using Args = std::vector<std::string>;

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

// --value-net FILE: the learned value of every policy that uses one (`value`, search's
// leaf and vfilter), instead of the built-in net. Adds the option to `d`, into `path`.
void add_value_net_option(po::options_description& d, std::string& path);
// --colors, --meeples, --tileset, --large-meeple, --seed, --placement, --scoring, --aim,
// --value-net.
struct GameOptions : GameChoice {
  // `lists`: --colors and --meeples take lists and ranges such as 3,4 or 2..8 (sweep).
  void add_to(po::options_description& d, bool with_policies = true, bool lists = false);
};

// The advisor's options, as `advise` and `serve` take them: --analyser, --scoring,
// --rollouts, --candidates, --seed, --tileset and --large-meeple (the last two's help
// given, as they differ).
struct AdvisorOptions {
  std::string analyser = "search", scoring = "best", rollouts = "32", candidates = "8", seed = "1";
  std::string tileset = "base";
  bool large_meeple = false;
  void add_to(po::options_description& d, const char* tileset_help, const char* large_meeple_help);
  // Validated: the tile set into `rc` (checked against rc.colors), the advice with rc's
  // context (its value net and aim selected before); an analyser that cannot play the set
  // or cannot aim is a UsageError, as is a rollout option beside a search analyser.
  AdviceOptions resolve(const po::variables_map& vm, RunConfig& rc) const;
};

// --deal FILE as run and replay take it: a deal of the set g.tileset, whose number of
// stacks an explicit --colors must equal (a UsageError otherwise) and which becomes g.colors.
Stacks read_deal_option(const std::string& path, const po::variables_map& vm, GameOptions& g);


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

// `command --dry-run` (sim/study/stopping.hpp: dry_run) with the stop handlers installed,
// its report on stdout (the process that writes), the exit status (130 when interrupted).
int dry_run_command(const std::string& command, const MatrixRequest& req, const CiGoal& goal);

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
