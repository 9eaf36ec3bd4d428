#include "sim/log/io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace carc::sim {

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))  // rename would fail at the end
    throw std::runtime_error("cannot write " + path + ": Is a directory");
  tmp_ = path + ".tmp." + std::to_string(::getpid());
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

AtomicFile& AtomicFile::operator=(AtomicFile&& o) noexcept {
  if (this != &o) {
    discard();
    path_ = std::move(o.path_);
    tmp_ = std::move(o.tmp_);
    file_ = std::exchange(o.file_, nullptr);
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
  if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    std::remove(tmp_.c_str());
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
