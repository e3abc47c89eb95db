#include "app/gui/teaching/lesson_player.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <backends/imgui_impl_opengl3.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/teaching/lesson_views.h"
#include "app/gui/text/caption_wrap.h"
#include "app/gui/inspect/item_marks.h"
#include "app/gui/text/strings.h"
#include "core/model/text.h"

namespace ringviz::gui {

namespace {

constexpr const char* kCaptionFontName = "ringviz-caption";

// The caption font's settings, shared by its Latin part and the Chinese glyphs merged into it:
// crisp (no oversampling, whole-pixel advances) because captions are drawn at one size.
ImFontConfig caption_font_config(bool merge) {
  ImFontConfig config;
  std::snprintf(config.Name, sizeof config.Name, "%s", kCaptionFontName);
  config.MergeMode = merge;
  config.OversampleH = 1;
  config.OversampleV = 1;
  config.PixelSnapH = true;
  return config;
}
constexpr const char* kDefaultCjkFont = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";
// Going back within this many seconds of a scene's start goes to the previous scene, as a
// media player's "previous" button does.
constexpr double kPreviousSceneGrace = 1.5;

// Takes one font (and its configs) out of the atlas, so that a caption font of another size or
// language can replace it without rebuilding the fonts other code added.
void remove_font(ImFontAtlas& atlas, ImFont* font) {
  for (int i = atlas.ConfigData.Size - 1; i >= 0; --i) {
    ImFontConfig& config = atlas.ConfigData[i];
    if (config.DstFont != font) continue;
    if (config.FontDataOwnedByAtlas && config.FontData) IM_FREE(config.FontData);
    atlas.ConfigData.erase(atlas.ConfigData.Data + i);
  }
  for (int i = 0; i < atlas.Fonts.Size; ++i)
    if (atlas.Fonts[i] == font) {
      IM_DELETE(font);
      atlas.Fonts.erase(atlas.Fonts.Data + i);
      break;
    }
}

bool caption_font_present(const ImFontAtlas& atlas, const ImFont* font) {
  if (font == nullptr) return false;
  for (const ImFont* f : atlas.Fonts)
    // A freed font's address may be reused by someone else's: the name tells them apart.
    if (f == font) return f->ConfigData && std::strcmp(f->ConfigData->Name, kCaptionFontName) == 0;
  return false;
}

Rgb highlight_colour() { return {255, 214, 10}; }

}  // namespace

std::string cjk_font_path() {
  if (const char* env = std::getenv("RINGVIZ_CJK_FONT"); env && *env) return env;
  return kDefaultCjkFont;
}

void LessonPlayer::set_lesson(std::optional<Lesson> lesson) {
  lesson_ = std::move(lesson);
  time_ = 0.0;
  playing_ = false;
  applied_scene_ = -1;
  applied_position_ = -1.0;
  caption_lesson_ = nullptr;  // new texts: new glyph ranges
}

void LessonPlayer::set_language(Language language) { language_ = language; }

ImFont* LessonPlayer::caption_font() const {
  return caption_font_present(*ImGui::GetIO().Fonts, caption_font_) ? caption_font_ : nullptr;
}

void LessonPlayer::seek(double seconds) {
  if (!active()) return;
  time_ = std::clamp(seconds, 0.0, lesson_->duration());
  applied_position_ = -1.0;  // apply on the next frame even while paused
}

LessonFrame LessonPlayer::frame() const { return lesson_frame(*lesson_, time_, language_); }

void LessonPlayer::next_scene() {
  if (!active()) return;
  const LessonFrame f = frame();
  const std::size_t next = static_cast<std::size_t>(f.scene_index) + 1;
  seek(next < lesson_->scenes.size() ? lesson_->scenes[next].start_seconds : lesson_->duration());
}

void LessonPlayer::previous_scene() {
  if (!active()) return;
  const LessonFrame f = frame();
  const double start = f.scene->start_seconds;
  if (time_ - start > kPreviousSceneGrace || f.scene_index == 0) seek(start);
  else seek(lesson_->scenes[static_cast<std::size_t>(f.scene_index) - 1].start_seconds);
}

void LessonPlayer::before_frame(GuiApp&, double& seconds) {
  if (!active()) return;
  if (playing_ && seconds > 0) {
    time_ = std::min(time_ + seconds, lesson_->duration());
    if (time_ >= lesson_->duration()) playing_ = false;
  }
  const float height = ImGui::GetIO().DisplaySize.y;
  ensure_caption_font(height > 0 ? height : 900.0f);
}

void LessonPlayer::ensure_caption_font(float display_height) {
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  const float pixels = caption_pixels_rule_(display_height);
  if (caption_font_present(atlas, caption_font_) && pixels == caption_pixels_ && caption_language_ == language_ &&
      caption_lesson_ == &*lesson_)
    return;
  // Build() clears TexID, so whether the renderer holds a texture must be known before it.
  const bool had_texture = atlas.TexID != nullptr;
  if (had_texture) ImGui_ImplOpenGL3_DestroyFontsTexture();
  if (caption_font_present(atlas, caption_font_)) remove_font(atlas, caption_font_);
  caption_font_ = nullptr;
  font_problem_.clear();

  ImFontConfig latin = caption_font_config(false);
  latin.SizePixels = pixels;
  ImFont* font = atlas.AddFontDefault(&latin);
  if (language_ == Language::zh) {
    const std::string path = cjk_font_path();
    if (::access(path.c_str(), R_OK) != 0) {
      font_problem_ = "the Chinese caption font " + path +
                      " is missing (install the fonts-wqy-microhei package, or set RINGVIZ_CJK_FONT)";
    } else {
      // Only the characters the lesson uses: a whole CJK range would take a huge atlas at
      // caption sizes.
      ImFontGlyphRangesBuilder builder;
      builder.AddRanges(atlas.GetGlyphRangesDefault());
      builder.AddText(lesson_->title.zh.c_str());
      builder.AddText(lesson_->summary.zh.c_str());
      builder.AddText(extra_caption_text_.c_str());
      for (const LessonScene& scene : lesson_->scenes) {
        builder.AddText(scene.title.zh.c_str());
        for (const LessonStep& step : scene.steps) builder.AddText(step.caption.zh.c_str());
      }
      builder.AddText(ui_strings_for(Language::zh).lesson_bar_scene);
      builder.AddChar(static_cast<ImWchar>(kReplacementCharacter));  // the fallback glyph (glyph_audit.h)
      caption_ranges_.clear();
      builder.BuildRanges(&caption_ranges_);
      ImFontConfig cjk = caption_font_config(true);
      atlas.AddFontFromFileTTF(path.c_str(), pixels, &cjk, caption_ranges_.Data);
    }
  }
  atlas.Build();
  // The renderer keeps its own copy of the atlas: make a new one if it had one (otherwise its
  // first NewFrame makes it).
  if (had_texture) ImGui_ImplOpenGL3_CreateFontsTexture();
  caption_font_ = font;
  caption_pixels_ = pixels;
  caption_language_ = language_;
  caption_lesson_ = &*lesson_;
}

void LessonPlayer::apply(GuiApp& app) {
  const LessonFrame f = frame();
  if (f.scene_index != applied_scene_) {
    std::string error;
    if (f.scene->open) {
      // A replay brings its own timeline; the lesson still moves the rounds (docs/lessons.md).
      if (!app.open_replay(f.scene->open->string(), error)) app.add_notice(error);
      else if (f.scene->collective) app.show_job_collective(*f.scene->collective);
    } else {
      app.close_replay();
      if (!app.apply_config(f.scene->config, app.model().backend_choice()))
        app.add_notice(format(app.text().lesson_scene_failed, f.scene_index + 1));
    }
    show_lesson_scene(app, *f.scene);
    applied_scene_ = f.scene_index;
  }
  const double position = f.round + f.round_progress;
  app.playback().seek(position);
  applied_position_ = position;
  applied_generation_ = app.model().generation();
  follow_lesson_frame(app, f);
}

void LessonPlayer::before_panels(GuiApp& app) {
  if (!active()) return;
  if (interactive_ && applied_position_ >= 0) {
    // The user took over (a key, the transport buttons, the setup panel): the lesson pauses
    // and leaves the GUI where the user put it. Play in the GUI while the lesson plays means
    // "pause", as the space bar does everywhere else.
    const bool moved = app.model().generation() != applied_generation_ ||
                       app.playback().position() != applied_position_;
    if (moved) {
      playing_ = false;
      return;
    }
    if (app.playback().playing()) {
      app.playback().seek(applied_position_);
      if (playing_) {
        playing_ = false;
        return;
      }
      playing_ = true;
    }
    if (!playing_) return;
  }
  apply(app);
}

void LessonPlayer::after_panels(GuiApp& app, const PanelLayout& panels) {
  if (interactive_) {
    const LessonFrame f = active() ? frame() : LessonFrame{};
    draw_lesson_bar(app, panels, f);
  }
  if (!active()) return;
  const LessonFrame f = frame();
  draw_highlights(app, panels, f);
  draw_caption(app, panels, f);
}

void LessonPlayer::draw_highlights(GuiApp& app, const PanelLayout& panels, const LessonFrame& f) {
  if (f.highlight == nullptr || f.highlight->empty()) return;
  const bool ring_shown = std::find(f.views->begin(), f.views->end(), View::ring) != f.views->end();
  const RingGeometry& geometry = app.geometry();
  const int n = app.model().config().ranks;
  if (!ring_shown || geometry.ranks != n || n != f.scene->config.ranks) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->PushClipRect(to_imvec(panels.view.min()), to_imvec(panels.view.max()), true);
  const float s = app.ui_scale();
  const float thickness = std::max(2.0f, 3.0f * s);
  // Steady, not pulsing: a still scene then gives identical frames, which a recording
  // encodes (and renders) once.
  const ImU32 colour = to_imcol(highlight_colour());
  auto outline = [&](const Rect& r, float grow) {
    dl->AddRect(ImVec2(r.x - grow, r.y - grow), ImVec2(r.right() + grow, r.bottom() + grow), colour, 4.0f * s, 0,
                thickness);
  };
  for (int gpu : f.highlight->gpus)
    if (gpu >= 0 && gpu < n) outline(geometry.boxes[static_cast<std::size_t>(gpu)].box, 4.0f * s);
  for (const SlotHighlight& slot : f.highlight->slots) {
    if (slot.slot < 0 || slot.slot >= n) continue;
    for (int r = 0; r < n; ++r)
      if (!slot.gpu || *slot.gpu == r) outline(geometry.painted_cell(r, slot.slot), 2.0f * s);
  }
  // Transfers: the arrow of each highlighted transfer of the round in flight, or, between
  // rounds, of those already done, so a path such as "follow A" stays visible.
  const bool in_flight = f.round_progress > 0;
  for (const TransferRef& t : f.highlight->transfers) {
    const bool show = in_flight ? t.round == f.round + 1 : t.round <= f.round;
    if (!show || t.src < 0 || t.src >= n || t.src >= static_cast<int>(geometry.arrows.size())) continue;
    const ArrowPath& arrow = geometry.arrows[static_cast<std::size_t>(t.src)];
    std::vector<ImVec2> points;
    for (const Vec2& p : arrow.points) points.push_back(to_imvec(p));
    if (points.size() >= 2)
      dl->AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, thickness * 1.6f);
    outline(geometry.painted_cell(t.src, t.slot), 2.0f * s);
    if (!in_flight || f.round_progress >= kArrival) outline(geometry.painted_cell(t.dst, t.slot), 2.0f * s);
  }
  dl->PopClipRect();
}

float LessonPlayer::band_height_for(std::size_t lines) const {
  const bool have_font = caption_font_present(*ImGui::GetIO().Fonts, caption_font_);
  const float size = have_font ? caption_pixels_ : ImGui::GetFontSize();
  const float pad = std::round(size * 0.45f);
  const float heading_size = language_ == Language::zh && have_font ? std::round(size * 0.6f) : ImGui::GetFontSize();
  return std::round(pad * 2 + std::round(heading_size * 1.3f) + size * 1.2f * static_cast<float>(lines));
}

std::size_t LessonPlayer::longest_caption_lines(ImFont& font, float size, float width, std::size_t max_lines) {
  const LongestKey key{&font, size, width, language_, &*lesson_};
  if (key == longest_key_) return longest_lines_;
  const float pad = std::round(size * 0.45f);
  const float limit = std::min(width - 4 * pad, size * 46.0f);
  std::size_t longest = 1;
  for (const LessonScene& scene : lesson_->scenes)
    for (const LessonStep& step : scene.steps)
      longest = std::max(longest, wrap_caption(font, size, step.caption.in(language_), limit, max_lines).size());
  longest_key_ = key;
  longest_lines_ = longest;
  return longest;
}

float LessonPlayer::reserve_below_view(GuiApp&, const PanelLayout& panels) {
  if (!active()) return 0;
  // Captions are written to fit two lines; the view gives up that much (or, on the stage,
  // what the longest caption needs). In a recording the band covers the controls first.
  std::size_t lines = 2;
  if (reserve_longest_ && caption_font_present(*ImGui::GetIO().Fonts, caption_font_)) {
    const float width = panels.controls.w > 0 ? panels.controls.w : ImGui::GetIO().DisplaySize.x;
    std::size_t max_lines = 2;
    while (band_height_for(max_lines + 1) <= ImGui::GetIO().DisplaySize.y * 0.5f) ++max_lines;
    lines = std::max(lines, longest_caption_lines(*caption_font_, caption_pixels_, width, max_lines));
  }
  const float band = band_height_for(lines);
  if (interactive_) return band;
  const float below_view = ImGui::GetIO().DisplaySize.y - panels.view.bottom();
  return std::max(0.0f, band - below_view);
}

void LessonPlayer::draw_caption(GuiApp& app, const PanelLayout& panels, const LessonFrame& f) {
  ImFont* font = caption_font_present(*ImGui::GetIO().Fonts, caption_font_) ? caption_font_ : ImGui::GetFont();
  const float size = font == caption_font_ ? caption_pixels_ : ImGui::GetFontSize();
  const float width = panels.controls.w > 0 ? panels.controls.w : ImGui::GetIO().DisplaySize.x;
  // Interactive: above the controls, which stay usable. Recording: at the very bottom, over the
  // controls nobody can click in a video, so the band hides less of the view.
  const float bottom = interactive_ && panels.controls.h > 0 ? panels.controls.y : ImGui::GetIO().DisplaySize.y;
  const float pad = std::round(size * 0.45f);
  const float text_width_limit = std::min(width - 4 * pad, size * 46.0f);
  // The band may grow to half of the height above its bottom edge; a longer caption is cut
  // short there, and the rest of it is never laid out (a lesson may carry a huge caption).
  std::size_t max_lines = 2;
  while (band_height_for(max_lines + 1) <= bottom * 0.5f) ++max_lines;
  const std::vector<std::string> lines =
      wrap_caption(*font, size, std::string(f.caption), text_width_limit, max_lines);

  ImFont* small = ImGui::GetFont();
  // The lesson bar speaks the lesson's language (it sits next to its captions).
  const UiStrings& words = ui_strings_for(language_);
  char scene_text[96];
  std::snprintf(scene_text, sizeof scene_text, words.lesson_bar_scene, f.scene_index + 1,
                static_cast<int>(lesson_->scenes.size()));
  const std::string heading = std::string(scene_text) + "  |  " + f.scene->title.in(language_);
  // The heading in the caption font's glyphs when the UI font lacks them (Chinese titles).
  ImFont* heading_font = language_ == Language::zh && font == caption_font_ ? font : small;
  const float heading_size = heading_font == small ? ImGui::GetFontSize() : std::round(size * 0.6f);

  const float line_height = size * 1.2f;
  // At least the height reserved below the view, so that no sliver of the view shows under it.
  const std::size_t reserved = reserve_longest_ ? std::max<std::size_t>(2, longest_lines_) : 2;
  const float band_height =
      std::max(band_height_for(std::max<std::size_t>(lines.size(), 1)), band_height_for(reserved));
  const float top = bottom - band_height;
  caption_band_ = {0, top, width, band_height};
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  // Over the view a hint of it shows through; over the controls (recordings) nothing should.
  dl->AddRectFilled(ImVec2(0, top), ImVec2(width, bottom), IM_COL32(8, 10, 14, interactive_ ? 214 : 255));
  // Lesson progress along the band's top edge.
  const double duration = lesson_->duration();
  const float progress = duration > 0 ? static_cast<float>(f.time / duration) : 1.0f;
  const float bar = std::max(2.0f, std::round(size * 0.08f));
  // In steps of 4 pixels, so that it does not make every frame of a pause different.
  const float bar_end = std::floor(width * progress / 4.0f) * 4.0f;
  dl->AddRectFilled(ImVec2(0, top), ImVec2(bar_end, top + bar), to_imcol(highlight_colour(), 0.9f));

  const ImVec2 heading_extent =
      heading_font->CalcTextSizeA(heading_size, 1e9f, 0.0f, heading.c_str(), heading.c_str() + heading.size());
  float y = top + pad;
  dl->AddText(heading_font, heading_size, ImVec2(std::round((width - heading_extent.x) * 0.5f), y),
              IM_COL32(190, 200, 215, 255), heading.c_str(), heading.c_str() + heading.size());
  y += std::round(heading_size * 1.3f);
  for (const std::string& line : lines) {
    const float w = font->CalcTextSizeA(size, 1e9f, 0.0f, line.c_str(), line.c_str() + line.size()).x;
    dl->AddText(font, size, ImVec2(std::round((width - w) * 0.5f), std::round(y)), IM_COL32(255, 255, 255, 255),
                line.c_str(), line.c_str() + line.size());
    y += line_height;
  }
  (void)app;
}

void LessonPlayer::draw_lesson_bar(GuiApp& app, const PanelLayout& panels, const LessonFrame& f) {
  // The lesson bar speaks the lesson's language (it sits next to its captions).
  const UiStrings& words = ui_strings_for(language_);
  const ImGuiStyle& style = ImGui::GetStyle();
  // One row at the right end of the strip above the centre view (the view tabs sit at its
  // left end), so that it covers nothing of the view itself.
  const std::string current = active() ? std::filesystem::path(lesson_->source).stem().string() : words.lesson_bar_none;
  float combo_w = std::max(ImGui::CalcTextSize(current.c_str()).x, ImGui::CalcTextSize("00-allreduce-traffic").x) +
                        ImGui::GetFrameHeight() + style.FramePadding.x * 2;
  auto button_w = [&](const char* label) { return ImGui::CalcTextSize(label).x + style.FramePadding.x * 2; };
  float w = combo_w + style.WindowPadding.x * 2;
  if (active())
    w += button_w("<") + button_w(">") + std::max(button_w(words.lesson_bar_play), button_w(words.lesson_bar_pause)) +
         ImGui::CalcTextSize("00 / 00").x + style.ItemSpacing.x * 4;
  if (left_limit) {
    // Where the strip is short (a 1280-pixel window while a lesson plays) the picker gives up
    // width, down to three frame heights, before the bar would slide over the view tabs.
    const float excess = w - (panels.caption.right() - left_limit());
    const float give = std::clamp(excess, 0.0f, std::max(0.0f, combo_w - ImGui::GetFrameHeight() * 3));
    combo_w -= give;
    w -= give;
  }
  const float x = std::max(panels.caption.x, panels.caption.right() - w);
  bar_left_ = x;
  ImGui::SetNextWindowPos(ImVec2(x, 0));
  ImGui::SetNextWindowSize(ImVec2(std::min(w, panels.caption.w), 0));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(style.WindowPadding.x, 4.0f * app.ui_scale()));
  ImGui::Begin("##lesson_bar", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
  ImGui::PopStyleVar();
  ImGui::SetNextItemWidth(combo_w);
  if (ImGui::BeginCombo("##lesson", current.c_str())) {
    if (ImGui::Selectable(words.lesson_bar_none, !active())) set_lesson(std::nullopt);
    mark_last_item("lesson.none");
    for (const std::filesystem::path& file : files_) {
      const std::string name = file.stem().string();
      const bool picked = ImGui::Selectable(name.c_str(), active() && name == current);
      mark_last_item("lesson.item." + name);
      if (picked) {
        try {
          set_lesson(load_lesson_file(file));
          playing_ = true;
        } catch (const std::exception& error) {
          app.add_notice(error.what());
        }
      }
    }
    ImGui::EndCombo();
  }
  mark_last_item("lesson.picker");  // after EndCombo the last item is the combo again, open or not
  if (ImGui::IsItemHovered() && active()) ImGui::SetTooltip("%s", lesson_->title.in(language_).c_str());
  if (active()) {
    ImGui::SameLine();
    if (ImGui::Button("<")) previous_scene();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", words.lesson_bar_previous);
    ImGui::SameLine();
    if (ImGui::Button(playing_ ? words.lesson_bar_pause : words.lesson_bar_play)) {
      if (!playing_ && time_ >= lesson_->duration()) seek(0);
      playing_ = !playing_;
      applied_position_ = -1.0;  // resuming re-applies the lesson over whatever the user did
    }
    ImGui::SameLine();
    if (ImGui::Button(">")) next_scene();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", words.lesson_bar_next);
    ImGui::SameLine();
    ImGui::Text("%d / %d", f.scene_index + 1, static_cast<int>(lesson_->scenes.size()));
    if (!font_problem_.empty() && font_problem_ != reported_font_problem_) {
      app.add_notice(font_problem_);
      reported_font_problem_ = font_problem_;
    }
  }
  ImGui::End();
}

}  // namespace ringviz::gui
