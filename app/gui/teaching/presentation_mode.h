#pragma once
#include <functional>
#include <string>

#include "app/gui/runtime/gui_app.h"
#include "app/gui/teaching/predict.h"
#include "app/gui/layout/presentation.h"
#include "core/model/text.h"

// The classroom features as one frame extension: presentation mode (P), predict mode (G), the
// UI language (L, and a combo at the end of the setup panel), and the presentation text size
// ([ and ]). Hosts create one next to the GuiApp, add it, and call start() before building
// the fonts.

namespace ringviz::gui {

struct ClassroomOptions {
  Language language = Language::en;
  bool present = false;
  float present_scale = kDefaultPresentationScale;
  bool predict = false;
};

class ClassroomMode : public FrameExtension {
 public:
  explicit ClassroomMode(ClassroomOptions options) : options_(options) {}

  // Applies the options; call after adding the extension and before the first font build.
  // The options' language is this run's (e.g. a one-off --lang): it is shown, not saved.
  void start(GuiApp& app);

  // Switches the UI language as the user does (L, the language menu): the choice is also the
  // saved preference. Chinese needs its font: without it the UI stays (or becomes) English and
  // the app shows a notice. False when it fell back.
  bool set_language(GuiApp& app, Language language);
  void set_presentation(GuiApp& app, bool on);
  void set_presentation_scale(GuiApp& app, float scale);
  void set_predict(GuiApp& app, bool on);

  // Called after every change of language (e.g. so that the lesson player's captions follow).
  std::function<void(Language)> on_language_change;

  // A host whose Chinese font is fetched only when Chinese is first asked for (the browser:
  // 5.5 MB a visitor who stays in English never downloads) sets this. It is called when Chinese
  // is asked for and the font cannot be read: true means a fetch is under way (or was just
  // started), and the UI stays as it is (the host shows the font loading) until the host calls
  // font_fetched(). Unset
  // (the desktop), or false: the missing font is a notice at once.
  std::function<bool()> fetch_chinese_font;
  // The fetch ended: Chinese is shown if it was asked for meanwhile (and kept as the preference
  // when the user chose it), or a notice says why not and the UI stays English.
  void font_fetched(GuiApp& app, bool ok, const std::string& error);
  bool waiting_for_font() const { return waiting_for_font_; }

  bool presenting() const { return presenting_; }
  bool predicting() const { return predicting_; }
  const PredictQuiz& quiz() const { return quiz_; }

  // FrameExtension
  void before_frame(GuiApp& app, double& seconds) override;
  void before_panels(GuiApp& app) override;
  void after_panels(GuiApp& app, const PanelLayout& panels) override;
  void setup_panel_end(GuiApp& app) override;

 private:
  // Shows `language` without touching the preferences; false when Chinese fell back to English.
  bool show_language(GuiApp& app, Language language);
  void handle_keys(GuiApp& app);
  void gate_playback(GuiApp& app);
  void resume_after_answer(GuiApp& app);
  void draw_settings(GuiApp& app);
  void draw_predict(GuiApp& app, const PanelLayout& panels);

  ClassroomOptions options_;
  bool waiting_for_font_ = false;
  bool save_language_when_fetched_ = false;  // the user chose Chinese (not a link's one-off)
  bool presenting_ = false;
  float presentation_scale_ = kDefaultPresentationScale;
  ThemeKind theme_before_ = ThemeKind::dark;
  CursorIdle cursor_;

  bool predicting_ = false;
  PredictQuiz quiz_;
  int allowed_round_ = 0;     // the round the student answered and may watch
  bool resume_playing_ = false;
  bool wrong_gpu_clicked_ = false;
  int quiz_generation_ = -1;  // the collective the score belongs to
  float banner_height_ = 0;   // the predict banner's, last frame
};

// ClassroomOptions from the command line: --lang (already checked by the config flags),
// --present, --present-scale, --predict.
ClassroomOptions classroom_options(const std::string& lang, bool present, float present_scale, bool predict);

}  // namespace ringviz::gui
