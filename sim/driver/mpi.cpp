#include "sim/driver/mpi.hpp"

#ifdef CARCSOLO_MPI
#include <mpi.h>

#include <cstdlib>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>
#endif

namespace carc::sim::processes {

#ifndef CARCSOLO_MPI

int rank() { return 0; }
int count() { return 1; }
bool under_mpirun() { return false; }
std::uint64_t max_over_all(std::uint64_t value) { return value; }
void combine(std::vector<Accumulator>&, std::vector<PairedDiff>&) {}
std::vector<unsigned char> gather_on_first(const std::vector<unsigned char>& mine) { return mine; }

#else

namespace {

// Started by mpirun (Open MPI, or a PMI/PMIx launcher such as srun)? A lone process does
// not initialise MPI: singleton start-up is slow and may print warnings.
bool launched_by_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

// MPI_Init on first use, MPI_Finalize when the program exits.
struct Session {
  bool active = false;
  int rank = 0, count = 1;
  Session() {
    if (!launched_by_mpirun()) return;
    int provided = 0;
    // Only the thread that called MPI_Init calls MPI (OpenMP threads never do).
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &count);
    active = count > 1;
  }
  ~Session() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized && !finalized) MPI_Finalize();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

Session& session() {
  static Session s;
  return s;
}

// Every process's bytes, concatenated in rank order, on every process.
std::vector<char> all_gather(const std::string& mine, std::vector<int>& sizes) {
  const int n = session().count;
  sizes.assign(std::size_t(n), 0);
  const int size = int(mine.size());
  MPI_Allgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> offsets(std::size_t(n), 0);
  int total = 0;
  for (int r = 0; r < n; ++r) {
    offsets[std::size_t(r)] = total;
    total += sizes[std::size_t(r)];
  }
  std::vector<char> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR,
                 MPI_COMM_WORLD);
  return all;
}

}  // namespace

int rank() { return session().rank; }
int count() { return session().count; }
bool under_mpirun() { return launched_by_mpirun(); }

std::uint64_t max_over_all(std::uint64_t value) {
  if (!session().active) return value;
  std::uint64_t out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

void combine(std::vector<Accumulator>& acc, std::vector<PairedDiff>& diff) {
  if (!session().active) return;
  // Everything travels as one JSON document per process, accumulators as results
  // documents: from_json rebuilds them exactly. Their config part only has to be valid.
  nlohmann::json mine = {{"acc", nlohmann::json::array()}, {"diff", nlohmann::json::array()}};
  for (const auto& a : acc) {
    RunConfig config;
    config.colors = a.colors() == 0 ? 2 : a.colors();
    mine["acc"].push_back(a.to_json(config, ProgramInfo{}, Performance{}));
  }
  for (const auto& d : diff) mine["diff"].push_back(d.to_json());
  std::vector<int> sizes;
  const std::vector<char> all = all_gather(mine.dump(), sizes);
  std::vector<Accumulator> acc_sum(acc.size());
  std::vector<PairedDiff> diff_sum(diff.size());
  std::size_t at = 0;
  for (int size : sizes) {
    const auto begin = all.begin() + std::ptrdiff_t(at);
    const nlohmann::json theirs = nlohmann::json::parse(begin, begin + size);
    for (std::size_t k = 0; k < acc.size(); ++k)
      acc_sum[k].merge(Accumulator::from_json(theirs["acc"][k]));
    for (std::size_t k = 0; k < diff.size(); ++k)
      diff_sum[k].merge(PairedDiff::from_json(theirs["diff"][k], "diff"));
    at += std::size_t(size);
  }
  acc = std::move(acc_sum);
  diff = std::move(diff_sum);
}

std::vector<unsigned char> gather_on_first(const std::vector<unsigned char>& mine) {
  if (!session().active) return mine;
  const int n = session().count;
  const bool first = session().rank == 0;
  const int size = int(mine.size());
  std::vector<int> sizes(first ? std::size_t(n) : 0), offsets(first ? std::size_t(n) : 0);
  MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = total;
    total += sizes[r];
  }
  std::vector<unsigned char> all(static_cast<std::size_t>(total));
  MPI_Gatherv(mine.data(), size, MPI_UNSIGNED_CHAR, all.data(), sizes.data(), offsets.data(),
              MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
  return all;
}

#endif

void agree_on_failure(const FirstError& errors) {
  if (max_over_all(errors.failed() ? 1 : 0) == 0) return;
  errors.rethrow_if_failed();
  throw InternalError("another process of the MPI job failed");
}

}  // namespace carc::sim::processes
