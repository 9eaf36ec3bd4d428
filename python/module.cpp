// The Python module `carcsolo` (its compiled part, carcsolo._carcsolo): studies through the
// command line's own commands (the same options, checks, driver and documents), a Game to
// step through, Python callables as policies. The package around it (python/carcsolo/)
// turns keyword arguments into the command's options.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cctype>
#include <csignal>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "policies/policy.hpp"
#include "python/observation.hpp"
#include "python/py_policy.hpp"
#include "sim/analysis/advice.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/embedding.hpp"
#include "sim/driver/errors.hpp"
#include "sim/driver/stepper.hpp"

namespace carc::python {
namespace {

// The errors of the command line's main(), as Python exceptions: bad input (exit status 2)
// is a ValueError, an internal error (exit status 3) a RuntimeError; the message is the
// command line's line without its "carcsolo COMMAND: " prefix.
template <class F>
auto translated(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const py::error_already_set&) {
    throw;
  } catch (const sim::UsageError& e) {
    throw py::value_error(e.what());
  } catch (const sim::InternalError& e) {
    throw std::runtime_error(std::string("internal error: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  } catch (const std::logic_error& e) {
    throw std::runtime_error(std::string("internal error: ") + e.what());
  } catch (const std::exception& e) {
    throw py::value_error(e.what());
  }
}

extern "C" void carcsolo_python_on_stop(int) { sim::g_stop.store(true); }

// Ctrl-C (SIGINT, SIGTERM) while a study runs in the main thread: the driver finishes the
// blocks in play and the command returns what was played, marked partial, as the command
// line does; Python's own handlers come back afterwards.
class StopOnSignal {
 public:
  explicit StopOnSignal(bool active) : active_(active) {
    if (!active_) return;
    sim::g_stop = false;
    struct sigaction sa {};
    sa.sa_handler = carcsolo_python_on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopOnSignal() {
    if (!active_) return;
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sim::g_stop = false;
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

 private:
  bool active_;
  struct sigaction old_int_ {}, old_term_ {};
};

// One configuration's games as numpy arrays.
py::dict arrays(const sim::PerGameRows& rows, std::size_t k, int colors) {
  const std::size_t n = std::size_t(rows.games());
  py::array_t<std::uint64_t> game(n);
  py::array_t<std::int32_t> result(n), tiles(n), discards(n);
  py::array_t<std::int32_t> scores({n, std::size_t(colors)});
  py::array_t<std::int8_t> end(n);
  py::array_t<bool> goals({n, std::size_t(kGoalCount)});
  auto g = game.mutable_unchecked<1>();
  auto r = result.mutable_unchecked<1>();
  auto t = tiles.mutable_unchecked<1>();
  auto d = discards.mutable_unchecked<1>();
  auto s = scores.mutable_unchecked<2>();
  auto e = end.mutable_unchecked<1>();
  auto o = goals.mutable_unchecked<2>();
  for (std::size_t i = 0; i < n; ++i) {
    const sim::GameOutcome& x = rows.rows[i * rows.configs + k];
    g(i) = rows.first_game + i;
    r(i) = x.result;
    t(i) = x.tiles_placed;
    d(i) = x.discards;
    e(i) = std::int8_t(x.end);
    for (int c = 0; c < colors; ++c) s(i, std::size_t(c)) = x.scores[std::size_t(c)];
    for (int j = 0; j < kGoalCount; ++j) o(i, std::size_t(j)) = (x.goals >> j & 1) != 0;
  }
  py::dict out;
  out["game"] = game;
  out["result"] = result;
  out["scores"] = scores;
  out["tiles_placed"] = tiles;
  out["discards"] = discards;
  out["end_reason_code"] = end;  // 1 no_meeple, 2 tiles_exhausted
  out["goals"] = goals;
  return out;
}

// run / compare / sweep / tune with the command line's arguments. Returns (exit status, document
// as JSON text, one dict of arrays per configuration (none unless keep_games), the summary
// the command line prints). `call`: the Python call, recorded instead of a command line
// when a Python policy plays.
py::tuple command(const std::string& name, const std::vector<std::string>& args,
                  std::vector<py::object> placement, std::vector<py::object> scoring,
                  bool main_thread, bool keep_games, const std::string& call) {
  auto errors = std::make_shared<PythonErrorSlot>();
  StopOnSignal stop(main_thread);
  sim::Embedding embed;
  embed.keep_games = keep_games;
  embed.own_policies = !placement.empty() || !scoring.empty();
  // performance.command_line of the document: the command line that asks for the same
  // study; none can play a Python policy, so then the call instead (performance.python_call)
  std::vector<std::string> words = {"carcsolo", name};
  words.insert(words.end(), args.begin(), args.end());
  sim::set_interrupted_command(name);
  sim::ProgramInfo program = sim::make_program_info(words);
  if (embed.own_policies) {
    program.command_line.clear();
    program.python_call = call;
  }
  embed.makers = makers(std::move(placement), std::move(scoring), errors);
  int status = 0;
  try {
    py::gil_scoped_release free_gil;  // the driver's threads; Python policies take it back
    status = translated([&] {
      if (name == "run") return sim::cmd_run(args, program, &embed);
      if (name == "compare") return sim::cmd_compare(args, program, &embed);
      if (name == "sweep") return sim::cmd_sweep(args, program, &embed);
      if (name == "analyse") return sim::cmd_analyse(args, program, &embed);
      if (name == "tune") return sim::cmd_tune(args, program, &embed);
      throw std::invalid_argument("unknown command '" + name + "'");
    });
  } catch (...) {
    if (errors->raised()) errors->restore_and_throw();
    throw;
  }
  if (errors->raised()) errors->restore_and_throw();
  py::list runs;
  for (std::size_t k = 0; k < embed.configs.size() && keep_games; ++k)
    runs.append(arrays(embed.per_game, k, embed.configs[k].colors));
  const std::string doc = embed.document.is_null() ? "" : embed.document.dump();
  return py::make_tuple(status, doc, runs, embed.summary);
}

py::list policy_list(const std::vector<PolicyInfo>& infos) {
  py::list out;
  for (const auto& i : infos) {
    py::dict d, params;
    d["name"] = i.name;
    d["help"] = i.help;
    for (const auto& p : i.params) params[py::str(p.key)] = py::make_tuple(p.default_value, p.help);
    d["params"] = params;
    out.append(d);
  }
  return out;
}

// A game to step through (python/carcsolo/__init__.py documents it for Python).
class Game {
 public:
  // colors: default 3, or as many as the given stacks. tileset, large_meeple: the game's set
  // and option as the command line's --tileset and --large-meeple give them; stacks and river:
  // a given deal of that set (sim/driver/deal.hpp).
  // table: no deal; draw() tells each tile drawn (seed then seeds the scoring policy only).
  Game(std::optional<int> colors, int meeples, std::uint64_t seed, std::uint64_t game,
       std::optional<std::vector<std::string>> stacks, const std::string& scoring, bool table,
       const std::string& tileset, bool large_meeple, std::optional<std::string> river, const std::string& aim) {
    translated([&] {
      rc_.colors = colors.value_or(stacks ? int(stacks->size()) : 3);
      rc_.meeples = meeples;
      sim::select_tileset(tileset, large_meeple, rc_);
      sim::select_aim(aim, rc_);
      Config cfg = rc_.game_config();
      cfg.colors = colors.value_or(3);
      if (river && !stacks) throw std::invalid_argument("river= is the river stack of a given deal: give stacks= too");
      if (table) {
        if (stacks) throw std::invalid_argument("a game at the table has no stacks: draw() tells each tile");
        g_ = std::make_unique<sim::SteppedGame>(sim::SteppedGame::AtTheTable{}, cfg, scoring, seed);
        return 0;
      }
      sim::GameSpec spec{cfg, seed, game};
      if (stacks) {
        given_ = sim::stacks_from_letters(*stacks, rc_.rules().tiles(), river.value_or(""));
        spec.stacks = &given_;
        if (!colors) spec.cfg.colors = given_.colors;
        for (int c = 0; c < given_.colors; ++c)
          given_sizes_ += (c ? ", " : "") + std::to_string(given_.size(c));
        if (given_.river_size() > 0) given_sizes_ += "; river " + std::to_string(given_.river_size());
      }
      g_ = std::make_unique<sim::SteppedGame>(spec, scoring);
      given_ = sim::Stacks{};  // the stepped game keeps its own copy
      return 0;
    });
  }
  const sim::SteppedGame& g() const { return *g_; }
  py::object tile() const {
    if (g_->tile() == kNoType) return py::none();
    return py::str(std::string(tile_name(g_->tile())));
  }
  py::list moves() const { return python::moves(g_->state(), g_->tile(), g_->legal()); }
  py::dict observation() const { return python::observation(g_->state(), g_->tile()); }
  py::list completed() const { return features(g_->state(), g_->completed()); }
  void play(const py::object& move, const py::object& meeple, bool large) {
    translated([&] {
      if (g_->over()) throw std::invalid_argument("the game is over");
      if (g_->ordering()) throw std::invalid_argument("order the completed features first (order())");
      Move m = to_move(g_->tile(), move, meeple);
      if (large && m.seg == Move::kNoMeeple)
        throw std::invalid_argument("large=True places the large meeple on a segment: name one of move.free");
      m.large = large;
      g_->play(m);
      return 0;
    });
  }
  void draw(const std::string& name) {
    translated([&] {
      std::string n = name;
      if (!n.empty()) n[0] = char(std::toupper(static_cast<unsigned char>(n[0])));
      const int type = n.size() <= 3 ? tile_type(n) : kNoType;
      if (type == kNoType || type >= g_->state().type_end())
        throw std::invalid_argument(g_->state().beyond_base()
                                        ? "'" + name + "' is no tile name (A..X, I1..I17, R0..R9)"
                                        : "'" + name + "' is no tile letter (one of A..X, as in rules.md)");
      g_->draw(type);
      return 0;
    });
  }
  // The advice on the tile in hand: (rank from 1, x, y, rot, meeple or None, mean, stderr,
  // large) of the k best moves.
  // What the advice plays for (--aim): may change during the game.
  std::string aim() const { return rc_.context.aim.id(); }
  void set_aim(const std::string& id) {
    translated([&] {
      sim::select_aim(id, rc_);
      return 0;
    });
  }

  py::list advise(int k, const std::string& analyser, int rollouts, int candidates, std::uint64_t seed) {
    std::vector<sim::MoveEstimate> ranked;
    translated([&] {
      if (g_->over()) throw std::invalid_argument("the game is over");
      if (g_->ordering()) throw std::invalid_argument("order the completed features first (order())");
      if (g_->needs_draw()) throw std::invalid_argument("no tile in hand: draw() the tile colour " +
                                                        std::to_string(g_->state().to_move()) + " drew");
      if (k < 1) throw std::invalid_argument("k must be at least 1 (got " + std::to_string(k) + ")");
      if (rollouts < 1 || rollouts > 100000)
        throw std::invalid_argument("rollouts must be in 1..100000 (got " + std::to_string(rollouts) + ")");
      if (candidates < 0 || candidates > kMaxMoves)
        throw std::invalid_argument("candidates must be in 0.." + std::to_string(kMaxMoves) + " (got " +
                                    std::to_string(candidates) + ")");
      sim::AdviceOptions opt;
      opt.context = rc_.context;  // the set and the large meeple the analyser plays with
      opt.analyser = canonical_placement(analyser);
      if (!rc_.context.aim.is_score()) (void)make_placement_policy(opt.analyser, opt.context);  // one that cannot aim refuses
      opt.scoring = g_->scoring_name();
      opt.rollouts = rollouts;
      opt.candidates = candidates;
      opt.seed = seed;
      sim::Advisor advisor(opt);
      py::gil_scoped_release free_gil;
      ranked = advisor.advise(g_->state(), g_->tile(), g_->legal());
      return 0;
    });
    py::list out;
    const int type = g_->tile();
    for (std::size_t i = 0; i < ranked.size() && int(i) < k; ++i) {
      const sim::MoveEstimate& e = ranked[i];
      py::object meeple = py::none();
      if (e.move.seg != Move::kNoMeeple) meeple = py::str(segment_name(type, e.move.at.rot, e.move.seg));
      out.append(py::make_tuple(e.rank + 1, int(e.move.at.x), int(e.move.at.y), int(e.move.at.rot), meeple,
                                e.mean, e.std_error, e.move.seg != Move::kNoMeeple && e.move.large));
    }
    return out;
  }
  void order(const std::vector<int>& order) {
    translated([&] {
      g_->order(order);
      return 0;
    });
  }
  std::string log(const std::string& placement_name) const {
    return translated([&] { return g_->log(placement_name).dump(); });
  }
  std::string repr() const {
    const State& s = g_->state();
    // A given deal is named as given (its order stays unsaid), not by the seed, which then
    // seeds the scoring policy's stream only.
    const std::string deal = g_->at_the_table() ? std::string("table")
                             : given_sizes_.empty()
                                 ? "seed=" + std::to_string(g_->spec().seed) + ", game=" + std::to_string(g_->spec().game)
                                 : "stacks=<given: " + given_sizes_ + " tiles>";
    const std::string set = rc_.base_game() ? std::string()
                                            : ", tileset=" + rc_.rules().name() + (rc_.rules().large_meeple() ? ", large_meeple" : "");
    std::string r = "Game(colors=" + std::to_string(s.colors()) + ", meeples=" +
                    std::to_string(s.meeples_per_color()) + set + ", " + deal + ", turn=" + std::to_string(s.turn());
    if (g_->over()) return r + ", over, result=" + std::to_string(s.result()) + ")";
    if (g_->ordering()) return r + ", ordering " + std::to_string(g_->completed().size()) + " features)";
    if (g_->needs_draw()) return r + ", draw for colour " + std::to_string(s.to_move()) + ")";
    return r + ", tile=" + std::string(tile_name(g_->tile())) + ")";
  }

 private:
  sim::RunConfig rc_;  // the set's name, hash and counts: the game's Config points into it
  sim::Stacks given_{};
  std::string given_sizes_;  // a given deal's stack sizes, "24, 24, 23"; empty: the seed's deal
  std::unique_ptr<sim::SteppedGame> g_;
};

}  // namespace
}  // namespace carc::python

PYBIND11_MODULE(_carcsolo, m) {
  using namespace carc;
  using namespace carc::python;
  m.doc() = "carcsolo's engine and driver (use the package carcsolo, not this module)";
  register_python_policies();
  m.def("command", &command, py::arg("name"), py::arg("args"), py::arg("placement"),
        py::arg("scoring"), py::arg("main_thread"), py::arg("keep_games"), py::arg("call"));
  m.def("placement_policies", [] { return policy_list(placement_policies()); });
  m.def("scoring_policies", [] { return policy_list(scoring_policies()); });
  m.attr("goal_ids") = [] {
    py::list ids;
    for (const auto id : kGoalIds) ids.append(std::string(id));
    return ids;
  }();

  py::class_<PyMove>(m, "Move", "a legal placement of the tile in hand: x, y, rot and the "
                                "free segments' names (a meeple goes on one of them)")
      .def_readonly("x", &PyMove::x)
      .def_readonly("y", &PyMove::y)
      .def_readonly("rot", &PyMove::rot)
      .def_readonly("free", &PyMove::free)
      .def("__repr__", &PyMove::repr)
      .def("__eq__", [](const PyMove& a, const PyMove& b) {
        return a.x == b.x && a.y == b.y && a.rot == b.rot;
      })
      .def("__hash__", [](const PyMove& a) { return py::hash(py::make_tuple(a.x, a.y, a.rot)); });

  py::class_<Game>(m, "Game")
      .def(py::init<std::optional<int>, int, std::uint64_t, std::uint64_t,
                    std::optional<std::vector<std::string>>, const std::string&, bool, const std::string&, bool,
                    std::optional<std::string>, const std::string&>(),
           py::arg("colors") = py::none(), py::arg("meeples") = 4, py::arg("seed") = 1, py::arg("game") = 0,
           py::arg("stacks") = py::none(), py::arg("scoring") = "random", py::arg("table") = false,
           py::arg("tileset") = "base", py::arg("large_meeple") = false, py::arg("river") = py::none(),
           py::arg("aim") = "score")
      .def_property("aim", &Game::aim, &Game::set_aim)
      .def_property_readonly("tile", &Game::tile)
      .def_property_readonly("moves", &Game::moves)
      .def_property_readonly("completed", &Game::completed)
      .def_property_readonly("ordering", [](const Game& g) { return g.g().ordering(); })
      .def_property_readonly("needs_draw", [](const Game& g) { return g.g().needs_draw(); })
      .def_property_readonly("at_the_table", [](const Game& g) { return g.g().at_the_table(); })
      .def_property_readonly("over", [](const Game& g) { return g.g().over(); })
      .def_property_readonly("turn", [](const Game& g) { return g.g().state().turn(); })
      .def_property_readonly("to_move", [](const Game& g) { return g.g().state().to_move(); })
      .def_property_readonly("result", [](const Game& g) { return g.g().state().result(); })
      .def_property_readonly("scores", [](const Game& g) {
        std::vector<int> s;
        for (int c = 0; c < g.g().state().colors(); ++c) s.push_back(g.g().state().score(c));
        return s;
      })
      .def_property_readonly("goals", [](const Game& g) {
        std::vector<std::string> ids;
        for (int i = 0; i < kGoalCount; ++i)
          if (g.g().state().goals() >> i & 1) ids.emplace_back(kGoalIds[std::size_t(i)]);
        return ids;
      })
      .def_property_readonly("scoring", [](const Game& g) { return g.g().scoring_name(); })
      .def("observation", &Game::observation)
      .def("play", &Game::play, py::arg("move"), py::arg("meeple") = py::none(), py::arg("large") = false)
      .def("order", &Game::order, py::arg("order") = std::vector<int>{})
      .def("draw", &Game::draw, py::arg("tile"))
      .def("_advise", &Game::advise, py::arg("k"), py::arg("analyser"), py::arg("rollouts"),
           py::arg("candidates"), py::arg("seed"))
      .def("_log", &Game::log, py::arg("placement"))
      .def("__repr__", &Game::repr);
}
