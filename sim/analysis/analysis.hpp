// Where the points go: every placement decision of a game log valued by Monte Carlo from
// the position the player saw (docs/analysis-format.md).
//
// A decision is replayed from the log (sim/log/verify's replay: the log's stacks give the
// draws, its turns the moves), and each move analysed is played on a copy of the State;
// the game is then continued to its end `rollouts` times by the analysing player, the
// unseen tiles re-dealt at random into stacks of the sizes the colours have left. The
// analysis sees only the Observation (the State and the tile in hand): the log's stacks
// serve only to reach the decision. Rollout r uses the same re-deal and the same policy
// stream for every move of a decision (common random numbers), so the moves' differences
// are estimated paired. Every random number comes from (seed, the game's position in the
// file, the decision's index, the rollout), so an analysis is a function of (log,
// options) whatever the number of threads.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/state.hpp"
#include "policies/heuristic/heuristic.hpp"
#include "policies/lookahead.hpp"

namespace carc::sim {

// The analysing player of `analyse` (and of replay --analyse) by default: search with three
// times its rollouts (the planted-mistake bar, docs/analyse.md: 18 of 20 planted moves found
// against 17 at search's own 24, at about 3 times the time search takes to play the game).
inline constexpr const char* kAnalysisSearch = "search:rollouts=72";

struct AnalysisOptions {
  // The analysing player (a placement spec): `search` values a decision by its own search
  // (sim/analysis/search_analysis.hpp), any other player by rollouts to the end it plays.
  std::string placement = kAnalysisSearch;
  std::string scoring;                  // rollouts' scoring order; empty: the log's (else best)
  int rollouts = 32;                    // rollout analysers: continuations per move, >= 1
  int candidates = 8;                   // rollout analysers: the heuristic's best K (0: all) + the one played
  int heldout = 32;                     // search: fresh deals of the held-out loss (0: none)
  std::uint64_t seed = 1;
  int threads = 1;                      // OpenMP threads over the decisions of a game
  PolicyContext context;                // what the analysing player is made from (its learned value)
  // Set (by a signal handler) to stop: no decision is started once it is true, and a game
  // not finished comes back with complete = false.
  const std::atomic<bool>* stop = nullptr;
  bool stopped() const { return stop && stop->load(std::memory_order_relaxed); }
};

// Game stages by the decision's place among the game's placements: the first third of
// them, the second, the rest.
enum class Stage : std::uint8_t { opening, middle, end };
inline constexpr const char* kStageNames[] = {"opening", "middle", "end"};
// What the played move did with its meeple: none (no free segment, an empty supply), or
// the kind of the segment it went on.
enum class DecisionKind : std::uint8_t { none, road, city, monastery };
inline constexpr const char* kKindNames[] = {"none", "road", "city", "monastery"};

struct MoveEstimate {
  Move move;
  double mean = 0;    // expected final result (the lowest final score) after this move
  double std_error = 0; // its standard error over the rollouts
  int rank = 0;       // 0: the best mean (ties: the heuristic's order)
};

struct DecisionAnalysis {
  int turn = 0, color = 0, tile = 0;
  int index = 0;  // among the game's placements
  Stage stage = Stage::opening;
  DecisionKind kind = DecisionKind::none;
  std::vector<MoveEstimate> moves;  // the heuristic's order; the played move included
  int played = 0, best = 0;         // indices into moves
  double loss = 0, loss_stderr = 0; // paired: mean over rollouts of best's result - played's
  // Held out: the move with the best mean over the even rollouts against the played one,
  // paired over the odd rollouts; free of the selection's optimism, and may be negative.
  int heldout_best = 0;
  double heldout = 0, heldout_stderr = 0;
  // Against the analysing player's own move (index `own` into moves; appended when it is
  // neither among the K best nor the move played): its mean less the played move's,
  // paired. No selection, so unbiased; may be negative. Summed over a player's games it
  // estimates how much better the analysing player does than the player (the
  // performance-difference identity; docs/analyse.md).
  int own = 0;
  double own_loss = 0, own_loss_stderr = 0;
};

struct GameAnalysis {
  std::uint64_t index = 0;  // the document's position in the file, from 0
  nlohmann::json seed, game; // as the log says (null when absent)
  int colors = 0, meeples = 0;
  std::string tileset = "base";  // the log's config.tileset, and its large_meeple
  bool large_meeple = false;
  std::string placement_policy, scoring_policy;  // the log's
  std::string rollout_scoring;                   // the scoring order the rollouts used
  bool by_search = false;                        // valued by search's own search (else rollouts to the end)
  int result = 0;                                // the log's
  bool complete = true;  // false: stopped (AnalysisOptions::stop) before every decision was valued
  std::vector<DecisionAnalysis> decisions;
  double loss() const;         // sum over decisions
  double loss_stderr() const;  // sqrt of the sum of squared standard errors
  double heldout() const;      // the same of the held-out estimates
  double heldout_stderr() const;
  double own_loss() const;     // and of the losses against the analysing player's own moves
  double own_loss_stderr() const;
};

// A log that is not a consistent game log: its replay's first inconsistency.
struct BadLog : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One thread's means to value the moves of a decision: the analysing player, the scoring
// order, the State copy, the re-deal and the result buffers (grown once, reused).
class DecisionAnalyser {
 public:
  DecisionAnalyser(const std::string& placement, const std::string& scoring,
                   const PolicyContext& context = PolicyContext{});
  ~DecisionAnalyser();
  // Values the moves of the decision (State `s` with `type` in hand, its legal
  // placements, the move played) with random numbers from `key`; fills `out.moves`,
  // `played`, `best`, `loss`, `loss_stderr`, the held-out estimate and the loss against
  // the analysing player's own move (chosen with a stream of its own from `key`). `played`
  // may be Move::none() (advice: no move played yet): then only the K best are valued,
  // `played` is -1 and the losses are 0; the moves' values are those the same decision gets
  // with a played move (each move's rollouts do not depend on the other moves analysed).
  void analyse(const State& s, int type, std::span<const Placement> legal, Move played,
               std::uint64_t key, int rollouts, int candidates, DecisionAnalysis& out);

 private:
  std::unique_ptr<PlacementPolicy> player_;
  std::unique_ptr<ScoringPolicy> scoring_;
  HeuristicEvaluator eval_;
  State sim_;
  Redeal deal_;
  std::vector<ScoredMove> ranked_;
  std::vector<Move> moves_;
  std::vector<double> results_;  // moves x rollouts
  std::vector<int> order_;       // moves by rank
};

// The random-number key of decision `decision` of the game at `index` in the file.
std::uint64_t decision_key(std::uint64_t seed, std::uint64_t index, int decision);

// Replays `log` (throws BadLog naming the first inconsistency, std::runtime_error when it
// is not a game log) and analyses every placement decision; stopped by opt.stop, it
// returns what it has with complete = false (the decisions not valued are left empty).
GameAnalysis analyse_game(const nlohmann::json& log, std::uint64_t index, const AnalysisOptions& opt);

// The analysis document (carcassonne-solo-analysis/1) of the games, and its text summary.
nlohmann::ordered_json analysis_json(const std::vector<GameAnalysis>& games, const AnalysisOptions& opt,
                                     const std::string& player_spec);
// Under an aim the loss is the aim's (a goal's chance), and the summary says so.
std::string analysis_summary(const std::vector<GameAnalysis>& games, int largest, const Aim& aim = Aim::score());

}  // namespace carc::sim
