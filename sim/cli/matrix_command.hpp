// What `compare` and `sweep` share around playing their matrix of runs: the request, the
// per-game rows, and the output files, opened before the work (a bad path fails first)
// and written, each whole, after it. One place for both, so they cannot drift apart.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/embedding.hpp"
#include "sim/cli/matrix_files.hpp"
#include "sim/driver/matrix.hpp"
#include "sim/log/io.hpp"

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

// The bodies of the summaries, which `merge` prints for a merged file too. compare: each
// policy's mean with its CI and p10/p50/p90, each paired difference against the first with
// wins/draws/losses, and every goal's rates and paired differences. sweep: the table of
// options (a heading per placement when there are several).
void print_compare_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r);
void print_sweep_table(std::ostream& os, const std::vector<RunConfig>& cfg, const MatrixOutcome& r);

}  // namespace carc::sim
