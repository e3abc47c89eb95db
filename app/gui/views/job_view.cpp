#include "app/gui/views/job_view.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/gui/inspect/item_marks.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/plots/view_text.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/replay/replay_timing.h"

namespace ringviz::gui {

namespace {

// The job's first and last moment over every traced rank.
std::pair<double, double> job_extent(const Run& run) {
  double first = 0, last = 0;
  bool any = false;
  const auto take = [&](const TimeSpan& span) {
    first = any ? std::min(first, span.start_us) : span.start_us;
    last = any ? std::max(last, span.end_us) : span.end_us;
    any = true;
  };
  for (const RankTimeline& timeline : run.ranks) {
    for (const CollectiveInstance& c : timeline.collectives)
      if (c.measured) take(*c.measured);
    for (const ComputeSpan& span : timeline.compute) take(span.time);
  }
  if (!any || last <= first) return {0, 1};
  return {first, last};
}

// One colour per op, the same in every job so that a viewer learns them once.
Rgb op_colour(Op op, PaletteKind palette) {
  return rank_colour(static_cast<int>(op), palette);
}

// Phases in quiet hues, so that the collectives' bars stay what the eye goes to first.
Rgb compute_colour(ComputeKind kind, const ViewColours& colours) {
  switch (kind) {
    case ComputeKind::forward: return mix(colours.box_background, Rgb{90, 150, 230}, 0.55f);
    case ComputeKind::backward: return mix(colours.box_background, Rgb{180, 120, 230}, 0.55f);
    case ComputeKind::optimizer: return mix(colours.box_background, Rgb{230, 170, 80}, 0.55f);
    case ComputeKind::kernel: return mix(colours.box_background, colours.text, 0.25f);
  }
  return colours.box_background;
}

// For each collective of a rank (in start order), the lowest track free when it starts: the
// tracks a lane needs are as many as the collectives ever in flight at once there, at most 4
// (beyond, the last track holds the rest).
std::vector<int> concurrency_tracks(const std::vector<CollectiveInstance>& collectives) {
  constexpr int kMaxTracks = 4;
  std::vector<double> busy_until;
  std::vector<int> track;
  for (const CollectiveInstance& c : collectives) {
    if (!c.measured) {
      track.push_back(0);
      continue;
    }
    int chosen = -1;
    for (std::size_t t = 0; t < busy_until.size(); ++t)
      if (busy_until[t] <= c.measured->start_us) {
        chosen = static_cast<int>(t);
        break;
      }
    if (chosen < 0) {
      if (static_cast<int>(busy_until.size()) < kMaxTracks) busy_until.push_back(0);
      chosen = static_cast<int>(busy_until.size()) - 1;
    }
    busy_until[static_cast<std::size_t>(chosen)] = std::max(busy_until[static_cast<std::size_t>(chosen)], c.measured->end_us);
    track.push_back(chosen);
  }
  return track;
}

struct LegendItem {
  ImU32 colour;
  std::string label;
};

// How many rows the legend takes in `width`, each item a swatch (0.8 lines, as drawn), its label
// and a line of space after it.
int legend_rows(const std::vector<LegendItem>& items, float width, float line) {
  int rows = 1;
  float x = 0;
  for (const LegendItem& item : items) {
    const float item_w = line * 0.8f * 1.35f + ImGui::CalcTextSize(item.label.c_str()).x;
    if (x > 0 && x + item_w > width) {
      ++rows;
      x = 0;
    }
    x += item_w + line;
  }
  return rows;
}

std::string size_text(const CollectiveInstance& c) {
  return format_bytes(static_cast<double>(c.count) * static_cast<double>(dtype_size(c.dtype)));
}


}  // namespace

std::string job_tooltip_text(const JobRow& row, const Run& run, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const CollectiveInstance& c = *row.instance;
  const std::string channels = c.library.channels ? std::to_string(*c.library.channels) : "?";
  return format(t.job_tooltip, row.rank, std::string(op_display_name(c.op)).c_str(),
                run.groups[static_cast<std::size_t>(c.group)].name.c_str(), row.sequence,
                format_bytes(static_cast<double>(row.size_bytes)).c_str(), static_cast<long long>(c.count),
                std::string(dtype_name(c.dtype)).c_str(), c.measured ? duration_text(row.time_us).c_str() : "-",
                row.predicted_us > 0 ? format(t.job_model, duration_text(row.predicted_us).c_str()).c_str() : "",
                row.algbw_gbps, row.busbw_gbps, c.library.algorithm.empty() ? "-" : c.library.algorithm.c_str(),
                c.library.protocol.empty() ? "-" : c.library.protocol.c_str(), channels.c_str(),
                row.hidden_known ? format(t.job_hidden, 100.0 * row.hidden_fraction).c_str() : "");
}

void JobView::draw(const Rect& area, const ViewContext& context) {
  const UiStrings& t = ui_strings_for(context.language);
  const ViewColours& colours = view_colours(context.theme);
  ImDrawList* dl = begin_view_window("##job_view", area, colours);
  const float line = ImGui::GetTextLineHeight();
  const float pad = std::round(line * 0.6f);
  if (!context.job || !context.job_table || !context.job_collectives) {
    ImGui::SetCursorScreenPos(ImVec2(area.x + pad, area.y + pad));
    paragraph(t.job_none, area.w - 2 * pad, to_imcol(colours.text));
    ImGui::End();
    return;
  }
  const Job& job = *context.job;
  const Run& run = job.run;
  if (fitted_for_ != &job) {
    std::tie(start_us_, end_us_) = job_extent(run);
    fitted_for_ = &job;
    collective_of_.clear();
    for (std::size_t i = 0; i < context.job_collectives->size(); ++i) {
      const RunCollective& collective = (*context.job_collectives)[i];
      collective_of_[{collective.group, collective.sequence}] = i;
    }
    row_of_.clear();
    for (const JobRow& row : context.job_table->rows) row_of_[row.instance] = &row;
  }

  // The header: what the job was, the ranks missing, how to move around.
  ImGui::SetCursorScreenPos(ImVec2(area.x + pad, area.y + pad * 0.5f));
  std::string library = job.info.backend + (job.info.nccl_version.empty() ? "" : " " + job.info.nccl_version);
  if (!job.info.gpu.empty()) library += (library.empty() ? "" : ", ") + job.info.gpu;
  paragraph(format(t.job_summary, run.world_size(), library.empty() ? "-" : library.c_str(),
                   static_cast<int>(context.job_collectives->size())),
            area.w - 2 * pad - line * 4, to_imcol(colours.text));
  const std::vector<int> missing = untraced_ranks(run);
  if (!missing.empty()) {
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 12; ++i) list += (i ? " " : "") + std::to_string(missing[i]);
    if (missing.size() > 12) list += " ...";
    paragraph(format(t.job_untraced, list.c_str()), area.w - 2 * pad, to_imcol(colours.muted_text));
  }
  paragraph(t.job_hint, area.w - 2 * pad, to_imcol(colours.muted_text));
  const float header_bottom = ImGui::GetCursorScreenPos().y;
  ImGui::SetCursorScreenPos(ImVec2(area.right() - pad - ImGui::CalcTextSize(t.job_fit).x -
                                       ImGui::GetStyle().FramePadding.x * 2,
                                   area.y + pad * 0.5f));
  if (ImGui::Button(t.job_fit)) std::tie(start_us_, end_us_) = job_extent(run);
  mark_last_item("job.fit");

  // The plot: rank labels on the left, the time axis and legend below.
  const float label_w = ImGui::CalcTextSize(format(t.job_rank, run.world_size() - 1).c_str()).x + pad;
  // The legend: the job's ops, the compute kinds, the slowest-rank mark; as many rows as the
  // width needs, reserved before the lanes take the rest.
  std::vector<LegendItem> legend;
  std::vector<Op> ops;
  for (const RunCollective& collective : *context.job_collectives)
    if (std::find(ops.begin(), ops.end(), collective.first().op) == ops.end()) ops.push_back(collective.first().op);
  for (const Op op : ops) legend.push_back({to_imcol(op_colour(op, context.palette)), std::string(op_display_name(op))});
  for (int kind = 0; kind < 4; ++kind) {
    const bool present = std::any_of(run.ranks.begin(), run.ranks.end(), [&](const RankTimeline& timeline) {
      return std::any_of(timeline.compute.begin(), timeline.compute.end(),
                         [&](const ComputeSpan& span) { return static_cast<int>(span.kind) == kind; });
    });
    if (present)
      legend.push_back({to_imcol(compute_colour(static_cast<ComputeKind>(kind), colours)), t.job_compute_words[kind]});
  }
  legend.push_back({to_imcol(colours.warning), t.job_legend_slowest});
  const float legend_h = line * 1.3f * static_cast<float>(legend_rows(legend, area.w - 2 * pad, line)) + line * 0.3f;
  const float axis_h = line * 1.5f;
  const Rect plot{area.x + pad + label_w, header_bottom + pad * 0.5f, area.w - 2 * pad - label_w,
                  area.bottom() - header_bottom - pad - axis_h - legend_h};
  if (plot.w < line * 4 || plot.h < line * 2) {
    ImGui::End();
    return;
  }
  const float lane_h = std::min(line * 10.0f, plot.h / static_cast<float>(run.world_size()));
  const double span_us = std::max(end_us_ - start_us_, 1e-3);
  const auto x_of = [&](double us) { return plot.x + static_cast<float>((us - start_us_) / span_us * plot.w); };

  // Zoom about the pointer, pan by dragging; a press that does not move is a click.
  ImGui::SetCursorScreenPos(ImVec2(plot.x, plot.y));
  ImGui::InvisibleButton("##job_plot", ImVec2(plot.w, lane_h * static_cast<float>(run.world_size())));
  mark_last_item("job.plot");
  const bool hovered = ImGui::IsItemHovered();
  const ImGuiIO& io = ImGui::GetIO();
  if (hovered && io.MouseWheel != 0) {
    const double at = start_us_ + (io.MousePos.x - plot.x) / plot.w * span_us;
    const double factor = std::pow(0.8, io.MouseWheel);
    start_us_ = at - (at - start_us_) * factor;
    end_us_ = at + (end_us_ - at) * factor;
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, line * 0.3f)) {
    dragging_ = true;
    const double shift = -io.MouseDelta.x / plot.w * span_us;
    start_us_ += shift;
    end_us_ += shift;
  }
  const bool clicked = ImGui::IsItemDeactivated() && !dragging_;
  if (ImGui::IsItemDeactivated()) dragging_ = false;

  dl->PushClipRect(ImVec2(plot.x, plot.y), ImVec2(plot.right(), plot.bottom()), true);
  const RunCollective* selected =
      context.job_selected < context.job_collectives->size() ? &(*context.job_collectives)[context.job_selected] : nullptr;
  const JobRow* hovered_row = nullptr;
  TextBoard board(plot);
  for (int rank = 0; rank < run.world_size(); ++rank) {
    const RankTimeline& timeline = run.ranks[static_cast<std::size_t>(rank)];
    const float top = plot.y + lane_h * static_cast<float>(rank);
    const float compute_h = std::round(lane_h * 0.3f), comm_top = top + compute_h + 1, comm_h = lane_h - compute_h - 3;
    if (rank % 2 == 1)
      dl->AddRectFilled(ImVec2(plot.x, top), ImVec2(plot.right(), top + lane_h),
                        to_imcol(mix(colours.view_background, colours.box_background, 0.5f)));
    if (!timeline.traced) {
      hatch_rect(dl, {plot.x, top, plot.w, lane_h}, to_imcol(colours.hatch_b), line * 0.6f);
      continue;
    }
    for (const ComputeSpan& span : timeline.compute) {
      const float x0 = x_of(span.time.start_us), x1 = std::max(x_of(span.time.end_us), x0 + 1);
      if (x1 < plot.x || x0 > plot.right()) continue;
      dl->AddRectFilled(ImVec2(x0, top + 1), ImVec2(x1, top + compute_h), to_imcol(compute_colour(span.kind, colours)));
    }
    // Collectives in flight at once on one rank (gloo's, or NCCL's on several streams) take
    // tracks of their own, so that none hides another.
    const std::vector<int> track = concurrency_tracks(timeline.collectives);
    const int tracks = track.empty() ? 1 : *std::max_element(track.begin(), track.end()) + 1;
    const float track_h = comm_h / static_cast<float>(tracks);
    std::map<int, int> sequence;
    for (std::size_t i = 0; i < timeline.collectives.size(); ++i) {
      const CollectiveInstance& c = timeline.collectives[i];
      const int seq = sequence[c.group]++;
      if (!c.measured) continue;
      const float x0 = x_of(c.measured->start_us), x1 = std::max(x_of(c.measured->end_us), x0 + 2);
      if (x1 < plot.x || x0 > plot.right()) continue;
      const float y0 = comm_top + track_h * static_cast<float>(track[i]), y1 = y0 + track_h - (tracks > 1 ? 1.0f : 0.0f);
      const Rgb fill = op_colour(c.op, context.palette);
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), to_imcol(fill));
      const auto found = collective_of_.find({c.group, seq});
      const bool is_selected = selected && found != collective_of_.end() && found->second == context.job_selected;
      if (is_selected)
        dl->AddRect(ImVec2(x0 - 1, y0 - 1), ImVec2(x1 + 1, y1 + 1), to_imcol(colours.selected_border), 0, 0, 2.0f);
      const auto row_found = row_of_.find(&c);
      const JobRow* row = row_found == row_of_.end() ? nullptr : row_found->second;
      if (row && row->slowest) {
        const float s = std::min((y1 - y0) * 0.45f, line * 0.5f);
        dl->AddTriangleFilled(ImVec2(x0, y0), ImVec2(x0 + s, y0), ImVec2(x0, y0 + s), to_imcol(colours.warning));
      }
      const std::string label = size_text(c);
      // One mark per collective (its first traced rank's bar), where input-driven tests click.
      if (found != collective_of_.end() && item_marks_enabled() &&
          &c == &(*context.job_collectives)[found->second].first())
        mark_rect("job.collective." + std::to_string(found->second), {x0, y0, x1 - x0, y1 - y0});
      if (y1 - y0 >= line && x1 - x0 > ImGui::CalcTextSize(label.c_str()).x + line * 0.5f)
        board.place(dl, ImVec2(x0 + line * 0.25f, y0 + (y1 - y0 - line) * 0.5f), ink_on(fill), label);
      if (hovered && io.MousePos.x >= x0 && io.MousePos.x <= x1 && io.MousePos.y >= y0 && io.MousePos.y <= y1)
        hovered_row = row;
    }
  }
  dl->PopClipRect();

  // Rank labels, the time axis, the legend.
  for (int rank = 0; rank < run.world_size() && lane_h >= line; ++rank) {
    const float top = plot.y + lane_h * static_cast<float>(rank);
    const bool traced = run.ranks[static_cast<std::size_t>(rank)].traced;
    const std::string label = format(t.job_rank, rank);
    dl->AddText(ImVec2(area.x + pad, top + (lane_h - line) * 0.5f), to_imcol(traced ? colours.text : colours.muted_text),
                label.c_str());
  }
  const float axis_y = plot.y + lane_h * static_cast<float>(run.world_size()) + line * 0.2f;
  const double step = nice_step(span_us / 1000.0, std::max(2, static_cast<int>(plot.w / (line * 6))));
  const double first_tick = std::ceil(start_us_ / 1000.0 / step) * step;
  for (double ms = first_tick; ms * 1000.0 <= end_us_; ms += step) {
    const float x = x_of(ms * 1000.0);
    dl->AddLine(ImVec2(x, axis_y), ImVec2(x, axis_y + line * 0.3f), to_imcol(colours.muted_text));
    char tick[32];
    std::snprintf(tick, sizeof tick, step < 1 ? "%.2f" : "%.0f", ms);
    const float w = ImGui::CalcTextSize(tick).x;
    if (x - w * 0.5f >= plot.x && x + w * 0.5f <= plot.right())
      dl->AddText(ImVec2(x - w * 0.5f, axis_y + line * 0.3f), to_imcol(colours.muted_text), tick);
  }
  dl->AddText(ImVec2(area.x + pad, axis_y + line * 0.3f), to_imcol(colours.muted_text), t.job_axis);

  const float swatch = line * 0.8f;
  float legend_x = area.x + pad, legend_y = axis_y + axis_h;
  for (const LegendItem& item : legend) {
    const float width = swatch * 1.35f + ImGui::CalcTextSize(item.label.c_str()).x;
    if (legend_x > area.x + pad && legend_x + width > area.right() - pad) {  // the next row
      legend_x = area.x + pad;
      legend_y += line * 1.3f;
    }
    legend_x += legend_swatch(dl, ImVec2(legend_x, legend_y), swatch, item.colour, to_imcol(colours.text),
                              item.label.c_str()) +
                line;
  }

  if (hovered_row && !dragging_) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(job_tooltip_text(*hovered_row, run, context.language).c_str());
    ImGui::EndTooltip();
    if (clicked && context.open_job_collective) {
      const auto found = collective_of_.find({hovered_row->instance->group, hovered_row->sequence});
      if (found != collective_of_.end()) context.open_job_collective(found->second);
    }
  }
  ImGui::End();
}

}  // namespace ringviz::gui
