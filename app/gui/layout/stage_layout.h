#pragma once
// The stage: how `ringviz record` lays out a frame for an explainer video (docs/recording.md,
// "The stage"). The view fills the frame under a two-line header (the round's title and the
// formula that matters), the lesson's caption sits in a band at the bottom, and the text is
// sized from the frame's height so that it stays legible on a phone at 720p. Pure functions,
// tested without GL.
#include "app/gui/layout/panel_layout.h"

namespace ringviz::gui {

// The UI scale of a stage frame `height` pixels tall: 2 at 720p, 3 at 1080p, 6 at 2160p, so
// that the ring's labels and the header are as large, relative to the frame, at every size.
float stage_ui_scale(int height);

// The lesson caption's font size on the stage: at least 4% of the height, on whole multiples
// of the default font's 13 pixels (its bitmap-style glyphs stay sharp): 39 px at 720p.
float stage_caption_pixels(float height);

// The stage arrangement: `caption` is the header strip across the top, `view` everything
// below it; setup, transfers and traffic are empty and `controls` is a zero-height strip at
// the bottom edge (nothing to click in a video). `ui_scale` is the frame's UI scale.
PanelLayout layout_stage_panels(float width, float height, float ui_scale);

}  // namespace ringviz::gui
