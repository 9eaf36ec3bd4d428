// Running the built carcsolo binary from tests: in a directory of its own, with stdout and
// stderr captured, or in the background to be signalled. POSIX only.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef CARCSOLO_BINARY
#error "CARCSOLO_BINARY (the carcsolo executable) must be defined by the build"
#endif

namespace carc::test {

namespace fs = std::filesystem;

// A fresh empty directory, removed with everything in it at the end of the scope.
class TempDir {
 public:
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "carcsolo-test-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  // Every entry (files and directories), as paths relative to the directory.
  std::set<std::string> listing() const {
    std::set<std::string> s;
    for (const auto& e : fs::recursive_directory_iterator(path_))
      s.insert(fs::relative(e.path(), path_).string());
    return s;
  }

 private:
  fs::path path_;
};

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// Starts carcsolo (or another build of it: `binary`) with `args` in directory `cwd`,
// stdout and stderr to files there.
inline pid_t spawn_carcsolo(const std::vector<std::string>& args, const fs::path& cwd,
                            const fs::path& out, const fs::path& err,
                            const std::string& binary = CARCSOLO_BINARY) {
  std::vector<std::string> argv_s{binary};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string dir = cwd.string(), o = out.string(), e = err.string();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {  // only async-signal-safe calls from here on
    const int fo = ::open(o.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fe = ::open(e.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int fi = ::open("/dev/null", O_RDONLY);
    if (fo < 0 || fe < 0 || fi < 0 || ::dup2(fo, 1) < 0 || ::dup2(fe, 2) < 0 || ::dup2(fi, 0) < 0 ||
        ::chdir(dir.c_str()) != 0)
      ::_exit(127);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// Exit status, or 128 + signal number when killed by a signal.
inline int wait_status(pid_t pid) {
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

struct Outcome {
  int status = -1;
  std::string out, err;
};

// Runs carcsolo to the end in `cwd`. Its stdout and stderr are captured in a separate
// directory, so that `cwd` holds only what carcsolo itself wrote.
inline Outcome run_carcsolo(const std::vector<std::string>& args, const fs::path& cwd,
                            const std::string& binary = CARCSOLO_BINARY) {
  TempDir capture;
  const pid_t pid = spawn_carcsolo(args, cwd, capture / "stdout", capture / "stderr", binary);
  Outcome r;
  r.status = wait_status(pid);
  r.out = read_text(capture / "stdout");
  r.err = read_text(capture / "stderr");
  return r;
}

// CPU time (user + system) a running process has used, in seconds; -1 when unknown.
inline double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  if (paren == std::string::npos) return -1;
  std::istringstream fields(text.substr(paren + 2));
  std::string f;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i) {  // fields 14 and 15 of proc(5)
    if (i == 14) utime = std::stoull(f);
    if (i == 15) stime = std::stoull(f);
  }
  return double(utime + stime) / double(::sysconf(_SC_CLK_TCK));
}

}  // namespace carc::test
