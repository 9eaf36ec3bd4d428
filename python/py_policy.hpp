// Python callables as placement and scoring-order policies of the driver (carcsolo.run,
// compare, sweep). They see the Observation only (python/observation.hpp), run on one
// thread, take the GIL for every decision and allocate Python objects per move: slower than
// the C++ policies, which stay allocation-free.
//
// In a command they are named "python:slot=J" (J: the callable's place in the call's list);
// the registry knows that name only inside the module, where its factory makes a stand-in
// that is never played: the driver gets the real policies from makers().
#pragma once
#include <memory>
#include <vector>

#include <pybind11/pybind11.h>

#include "sim/driver/matrix.hpp"

namespace carc::python {

namespace py = pybind11;

// The first exception a Python policy raised in a command, kept to be raised again once
// the command has returned.
class PythonErrorSlot {
 public:
  void keep();           // with the GIL held, inside a catch of py::error_already_set
  bool raised() const;
  void restore_and_throw();  // with the GIL held
  ~PythonErrorSlot();

 private:
  PyObject *type_ = nullptr, *value_ = nullptr, *trace_ = nullptr;
};

// Registers "python" in the placement and scoring registries (once).
void register_python_policies();

// Makers for the driver: configurations whose policy is "python:slot=J" get callable J.
sim::PolicyMakers makers(std::vector<py::object> placement, std::vector<py::object> scoring,
                         std::shared_ptr<PythonErrorSlot> errors);

}  // namespace carc::python
