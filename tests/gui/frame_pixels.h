#pragma once
// What the frame damage and kept frame tests compare: a whole redraw of ImGui's last frame,
// and how many pixels two frames differ in.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include "app/platform/gl.h"
#include "app/platform/offscreen_target.h"

namespace ringviz::gui {

// ImGui's last frame drawn whole into `target` on `clear`, read back top row first.
inline std::vector<std::uint8_t> draw_whole(platform::OffscreenTarget& target, int width, int height,
                                            const float clear[4]) {
  target.bind();
  glViewport(0, 0, width, height);
  glClearColor(clear[0], clear[1], clear[2], clear[3]);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  return target.read_rgba();
}

// Pixels whose colour differs (alpha aside: read_rgba makes it opaque).
inline std::size_t differing_pixels(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  REQUIRE(a.size() == b.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < a.size(); i += 4)
    if (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ++differing;
  return differing;
}

}  // namespace ringviz::gui
