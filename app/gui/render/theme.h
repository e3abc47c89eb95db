#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/render/colour.h"
#include "core/model/enum_table.h"

namespace ringviz::gui {

// high_contrast: white on black with saturated accents, for projectors (presentation mode).
enum class ThemeKind { dark, light, high_contrast };
inline constexpr EnumName<ThemeKind> kThemeNames[] = {
    {ThemeKind::dark, "dark"}, {ThemeKind::light, "light"},
    {ThemeKind::high_contrast, "high-contrast", "contrast"}};
enum class PaletteKind { standard, colour_blind };
inline constexpr EnumName<PaletteKind> kPaletteNames[] = {
    {PaletteKind::standard, "standard"},
    {PaletteKind::colour_blind, "colour-blind", "color-blind cb"}};

inline constexpr EnumNamer theme_name{kThemeNames};
inline constexpr EnumNamer palette_name{kPaletteNames};
// False, leaving `out` as it was, for text that names no theme (palette).
bool parse_theme(std::string_view text, ThemeKind& out);
bool parse_palette(std::string_view text, PaletteKind& out);

// The colours the ring view draws with, beyond ImGui's own style.
struct ViewColours {
  Rgb view_background;
  Rgb box_background;
  Rgb box_border;
  Rgb selected_border;
  Rgb text;
  Rgb muted_text;
  Rgb arrow;
  Rgb hatch_a;          // empty slots: two-tone diagonal hatching
  Rgb hatch_b;
  Rgb stale_target;     // stale partial sums are pulled toward this colour
  float stale_amount;
  Rgb nan_colour;
  Rgb phase_reduce_scatter;
  Rgb phase_all_gather;
  Rgb flash;
  Rgb warning;
};

const ViewColours& view_colours(ThemeKind kind);
// Applies the theme's colours to ImGui's style (sizes untouched).
void apply_imgui_theme(ThemeKind kind);
// A fresh style: the theme's colours and our sizes, scaled by `scale`.
void reset_imgui_style(ThemeKind kind, float scale);

// One colour per rank. The first colours are hand-picked to be far apart; past them, hues
// step by the golden angle so any two ranks still differ.
Rgb rank_colour(int rank, PaletteKind kind);
std::vector<Rgb> rank_palette(int ranks, PaletteKind kind);

}  // namespace ringviz::gui
