#pragma once
// What a stage recording draws over the GUI's frame (docs/recording.md, "The stage"): the
// header above the view (the round's title, and the bytes per GPU as a formula with this
// run's numbers), and the title and end cards of a lesson, full frame.
#include <string>

#include "app/gui/runtime/frame_extension.h"
#include "app/gui/layout/geometry.h"
#include "app/gui/stage/stage_timeline.h"
#include "app/gui/text/round_caption.h"
#include "app/gui/text/traffic_formula.h"
#include "core/model/text.h"

namespace ringviz::gui {

class LessonPlayer;

class StageOverlay : public FrameExtension {
 public:
  // `player` (not owned, may be inactive) lends the lesson and its caption font to the cards.
  explicit StageOverlay(const LessonPlayer& player) : player_(player) {}

  // Which part of the video the next frame is: a card, or the lesson (no card).
  void set_part(StagePart part) { part_ = part; }
  StagePart part() const { return part_; }
  // Cards draw their own background unless the frame is to be transparent.
  void set_transparent(bool transparent) { transparent_ = transparent; }

  // The last frame's header strip and the pixel size of its text (for --dump-layout); zero
  // when no header was drawn (another view, or a card).
  const Rect& header() const { return header_; }
  float header_pixels() const { return header_pixels_; }
  const std::string& header_title() const { return title_; }
  const std::string& header_formula() const { return formula_line_; }

  // The words the cards add to the caption font (its glyphs are built from the lesson's text).
  static std::string card_text();

  // FrameExtension
  void after_panels(GuiApp& app, const PanelLayout& panels) override;

 private:
  void draw_header(GuiApp& app, const Rect& area);
  void draw_title_card(GuiApp& app);
  void draw_end_card(GuiApp& app);

  const LessonPlayer& player_;
  StagePart part_ = StagePart::lesson;
  bool transparent_ = false;
  RoundCaptionKey key_;
  RoundCaption caption_;
  std::string title_;
  std::string formula_line_;
  Rect header_{};
  float header_pixels_ = 0;
};

}  // namespace ringviz::gui
