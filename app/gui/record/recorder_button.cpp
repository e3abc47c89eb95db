#include "app/gui/record/recorder_button.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/platform/gl.h"
#include "app/gui/inspect/item_marks.h"
#include "core/model/text.h"

namespace ringviz::gui {

std::string recording_name(bool have_ffmpeg) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char name[64];
  std::strftime(name, sizeof name, "ringviz-%Y%m%d-%H%M%S", &local);
  return std::string(name) + (have_ffmpeg ? ".mp4" : "/");
}

RecorderButton::~RecorderButton() {
  if (!writer_) return;
  std::string error;
  if (writer_->frames_written() > 0 && writer_->finish(error))
    std::fprintf(stderr, "ringviz: recorded %lld frames to %s\n", writer_->frames_written(),
                 escape_for_message(output_).c_str());
  else if (!error.empty())
    std::fprintf(stderr, "ringviz: recording failed: %s\n", escape_for_message(error).c_str());
}

void RecorderButton::start(GuiApp& app, int width, int height) {
  std::string ffmpeg, error;
  const bool have_ffmpeg = find_ffmpeg(ffmpeg, error);
  if (!have_ffmpeg) app.add_notice(error);
  VideoWriter::Options options;
  options.out = recording_name(have_ffmpeg);
  options.kind = have_ffmpeg ? VideoKind::mp4 : VideoKind::png_folder;
  // H.264 in yuv420p needs even sizes: drop an odd last row or column.
  options.width = width & ~1;
  options.height = height & ~1;
  options.fps = kFps;
  writer_ = VideoWriter::open(options, error);
  if (!writer_) {
    app.add_notice(format(app.text().record_failed, error.c_str()));
    return;
  }
  output_ = options.out.string();
  guard_ = std::make_unique<InterruptGuard>();
  width_ = width;
  height_ = height;
}

void RecorderButton::stop(GuiApp& app) {
  if (!writer_) return;
  std::string error;
  const long long frames = writer_->frames_written();
  if (frames == 0) {
    writer_->abandon();
  } else if (writer_->finish(error)) {
    last_output_ = output_;
    app.add_notice(format(app.text().record_done, frames, output_.c_str()));
  } else {
    app.add_notice(format(app.text().record_failed, error.c_str()));
  }
  writer_.reset();
  guard_.reset();
}

void RecorderButton::before_frame(GuiApp&, double& seconds) {
  if (recording()) seconds = 1.0 / kFps;
}

void RecorderButton::after_panels(GuiApp& app, const PanelLayout& panels) {
  // In the strip above the centre view, right-aligned (pivot 1, 0) against whatever sits at
  // its right end, so that it covers nothing of the view.
  const float right = right_edge ? right_edge(panels) : panels.caption.right();
  ImGui::SetNextWindowPos(ImVec2(right, 0), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetStyle().WindowPadding.x, 4.0f * app.ui_scale()));
  ImGui::Begin("##recorder", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar |
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoBackground);
  ImGui::PopStyleVar();
  const UiStrings& t = app.text();
  if (!recording()) {
    if (ImGui::Button(t.record_button)) start_requested_ = true;
    mark_last_item("record.button");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(t.record_tooltip, kFps);
  } else {
    // The indicator: a red dot that blinks with the recording's own clock, and the counter.
    const long long frames = writer_->frames_written();
    const bool lit = (frames / (kFps / 2)) % 2 == 0;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float r = ImGui::GetTextLineHeight() * 0.4f;
    ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(at.x + r, at.y + ImGui::GetTextLineHeight() * 0.5f), r,
                                                lit ? IM_COL32(230, 30, 30, 255) : IM_COL32(120, 20, 20, 255));
    ImGui::Dummy(ImVec2(r * 2.5f, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    ImGui::Text(t.record_counter, frames / kFps / 60, (frames / kFps) % 60, frames);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip(t.record_target, output_.c_str());
    ImGui::SameLine();
    if (ImGui::Button(t.record_stop)) stop_requested_ = true;
    mark_last_item("record.stop");
  }
  window_width_ = ImGui::GetWindowWidth();
  ImGui::End();
}

void RecorderButton::after_render(GuiApp& app, int width, int height) {
  if (stop_requested_) {
    stop_requested_ = false;
    stop(app);
  }
  if (start_requested_) {
    start_requested_ = false;
    start(app, width, height);
    return;  // the first recorded frame is the next one, drawn on the recording clock
  }
  if (!recording()) return;
  if (InterruptGuard::interrupted()) {
    // Ctrl-C or a kill while recording: no half-written video stays behind, then the signal
    // does what it would have done without us.
    const int signal = InterruptGuard::signal_number();
    writer_->abandon();
    writer_.reset();
    guard_.reset();
    std::fprintf(stderr, "ringviz: interrupted; the recording to %s was discarded\n",
                 escape_for_message(output_).c_str());
    std::raise(signal);
    return;
  }
  if (width != width_ || height != height_) {
    // A video has one size: end it where the window changed.
    app.add_notice(app.text().record_resized);
    stop(app);
    return;
  }
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  bottom_up_.resize(row * static_cast<std::size_t>(height));
  top_down_.resize(bottom_up_.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up_.data());
  const int out_height = height & ~1;
  const std::size_t out_row = static_cast<std::size_t>(width & ~1) * 4;
  for (int y = 0; y < out_height; ++y) {
    std::memcpy(top_down_.data() + static_cast<std::size_t>(y) * out_row,
                bottom_up_.data() + static_cast<std::size_t>(height - 1 - y) * row, out_row);
  }
  for (std::size_t i = 3; i < out_row * static_cast<std::size_t>(out_height); i += 4) top_down_[i] = 255;
  std::string error;
  if (!writer_->write(top_down_.data(), error)) {
    app.add_notice(format(app.text().record_failed, error.c_str()));
    writer_.reset();
    guard_.reset();
  }
}

}  // namespace ringviz::gui
