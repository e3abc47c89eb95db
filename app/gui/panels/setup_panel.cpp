// The setup panel: every field of the Config, applied as soon as it changes.
#include "app/gui/panels/setup_panel.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "app/gui/text/op_label.h"
#include "app/gui/render/imgui_helpers.h"
#include "app/gui/render/theme.h"
#include "app/gui/text/strings.h"
#include "core/algorithms/registry.h"
#include "core/input/initial_values.h"
#include "core/schedule/pipeline.h"

namespace ringviz::gui {

namespace {

template <class E, std::size_t N, class Name>
bool enum_combo(const char* label, E& value, const E (&all)[N], Name name_of) {
  bool changed = false;
  if (ImGui::BeginCombo(label, name_of(value))) {
    for (E option : all) {
      const bool selected = option == value;
      if (ImGui::Selectable(name_of(option), selected) && !selected) {
        value = option;
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

// Rows of a custom table resized to `ranks` x `count`, new entries from the seed pattern.
std::vector<std::vector<ElementValue>> resized(std::vector<std::vector<ElementValue>> rows, int ranks,
                                               std::int64_t count) {
  rows.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    auto& row = rows[static_cast<std::size_t>(r)];
    const std::size_t old = row.size();
    row.resize(static_cast<std::size_t>(count));
    for (std::size_t i = old; i < row.size(); ++i) {
      const std::int64_t seed = seed_input_value(r, static_cast<std::int64_t>(i), count);
      row[i] = ElementValue{true, static_cast<double>(seed), seed};
    }
  }
  return rows;
}

// Lock-step rounds or the pipelined ring, and its slices and channels. The sliders cover what
// the ring view draws well (8 slices, 4 channels as lanes); Ctrl+click types up to the
// config's limits, and more channels get the ring view's channel selector.
// When the count leaves pieces without elements (count < GPUs x channels x slices), most
// transfers move 0 B: say so, and offer the smallest count that gives every piece an element.
bool draw_empty_pieces_notice(const UiStrings& t, Config& config, const Rgb& warning) {
  const PieceFill fill = piece_fill(config, pipeline_shape(config));
  if (!fill.any_empty()) return false;
  ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(warning));
  // An uneven AllToAll's splits size its blocks: no count fills them, so no button either.
  if (fill.count_to_fill == 0) {
    ImGui::TextWrapped(t.wave_empty_pieces_of_blocks, static_cast<long long>(fill.empty),
                       static_cast<long long>(fill.total));
    ImGui::PopStyleColor();
    return false;
  }
  ImGui::TextWrapped(t.pipeline_empty_notice, static_cast<long long>(fill.empty), static_cast<long long>(fill.total),
                     static_cast<long long>(config.count), static_cast<long long>(fill.count_to_fill));
  ImGui::PopStyleColor();
  if (!ImGui::Button(format(t.pipeline_fill_count, static_cast<long long>(fill.count_to_fill)).c_str())) return false;
  config.count = std::min<std::int64_t>(fill.count_to_fill, kMaxCount);
  return true;
}

bool draw_pipeline_fields(const UiStrings& t, Config& config, const Config& toggled, const Rgb& warning) {
  const bool pipelined = config.slices != 1 || config.channels != 1;
  bool changed = false;
  // The label and both choices on one line where the panel is wide enough, else the choices
  // on the next line (a narrow panel would cut "pipelined" at its edge).
  const ImGuiStyle& style = ImGui::GetStyle();
  auto choice_width = [&](const char* label) {
    return ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
  };
  const float row = ImGui::CalcTextSize(t.pipeline_mode).x + 2 * style.ItemSpacing.x +
                    choice_width(t.pipeline_lock_step) + choice_width(t.pipeline_pipelined);
  ImGui::TextUnformatted(t.pipeline_mode);
  if (row <= ImGui::GetContentRegionAvail().x) ImGui::SameLine();
  if (ImGui::RadioButton(t.pipeline_lock_step, !pipelined) && pipelined) {
    config = toggled;
    changed = true;
  }
  ImGui::SameLine();
  if (ImGui::RadioButton(t.pipeline_pipelined, pipelined) && !pipelined) {
    config = toggled;
    changed = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.pipeline_explained);
  if (!pipelined || changed) return changed;
  int slices = config.slices;
  if (ImGui::SliderInt(t.slices, &slices, 1, 8)) {
    config.slices = std::clamp(slices, 1, kMaxSlices);
    changed = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(t.slices_hint, kMaxSlices);
  int channels = config.channels;
  if (ImGui::SliderInt(t.channels, &channels, 1, 4)) {
    config.channels = std::clamp(channels, 1, kMaxChannels);
    changed = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip(t.channels_hint, kMaxChannels);
  changed |= draw_empty_pieces_notice(t, config, warning);
  return changed;
}

}  // namespace

void SetupPanel::accepted(const Config& config, BackendChoice backend) {
  error_.clear();
  draft_ = config;
  backend_ = backend;
  if (config.slices != 1 || config.channels != 1) {
    pipelined_slices_ = config.slices;
    pipelined_channels_ = config.channels;
  }
}

Config SetupPanel::with_pipeline_toggled(const Config& config) const {
  Config toggled = config;
  const bool pipelined = config.slices != 1 || config.channels != 1;
  toggled.slices = pipelined ? 1 : pipelined_slices_;
  toggled.channels = pipelined ? 1 : pipelined_channels_;
  return toggled;
}

void SetupPanel::draw(const Rect& area, const SessionModel& model, Preferences& preferences, Language language,
                      const SetupPanelHooks& hooks) {
  const UiStrings& t = ui_strings_for(language);
  begin_panel(t.setup_title, area);
  lines_.begin();
  const bool locked = hooks.header && hooks.header();
  lines_.mark();
  ImGui::BeginDisabled(locked);
  ImGui::PushItemWidth(std::round(ImGui::GetContentRegionAvail().x * 0.58f));
  Config config = draft_;
  bool changed = false;

  const Op ops[] = {Op::allgather, Op::reducescatter, Op::allreduce, Op::broadcast, Op::alltoall};
  changed |= enum_combo(t.operation, config.op, ops, [&](Op op) { return op_label(language, op); });
  if (config.op != draft_.op) {
    // An algorithm without the new op gives way to the first that has it, and an op that only
    // copies takes no reduction (validate() refuses one), rather than the click being refused.
    if (!algorithm_supports(config.algorithm, config.op))
      for (Algorithm option : kAllAlgorithms)
        if (algorithm_supports(option, config.op)) {
          config.algorithm = option;
          break;
        }
    if (config.op == Op::broadcast || config.op == Op::alltoall) config.reduce = ReduceOp::sum;
    // Only a broadcast has a source GPU; the other ops take root 0 alone (validate_fields).
    if (config.op != Op::broadcast) config.root = 0;
    config.splits.clear();  // uneven blocks belong to the AllToAll they came with
  }
  lines_.mark();
  // Every algorithm; those without a schedule for the operation are listed but disabled,
  // with the reason on hover, so the choice is visible rather than silently missing.
  auto algorithm_label = [&](Algorithm a) {
    const AlgorithmUnit& unit = algorithm_unit(a);
    return std::string(unit.menu_name.empty() ? unit.name : unit.menu_name.in(language));
  };
  if (ImGui::BeginCombo(t.algorithm, algorithm_label(config.algorithm).c_str())) {
    for (Algorithm option : kAllAlgorithms) {
      const bool supported = algorithm_supports(option, config.op);
      ImGui::BeginDisabled(!supported);
      if (ImGui::Selectable(algorithm_label(option).c_str(), option == config.algorithm) && option != config.algorithm) {
        config.algorithm = option;
        changed = true;
      }
      ImGui::EndDisabled();
      if (!supported && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", unsupported_op_message(option, config.op).value_or("").c_str());
    }
    ImGui::EndCombo();
  }
  if (algorithm_unit(config.algorithm).reduces_in_switch) {
    lines_.mark();
    hint_text(t.switch_algorithm_notice);
  }
  lines_.mark();
  const Order orders[] = {Order::seed, Order::nccl};
  changed |= enum_combo(t.order, config.order, orders,
                        [&](Order o) { return o == Order::seed ? t.order_seed : t.order_nccl; });
  lines_.mark();
  hint_text(t.order_explained);
  lines_.mark();

  int gpus = config.ranks;
  // The slider covers the usual 2..16; Ctrl+click types any value, clamped to 1..256 here.
  if (ImGui::SliderInt(t.gpus, &gpus, 2, 16)) {
    config.ranks = std::clamp(gpus, 1, kMaxRanks);
    changed |= config.ranks != draft_.ranks;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.gpus_hint);
  // Fewer GPUs than the root's number leave the last one as the root.
  config.root = std::min(config.root, config.ranks - 1);
  // Uneven splits (--splits, a job's all_to_all) are a table for their N GPUs: shown, with the
  // way back to even blocks; another GPU count starts even.
  if (config.ranks != draft_.ranks) config.splits.clear();
  if (uneven_all_to_all(config)) {
    lines_.mark();
    // Row by row with spaces between, so that a wrapped line breaks between rows.
    hint_text(format(t.splits_shown, splits_text(config, " / ", 8).c_str()).c_str());
    if (ImGui::SmallButton(t.splits_even)) {
      config.splits.clear();
      changed = true;
    }
  }
  if (config.op == Op::broadcast) {
    lines_.mark();
    int root = config.root;
    if (ImGui::SliderInt(t.root, &root, 0, config.ranks - 1)) {
      config.root = std::clamp(root, 0, config.ranks - 1);
      changed |= config.root != draft_.root;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.root_hint);
  }
  lines_.mark();
  std::int64_t count = config.count;
  const std::int64_t step = 1, fast_step = 64;
  // Typed counts apply on Enter (the +/- buttons at once): every keystroke of "1000000" would
  // otherwise rebuild the collective six times on the way.
  if (ImGui::InputScalar(t.count, ImGuiDataType_S64, &count, &step, &fast_step, "%lld",
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
    config.count = std::clamp<std::int64_t>(count, 0, kMaxCount);
    // A count below a GPU's share of the splits cannot hold it: the blocks go back to even.
    if (uneven_all_to_all(config) && largest_split_row(config) > config.count) config.splits.clear();
    changed = true;
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.count_hint);
  lines_.mark();
  changed |= enum_combo(t.dtype, config.dtype, kAllDTypes, [](DType d) { return dtype_name(d).data(); });
  lines_.mark();
  ImGui::BeginDisabled(!op_reduces(config.op));
  changed |= enum_combo(t.reduction, config.reduce, kAllReduceOps, [](ReduceOp o) { return reduce_op_name(o).data(); });
  ImGui::EndDisabled();
  if (!op_reduces(config.op) && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", t.reduction_unused);
  lines_.mark();

  changed |= draw_pipeline_fields(t, config, with_pipeline_toggled(config), view_colours(preferences.theme).warning);
  lines_.mark();

  // Input pattern.
  const bool table_fits = static_cast<std::int64_t>(config.ranks) * config.count <= kMaxTableValues;
  auto init_label = [&](InitKind kind) {
    switch (kind) {
      case InitKind::seed: return t.input_seed;
      case InitKind::rank: return t.input_rank;
      case InitKind::index: return t.input_index;
      case InitKind::random: return t.input_random;
      case InitKind::values: return t.input_custom;
      case InitKind::file: return t.input_file;
    }
    return "?";
  };
  if (ImGui::BeginCombo(t.input, init_label(config.init.kind))) {
    const InitKind kinds[] = {InitKind::seed, InitKind::rank, InitKind::index, InitKind::random, InitKind::values};
    for (InitKind kind : kinds) {
      if (kind == InitKind::values && !table_fits) continue;
      const bool selected = kind == config.init.kind;
      if (ImGui::Selectable(init_label(kind), selected) && !selected) {
        if (kind == InitKind::values) config.init.values = model.input_values();
        config.init.kind = kind;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  lines_.mark();
  switch (config.init.kind) {
    case InitKind::seed: hint_text(t.input_seed_explained); break;
    case InitKind::rank: hint_text(t.input_rank_explained); break;
    case InitKind::index: hint_text(t.input_index_explained); break;
    case InitKind::random: hint_text(t.input_random_explained); break;
    case InitKind::values: hint_text(t.input_custom_explained); break;
    case InitKind::file: hint_text(t.input_file_explained); break;
  }
  lines_.mark();
  if (config.init.kind == InitKind::random) {
    std::uint64_t seed = config.init.random_seed;
    const std::uint64_t one = 1;
    if (ImGui::InputScalar(t.random_seed, ImGuiDataType_U64, &seed, &one, nullptr, "%llu")) {
      config.init.random_seed = seed;
      changed = true;
    }
    lines_.mark();
  }
  if (config.init.kind == InitKind::values) {
    if (!table_fits) config.init.kind = InitKind::seed;  // the table can no longer be shown
    else config.init.values = resized(config.init.values, config.ranks, config.count);
  }
  ImGui::PopItemWidth();

  if (changed) hooks.apply(config, backend_);
  if (const auto edited = values_.draw(t, model, preferences.palette)) {
    Config custom = draft_;
    custom.init.kind = InitKind::values;
    custom.init.values = *edited;
    hooks.apply(custom, backend_);
    values_.reload();
  }
  lines_.mark();

  ImGui::Separator();
  ImGui::PushItemWidth(std::round(ImGui::GetContentRegionAvail().x * 0.58f));
  BackendChoice backend = backend_;
  const BackendChoice backends[] = {BackendChoice::automatic, BackendChoice::cpu, BackendChoice::cuda};
  if (enum_combo(t.backend, backend, backends, [](BackendChoice b) { return backend_choice_name(b).data(); }))
    hooks.apply(draft_, backend);
  lines_.mark();
  ImGui::Text(t.backend_in_use, model.backend_name().c_str());  // a fallback notice sits in the status bar
  lines_.mark();
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.35f, 0.35f, 1.0f));
    ImGui::TextWrapped(t.setup_rejected, error_.c_str());
    ImGui::PopStyleColor();
    lines_.mark();
  }
  ImGui::EndDisabled();

  ImGui::Separator();
  ImGui::TextUnformatted(t.view_section);
  lines_.mark();
  const ThemeKind themes[] = {ThemeKind::dark, ThemeKind::light, ThemeKind::high_contrast};
  if (enum_combo(t.theme, preferences.theme, themes, [&](ThemeKind k) {
        return k == ThemeKind::dark ? t.theme_dark : k == ThemeKind::light ? t.theme_light : t.theme_high_contrast;
      }))
    apply_imgui_theme(preferences.theme);
  lines_.mark();
  const PaletteKind palettes[] = {PaletteKind::standard, PaletteKind::colour_blind};
  enum_combo(t.palette, preferences.palette, palettes, [&](PaletteKind k) {
    return k == PaletteKind::standard ? t.palette_standard : t.palette_colour_blind;
  });
  lines_.mark();
  float text_scale = preferences.text_scale;
  // Applied on release: the font atlas is rebuilt for the new size between frames.
  ImGui::SliderFloat(t.text_size, &text_scale, 0.75f, 2.0f, "%.2fx");
  if (ImGui::IsItemDeactivatedAfterEdit() || (!ImGui::IsItemActive() && text_scale != preferences.text_scale))
    preferences.text_scale = text_scale;
  ImGui::PopItemWidth();
  lines_.mark();
  hooks.extension_settings();
  lines_.mark();
  lines_.end();
  ImGui::End();
}

}  // namespace ringviz::gui
