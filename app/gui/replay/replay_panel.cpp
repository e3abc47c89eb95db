#include "app/gui/replay/replay_panel.h"

#include <imgui.h>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/replay/replay_timing.h"
#include "core/nccl/nccl_machine.h"
#include "core/nccl/nccl_text.h"
#include "core/schedule/bus_bandwidth.h"
#include "core/topology/topology.h"
#include "core/trace/trace_values.h"

namespace ringviz::gui {

std::string replay_summary(const ReplaySource& replay, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const int ranks = replay.config().ranks;
  const std::string rank_count = ranks == 1 ? std::string(t.replay_rank_words[0]) : format(t.replay_rank_words[1], ranks);
  if (replay.job())
    return format(t.replay_title_job, replay.file_name().c_str(), static_cast<int>(replay.collectives().size()),
                  rank_count.c_str());
  const CaptureRecord* capture = replay.capture();
  if (!capture) {
    const std::string backend = replay.recording() ? replay.recording()->backend : std::string();
    return format(t.replay_title_trace, replay.file_name().c_str(), backend.c_str(), rank_count.c_str());
  }
  const int hosts = host_count(*capture);
  const std::string host_words = hosts == 1 ? std::string(t.replay_host_words[0]) : format(t.replay_host_words[1], hosts);
  return format(t.replay_title, replay.file_name().c_str(), capture->transport.c_str(), rank_count.c_str(),
                host_words.c_str());
}

std::string replay_model_line(const ReplaySource& replay, Language language) {
  const CaptureRecord* capture = replay.capture();
  if (!capture || replay.job()) return "";
  // The machine `ringviz capture` assumes without --topology: one NVSwitch for the ranks.
  const Config& config = replay.config();
  const Topology assumed = topology_preset("nvswitch:" + std::to_string(config.ranks));
  const std::optional<NcclPrediction> model = nccl_prediction_beside(
      nccl_machine(assumed), config.op, nccl_tests_size_bytes(config.op, config.count, config.dtype, config.ranks));
  const double measured = captured_microseconds(*capture);
  if (!model || measured <= 0) return "";
  return format(ui_strings_for(language).replay_model_line, duration_text(measured).c_str(), assumed.key.c_str(),
                nccl_choice_text(*model, language).c_str());
}

std::string mismatch_text(const RecordedMismatch& mismatch, DType dtype, Language language) {
  if (mismatch.in_outputs)
    return format(ui_strings_for(language).replay_output_mismatch, mismatch.difference.rank,
                  static_cast<long long>(mismatch.difference.element),
                  format_element(mismatch.difference.recorded, dtype).c_str(),
                  format_element(mismatch.difference.computed, dtype).c_str());
  return format(ui_strings_for(language).replay_mismatch, mismatch.round, mismatch.difference.rank,
                static_cast<long long>(mismatch.difference.element),
                format_element(mismatch.difference.recorded, dtype).c_str(),
                format_element(mismatch.difference.computed, dtype).c_str());
}

ReplayPanelAction ReplayPanel::draw(ReplaySource& replay, ThemeKind theme, Language language) {
  const UiStrings& t = ui_strings_for(language);
  ReplayPanelAction action;
  if (!replay.active()) {
    action.open = open_.draw(t);
    ImGui::Separator();
    return action;
  }
  const ViewColours& colours = view_colours(theme);
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colours.phase_all_gather));
  ImGui::TextWrapped("%s", replay_summary(replay, language).c_str());
  ImGui::PopStyleColor();
  if (replay.capture() != model_line_capture_ || language != model_line_language_) {
    model_line_capture_ = replay.capture();
    model_line_language_ = language;
    model_line_ = replay_model_line(replay, language);
  }
  if (!model_line_.empty()) hint_text(model_line_.c_str());
  if (replay.mismatch()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colours.warning));
    ImGui::TextWrapped("%s", mismatch_text(*replay.mismatch(), replay.config().dtype, language).c_str());
    ImGui::PopStyleColor();
  }
  if (replay.job()) {
    ImGui::TextWrapped("%s", format(t.replay_job_position, replay.selected() + 1, replay.collectives().size()).c_str());
    ImGui::BeginDisabled(replay.selected() == 0);
    if (ImGui::Button(t.replay_job_previous)) action.select = replay.selected() - 1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(replay.selected() + 1 >= replay.collectives().size());
    if (ImGui::Button(t.replay_job_next)) action.select = replay.selected() + 1;
    ImGui::EndDisabled();
  } else if (replay.measured_available()) {
    int pacing = replay.pacing() == Pacing::measured ? 0 : 1;
    ImGui::TextUnformatted(t.replay_pacing);
    ImGui::SameLine();
    action.pacing_changed |= ImGui::RadioButton(t.replay_pacing_names[0], &pacing, 0);
    ImGui::SameLine();
    action.pacing_changed |= ImGui::RadioButton(t.replay_pacing_names[1], &pacing, 1);
    replay.set_pacing(pacing == 0 ? Pacing::measured : Pacing::even);
  } else {
    hint_text(t.replay_no_times);
  }
  action.close = ImGui::Button(t.replay_close);
  hint_text(t.replay_locked);
  ImGui::Separator();
  return action;
}

}  // namespace ringviz::gui
