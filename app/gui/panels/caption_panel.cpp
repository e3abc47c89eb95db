#include "app/gui/panels/caption_panel.h"

#include <string>

#include <imgui.h>

#include "app/gui/panels/op_label.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

void CaptionPanel::draw(const Rect& area, const SessionModel& model, const FrameContext& frame,
                        const std::string& measured) {
  const UiStrings& t = ui_strings();
  begin_panel("##caption", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const Config& config = model.config();
  const Session& session = model.session();
  const ViewColours& colours = view_colours(frame.theme);
  const RoundMoment moment = frame.moment;
  const int rounds = session.round_count();
  const int reduce_rounds = reduce_scatter_rounds(session.schedule());

  std::string title;
  const char* body = nullptr;
  bool names_reduction = false;  // the text is about reducing: say what this reduction does
  Rgb title_colour = colours.text;
  if (rounds == 0) {
    title = format(t.caption_start, op_label(config.op));
    body = t.explain_single_gpu;
  } else if (moment.round == 0) {
    title = format(t.caption_start, op_label(config.op));
    body = config.op == Op::allgather       ? t.explain_start_allgather
           : config.op == Op::reducescatter ? t.explain_start_reducescatter
                                            : t.explain_start_allreduce;
    names_reduction = config.op != Op::allgather;
  } else {
    const Round& round = session.schedule().rounds[static_cast<std::size_t>(moment.round - 1)];
    const bool reduce = round.phase == Phase::reduce_scatter;
    title = format(t.caption_round, moment.round, rounds, reduce ? t.phase_reduce_scatter : t.phase_all_gather);
    title_colour = reduce ? colours.phase_reduce_scatter : colours.phase_all_gather;
    const bool last_of_phase = reduce ? moment.round == reduce_rounds : moment.round == rounds;
    if (moment.round == rounds && !moment.in_flight && moment.rest_round == rounds && moment.flash <= 0) {
      title = format(t.caption_done, op_label(config.op));
      title_colour = colours.text;
      body = config.op == Op::allgather       ? t.explain_done_allgather
             : config.op == Op::reducescatter ? t.explain_done_reducescatter
                                              : t.explain_done_allreduce;
    } else if (reduce) {
      body = last_of_phase ? t.explain_reduce_last : t.explain_reduce_round;
      names_reduction = true;
    } else {
      body = last_of_phase ? t.explain_gather_last : t.explain_gather_round;
    }
  }
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
  // The reduce-scatter texts name the reduction's unfinished results ("partial sums", "running
  // maxima"); a reduction other than sum adds a sentence saying what combining means for it.
  const bool plural = body == t.explain_start_reducescatter || body == t.explain_done_reducescatter;
  std::string text = format(body, partial_result(config.reduce, plural));
  const char* explained = t.reduction_explained[static_cast<std::size_t>(config.reduce)];
  if (names_reduction && config.reduce != ReduceOp::sum) text += std::string(" ") + explained;
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::End();
}

}  // namespace ringviz::gui
