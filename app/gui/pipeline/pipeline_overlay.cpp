#include "app/gui/pipeline/pipeline_overlay.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/render/rank_stripes.h"
#include "app/gui/text/op_label.h"
#include "app/gui/text/strings.h"

namespace ringviz::gui {

namespace {

Rgb phase_colour(const ViewColours& colours, Phase phase) {
  return phase == Phase::reduce_scatter ? colours.phase_reduce_scatter : colours.phase_all_gather;
}

Phase phase_of_round(const Schedule& schedule, int round) {
  const std::size_t index = static_cast<std::size_t>(round);
  return index < schedule.round_phases.size() ? schedule.round_phases[index] : Phase::reduce_scatter;
}

// "Wave 5 of 9: 3 slices in flight on every busy link; the pipeline is full". When pieces hold
// no elements the stage words would flatter a pipeline that carries 0 B, so the caption counts
// only slices with elements and says how many pieces are empty instead.
std::string wave_caption(const WaveSummary& summary, const PieceFill& fill, std::int64_t count, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const int plural = summary.in_flight == 1 ? 0 : 1;
  if (!fill.any_empty()) {
    const std::string in_flight = format(t.wave_in_flight[plural], summary.in_flight);
    return format(t.wave_title, summary.wave, summary.waves, in_flight.c_str(),
                  t.wave_stages[static_cast<int>(summary.stage)]);
  }
  const std::string in_flight = summary.stage == WaveStage::idle
                                    ? std::string(t.wave_stages[static_cast<int>(WaveStage::idle)])
                                    : format(t.wave_in_flight_with_elements[plural], summary.in_flight);
  const std::string empty = format(t.wave_empty_pieces, static_cast<long long>(fill.empty),
                                   static_cast<long long>(fill.total), static_cast<long long>(count),
                                   static_cast<long long>(fill.count_to_fill));
  return format(t.wave_title, summary.wave, summary.waves, in_flight.c_str(), empty.c_str());
}

// "channel 3", or with the algorithm's own lanes "channel 3, counter-clockwise": the channel's
// direction, not only its number.
std::string channel_name(const Schedule& schedule, const Config& config, int channel, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const PipelineShape shape = pipeline_shape_of(schedule);
  if (shape.lanes <= 1) return format(t.channel_number, channel);
  return format(t.channel_number_lane, channel, lane_name(language, config.algorithm, shape.lane_of({channel, 0, 0})).c_str());
}

// Room for "channel 15", or for a lane's name after it.
float combo_width(const Schedule& schedule, float line) {
  return std::round(line * (pipeline_shape_of(schedule).lanes > 1 ? 14.0f : 7.0f));
}

}  // namespace

void PipelineOverlay::begin(const Schedule& schedule) {
  frame_ = {};
  frame_.pipelined = is_pipelined(schedule);
  frame_.channels = schedule.channels;
  frame_.slices = schedule.slices;
  frame_.channel_shown = channel_shown(schedule.channels);
}

int PipelineOverlay::channel_shown(int channels) const {
  return channels > kMaxChannelLanes ? std::clamp(selected_channel_, 0, channels - 1) : kAllChannels;
}

float PipelineOverlay::caption_width(const Schedule& schedule, float width, float line, Language language) {
  if (schedule.channels <= kMaxChannelLanes) return width;
  const float combo_w = combo_width(schedule, line);
  const float label_w = ImGui::CalcTextSize(ui_strings_for(language).channel_shown).x + ImGui::GetStyle().ItemInnerSpacing.x;
  const float selector_x = width - combo_w - label_w;
  return selector_x > 0 ? selector_x - line : width;
}

float PipelineOverlay::strip_height(const Schedule& schedule, const SlotLayout& layout, const Config& config,
                                    float width, float line, Language language) {
  const StripQuestion question{&schedule, schedule.round_count(), config.ranks, config.channels, config.slices,
                               config.count, width, line, language};
  if (question == strip_question_) return strip_height_;
  const PieceFill fill = piece_fill(config, pipeline_shape_of(schedule));
  const float wrap = std::max(1.0f, caption_width(schedule, width, line, language));
  float text_h = line;
  for (int round = 1; round <= schedule.round_count() && text_h < line * kMaxStripLines; ++round) {
    const std::string caption = wave_caption(summarise_wave(schedule, layout, round), fill, config.count, language);
    text_h = std::max(text_h, ImGui::CalcTextSize(caption.c_str(), nullptr, false, wrap).y);
  }
  strip_question_ = question;
  strip_height_ = std::min(text_h, line * kMaxStripLines) + line * 0.6f;
  return strip_height_;
}

void PipelineOverlay::draw_strip(const PipelineScene& scene, const Rect& strip) {
  const UiStrings& t = ui_strings_for(scene.language);
  float caption_right = strip.x + caption_width(scene.schedule, strip.w, scene.line, scene.language);
  if (scene.schedule.channels > kMaxChannelLanes) {
    // One channel at a time: lanes for all of them would not fit beside a link.
    const float combo_w = combo_width(scene.schedule, scene.line);
    const float label_w = ImGui::CalcTextSize(t.channel_shown).x + ImGui::GetStyle().ItemInnerSpacing.x;
    const float x = strip.right() - combo_w - label_w;
    if (x > strip.x) {
      ImGui::SetCursorScreenPos(ImVec2(x, strip.y));
      ImGui::SetNextItemWidth(combo_w);
      int shown = channel_shown(scene.schedule.channels);
      const std::string current = channel_name(scene.schedule, scene.config, shown, scene.language);
      if (ImGui::BeginCombo(t.channel_shown, current.c_str())) {
        for (int c = 0; c < scene.schedule.channels; ++c)
          if (ImGui::Selectable(channel_name(scene.schedule, scene.config, c, scene.language).c_str(), c == shown)) shown = c;
        ImGui::EndCombo();
      }
      selected_channel_ = shown;
      frame_.channel_shown = shown;
    }
  }
  frame_.fill = piece_fill(scene.config, pipeline_shape_of(scene.schedule));
  if (scene.moment.round < 1) return;
  frame_.summary = summarise_wave(scene.schedule, scene.layout, scene.moment.round);
  const WaveSummary& summary = frame_.summary;
  const Rgb colour = summary.reduce_scatter == summary.all_gather ? scene.colours.text
                     : summary.reduce_scatter                     ? scene.colours.phase_reduce_scatter
                                                                  : scene.colours.phase_all_gather;
  const std::string caption = wave_caption(summary, frame_.fill, scene.config.count, scene.language);
  // Wrapped to the strip, which strip_height() made tall enough for it (up to kMaxStripLines).
  const float wrap = std::max(1.0f, caption_right - strip.x);
  const float text_h = ImGui::CalcTextSize(caption.c_str(), nullptr, false, wrap).y;
  scene.dl->PushClipRect(to_imvec(strip.min()), ImVec2(caption_right, strip.bottom()), true);
  scene.dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                    ImVec2(strip.x, strip.y + std::max(0.0f, (strip.h - text_h) * 0.5f)), to_imcol(colour),
                    caption.c_str(), nullptr, wrap);
  scene.dl->PopClipRect();
}

void PipelineOverlay::draw_markers(const PipelineScene& scene, const Provenance& before) {
  const float s = scene.ui_scale;
  const float size = scene.geometry.grid ? std::max(4.0f, scene.line * 0.5f) : std::round(scene.line * 1.3f);
  frame_.markers = place_markers(scene.geometry, scene.schedule, scene.moment.round, frame_.channel_shown,
                                 static_cast<float>(scene.moment.travel), size, scene.counter_clockwise,
                                 scene.in_switch);
  const int slices = std::max(1, scene.schedule.slices);
  for (const PipelineMarker& marker : frame_.markers) {
    const Rect& box = marker.box;
    const RankSet& set = before.at(marker.src, marker.source_slot, marker.channel * slices + marker.slice);
    // A rim in the phase of the slice's own round (one wave can carry both), as a filled
    // rectangle under the stripes: hundreds of anti-aliased outlines cost a software
    // rasteriser far more than plain quads.
    const float rim = box.w >= 8 ? std::round(1.5f * s) : 1.0f;
    const ImU32 rim_colour = to_imcol(phase_colour(scene.colours, phase_of_round(scene.schedule, marker.round)));
    const int piece = marker.channel * slices + marker.slice;
    if (!before.piece_has_elements(marker.slot, piece)) {
      // A piece without elements moves 0 B: an empty frame, no contributors' colours.
      scene.dl->AddRect(ImVec2(box.x - rim * 0.5f, box.y - rim * 0.5f),
                        ImVec2(box.right() + rim * 0.5f, box.bottom() + rim * 0.5f), rim_colour, 0.0f, 0, rim);
      continue;
    }
    scene.dl->AddRectFilled(ImVec2(box.x - rim, box.y - rim), ImVec2(box.right() + rim, box.bottom() + rim), rim_colour);
    // Stripes thinner than two pixels blur into noise: then the first rank's colour alone.
    fill_stripes(scene.dl, box, set, scene.n, scene.palette, 0.0f, static_cast<std::size_t>(std::max(1.0f, box.w / 2)));
    if (box.h < scene.line * 0.95f) continue;
    // The slice's number, from 0 like slots and GPUs.
    const std::string label = std::to_string(marker.slice);
    const ImVec2 text = ImGui::CalcTextSize(label.c_str());
    if (text.x > box.w - 2) continue;
    const ImVec2 at(std::round(box.x + (box.w - text.x) * 0.5f), std::round(box.y + (box.h - text.y) * 0.5f));
    const bool multi = set.count() > 1;
    if (multi)
      scene.dl->AddRectFilled(ImVec2(at.x - 1, at.y), ImVec2(at.x + text.x + 1, at.y + text.y),
                              to_imcol(scene.colours.box_background, 0.82f));
    const Rgb under = set.none() ? scene.colours.box_background : rank_colour(first_rank(set, scene.n), scene.palette);
    const ImU32 ink = multi || set.none() ? to_imcol(scene.colours.text)
                      : luminance(under) > 0.55f ? IM_COL32(10, 12, 16, 255)
                                                 : IM_COL32(255, 255, 255, 255);
    scene.dl->AddText(at, ink, label.c_str());
  }
}

void PipelineOverlay::draw_piece_bars(const PipelineScene& scene, const Provenance& shown, float top,
                                      float bottom) {
  const RingGeometry& geometry = scene.geometry;
  const int n = scene.n;
  frame_.bars = piece_bars(geometry, shown.pieces_per_slot(), top, bottom, scene.line, scene.ui_scale);
  const PieceBars& bars = frame_.bars;
  if (!bars.drawn) return;
  // Every rank its own band when the bands stay two pixels tall; else a level, as full as the
  // share of ranks folded in.
  const bool bands = bars.height / static_cast<float>(n) >= 2.0f;
  const float bar_w = bars.segment * static_cast<float>(bars.pieces) - bars.gap;
  ImDrawList* dl = scene.dl;
  for (int r = 0; r < n; ++r)
    for (int slot = 0; slot < geometry.slots; ++slot) {
      const Rect first = piece_rect(geometry, bars, r, slot, 0);
      dl->AddRectFilled(ImVec2(first.x - 1, first.y - 1), ImVec2(first.x + bar_w + 1, first.bottom() + 1),
                        to_imcol(scene.colours.view_background, 0.9f));
      for (int piece = 0; piece < bars.pieces; ++piece) {
        const RankSet& set = shown.at(r, slot, piece);
        const Rect part = piece_rect(geometry, bars, r, slot, piece);
        if (!shown.piece_has_elements(slot, piece)) {
          // Nothing to fold: an outline only, so that an empty piece never looks like a held sum.
          dl->AddRect(to_imvec(part.min()), to_imvec(part.max()), to_imcol(scene.colours.text, 0.35f));
          continue;
        }
        if (set.none()) continue;
        if (!bands) {
          const float level = part.h * static_cast<float>(set.count()) / static_cast<float>(n);
          dl->AddRectFilled(ImVec2(part.x, part.bottom() - level), to_imvec(part.max()),
                            to_imcol(rank_colour(first_rank(set, n), scene.palette)));
          continue;
        }
        const float band = part.h / static_cast<float>(n);
        for (int k = 0; k < n; ++k)
          if (set.test(static_cast<std::size_t>(k)))
            dl->AddRectFilled(ImVec2(part.x, part.y + band * static_cast<float>(k)),
                              ImVec2(part.right(), part.y + band * static_cast<float>(k + 1)),
                              to_imcol(rank_colour(k, scene.palette)));
      }
    }
  // On arrival the pieces the wave wrote light up, the way whole cells do in lock-step.
  const RoundMoment& moment = scene.moment;
  if (moment.in_flight || moment.flash <= 0 || moment.round < 1 || moment.round > scene.schedule.round_count()) return;
  const int slices = std::max(1, scene.schedule.slices);
  for (const Transfer& transfer : scene.schedule.rounds[static_cast<std::size_t>(moment.round - 1)].transfers) {
    const Rect part =
        piece_rect(geometry, bars, transfer.dst, transfer.slot, transfer.step.channel * slices + transfer.step.slice);
    dl->AddRect(ImVec2(part.x - 1, part.y - 1), ImVec2(part.right() + 1, part.bottom() + 1),
                to_imcol(scene.colours.flash, static_cast<float>(moment.flash)), 0.0f, 0, 1.5f * scene.ui_scale);
  }
}

}  // namespace ringviz::gui
