#include "sim/cli/matrix_command.hpp"

#include <unistd.h>

#include <utility>

#include "sim/cli/cli.hpp"
#include "sim/cli/per_game.hpp"
#include "sim/driver/mpi.hpp"

namespace carc::sim {

MatrixCommand::MatrixCommand(const MatrixStudy& study, std::uint64_t games, int threads,
                             const std::string& out, const std::string& per_game,
                             Embedding* embed, ProgressText progress, const ProgramInfo& program)
    : rows{study.first_game, study.configs.size(), {}}, writer(writes_output()), embed_(embed), program_(program) {
  refuse_per_game_under_mpirun(per_game);
  if (!out.empty() && !per_game.empty() && same_path(out, per_game))
    throw UsageError("--out and --per-game must name different files (both are '" + out + "')");
  req.configs = study.configs;
  req.first_game = study.first_game;
  req.games = games;
  req.threads = threads;
  req.stop = &g_stop;
  req.all_pairs = study.all_pairs;
  if (!per_game.empty() || (embed && embed->keep_games)) req.per_game = &rows;
  if (embed) req.makers = embed->makers;
  if (::isatty(STDERR_FILENO) && !embed) req.progress = std::move(progress);
  if (!out.empty() && writer) out_file_ = open_output("out", out);
  if (!per_game.empty() && writer) per_game_file_ = open_output("per-game", per_game);
}

void MatrixCommand::begin_play() {
  if (!embed_) install_stop_handlers();
}

void MatrixCommand::end_play() {
  if (!embed_) restore_default_handlers();
}

nlohmann::json MatrixCommand::write(const MatrixStudy& study, const MatrixOutcome& r) {
  auto doc = matrix_document(study, r, req.threads, program_);
  if (processes::count() > 1) doc["performance"]["processes"] = processes::count();
  if (per_game_file_.is_open()) {
    write_per_game_csv(per_game_file_, study.configs, rows);
    per_game_file_.commit();
  }
  if (out_file_.is_open()) {
    out_file_.write(doc.dump(2) + "\n");
    out_file_.commit();
  }
  return doc;
}

bool MatrixCommand::hand_over(const MatrixStudy& study, nlohmann::json& doc, std::string summary) {
  if (!embed_) return false;
  embed_->summary = std::move(summary);
  embed_->document = std::move(doc);
  embed_->per_game = std::move(rows);
  embed_->configs = study.configs;
  return true;
}

}  // namespace carc::sim
