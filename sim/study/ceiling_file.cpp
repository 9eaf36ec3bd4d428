#include "sim/study/ceiling_file.hpp"

#include <cstdio>
#include <stdexcept>

#include "policies/policy.hpp"
#include "sim/study/inputs.hpp"
#include "sim/study/matrix_files.hpp"
#include "sim/study/texts.hpp"

namespace carc::sim {

bool is_ceiling_file(const nlohmann::json& doc) {
  return doc.is_object() && doc.contains("reference") && doc.contains("ceiling");
}

CeilingCounts ceiling_counts(const nlohmann::json& per_game) {
  CeilingCounts c;
  for (const auto& g : per_game) {
    const auto against = g["against_result"].get<int>();
    if (g["result"].get<int>() > against) ++c.better;
    if (g.contains("beam_alone_result") && g["beam_alone_result"].is_number_integer() &&
        g["beam_alone_result"].get<int>() > against)
      ++c.beam_alone_better;
  }
  return c;
}

nlohmann::json ceiling_document(const CeilingFile& f, int threads, double seconds, const ProgramInfo& program) {
  RunConfig rc = f.config;
  rc.games = f.ceiling.games();
  auto doc = f.ceiling.to_json(rc, program, Performance{threads, seconds});
  RunConfig ra = rc;
  ra.placement_policy = f.against;
  doc["reference"] = f.policy_line ? kCeilingReference : kCeilingReferenceV1;
  doc["ceiling"] = {{"width", f.width}, {"policy_line", f.policy_line}};
  if (f.policy_line) {
    const CeilingCounts c = ceiling_counts(f.per_game);
    doc["ceiling"]["better"] = c.better;
    doc["ceiling"]["beam_alone_better"] = c.beam_alone_better;
  }
  doc["against"] = {
      {"results", f.against_results.to_json(ra, program, Performance{threads, 0})},
      {"difference", f.difference.to_json()}};
  doc["per_game"] = f.per_game;
  return doc;
}

std::string ceiling_summary(const CeilingFile& f) {
  const std::uint64_t n = f.ceiling.games();
  char buf[512];
  std::string out;
  std::snprintf(buf, sizeof buf, "against %s / best on the same games: mean %.3f ± %.3f\n",
                short_placement_spec(f.against).c_str(), f.against_results.mean(),
                f.against_results.ci_half_width());
  out += buf;
  const double m = f.difference.mean(), h = f.difference.ci_half_width();
  std::snprintf(buf, sizeof buf,
                "knowing the order is worth at least %+.3f [%.3f, %.3f] points per game (paired "
                "95%% CI; the beam's line is a lower bound on the deal's optimum)\n",
                m, m - h, m + h);
  out += buf;
  if (!f.policy_line) return out + "(a file written before the beam kept the policy's line)\n";
  const CeilingCounts c = ceiling_counts(f.per_game);
  std::snprintf(buf, sizeof buf,
                "the beam found a better line than the policy's own in %llu of %llu games; on its "
                "own merit (no position kept only for being the policy's) in %llu\n",
                static_cast<unsigned long long>(c.better), static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(c.beam_alone_better));
  return out + buf;
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
  const auto& reference = at(doc, "reference", "reference");
  if (reference != kCeilingReference && reference != kCeilingReferenceV1)
    throw std::runtime_error("'reference' is not the ceiling's");
  const auto& ceiling = at(doc, "ceiling", "ceiling");
  f.policy_line = ceiling.contains("policy_line") && ceiling["policy_line"] == true;
  if (f.policy_line != (reference == kCeilingReference))
    throw std::runtime_error("'ceiling.policy_line' does not match 'reference'");
  const auto& width = at(ceiling, "width", "ceiling.width");
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
    const std::string where = "'per_game[" + std::to_string(i) + "]";
    if (!g.is_object() || !g.contains("game") || g["game"] != f.config.first_game + i)
      throw std::runtime_error(where + ".game' must be " + std::to_string(f.config.first_game + i));
    for (const char* key : {"result", "against_result"})
      if (!g.contains(key) || !g[key].is_number_integer())
        throw std::runtime_error(where + "." + key + "' must be an integer");
    if (f.policy_line && (!g.contains("beam_alone_result") ||
                          !(g["beam_alone_result"].is_null() || g["beam_alone_result"].is_number_integer())))
      throw std::runtime_error(where + ".beam_alone_result' must be an integer or null");
  }
  return f;
}

}  // namespace carc::sim
