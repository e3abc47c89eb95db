#include "app/gui/render/theme.h"

#include <cmath>

#include <imgui.h>

namespace ringviz::gui {

namespace {

// Twelve distinct hues of similar weight, readable on both the dark and the light background.
constexpr Rgb kStandard[] = {
    {72, 139, 240},  {240, 150, 60},  {80, 185, 110}, {228, 88, 104},
    {160, 116, 230}, {46, 190, 190},  {226, 200, 70}, {176, 124, 86},
    {222, 110, 196}, {150, 206, 80},  {120, 190, 238}, {238, 156, 136},
};
// Okabe and Ito's set, which stays distinguishable under the common colour-vision
// deficiencies (their black is replaced by a mid grey so it shows on the dark theme).
constexpr Rgb kColourBlind[] = {
    {230, 159, 0}, {86, 180, 233}, {0, 158, 115}, {240, 228, 66},
    {0, 114, 178}, {213, 94, 0},   {204, 121, 167}, {153, 153, 153},
};

Rgb from_hsv(float h, float s, float v) {
  const float c = v * s;
  const float hp = std::fmod(h, 1.0f) * 6.0f;
  const float x = c * (1.0f - std::fabs(std::fmod(hp, 2.0f) - 1.0f));
  float r = 0, g = 0, b = 0;
  if (hp < 1) { r = c; g = x; }
  else if (hp < 2) { r = x; g = c; }
  else if (hp < 3) { g = c; b = x; }
  else if (hp < 4) { g = x; b = c; }
  else if (hp < 5) { r = x; b = c; }
  else { r = c; b = x; }
  const float m = v - c;
  auto byte = [](float f) { return static_cast<std::uint8_t>(std::lround(std::fmin(1.0f, std::fmax(0.0f, f)) * 255.0f)); };
  return {byte(r + m), byte(g + m), byte(b + m)};
}

const ViewColours kDark = {
    .view_background = {22, 24, 29},
    .box_background = {38, 42, 50},
    .box_border = {78, 84, 96},
    .selected_border = {255, 255, 255},
    .text = {230, 232, 236},
    .muted_text = {150, 156, 166},
    .arrow = {112, 120, 134},
    .hatch_a = {62, 66, 76},
    .hatch_b = {44, 47, 55},
    .stale_target = {38, 42, 50},
    .stale_amount = 0.68f,
    .nan_colour = {255, 0, 255},
    .phase_reduce_scatter = {236, 164, 64},
    .phase_all_gather = {70, 186, 206},
    .flash = {255, 255, 255},
    .warning = {240, 190, 80},
};

const ViewColours kLight = {
    .view_background = {244, 245, 248},
    .box_background = {226, 229, 236},
    .box_border = {170, 176, 188},
    .selected_border = {20, 22, 28},
    .text = {24, 26, 32},
    .muted_text = {100, 106, 118},
    .arrow = {130, 138, 152},
    .hatch_a = {196, 200, 210},
    .hatch_b = {234, 236, 241},
    .stale_target = {226, 229, 236},
    .stale_amount = 0.68f,
    .nan_colour = {255, 0, 255},
    .phase_reduce_scatter = {214, 132, 30},
    .phase_all_gather = {30, 150, 176},
    .flash = {255, 255, 255},
    .warning = {170, 110, 0},
};

// For a projector in a lit room: pure black stage, white text and borders, no mid greys that
// wash out; accents bright enough to read from the back row.
const ViewColours kHighContrast = {
    .view_background = {0, 0, 0},
    .box_background = {24, 24, 24},
    .box_border = {235, 235, 235},
    .selected_border = {255, 230, 0},
    .text = {255, 255, 255},
    .muted_text = {210, 210, 210},
    .arrow = {220, 220, 220},
    .hatch_a = {90, 90, 90},
    .hatch_b = {20, 20, 20},
    .stale_target = {24, 24, 24},
    .stale_amount = 0.72f,
    .nan_colour = {255, 0, 255},
    .phase_reduce_scatter = {255, 170, 0},
    .phase_all_gather = {0, 220, 255},
    .flash = {255, 255, 255},
    .warning = {255, 220, 0},
};

}  // namespace

static_assert(spellings_are_unique(kThemeNames) && spellings_are_unique(kPaletteNames));

bool parse_theme(std::string_view text, ThemeKind& out) { return find_enum(kThemeNames, text, out); }
bool parse_palette(std::string_view text, PaletteKind& out) { return find_enum(kPaletteNames, text, out); }

const ViewColours& view_colours(ThemeKind kind) {
  return kind == ThemeKind::dark ? kDark : kind == ThemeKind::light ? kLight : kHighContrast;
}

void apply_imgui_theme(ThemeKind kind) {
  ImGuiStyle& style = ImGui::GetStyle();
  if (kind == ThemeKind::light) ImGui::StyleColorsLight(&style);
  else ImGui::StyleColorsDark(&style);
  const ViewColours& c = view_colours(kind);
  auto vec = [](Rgb rgb, float a = 1.0f) { return ImVec4(rgb.r / 255.f, rgb.g / 255.f, rgb.b / 255.f, a); };
  // Panels a shade off the ring view, so the view reads as the stage and panels as the frame.
  style.Colors[ImGuiCol_WindowBg] = vec(kind == ThemeKind::dark ? Rgb{30, 33, 39} : Rgb{236, 238, 242});
  style.Colors[ImGuiCol_ChildBg] = vec(c.view_background, 0.0f);
  style.Colors[ImGuiCol_Border] = vec(c.box_border, 0.6f);
  if (kind == ThemeKind::high_contrast) {
    // Dark's layout with every grey pushed to black or white.
    style.Colors[ImGuiCol_WindowBg] = vec(Rgb{0, 0, 0});
    style.Colors[ImGuiCol_Text] = vec(c.text);
    style.Colors[ImGuiCol_TextDisabled] = vec(c.muted_text);
    style.Colors[ImGuiCol_Border] = vec(c.box_border);
    style.Colors[ImGuiCol_FrameBg] = vec(Rgb{30, 30, 30});
    style.Colors[ImGuiCol_Button] = vec(Rgb{40, 40, 40});
    style.Colors[ImGuiCol_ButtonHovered] = vec(Rgb{0, 90, 160});
    style.Colors[ImGuiCol_ButtonActive] = vec(Rgb{0, 120, 210});
    style.Colors[ImGuiCol_TableRowBgAlt] = vec(Rgb{255, 255, 255}, 0.10f);
    style.Colors[ImGuiCol_Header] = vec(c.selected_border, 0.35f);
  }
}

void reset_imgui_style(ThemeKind kind, float scale) {
  ImGuiStyle& style = ImGui::GetStyle();
  style = ImGuiStyle();
  apply_imgui_theme(kind);
  style.WindowRounding = 0.0f;  // panels tile the window edge to edge
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  // Thick lines as geometry, not as samples of baked line textures: the font texture is
  // sampled nearest-texel (fonts.h), which would make textured lines stair-stepped.
  style.AntiAliasedLinesUseTex = false;
  style.ScaleAllSizes(scale);
}

Rgb rank_colour(int rank, PaletteKind kind) {
  if (kind == PaletteKind::standard) {
    constexpr int n = static_cast<int>(std::size(kStandard));
    if (rank < n) return kStandard[rank];
    // Golden-angle hue steps, alternating brightness so neighbours in rank order differ more.
    const float hue = 0.61803398875f * static_cast<float>(rank) + 0.07f;
    const float value = (rank % 2 == 0) ? 0.90f : 0.72f;
    const float saturation = (rank % 3 == 0) ? 0.55f : 0.70f;
    return from_hsv(hue - std::floor(hue), saturation, value);
  }
  constexpr int n = static_cast<int>(std::size(kColourBlind));
  const Rgb base = kColourBlind[rank % n];
  // Past eight ranks no palette stays safe; later cycles are lighter or darker variants.
  switch ((rank / n) % 3) {
    case 0: return base;
    case 1: return mix(base, Rgb{255, 255, 255}, 0.45f);
    default: return mix(base, Rgb{0, 0, 0}, 0.40f);
  }
}

std::vector<Rgb> rank_palette(int ranks, PaletteKind kind) {
  std::vector<Rgb> palette;
  palette.reserve(static_cast<std::size_t>(ranks));
  for (int rank = 0; rank < ranks; ++rank) palette.push_back(rank_colour(rank, kind));
  return palette;
}

}  // namespace ringviz::gui
