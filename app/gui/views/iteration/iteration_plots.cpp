#include "app/gui/views/iteration/iteration_plots.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/views/iteration/iteration_words.h"

namespace ringviz::gui {

std::int64_t part_bytes(const IterationMemory& memory, IterationPart part) {
  switch (part) {
    case IterationPart::parameters: return memory.parameters;
    case IterationPart::optimizer_states: return memory.optimizer_states;
    case IterationPart::gradients: return memory.gradients;
    case IterationPart::activations: return memory.activations;
    case IterationPart::logits: return memory.logits;
    case IterationPart::buffers: return memory.buffers;
  }
  return 0;
}

// Model states in cool blues and violets, what the iteration adds in warm colours, so the
// sawtooth reads as warm teeth on a cool base.
Rgb part_colour(IterationPart part, ThemeKind theme) {
  const bool dark = theme == ThemeKind::dark;
  switch (part) {
    case IterationPart::parameters: return dark ? Rgb{84, 110, 168} : Rgb{74, 104, 170};
    case IterationPart::optimizer_states: return dark ? Rgb{128, 112, 190} : Rgb{124, 104, 196};
    case IterationPart::gradients: return dark ? Rgb{96, 164, 196} : Rgb{70, 150, 190};
    case IterationPart::activations: return {236, 150, 56};
    case IterationPart::logits: return {214, 84, 110};
    case IterationPart::buffers: return dark ? Rgb{150, 150, 150} : Rgb{130, 130, 130};
  }
  return {};
}

const char* part_name(IterationPart part, Language language) {
  const UiStrings& t = ui_strings_for(language);
  switch (part) {
    case IterationPart::parameters: return t.memory_parameters;
    case IterationPart::optimizer_states: return t.memory_optimizer_states;
    case IterationPart::gradients: return t.memory_gradients;
    case IterationPart::activations: return t.iteration_activations;
    case IterationPart::logits: return t.iteration_logits;
    case IterationPart::buffers: return t.iteration_buffers;
  }
  return "?";
}

namespace {

// The GPU memory across the plot, named in the gutter right of it (capacity_gutter wide), where
// no bar or bar value can be.
std::string capacity_label(double capacity, Language language) {
  return format(ui_strings_for(language).memory_capacity_item, capacity / 1e9);
}
float capacity_gutter(double capacity, Language language) {
  return ImGui::CalcTextSize(capacity_label(capacity, language).c_str()).x + ImGui::GetTextLineHeight() * 0.5f;
}

void capacity_line(ImDrawList* dl, const Rect& plot, float y, const IterationPlotStyle& style, double capacity) {
  const ViewColours& colours = view_colours(style.theme);
  const float s = style.scale;
  const float line = ImGui::GetTextLineHeight();
  dashed_line(dl, ImVec2(plot.x, y), ImVec2(plot.right() + line * 0.15f, y), to_imcol(colours.warning), 2 * s, 9 * s, 5 * s);
  dl->AddText(ImVec2(plot.right() + line * 0.25f, y - line * 0.5f), to_imcol(colours.warning), capacity_label(capacity, style.language).c_str());
}

}  // namespace

void draw_gpu_bars(ImDrawList* dl, const Rect& area, const IterationMemory& memory, int gpus, double capacity,
                   double y_max, const IterationPlotStyle& style) {
  const ViewColours& colours = view_colours(style.theme);
  const float line = ImGui::GetTextLineHeight();
  const ImU32 muted = to_imcol(colours.muted_text);
  const float axis_w = ImGui::CalcTextSize("0000").x + line * 0.4f;
  const Rect plot{area.x + axis_w, area.y + line * 1.4f, std::max(0.0f, area.w - axis_w - capacity_gutter(capacity, style.language)),
                  std::max(line, area.h - line * 2.6f)};
  if (plot.w < 4 || plot.h < 4) return;
  auto y_of = [&](double bytes) { return plot.bottom() - static_cast<float>(bytes / y_max) * plot.h; };
  // As many ticks as fit a label and a half apart, up to six.
  const double step = nice_step(y_max / 1e9, std::clamp(static_cast<int>(plot.h / (line * 1.5f)), 1, 6));
  for (double v = 0; v <= y_max / 1e9 + 1e-9; v += step) {
    const float y = std::round(y_of(v * 1e9));
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.right(), y), to_imcol(colours.box_border, v == 0 ? 1.0f : 0.35f));
    const std::string label = format("%g", v);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(plot.x - size.x - line * 0.3f, y - size.y * 0.5f), muted, label.c_str());
  }
  dl->AddText(ImVec2(area.x, area.y), muted, ui_strings_for(style.language).memory_axis);

  const float slot_w = plot.w / static_cast<float>(std::max(1, gpus));
  const float bar_w = std::max(1.0f, std::min(slot_w * 0.72f, line * 5));
  const bool numbers = slot_w >= ImGui::CalcTextSize("000.0").x + 2;
  const double total = static_cast<double>(memory.total());
  for (int g = 0; g < gpus; ++g) {
    const float x0 = std::round(plot.x + slot_w * (g + 0.5f) - bar_w * 0.5f);
    double below = 0;
    for (IterationPart part : kIterationParts) {
      const double bytes = static_cast<double>(part_bytes(memory, part));
      if (bytes <= 0) continue;
      const float y1 = y_of(below), y0 = y_of(below + bytes);
      below += bytes;
      const Rect segment{x0, y0, bar_w, std::max(1.0f, y1 - y0)};
      const Rgb fill = part_colour(part, style.theme);
      dl->AddRectFilled(to_imvec(segment.min()), to_imvec(segment.max()), to_imcol(fill));
      if (part == IterationPart::buffers)
        hatch_rect(dl, segment, to_imcol(colours.warning), std::max(3.0f, 5 * style.scale), 1.5f);
      if (segment.h > 3)
        dl->AddLine(ImVec2(segment.x, segment.bottom() - 0.5f), ImVec2(segment.right(), segment.bottom() - 0.5f),
                    to_imcol(colours.view_background));
      const std::string value = format_bytes(bytes, ByteUnit::gb, false);
      const ImVec2 size = ImGui::CalcTextSize(value.c_str());
      if (segment.h >= line + 2 && size.x + 4 <= bar_w && part != IterationPart::buffers)
        text_centred(dl, segment.centre().x, segment.centre().y - size.y * 0.5f, ink_on(fill), value.c_str());
    }
    if (numbers)
      text_centred(dl, x0 + bar_w * 0.5f, y_of(total) - line * 1.1f,
                   total > capacity ? to_imcol(colours.warning) : to_imcol(colours.text),
                   format_bytes(total, ByteUnit::gb, false).c_str());
    const std::string name = format(ui_strings_for(style.language).gpu_short, g);
    if (ImGui::CalcTextSize(name.c_str()).x <= slot_w)
      text_centred(dl, x0 + bar_w * 0.5f, plot.bottom() + line * 0.15f, to_imcol(rank_colour(g, style.palette)),
                   name.c_str());
  }
  capacity_line(dl, plot, std::round(y_of(capacity)), style, capacity);
}

int draw_sawtooth(ImDrawList* dl, const Rect& area, const IterationEstimate& estimate, int moment,
                  const IterationPlotStyle& style) {
  const ViewColours& colours = view_colours(style.theme);
  const float line = ImGui::GetTextLineHeight();
  const int events = static_cast<int>(estimate.timeline.size());
  const char* title = ui_strings_for(style.language).iteration_sawtooth;
  dl->AddText(nullptr, 0, ImVec2(area.x, area.y), to_imcol(colours.muted_text), title, nullptr, area.w);
  const float title_h = ImGui::CalcTextSize(title, nullptr, false, std::max(1.0f, area.w)).y + line * 0.4f;
  const float axis_w = ImGui::CalcTextSize("0000").x + line * 0.4f;
  const Rect plot{area.x + axis_w, area.y + title_h, std::max(0.0f, area.w - axis_w),
                  std::max(0.0f, area.h - title_h - line * 0.6f)};
  if (events == 0 || plot.w < 4 || plot.h < 4) return -1;
  const double capacity = estimate.query.gpu_memory_bytes;
  const double top = nice_ceiling(std::max(capacity, static_cast<double>(estimate.peak.memory.total())) * 1.06 / 1e9, 4) * 1e9;
  auto y_of = [&](double bytes) { return plot.bottom() - static_cast<float>(bytes / top) * plot.h; };
  // GB ticks, as many as stay a label and a half apart: the sawtooth is read against the axis.
  const double tick = nice_step(top / 1e9, std::clamp(static_cast<int>(plot.h / (line * 1.5f)), 1, 5));
  for (double v = 0; v <= top / 1e9 + 1e-9; v += tick) {
    const std::string label = format("%g", v);
    const ImVec2 size = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2(plot.x - size.x - line * 0.3f, std::round(y_of(v * 1e9)) - size.y * 0.5f),
                to_imcol(colours.muted_text), label.c_str());
  }
  auto x_of = [&](int event) { return plot.x + plot.w * static_cast<float>(event) / static_cast<float>(events); };
  dl->AddRectFilled(to_imvec(plot.min()), to_imvec(plot.max()), to_imcol(colours.box_background));
  for (int e = 0; e < events; ++e) {
    const IterationMemory& m = estimate.timeline[static_cast<std::size_t>(e)].memory;
    const float x0 = std::floor(x_of(e)), x1 = std::max(x0 + 1, std::floor(x_of(e + 1)));
    double below = 0;
    for (IterationPart part : kIterationParts) {
      const double bytes = static_cast<double>(part_bytes(m, part));
      if (bytes <= 0) continue;
      dl->AddRectFilled(ImVec2(x0, y_of(below + bytes)), ImVec2(x1, y_of(below)), to_imcol(part_colour(part, style.theme)));
      below += bytes;
    }
  }
  const float cap_y = std::round(y_of(capacity));
  if (cap_y >= plot.y)
    dashed_line(dl, ImVec2(plot.x, cap_y), ImVec2(plot.right(), cap_y), to_imcol(colours.warning), 2 * style.scale,
                9 * style.scale, 5 * style.scale);
  const float peak_x = std::round((x_of(estimate.peak.event) + x_of(estimate.peak.event + 1)) * 0.5f);
  const float peak_y = y_of(static_cast<double>(estimate.peak.memory.total()));
  dl->AddTriangleFilled(ImVec2(peak_x, peak_y - 2), ImVec2(peak_x - line * 0.4f, peak_y - line * 0.6f),
                        ImVec2(peak_x + line * 0.4f, peak_y - line * 0.6f), to_imcol(colours.warning));
  const float at = std::round((x_of(moment) + x_of(moment + 1)) * 0.5f);
  const float w = std::max(1.0f, style.scale);
  dl->AddRectFilled(ImVec2(at - w, plot.y), ImVec2(at + w, plot.bottom() + 3), to_imcol(colours.text));

  ImGui::SetCursorScreenPos(to_imvec(plot.min()));
  ImGui::InvisibleButton("##sawtooth", ImVec2(std::max(1.0f, plot.w), std::max(1.0f, plot.h)));
  if (!ImGui::IsItemActive()) return -1;
  const float fraction = (ImGui::GetIO().MousePos.x - plot.x) / std::max(1.0f, plot.w);
  return std::clamp(static_cast<int>(fraction * static_cast<float>(events)), 0, events - 1);
}

float draw_time_bar(ImDrawList* dl, const Rect& area, const IterationTime& time, const IterationPlotStyle& style) {
  const UiStrings& t = ui_strings_for(style.language);
  const ViewColours& colours = view_colours(style.theme);
  const float line = ImGui::GetTextLineHeight();
  float y = area.y;
  const std::string title = format(t.iteration_time, iteration_seconds(time.total).c_str());
  if (dl != nullptr) dl->AddText(ImVec2(area.x, y), to_imcol(colours.text), title.c_str());
  // The bar sits beside its title where ten lines of bar still fit, else below it.
  const float title_w = ImGui::CalcTextSize(title.c_str()).x + line;
  const bool beside = title_w + line * 10 <= area.w;
  if (!beside) y += line * 1.3f;
  // Tensor parallelism's per-layer collectives wait for each layer's output: all of their time
  // is on the critical path, a part of the bar of its own (listed only where there is TP).
  const double parts[] = {time.compute, time.recompute, time.exposed_communication, time.exposed_offload,
                          time.tensor_parallel};
  const Rgb fills[] = {{96, 190, 116}, {180, 206, 96}, {80, 170, 230}, {200, 120, 200}, {236, 168, 64}};
  const int part_count = time.tensor_parallel > 0 ? 5 : 4;
  const Rect bar = beside ? Rect{area.x + title_w, y, area.w - title_w, std::round(line * 1.1f)}
                          : Rect{area.x, y, area.w, std::round(line * 1.1f)};
  if (dl != nullptr) {
    dl->AddRectFilled(to_imvec(bar.min()), to_imvec(bar.max()), to_imcol(colours.box_background));
    float x = bar.x;
    for (int i = 0; i < part_count; ++i) {
      if (time.total <= 0 || parts[i] <= 0) continue;
      const float w = bar.w * static_cast<float>(parts[i] / time.total);
      dl->AddRectFilled(ImVec2(x, bar.y), ImVec2(x + std::max(1.0f, w), bar.bottom()), to_imcol(fills[i]));
      x += w;
    }
  }
  y = bar.bottom() + line * 0.3f;
  float lx = area.x;
  for (int i = 0; i < part_count; ++i) {
    const std::string label = std::string(t.iteration_time_parts[i]) + " " + iteration_seconds(parts[i]);
    const float swatch_w = line * 1.35f + ImGui::CalcTextSize(label.c_str()).x;  // what legend_swatch takes
    if (lx > area.x && lx + swatch_w > area.right()) {
      lx = area.x;
      y += line * 1.25f;
    }
    if (dl != nullptr) legend_swatch(dl, ImVec2(lx, y), line, to_imcol(fills[i]), to_imcol(colours.text), label.c_str());
    lx += swatch_w + line;
  }
  y += line * 1.3f;
  const std::string hidden = format(t.iteration_time_hidden, iteration_seconds(time.communication).c_str(),
                                    iteration_seconds(time.offload).c_str());
  if (dl != nullptr)
    dl->AddText(nullptr, 0, ImVec2(area.x, y), to_imcol(colours.muted_text), hidden.c_str(), nullptr, area.w);
  y += ImGui::CalcTextSize(hidden.c_str(), nullptr, false, std::max(1.0f, area.w)).y;
  return y - area.y;
}

float draw_strategy_peaks(ImDrawList* dl, const Rect& area, const std::vector<StrategyPeak>& peaks, double capacity,
                          Strategy shown, const IterationPlotStyle& style) {
  const ViewColours& colours = view_colours(style.theme);
  const float line = ImGui::GetTextLineHeight();
  const char* title = ui_strings_for(style.language).iteration_strategies;
  const float title_h = ImGui::CalcTextSize(title, nullptr, false, std::max(1.0f, area.w)).y + line * 0.25f;
  const float row = std::round(line * 1.2f);
  const float height = title_h + row * static_cast<float>(peaks.size());
  if (dl == nullptr) return height;
  dl->AddText(nullptr, 0, ImVec2(area.x, area.y), to_imcol(colours.muted_text), title, nullptr, area.w);
  double top = capacity;
  for (const StrategyPeak& p : peaks) top = std::max(top, static_cast<double>(p.peak));
  top *= 1.04;
  float name_w = 0, value_w = ImGui::CalcTextSize("0000.0 GB").x;
  for (const StrategyPeak& p : peaks) name_w = std::max(name_w, ImGui::CalcTextSize(std::string(strategy_title(p.strategy)).c_str()).x);
  const Rect bars{area.x + name_w + line * 0.5f, area.y + title_h, std::max(1.0f, area.w - name_w - value_w - line), row * peaks.size()};
  auto x_of = [&](double bytes) { return bars.x + static_cast<float>(bytes / top) * bars.w; };
  for (std::size_t i = 0; i < peaks.size(); ++i) {
    const StrategyPeak& p = peaks[i];
    const float y = bars.y + row * static_cast<float>(i);
    const std::string name(strategy_title(p.strategy));
    dl->AddText(ImVec2(area.x, y), to_imcol(p.strategy == shown ? colours.text : colours.muted_text), name.c_str());
    if (p.peak <= 0) continue;
    const bool over = static_cast<double>(p.peak) > capacity;
    const Rect bar{bars.x, y + line * 0.15f, std::max(1.0f, x_of(static_cast<double>(p.peak)) - bars.x), line * 0.8f};
    dl->AddRectFilled(to_imvec(bar.min()), to_imvec(bar.max()), to_imcol(over ? colours.warning : Rgb{96, 190, 116}, 0.8f));
    if (p.strategy == shown)
      dl->AddRect(to_imvec(bar.min()), to_imvec(bar.max()), to_imcol(colours.text), 0, 0, std::max(1.0f, style.scale));
    dl->AddText(ImVec2(bar.right() + line * 0.3f, y), to_imcol(colours.text),
                iteration_gb(static_cast<double>(p.peak)).c_str());
  }
  const float cap_x = std::round(x_of(capacity));
  dashed_line(dl, ImVec2(cap_x, bars.y), ImVec2(cap_x, bars.bottom()), to_imcol(colours.warning), 2 * style.scale,
              6 * style.scale, 4 * style.scale);
  return height;
}

float draw_part_legend(ImDrawList* dl, ImVec2 at, float width, const IterationPlotStyle& style) {
  const ViewColours& colours = view_colours(style.theme);
  const float line = ImGui::GetTextLineHeight();
  float x = at.x, y = at.y;
  for (IterationPart part : kIterationParts) {
    const char* label = part_name(part, style.language);
    const float swatch_w = line * 1.35f + ImGui::CalcTextSize(label).x;  // what legend_swatch takes
    if (x > at.x && x + swatch_w > at.x + width) {
      x = at.x;
      y += line * 1.25f;
    }
    if (dl != nullptr)
      legend_swatch(dl, ImVec2(x, y), line, to_imcol(part_colour(part, style.theme)), to_imcol(colours.text), label,
                    part == IterationPart::buffers, to_imcol(colours.warning));
    x += swatch_w + line;
  }
  return y + line * 1.25f - at.y;
}

}  // namespace ringviz::gui
