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

// Keeps the document in memory up to kHeldBytes, so that a typical capture creates its file
// only once the run is over: a rank dying mid-run then leaves nothing to clean up, even when
// rank 0 itself is killed. A larger document goes to the OutputFile as it comes, and the
// signal handlers above remove the temporary. The first failure is kept for commit().
class DocumentSink::FileBuffer : public std::streambuf {
 public:
  static constexpr std::size_t kHeldBytes = std::size_t{64} << 20;

  FileBuffer(OutputFile& file, std::string out) : file_(file), out_(std::move(out)), chunk_(std::size_t{1} << 20) {
    setp(chunk_.data(), chunk_.data() + chunk_.size());
  }
  // Moves what was written into the held text, and the held text to the file once it is
  // large or `to_file`.
  bool drain(bool to_file) {
    held_.append(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(chunk_.data(), chunk_.data() + chunk_.size());
    if (!failed_.empty()) return false;
    if (!to_file && !opened_ && held_.size() < kHeldBytes) return true;
    if (!opened_ && !open_file()) return false;
    if (!held_.empty() && !file_.write(held_.data(), held_.size(), failed_)) return false;
    held_.clear();
    return true;
  }
  const std::string& failure() const { return failed_; }

 protected:
  int_type overflow(int_type next) override {
    if (!drain(false)) return traits_type::eof();
    if (!traits_type::eq_int_type(next, traits_type::eof())) sputc(traits_type::to_char_type(next));
    return traits_type::not_eof(next);
  }
  int sync() override { return drain(false) ? 0 : -1; }

 private:
  bool open_file() {
    if (!file_.open(out_, failed_)) return false;
    opened_ = true;
    // OutputFile writes beside the file a link points to, as it names it here.
    std::error_code ignored;
    const std::filesystem::path target = std::filesystem::is_symlink(out_, ignored)
                                             ? std::filesystem::canonical(out_, ignored)
                                             : std::filesystem::path(out_);
    remove_on_signal(temporary_path_for(target));
    return true;
  }

  OutputFile& file_;
  std::string out_;
  std::vector<char> chunk_;
  std::string held_;
  bool opened_ = false;
  std::string failed_;
};

DocumentSink::DocumentSink(const std::string& out) : out_(out) {}

DocumentSink::~DocumentSink() {
  stop_removing_on_signal();
  file_.discard();
}

bool DocumentSink::open(std::string&) {
  if (out_.empty()) return true;
  buffer_ = std::make_unique<FileBuffer>(file_, out_);
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
  if (!buffer_->drain(true)) {
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
