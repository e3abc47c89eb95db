#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/text/caption_wrap.h"
#include "core/teaching/lesson.h"

namespace ringviz::gui {

// Plays a lesson (core/teaching/lesson.h) inside the GUI: it owns the lesson clock, makes the GUI show
// the scene's collective at the clock's round, and draws the scene title and the step's
// caption in large type on a dark band at the bottom. The same object drives `ringviz record`
// (clock set frame by frame, nothing interactive) and the interactive GUI (clock advanced by
// wall time, a lesson bar with a picker, previous/next scene and play/pause).
class LessonPlayer : public FrameExtension {
 public:
  explicit LessonPlayer(Language language = Language::en) : language_(language) {}

  // Replaces the lesson (nullopt: none, the GUI is free); the clock goes back to 0.
  void set_lesson(std::optional<Lesson> lesson);
  bool active() const { return lesson_.has_value(); }
  const Lesson& lesson() const { return *lesson_; }
  Language language() const { return language_; }
  void set_language(Language language);

  // The lesson clock, in seconds from the start (clamped to [0, duration]).
  double time() const { return time_; }
  void seek(double seconds);
  bool playing() const { return playing_; }
  void set_playing(bool playing) { playing_ = playing && active(); }
  void next_scene();
  void previous_scene();  // to the start of this scene, or of the previous one when near it
  LessonFrame frame() const;

  // Interactive extras: the lesson bar (picker, scene buttons) and the lessons it offers.
  void set_interactive(bool interactive) { interactive_ = interactive; }
  void set_lesson_files(std::vector<std::filesystem::path> files) { files_ = std::move(files); }

  // The left edge of the lesson bar in the last frame (other controls line up against it).
  float bar_left() const { return bar_left_; }
  // The leftmost x the lesson bar may start at (the view tabs and the Record button sit left
  // of it); the picker narrows to keep the bar right of it. Unset: the strip's left end.
  std::function<float()> left_limit;

  // Where the last frame's caption band was (tests look for the captions there).
  const Rect& caption_band() const { return caption_band_; }

  // Why the caption cannot be drawn in this language (no CJK font), or empty.
  const std::string& font_problem() const { return font_problem_; }

  // The caption font's pixel size for a frame height (caption_font_pixels unless a recording's
  // stage asks for larger), and more text whose glyphs it must hold (a stage's card words).
  void set_caption_pixels_rule(float (*rule)(float)) { caption_pixels_rule_ = rule; }
  void set_extra_caption_text(std::string text) { extra_caption_text_ = std::move(text); }
  // Reserve room below the view for the lesson's longest caption rather than two lines, so
  // that no caption covers the view and the view keeps one size through the lesson (the stage).
  void set_reserve_longest_caption(bool on) { reserve_longest_ = on; }
  // The caption font of the last frame (null before it is built) and its size in pixels.
  ImFont* caption_font() const;
  float caption_pixels() const { return caption_pixels_; }

  // FrameExtension
  void before_frame(GuiApp& app, double& seconds) override;
  void before_panels(GuiApp& app) override;
  void after_panels(GuiApp& app, const PanelLayout& panels) override;
  bool animating() const override { return playing_ && active(); }
  float reserve_below_view(GuiApp& app, const PanelLayout& panels) override;

 private:
  void apply(GuiApp& app);
  void ensure_caption_font(float display_height);
  void draw_caption(GuiApp& app, const PanelLayout& panels, const LessonFrame& frame);
  float band_height_for(std::size_t lines) const;
  void draw_highlights(GuiApp& app, const PanelLayout& panels, const LessonFrame& frame);
  void draw_lesson_bar(GuiApp& app, const PanelLayout& panels, const LessonFrame& frame);

  std::optional<Lesson> lesson_;
  Language language_;
  double time_ = 0.0;
  bool playing_ = false;
  bool interactive_ = false;
  std::vector<std::filesystem::path> files_;
  std::string reported_font_problem_;

  // What apply() last told the GUI, to notice when the user takes over (then the lesson pauses).
  int applied_scene_ = -1;
  int applied_generation_ = -1;
  double applied_position_ = -1.0;

  // The caption font: the default font at a large pixel size, with Chinese glyphs merged in
  // from wqy-microhei when the language is zh. Rebuilt when the size or the text changes.
  ImFont* caption_font_ = nullptr;
  float caption_pixels_ = 0.0f;
  Language caption_language_ = Language::en;
  const Lesson* caption_lesson_ = nullptr;
  ImVector<ImWchar> caption_ranges_;
  float (*caption_pixels_rule_)(float) = caption_font_pixels;
  std::string extra_caption_text_;
  bool reserve_longest_ = false;
  std::size_t longest_lines_ = 0;  // of the captions at longest_key_'s font, size and width
  struct LongestKey {
    const ImFont* font = nullptr;
    float pixels = 0;
    float width = 0;
    Language language = Language::en;
    const Lesson* lesson = nullptr;
    bool operator==(const LongestKey&) const = default;
  };
  LongestKey longest_key_;
  std::size_t longest_caption_lines(ImFont& font, float size, float width, std::size_t max_lines);
  std::string font_problem_;
  Rect caption_band_{};
  float bar_left_ = 0;
};

// Where wqy-microhei (the Chinese font) is: $RINGVIZ_CJK_FONT, else the Debian path.
std::string cjk_font_path();

}  // namespace ringviz::gui
