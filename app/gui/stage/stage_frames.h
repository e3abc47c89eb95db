#pragma once
// The pixels of a stage recording between the framebuffer and the writer: cross-fades where
// the picture changes, and straight (not premultiplied) alpha for transparent frames. Rows are
// bottom-up RGBA, as glReadPixels gives them. Pure CPU work, tested without GL.
#include <cstdint>
#include <vector>

#include "app/gui/stage/stage_timeline.h"

namespace ringviz::gui {

class StageFrames {
 public:
  StageFrames(int width, int height, int fps, bool transparent)
      : width_(width), height_(height), fps_(fps), transparent_(transparent) {}

  // Before the frame of `moment` is drawn over `previous` (the last frame as drawn): a new
  // scene or card keeps the whole previous picture to fade from, a new step only its caption
  // band (from `band_top`, in pixels from the top, to the bottom). The first frame is written
  // as drawn: there is nothing before it to fade from.
  void before_frame(const StageMoment& moment, const std::vector<std::uint8_t>& previous, float band_top);
  // The frame to write for `drawn` at `video_seconds`: `drawn` itself, or a blend of the kept
  // picture and it, made straight-alpha when transparent. `band_top`: this frame's band.
  const std::uint8_t* finish(const std::vector<std::uint8_t>& drawn, double video_seconds, float band_top);

  bool fading() const { return fading_; }

 private:
  int width_, height_, fps_;
  bool transparent_;
  bool seen_ = false;
  StageMoment last_{};
  std::vector<std::uint8_t> held_;  // the picture faded from
  bool fading_ = false;
  bool whole_frame_ = true;
  float held_band_top_ = 0;
  double fade_start_ = 0;
  std::vector<std::uint8_t> out_;
};

// Blends `from` toward `to` by `weight` (0: from, 1: to) on rows [row_begin, row_end) of a
// width-pixel RGBA image, into `out`.
void blend_rows(const std::uint8_t* from, const std::uint8_t* to, std::uint8_t* out, int width, int row_begin,
                int row_end, float weight);
// Colours premultiplied by their alpha (what GL blending over a transparent clear leaves) to
// straight alpha (what PNG means), in place.
void unpremultiply(std::uint8_t* rgba, std::size_t pixels);

}  // namespace ringviz::gui
