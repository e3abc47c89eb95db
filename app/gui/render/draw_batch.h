#pragma once
// One frame's ImGui draw lists as a few lists for one call of Dear ImGui's OpenGL3 backend
// (docs/architecture.md, "Frame time"). The backend uploads each list it is given with its own
// buffer writes and sets up and restores GL state around every call; FrameDamage used to call it
// once per redrawn rectangle, so a list that reached into two rectangles was uploaded twice and
// a frame made a dozen or more uploads. In the browser each upload is a copy through Chromium's
// command buffer into the GPU process. A batch copies every list's vertices and indices once
// into lists of up to 65536 vertices (16-bit indices), rebased, and repeats only the commands:
// one copy per rectangle the command reaches into, its clip rectangle narrowed to it. The
// rectangles do not overlap, so every pixel still sees the lists' commands in their order.
#include <memory>
#include <vector>

#include <imgui.h>

#include "app/gui/render/damage_rect.h"

namespace ringviz::gui {

class DrawBatch {
 public:
  DrawBatch();
  ~DrawBatch();
  DrawBatch(const DrawBatch&) = delete;
  DrawBatch& operator=(const DrawBatch&) = delete;

  // Every list of `frame` whose `list_bounds` (one per list, in its order) reach into a
  // rectangle of `rects` (disjoint framebuffer pixels of a display at (0, 0), scale 1), with
  // each command repeated for each rectangle, clipped to it; the callbacks that draw by
  // themselves see that rectangle as damage_limit() (a command in front of them sets it).
  ImDrawData& rectangles(const ImDrawData& frame, const std::vector<PixelRect>& list_bounds,
                               const std::vector<PixelRect>& rects, int framebuffer_height);
  // Every list of `frame`, every command as it is (a whole frame, any display).
  ImDrawData& whole(const ImDrawData& frame);

  // Vertices a batched list holds at most: what a 16-bit index reaches.
  static constexpr int kMaxVertices = sizeof(ImDrawIdx) == 2 ? 65536 : (1 << 30);

 private:
  // Where a source list's vertices and indices went.
  struct Placed {
    int list = -1;            // index into lists_; -1: not in this batch
    unsigned index_base = 0;  // its first index in that list's IdxBuffer
  };
  void start(const ImDrawData& frame);
  Placed place(const ImDrawList& source);
  ImDrawList& list(int at) { return *lists_[static_cast<std::size_t>(at)]; }
  ImDrawData& finish();

  std::vector<std::unique_ptr<ImDrawList>> lists_;  // kept between frames with their storage
  int used_ = 0;
  bool last_alone_ = false;  // the last list holds a source list drawn with vertex offsets: nothing joins it
  std::vector<ImDrawList*> pointers_;
  std::vector<Placed> placed_;
  std::vector<const PixelRect*> limit_of_list_;  // the damage limit each batched list last set
  ImDrawData data_{};
};

}  // namespace ringviz::gui
