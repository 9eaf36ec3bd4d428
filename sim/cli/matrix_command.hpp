// What `compare` and `sweep` share around playing their matrix of runs: the request, the
// per-game rows, and the output files, opened before the work (a bad path fails first)
// and written, each whole, after it. One place for both, so they cannot drift apart.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/log/io.hpp"
#include "sim/study/matrix_files.hpp"

namespace carc::sim {

class MatrixCommand {
 public:
  // Checks --out and --per-game (a UsageError when they name one file), sets up the
  // request (every configuration of `study`, `games` from its first game, `threads`, the
  // stop flag, the caller's policies, `progress` on a terminal when not embedded) and, in
  // the process that writes, opens the files.
  MatrixCommand(const MatrixStudy& study, std::uint64_t games, int threads,
                const std::string& out, const std::string& per_game, Embedding* embed,
                ProgressText progress, const ProgramInfo& program);
  MatrixCommand(const MatrixCommand&) = delete;  // req.per_game points at rows
  MatrixCommand& operator=(const MatrixCommand&) = delete;

  MatrixRequest req;
  PerGameRows rows;
  const bool writer;  // this process writes the files (MPI: process 0)

  // Plays `play(req)` with the stop handlers installed (not when embedded).
  template <class Play>
  MatrixOutcome play(Play&& play) {
    begin_play();
    MatrixOutcome r = play(req);
    end_play();
    return r;
  }

  // The document of the study over `r` (with the number of processes when more than
  // one); writes --per-game and --out, each committed whole.
  nlohmann::json write(const MatrixStudy& study, const MatrixOutcome& r);

  // When embedded: hands the document, the rows, the configurations and the summary text
  // to the caller and returns true.
  bool hand_over(const MatrixStudy& study, nlohmann::json& doc, std::string summary);

 private:
  void begin_play();
  void end_play();
  Embedding* embed_;
  ProgramInfo program_;
  AtomicFile out_file_, per_game_file_;
};

// --until-ci and --dry-run, as compare and sweep take them.
struct StoppingOptions {
  std::vector<std::string> until_ci;
  bool dry = false;
  void add_to(po::options_description& d, const char* until_ci_help);
  // --until-ci's rules into study.ci_rules. Under them, or under another rule (`ruled`:
  // compare --sprt), --games is the cap and defaults to kUntilCiGamesDefault (unless
  // `games_cap` is false: compare --max-games gives the cap).
  void rules_into(MatrixStudy& study, RangeOptions& range, const po::variables_map& vm, bool ruled = false,
                  bool games_cap = true) const;
  // The cap (`games`) and the first batch of a study with --until-ci's rules.
  static void cap_into(MatrixStudy& study, std::uint64_t games);
  // --dry-run over `games` of `study` (dry_run_command): its exit status. A UsageError when
  // embedded: it is for the command line.
  int dry_run(const std::string& command, const MatrixStudy& study, std::uint64_t games, int threads,
              Embedding* embed, const ProgramInfo& program) const;
};

}  // namespace carc::sim
