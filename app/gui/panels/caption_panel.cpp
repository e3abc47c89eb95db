#include "app/gui/panels/caption_panel.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

void CaptionPanel::draw(const Rect& area, const SessionModel& model, const FrameContext& frame,
                        const std::string& measured) {
  begin_panel("##caption", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const ViewColours& colours = view_colours(frame.theme);
  const RoundCaption& caption = caption_at(model, frame);
  const std::string& title = caption.title;
  Rgb title_colour = colours.text;
  if (caption.phase)
    title_colour = *caption.phase == Phase::reduce_scatter ? colours.phase_reduce_scatter : colours.phase_all_gather;
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(title_colour));
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopStyleColor();
  if (!measured.empty()) {
    // On the title's line where it fits: a line of its own pushes the explanation down.
    // A job's caption is a sentence or two: below the title, wrapped.
    const float gap = ImGui::GetFontSize() * 2;
    const bool beside =
        ImGui::GetItemRectSize().x + gap + ImGui::CalcTextSize(measured.c_str()).x <= ImGui::GetContentRegionAvail().x;
    if (beside) ImGui::SameLine(0, gap);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colours.warning));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(measured.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  draw_whole_lines(caption.body, area.bottom() - ImGui::GetStyle().WindowPadding.y);
  ImGui::End();
}

void CaptionPanel::draw_whole_lines(const std::string& text, float bottom) {
  // As many wrapped lines as end above `bottom`; when some are left out, the last one shown
  // ends in "..." so nobody takes a cut explanation for a whole one.
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const float wrap = std::max(1.0f, ImGui::GetContentRegionAvail().x);
  const float top = ImGui::GetCursorScreenPos().y;
  const int fit = static_cast<int>(std::floor((bottom - top) / size));
  if (ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y <= static_cast<float>(fit) * size + 0.5f) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  if (fit < 1) return;
  const char* begin = text.c_str();
  const char* end = begin + text.size();
  const char* line = begin;
  for (int kept = 0; kept < fit - 1 && line < end; ++kept) {
    line = font->CalcWordWrapPositionA(size / font->FontSize, line, end, wrap);
    while (line < end && (*line == ' ' || *line == '\n')) ++line;
  }
  // The last line: as many words as leave room for the ellipsis.
  const float dots = ImGui::CalcTextSize("...").x;
  const char* cut = font->CalcWordWrapPositionA(size / font->FontSize, line, end, std::max(1.0f, wrap - dots));
  std::string shown(begin, cut);
  while (!shown.empty() && shown.back() == ' ') shown.pop_back();
  shown += "...";
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(shown.c_str());
  ImGui::PopTextWrapPos();
}

const RoundCaption& CaptionPanel::caption_at(const SessionModel& model, const FrameContext& frame) {
  const Session& session = model.session();
  const RoundMoment moment = frame.moment;
  const int rounds = session.round_count();
  const bool finished = rounds > 0 && moment.round == rounds && !moment.in_flight && moment.rest_round == rounds &&
                        moment.flash <= 0;
  // The words come from the schedule that runs (text/round_caption.*), whatever the algorithm.
  const RoundCaptionKey key{model.generation(), moment.round, finished, frame.language};
  if (!(key == key_)) {
    caption_ = round_caption(frame.language, model.config(), session.schedule(), session.traffic(), moment.round, finished);
    key_ = key;
  }
  return caption_;
}

float CaptionPanel::needed_height(float width, const SessionModel& model, const FrameContext& frame,
                                  const std::string& measured) {
  const RoundCaption& caption = caption_at(model, frame);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float inner = std::max(1.0f, width - 2 * style.WindowPadding.x);
  const float line = ImGui::GetTextLineHeight();
  float height = 2 * style.WindowPadding.y + line;
  if (!measured.empty()) {
    const float gap = ImGui::GetFontSize() * 2;
    const bool beside =
        ImGui::CalcTextSize(caption.title.c_str()).x + gap + ImGui::CalcTextSize(measured.c_str()).x <= inner;
    if (!beside) height += style.ItemSpacing.y + ImGui::CalcTextSize(measured.c_str(), nullptr, false, inner).y;
  }
  height += style.ItemSpacing.y + ImGui::CalcTextSize(caption.body.c_str(), nullptr, false, inner).y;
  return std::ceil(height);
}

}  // namespace ringviz::gui
