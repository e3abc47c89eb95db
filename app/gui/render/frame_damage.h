#pragma once
// Redrawing only what changed since the last frame, for framebuffers that keep their pixels
// between frames (the headless hosts' offscreen target, the window's KeptFrame). On a
// software rasteriser (llvmpipe) almost all of a frame's time is filling pixels, and while the
// ring plays most panels draw exactly what they drew a frame ago (docs/architecture.md,
// "Frame time").
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/render/damage_rect.h"

struct ImDrawData;

namespace ringviz::gui {

class DrawBatch;

// What one draw list drew: where (the union of its commands' scissor boxes, or of what its
// callbacks say they cover) and a hash of everything that decides its pixels.
struct ListFootprint {
  std::string owner;  // the window that filled it; lists are matched across frames by it
  PixelRect bounds;
  std::uint64_t content = 0;
  bool operator==(const ListFootprint&) const = default;
};

// Merges overlapping rectangles until none overlap; returns at most `limit` rectangles
// (beyond that, their bounding box).
std::vector<PixelRect> merge_rects(std::vector<PixelRect> rects, std::size_t limit);

// The rectangles to redraw, given the lists drawn last time and this frame's: every list that
// changed, appeared, moved or vanished, where it was and where it is now. A list that did not
// change is still redrawn inside those rectangles (it may lie under or over one that did).
// Lists that swapped draw order (z-order) count as changed too: their overlap shows another on top.
std::vector<PixelRect> changed_rects(const std::vector<ListFootprint>& before, const std::vector<ListFootprint>& now);

// Draws ImGui's frame into a framebuffer that still holds the last frame this object drew:
// clears and redraws only the changed rectangles, or everything when asked to, when the size
// or the clear colour changed, or when a callback cannot be described.
class FrameDamage {
 public:
  FrameDamage();
  ~FrameDamage();
  // The next draw() redraws the whole frame (fonts rebuilt, the target replaced).
  void invalidate() { valid_ = false; }
  // Draws `data` into the bound framebuffer of width x height pixels on `clear` (RGBA, 0..1).
  // Returns the pixels redrawn (width x height when whole).
  std::int64_t draw(ImDrawData& data, int width, int height, const float clear[4]);
  // The rectangles the last draw() cleared and redrew (the whole frame when it was drawn whole;
  // none when nothing changed): what a window showing only what changed must copy.
  const std::vector<PixelRect>& redrawn() const { return redrawn_; }

 private:
  std::vector<ListFootprint> footprints(const ImDrawData& data, int height, bool& describable) const;
  std::vector<ListFootprint> last_;
  std::vector<PixelRect> redrawn_;
  int width_ = 0, height_ = 0;
  float clear_[4] = {};
  std::uint64_t atlas_ = 0;
  bool valid_ = false;
  std::unique_ptr<DrawBatch> batch_;  // the lists handed to the backend, one call a frame
  std::vector<PixelRect> list_bounds_;
};

}  // namespace ringviz::gui
