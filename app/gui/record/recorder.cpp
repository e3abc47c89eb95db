#include "app/gui/record/recorder.h"
#include "app/gui/record/video_check.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image_write.h>  // the implementation comes from libstb (pkg-config imgui pulls it in)

#include "core/output/frame_files.h"
#include "core/output/output_file.h"
#include "core/output/output_path.h"
#include "core/model/config.h"

namespace ringviz::gui {

namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t g_interrupt_signal = 0;

void on_interrupt(int signal) { g_interrupt_signal = signal; }

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return text;
}

// How often a wait on ffmpeg looks at the interrupt flag: SIGINT or SIGTERM may be taken by
// any thread (the backend's workers, the GL driver's), so a blocked write in this one would
// not return on its own (docs/architecture.md, "Output files").
constexpr int kInterruptPollMs = 50;

// The encoder's CPU time so far in clock ticks (its own and its waited-for children's), or -1
// when it cannot be read: a busy encoder is working even while it reads nothing.
long long encoder_cpu_ticks(pid_t pid) {
  std::FILE* file = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (file == nullptr) return -1;
  char text[1024] = {};
  const std::size_t got = std::fread(text, 1, sizeof text - 1, file);
  std::fclose(file);
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const char* after = std::strrchr(text, ')');
  if (got == 0 || after == nullptr) return -1;
  long long utime = 0, stime = 0, cutime = 0, cstime = 0;
  // Fields 3 to 13 skipped, then utime stime cutime cstime (proc(5)).
  if (std::sscanf(after + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld %lld %lld", &utime, &stime,
                  &cutime, &cstime) != 4)
    return -1;
  return utime + stime + cutime + cstime;
}

}  // namespace

// Says when the encoder has shown no sign of work for longer than the limit: it took no
// bytes, its output did not grow and it used no CPU. An ffmpeg that stops reading or never
// exits would otherwise hold the recording forever (docs/recording.md, "When ffmpeg hangs").
class EncoderWatchdog {
 public:
  EncoderWatchdog(pid_t pid, fs::path output, double limit_seconds)
      : pid_(pid), output_(std::move(output)), limit_(limit_seconds) {
    progressed();
  }
  void progressed() {
    last_progress_ = std::chrono::steady_clock::now();
    cpu_ticks_ = encoder_cpu_ticks(pid_);
    std::error_code ec;
    output_bytes_ = fs::file_size(output_, ec);
    if (ec) output_bytes_ = 0;
  }
  // True once the limit has passed since the last sign of work; a sign of work restarts it.
  bool stalled() {
    const long long ticks = encoder_cpu_ticks(pid_);
    std::error_code ec;
    const std::uintmax_t bytes = fs::file_size(output_, ec);
    if ((ticks >= 0 && ticks != cpu_ticks_) || (!ec && bytes != output_bytes_)) progressed();
    const double idle = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_progress_).count();
    return idle > limit_;
  }

 private:
  pid_t pid_;
  fs::path output_;
  double limit_;
  std::chrono::steady_clock::time_point last_progress_;
  long long cpu_ticks_ = -1;
  std::uintmax_t output_bytes_ = 0;
};

namespace {

// Sends the whole batch to the non-blocking pipe, waiting while it is full; false with
// `error_number` set when the encoder stopped reading (EPIPE), we were interrupted (EINTR) or
// the encoder took nothing for longer than the watchdog allows (ETIMEDOUT).
bool send_batch(int fd, std::vector<iovec>& batch, EncoderWatchdog& watchdog, int& error_number) {
  std::size_t index = 0;
  while (index < batch.size()) {
    if (InterruptGuard::interrupted()) {
      error_number = EINTR;
      return false;
    }
    const ssize_t n = ::writev(fd, batch.data() + index, static_cast<int>(batch.size() - index));
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) {
        if (watchdog.stalled()) {
          error_number = ETIMEDOUT;
          return false;
        }
        pollfd writable{fd, POLLOUT, 0};
        ::poll(&writable, 1, kInterruptPollMs);
        continue;
      }
      error_number = errno;
      return false;
    }
    watchdog.progressed();
    // Skip what was written; a short write leaves part of one row to send again.
    std::size_t left = static_cast<std::size_t>(n);
    while (index < batch.size() && left >= batch[index].iov_len) left -= batch[index++].iov_len;
    if (index < batch.size() && left > 0) {
      batch[index].iov_base = static_cast<std::uint8_t*>(batch[index].iov_base) + left;
      batch[index].iov_len -= left;
    }
  }
  return true;
}

// Sends `rows` rows of `row` bytes, last row first when `reversed`, with as few system calls
// as writev allows.
bool send_rows(int fd, const std::uint8_t* data, std::size_t row, std::size_t rows, bool reversed,
               EncoderWatchdog& watchdog, int& error_number) {
  constexpr std::size_t kBatch = 256;  // well under IOV_MAX
  std::vector<iovec> batch;
  std::size_t next = 0;  // rows sent so far, counted from the top of the image
  while (next < rows) {
    batch.clear();
    for (std::size_t i = next; i < rows && batch.size() < kBatch; ++i)
      batch.push_back({const_cast<std::uint8_t*>(data + (reversed ? rows - 1 - i : i) * row), row});
    if (!send_batch(fd, batch, watchdog, error_number)) return false;
    next += batch.size();
  }
  return true;
}

enum class EncoderWait { exited, interrupted, stalled };

// Waits for the encoder to exit, looking at the interrupt flag and the watchdog meanwhile;
// unless it exited, the encoder still runs.
EncoderWait wait_for_encoder(pid_t pid, EncoderWatchdog& watchdog, int& status) {
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return EncoderWait::exited;
    if (InterruptGuard::interrupted()) return EncoderWait::interrupted;
    if (watchdog.stalled()) return EncoderWait::stalled;
    ::poll(nullptr, 0, kInterruptPollMs);
  }
}

// "60 s", "0.5 s": the watchdog's limit as messages give it.
std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

std::string describe_errno(int error_number) {
  if (error_number == ENOSPC) return "no space left on the device";
  if (error_number == EFBIG) return "the file grew past the allowed size";
  if (error_number == EDQUOT) return "the disk quota is exhausted";
  return std::strerror(error_number);
}

fs::path final_path(const fs::path& out) { return out.filename().empty() ? out.parent_path() : out; }

// H.264 in yuv420p halves the colour resolution both ways: an odd side cannot be encoded.
void check_even_size(int width, int height) {
  if (width % 2 == 0 && height % 2 == 0) return;
  const auto size = [](int w, int h) { return std::to_string(w) + "x" + std::to_string(h); };
  const int down_w = width & ~1, down_h = height & ~1;
  const int up_w = down_w == width ? width : width + 1, up_h = down_h == height ? height : height + 1;
  throw InputError("--size: " + size(width, height) + ": an .mp4 (H.264) needs an even width and height; use " +
                   size(down_w, down_h) + " or " + size(up_w, up_h) + ", or record a .gif or PNG frames");
}

void stb_append(void* context, void* data, int size) {
  auto* buffer = static_cast<std::vector<std::uint8_t>*>(context);
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  buffer->insert(buffer->end(), bytes, bytes + size);
}

}  // namespace

VideoKind video_kind_for(const std::string& out) {
  if (out.empty()) throw InputError("--out: missing (a .mp4 or .gif file, or a folder for PNG frames)");
  const std::string name = lower(out);
  if (ends_with(name, ".mp4")) return VideoKind::mp4;
  if (ends_with(name, ".gif")) return VideoKind::gif;
  if (ends_with(name, "/")) return VideoKind::png_folder;
  const fs::path path(out);
  if (!path.has_extension() || fs::is_directory(path)) return VideoKind::png_folder;
  throw InputError("--out: '" + out + "': unknown kind of output '" + path.extension().string() +
                   "' (expected .mp4, .gif, or a folder name for PNG frames)");
}

void check_video_output(const std::string& out, VideoKind kind, int width, int height) {
  if (kind == VideoKind::png_folder) {
    check_output_folder(out, "--out", is_png_frame_file);
    return;
  }
  check_output_file(out, "--out");
  if (kind == VideoKind::mp4) check_even_size(width, height);
}

static_assert(spellings_are_unique(kVideoKindNames));

// Titles are literals, so the view's data is a terminated C string.
const char* video_kind_name(VideoKind kind) { return enum_title(kVideoKindNames, kind).data(); }

bool encoder_timeout_seconds(double& seconds, std::string& error) {
  seconds = kDefaultEncoderTimeoutSeconds;
  const char* text = std::getenv(kEncoderTimeoutVariable);
  if (text == nullptr) return true;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  const bool plain = *text != '\0' && std::string_view(text).find_first_not_of("0123456789.") == std::string_view::npos;
  if (!plain || end == text || *end != '\0' || !(value > 0 && value <= 86400)) {
    error = std::string(kEncoderTimeoutVariable) + ": '" + text +
            "' is not a number of seconds (above 0, at most 86400; unset: " +
            seconds_text(kDefaultEncoderTimeoutSeconds) + ")";
    return false;
  }
  seconds = value;
  return true;
}

bool find_ffmpeg(std::string& path, std::string& error) {
  if (const char* forced = std::getenv("RINGVIZ_FFMPEG")) {
    // Tests (and unusual installs) point this at a specific binary, or at nothing.
    if (*forced != '\0' && ::access(forced, X_OK) == 0) {
      path = forced;
      return true;
    }
  } else if (const char* env = std::getenv("PATH")) {
    std::string_view dirs(env);
    while (!dirs.empty()) {
      const std::size_t colon = dirs.find(':');
      const std::string dir(dirs.substr(0, colon));
      dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
      const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/ffmpeg";
      if (::access(candidate.c_str(), X_OK) == 0) {
        path = candidate;
        return true;
      }
    }
  }
  error = "ffmpeg was not found: install the 'ffmpeg' package (sudo apt-get install ffmpeg) to write "
          ".mp4 and .gif files; PNG frames need nothing (give a folder, e.g. --out frames/)";
  return false;
}

std::unique_ptr<VideoWriter> VideoWriter::open(const Options& options, std::string& error) {
  std::unique_ptr<VideoWriter> writer(new VideoWriter());
  writer->options_ = options;
  try {
    // Replace an earlier recording, but never a folder holding anything else.
    check_video_output(options.out.string(), options.kind, options.width, options.height);
  } catch (const InputError& problem) {
    error = problem.what();
    return nullptr;
  }
  std::error_code ec;
  writer->temporary_ = temporary_path_for(options.out);
  fs::remove_all(writer->temporary_, ec);

  if (options.kind == VideoKind::png_folder) {
    if (!fs::create_directory(writer->temporary_, ec)) {
      error = "cannot create " + writer->temporary_.string() + ": " + ec.message();
      return nullptr;
    }
    return writer;
  }

  std::string& ffmpeg = writer->ffmpeg_;
  if (!find_ffmpeg(ffmpeg, error)) return nullptr;
  if (!encoder_timeout_seconds(writer->encoder_timeout_, error)) return nullptr;

  const std::string size = std::to_string(options.width) + "x" + std::to_string(options.height);
  const std::string rate = std::to_string(options.fps);
  // rgb0: RGBA bytes whose fourth byte is ignored, so frames need no alpha fix-up.
  std::vector<std::string> args = {ffmpeg, "-hide_banner", "-loglevel", "error", "-y",
                                   "-f", "rawvideo", "-pix_fmt", "rgb0", "-s", size, "-framerate", rate,
                                   "-i", "pipe:0", "-an"};
  if (options.kind == VideoKind::mp4) {
    // veryfast keeps 1080p60 encoding near real time on two cores; flat colours and sharp text
    // compress well, and CRF 20 keeps the small labels legible.
    for (const char* a : {"-c:v", "libx264", "-preset", "veryfast", "-tune", "animation", "-crf", "20",
                          "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4"})
      args.emplace_back(a);
  } else {
    // One filter graph: a palette computed from every frame, then applied with ordered
    // dithering (stable from frame to frame, small files). GIF delays are whole hundredths of a
    // second and players slow anything faster than 50 fps down, so faster recordings are
    // resampled to 25 fps.
    std::string graph = options.fps > 50 ? "fps=25," : "";
    graph += "split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=4:diff_mode=rectangle";
    for (const char* a : {"-filter_complex"}) args.emplace_back(a);
    args.push_back(graph);
    for (const char* a : {"-loop", "0", "-f", "gif"}) args.emplace_back(a);
  }
  args.push_back(writer->temporary_.string());

  FILE* log = std::tmpfile();
  int fds[2];
  if (log == nullptr || ::pipe2(fds, O_CLOEXEC) != 0) {
    if (log) std::fclose(log);
    error = std::string("cannot start ffmpeg: ") + std::strerror(errno);
    return nullptr;
  }
  const int log_fd = ::dup(::fileno(log));
  std::fclose(log);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("cannot start ffmpeg: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    ::close(log_fd);
    return nullptr;
  }
  if (pid == 0) {
    // Own process group: Ctrl-C in the terminal reaches us, and we decide what ffmpeg does.
    ::setpgid(0, 0);
    ::dup2(fds[0], 0);
    const int null_fd = ::open("/dev/null", O_WRONLY);
    if (null_fd >= 0) ::dup2(null_fd, 1);
    ::dup2(log_fd, 2);
    std::signal(SIGPIPE, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGHUP, SIG_DFL);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[0]);
  // A 1080p frame is 8 MB: a larger pipe lets it cross in fewer context switches (the
  // default 64 KiB would need over a hundred per frame). Best effort: the size is capped.
  ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
  ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK);  // see send_batch
  ::setpgid(pid, pid);  // as the child does: whichever runs first, abandon() finds the group
  writer->pipe_fd_ = fds[1];
  writer->encoder_pid_ = pid;
  writer->encoder_log_fd_ = log_fd;
  writer->watchdog_ = std::make_unique<EncoderWatchdog>(pid, writer->temporary_, writer->encoder_timeout_);
  return writer;
}

VideoWriter::~VideoWriter() {
  if (!done_) abandon();
  if (encoder_log_fd_ >= 0) ::close(encoder_log_fd_);
}

std::string VideoWriter::encoder_failure(int status) {
  std::string log;
  if (encoder_log_fd_ >= 0) {
    char buffer[4096];
    ::lseek(encoder_log_fd_, 0, SEEK_SET);
    ssize_t n;
    while ((n = ::read(encoder_log_fd_, buffer, sizeof buffer)) > 0) log.append(buffer, static_cast<std::size_t>(n));
  }
  while (!log.empty() && (log.back() == '\n' || log.back() == '\r')) log.pop_back();
  if (log.size() > 600) log = "..." + log.substr(log.size() - 600);
  std::string what;
  if (WIFSIGNALED(status)) what = "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status));
  else what = "ffmpeg failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  // A full disk is the usual cause: one line with the fix, not ffmpeg's log.
  if (log.find("No space left") != std::string::npos || disk_is_full(temporary_))
    return cannot_write_message(final_path(options_.out).string(), ENOSPC);
  if (!log.empty()) what += ": " + log;
  return what + "; nothing was written to " + final_path(options_.out).string();
}

bool VideoWriter::write_png_frame(const std::uint8_t* rgba, std::string& error) {
  std::vector<std::uint8_t> png;
  png.reserve(static_cast<std::size_t>(options_.width) * static_cast<std::size_t>(options_.height));
  if (!stbi_write_png_to_func(stb_append, &png, options_.width, options_.height, 4, rgba, options_.width * 4)) {
    error = "cannot encode frame " + std::to_string(frames_) + " as PNG";
    return false;
  }
  const std::string name = frame_file_name(options_.frame_prefix, frames_, ".png");
  if (write_output_file(temporary_ / name, std::string_view(reinterpret_cast<const char*>(png.data()), png.size()),
                        error))
    return true;
  // The hidden temporary folder means nothing to the user: name the folder they gave.
  const std::string hidden = (temporary_ / name).string();
  const std::size_t at = error.find(hidden);
  if (at != std::string::npos) error.replace(at, hidden.size(), (final_path(options_.out) / name).string());
  return false;
}

bool VideoWriter::write(const std::uint8_t* rgba, std::string& error) {
  return send_to_encoder(rgba, false, error);
}

bool VideoWriter::write_bottom_up(const std::uint8_t* rgba, std::string& error) {
  return send_to_encoder(rgba, true, error);
}

bool VideoWriter::send_to_encoder(const std::uint8_t* rgba, bool bottom_up, std::string& error) {
  if (done_) {
    error = "the recording is already closed";
    return false;
  }
  const std::size_t row = static_cast<std::size_t>(options_.width) * 4;
  const std::size_t rows = static_cast<std::size_t>(options_.height);
  bool ok;
  if (options_.kind == VideoKind::png_folder) {
    if (bottom_up) {
      // PNG viewers show alpha: make it opaque while flipping.
      flipped_.resize(row * rows);
      for (std::size_t y = 0; y < rows; ++y)
        std::memcpy(flipped_.data() + y * row, rgba + (rows - 1 - y) * row, row);
      if (!options_.keep_alpha)
        for (std::size_t i = 3; i < flipped_.size(); i += 4) flipped_[i] = 255;
      rgba = flipped_.data();
    }
    ok = write_png_frame(rgba, error);
  } else {
    int error_number = 0;
    ok = send_rows(pipe_fd_, rgba, row, rows, bottom_up, *watchdog_, error_number);
    if (!ok && InterruptGuard::interrupted()) {
      error = "interrupted";
    } else if (!ok && error_number == ETIMEDOUT) {
      // abandon() below stops it and removes what it wrote.
      error = "ffmpeg stopped reading frames: it took none for " + seconds_text(encoder_timeout_) +
              " and did no work (" + std::string(kEncoderTimeoutVariable) + " sets how long to wait); it was stopped "
              "and nothing was written to " + final_path(options_.out).string();
    } else if (!ok) {
      // The encoder stopped reading: it has died, and its exit status says why.
      ::close(pipe_fd_);
      pipe_fd_ = -1;
      int status = 0;
      // It has closed its input; one that then never exits is stopped by abandon() below.
      if (wait_for_encoder(encoder_pid_, *watchdog_, status) == EncoderWait::exited) {
        encoder_pid_ = -1;
        error = error_number == EPIPE ? encoder_failure(status)
                                      : "cannot send frames to ffmpeg: " + describe_errno(error_number);
      } else {
        error = "ffmpeg stopped reading frames and did not exit (" + std::string(kEncoderTimeoutVariable) +
                " sets how long to wait); it was stopped and nothing was written to " +
                final_path(options_.out).string();
      }
    }
  }
  if (!ok) {
    abandon();
    return false;
  }
  ++frames_;
  return true;
}

bool VideoWriter::finish(std::string& error) {
  if (done_) {
    error = "the recording is already closed";
    return false;
  }
  const fs::path target = final_path(options_.out);
  if (options_.kind != VideoKind::png_folder) {
    ::close(pipe_fd_);
    pipe_fd_ = -1;
    int status = 0;
    const EncoderWait wait = wait_for_encoder(encoder_pid_, *watchdog_, status);
    if (wait == EncoderWait::interrupted) {
      error = "interrupted; nothing was written to " + target.string();
      abandon();
      return false;
    }
    if (wait == EncoderWait::stalled) {
      error = "ffmpeg did not finish: after the last frame it did no work for " + seconds_text(encoder_timeout_) +
              " and did not exit (" + std::string(kEncoderTimeoutVariable) +
              " sets how long to wait); it was stopped and nothing was written to " + target.string();
      abandon();
      return false;
    }
    encoder_pid_ = -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      error = encoder_failure(status);
      abandon();
      return false;
    }
    // ffmpeg can exit 0 after failing to write the end of the file (a full disk while it
    // writes the MP4 index): the file must be whole before it takes the final name.
    std::string problem = options_.kind == VideoKind::mp4 ? incomplete_mp4_problem(temporary_)
                                                          : incomplete_gif_problem(temporary_);
    if (problem.empty()) problem = ffprobe_problem(ffmpeg_, temporary_);
    if (!problem.empty()) {
      error = disk_is_full(temporary_) ? cannot_write_message(target.string(), ENOSPC)
                                       : "cannot write " + target.string() + ": ffmpeg reported success, but " +
                                             problem + "; nothing was written there";
      abandon();
      return false;
    }
  }
  std::error_code ec;
  if (options_.kind == VideoKind::png_folder && fs::is_directory(target, ec)) {
    // open() checked that it holds only frames of an earlier recording.
    fs::remove_all(target, ec);
  }
  fs::rename(temporary_, target, ec);
  if (ec) {
    error = "cannot move the recording to " + target.string() + ": " + ec.message();
    abandon();
    return false;
  }
  done_ = true;
  return true;
}

void VideoWriter::abandon() {
  if (done_) return;
  done_ = true;
  if (pipe_fd_ >= 0) {
    ::close(pipe_fd_);
    pipe_fd_ = -1;
  }
  if (encoder_pid_ > 0) {
    ::kill(-encoder_pid_, SIGKILL);  // the encoder's process group: a wrapper script's children too
    ::kill(encoder_pid_, SIGKILL);
    int status = 0;
    while (::waitpid(encoder_pid_, &status, 0) < 0 && errno == EINTR) {
    }
    encoder_pid_ = -1;
  }
  std::error_code ec;
  if (!temporary_.empty()) fs::remove_all(temporary_, ec);
}

namespace {
struct sigaction g_previous_int, g_previous_term, g_previous_hup, g_previous_pipe, g_previous_xfsz;
int g_guards = 0;
}  // namespace

InterruptGuard::InterruptGuard() {
  if (g_guards++ > 0) return;
  g_interrupt_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked write to ffmpeg returns at once on Ctrl-C
  ::sigaction(SIGINT, &action, &g_previous_int);
  ::sigaction(SIGTERM, &action, &g_previous_term);
  ::sigaction(SIGHUP, &action, &g_previous_hup);  // a closed terminal or a dropped SSH session
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &g_previous_pipe);
  ::sigaction(SIGXFSZ, &ignore, &g_previous_xfsz);
}

InterruptGuard::~InterruptGuard() {
  if (--g_guards > 0) return;
  ::sigaction(SIGINT, &g_previous_int, nullptr);
  ::sigaction(SIGTERM, &g_previous_term, nullptr);
  ::sigaction(SIGHUP, &g_previous_hup, nullptr);
  ::sigaction(SIGPIPE, &g_previous_pipe, nullptr);
  ::sigaction(SIGXFSZ, &g_previous_xfsz, nullptr);
}

bool InterruptGuard::interrupted() { return g_interrupt_signal != 0; }
int InterruptGuard::signal_number() { return g_interrupt_signal; }

}  // namespace ringviz::gui
