#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/model/enum_table.h"

namespace ringviz::gui {

// Where recorded frames go. The kind follows the output name: *.mp4 (H.264, yuv420p), *.gif
// (palette-optimised), or a folder of PNGs (a name without an extension, or ending in '/').
enum class VideoKind { mp4, gif, png_folder };
inline constexpr EnumName<VideoKind> kVideoKindNames[] = {
    {VideoKind::mp4, "mp4", "", "", "MP4 (H.264)"},
    {VideoKind::gif, "gif", "", "", "GIF"},
    {VideoKind::png_folder, "png", "", "", "PNG frames"},
};

// Throws InputError naming --out for an extension we cannot write.
VideoKind video_kind_for(const std::string& out);
const char* video_kind_name(VideoKind kind);  // its title: "MP4 (H.264)", "GIF", "PNG frames"

// Everything about an output that can be known before a frame is drawn: the path (a file, or
// a folder holding nothing but earlier frames) and, for H.264, an even size. Throws
// InputError naming --out or --size with the fix.
void check_video_output(const std::string& out, VideoKind kind, int width, int height);

// Frames of one recording, written under a temporary name next to the final one and moved
// into place only by finish(): an interrupted run, a full disk or a failed encoder never
// leaves a half-written file (or folder) under the final name.
class EncoderWatchdog;  // recorder.cpp: notices an encoder that neither reads nor works

// How long an encoder may show no sign of work (take no frame bytes, write nothing, use no CPU)
// before the recording is stopped (docs/recording.md, "When ffmpeg hangs"); the environment
// variable overrides the default, for slow machines and for tests.
inline constexpr const char* kEncoderTimeoutVariable = "RINGVIZ_ENCODER_TIMEOUT";
inline constexpr double kDefaultEncoderTimeoutSeconds = 60;
// The limit in `seconds`; false with `error` set when the variable is not a number of seconds.
bool encoder_timeout_seconds(double& seconds, std::string& error);

class VideoWriter {
 public:
  struct Options {
    std::filesystem::path out;
    VideoKind kind = VideoKind::mp4;
    int width = 0;
    int height = 0;
    int fps = 60;
    // PNG frames only. keep_alpha: write the alpha channel as given (transparent frames for
    // compositing) instead of opaque. frame_prefix: name frames PREFIX_00001.png, ... (from 1,
    // as compositing tools number image sequences) instead of frame-000000.png, ...
    bool keep_alpha = false;
    std::string frame_prefix;
  };

  // nullptr with `error` set (ffmpeg missing names the package; an unwritable folder says so).
  static std::unique_ptr<VideoWriter> open(const Options& options, std::string& error);
  ~VideoWriter();  // abandons the recording unless finish() succeeded
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  // One frame of width x height RGBA pixels, top row first. False with `error` set when the
  // encoder died or the disk refused the bytes; the recording is then abandoned.
  bool write(const std::uint8_t* rgba, std::string& error);
  // The same for rows bottom row first, as glReadPixels gives them (alpha is ignored): the
  // rows go to the encoder in reverse order straight from `rgba`, without a flipped copy.
  bool write_bottom_up(const std::uint8_t* rgba, std::string& error);
  // Flushes, waits for the encoder, checks it, and renames the result to the final name.
  bool finish(std::string& error);
  // Stops the encoder and deletes the temporary output. Safe to call more than once.
  void abandon();

  long long frames_written() const { return frames_; }
  const std::filesystem::path& temporary_path() const { return temporary_; }

 private:
  VideoWriter() = default;
  bool write_png_frame(const std::uint8_t* rgba, std::string& error);
  bool send_to_encoder(const std::uint8_t* rgba, bool bottom_up, std::string& error);
  std::vector<std::uint8_t> flipped_;
  std::string encoder_failure(int status);

  Options options_;
  std::string ffmpeg_;
  std::filesystem::path temporary_;
  long long frames_ = 0;
  int pipe_fd_ = -1;        // ffmpeg's stdin
  int encoder_pid_ = -1;
  int encoder_log_fd_ = -1; // ffmpeg's stderr, kept to explain a failure
  double encoder_timeout_ = kDefaultEncoderTimeoutSeconds;
  std::unique_ptr<EncoderWatchdog> watchdog_;
  bool done_ = false;
};

// True when an `ffmpeg` executable is on PATH; otherwise `error` names the package to install.
bool find_ffmpeg(std::string& path, std::string& error);

// SIGINT, SIGTERM and SIGHUP set a flag instead of killing the process, so that a recording can delete
// its temporary output before exiting; SIGPIPE and SIGXFSZ become write errors. The previous
// handlers come back when the guard goes.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static bool interrupted();
  static int signal_number();  // the signal that interrupted, 0 if none
};

}  // namespace ringviz::gui
