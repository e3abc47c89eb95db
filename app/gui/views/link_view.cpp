#include "app/gui/views/link_view.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <imgui.h>

#include "core/algorithms/registry.h"
#include "app/gui/compare/topology_picture.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/plots/view_text.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "core/engine/session.h"

namespace ringviz::gui {

std::vector<LinkLoad> link_loads(const Round& round, const SlotLayout& layout, DType dtype) {
  std::vector<LinkLoad> loads;
  std::map<std::pair<int, int>, std::size_t> index;
  const std::int64_t element = static_cast<std::int64_t>(dtype_size(dtype));
  for (const Transfer& transfer : round.transfers) {
    const auto key = std::make_pair(transfer.src, transfer.dst);
    auto found = index.find(key);
    if (found == index.end()) {
      found = index.emplace(key, loads.size()).first;
      loads.push_back({transfer.src, transfer.dst, 0, 0});
    }
    LinkLoad& load = loads[found->second];
    load.bytes += layout[transfer.slot].count * element;
    ++load.transfers;
  }
  return loads;
}

std::int64_t busiest_link_in_any_round(const Schedule& schedule, const SlotLayout& layout, DType dtype) {
  std::int64_t most = 0;
  for (const Round& round : schedule.rounds)
    for (const LinkLoad& load : link_loads(round, layout, dtype)) most = std::max(most, load.bytes);
  return most;
}

Rgb heat_colour(float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  constexpr Rgb stops[] = {{44, 82, 160}, {40, 170, 170}, {236, 206, 64}, {232, 72, 56}};
  const float at = t * 3.0f;
  const int i = std::min(2, static_cast<int>(at));
  return mix(stops[i], stops[i + 1], at - static_cast<float>(i));
}

int link_view_round(const RoundMoment& moment, int round_count) {
  if (round_count <= 0) return 0;
  if (moment.round >= 1) return std::min(moment.round, round_count);
  return 1;
}

void draw_link_view(ImDrawList* dl, const Rect& area, const ViewContext& context, const LinkViewInput& input) {
  const UiStrings& t = ui_strings_for(context.language);
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const float s = context.scale;
  if (context.session == nullptr) return;
  const Session& session = *context.session;
  const Config& config = session.config();
  const Schedule& schedule = session.schedule();
  const int rounds = schedule.round_count();
  const int shown = link_view_round(context.moment, rounds);
  const CostComparison* comparison = input.comparison;
  const std::string where = comparison ? comparison->topology.key : std::string("...");

  const std::string title = shown > 0 ? format(t.link_topology_title, shown, rounds,
                                               std::string(algorithm_name(config.algorithm)).c_str(), where.c_str())
                                      : std::string(t.link_no_rounds);
  // Wrapped with room between lines for Chinese glyphs (view_text.h).
  const WrappedText title_lines = wrap_text(title, area.w);
  const WrappedText hint_lines = wrap_text(t.link_topology_hint, area.w);
  draw_wrapped(dl, ImVec2(area.x, area.y), to_imcol(colours.text), title_lines);
  const float title_h = title_lines.height();
  draw_wrapped(dl, ImVec2(area.x, area.y + title_h + line * 0.1f), to_imcol(colours.muted_text), hint_lines);
  const float head_h = title_h + line * 0.1f + hint_lines.height();
  if (shown == 0) return;
  if (comparison == nullptr || input.routes == nullptr) {
    dl->AddText(ImVec2(area.x, area.y + line * 5), to_imcol(colours.muted_text), t.compare_computing);
    return;
  }
  const TopologyStepPicture picture = topology_step_picture(*comparison, *input.routes, schedule, config.algorithm, shown - 1);
  const Topology& topology = comparison->topology;

  // The machine, below the title and hint and above the legend.
  // The legend's height: the summary, the scale and its labels, and the keys' rows.
  const std::string summary = format(t.link_topology_summary, picture.busy_links, picture.shared_links,
                                     format_bytes(picture.step_top_bytes).c_str());
  const WrappedText summary_lines = wrap_text(summary, area.w);
  const float summary_h = summary_lines.height();
  // What the marks mean, in rows as wide as the view; a key wider than the view alone wraps its
  // label. Laid out once to measure (draw false), once to draw; returns the rows' height.
  auto lay_keys = [&](float top, bool draw) {
    const float swatch = line * 0.8f, label_x = swatch * 1.35f, row = line * 1.2f;
    const ImU32 ink = to_imcol(colours.muted_text);
    float x = area.x, y = top;
    auto key = [&](ImU32 colour, const char* label) {
      const float width = label_x + ImGui::CalcTextSize(label).x;
      if (x > area.x && x + width > area.right()) {
        x = area.x;
        y += row;
      }
      if (x + width <= area.right()) {
        if (draw) legend_swatch(dl, ImVec2(x, y), swatch, colour, ink, label);
        x += width + line;
        return;
      }
      const WrappedText wrapped = wrap_text(label, area.right() - x - label_x);
      if (draw) {
        legend_swatch(dl, ImVec2(x, y), swatch, colour, ink, "");
        draw_wrapped(dl, ImVec2(x + label_x, y), ink, wrapped);
      }
      x = area.x;
      y += wrapped.height() - line + row;
    };
    key(to_imcol(colours.warning, 0.55f), t.link_legend_shared);
    key(to_imcol(colours.box_border, 0.7f), t.link_legend_idle);
    key(to_imcol(rank_colour(0, context.palette)), t.link_legend_gpu);
    key(to_imcol(colours.box_background), t.link_legend_switch);
    return y + (x > area.x ? row : 0.0f) - top;
  };
  const float legend_h = summary_h + line * 2.7f + lay_keys(0, false);
  const float top_y = area.y + head_h + line * 0.8f;
  const Rect machine{area.x, top_y, area.w, std::max(line * 4, area.bottom() - top_y - legend_h)};
  const int gpus = topology.gpus;
  const float gpu_box = std::clamp(std::min(machine.w, machine.h) / (static_cast<float>(gpus) * 0.55f + 3), 5.0f * s, line * 1.6f);
  float switch_w = gpu_box;
  for (int node = gpus; node < topology.node_count(); ++node)
    switch_w = std::max(switch_w, ImGui::CalcTextSize(topology.node_names[static_cast<std::size_t>(node)].c_str()).x + line * 0.6f);
  switch_w = std::min(switch_w, std::min(machine.w, machine.h) * 0.24f);
  const Vec2 box_size{std::max(gpu_box, switch_w), std::max(gpu_box, line * 1.3f)};
  const std::vector<Vec2> at = topology_node_centres(topology, machine, box_size);
  auto node_box = [&](int node) {
    const Vec2 c = at[static_cast<std::size_t>(node)];
    const Vec2 size = node < gpus ? Vec2{gpu_box, gpu_box} : Vec2{switch_w, std::max(gpu_box, line * 1.3f)};
    return Rect{c.x - size.x * 0.5f, c.y - size.y * 0.5f, size.x, size.y};
  };

  // Each direction of a link is its own line, beside the other, so both loads show.
  const float top = static_cast<float>(std::max(1.0, picture.top_bytes));
  const float spacing = std::max(2.0f, 2.5f * s);
  struct Label {
    int from, to;
    ImVec2 at;
    int transfers;
  };
  std::vector<Label> labels;
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < topology.links.size(); ++i) {
      const TopologyLink& link = topology.links[i];
      const StepLinkLoad& load = picture.loads[i];
      const bool busy = load.transfers > 0;
      if ((pass == 0) == busy) continue;  // idle links first, underneath
      const Rect from = node_box(link.from), to = node_box(link.to);
      const Vec2 a0 = box_exit(from, to.centre()), b0 = box_exit(to, from.centre());
      const Vec2 d = b0 - a0;
      const float length = std::max(1.0f, d.length());
      const Vec2 side{-d.y / length * spacing, d.x / length * spacing};
      const ImVec2 a = to_imvec(a0 + side), b = to_imvec(b0 + side);
      if (!busy) {
        dl->AddLine(a, b, to_imcol(colours.box_border, 0.7f), std::max(1.0f, s));
        continue;
      }
      const float heat = static_cast<float>(load.bytes) / top;
      const float thickness = std::max(1.5f, (1.5f + 3.0f * heat) * s);
      if (load.transfers > 1) dl->AddLine(a, b, to_imcol(colours.warning, 0.55f), thickness + 4 * s);
      const ImU32 colour = to_imcol(heat_colour(heat));
      dl->AddLine(a, b, colour, thickness);
      // An arrowhead two thirds along tells the direction.
      const Vec2 unit = d * (1.0f / length);
      const Vec2 tip = a0 + side + d * 0.68f;
      const float head = std::max(4.0f * s, thickness * 2.2f);
      const Vec2 base = tip - unit * head, across{-unit.y * head * 0.5f, unit.x * head * 0.5f};
      dl->AddTriangleFilled(to_imvec(tip), to_imvec(base + across), to_imvec(base - across), colour);
      // Labelled nearer the end farther from the middle, where spokes of a switch spread apart.
      const Vec2 middle = machine.centre();
      const bool outward = (b0 - middle).length() >= (a0 - middle).length();
      if (load.transfers > 1) labels.push_back({link.from, link.to, to_imvec(outward ? a0 + d * 0.62f : a0 + d * 0.38f), load.transfers});
    }

  // The boxes on top of the links: GPUs in their ring colours, switches grey.
  for (int node = 0; node < topology.node_count(); ++node) {
    const Rect box = node_box(node);
    const Rgb fill = node < gpus ? rank_colour(node, context.palette) : colours.box_background;
    dl->AddRectFilled(to_imvec(box.min()), to_imvec(box.max()), to_imcol(fill), 3 * s);
    dl->AddRect(to_imvec(box.min()), to_imvec(box.max()), to_imcol(colours.box_border), 3 * s);
    std::string name = node < gpus ? std::to_string(node) : topology.node_names[static_cast<std::size_t>(node)];
    if (node >= gpus && ImGui::CalcTextSize(name.c_str()).x >= box.w - 2) name = short_node_name(name);
    if (ImGui::CalcTextSize(name.c_str()).x < box.w - 2)
      text_centred(dl, box.centre().x, box.centre().y - line * 0.5f, node < gpus ? ink_on(fill) : to_imcol(colours.text),
                   name.c_str());
  }

  // "shared by 3" on the shared links, one label per pair of directions (the larger count),
  // while there are few enough to read.
  std::vector<Label> pairs;
  for (const Label& label : labels) {
    auto same = std::find_if(pairs.begin(), pairs.end(), [&](const Label& other) {
      return (other.from == label.from && other.to == label.to) || (other.from == label.to && other.to == label.from);
    });
    if (same == pairs.end()) pairs.push_back(label);
    else same->transfers = std::max(same->transfers, label.transfers);
  }
  // Each label where it covers no box and no earlier label; one that would is left out.
  std::vector<Rect> taken;
  for (int node = 0; node < topology.node_count(); ++node) taken.push_back(node_box(node));
  for (const Label& label : pairs) {
    const std::string text = format(t.link_shared_by, label.transfers);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const Rect place{std::clamp(label.at.x - size.x * 0.5f, area.x, area.right() - size.x), label.at.y - size.y * 0.5f,
                     size.x, size.y};
    if (std::any_of(taken.begin(), taken.end(), [&](const Rect& other) { return other.inset(-1).overlaps(place); })) continue;
    taken.push_back(place);
    dl->AddRectFilled(ImVec2(place.x - 2, place.y), ImVec2(place.right() + 2, place.bottom()), to_imcol(colours.view_background, 0.85f), 2);
    dl->AddText(ImVec2(place.x, place.y), to_imcol(colours.warning), text.c_str());
  }

  // The legend: the step in words, the colour scale, then what the marks mean, each wrapped
  // to the view's width.
  float y = area.bottom() - legend_h + line * 0.3f;
  draw_wrapped(dl, ImVec2(area.x, y), to_imcol(colours.text), summary_lines);
  y += summary_h + line * 0.3f;
  const Rect scale{area.x, y, std::min(area.w, line * 12), line * 0.7f};
  const int steps = 32;
  for (int k = 0; k < steps; ++k)
    dl->AddRectFilled(ImVec2(scale.x + scale.w * k / steps, scale.y), ImVec2(scale.x + scale.w * (k + 1) / steps + 0.5f, scale.bottom()),
                      to_imcol(heat_colour(static_cast<float>(k) / (steps - 1))));
  dl->AddText(ImVec2(scale.x, scale.bottom() + 2), to_imcol(colours.muted_text), "0");
  const std::string high = format(t.link_scale_top, format_bytes(picture.top_bytes).c_str());
  dl->AddText(ImVec2(scale.right() - ImGui::CalcTextSize(high.c_str()).x, scale.bottom() + 2), to_imcol(colours.muted_text),
              high.c_str());
  lay_keys(scale.bottom() + line * 1.3f, true);
}

}  // namespace ringviz::gui
