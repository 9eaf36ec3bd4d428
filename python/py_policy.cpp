#include "python/py_policy.hpp"

#include <stdexcept>
#include <string>

#include <pybind11/stl.h>

#include "policies/policy.hpp"
#include "python/observation.hpp"

namespace carc::python {
namespace {

// Thrown through the driver after a Python policy raised; the command then raises the
// Python exception itself.
struct PolicyRaised : std::runtime_error {
  PolicyRaised() : std::runtime_error("a Python policy raised an exception") {}
};

// Runs f, with the GIL held: a Python exception or a C++ one raised in it is
// kept in `errors` (Python's error indicator, for the command to raise) and leaves as
// PolicyRaised.
template <class F>
auto guarded(PythonErrorSlot& errors, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (py::error_already_set& e) {
    e.restore();  // back into Python's error indicator, from which keep() takes it
    errors.keep();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
    errors.keep();
  }
  throw PolicyRaised();
}

class PythonPlacement final : public PlacementPolicy {
 public:
  PythonPlacement(py::object f, std::shared_ptr<PythonErrorSlot> errors)
      : f_(std::move(f)), errors_(std::move(errors)) {}
  ~PythonPlacement() override {
    py::gil_scoped_acquire gil;
    f_ = py::object();
  }
  Move choose(const Observation& obs, std::span<const Placement> legal, Rng&) override {
    py::gil_scoped_acquire gil;
    return guarded(*errors_, [&]() -> Move {
      const State& s = obs.state();
      py::list ms = moves(s, obs.tile(), legal);
      py::object r = f_(observation(s, obs.tile()), ms);
      py::object move = r, meeple = py::none();
      const bool pair = py::isinstance<py::tuple>(r) && py::len(r) == 2;
      if (pair) {
        move = r[py::int_(0)];
        meeple = r[py::int_(1)];
      }
      if (py::isinstance<py::int_>(move)) move = ms[move.cast<std::size_t>()];
      const Move m = to_move(obs.tile(), move, meeple);
      for (const Placement& p : legal)
        if (p.x == m.at.x && p.y == m.at.y && p.rot == m.at.rot) {
          const std::uint8_t free = s.free_segments(obs.tile(), p);
          // A figure is due while the colour has one (its large meeple too: the engine places
          // it when no meeple is left; a Python policy places it only then).
          const bool forced = free != 0 && s.figures(s.to_move()) > 0;
          // A bare move is taken while no meeple is due; when one is, say what to return.
          if (forced && !pair)
            throw py::value_error("a Python placement policy must return a pair (move, meeple): a Move of `moves` "
                                  "(or its index) and one of move.free, or None when it is empty (got " +
                                  std::string(py::repr(r)) + ")");
          if (forced && (m.seg >= kMaxSegs || !(free >> m.seg & 1)))
            throw py::value_error("a Python placement policy must put the meeple on one of the move's free segments");
          return Move{p, forced ? m.seg : Move::kNoMeeple};
        }
      throw py::value_error("a Python placement policy returned a move that is not among the legal ones");
    });
  }

 private:
  py::object f_;
  std::shared_ptr<PythonErrorSlot> errors_;
};

// A callable f(obs, features) -> order, or an object with order_features(obs, features)
// and, optionally, order_final(obs, colors).
class PythonScoring final : public ScoringPolicy {
 public:
  PythonScoring(py::object f, std::shared_ptr<PythonErrorSlot> errors)
      : f_(std::move(f)), errors_(std::move(errors)) {}
  ~PythonScoring() override {
    py::gil_scoped_acquire gil;
    f_ = py::object();
  }
  void order_features(const Observation& obs, std::span<std::uint16_t> completed, Rng&) override {
    py::gil_scoped_acquire gil;
    guarded(*errors_, [&] {
      py::object f = py::hasattr(f_, "order_features") ? f_.attr("order_features") : f_;
      py::object r = f(observation(obs.state(), obs.tile()), features(obs.state(), completed));
      permute(r, completed);
    });
  }
  void order_final(const Observation& obs, std::span<std::uint8_t> colors, Rng&) override {
    if (!has_final_) return;  // as found
    py::gil_scoped_acquire gil;
    guarded(*errors_, [&] {
      py::list cs;
      for (const auto c : colors) cs.append(int(c));
      permute(f_.attr("order_final")(observation(obs.state(), kNoType), cs), colors);
    });
  }

 private:
  template <class T>
  static void permute(const py::object& r, std::span<T> items) {
    const std::string wrong = "a Python scoring policy must return a permutation of 0.." +
                              std::to_string(items.size() - 1) + " (got " + std::string(py::repr(r)) + ")";
    std::vector<int> order;
    try {
      order = r.cast<std::vector<int>>();
    } catch (const py::cast_error&) {
      throw std::invalid_argument(wrong);
    }
    std::vector<T> out;
    std::vector<bool> seen(items.size());
    if (order.size() != items.size()) throw std::invalid_argument(wrong);
    for (const int j : order) {
      if (j < 0 || std::size_t(j) >= items.size() || seen[std::size_t(j)])
        throw std::invalid_argument(wrong);
      seen[std::size_t(j)] = true;
      out.push_back(items[std::size_t(j)]);
    }
    std::copy(out.begin(), out.end(), items.begin());
  }

  py::object f_;
  std::shared_ptr<PythonErrorSlot> errors_;
  bool has_final_ = py::hasattr(f_, "order_final");
};

// The registry's stand-ins: a spec "python:slot=J" passes its checks, but only the makers
// of a command give it a callable.
class StandIn final : public PlacementPolicy, public ScoringPolicy {
 public:
  Move choose(const Observation&, std::span<const Placement>, Rng&) override { fail(); }
  void order_features(const Observation&, std::span<std::uint16_t>, Rng&) override { fail(); }
  void order_final(const Observation&, std::span<std::uint8_t>, Rng&) override { fail(); }

 private:
  [[noreturn]] static void fail() {
    throw std::logic_error("the policy 'python' plays only a callable given to carcsolo.run/compare/sweep");
  }
};

// J of "python:slot=J", or -1 for any other spec.
int slot_of(const std::string& spec) {
  const std::string prefix = "python:slot=";
  if (spec.rfind(prefix, 0) != 0) return -1;
  return std::stoi(spec.substr(prefix.size()));
}

}  // namespace

void PythonErrorSlot::keep() {
  if (type_) {
    PyErr_Clear();  // the first one is kept
    return;
  }
  PyErr_Fetch(&type_, &value_, &trace_);
}

bool PythonErrorSlot::raised() const { return type_ != nullptr; }

void PythonErrorSlot::restore_and_throw() {
  PyErr_Restore(type_, value_, trace_);
  type_ = value_ = trace_ = nullptr;
  throw py::error_already_set();
}

PythonErrorSlot::~PythonErrorSlot() {
  if (!type_) return;
  py::gil_scoped_acquire gil;
  Py_XDECREF(type_);
  Py_XDECREF(value_);
  Py_XDECREF(trace_);
}

void register_python_policies() {
  static const bool once = [] {
    const PolicyInfo info{"python", "a Python callable given to carcsolo.run/compare/sweep (the Python module only)",
                          {{"slot", 0, "the callable's place in the call"}}, false};
    register_placement(info, [](const Params&, const PolicyContext&) { return std::make_unique<StandIn>(); });
    register_scoring(info, [](const Params&) { return std::make_unique<StandIn>(); });
    return true;
  }();
  (void)once;
}

sim::PolicyMakers makers(std::vector<py::object> placement, std::vector<py::object> scoring,
                         std::shared_ptr<PythonErrorSlot> errors) {
  sim::PolicyMakers m;
  auto ps = std::make_shared<std::vector<py::object>>(std::move(placement));
  auto qs = std::make_shared<std::vector<py::object>>(std::move(scoring));
  m.placement = [ps, errors](const sim::RunConfig& c) -> std::unique_ptr<PlacementPolicy> {
    const int j = slot_of(c.placement_policy);
    if (j < 0) return nullptr;
    py::gil_scoped_acquire gil;
    if (std::size_t(j) >= ps->size()) throw std::invalid_argument("no Python placement policy in slot " + std::to_string(j));
    return std::make_unique<PythonPlacement>((*ps)[std::size_t(j)], errors);
  };
  m.scoring = [qs, errors](const sim::RunConfig& c) -> std::unique_ptr<ScoringPolicy> {
    const int j = slot_of(c.scoring_policy);
    if (j < 0) return nullptr;
    py::gil_scoped_acquire gil;
    if (std::size_t(j) >= qs->size()) throw std::invalid_argument("no Python scoring policy in slot " + std::to_string(j));
    return std::make_unique<PythonScoring>((*qs)[std::size_t(j)], errors);
  };
  return m;
}

}  // namespace carc::python
