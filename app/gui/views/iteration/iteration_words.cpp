#include "app/gui/views/iteration/iteration_words.h"

#include "app/gui/render/imgui_helpers.h"
#include "app/gui/text/strings.h"
#include "app/gui/plots/centre_view_draw.h"

namespace ringviz::gui {

namespace {

const char* cause_label(const UiStrings& t, PeakCause cause) {
  switch (cause) {
    case PeakCause::model_states: return t.memory_model_states;
    case PeakCause::activations: return t.iteration_activations;
    case PeakCause::logits: return t.iteration_logits;
    case PeakCause::gradients: return t.memory_gradients;
    case PeakCause::buffers: return t.iteration_buffers;
  }
  return "?";
}

std::int64_t cause_bytes(const IterationMemory& m, PeakCause cause) {
  switch (cause) {
    case PeakCause::model_states: return m.parameters + m.gradients + m.optimizer_states;
    case PeakCause::activations: return m.activations;
    case PeakCause::logits: return m.logits;
    case PeakCause::gradients: return m.gradients;
    case PeakCause::buffers: return m.buffers;
  }
  return 0;
}

}  // namespace

std::string iteration_gb(double bytes) { return format_bytes(bytes, ByteUnit::gb); }

std::string iteration_seconds(double seconds) {
  if (seconds <= 0) return "0 s";
  if (seconds >= 1) return format("%.2f s", seconds);
  if (seconds >= 1e-3) return format("%.0f ms", seconds * 1e3);
  return format("%.0f us", seconds * 1e6);
}

std::string iteration_event_text(const IterationEstimate& estimate, int event, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const IterationEvent& e = estimate.timeline.at(static_cast<std::size_t>(event));
  const auto layer = static_cast<long long>(e.layer);
  const auto layers = static_cast<long long>(estimate.query.model.layers);
  switch (e.phase) {
    case IterationPhase::start: return t.iteration_event_start;
    case IterationPhase::forward: return format(t.iteration_event_forward, layer, layers);
    case IterationPhase::loss: return t.iteration_event_loss;
    case IterationPhase::backward:
      return format(estimate.query.recompute == Recompute::full ? t.iteration_event_rerun : t.iteration_event_backward,
                    layer, layers);
    case IterationPhase::optimizer_step:
      return estimate.query.offload == Offload::optimizer ? t.iteration_event_step_host : t.iteration_event_step;
    case IterationPhase::parameter_gather: return t.iteration_event_gather;
  }
  return e.label;
}

std::string iteration_peak_text(const IterationEstimate& estimate, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const IterationPeak& peak = estimate.peak;
  const IterationMemory& m = peak.memory;
  // The cause sits on top of the weights and optimizer states, and of the gradients backward
  // has made so far unless they are the cause: never "model states" for a sum that may lack
  // the gradients, which would read as the optimizer step's larger figure.
  const std::string cause = iteration_gb(static_cast<double>(cause_bytes(m, peak.cause)));
  const std::string held = iteration_gb(static_cast<double>(m.parameters + m.optimizer_states));
  const bool gradients_too = peak.cause != PeakCause::gradients && m.gradients > 0;
  const std::string what =
      peak.cause == PeakCause::model_states
          ? format(t.iteration_peak_states_only, iteration_gb(static_cast<double>(m.total())).c_str())
      : gradients_too ? format(t.iteration_peak_cause_and_gradients, cause_label(t, peak.cause), cause.c_str(),
                               iteration_gb(static_cast<double>(m.gradients)).c_str(), held.c_str())
                      : format(t.iteration_peak_cause, cause_label(t, peak.cause), cause.c_str(), held.c_str());
  return format(t.iteration_peak, iteration_gb(static_cast<double>(m.total())).c_str(),
                iteration_event_text(estimate, peak.event, language).c_str(), what.c_str());
}

std::string iteration_fit_text(const IterationEstimate& estimate, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const double capacity = estimate.query.gpu_memory_bytes;
  const double peak = static_cast<double>(estimate.peak.memory.total());
  const std::string capacity_text = format(t.memory_capacity_item, capacity / 1e9);  // "80 GB"
  return estimate.fits ? format(t.iteration_fits, capacity_text.c_str(), iteration_gb(capacity - peak).c_str())
                       : format(t.iteration_does_not_fit, capacity_text.c_str(), iteration_gb(peak - capacity).c_str());
}

std::string iteration_audience_summary(const IterationQuery& query, Language language) {
  const UiStrings& t = ui_strings_for(language);
  const bool custom = query.model.name == kCustomModelName;
  return format(t.iteration_audience_summary, custom ? t.iteration_custom : std::string(query.model.name).c_str(),
                format_parameter_count(query.model.parameters).c_str(), std::string(strategy_title(query.strategy)).c_str(),
                query.gpus, iteration_gb(query.gpu_memory_bytes).c_str(), static_cast<long long>(query.seq),
                static_cast<long long>(query.micro_batch), t.iteration_recompute_names[static_cast<std::size_t>(query.recompute)],
                t.iteration_offload_names[static_cast<std::size_t>(query.offload)], query.tp, query.sp ? " + SP" : "",
                t.iteration_attention_names[static_cast<std::size_t>(query.attention)]);
}

}  // namespace ringviz::gui
