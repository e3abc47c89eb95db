#include "app/gui/stage/stage_frames.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ringviz::gui {

void blend_rows(const std::uint8_t* from, const std::uint8_t* to, std::uint8_t* out, int width, int row_begin,
                int row_end, float weight) {
  const int w = static_cast<int>(std::lround(std::clamp(weight, 0.0f, 1.0f) * 256.0f));
  const std::size_t begin = static_cast<std::size_t>(row_begin) * static_cast<std::size_t>(width) * 4;
  const std::size_t end = static_cast<std::size_t>(row_end) * static_cast<std::size_t>(width) * 4;
  for (std::size_t i = begin; i < end; ++i)
    out[i] = static_cast<std::uint8_t>((from[i] * (256 - w) + to[i] * w + 128) >> 8);
}

void unpremultiply(std::uint8_t* rgba, std::size_t pixels) {
  for (std::size_t p = 0; p < pixels; ++p) {
    std::uint8_t* c = rgba + p * 4;
    const int a = c[3];
    if (a == 255) continue;
    if (a == 0) {
      c[0] = c[1] = c[2] = 0;
      continue;
    }
    for (int k = 0; k < 3; ++k) c[k] = static_cast<std::uint8_t>(std::min(255, (c[k] * 255 + a / 2) / a));
  }
}

void StageFrames::before_frame(const StageMoment& moment, const std::vector<std::uint8_t>& previous,
                               float band_top) {
  const bool new_scene = seen_ && moment.scene != last_.scene;
  const bool new_step = seen_ && !new_scene && moment.step != last_.step;
  if (new_scene || new_step) {
    held_ = previous;
    fading_ = true;
    whole_frame_ = new_scene;
    held_band_top_ = band_top;
    fade_start_ = new_scene ? moment.scene_start : moment.step_start;
  }
  last_ = moment;
  seen_ = true;
}

const std::uint8_t* StageFrames::finish(const std::vector<std::uint8_t>& drawn, double video_seconds,
                                        float band_top) {
  const float weight = fading_ ? stage_fade_weight(video_seconds - fade_start_, fps_) : 1.0f;
  if (weight >= 1.0f) fading_ = false;
  if (!fading_ && !transparent_) return drawn.data();
  out_ = drawn;
  if (fading_ && held_.size() == drawn.size()) {
    // Rows are bottom-up: the band from `top` down to the frame's bottom is rows [0, height - top).
    const float top = whole_frame_ ? 0.0f : std::min(band_top, held_band_top_);
    const int rows = std::clamp(height_ - static_cast<int>(std::floor(top)), 0, height_);
    blend_rows(held_.data(), drawn.data(), out_.data(), width_, 0, rows, weight);
  }
  if (transparent_) unpremultiply(out_.data(), out_.size() / 4);
  return out_.data();
}

}  // namespace ringviz::gui
