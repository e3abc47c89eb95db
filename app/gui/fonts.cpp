#include "app/gui/fonts.h"

#include <cmath>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/theme.h"

namespace ringviz::gui {

void rebuild_fonts_and_style(float scale, ThemeKind theme) {
  ImGuiIO& io = ImGui::GetIO();
  const bool had_texture = io.Fonts->TexID != nullptr;
  if (had_texture) ImGui_ImplOpenGL3_DestroyFontsTexture();
  io.Fonts->Clear();
  ImFontConfig config;
  // Whole pixel sizes keep the bitmap-style glyphs on the pixel grid.
  config.SizePixels = std::round(kBaseFontPixels * scale);
  config.OversampleH = 1;
  config.OversampleV = 1;
  config.PixelSnapH = true;
  io.Fonts->AddFontDefault(&config);
  io.Fonts->Build();
  if (had_texture) ImGui_ImplOpenGL3_CreateFontsTexture();
  reset_imgui_style(theme, scale);
}

}  // namespace ringviz::gui
