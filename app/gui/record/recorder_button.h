#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/record/recorder.h"

namespace ringviz::gui {

// The GUI's record button: records the window, frame by frame, to a video file while a red
// indicator and a frame counter show that it is recording. While it records, the animation
// steps by exactly 1/fps per frame (the same deterministic clock as `ringviz record`), so the
// video plays at the right speed however slowly the frames were produced.
class RecorderButton : public FrameExtension {
 public:
  static constexpr int kFps = 30;

  RecorderButton() = default;
  ~RecorderButton();  // closing the window while recording keeps what was recorded

  bool recording() const { return writer_ != nullptr; }
  // Starts recording into `folder` (a timestamped .mp4; a PNG folder without ffmpeg).
  void start(GuiApp& app, int width, int height);
  void stop(GuiApp& app);
  const std::string& last_output() const { return last_output_; }
  // Where the button's right edge goes in the strip above the centre view (default: the
  // strip's right end).
  std::function<float(const PanelLayout&)> right_edge;
  // The button's window width in the last frame (the lesson bar leaves room for it).
  float window_width() const { return window_width_; }

  // FrameExtension
  void before_frame(GuiApp& app, double& seconds) override;
  void after_panels(GuiApp& app, const PanelLayout& panels) override;
  void after_render(GuiApp& app, int width, int height) override;
  bool animating() const override { return recording(); }

 private:
  std::unique_ptr<VideoWriter> writer_;
  std::unique_ptr<InterruptGuard> guard_;  // while recording: Ctrl-C deletes the partial file first
  std::string output_;
  std::string last_output_;
  int width_ = 0;
  float window_width_ = 0;
  int height_ = 0;
  bool start_requested_ = false;
  bool stop_requested_ = false;
  std::vector<std::uint8_t> bottom_up_;
  std::vector<std::uint8_t> top_down_;
};

// The file name a recording started now gets: ringviz-YYYYMMDD-HHMMSS.mp4 (or a folder).
std::string recording_name(bool have_ffmpeg);

}  // namespace ringviz::gui
