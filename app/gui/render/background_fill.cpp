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
  const float left = (fill.area.x - frame->DisplayPos.x) * sx;
  const float top = (fill.area.y - frame->DisplayPos.y) * sy;
  const float framebuffer_height = frame->DisplaySize.y * sy;
  // Whole pixels, rounded like ImGui rounds its rectangles' edges.
  const GLint x0 = static_cast<GLint>(std::lround(left));
  const GLint x1 = static_cast<GLint>(std::lround(left + fill.area.w * sx));
  const GLint y0 = static_cast<GLint>(std::lround(framebuffer_height - (top + fill.area.h * sy)));
  const GLint y1 = static_cast<GLint>(std::lround(framebuffer_height - top));
  glEnable(GL_SCISSOR_TEST);
  glScissor(x0, y0, std::max(0, x1 - x0), std::max(0, y1 - y0));
  glClearColor(fill.colour.r / 255.0f, fill.colour.g / 255.0f, fill.colour.b / 255.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);

  glClearColor(clear_colour[0], clear_colour[1], clear_colour[2], clear_colour[3]);
  glScissor(scissor_box[0], scissor_box[1], scissor_box[2], scissor_box[3]);
  if (!scissor) glDisable(GL_SCISSOR_TEST);
}

}  // namespace ringviz::gui
