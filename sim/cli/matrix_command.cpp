#include "sim/cli/matrix_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include <boost/program_options.hpp>

#include "sim/cli/cli.hpp"
#include "sim/driver/mpi.hpp"
#include "sim/study/per_game.hpp"
#include "sim/study/stopping.hpp"

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

void StoppingOptions::add_to(po::options_description& d, const char* until_ci_help) {
  d.add_options()
      ("until-ci", po::value(&until_ci)->composing(), until_ci_help)
      ("dry-run", po::bool_switch(&dry), "play a few seconds' worth, print the games/s measured and the whole run's estimated time; write nothing");
}

void StoppingOptions::rules_into(MatrixStudy& study, RangeOptions& range, const po::variables_map& vm, bool ruled,
                                 bool games_cap) const {
  study.ci_rules = parse_until_ci(until_ci);
  if (games_cap && (ruled || !study.ci_rules.empty()) && vm["games"].defaulted())
    range.games = kUntilCiGamesDefault;
}

void StoppingOptions::cap_into(MatrixStudy& study, std::uint64_t games) {
  study.ci_cap = games;
  study.ci_first_batch = std::min(kFirstBatch, games);
}

int StoppingOptions::dry_run(const std::string& command, const MatrixStudy& study, std::uint64_t games, int threads,
                             Embedding* embed, const ProgramInfo& program) const {
  if (embed) throw UsageError("--dry-run is for the command line");
  MatrixCommand cmd(study, games, threads, "", "", nullptr, nullptr, program);  // no file is opened
  return dry_run_command(command, cmd.req, study.ci_goal());
}

}  // namespace carc::sim
