#pragma once
#include <vector>

// A scrolling panel (the setup panel in a short window) shows whole lines only: a line that
// does not fit entirely above the panel's bottom edge is left out until it is scrolled in,
// instead of being drawn cut in half (docs/architecture.md, "Text in the layout dump").
//
// The panel marks where its lines end; the next frame clips the panel just above the first
// line that would not fit, and ImGui then skips every widget wholly past that clip. Marks are
// kept in content coordinates (independent of the scroll), so the layout of the last frame
// serves the next one; the first frame of a panel draws without the clip.

namespace ringviz::gui {

// Where to end the panel's clip, in screen coordinates, when the content is scrolled by
// `scroll`. `boundaries` are the tops of the lines that follow each marked line (content
// coordinates); a marked line ends `spacing` above that. The clip ends below the last line
// that fits whole above `visible_bottom` (at the next line's top, or `visible_bottom` if
// that comes first); it is `visible_bottom` itself when every line fits or none is known.
float whole_lines_bottom(const std::vector<float>& boundaries, float spacing, float scroll, float visible_bottom);

class WholeLines {
 public:
  // Right after ImGui::Begin: clips the window at the last frame's line boundary.
  void begin();
  // After each line (or group of lines that belong together) of widgets.
  void mark();
  // Right before ImGui::End.
  void end();

 private:
  std::vector<float> boundaries_;  // the last frame's, in content coordinates
  std::vector<float> marking_;     // this frame's
  bool clipped_ = false;
};

}  // namespace ringviz::gui
