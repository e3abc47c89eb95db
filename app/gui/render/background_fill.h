#pragma once
#include <array>

#include "app/gui/render/colour.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/render/damage_rect.h"

struct ImDrawList;
struct ImDrawCmd;

namespace ringviz::gui {

// Solid backgrounds drawn as scissored glClear calls from inside ImGui's draw order, instead
// of ImGui's textured, blended rectangles: on a software rasteriser (llvmpipe) a full-window
// rectangle costs milliseconds, a clear almost nothing. Saves and restores the GL state it
// touches (scissor box and test, clear colour).
class BackgroundFills {
 public:
  static constexpr int kMaxFills = 8;

  // Forget last frame's fills; call once at the start of every frame.
  void begin_frame() { used_ = 0; }
  // Queues a fill of `area` (ImGui display coordinates) at this point of `list`'s draw order.
  // Beyond kMaxFills per frame it falls back to an ordinary ImGui rectangle.
  void queue(ImDrawList* list, const Rect& area, Rgb colour);
  // For FrameDamage: true when `command` is one of these fills, with the pixels it clears and
  // a hash of its area and colour.
  static bool describe(const ImDrawCmd& command, int framebuffer_height, CallbackFootprint& out);
  // Transparent frames (a stage recording for compositing) keep no solid background at all:
  // queue() then paints nothing, and the frame's clear (alpha 0) shows through.
  void set_transparent(bool transparent) { transparent_ = transparent; }

 private:
  struct Fill {
    Rect area;
    Rgb colour;
  };
  static void draw_callback(const ImDrawList* list, const ImDrawCmd* command);
  std::array<Fill, kMaxFills> fills_{};
  int used_ = 0;
  bool transparent_ = false;
};

}  // namespace ringviz::gui
