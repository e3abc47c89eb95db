#include "app/capture/document_sink.h"

#include <climits>
#include <csignal>
#include <cstring>
#include <iostream>
#include <streambuf>
#include <vector>

#include <unistd.h>

namespace ringviz::capture {

namespace {

// The temporary to delete when a signal ends the process; written before the handlers go in.
char g_temporary[PATH_MAX] = {};
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temporary_and_die(int signal_number) {
  if (g_temporary[0] != '\0') ::unlink(g_temporary);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void remove_on_signal(const std::filesystem::path& temporary) {
  const std::string text = temporary.string();
  if (text.size() >= sizeof g_temporary) return;
  std::memcpy(g_temporary, text.c_str(), text.size() + 1);
  for (int signal_number : kCleanupSignals) std::signal(signal_number, remove_temporary_and_die);
}

void stop_removing_on_signal() {
  for (int signal_number : kCleanupSignals) std::signal(signal_number, SIG_DFL);
  g_temporary[0] = '\0';
}

}  // namespace

// Buffers the document and hands it to the OutputFile in large writes; the first failure is
// kept for commit() to report.
class DocumentSink::FileBuffer : public std::streambuf {
 public:
  explicit FileBuffer(OutputFile& file) : file_(file), bytes_(std::size_t{1} << 20) {
    setp(bytes_.data(), bytes_.data() + bytes_.size());
  }
  bool drain() {
    const std::size_t size = static_cast<std::size_t>(pptr() - pbase());
    if (failed_.empty() && size > 0) file_.write(pbase(), size, failed_);
    setp(bytes_.data(), bytes_.data() + bytes_.size());
    return failed_.empty();
  }
  const std::string& failure() const { return failed_; }

 protected:
  int_type overflow(int_type next) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(next, traits_type::eof())) sputc(traits_type::to_char_type(next));
    return traits_type::not_eof(next);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  OutputFile& file_;
  std::vector<char> bytes_;
  std::string failed_;
};

DocumentSink::DocumentSink(const std::string& out) : out_(out) {}

DocumentSink::~DocumentSink() {
  stop_removing_on_signal();
  file_.discard();
}

bool DocumentSink::open(std::string& error) {
  if (out_.empty()) return true;
  if (!file_.open(out_, error)) return false;
  // OutputFile writes beside the file a link points to, as it names it here.
  std::error_code ignored;
  const std::filesystem::path target = std::filesystem::is_symlink(out_, ignored)
                                           ? std::filesystem::canonical(out_, ignored)
                                           : std::filesystem::path(out_);
  remove_on_signal(temporary_path_for(target));
  buffer_ = std::make_unique<FileBuffer>(file_);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
  return true;
}

std::ostream& DocumentSink::stream() { return stream_ ? *stream_ : std::cout; }

bool DocumentSink::commit(std::string& error) {
  if (!stream_) {
    std::cout.flush();
    return true;
  }
  stream_->flush();
  if (!buffer_->drain()) {
    error = buffer_->failure();
    file_.discard();
    stop_removing_on_signal();
    return false;
  }
  const bool committed = file_.commit(error);
  stop_removing_on_signal();
  return committed;
}

}  // namespace ringviz::capture
