#include "core/kineto/trace_text_stream.h"

#include <zlib.h>

#include <filesystem>
#include <system_error>

#include "core/model/input_error.h"

namespace ringviz {
namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

std::string gzip_problem(gzFile file) {
  int code = Z_OK;
  const char* text = gzerror(file, &code);
  if (code == Z_BUF_ERROR) return "the gzip data ends early (a truncated or partly copied file)";
  return std::string("the gzip data is damaged (") + (text ? text : "unknown zlib error") + ")";
}

}  // namespace

TraceTextStream::TraceTextStream(const std::string& path) : path_(path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    throw InputError(path + ": no such file; pass a profiler trace (.json or .json.gz) or a folder of them");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(path + ": not a regular file; pass a profiler trace (.json or .json.gz) or a folder of them");
  file_bytes_ = std::filesystem::file_size(path, error);
  if (error) throw InputError(path + ": cannot read its size (" + error.message() + ")");
  if (file_bytes_ > kMaxTraceTextBytes)
    throw InputError(path + ": " + std::to_string(file_bytes_ >> 20) +
                     " MiB is more than the importer reads (1024 MiB); profile fewer steps "
                     "(torch.profiler.schedule with a smaller `active`)");
  file_ = gzopen(path.c_str(), "rb");
  if (!file_) throw InputError(path + ": cannot open it for reading");
  gzbuffer(static_cast<gzFile>(file_), 1u << 17);
  buffer_.resize(kChunkBytes);
}

TraceTextStream::~TraceTextStream() {
  if (file_) gzclose(static_cast<gzFile>(file_));
}

TraceTextStream::int_type TraceTextStream::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  auto* file = static_cast<gzFile>(file_);
  const int got = gzread(file, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  if (got < 0) throw InputError(path_ + ": " + gzip_problem(file));
  if (got == 0) {
    // zlib reports a gzip stream cut short only as the end of data, with the error kept aside.
    int code = Z_OK;
    gzerror(file, &code);
    if (code != Z_OK) throw InputError(path_ + ": " + gzip_problem(file));
    return traits_type::eof();
  }
  delivered_ += static_cast<std::uint64_t>(got);
  if (delivered_ > kMaxTraceTextBytes)
    throw InputError(path_ + ": more than 1024 MiB of trace text once decompressed, more than the importer "
                     "reads; profile fewer steps (torch.profiler.schedule with a smaller `active`)");
  setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
  return traits_type::to_int_type(*gptr());
}

std::pair<int, int> trace_line_column(const std::string& path, std::uint64_t offset) {
  TraceTextStream stream(path);
  int line = 1, column = 1;
  for (std::uint64_t at = 0; at < offset; ++at) {
    const auto c = stream.sbumpc();
    if (c == std::char_traits<char>::eof()) break;
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++column;  // count characters, not UTF-8 continuation bytes
    }
  }
  return {line, column};
}

}  // namespace ringviz
