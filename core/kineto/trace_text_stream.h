#pragma once
// A profiler trace's text, read a chunk at a time whether the file is gzip-compressed or not,
// so that importing a trace costs memory for what is kept of it, never for the whole file
// (docs/job-format.md). The stream stops with an InputError past kMaxTraceTextBytes and on a
// damaged or truncated gzip member.
#include <cstdint>
#include <streambuf>
#include <string>
#include <vector>

namespace ringviz {

// More trace text than a profiler writes for the few steps worth looking at (a 200 MB trace is
// a few hundred steps of a large model); beyond it the user is asked to trace fewer steps.
inline constexpr std::uint64_t kMaxTraceTextBytes = std::uint64_t{1} << 30;

class TraceTextStream : public std::streambuf {
 public:
  // Throws InputError when `path` is not a readable regular file or is larger than
  // kMaxTraceTextBytes on disk.
  explicit TraceTextStream(const std::string& path);
  ~TraceTextStream() override;
  TraceTextStream(const TraceTextStream&) = delete;
  TraceTextStream& operator=(const TraceTextStream&) = delete;

  std::uint64_t text_bytes_read() const { return delivered_; }
  std::uint64_t file_bytes() const { return file_bytes_; }

 protected:
  int_type underflow() override;

 private:
  std::string path_;
  void* file_ = nullptr;  // zlib's gzFile: reads plain files unchanged
  std::vector<char> buffer_;
  std::uint64_t delivered_ = 0;
  std::uint64_t file_bytes_ = 0;
};

// The 1-based line and column of text byte `offset` of the trace at `path` (decompressed),
// read again from the start: only messages need it.
std::pair<int, int> trace_line_column(const std::string& path, std::uint64_t offset);

}  // namespace ringviz
