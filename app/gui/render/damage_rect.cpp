#include "app/gui/render/damage_rect.h"

#include <algorithm>

namespace ringviz::gui {

namespace {
const PixelRect* g_limit = nullptr;  // the rectangle FrameDamage is redrawing, if any
}  // namespace

PixelRect PixelRect::united(const PixelRect& o) const {
  if (empty()) return o;
  if (o.empty()) return *this;
  return {std::min(x0, o.x0), std::min(y0, o.y0), std::max(x1, o.x1), std::max(y1, o.y1)};
}

PixelRect PixelRect::intersected(const PixelRect& o) const {
  const PixelRect r{std::max(x0, o.x0), std::max(y0, o.y0), std::min(x1, o.x1), std::min(y1, o.y1)};
  return r.empty() ? PixelRect{} : r;
}

PixelRect scissor_pixels(float left, float top, float right, float bottom, int framebuffer_height) {
  if (right <= left || bottom <= top) return {};
  // As imgui_impl_opengl3.cpp: glScissor((int)l, (int)(fb_h - b), (int)(r - l), (int)(b - t)).
  const int x = static_cast<int>(left);
  const int w = static_cast<int>(right - left);
  const int y_up = static_cast<int>(static_cast<float>(framebuffer_height) - bottom);
  const int h = static_cast<int>(bottom - top);
  const PixelRect r{x, framebuffer_height - y_up - h, x + w, framebuffer_height - y_up};
  return r.empty() ? PixelRect{} : r;
}

const PixelRect* damage_limit() { return g_limit; }

void limit_scissor_to_damage(int box[4], int framebuffer_height) {
  if (g_limit == nullptr) return;
  const PixelRect mine{box[0], framebuffer_height - box[1] - box[3], box[0] + box[2], framebuffer_height - box[1]};
  const PixelRect r = mine.intersected(*g_limit);
  box[0] = r.x0;
  box[1] = framebuffer_height - r.y1;
  box[2] = r.x1 - r.x0;
  box[3] = r.y1 - r.y0;
}

void set_damage_limit(const PixelRect* limit) { g_limit = limit; }

}  // namespace ringviz::gui
