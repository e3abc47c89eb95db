#include "app/gui/panels/controls_bar.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/round_caption.h"
#include "app/gui/text/strings.h"
#include "app/gui/inspect/item_marks.h"

namespace ringviz::gui {

namespace {

float button_width(const char* label) { return ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2; }

// Whether an item `width` wide fits on the rest of the row.
bool fits_on_row(float width) { return width <= ImGui::GetContentRegionAvail().x; }

}  // namespace

float ControlsBar::least_width(Language language) {
  const UiStrings& t = ui_strings_for(language);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float play = std::max(button_width(t.play), button_width(t.pause));
  return std::ceil(button_width(t.reset) + button_width(t.step_back) + play + button_width(t.step_forward) +
                   button_width(t.go_to_end) + 4 * style.ItemSpacing.x + 2 * style.WindowPadding.x);
}

void ControlsBar::draw(const Rect& area, const SessionModel& model, Playback& playback, Preferences& preferences,
                       const std::vector<std::string>& notices, const FrameContext& frame, const std::vector<Rgb>* spans) {
  const UiStrings& t = frame.text();
  begin_panel("##controls", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const ViewColours& colours = view_colours(frame.theme);
  const Session& session = model.session();
  const int rounds = spans != nullptr ? static_cast<int>(spans->size()) : session.round_count();

  if (ImGui::Button(t.reset)) playback.go_to_start();
  ImGui::SameLine();
  if (ImGui::Button(t.step_back)) playback.step_back();
  ImGui::SameLine();
  const float play_width = std::max(ImGui::CalcTextSize(t.play).x, ImGui::CalcTextSize(t.pause).x) +
                           ImGui::GetStyle().FramePadding.x * 2;
  if (ImGui::Button(playback.playing() ? t.pause : t.play, ImVec2(play_width, 0))) playback.toggle_play();
  mark_last_item("controls.play");
  ImGui::SameLine();
  if (ImGui::Button(t.step_forward)) playback.step_forward();
  ImGui::SameLine();
  if (ImGui::Button(t.go_to_end)) playback.go_to_end();
  ImGui::SameLine();
  // Large text on a narrow window: Loop, then Speed, then Help give way (least_width() keeps
  // the buttons before them; below that the window is too small).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float loop_w = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(t.loop).x;
  const float slider_w = std::round(140.0f * frame.ui_scale);
  const float speed_w = slider_w + style.ItemInnerSpacing.x + ImGui::CalcTextSize(t.speed).x;
  const float help_w = button_width(t.help_button);
  const bool show_help_button = fits_on_row(help_w);
  const float after_speed = show_help_button ? help_w + style.ItemSpacing.x : 0.0f;
  if (fits_on_row(loop_w + style.ItemSpacing.x + speed_w + style.ItemSpacing.x + after_speed)) {
    bool loop = playback.loop();
    if (ImGui::Checkbox(t.loop, &loop)) playback.set_loop(loop);
    ImGui::SameLine();
  }
  if (fits_on_row(speed_w + style.ItemSpacing.x + after_speed)) {
    float speed = static_cast<float>(playback.speed());
    ImGui::SetNextItemWidth(slider_w);
    if (ImGui::SliderFloat(t.speed, &speed, static_cast<float>(kMinSpeed), static_cast<float>(kMaxSpeed), "%.2fx",
                           ImGuiSliderFlags_Logarithmic))
      playback.set_speed(speed);
    ImGui::SameLine();
  }
  if (show_help_button) {
    if (ImGui::Button(t.help_button)) preferences.show_help = !preferences.show_help;
  }
  preferences.speed = playback.speed();
  preferences.loop = playback.loop();

  // Status: which backend runs, in a few words, so that it fits whole even with large text on a
  // 1280 px window. Why it is the CPU is a sentence: the tooltip and the help window say it.
  const std::string& fallback = model.backend_notice(frame.language);
  const std::string name = model.backend_name();
  const char* cpu_words = model.built_without_cuda() ? t.backend_cpu_no_cuda_build : t.backend_cpu_fallback;
  const std::string candidates[] = {fallback.empty() ? format(t.backend_in_use, name.c_str()) : cpu_words,
                                    fallback.empty() ? name : t.backend_cpu_short};
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const float bar_width = ImGui::CalcTextSize("|").x + spacing;
  ImGui::SameLine();
  float room = ImGui::GetContentRegionAvail().x;
  status_ = {};
  // Which backend runs is for whoever set the session up, not for a class watching the
  // projector: presentation mode leaves it out (the help window still says it).
  if (!frame.presentation)
    for (const std::string& candidate : candidates)
      if (bar_width + ImGui::CalcTextSize(candidate.c_str()).x <= room) {
        status_.text = candidate;
        break;
      }
  // Any other notice (unreadable settings, a refused document) only where it fits whole, after
  // the status: large text on a narrow window drops it rather than cutting a word in half.
  std::string notice = !notices.empty() ? notices.back() : "";
  if (!status_.text.empty()) {
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    if (!fallback.empty()) ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colours.warning));
    ImGui::TextUnformatted(status_.text.c_str());
    if (!fallback.empty()) ImGui::PopStyleColor();
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    status_.rect = {min.x, min.y, max.x - min.x, max.y - min.y};
    if (!fallback.empty() && ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
      ImGui::TextUnformatted(fallback.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    room -= bar_width + (max.x - min.x) + spacing;
  } else if (!frame.presentation) {
    notice.clear();  // not even the backend's few words fit: no room for a notice either
  }
  if (!notice.empty() && ImGui::CalcTextSize((std::string(t.notice_prefix) + notice).c_str()).x > room) notice.clear();
  if (notice.empty() && status_.text.empty()) ImGui::NewLine();  // end the buttons' line
  if (!notice.empty()) {
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colours.warning));
    ImGui::TextUnformatted((std::string(t.notice_prefix) + notice).c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", notice.c_str());
  }

  // Timeline: position 0 .. rounds; drag anywhere on it to scrub (fractions show packets
  // mid-flight).
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = std::round(line * 1.7f);
  ImGui::InvisibleButton("##timeline", ImVec2(std::max(1.0f, width), height));
  mark_last_item("timeline");
  if (ImGui::IsItemHovered()) {
    const bool to_one_gpu = reduces_into_one_gpu(model.config().algorithm);
    ImGui::SetTooltip("%s", format(t.timeline_hint, to_one_gpu ? t.phase_reduce : t.phase_reduce_scatter,
                                   to_one_gpu ? t.phase_broadcast : t.phase_all_gather)
                                .c_str());
  }
  const float x0 = origin.x + line * 0.6f, x1 = origin.x + width - line * 0.6f;
  if (ImGui::IsItemActive() && rounds > 0) {
    const float u = std::clamp((ImGui::GetIO().MousePos.x - x0) / std::max(1.0f, x1 - x0), 0.0f, 1.0f);
    playback.seek(u * rounds);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float mid = origin.y + height * 0.5f;
  const float track = std::max(3.0f, line * 0.3f);
  dl->AddRectFilled(ImVec2(x0, mid - track * 0.5f), ImVec2(x1, mid + track * 0.5f), to_imcol(colours.box_background), track);
  auto x_at = [&](double position) {
    return rounds > 0 ? x0 + static_cast<float>(position / rounds) * (x1 - x0) : x0;
  };
  // A marker per round while they stay apart; hundreds of rounds read as tinted spans.
  const bool markers = rounds > 0 && (x1 - x0) / static_cast<float>(rounds) >= track * 3.0f;
  const float gap = markers ? 1.0f : 0.0f;
  auto colour_of = [&](int k) {  // round (or beat) k, 1-based
    if (spans != nullptr) return (*spans)[static_cast<std::size_t>(k - 1)];
    return session.schedule().rounds[static_cast<std::size_t>(k - 1)].phase == Phase::reduce_scatter
               ? colours.phase_reduce_scatter
               : colours.phase_all_gather;
  };
  for (int k = 1; k <= rounds; ++k) {
    const Rgb c = colour_of(k);
    // The span of round k, tinted, and its marker where it completes. Without markers, a run of
    // rounds of one colour is one span: an iteration has thousands of beats.
    int last = k;
    if (!markers)
      while (last < rounds && colour_of(last + 1) == c) ++last;
    dl->AddRectFilled(ImVec2(x_at(k - 1) + gap, mid - track * 0.5f), ImVec2(x_at(last) - gap, mid + track * 0.5f),
                      to_imcol(c, 0.35f));
    if (markers) dl->AddCircleFilled(ImVec2(x_at(k), mid), track * 1.3f, to_imcol(c));
    k = last;
  }
  dl->AddCircleFilled(ImVec2(x0, mid), track * 1.3f, to_imcol(colours.muted_text));
  const float handle_x = x_at(playback.position());
  dl->AddRectFilled(ImVec2(handle_x - 2.5f, mid - height * 0.42f), ImVec2(handle_x + 2.5f, mid + height * 0.42f),
                    to_imcol(colours.text), 2.0f);
  ImGui::End();
}

}  // namespace ringviz::gui
