#include "app/gui/views/link_view.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <imgui.h>

#include "app/gui/views/centre_view_draw.h"
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

namespace {

// A quadratic Bezier from a to b bowed to the left of its direction, so a -> b and b -> a
// are two separate curves, and links between far GPUs pass beside the centre, not through it.
struct Curve {
  ImVec2 a, control, b;
  ImVec2 at(float t) const {
    const float u = 1 - t;
    return ImVec2(u * u * a.x + 2 * u * t * control.x + t * t * b.x, u * u * a.y + 2 * u * t * control.y + t * t * b.y);
  }
};

Curve curve_between(ImVec2 a, ImVec2 b, float bow) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
  const ImVec2 mid((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
  return {a, ImVec2(mid.x + dy / length * bow * length, mid.y - dx / length * bow * length), b};
}

// Where the segment from the centre of `box` toward `towards` leaves the box.
Vec2 box_exit(const Rect& box, Vec2 towards) {
  const Vec2 c = box.centre();
  const Vec2 d = towards - c;
  const float tx = std::fabs(d.x) > 1e-3f ? box.w * 0.5f / std::fabs(d.x) : 1e9f;
  const float ty = std::fabs(d.y) > 1e-3f ? box.h * 0.5f / std::fabs(d.y) : 1e9f;
  return c + d * std::min(1.0f, std::min(tx, ty));
}

}  // namespace

ArrowPath transfer_path(const RingGeometry& geometry, int src, int dst) {
  const Rect& from = geometry.boxes[static_cast<std::size_t>(src)].box;
  const Rect& to = geometry.boxes[static_cast<std::size_t>(dst)].box;
  const Vec2 a = box_exit(from, to.centre()), b = box_exit(to, from.centre());
  const Vec2 d = b - a;
  const float length = std::max(1.0f, d.length());
  const Vec2 left{d.y / length, -d.x / length};
  const Vec2 control = (a + b) * 0.5f + left * (0.14f * length);
  std::vector<Vec2> points;
  for (int k = 0; k <= 20; ++k) {
    const float t = static_cast<float>(k) / 20.0f, u = 1 - t;
    points.push_back(a * (u * u) + control * (2 * u * t) + b * (t * t));
  }
  return make_path(std::move(points));
}

void draw_link_view(ImDrawList* dl, const Rect& area, const ViewContext& context) {
  const UiStrings& t = view_strings();
  const ViewColours& colours = view_colours(context.theme);
  const float line = ImGui::GetTextLineHeight();
  const float s = context.scale;
  if (context.session == nullptr) return;
  const Session& session = *context.session;
  const Config& config = session.config();
  const Schedule& schedule = session.schedule();
  const int n = config.ranks;
  const int rounds = schedule.round_count();
  const int shown = link_view_round(context.moment, rounds);

  const std::string title = shown > 0 ? format(t.link_title, shown, rounds, std::string(algorithm_name(config.algorithm)).c_str())
                                      : std::string(t.link_no_rounds);
  dl->AddText(ImVec2(area.x, area.y), to_imcol(colours.text), title.c_str());
  dl->AddText(nullptr, 0, ImVec2(area.x, area.y + line * 1.1f), to_imcol(colours.muted_text), t.link_hint, nullptr, area.w);
  if (shown == 0) return;

  const std::vector<LinkLoad> loads = link_loads(schedule.rounds[static_cast<std::size_t>(shown - 1)], session.layout(), config.dtype);
  const std::int64_t top = std::max<std::int64_t>(1, busiest_link_in_any_round(schedule, session.layout(), config.dtype));

  // The circle of GPUs, below the title and above the colour scale.
  const float legend_h = line * 3.6f;
  const Rect circle_area{area.x, area.y + line * 4.6f, area.w, std::max(line * 4, area.h - line * 4.6f - legend_h)};
  const ImVec2 centre(circle_area.centre().x, circle_area.centre().y);
  const float node = std::clamp(std::min(circle_area.w, circle_area.h) / (n * 0.9f + 2), 3.0f * s, line * 1.2f);
  const float radius = std::max(node * 2, std::min(circle_area.w, circle_area.h) * 0.5f - node - line);
  std::vector<ImVec2> at(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    // GPU 0 at the top, clockwise, as the ring view has them.
    const float angle = -1.5707963f + 6.2831853f * static_cast<float>(r) / static_cast<float>(n);
    at[static_cast<std::size_t>(r)] = ImVec2(centre.x + radius * std::cos(angle), centre.y + radius * std::sin(angle));
  }

  // Links, coolest first so the busiest are drawn on top.
  std::vector<LinkLoad> order = loads;
  std::stable_sort(order.begin(), order.end(), [](const LinkLoad& a, const LinkLoad& b) { return a.bytes < b.bytes; });
  const bool labelled = order.size() <= 12;
  for (const LinkLoad& load : order) {
    const float heat = static_cast<float>(static_cast<double>(load.bytes) / static_cast<double>(top));
    const ImU32 colour = to_imcol(heat_colour(heat));
    const ImVec2 a = at[static_cast<std::size_t>(load.src)], b = at[static_cast<std::size_t>(load.dst)];
    // Start and end at the node's edge, not its centre.
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float length = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
    const float trim = (node + 2) / length;
    const ImVec2 a2(a.x + dx * trim, a.y + dy * trim), b2(b.x - dx * trim, b.y - dy * trim);
    const Curve curve = curve_between(a2, b2, 0.12f);
    const float thickness = std::max(1.0f, (1.0f + 4.0f * heat) * s * (n > 16 ? 0.5f : 1.0f));
    std::vector<ImVec2> points;
    for (int k = 0; k <= 16; ++k) points.push_back(curve.at(static_cast<float>(k) / 16.0f));
    const ImVec2 tip = points.back(), before = curve.at(0.9f);
    const float hx = tip.x - before.x, hy = tip.y - before.y;
    const float hl = std::max(0.001f, std::sqrt(hx * hx + hy * hy));
    const float head = std::max(4.0f * s, thickness * 2.6f);
    const ImVec2 d(hx / hl, hy / hl), side(-d.y, d.x);
    const ImVec2 base(tip.x - d.x * head, tip.y - d.y * head);
    points.back() = base;
    dl->AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, thickness);
    dl->AddTriangleFilled(tip, ImVec2(base.x + side.x * head * 0.5f, base.y + side.y * head * 0.5f),
                          ImVec2(base.x - side.x * head * 0.5f, base.y - side.y * head * 0.5f), colour);
    if (labelled) {
      const std::string bytes = format_bytes(static_cast<double>(load.bytes));
      const ImVec2 mid = curve.at(0.5f);
      const ImVec2 size = ImGui::CalcTextSize(bytes.c_str());
      dl->AddRectFilled(ImVec2(mid.x - size.x * 0.5f - 2, mid.y - size.y * 0.5f),
                        ImVec2(mid.x + size.x * 0.5f + 2, mid.y + size.y * 0.5f), to_imcol(colours.view_background, 0.8f), 2);
      text_centred(dl, mid.x, mid.y - size.y * 0.5f, colour, bytes.c_str());
    }
  }

  // The GPUs on top of the links, in their ring colours.
  for (int r = 0; r < n; ++r) {
    const ImVec2 p = at[static_cast<std::size_t>(r)];
    const Rgb colour = rank_colour(r, context.palette);
    dl->AddCircleFilled(p, node, to_imcol(colour));
    const std::string name = std::to_string(r);
    if (ImGui::CalcTextSize(name.c_str()).x < node * 1.8f) text_centred(dl, p.x, p.y - line * 0.5f, ink_on(colour), name.c_str());
  }

  // The colour scale: 0 to the busiest link of any round of this schedule.
  const Rect scale{area.x + line, area.bottom() - line * 1.9f, std::min(area.w - 2 * line, line * 14), line * 0.7f};
  const int steps = 32;
  for (int k = 0; k < steps; ++k)
    dl->AddRectFilled(ImVec2(scale.x + scale.w * k / steps, scale.y), ImVec2(scale.x + scale.w * (k + 1) / steps + 0.5f, scale.bottom()),
                      to_imcol(heat_colour(static_cast<float>(k) / (steps - 1))));
  dl->AddText(ImVec2(scale.x, scale.bottom() + 2), to_imcol(colours.muted_text), "0");
  const std::string high = format(t.link_scale_top, format_bytes(static_cast<double>(top)).c_str());
  dl->AddText(ImVec2(scale.right() - ImGui::CalcTextSize(high.c_str()).x, scale.bottom() + 2), to_imcol(colours.muted_text),
              high.c_str());
  std::int64_t round_top = 0;
  for (const LinkLoad& load : loads) round_top = std::max(round_top, load.bytes);
  const std::string summary = format(t.link_round_summary, static_cast<int>(loads.size()), format_bytes(static_cast<double>(round_top)).c_str());
  dl->AddText(ImVec2(scale.x, scale.y - line * 1.3f), to_imcol(colours.text), summary.c_str());
}

}  // namespace ringviz::gui
