// The advice is the analysis of one decision with no move played (DecisionAnalyser), its
// moves put in rank order. The decision's index, and so its random numbers, is the number
// of tiles placed so far: the index `analyse` gives the decision in the game's log, where
// discarded draws are no decisions.
#include "sim/analysis/advice.hpp"

#include <algorithm>

namespace carc::sim {

Advisor::Advisor(const AdviceOptions& opt) : opt_(opt) {
  if (is_search_spec(opt.analyser)) {
    (void)make_scoring_policy(opt.scoring);  // a bad spec is refused here, as for rollouts
    search_ = std::make_unique<SearchDecisionAnalyser>(opt.analyser, opt.context);
  } else {
    analyser_ = std::make_unique<DecisionAnalyser>(opt.analyser, opt.scoring, opt.context);
  }
}

std::vector<MoveEstimate> Advisor::advise(const State& s, int type, std::span<const Placement> legal) {
  const int decision = s.tiles_on_board() - 1;
  const std::uint64_t key = decision_key(opt_.seed, 0, decision);
  if (search_)
    search_->analyse(s, type, legal, Move::none(), key, 0, out_);
  else
    analyser_->analyse(s, type, legal, Move::none(), key, opt_.rollouts, opt_.candidates, out_);
  std::vector<MoveEstimate> ranked = out_.moves;
  std::sort(ranked.begin(), ranked.end(),
            [](const MoveEstimate& a, const MoveEstimate& b) { return a.rank < b.rank; });
  return ranked;
}

}  // namespace carc::sim
