#include "app/gui/text/fonts.h"

#include <cstdint>
#include <string>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/gui/text/font_loader.h"
#include "app/gui/text/strings.h"
#include "app/gui/render/theme.h"
#include "app/platform/gl.h"

namespace ringviz::gui {

namespace {

struct BuiltFor {
  float scale = 0;
  Language language = Language::en;
  std::uint64_t glyphs = 0;
};
BuiltFor g_built{-1.0f};

}  // namespace

Language rebuild_fonts_and_style(float scale, ThemeKind theme, Language language) {
  ImGuiIO& io = ImGui::GetIO();
  const bool had_texture = io.Fonts->TexID != nullptr;
  if (had_texture) ImGui_ImplOpenGL3_DestroyFontsTexture();
  std::string error;
  if (!build_font_atlas(*io.Fonts, scale, language, error)) language = Language::en;
  if (had_texture) ImGui_ImplOpenGL3_CreateFontsTexture();
  g_built = {scale, language, glyph_text_generation()};
  reset_imgui_style(theme, scale);
  return language;
}

bool fonts_current(float scale, Language language) {
  return g_built.scale == scale && g_built.language == language && g_built.glyphs == glyph_text_generation();
}

void prefer_nearest_font_sampling() {
  static ImTextureID configured = nullptr;
  const ImTextureID texture = ImGui::GetIO().Fonts->TexID;
  if (texture == nullptr || texture == configured) return;
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::intptr_t>(texture)));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  configured = texture;
}

}  // namespace ringviz::gui
