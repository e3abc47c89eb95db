#include "app/gui/panels/caption_panel.h"

#include <string>

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

void CaptionPanel::draw(const Rect& area, const SessionModel& model, const FrameContext& frame,
                        const std::string& measured) {
  begin_panel("##caption", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const Session& session = model.session();
  const ViewColours& colours = view_colours(frame.theme);
  const RoundMoment moment = frame.moment;
  const int rounds = session.round_count();
  const bool finished = rounds > 0 && moment.round == rounds && !moment.in_flight && moment.rest_round == rounds &&
                        moment.flash <= 0;
  // The words come from the schedule that runs (text/round_caption.*), whatever the algorithm.
  const RoundCaptionKey key{model.generation(), moment.round, finished, ui_language()};
  if (!(key == key_)) {
    caption_ = round_caption(model.config(), session.schedule(), session.traffic(), moment.round, finished);
    key_ = key;
  }
  const RoundCaption& caption = caption_;
  const std::string& title = caption.title;
  Rgb title_colour = colours.text;
  if (caption.phase)
    title_colour = *caption.phase == Phase::reduce_scatter ? colours.phase_reduce_scatter : colours.phase_all_gather;
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(title_colour));
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopStyleColor();
  if (!measured.empty()) {
    // On the title's line where it fits: a line of its own pushes the explanation down.
    const float gap = ImGui::GetFontSize() * 2;
    if (ImGui::GetItemRectSize().x + gap + ImGui::CalcTextSize(measured.c_str()).x <= ImGui::GetContentRegionAvail().x)
      ImGui::SameLine(0, gap);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colours.warning));
    ImGui::TextUnformatted(measured.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::TextWrapped("%s", caption.body.c_str());
  ImGui::End();
}

}  // namespace ringviz::gui
