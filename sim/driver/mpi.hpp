// The processes of an MPI job (`mpirun -np R carcsolo run ...`). Built without MPI
// (CMake option CARCSOLO_MPI off, or no MPI found), or started without mpirun, a program
// is one process of rank 0 and every call here is trivial.
//
// MPI is initialised on first use when the environment shows an mpirun launch, and
// finalised at exit. Every function is collective: all processes must call it in the same
// order (the driver does, since all run the same command).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/driver/errors.hpp"
#include "sim/stats/paired_diff.hpp"
#include "sim/stats/stats.hpp"

namespace carc::sim::processes {

int rank();  // 0..count()-1
int count();
// Started by mpirun (or another MPI launcher), even as its only process. Always false in
// a build without MPI.
bool under_mpirun();

// The largest of the processes' values.
std::uint64_t max_over_all(std::uint64_t value);

// Replaces each accumulator and paired difference by its sum over the processes (exact:
// integer counts), the same on every process. Every process passes vectors of the same
// lengths, entry k of one configuration. Throws std::invalid_argument when processes hold
// games of different colour counts in one entry.
void combine(std::vector<Accumulator>& acc, std::vector<PairedDiff>& diff);

// Every process's bytes, concatenated in rank order, on process 0; the other processes get
// nothing back. One process: its own bytes.
std::vector<unsigned char> gather_on_first(const std::vector<unsigned char>& mine);

// After a parallel region of the driver: every process learns whether any failed, and all
// throw if one did (the others would otherwise wait for it in the next collective call).
void agree_on_failure(const FirstError& errors);

}  // namespace carc::sim::processes
