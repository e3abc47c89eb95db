#pragma once
// The whole-iteration mode's three pictures, drawn with ImGui's draw list: the GPUs' stacked
// bars at one moment, the memory of every moment of the iteration (the sawtooth), and the time
// bar split into what the iteration spends its time on.
#include <vector>

#include <imgui.h>

#include "app/gui/layout/geometry.h"
#include "app/gui/render/theme.h"
#include "core/model/text.h"
#include "core/training/iteration_model.h"

namespace ringviz::gui {

// Bottom to top: what stays for the whole iteration first, then what comes and goes.
enum class IterationPart { parameters, optimizer_states, gradients, activations, logits, buffers };
inline constexpr IterationPart kIterationParts[] = {IterationPart::parameters, IterationPart::optimizer_states,
                                                    IterationPart::gradients,  IterationPart::activations,
                                                    IterationPart::logits,     IterationPart::buffers};
std::int64_t part_bytes(const IterationMemory& memory, IterationPart part);
Rgb part_colour(IterationPart part, ThemeKind theme);
const char* part_name(IterationPart part, Language language);

struct IterationPlotStyle {
  ThemeKind theme = ThemeKind::dark;
  PaletteKind palette = PaletteKind::standard;
  float scale = 1.0f;
  Language language = Language::en;
};

// One bar per GPU holding `memory`, the GPU memory as a dashed line, GB on the axis and above
// each bar. `y_max` is the top of the axis in bytes.
void draw_gpu_bars(ImDrawList* dl, const Rect& area, const IterationMemory& memory, int gpus, double capacity,
                   double y_max, const IterationPlotStyle& style);
// Every event's memory as a stacked column, the GPU memory line, the peak (a triangle) and the
// moment shown (a vertical bar). Returns the event under a click or drag, or -1.
int draw_sawtooth(ImDrawList* dl, const Rect& area, const IterationEstimate& estimate, int moment,
                  const IterationPlotStyle& style);
// The iteration's estimated seconds as one bar: compute, recompute, exposed communication,
// exposed offload, each with its seconds in the legend below. Returns the height it takes;
// with a null `dl` it only measures.
float draw_time_bar(ImDrawList* dl, const Rect& area, const IterationTime& time, const IterationPlotStyle& style);
// One bar per strategy (its peak per GPU), all on one scale with the GPU memory marked, the
// strategy on screen outlined: DDP against ZeRO-1/2/3 for the same transformer and run.
// Returns the height it takes; with a null `dl` it only measures.
struct StrategyPeak {
  Strategy strategy = Strategy::ddp;
  std::int64_t peak = 0;  // 0: the model refused this strategy for the query
};
float draw_strategy_peaks(ImDrawList* dl, const Rect& area, const std::vector<StrategyPeak>& peaks, double capacity,
                          Strategy shown, const IterationPlotStyle& style);
// The legend of the parts, left to right from `at`; returns the height it takes (it wraps).
// With a null `dl` it only measures.
float draw_part_legend(ImDrawList* dl, ImVec2 at, float width, const IterationPlotStyle& style);

}  // namespace ringviz::gui
