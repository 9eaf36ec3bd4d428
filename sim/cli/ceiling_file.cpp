#include "sim/cli/ceiling_file.hpp"

#include <stdexcept>

#include "sim/cli/cli.hpp"
#include "sim/cli/matrix_files.hpp"

namespace carc::sim {

bool is_ceiling_file(const nlohmann::json& doc) {
  return doc.is_object() && doc.contains("reference") && doc.contains("ceiling");
}

nlohmann::json ceiling_document(const CeilingFile& f, int threads, double seconds) {
  RunConfig rc = f.config;
  rc.games = f.ceiling.games();
  auto doc = f.ceiling.to_json(rc, program_info(), Performance{threads, seconds});
  RunConfig ra = rc;
  ra.placement_policy = f.against;
  doc["reference"] = kCeilingReference;
  doc["ceiling"] = {{"width", f.width}};
  doc["against"] = {
      {"results", f.against_results.to_json(ra, program_info(), Performance{threads, 0})},
      {"difference", f.difference.to_json()}};
  doc["per_game"] = f.per_game;
  return doc;
}

CeilingFile read_ceiling_file(const nlohmann::json& doc) {
  const auto at = [](const nlohmann::json& obj, const char* key,
                     const std::string& where) -> const nlohmann::json& {
    if (!obj.is_object() || !obj.contains(key))
      throw std::runtime_error("no '" + where + "' (not a ceiling file)");
    return obj[key];
  };
  CeilingFile f;
  f.config = run_config_from_json(doc);
  f.ceiling = Accumulator::from_json(doc);
  if (at(doc, "reference", "reference") != kCeilingReference)
    throw std::runtime_error("'reference' is not the ceiling's");
  const auto& width = at(at(doc, "ceiling", "ceiling"), "width", "ceiling.width");
  if (!width.is_number_integer() || width.get<std::int64_t>() < 1 || width.get<std::int64_t>() > 4096)
    throw std::runtime_error("'ceiling.width' must be an integer in 1..4096");
  f.width = width.get<int>();
  if (f.config.placement_policy != "ceiling:width=" + std::to_string(f.width))
    throw std::runtime_error("'config.placement_policy' does not name the ceiling's width");
  const auto& against = at(doc, "against", "against");
  const auto& results = at(against, "results", "against.results");
  const RunConfig ra = run_config_from_json(results);
  f.against = ra.placement_policy;
  f.against_results = Accumulator::from_json(results);
  f.difference = PairedDiff::from_json(at(against, "difference", "against.difference"),
                                       "against.difference");
  f.per_game = at(doc, "per_game", "per_game");
  const std::uint64_t n = f.ceiling.games();
  RunConfig same = f.config;  // the ceiling's games, under the policy's name
  same.placement_policy = ra.placement_policy;
  if (const std::string key = config_difference(same, ra); !key.empty())
    throw std::runtime_error("'against.results.config." + key + "' is not the ceiling's");
  if (f.against_results.games() != n)
    throw std::runtime_error("'against.results' does not cover the ceiling's games");
  if (f.difference.games() != n)
    throw std::runtime_error("'against.difference' does not cover the ceiling's games");
  if (!f.per_game.is_array() || f.per_game.size() != n)
    throw std::runtime_error("'per_game' needs one entry per game (" + std::to_string(n) + ")");
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto& g = f.per_game[i];
    if (!g.is_object() || !g.contains("game") || g["game"] != f.config.first_game + i)
      throw std::runtime_error("'per_game[" + std::to_string(i) + "].game' must be " +
                               std::to_string(f.config.first_game + i));
  }
  return f;
}

}  // namespace carc::sim
