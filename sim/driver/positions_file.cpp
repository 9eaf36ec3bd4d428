#include "sim/driver/positions_file.hpp"

#include <limits>

#include "sim/driver/errors.hpp"

namespace carc::sim {

Header positions_header(const PositionsRequest& req, const RunConfig& rc, const ProgramInfo& program,
                        std::uint64_t games, std::uint64_t rows, bool partial) {
  Header config = {{"seed", req.seed},
                   {"first_game", req.first_game},
                   {"games", games},
                   {"tileset", rc.rules().name()},
                   {"placement_policy", req.placement},
                   {"scoring_policy", req.scoring}};
  if (!rc.base_game()) {  // the expansions (the features' unseen columns are the base types')
    config["tileset_hash"] = rc.rules().hash();
    config["large_meeple"] = rc.rules().large_meeple();
  }
  if (req.mix) {
    config["colors"] = nullptr;
    config["meeples"] = nullptr;
    config["mix"] = {{"name", "rules"},
                     {"rules_share", 0.5},
                     {"rules_config", {{"colors", 3}, {"meeples", 4}}},
                     {"colors", {kMinColors, kMaxColors}},
                     {"meeples", {kMinMeeples, kMaxMeeples}}};
  } else {
    config["colors"] = req.config.colors;
    config["meeples"] = req.config.meeples;
    config["mix"] = nullptr;
  }
  config["value_net"] = {{"hash", rc.value_net_hash}, {"source", rc.value_net_source}};
  if (!rc.context.aim.is_score()) config["aim"] = rc.context.aim.id();  // what the player played for
  return {{"format", "carcassonne-solo-positions/1"},
          {"config", config},
          {"rows", rows},
          {"partial", partial},
          {"slots", kMaxColors},
          {"candidates", req.layout.candidates},
          {"feature_columns", position_feature_columns(req.layout.board)},
          {"target_columns", position_target_columns(req.layout.board)},
          {"record",
           {{"bytes", req.layout.row_bytes()},
            {"fields",
             {{"game", "<u8"},
              {"turn", "<u2"},
              {"mover", "<u2"},
              {"features", "<f4", req.layout.features()},
              {"targets", "<f4", req.layout.targets()}}}}},
          {"features_from", {{"evaluator", "heuristic"}, {"weights", "defaults"}}},
          {"program", Header::parse(program_json(program).dump())}};
}

std::string positions_header_line(const Header& h, std::size_t length) {
  std::string line = h.dump();
  if (line.size() + 1 > length) throw InternalError("positions: the header outgrew its room");
  line.append(length - 1 - line.size(), ' ');
  line += '\n';
  return line;
}

std::size_t positions_header_room(const PositionsRequest& req, const RunConfig& rc, const ProgramInfo& program) {
  const std::size_t largest =
      positions_header(req, rc, program, req.games, std::numeric_limits<std::uint64_t>::max(), false).dump().size();
  return (largest + 1 + kHeaderAlign - 1) / kHeaderAlign * kHeaderAlign;
}

}  // namespace carc::sim
