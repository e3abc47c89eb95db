#pragma once
// What every panel and the ring view read in one frame besides the session itself: how the
// frame looks and where playback stands. GuiApp fills one per frame; the panels never reach
// back into GuiApp for these.
#include "app/gui/render/theme.h"
#include "app/gui/state/playback.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

// One selected GPU, from a click on a TransfersPanel row or on its box. Passed to the panels on
// its own, not in FrameContext: a click changes it halfway through the frame, and the panels
// drawn after the click already show the new selection.
inline constexpr int kNoSelection = -1;

struct FrameContext {
  ThemeKind theme = ThemeKind::dark;
  PaletteKind palette = PaletteKind::standard;
  float ui_scale = 1.0f;  // content scale x text scale (x the presentation scale)
  bool presentation = false;  // presentation mode: the class sees it, so the operator's details stay hidden
  RoundMoment moment;
  Language language = Language::en;  // the language the GUI speaks this frame

  const UiStrings& text() const { return ui_strings_for(language); }
};

}  // namespace ringviz::gui
