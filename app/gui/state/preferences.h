#pragma once
#include <string>

#include "app/gui/render/theme.h"
#include "core/model/text.h"

namespace ringviz::gui {

// What the user chose about the look and pace of the GUI; persisted between runs
// (settings.h). The collective's config is not a preference: the GUI always opens on the
// lesson given on the command line (the default lesson without flags).
struct Preferences {
  ThemeKind theme = ThemeKind::dark;
  PaletteKind palette = PaletteKind::standard;
  double speed = 1.0;
  bool loop = false;
  float text_scale = 1.0f;  // on top of the monitor's content scale
  bool show_help = false;
  int window_width = 1600;
  int window_height = 900;
  // The saved UI language (key "language"); --lang overrides it for a run without changing it
  // here, and L or the menu changes it.
  Language language = Language::en;
  bool operator==(const Preferences&) const = default;
};

}  // namespace ringviz::gui
