// Output files that are never torn: written to a temporary file in the target's own
// directory (PATH.tmp.PID), then renamed over the target. Opening happens before the work
// starts, so an unwritable path is reported before hours are spent.
//
// Interruptions: while a temporary file exists, SIGINT, SIGTERM and SIGHUP left at their
// default action (a command that stops cleanly replaces them by its own handlers while it
// works: install_stop_handlers in sim/cli/cli.hpp) remove every temporary file not yet
// committed before the process ends: with one line "carcsolo COMMAND: interrupted; ...
// not written" and exit status 130, or, in a program that handles SIGINT itself (the
// Python module's host), by the signal's default action, as if no handler were installed.
// A SIGHUP ignored from the start (nohup) stays ignored. Only SIGKILL and a crash leave a
// temporary file; the next AtomicFile of the same PATH removes the PATH.tmp.PID files whose
// process no longer exists (docs/robustness.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

namespace carc::sim {

class AtomicFile {
 public:
  AtomicFile() = default;
  // Throws std::runtime_error("cannot write <path>: <reason>") when the directory is
  // missing or not writable.
  // Removes stale PATH.tmp.PID files first (those whose PID names no live process).
  explicit AtomicFile(const std::string& path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  AtomicFile(AtomicFile&& o) noexcept { *this = std::move(o); }
  AtomicFile& operator=(AtomicFile&& o) noexcept;
  ~AtomicFile();  // removes the temporary file unless committed

  bool is_open() const { return file_ != nullptr; }
  void write(const std::string& text);
  void write(const void* bytes, std::size_t size);
  // Writes `text` over the bytes at `offset` (which must have been written already), then
  // goes on writing at the end (a header whose counts are known only at the end).
  void overwrite(std::uint64_t offset, const std::string& text);
  void commit();  // flush, fsync, rename into place

 private:
  void discard();
  std::string path_, tmp_;
  std::FILE* file_ = nullptr;
  int slot_ = -1;  // in the list of temporary files a signal removes
};

// The command named in the line an interrupted process prints ("carcsolo COMMAND: ...").
void set_interrupted_command(const std::string& command);
// Installs the removal of temporary files on SIGINT, SIGTERM and SIGHUP (as described
// above) in place of whatever handler is there; the first AtomicFile does it only over
// the default actions. Async-signal-safe removal; not for embedded use.
void install_cleanup_handlers();
// Whether `sig` was ignored when the process started (SIGHUP under nohup): then it stays
// ignored by every handler this program installs.
bool ignored_from_start(int sig);

// Whether two paths name the same file (".", "..", symbolic links resolved where they exist).
bool same_path(const std::string& a, const std::string& b);

}  // namespace carc::sim
