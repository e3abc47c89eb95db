#include "app/gui/runtime/frame_host.h"

#include <iostream>

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/render/theme.h"
#include "app/gui/runtime/gui_app.h"
#include "app/gui/text/fonts.h"
#include "app/gui/text/glyph_audit.h"
#include "app/platform/gl.h"
#include "core/model/text.h"

namespace ringviz::gui {

int HostStatus::exit_code() const {
  switch (exit_) {
    case HostExit::done: return 0;
    case HostExit::runtime_failure: return 1;
    case HostExit::cannot_render: return 2;
    case HostExit::interrupted: return 128 + signal_;
  }
  return 1;
}

int HostStatus::report() const {
  if (!message_.empty()) std::cerr << "ringviz: " << escape_for_message(message_) << "\n";
  return exit_code();
}

FrameHost::FrameHost(GLFWwindow* window) : window_(window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; our own settings file keeps preferences
  if (window_) ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init(platform::kImGuiGlslVersion);
}

FrameHost::~FrameHost() {
  ImGui_ImplOpenGL3_Shutdown();
  if (window_) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void FrameHost::build_fonts(GuiApp& app) {
  font_scale_ = app.ui_scale();
  app.set_language(rebuild_fonts_and_style(font_scale_, app.preferences().theme, app.language()));
  damage_.invalidate();  // a new atlas: the same vertices may show other glyphs
}

HostStatus FrameHost::start(GuiApp& app) {
  build_fonts(app);
  std::string error;
  if (!app.init(error)) return {HostExit::runtime_failure, error};
  return {};
}

void FrameHost::keep_fonts_current(GuiApp& app) {
  if (app.ui_scale() != font_scale_ || !fonts_current(app.ui_scale(), app.language())) build_fonts(app);
}

void FrameHost::build(GuiApp& app, const FrameStep& step, int width, int height) {
  // Text registered since the last frame (a notice, a lesson) may need glyphs: every host,
  // headless ones too, gets an atlas that covers it before the frame is built.
  keep_fonts_current(app);
  ImGuiIO& io = ImGui::GetIO();
  if (!window_) {
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = static_cast<float>(step.imgui_seconds);
  }
  app.advance(step.animation_seconds);
  ImGui_ImplOpenGL3_NewFrame();
  if (window_) ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  app.build_frame(io.DisplaySize.x, io.DisplaySize.y);
  ImGui::Render();
  note_frame_glyphs(*ImGui::GetDrawData());  // --dump-layout's fallback_glyphs_drawn
}

void FrameHost::draw(GuiApp& app, int width, int height) {
  glViewport(0, 0, width, height);
  const Rgb clear = view_colours(app.preferences().theme).view_background;
  // A transparent frame starts from nothing (alpha 0); ImGui's blending then leaves colours
  // premultiplied by their alpha, which the recorder undoes for PNG.
  const float colour[4] = {clear.r / 255.f, clear.g / 255.f, clear.b / 255.f, 1.0f};
  const float transparent[4] = {0, 0, 0, 0};
  const float* background = app.transparent_background() ? transparent : colour;
  if (keep_unchanged_) {
    pixels_redrawn_ = damage_.draw(*ImGui::GetDrawData(), width, height, background);
    rects_redrawn_ = damage_.redrawn();
  } else {
    glClearColor(background[0], background[1], background[2], background[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    pixels_redrawn_ = static_cast<std::int64_t>(width) * height;
    rects_redrawn_.assign(1, PixelRect{0, 0, width, height});
  }
  app.after_render(width, height);
}

}  // namespace ringviz::gui
