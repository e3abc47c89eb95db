#include "app/gui/teaching/presentation_mode.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <utility>

#include <GLFW/glfw3.h>  // key codes only: ImGui 1.86 indexes keys by the platform's codes
#include <imgui.h>

#include "app/gui/text/font_loader.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

// A fetch that failed (fetch_chinese_font): shown while the Chinese font is missing, so in
// English, like ui_strings' font_missing; short, so that it fits beside the status.
constexpr const char* kFontFetchFailed = "Chinese font not loaded (%s); L tries again.";

constexpr Rgb kRight{70, 200, 110};
constexpr Rgb kWrong{240, 96, 80};

// The slot cell of `geometry` under `point`, as {rank, slot}; {-1, -1} when none.
std::pair<int, int> cell_at(const RingGeometry& geometry, Vec2 point) {
  for (int r = 0; r < geometry.ranks && r < static_cast<int>(geometry.boxes.size()); ++r) {
    if (!geometry.boxes[static_cast<std::size_t>(r)].cells.contains(point)) continue;
    for (int slot = 0; slot < geometry.slots; ++slot)
      if (geometry.cell(r, slot).contains(point)) return {r, slot};
    return {-1, -1};
  }
  return {-1, -1};
}

void outline(ImDrawList* dl, const Rect& r, Rgb colour, float grow, float thickness) {
  dl->AddRect(ImVec2(r.x - grow, r.y - grow), ImVec2(r.right() + grow, r.bottom() + grow), to_imcol(colour),
              grow, 0, thickness);
}

}  // namespace

ClassroomOptions classroom_options(const std::string& lang, bool present, float present_scale, bool predict) {
  ClassroomOptions options;
  options.language = lang.empty() ? Language::en : parse_language(lang, "--lang");
  options.present = present;
  if (present_scale != 0 && (present_scale < kMinPresentationScale || present_scale > kMaxPresentationScale))
    throw InputError("--present-scale: must be between 1.5 and 3");
  options.present_scale = present_scale != 0 ? present_scale : kDefaultPresentationScale;
  options.predict = predict;
  return options;
}

void ClassroomMode::start(GuiApp& app) {
  presentation_scale_ = clamp_presentation_scale(options_.present_scale);
  show_language(app, options_.language);
  if (options_.present) set_presentation(app, true);
  if (options_.predict) set_predict(app, true);
}

bool ClassroomMode::set_language(GuiApp& app, Language language) {
  if (!show_language(app, language)) {
    if (waiting_for_font_) save_language_when_fetched_ = true;
    return false;
  }
  app.preferences().language = language;  // the user chose it: saved with the other preferences
  return true;
}

void ClassroomMode::font_fetched(GuiApp& app, bool ok, const std::string& error) {
  if (!waiting_for_font_) return;
  waiting_for_font_ = false;
  const bool save = std::exchange(save_language_when_fetched_, false);
  if (!ok) {
    app.add_notice(format(kFontFetchFailed, error.c_str()));
    return;
  }
  if (show_language(app, Language::zh) && save) app.preferences().language = Language::zh;
}

bool ClassroomMode::show_language(GuiApp& app, Language language) {
  if (language == Language::zh) {
    std::string missing;
    if (!chinese_font_data(missing) && fetch_chinese_font && fetch_chinese_font()) {
      // The language on screen stays until the font is here; the host shows that it loads.
      waiting_for_font_ = true;
      return false;
    }
    if (!chinese_font_data(missing)) {
      app.set_language(Language::en);
      if (on_language_change) on_language_change(Language::en);
      app.add_notice(format(ui_strings_for(Language::en).font_missing, missing.c_str()));
      return false;
    }
  }
  // The host rebuilds the font atlas before the next frame (fonts_current() turns false).
  app.set_language(language);
  if (on_language_change) on_language_change(language);
  return true;
}

void ClassroomMode::set_presentation(GuiApp& app, bool on) {
  if (on == presenting_) return;
  Preferences& preferences = app.preferences();
  if (on) {
    theme_before_ = preferences.theme;
    preferences.theme = ThemeKind::high_contrast;
  } else if (preferences.theme == ThemeKind::high_contrast) {
    preferences.theme = theme_before_;
  }
  apply_imgui_theme(preferences.theme);
  presenting_ = on;
  cursor_.reset();
  // A new scale: the host rebuilds fonts and sizes before the next frame.
  app.set_presentation(on, presentation_scale_);
}

void ClassroomMode::set_presentation_scale(GuiApp& app, float scale) {
  presentation_scale_ = clamp_presentation_scale(scale);
  if (presenting_) app.set_presentation(true, presentation_scale_);
}

void ClassroomMode::set_predict(GuiApp& app, bool on) {
  predicting_ = on;
  quiz_.reset();
  allowed_round_ = 0;
  resume_playing_ = false;
  wrong_gpu_clicked_ = false;
  quiz_generation_ = app.model().ready() ? app.model().generation() : -1;
}

void ClassroomMode::before_frame(GuiApp& app, double& seconds) {
  if (!predicting_ || !app.model().ready()) return;
  gate_playback(app);
  // Stop exactly at the end of the round in flight when the next one has not been answered.
  Playback& playback = app.playback();
  const double position = playback.position();
  const double whole = std::floor(position);
  if (!playback.playing() || position == whole) return;
  const int next = static_cast<int>(whole) + 2;  // the round after the one in flight
  if (next > playback.round_count() || allowed_round_ == next) return;
  if (position + seconds * playback.speed() / kSecondsPerRound < whole + 1) return;
  playback.seek(whole + 1);
  resume_playing_ = true;
  quiz_.ask(app.model().session().schedule(), next);
}

// At rest before a round that has not been answered: hold still and ask about it.
void ClassroomMode::gate_playback(GuiApp& app) {
  if (app.model().generation() != quiz_generation_) {
    // Another collective: earlier answers say nothing about it.
    quiz_.reset();
    allowed_round_ = 0;
    quiz_generation_ = app.model().generation();
  }
  Playback& playback = app.playback();
  const double position = playback.position();
  const double whole = std::floor(position);
  const bool at_rest = position == whole;
  const int next = static_cast<int>(whole) + 1;
  const auto& pending = quiz_.pending();
  if (pending && (!at_rest || pending->round != next)) quiz_.cancel();  // the student moved away
  if (!at_rest || next > playback.round_count() || allowed_round_ == next) return;
  if (playback.animating()) {
    resume_playing_ = playback.playing();
    playback.seek(whole);  // stops: the round plays once it is answered
  }
  if (!quiz_.pending()) {
    quiz_.ask(app.model().session().schedule(), next);
    wrong_gpu_clicked_ = false;
  }
}

void ClassroomMode::resume_after_answer(GuiApp& app) {
  allowed_round_ = quiz_.answered_round();
  Playback& playback = app.playback();
  if (resume_playing_) playback.play();
  else playback.step_forward();
}

void ClassroomMode::before_panels(GuiApp& app) { handle_keys(app); }

void ClassroomMode::handle_keys(GuiApp& app) {
  if (ImGui::GetIO().WantTextInput) return;
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
  if (pressed(GLFW_KEY_P)) set_presentation(app, !presenting_);
  if (pressed(GLFW_KEY_G)) set_predict(app, !predicting_);
  if (pressed(GLFW_KEY_L)) set_language(app, app.language() == Language::en ? Language::zh : Language::en);
  if (presenting_ && pressed(GLFW_KEY_LEFT_BRACKET))
    set_presentation_scale(app, presentation_scale_ - kPresentationScaleStep);
  if (presenting_ && pressed(GLFW_KEY_RIGHT_BRACKET))
    set_presentation_scale(app, presentation_scale_ + kPresentationScaleStep);
}

void ClassroomMode::after_panels(GuiApp& app, const PanelLayout& panels) {
  if (presenting_) {
    const ImGuiIO& io = ImGui::GetIO();
    const bool button = io.MouseDown[0] || io.MouseDown[1] || io.MouseDown[2];
    if (cursor_.update(io.MousePos.x, io.MousePos.y, button, io.DeltaTime))
      ImGui::SetMouseCursor(ImGuiMouseCursor_None);  // the GLFW backend hides the cursor for this
  }
  if (predicting_ && app.model().ready()) draw_predict(app, panels);
}

void ClassroomMode::setup_panel_end(GuiApp& app) { draw_settings(app); }

void ClassroomMode::draw_settings(GuiApp& app) {
  const UiStrings& t = app.text();
  ImGui::Separator();
  ImGui::PushItemWidth(std::round(ImGui::GetContentRegionAvail().x * 0.58f));
  const Language current = app.language();
  if (ImGui::BeginCombo(t.language, language_display_name(current).data())) {
    for (Language language : {Language::en, Language::zh}) {
      if (ImGui::Selectable(language_display_name(language).data(), language == current) && language != current)
        set_language(app, language);
    }
    ImGui::EndCombo();
  }
  bool present = presenting_;
  if (ImGui::Checkbox(t.presentation_mode, &present)) set_presentation(app, present);
  // The size slider shares the checkbox's line; its name is in the tooltip.
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize("3.00x").x * 2));
  float scale = presentation_scale_;
  // Applied on release: every change of size rebuilds the font atlas.
  ImGui::SliderFloat("##presentation_size", &scale, kMinPresentationScale, kMaxPresentationScale, "%.2fx");
  if (ImGui::IsItemDeactivatedAfterEdit()) set_presentation_scale(app, scale);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.presentation_size);
  bool predict = predicting_;
  if (ImGui::Checkbox(t.predict_mode, &predict)) set_predict(app, predict);
  ImGui::PopItemWidth();
}

void ClassroomMode::draw_predict(GuiApp& app, const PanelLayout& panels) {
  const UiStrings& t = app.text();
  const Rect& view = panels.view;
  if (view.w <= 0 || view.h <= 0) return;
  const RingGeometry& geometry = app.geometry();
  const ViewColours& colours = view_colours(app.preferences().theme);
  const Playback& playback = app.playback();
  const RoundMoment moment = playback.moment();
  const float line = ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const auto& pending = quiz_.pending();
  const auto& last = quiz_.last_answer();
  // The verdict waits until the answered round has landed.
  const bool settled = last && moment.rest_round >= last->question.round && !moment.in_flight;

  // The GPU asked about, outlined and pulsing gently; the verdict marks the cells.
  if (pending && pending->gpu < static_cast<int>(geometry.boxes.size())) {
    const float pulse = 0.5f + 0.5f * std::sin(static_cast<float>(ImGui::GetTime()) * 4.0f);
    outline(dl, geometry.boxes[static_cast<std::size_t>(pending->gpu)].box, colours.selected_border,
            std::round(line * 0.3f), std::max(2.0f, line * (0.15f + 0.1f * pulse)));
  }
  if (last && last->question.gpu < geometry.ranks && (settled || moment.round == last->question.round)) {
    const int gpu = last->question.gpu;
    const float width = std::max(2.0f, line * 0.2f);
    if (settled)
      for (int slot : last->question.slots) outline(dl, geometry.painted_cell(gpu, slot), kRight, width, width);
    if (!last->right && last->picked_slot < geometry.slots)
      outline(dl, geometry.painted_cell(gpu, last->picked_slot), kWrong, width * 0.5f, width);
  }

  // The banner goes where it hides the least of the GPUs, and above all not the one asked
  // about (the student must see and click its cells): inside the ring when there is room.
  // Its height is last frame's.
  const float pad = std::round(line * 0.5f);
  const float width = std::round(std::max(line * 10, std::min(view.w * 0.46f, line * 36)));
  const float height = banner_height_ > 0 ? banner_height_ : line * 5;
  const float left = view.x + pad, centre = std::round(view.centre().x - width * 0.5f),
              right = view.right() - pad - width;
  const float top = view.y + pad, middle = std::round(view.centre().y - height * 0.5f),
              bottom = view.bottom() - pad - height;
  const Rect candidates[] = {{centre, middle, width, height}, {centre, bottom, width, height},
                             {centre, top, width, height},    {left, middle, width, height},
                             {right, middle, width, height},  {left, bottom, width, height},
                             {right, bottom, width, height},  {left, top, width, height},
                             {right, top, width, height}};
  const int asked = pending ? pending->gpu : last ? last->question.gpu : -1;
  auto hidden_area = [&](const Rect& banner_rect) {
    float area = 0;
    for (int r = 0; r < static_cast<int>(geometry.boxes.size()); ++r) {
      const Rect& b = geometry.boxes[static_cast<std::size_t>(r)].box;
      const float w = std::min(b.right(), banner_rect.right()) - std::max(b.x, banner_rect.x);
      const float h = std::min(b.bottom(), banner_rect.bottom()) - std::max(b.y, banner_rect.y);
      if (w > 0 && h > 0) area += w * h * (r == asked ? 100.0f : 1.0f);
    }
    return area;
  };
  Rect place = candidates[0];
  float least = hidden_area(place);
  for (const Rect& candidate : candidates) {
    const float area = hidden_area(candidate);
    if (area < least) {
      least = area;
      place = candidate;
    }
  }
  ImGui::SetNextWindowPos(ImVec2(place.x, place.y), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, FLT_MAX));
  ImGui::SetNextWindowBgAlpha(0.88f);
  constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  Rect banner{};
  if (ImGui::Begin("##predict", nullptr, flags)) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 2 * ImGui::GetStyle().WindowPadding.x);
    ImGui::TextColored(to_imvec4(colours.muted_text), "%s", format(t.predict_score, quiz_.right(), quiz_.answered()).c_str());
    if (settled) {
      const int gpu = last->question.gpu;
      const int slot = last->right ? last->picked_slot : last->question.slots.front();
      const ShownState& after = app.model().state_at(last->question.round);
      const std::size_t index = static_cast<std::size_t>(gpu) * static_cast<std::size_t>(geometry.slots) +
                                static_cast<std::size_t>(slot);
      std::string holds = index < after.labels.size() ? reduction_label(app.model().config(), after.provenance.at(gpu, slot), slot, gpu)
                                                      : std::string();
      if (holds.empty()) holds = "?";
      const std::string verdict = last->right ? format(t.predict_correct, gpu, slot, holds.c_str())
                                              : format(t.predict_wrong, gpu, slot, holds.c_str(), last->picked_slot);
      ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(last->right ? kRight : kWrong));
      ImGui::TextWrapped("%s", verdict.c_str());
      ImGui::PopStyleColor();
    }
    if (pending) {
      ImGui::TextWrapped("%s", format(t.predict_question, pending->round, pending->gpu).c_str());
      if (wrong_gpu_clicked_) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colours.warning));
        ImGui::TextWrapped("%s", format(t.predict_pick_gpu, pending->gpu).c_str());
        ImGui::PopStyleColor();
      } else {
        ImGui::TextColored(to_imvec4(colours.muted_text), "%s", t.predict_hint);
      }
    } else if (moment.rest_round >= playback.round_count() && !moment.in_flight && quiz_.answered() > 0) {
      ImGui::TextWrapped("%s", format(t.predict_finished, quiz_.right(), quiz_.answered()).c_str());
    }
    ImGui::PopTextWrapPos();
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    banner = {at.x, at.y, size.x, size.y};
    banner_height_ = size.y;
  }
  ImGui::End();

  // The answer: a click on a cell of the ring view (not through the banner or the help).
  if (!pending || !ImGui::IsMouseClicked(0) || app.preferences().show_help) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const Vec2 point{mouse.x, mouse.y};
  if (!view.contains(point) || banner.contains(point)) return;
  const auto [rank, slot] = cell_at(geometry, point);
  if (rank < 0) return;
  if (quiz_.answer(rank, slot)) {
    wrong_gpu_clicked_ = false;
    resume_after_answer(app);
  } else {
    wrong_gpu_clicked_ = true;
  }
}

}  // namespace ringviz::gui
