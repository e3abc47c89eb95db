#include "app/gui/views/iteration/iteration_layout.h"

#include <string>

namespace ringviz::gui {

namespace {

nlohmann::json memory_json(const IterationMemory& m) {
  return {{"parameters", m.parameters}, {"gradients", m.gradients}, {"optimizer_states", m.optimizer_states},
          {"activations", m.activations}, {"logits", m.logits},     {"buffers", m.buffers},
          {"total", m.total()}};
}

}  // namespace

nlohmann::json memory_layout_json(MemoryView& view) {
  if (view.mode() == MemoryMode::model_states) return {{"mode", "model_states"}};
  IterationView& iteration = view.iteration();
  const IterationQuery& query = iteration.query();
  nlohmann::json json = {{"mode", "iteration"},
                         {"model", std::string(query.model.name)},
                         {"parameters", query.model.parameters},
                         {"seq", query.seq},
                         {"micro_batch", query.micro_batch},
                         {"recompute", std::string(recompute_name(query.recompute))},
                         {"offload", std::string(offload_name(query.offload))},
                         {"strategy", std::string(strategy_name(query.strategy))},
                         {"gpu_memory", query.gpu_memory_bytes},
                         {"accelerator", query.accelerator}};
  const IterationEstimate* estimate = iteration.estimate();
  if (estimate == nullptr) {
    json["error"] = iteration.error();
    return json;
  }
  const int moment = iteration.moment();
  const IterationEvent& now = estimate->timeline[static_cast<std::size_t>(moment)];
  nlohmann::json gpus = nlohmann::json::array();
  for (int g = 0; g < query.gpus; ++g) {
    nlohmann::json gpu = memory_json(now.memory);
    gpu["gpu"] = g;
    gpus.push_back(std::move(gpu));
  }
  // Events are counted from 1, as the stepper and `ringviz memory --format json` count them.
  json["moment"] = {{"event", moment + 1}, {"events", estimate->timeline.size()},
                    {"phase", std::string(iteration_phase_name(now.phase))}, {"layer", now.layer}};
  json["gpus"] = std::move(gpus);
  json["peak"] = {{"event", estimate->peak.event + 1},
                  {"cause", std::string(peak_cause_name(estimate->peak.cause))},
                  {"bytes", estimate->peak.memory.total()},
                  {"memory", memory_json(estimate->peak.memory)}};
  json["fits"] = estimate->fits;
  json["host_per_gpu"] = estimate->host_per_gpu;
  json["iteration_seconds"] = {{"total", estimate->time.total},
                               {"compute", estimate->time.compute},
                               {"recompute", estimate->time.recompute},
                               {"communication", estimate->time.exposed_communication},
                               {"offload", estimate->time.exposed_offload}};
  return json;
}

}  // namespace ringviz::gui
