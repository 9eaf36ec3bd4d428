// Output files that are never torn: written to a temporary file in the target's own
// directory, then renamed over the target. Opening happens before the work starts, so an
// unwritable path is reported before hours are spent.
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
};

// Whether two paths name the same file (".", "..", symbolic links resolved where they exist).
bool same_path(const std::string& a, const std::string& b);

}  // namespace carc::sim
