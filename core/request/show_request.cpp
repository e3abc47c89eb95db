#include "core/request/show_request.h"

#include "core/algorithms/registry.h"
#include "core/input/initial_values.h"
#include "core/topology/topology_kinds.h"
#include "core/training/transformer_presets.h"

namespace ringviz {

CollectivePlan validate_show_request(const ShowRequest& request) {
  check_initial_values(request.config);  // a bad --init file is bad input (exit 2), not a failed start
  CollectivePlan plan(request.config);   // so are more pipelined transfers (--slices x --channels) than a schedule may hold
  if (!request.memory_model.empty()) find_transformer_preset(request.memory_model, "--memory-model");
  if (topology_kind_of(request.compare_topology).empty()) {
    std::string kinds;
    for (const std::string& kind : topology_kinds()) kinds += (kinds.empty() ? "" : " | ") + kind;
    throw InputError("--compare-topology: unknown topology '" + request.compare_topology + "' (expected " + kinds +
                     "; the GPU count follows --gpus)");
  }
  return plan;
}

}  // namespace ringviz
