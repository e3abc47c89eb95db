#include "app/gui/views/ring_view.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <imgui.h>

#include "app/gui/text/op_label.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/render/rank_stripes.h"
#include "app/gui/views/link_view.h"
#include "app/gui/views/switch_layer.h"
#include "app/gui/views/too_small_notice.h"
#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"
#include "core/schedule/pipeline.h"

namespace ringviz::gui {

namespace {

// How much smaller a packet's label is drawn when it rides between the boxes.
constexpr float kCompactTextScale = 0.75f;

// The longest true form of a label that fits `width`: every term, then core's ring runs
// ("c2..a2", "max(a0..d0)"), then, where stripes already show the reduction's inputs, the runs
// without its name; else nothing. Never first..last across a gap (docs/architecture.md,
// "Collective semantics", Labels).
std::string fit_label(const LabelForms& forms, float width, bool operands_may_stand_alone = false) {
  for (const std::string* form : {&forms.terms, &forms.runs})
    if (!form->empty() && ImGui::CalcTextSize(form->c_str()).x <= width) return *form;
  if (operands_may_stand_alone && !forms.operands.empty() && ImGui::CalcTextSize(forms.operands.c_str()).x <= width)
    return forms.operands;
  return {};
}

void draw_arrow(ImDrawList* dl, const ArrowPath& path, ImU32 colour, float thickness, float head) {
  if (path.points.size() < 2) return;
  std::vector<ImVec2> points;
  points.reserve(path.points.size());
  // Stop the line short of the tip so the head's point stays sharp.
  const float shorten = path.total() > 0 ? std::min(0.9f, head * 0.8f / path.total()) : 0.0f;
  for (std::size_t i = 0; i < path.points.size(); ++i) {
    if (path.lengths[i] > path.total() * (1 - shorten)) break;
    points.push_back(to_imvec(path.points[i]));
  }
  points.push_back(to_imvec(path.at(1 - shorten)));
  dl->AddPolyline(points.data(), static_cast<int>(points.size()), colour, 0, thickness);
  const Vec2 tip = path.points.back();
  const Vec2 d = path.direction_at(1.0f);
  const Vec2 side{-d.y, d.x};
  const Vec2 base = tip - d * head;
  dl->AddTriangleFilled(to_imvec(tip), to_imvec(base + side * (head * 0.5f)),
                        to_imvec(base - side * (head * 0.5f)), colour);
}

}  // namespace

void RingView::fit_geometry(const Rect& ring_area, int ranks, int slots, float line, bool through_switch) {
  if (geometry_.ranks == ranks && geometry_.slots == slots && geometry_line_ == line &&
      geometry_through_switch_ == through_switch && geometry_view_.x == ring_area.x && geometry_view_.y == ring_area.y &&
      geometry_view_.w == ring_area.w && geometry_view_.h == ring_area.h)
    return;
  if (through_switch) {
    // A switch has a cell per GPU: its schedules keep one slot per GPU.
    RingWithSwitch laid_out = layout_ring_with_switch(ring_area, ranks, line);
    geometry_ = std::move(laid_out.ring);
    switch_ = std::move(laid_out.in_switch);
  } else {
    geometry_ = layout_ring(ring_area, ranks, line, slots);
    switch_ = SwitchGeometry{};
  }
  geometry_view_ = ring_area;
  geometry_line_ = line;
  geometry_through_switch_ = through_switch;
}

void RingView::sync_palette_and_cells(SessionModel& model, PaletteKind palette, int round) {
  const int ranks = model.config().ranks;
  if (palette_ranks_ != ranks || uploaded_palette_ != palette) {
    renderer_.upload_palette(rank_palette(ranks, palette));
    palette_ranks_ = ranks;
    uploaded_palette_ = palette;
  }
  cell_source_.bring_to(renderer_, model, round);
}

// What one frame of the view works out once and each of its layers reads.
struct RingView::Scene {
  ImDrawList* dl;
  const ViewColours& colours;
  PaletteKind palette;
  const Config& config;
  const Session& session;
  const ShownState& shown;  // the cells at rest, after moment.rest_round rounds
  RoundMoment moment;
  const Round* round;       // the round of the moment; null at rest before the first
  bool in_flight;           // its packets are on their way
  Rgb phase_colour;
  int n;
  int slots;  // per GPU: n, or n x n for an uneven AllToAll
  float line;
  float ui_scale;
  bool tiny_cells;          // a few pixels wide: drawn without borders or outlines
  float head;               // arrow heads
  float thickness;          // arrow lines
  float rounding;           // box corners
  bool values_as_text;      // cells tall enough for a label, slots small enough to print
  bool label_only;          // cells with room for the label line alone (CellText::label)
  bool counter_clockwise;   // the ring is drawn both ways round (sends_counter_clockwise)
  // A schedule through a switch that reduces (nvls), where the switch fits in the middle: its
  // spokes replace the ring's arrows and its transfers ride them. Null otherwise.
  const SwitchGeometry* in_switch;
  const ShownState* switch_sums;  // what the switch has summed, once its reducing round began
  float switch_sums_alpha;
  Language language;
};

bool RingView::sends_counter_clockwise(const SessionModel& model) {
  if (counter_clockwise_generation_ == model.generation()) return counter_clockwise_;
  counter_clockwise_generation_ = model.generation();
  counter_clockwise_ = false;
  const int n = model.config().ranks;
  // Only an algorithm that keeps to ring neighbours: the others' sends to GPU r - 1 are
  // transfers across the ring, drawn as arrows of their own while they travel.
  if (n > 2 && algorithm_unit(model.config().algorithm).ring_neighbours)
    for (const Round& round : model.session().schedule().rounds)
      for (const Transfer& transfer : round.transfers)
        counter_clockwise_ = counter_clockwise_ || transfer.dst == (transfer.src + n - 1) % n;
  return counter_clockwise_;
}

void RingView::draw(const Rect& area, SessionModel& model, const FrameContext& frame, int& selected_gpu,
                    BackgroundFills& fills) {
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  // No window background: the view paints its own, once (llvmpipe pays for every layer).
  begin_panel("##ring", area, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                  ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBackground);
  ImGui::PopStyleVar();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ViewColours& colours = view_colours(frame.theme);
  fills.queue(dl, area, colours.view_background);

  const Config& config = model.config();
  const Session& session = model.session();
  const int n = config.ranks;
  const int slots = slot_count(config);
  const float line = ImGui::GetTextLineHeight();
  const float s = frame.ui_scale;
  pipeline_.begin(session.schedule());
  // Only rings small enough for text on their cells keep labels (thousands of cells have none).
  drawn_labels_ranks_ = n <= SessionModel::kMaxTextRanks ? n : 0;
  drawn_labels_slots_ = drawn_labels_ranks_ > 0 ? slots : 0;
  drawn_labels_.assign(static_cast<std::size_t>(drawn_labels_ranks_) * static_cast<std::size_t>(drawn_labels_slots_),
                       std::string());
  drawn_labels_frame_ = ImGui::GetFrameCount();
  // A pipelined ring gives the top of the view to the wave's caption and channel selector.
  Rect ring_area = area.inset(std::round(line * 0.5f));
  Rect strip{ring_area.x, ring_area.y, ring_area.w, 0};
  if (pipeline_.frame().pipelined) {
    strip.h = std::min(ring_area.h, std::round(pipeline_.strip_height(session.schedule(), session.layout(), config,
                                                                     ring_area.w, line, frame.language)));
    ring_area = {ring_area.x, ring_area.y + strip.h, ring_area.w, ring_area.h - strip.h};
  }
  fit_geometry(ring_area, n, slots, line, session.schedule().through_switch);
  if (!geometry_.fits) {
    switch_drawn_ = false;
    draw_centred_notice(dl, area, frame.text().view_too_small);
    ImGui::End();
    return;
  }
  sync_palette_and_cells(model, frame.palette, frame.moment.rest_round);
  // Hundreds of GPUs mean thousands of tiny shapes; on a software rasteriser every triangle
  // costs set-up time, so drop what cannot be seen at that size: anti-aliasing fringes,
  // rounded corners, borders and outlines of cells a few pixels wide.
  const bool crowded = geometry_.grid;
  if (crowded) dl->Flags &= ~(ImDrawListFlags_AntiAliasedLines | ImDrawListFlags_AntiAliasedFill);

  const RoundMoment moment = frame.moment;
  const Round* round = moment.round >= 1 && moment.round <= session.round_count()
                           ? &session.schedule().rounds[static_cast<std::size_t>(moment.round - 1)]
                           : nullptr;
  std::int64_t largest_slot = 0;
  for (const Slot& slot : session.layout().slots) largest_slot = std::max(largest_slot, slot.count);
  const CellText cell_room = cell_text(n, line);
  const bool text_cells = cell_room != CellText::none;
  // The switch shows its sums from the moment the reducing round (round 1) begins, fading in
  // while the parts travel.
  const bool through_switch = session.schedule().through_switch && switch_.fits && session.round_count() > 0;
  switch_drawn_ = through_switch;
  const bool summing = through_switch && (moment.rest_round >= 1 || (round != nullptr && moment.in_flight));
  const ShownState* switch_sums = summing ? &model.state_at(1) : nullptr;
  const float switch_sums_alpha =
      !summing ? 0.0f : moment.rest_round >= 1 ? 1.0f : static_cast<float>(std::clamp(moment.travel, 0.0, 1.0));
  const Scene scene{
      .dl = dl,
      .colours = colours,
      .palette = frame.palette,
      .config = config,
      .session = session,
      .shown = model.state_at(moment.rest_round),
      .moment = moment,
      .round = round,
      .in_flight = round != nullptr && moment.in_flight,
      .phase_colour = round && round->phase != Phase::reduce_scatter ? colours.phase_all_gather
                                                                     : colours.phase_reduce_scatter,
      .n = n,
      .slots = slots,
      .line = line,
      .ui_scale = s,
      .tiny_cells = std::min(geometry_.cell_width, geometry_.cell_height) < 5.0f,
      .head = geometry_.grid ? std::max(4.0f, line * 0.4f) : line * 0.75f,
      .thickness = geometry_.grid ? std::max(1.0f, s) : 2.0f * s,
      .rounding = crowded ? 0.0f : 5.0f * s,
      .values_as_text = cell_room == CellText::label_and_values && largest_slot <= SessionModel::kMaxValuesPerCell,
      .label_only = cell_room == CellText::label,
      .counter_clockwise = sends_counter_clockwise(model),
      .in_switch = through_switch ? &switch_ : nullptr,
      .switch_sums = switch_sums,
      .switch_sums_alpha = switch_sums_alpha,
      .language = frame.language,
  };
  draw_arrows_and_boxes(scene);
  queue_cells(scene, area, largest_slot);
  if (text_cells) draw_cell_text(scene);
  draw_round_marks(scene);
  if (pipeline_.frame().pipelined) {
    draw_pipeline(scene, model, strip, text_cells);
  } else {
    // Lock-step with slots cut in lanes (the bidirectional ring's halves): each cell's halves
    // as the pipeline draws pieces, since a cell's colour shows only what both halves hold.
    if (session.pipeline_shape().pieces_per_slot() > 1) draw_piece_bars(scene, text_cells);
    // Packets: the sender's slot (or its half) as it was before the round, moving along its arrow.
    if (scene.in_flight) draw_packets(scene, model.state_at(moment.round - 1));
  }
  draw_titles(scene);
  draw_selection(scene, selected_gpu);
  explain_cell_under_mouse(scene, area, selected_gpu);
  ImGui::End();
}

void RingView::draw_arrows_and_boxes(const Scene& scene) {
  ImDrawList* dl = scene.dl;
  const ViewColours& colours = scene.colours;
  const int n = scene.n;
  // Ring arrows; the ones carrying packets now take the phase colour.
  // Only the ring edges the round uses light up: other algorithms also send across the ring.
  // The counter-clockwise ring is drawn where the algorithm sends that way round it (the
  // bidirectional ring); every other schedule keeps the one direction it uses.
  drawn_arrows_.clear();
  const SwitchScene switch_scene{dl, colours, scene.palette, scene.config, scene.in_flight ? scene.round : nullptr,
                                 scene.phase_colour, scene.thickness, scene.head, scene.ui_scale,
                                 scene.switch_sums, scene.switch_sums_alpha};
  const auto draw_ring = [&](const std::vector<ArrowPath>& arrows, int step) {
    std::vector<char> edge_busy(arrows.size(), 0);
    if (scene.in_flight)
      for (const Transfer& transfer : scene.round->transfers)
        if (transfer.dst == (transfer.src + step + n) % n && transfer.src < static_cast<int>(edge_busy.size()))
          edge_busy[static_cast<std::size_t>(transfer.src)] = 1;
    for (std::size_t r = 0; r < arrows.size(); ++r) {
      draw_arrow(dl, arrows[r], edge_busy[r] ? to_imcol(scene.phase_colour, 0.9f) : to_imcol(colours.arrow),
                 scene.thickness, scene.head);
      const int src = static_cast<int>(r);
      drawn_arrows_.push_back({src, (src + step + n) % n, step < 0, edge_busy[r] != 0, arrows[r].at(0.5f)});
    }
  };
  if (scene.in_switch != nullptr) {
    draw_switch_spokes(switch_scene, *scene.in_switch);
  } else {
    draw_ring(geometry_.arrows, 1);
    if (scene.counter_clockwise) draw_ring(geometry_.back_arrows, -1);
  }

  // GPU boxes; their titles come last (draw_titles).
  for (int r = 0; r < n; ++r) {
    const GpuBox& gpu = geometry_.boxes[static_cast<std::size_t>(r)];
    dl->AddRectFilled(to_imvec(gpu.box.min()), to_imvec(gpu.box.max()), to_imcol(colours.box_background), scene.rounding);
    if (!scene.tiny_cells)
      dl->AddRect(to_imvec(gpu.box.min()), to_imvec(gpu.box.max()), to_imcol(colours.box_border), scene.rounding);
  }
  if (scene.in_switch != nullptr) draw_switch_box(switch_scene, *scene.in_switch);
}

void RingView::draw_titles(const Scene& scene) const {
  // Drawn after the packets, each on a plate of the box's colour: a packet riding into or out
  // of a box passes under its title and never hides it (its label stays off titles too, see
  // draw_packets).
  ImDrawList* dl = scene.dl;
  for (int r = 0; r < scene.n; ++r) {
    Rect at;
    const std::string title = shown_title(r, scene.line, scene.language, at);
    if (title.empty()) continue;
    const float margin = 2.0f * scene.ui_scale;
    if (scene.in_flight)
      dl->AddRectFilled(ImVec2(at.x - margin, at.y - margin), ImVec2(at.right() + margin, at.bottom() + margin),
                        to_imcol(scene.colours.box_background), 2.0f * scene.ui_scale);
    dl->AddText(to_imvec(at.min()), to_imcol(rank_colour(r, scene.palette)), title.c_str());
  }
  if (scene.in_switch != nullptr) draw_switch_title(dl, scene.colours, scene.ui_scale, *scene.in_switch, scene.language);
}

std::string RingView::shown_title(int rank, float line, Language language, Rect& at) const {
  // "GPU r" where it fits the title strip, else the short form, else nothing.
  const UiStrings& text = ui_strings_for(language);
  const GpuBox& gpu = geometry_.boxes[static_cast<std::size_t>(rank)];
  if (gpu.title.h <= 0) return {};
  std::string title = format(text.gpu_name, rank);
  if (ImGui::CalcTextSize(title.c_str()).x > gpu.title.w) title = format(text.gpu_short, rank);
  const float width = ImGui::CalcTextSize(title.c_str()).x;
  if (width > gpu.title.w) return {};
  at = {gpu.title.x, gpu.title.y + (gpu.title.h - line) * 0.5f, width, line};
  return title;
}

void RingView::queue_cells(const Scene& scene, const Rect& clip, std::int64_t largest_slot) {
  // The cells themselves: one shader pass for all GPUs, at this point of the draw order.
  const ViewColours& colours = scene.colours;
  std::vector<CellPass::Box> boxes;
  for (int r = 0; r < scene.n; ++r) boxes.push_back({geometry_.boxes[static_cast<std::size_t>(r)].cells, r});
  CellPass pass{.boxes = std::move(boxes), .clip = clip, .ranks = scene.n, .slots = scene.slots,
                .columns = geometry_.cell_columns,
                .rows = geometry_.cell_rows, .cell_size = {geometry_.cell_width, geometry_.cell_height},
                .gap = geometry_.cell_gap, .hatch_a = colours.hatch_a, .hatch_b = colours.hatch_b,
                .stale_target = colours.stale_target, .nan_colour = colours.nan_colour,
                .stale_amount = colours.stale_amount};
  if (scene.values_as_text) {
    pass.band_mode = ValueBand::text;
    pass.band = (scene.line + 4.0f) / geometry_.cell_height;
  } else if (largest_slot > 0 && geometry_.cell_height >= 14.0f) {
    pass.band_mode = ValueBand::heatmap;
    pass.band = 0.36f;
  }
  renderer_.queue(scene.dl, std::move(pass));
}

std::string RingView::drawn_label(int rank, int slot) const {
  const int n = drawn_labels_ranks_;
  const int slots = drawn_labels_slots_;
  if (drawn_labels_frame_ != ImGui::GetFrameCount() || rank < 0 || slot < 0 || rank >= n || slot >= slots) return {};
  return drawn_labels_[static_cast<std::size_t>(rank) * static_cast<std::size_t>(slots) + static_cast<std::size_t>(slot)];
}

void RingView::draw_cell_text(const Scene& scene) {
  // Text on the cells: the label near the top (clear of the centre, which shows the pure
  // provenance colour) and the values in the bottom band.
  ImDrawList* dl = scene.dl;
  const ViewColours& colours = scene.colours;
  const ShownState& shown = scene.shown;
  const int n = scene.n;
  const float line = scene.line;
  const float pad = 3.0f * scene.ui_scale;
  for (int r = 0; r < n; ++r) {
    for (int slot = 0; slot < scene.slots; ++slot) {
      const Rect cell = geometry_.painted_cell(r, slot);
      const std::size_t index = static_cast<std::size_t>(r) * static_cast<std::size_t>(scene.slots) +
                                static_cast<std::size_t>(slot);
      const std::uint32_t flags = shown.cells.flags(r, slot);
      const RankSet& set = shown.provenance.at(r, slot);
      const bool stale = flags & kCellStale;
      // A slot whose halves hold different contributors is labelled half by half, even where
      // the halves have nothing in common (an AllGather slot half arrived).
      const bool by_lanes = shown.labels[index].terms.find(kLaneSeparator) != std::string::npos;
      if (set.none() && !by_lanes) continue;
      // Text colour by the colour under it (stale cells are nearly background).
      const Rgb under = stale || set.none() ? colours.stale_target : rank_colour(first_rank(set, n), scene.palette);
      const bool multi = set.count() > 1 || by_lanes;
      const ImU32 ink = multi || stale ? to_imcol(colours.text, stale ? 0.55f : 1.0f)
                                       : (luminance(under) > 0.55f ? IM_COL32(10, 12, 16, 255) : IM_COL32(255, 255, 255, 255));
      const std::string label = fit_label(shown.labels[index], cell.w - 2 * pad);
      // Above the centre when the values take the bottom band; anywhere in a label-only cell.
      const float label_bottom = scene.values_as_text ? cell.centre().y - 1 : cell.bottom() - pad * 0.5f;
      if (!label.empty() && cell.y + pad + line < label_bottom) {
        const ImVec2 at(cell.x + pad, cell.y + pad * 0.6f);
        if (multi && !stale) {
          // Stripes underneath: put the sum on a small plate so it stays readable.
          const ImVec2 size = ImGui::CalcTextSize(label.c_str());
          dl->AddRectFilled(ImVec2(at.x - 2, at.y - 1), ImVec2(at.x + size.x + 2, at.y + size.y + 1),
                            to_imcol(colours.box_background, 0.82f), 3.0f);
        }
        dl->AddText(at, ink, label.c_str());
        drawn_labels_[index] = label;
      }
      const std::string& values = shown.values[index];
      if (scene.values_as_text && !values.empty()) {
        const ImVec2 size = ImGui::CalcTextSize(values.c_str());
        if (size.x <= cell.w - 2 * pad) {
          const float band_top = cell.bottom() - (line + 4.0f);
          dl->AddText(ImVec2(cell.x + (cell.w - size.x) * 0.5f, band_top + 2.0f),
                      stale ? to_imcol(colours.text, 0.5f) : IM_COL32(255, 255, 255, 255), values.c_str());
        }
      }
    }
  }
}

void RingView::draw_round_marks(const Scene& scene) const {
  ImDrawList* dl = scene.dl;
  const ViewColours& colours = scene.colours;
  const int n = scene.n;
  const float t = geometry_.grid ? 1.0f : 2.0f * scene.ui_scale;
  // The slot each GPU owns once its reduction is complete: outlined.
  if (op_reduces(scene.config.op) && n > 1 && !scene.tiny_cells) {
    for (int r = 0; r < n; ++r)
      for (int slot = 0; slot < n; ++slot) {
        const std::uint32_t flags = scene.shown.cells.flags(r, slot);
        if ((flags & kCellOwned) && (flags & kCellComplete)) {
          const Rect cell = geometry_.painted_cell(r, slot);
          dl->AddRect(to_imvec(cell.min()), to_imvec(cell.max()), to_imcol(colours.text), 0, 0, t);
        }
      }
  }
  // A pipelined wave marks its pieces instead (draw_pipeline): whole cells would flash for a slice.
  if (scene.round == nullptr || scene.tiny_cells || pipeline_.frame().pipelined) return;
  // While packets travel, mark the slots being sent; on arrival, the receiving slots react.
  const double flash = scene.moment.flash;
  for (const Transfer& transfer : scene.round->transfers) {
    if (scene.in_flight) {
      const Rect from = geometry_.painted_cell(transfer.src, transfer.source_slot());
      dl->AddRect(to_imvec(from.min()), to_imvec(from.max()), to_imcol(scene.phase_colour), 0, 0, t);
    } else if (flash > 0) {
      const Rect to = geometry_.painted_cell(transfer.dst, transfer.slot);
      if (transfer.kind == TransferKind::reduce)
        dl->AddRectFilled(to_imvec(to.min()), to_imvec(to.max()), to_imcol(colours.flash, static_cast<float>(0.7 * flash)));
      else
        // A copy just replaces the slot: a pulse of the phase colour around it, no flash.
        dl->AddRect(to_imvec(to.min()), to_imvec(to.max()), to_imcol(scene.phase_colour, static_cast<float>(flash)), 0,
                    0, t * 1.5f);
    }
  }
}

RingView::CellText RingView::cell_text(int n, float line) const {
  if (n > SessionModel::kMaxTextRanks) return CellText::none;
  if (geometry_.cell_height >= line * 2.6f) return CellText::label_and_values;
  if (geometry_.cell_height >= line * 2.1f && !pipeline_.frame().pipelined) return CellText::label;
  return CellText::none;
}

std::vector<Rect> RingView::text_zones(const Scene& scene) const {
  // Where the boxes draw text (draw_titles, draw_cell_text): each title with its plate, and
  // on text cells the label line at the top and the values band at the bottom.
  std::vector<Rect> zones;
  const float pad = 3.0f * scene.ui_scale;
  const bool text_cells = cell_text(scene.n, scene.line) != CellText::none;
  const float margin = 2.0f * scene.ui_scale;  // the title's plate (draw_titles)
  for (int r = 0; r < scene.n; ++r) {
    Rect title;
    if (!shown_title(r, scene.line, scene.language, title).empty())
      zones.push_back({title.x - margin, title.y - margin, title.w + 2 * margin, title.h + 2 * margin});
    if (!text_cells) continue;
    for (int slot = 0; slot < scene.slots; ++slot) {
      const Rect cell = geometry_.painted_cell(r, slot);
      zones.push_back({cell.x, cell.y, cell.w, pad * 0.6f + scene.line + 1.0f});
      if (scene.values_as_text) zones.push_back({cell.x, cell.bottom() - (scene.line + 4.0f), cell.w, scene.line + 4.0f});
    }
  }
  // The switch's title and the sums in its cells.
  if (scene.in_switch != nullptr) {
    zones.push_back(scene.in_switch->title);
    for (const Rect& cell : scene.in_switch->cells) zones.push_back(cell);
  }
  return zones;
}

std::pair<float, float> RingView::clear_stretch(const ArrowPath& arrow, Vec2 size) const {
  // Sampled along the arc: the first and last point where a packet of `size` centred there
  // touches no box (first > last when there is none).
  constexpr int kSamples = 64;
  float first = 1.0f, last = 0.0f;
  for (int i = 0; i <= kSamples; ++i) {
    const float t = static_cast<float>(i) / kSamples;
    const Vec2 at = arrow.at(t);
    const Rect packet{std::round(at.x - size.x * 0.5f) - 1.0f, std::round(at.y - size.y * 0.5f) - 1.0f, size.x + 2.0f,
                      size.y + 2.0f};
    const bool clear = std::none_of(geometry_.boxes.begin(), geometry_.boxes.end(),
                                    [&](const GpuBox& gpu) { return gpu.box.overlaps(packet); });
    if (!clear) continue;
    first = std::min(first, t);
    last = std::max(last, t);
  }
  return {first, last};
}

void RingView::draw_packets(const Scene& scene, const ShownState& before) const {
  ImDrawList* dl = scene.dl;
  const ViewColours& colours = scene.colours;
  const std::vector<Transfer>& transfers = scene.round->transfers;
  const int n = scene.n;
  const float line = scene.line, s = scene.ui_scale, head = scene.head;
  // Large text in small cells (presentation mode) leaves no room between a cell's label and
  // its values: a packet landing there would hide both. Such packets stay on the arc between
  // the boxes, no wider than a cell, with a smaller label (docs/architecture.md, "The GUI:
  // frame host, panels and views").
  const float free_middle = geometry_.cell_height - (3.0f * s * 0.6f + line) - (line + 4.0f);
  // At text size 1 a packet still lands on its cell, as the default frames show it. A cell with
  // the label line alone has no free middle at all: landing there would hide the label.
  const bool compact = !geometry_.grid &&
                       (scene.label_only ||
                        (scene.values_as_text && s > 1.0f &&
                         std::max(line + 8.0f * s, std::min(geometry_.cell_height * 0.4f, line * 2.2f)) > free_middle));
  const float compact_h = std::round(line * kCompactTextScale + 6.0f * s);
  const float compact_w = std::max(compact_h, geometry_.cell_width);
  std::vector<Rect> zones = text_zones(scene);
  // Transfers between GPUs that are not ring neighbours (on the ring drawn) get an arrow of
  // their own.
  const auto ring_path = [&](const Transfer& transfer) -> const ArrowPath* {
    if (scene.in_switch != nullptr) return nullptr;
    const ArrowPath* arrow = ring_arrow(geometry_, transfer.src, transfer.dst);
    return arrow != nullptr && (transfer.dst == (transfer.src + 1) % n || scene.counter_clockwise) ? arrow : nullptr;
  };
  std::vector<ArrowPath> across(transfers.size());
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& transfer = transfers[i];
    if (ring_path(transfer) != nullptr) continue;
    // Through the switch: from the sending cell into the switch, or out of it to the receiving
    // cell, along the spokes (drawn already).
    if (scene.in_switch != nullptr) {
      across[i] = switch_packet_path(*scene.in_switch, transfer, geometry_.painted_cell(transfer.src, transfer.slot).centre(),
                                     geometry_.painted_cell(transfer.dst, transfer.slot).centre());
      continue;
    }
    across[i] = transfer_path(geometry_, transfer.src, transfer.dst);
    draw_arrow(dl, across[i], to_imcol(scene.phase_colour, 0.75f), scene.thickness, head);
  }
  const PipelineShape shape = pipeline_shape_of(scene.session.schedule());
  for (const Transfer& transfer : transfers) {
    const std::size_t index = static_cast<std::size_t>(&transfer - transfers.data());
    const ArrowPath* on_ring = ring_path(transfer);
    const ArrowPath& arrow = on_ring != nullptr ? *on_ring : across[index];
    const float travel = static_cast<float>(scene.moment.travel);
    Vec2 at;
    if (geometry_.grid || scene.in_switch != nullptr) {
      at = arrow.at(travel);
    } else if (compact) {
      // Kept on the arc between the boxes, clear of every box (its title and cells) where the
      // arc leaves room; else far enough from the arc's ends not to reach a cell.
      const float margin = arrow.total() > 0 ? std::min(0.5f, compact_w * 0.5f / arrow.total()) : 0.5f;
      const auto [first, last] = clear_stretch(arrow, {compact_w, compact_h});
      at = arrow.at(first <= last ? std::clamp(travel, first, last) : std::clamp(travel, margin, 1.0f - margin));
    } else {
      // Big enough to follow: the packet leaves the sending cell, rides the arrow and
      // lands on the receiving cell.
      std::vector<Vec2> points{geometry_.painted_cell(transfer.src, transfer.source_slot()).centre()};
      points.insert(points.end(), arrow.points.begin(), arrow.points.end());
      points.push_back(geometry_.painted_cell(transfer.dst, transfer.slot).centre());
      at = make_path(std::move(points)).at(travel);
    }
    // A slot cut in lanes (the bidirectional ring's halves) sends one lane's piece: the packet
    // carries that piece's contributors, not the whole slot's.
    const bool one_piece = !shape.whole_slots();
    const int piece = shape.piece_of(transfer.step);
    // A half without elements moves 0 B: an empty packet, no contributors' colours or label
    // (as the pipeline's markers draw an empty piece).
    // The packet carries the sender's slot (AllToAll reads another slot than it writes).
    const int sent_slot = transfer.source_slot();
    const bool carries_nothing = one_piece && !before.provenance.piece_has_elements(sent_slot, piece);
    const RankSet set = carries_nothing ? RankSet{}
                        : one_piece     ? before.provenance.at(transfer.src, sent_slot, piece)
                                        : before.provenance.at(transfer.src, sent_slot);
    static const LabelForms kNoLabel;
    const LabelForms piece_forms = one_piece && !carries_nothing && !before.labels.empty()
                                       ? label_forms(scene.config, set, sent_slot, transfer.src)
                                       : LabelForms{};
    const LabelForms& forms = before.labels.empty() ? kNoLabel
                              : one_piece           ? piece_forms
                                                    : before.labels[static_cast<std::size_t>(transfer.src) *
                                                                        static_cast<std::size_t>(scene.slots) +
                                                                    static_cast<std::size_t>(sent_slot)];
    std::string label;
    float w, h;
    if (geometry_.grid) {
      w = h = std::max(3.0f, head * 1.2f);
    } else if (compact) {
      // The stripes already say which reduction's inputs ride along: "min(a0..c0)" may drop to "a0..c0".
      label = fit_label(forms, (compact_w - 6.0f * s) / kCompactTextScale, true);
      h = compact_h;
      w = compact_w;
    } else {
      // Big enough to follow across the view: about half a cell, and never below two lines.
      h = std::max(line + 8.0f * s, std::min(geometry_.cell_height * 0.4f, line * 2.2f));
      const float widest = std::max(line * 2.0f, geometry_.cell_width * 1.6f);
      label = fit_label(forms, widest - 6.0f * s);
      const float label_w = label.empty() ? 0.0f : ImGui::CalcTextSize(label.c_str()).x;
      w = std::clamp(std::max(label_w + 12.0f * s, geometry_.cell_width * 0.55f), line * 2.0f, widest);
    }
    const Rect packet{std::round(at.x - w * 0.5f), std::round(at.y - h * 0.5f), w, h};
    // A label that would cover a GPU's title, a cell's label or values, or another packet's
    // label is left out: the stripes still say whose values ride along.
    if (!label.empty()) {
      const float text_scale = compact ? kCompactTextScale : 1.0f;
      const ImVec2 whole = ImGui::CalcTextSize(label.c_str());
      const Rect text{packet.x + (w - whole.x * text_scale) * 0.5f - 2.0f, packet.y + (h - whole.y * text_scale) * 0.5f,
                      whole.x * text_scale + 4.0f, whole.y * text_scale};
      const bool covers = std::any_of(zones.begin(), zones.end(), [&](const Rect& zone) { return zone.overlaps(text); });
      if (covers) label.clear();
      else zones.push_back(text);
    }
    if (!carries_nothing) fill_stripes(dl, packet, set, n, scene.palette, geometry_.grid ? 0.0f : 3.0f * s);
    if (!scene.tiny_cells)
      dl->AddRect(to_imvec(packet.min()), to_imvec(packet.max()), to_imcol(colours.text, 0.9f),
                  geometry_.grid ? 0.0f : 3.0f * s, 0, geometry_.grid ? 1.0f : 1.5f * s);
    if (!label.empty()) {
      const float text_scale = compact ? kCompactTextScale : 1.0f;
      const ImVec2 whole = ImGui::CalcTextSize(label.c_str());
      const ImVec2 size(whole.x * text_scale, whole.y * text_scale);
      const ImVec2 p(packet.x + (w - size.x) * 0.5f, packet.y + (h - size.y) * 0.5f);
      const bool multi = set.count() > 1;
      if (multi)
        dl->AddRectFilled(ImVec2(p.x - 2, p.y), ImVec2(p.x + size.x + 2, p.y + size.y),
                          to_imcol(colours.box_background, 0.82f), 2.0f);
      const Rgb under = set.none() ? colours.box_background : rank_colour(first_rank(set, n), scene.palette);
      const ImU32 ink = multi ? to_imcol(colours.text)
                              : (luminance(under) > 0.55f ? IM_COL32(10, 12, 16, 255) : IM_COL32(255, 255, 255, 255));
      dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * text_scale, p, ink, label.c_str());
    }
  }
}

PipelineScene RingView::pipeline_scene(const Scene& scene) const {
  return {.dl = scene.dl, .colours = scene.colours, .palette = scene.palette, .geometry = geometry_,
          .schedule = scene.session.schedule(), .layout = scene.session.layout(), .config = scene.config,
          .moment = scene.moment, .n = scene.n, .line = scene.line, .ui_scale = scene.ui_scale,
          .counter_clockwise = scene.counter_clockwise, .in_switch = scene.in_switch, .language = scene.language};
}

void RingView::draw_piece_bars(const Scene& scene, bool text_cells) {
  // The pieces sit between the cell's label and its values (or heat strip), where lock-step
  // packets land.
  const float top = text_cells ? std::round(3.0f * scene.ui_scale * 0.6f + scene.line + 2.0f) : 2.0f;
  const float bottom = scene.values_as_text ? scene.line + 4.0f
                       : geometry_.cell_height >= 14.0f ? geometry_.cell_height * 0.36f
                                                        : 0.0f;
  pipeline_.draw_piece_bars(pipeline_scene(scene), scene.shown.provenance, top, bottom);
}

void RingView::draw_pipeline(const Scene& scene, SessionModel& model, const Rect& strip, bool text_cells) {
  const PipelineScene pipeline = pipeline_scene(scene);
  draw_piece_bars(scene, text_cells);
  pipeline_.draw_strip(pipeline, strip);
  if (scene.in_flight) pipeline_.draw_markers(pipeline, model.state_at(scene.moment.round - 1).provenance);
}

void RingView::draw_selection(const Scene& scene, int selected_gpu) const {
  if (selected_gpu < 0 || selected_gpu >= scene.n) return;
  const Rect& box = geometry_.boxes[static_cast<std::size_t>(selected_gpu)].box;
  const Rect ring{box.x - 3, box.y - 3, box.w + 6, box.h + 6};
  scene.dl->AddRect(to_imvec(ring.min()), to_imvec(ring.max()), to_imcol(scene.colours.selected_border),
                    scene.rounding + 2, 0, std::max(2.0f, 2.5f * scene.ui_scale));
}

void RingView::explain_cell_under_mouse(const Scene& scene, const Rect& area, int& selected_gpu) const {
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!ImGui::IsWindowHovered() || !area.contains({mouse.x, mouse.y})) return;
  const int n = scene.n;
  const ShownState& shown = scene.shown;
  for (int r = 0; r < n; ++r) {
    const GpuBox& gpu = geometry_.boxes[static_cast<std::size_t>(r)];
    if (!gpu.box.contains({mouse.x, mouse.y})) continue;
    if (ImGui::IsMouseClicked(0)) selected_gpu = selected_gpu == r ? kNoSelection : r;
    if (!gpu.cells.contains({mouse.x, mouse.y})) return;
    const int column = static_cast<int>((mouse.x - gpu.cells.x) / geometry_.cell_width);
    const int row = static_cast<int>((mouse.y - gpu.cells.y) / geometry_.cell_height);
    const int slot = row * geometry_.cell_columns + column;
    if (column >= geometry_.cell_columns || slot >= scene.slots) return;
    const RankSet& set = shown.provenance.at(r, slot);
    const std::uint32_t flags = shown.cells.flags(r, slot);
    const UiStrings& text = ui_strings_for(scene.language);
    ImGui::BeginTooltip();
    if (uneven_all_to_all(scene.config))
      ImGui::Text(text.cell_pair_tooltip, r, slot, slot / n, slot % n);
    else
      ImGui::Text(text.cell_tooltip, r, slot);
    const std::vector<RankSet> lanes = shown.provenance.lanes_at(r, slot);
    if (set.none() && lanes.size() < 2) {
      ImGui::TextUnformatted(text.cell_empty);
    } else if (!set.none()) {
      // Every term while the ring is small enough to print them in cells; ring runs beyond.
      const LabelForms forms = label_forms(scene.config, set, slot, r);
      ImGui::TextUnformatted(n <= SessionModel::kMaxTextRanks ? forms.terms.c_str() : forms.runs.c_str());
      ImGui::Text(text.cell_contributors, static_cast<int>(set.count()));
    }
    const bool pipelined = pipeline_.frame().pipelined;
    // Lock-step lanes (the bidirectional ring's halves): what each half holds, by its name.
    for (std::size_t lane = 0; !pipelined && lanes.size() > 1 && lane < lanes.size(); ++lane) {
      const std::string held = lanes[lane].none() ? text.cell_empty : reduction_label(scene.config, lanes[lane], slot, r);
      ImGui::Text(text.lane_tooltip, lane_name(scene.language, scene.config.algorithm, static_cast<int>(lane)).c_str(), held.c_str());
    }
    // Pipelined: each piece can be further along than the whole slot (the first eight).
    const int pieces = pipelined ? shown.provenance.pieces_per_slot() : 1;
    const int slices = std::max(1, scene.session.schedule().slices);
    for (int piece = 0; pieces > 1 && piece < std::min(pieces, 8); ++piece) {
      const RankSet& held = shown.provenance.at(r, slot, piece);
      const std::string label = !shown.provenance.piece_has_elements(slot, piece) ? text.piece_no_elements
                                : held.none()                                     ? text.cell_empty
                                                                                  : reduction_label(scene.config, held, slot, r);
      ImGui::Text(text.piece_tooltip, piece / slices, piece % slices, label.c_str());
    }
    ImGui::Text(text.cell_elements, static_cast<long long>(scene.session.layout()[slot].count));
    if (flags & kCellNoElements) ImGui::TextUnformatted(text.cell_no_elements);
    if ((flags & kCellOwned) && (flags & kCellComplete)) ImGui::TextUnformatted(text.cell_owned);
    if (flags & kCellStale) ImGui::TextUnformatted(format(text.cell_stale, partial_result(scene.language, scene.config.reduce)).c_str());
    const std::size_t index = static_cast<std::size_t>(r) * static_cast<std::size_t>(scene.slots) +
                              static_cast<std::size_t>(slot);
    if (index < shown.values.size() && !shown.values[index].empty())
      ImGui::TextUnformatted(shown.values[index].c_str());
    ImGui::EndTooltip();
    return;
  }
}

}  // namespace ringviz::gui
