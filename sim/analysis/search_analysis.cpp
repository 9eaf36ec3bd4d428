// Why the choice's own deals for the loss and fresh ones beside them: search picks the move
// whose rollouts ended best, so the played move measured on those deals loses by the noise
// the choice was selected on as well as by its real cost; the fresh deals give the real
// cost alone (and may be negative), as the held-out half does for the rollout analysis.
#include "sim/analysis/search_analysis.hpp"

#include <cmath>

#include "policies/candidates.hpp"

namespace carc::sim {

bool is_search_spec(const std::string& spec) {
  try {
    const std::string c = canonical_placement(spec);
    return c == "search" || c.rfind("search:", 0) == 0;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

SearchDecisionAnalyser::SearchDecisionAnalyser(const std::string& spec, const PolicyContext& context)
    : valuer_(spec, context) {}

void SearchDecisionAnalyser::analyse(const State& s, int type, std::span<const Placement> legal, Move played,
                                     std::uint64_t key, int heldout, DecisionAnalysis& out) {
  const bool advice = played.is_none();
  Rng rng(key, 0, Stream::placement);
  valuer_.value(Observation(s, type), legal, rng, advice ? std::span<const Move>() : std::span<const Move>(&played, 1),
                report_, advice ? 0 : heldout);
  // The moves that got rollouts, in search's ranking, and the one played wherever it is.
  out.moves.clear();
  out.played = -1;
  for (const SearchCandidate& c : report_.moves) {
    if (c.rollouts == 0 && !c.asked && !out.moves.empty()) continue;
    MoveEstimate e;
    e.move = c.move;
    e.mean = std::isnan(c.mean) ? c.heuristic : c.mean;  // no rollouts (a single candidate): its value
    e.std_error = std::isnan(c.std_error) ? 0.0 : c.std_error;
    e.rank = int(out.moves.size());
    if (c.asked) {
      out.played = e.rank;
      if (s.supply(s.to_move()) == 0 || s.free_segments(type, played.at) == 0) played.seg = Move::kNoMeeple;
      e.move = played;  // as the log spells it (the same position)
    }
    out.moves.push_back(e);
  }
  out.best = out.own = out.heldout_best = 0;
  out.loss = out.loss_stderr = out.heldout = out.heldout_stderr = out.own_loss = out.own_loss_stderr = 0;
  if (advice) return;
  const SearchCandidate* p = &report_.moves[0];
  for (const SearchCandidate& c : report_.moves)
    if (c.asked) {
      p = &c;
      break;
    }
  const auto finite = [](double v) { return std::isnan(v) ? 0.0 : v; };
  out.loss = finite(p->loss);
  out.loss_stderr = finite(p->loss_std_error);
  out.own_loss = out.loss;
  out.own_loss_stderr = out.loss_stderr;
  out.heldout = heldout > 0 ? finite(p->heldout_loss) : out.loss;
  out.heldout_stderr = heldout > 0 ? finite(p->heldout_std_error) : out.loss_stderr;
}

}  // namespace carc::sim
