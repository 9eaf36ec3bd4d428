#include "sim/log/io.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace carc::sim {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

bool ignored_now(int sig) {
  struct sigaction old {};
  return ::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN;
}
// Read before main (and before the Python module's host can change anything of ours).
const bool g_ignored_at_start[3] = {ignored_now(SIGINT), ignored_now(SIGTERM), ignored_now(SIGHUP)};

// The temporary files not yet committed, for the signal handler: each slot a target path
// and its temporary one, allocated by the thread that opens the file and published
// atomically; the handler only reads them (async-signal-safe).
struct Pending {
  const char* path;
  const char* tmp;
};
constexpr int kSlots = 64;
std::atomic<Pending*> g_pending[kSlots];
char g_command[64] = "";
// SIGINT already had a handler when this program was loaded: a host program (Python)
// that handles interruptions its own way.
bool handled_at_start(int sig) {
  struct sigaction old {};
  return ::sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN;
}
const bool g_host = handled_at_start(SIGINT);

void write_all(const char* text) {
  std::size_t n = std::strlen(text);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= std::size_t(w);
  }
}

extern "C" void on_cleanup_signal(int sig) {
  bool any = false;
  for (auto& slot : g_pending)
    if (const Pending* p = slot.load()) {
      ::unlink(p->tmp);
      any = true;
    }
  if (g_host) {  // the default action, as if nothing had been installed
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    return;
  }
  write_all("carcsolo ");
  write_all(g_command);
  write_all(any ? ": interrupted; not written:" : ": interrupted\n");
  if (any) {
    bool first = true;
    for (auto& slot : g_pending)
      if (const Pending* p = slot.load()) {
        write_all(first ? " " : ", ");
        write_all(p->path);
        first = false;
      }
    write_all("\n");
  }
  ::_exit(130);
}

void set_handler(int sig, void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  for (const int s : kSignals) sigaddset(&sa.sa_mask, s);
  sa.sa_flags = SA_RESTART;
  ::sigaction(sig, &sa, nullptr);
}

int register_pending(const std::string& path, const std::string& tmp) {
  static std::atomic<bool> installed{false};
  if (!installed.exchange(true)) {
    for (const int sig : kSignals) {
      struct sigaction cur {};
      if (::sigaction(sig, nullptr, &cur) == 0 && cur.sa_handler == SIG_DFL) set_handler(sig, on_cleanup_signal);
    }
  }
  auto* p = new Pending{::strdup(path.c_str()), ::strdup(tmp.c_str())};
  for (int i = 0; i < kSlots; ++i) {
    Pending* expected = nullptr;
    if (g_pending[i].compare_exchange_strong(expected, p)) return i;
  }
  std::free(const_cast<char*>(p->path));
  std::free(const_cast<char*>(p->tmp));
  delete p;
  return -1;  // more files open at once than slots: this one is not removed on a signal
}

void unregister_pending(int slot) {
  if (slot < 0) return;
  Pending* p = g_pending[slot].exchange(nullptr);
  if (!p) return;
  std::free(const_cast<char*>(p->path));
  std::free(const_cast<char*>(p->tmp));
  delete p;
}

// Removes PATH.tmp.PID beside `path` for every PID that names no live process: what a
// process killed by SIGKILL (or a crash) left of its AtomicFile of the same path.
void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const std::string prefix = target.filename().string() + ".tmp.";
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos || digits[0] == '0')
      continue;
    const long pid = std::strtol(digits.c_str(), nullptr, 10);
    if (pid <= 0 || pid == long(::getpid())) continue;
    if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    struct stat st {};
    const std::string stale = (dir / name).string();
    if (::lstat(stale.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(stale.c_str());
  }
  ::closedir(d);
}

}  // namespace

void set_interrupted_command(const std::string& command) {
  std::size_t n = std::min(command.size(), sizeof g_command - 1);
  std::memcpy(g_command, command.data(), n);
  g_command[n] = '\0';
}

void install_cleanup_handlers() {
  for (int i = 0; i < 3; ++i)
    if (!g_ignored_at_start[i]) set_handler(kSignals[i], on_cleanup_signal);
}

bool ignored_from_start(int sig) {
  for (int i = 0; i < 3; ++i)
    if (kSignals[i] == sig) return g_ignored_at_start[i];
  return false;
}

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))  // rename would fail at the end
    throw std::runtime_error("cannot write " + path + ": Is a directory");
  remove_stale_temporaries(path);
  tmp_ = path + ".tmp." + std::to_string(::getpid());
  slot_ = register_pending(path, tmp_);  // before the file exists: a signal now leaves nothing
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) {
    const int err = errno;
    unregister_pending(std::exchange(slot_, -1));
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
}

AtomicFile& AtomicFile::operator=(AtomicFile&& o) noexcept {
  if (this != &o) {
    discard();
    path_ = std::move(o.path_);
    tmp_ = std::move(o.tmp_);
    file_ = std::exchange(o.file_, nullptr);
    slot_ = std::exchange(o.slot_, -1);
  }
  return *this;
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
    std::remove(tmp_.c_str());
  }
  unregister_pending(std::exchange(slot_, -1));
}

void AtomicFile::write(const std::string& text) { write(text.data(), text.size()); }

void AtomicFile::write(const void* bytes, std::size_t size) {
  if (std::fwrite(bytes, 1, size, file_) != size)
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
}

void AtomicFile::overwrite(std::uint64_t offset, const std::string& text) {
  if (::fseeko(file_, off_t(offset), SEEK_SET) != 0)
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  write(text);
  if (::fseeko(file_, 0, SEEK_END) != 0)
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
}

void AtomicFile::commit() {
  const bool ok = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  const int err = errno;
  std::fclose(file_);
  file_ = nullptr;
  const bool renamed = ok && std::rename(tmp_.c_str(), path_.c_str()) == 0;
  const int rename_err = errno;
  unregister_pending(std::exchange(slot_, -1));
  if (!renamed) {
    std::remove(tmp_.c_str());
    errno = rename_err;
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(ok ? errno : err));
  }
}

bool same_path(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code e1, e2, e3, e4;
  const auto ca = fs::weakly_canonical(fs::absolute(a, e1), e2);
  const auto cb = fs::weakly_canonical(fs::absolute(b, e3), e4);
  return e1 || e2 || e3 || e4 ? a == b : ca == cb;
}

}  // namespace carc::sim
