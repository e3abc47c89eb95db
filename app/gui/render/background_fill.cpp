#include "app/gui/render/background_fill.h"

#include <cmath>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/platform/gl.h"

namespace ringviz::gui {

void BackgroundFills::queue(ImDrawList* list, const Rect& area, Rgb colour) {
  if (transparent_) return;
  if (used_ >= kMaxFills) {
    list->AddRectFilled(to_imvec(area.min()), to_imvec(area.max()), to_imcol(colour));
    return;
  }
  Fill& fill = fills_[static_cast<std::size_t>(used_++)];
  fill = {area, colour};
  list->AddCallback(&BackgroundFills::draw_callback, &fill);
}

namespace {

// The fill's box in GL's scissor terms (x, y from the bottom-left, width, height).
void fill_box(const Rect& area, float left, float top, float sx, float sy, float framebuffer_height, int box[4]) {
  const float x = (area.x - left) * sx;
  const float y = (area.y - top) * sy;
  // Whole pixels, rounded like ImGui rounds its rectangles' edges.
  const int x0 = static_cast<int>(std::lround(x));
  const int x1 = static_cast<int>(std::lround(x + area.w * sx));
  const int y0 = static_cast<int>(std::lround(framebuffer_height - (y + area.h * sy)));
  const int y1 = static_cast<int>(std::lround(framebuffer_height - y));
  box[0] = x0;
  box[1] = y0;
  box[2] = std::max(0, x1 - x0);
  box[3] = std::max(0, y1 - y0);
}

}  // namespace

bool BackgroundFills::describe(const ImDrawCmd& command, int framebuffer_height, CallbackFootprint& out) {
  if (command.UserCallback != &BackgroundFills::draw_callback) return false;
  const Fill& fill = *static_cast<const Fill*>(command.UserCallbackData);
  int box[4];
  fill_box(fill.area, 0, 0, 1, 1, static_cast<float>(framebuffer_height), box);
  out.bounds = {box[0], framebuffer_height - box[1] - box[3], box[0] + box[2], framebuffer_height - box[1]};
  const std::uint64_t values[] = {static_cast<std::uint64_t>(box[0]), static_cast<std::uint64_t>(box[1]),
                                  static_cast<std::uint64_t>(box[2]), static_cast<std::uint64_t>(box[3]),
                                  fill.colour.r, fill.colour.g, fill.colour.b};
  out.content = 1469598103934665603ull;  // FNV-1a over the values
  for (std::uint64_t value : values) out.content = (out.content ^ value) * 1099511628211ull;
  return true;
}

void BackgroundFills::draw_callback(const ImDrawList*, const ImDrawCmd* command) {
  const Fill& fill = *static_cast<const Fill*>(command->UserCallbackData);
  const ImDrawData* frame = ImGui::GetDrawData();
  if (frame == nullptr) return;
  GLint scissor_box[4] = {};
  GLfloat clear_colour[4] = {};
  glGetIntegerv(GL_SCISSOR_BOX, scissor_box);
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_colour);
  const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);

  const float sx = frame->FramebufferScale.x, sy = frame->FramebufferScale.y;
  const float framebuffer_height = frame->DisplaySize.y * sy;
  int box[4];
  fill_box(fill.area, frame->DisplayPos.x, frame->DisplayPos.y, sx, sy, framebuffer_height, box);
  limit_scissor_to_damage(box, static_cast<int>(framebuffer_height));
  glEnable(GL_SCISSOR_TEST);
  glScissor(box[0], box[1], box[2], box[3]);
  glClearColor(fill.colour.r / 255.0f, fill.colour.g / 255.0f, fill.colour.b / 255.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);

  glClearColor(clear_colour[0], clear_colour[1], clear_colour[2], clear_colour[3]);
  glScissor(scissor_box[0], scissor_box[1], scissor_box[2], scissor_box[3]);
  if (!scissor) glDisable(GL_SCISSOR_TEST);
}

}  // namespace ringviz::gui
