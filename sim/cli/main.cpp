// carcsolo: the command line. Every user mistake becomes one line on stderr and exit 2; an
// internal error (a broken invariant, an exception in a worker thread) one line
// "internal error: ..." and exit 3. Either way no output file is left behind.
#include <iostream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/cli/cli.hpp"
#include "sim/driver/errors.hpp"
#include "sim/driver/mpi.hpp"

namespace {

struct Command {
  const char* name;
  int (*run)(const carc::sim::Args&, const carc::sim::ProgramInfo&);
  const char* help;
};

// One line per subcommand (its code lives in sim/cmd_<name>.cpp).
const Command kCommands[] = {
    {"run", carc::sim::cmd_run, "play many seeded games, print a summary, write results JSON (--out)"},
    {"replay", carc::sim::cmd_replay, "print the game log of one game (--seed, --game; --deal for a given deal)"},
    {"policies", carc::sim::cmd_policies, "list placement and scoring-order policies with their parameters"},
    {"tiles", carc::sim::cmd_tiles, "read and check a tile set (base, base+inns, base+river, base+inns+river, or a file)"},
    {"compare", carc::sim::cmd_compare, "policies on the same seeded games: paired difference with CI, wins/draws/losses (--out)"},
    {"sweep", carc::sim::cmd_sweep, "difficulty table over colours x meeples: mean, quantiles, goal rates (--out)"},
    {"verify", carc::sim::cmd_verify, "replay game logs through the engine, report the first inconsistency of each"},
    {"bench", carc::sim::cmd_bench, "games/s per policy on 1 and all threads, engine micro-benchmarks (--json, --markdown)"},
    {"merge", carc::sim::cmd_merge, "join results files of shards of one study into the file of their union (--out)"},
    {"positions", carc::sim::cmd_positions, "training data: every decision's afterstate features and the game's outcome (--out)"},
    {"analyse", carc::sim::cmd_analyse, "value every decision of game logs by Monte Carlo: each move's expected result, the loss of the one played (--out)"},
    {"advise", carc::sim::cmd_advise, "advice at the table: type the tile drawn, get the best moves (valued as analyse values them), type the move played"},
    {"serve", carc::sim::cmd_serve, "the table page on a local HTTP server: click the tile drawn, see the advice as ghost tiles, click the move; the log at the end"},
    {"tune", carc::sim::cmd_tune, "search the numeric parameters of a placement policy (SPSA over paired games; --out trajectory)"},
    {"ceiling", carc::sim::cmd_ceiling, "REFERENCE THAT CHEATS, not a policy: the best line a beam finds seeing the stacks (a lower bound on the deal's optimum), beside a policy"},
};

void usage(std::ostream& os) {
  os << "carcsolo: Monte Carlo research tool for the Carcassonne solo variant\n\n"
        "usage: carcsolo COMMAND [options]   (carcsolo COMMAND --help for its options)\n"
        "       carcsolo --version           (version and commit of this program)\n\n"
        "commands:\n";
  for (const auto& c : kCommands) os << "  " << c.name << std::string(10 - std::string(c.name).size(), ' ') << c.help << "\n";
}

constexpr int kBadInput = 2, kInternalError = 3;

int report(const std::string& cmd, const std::string& what, int status) {
  // Under mpirun every process reads the same command line and finds the same mistake:
  // process 0 alone says so, and every process exits with status 2.
  if (status == kBadInput && carc::sim::processes::rank() != 0) return status;
  std::cerr << "carcsolo " << cmd << ": " << (status == kInternalError ? "internal error: " : "")
            << what << "\n";
  return status;
}

// Bad input arrives as UsageError, or from a library layer as std::invalid_argument (a
// policy spec) or std::runtime_error (a file that cannot be read); any other logic_error
// is a broken invariant.
int run_command(const Command& c, const carc::sim::Args& args, const carc::sim::ProgramInfo& program) {
  try {
    return c.run(args, program);
  } catch (const carc::sim::UsageError& e) {
    return report(c.name, e.what(), kBadInput);
  } catch (const carc::sim::InternalError& e) {
    return report(c.name, e.what(), kInternalError);
  } catch (const std::invalid_argument& e) {
    return report(c.name, e.what(), kBadInput);
  } catch (const std::logic_error& e) {
    return report(c.name, e.what(), kInternalError);
  } catch (const std::exception& e) {
    return report(c.name, e.what(), kBadInput);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  const carc::sim::Args args(argv + (argc > 1 ? 2 : 1), argv + argc);
  carc::sim::set_interrupted_command(cmd);
  // What the files this run writes record of the program: built here once, handed down.
  const carc::sim::ProgramInfo program = carc::sim::make_program_info(std::vector<std::string>(argv, argv + argc));
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage(std::cout);
    return 0;
  }
  if (cmd == "--version") {
    const auto& p = program;
    std::cout << p.name << " " << p.version << " (" << p.git
              << (p.dirty == 1 ? ", built from a modified tree" : "") << ")"
              << (p.compiler.empty() ? "" : "; " + p.compiler + ", " + p.build_type + " " + p.flags) << "\n";
    return 0;
  }
  for (const auto& c : kCommands) {
    if (cmd != c.name) continue;
    return run_command(c, args, program);
  }
  std::string names;
  for (const auto& c : kCommands) names += (names.empty() ? "" : ", ") + std::string(c.name);
  std::cerr << "carcsolo: " << (cmd.empty() ? "missing command" : "unknown command '" + cmd + "'")
            << " (commands: " << names << "; carcsolo --help)\n";
  return 2;
}
