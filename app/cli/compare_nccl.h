#pragma once
// `ringviz compare`'s "what NCCL would do" line (docs/nccl-model.md): NCCL's algorithm,
// protocol, channels, time and bandwidths for the asked size and, with --sweep, every size;
// --nccl-algo and --protocol pin a choice as NCCL_ALGO and NCCL_PROTO do.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/text.h"
#include "core/nccl/nccl_tuner.h"
#include "core/training/cost_model.h"

namespace ringviz::cli {

struct NcclAnswer {
  bool modelled = false;  // false: the op is one the model does not cover
  NcclMachine machine;
  NcclPins pins;
  NcclPrediction at_count;
  std::vector<NcclPrediction> sweep;  // parallel to CostComparison::sweep_bytes
};

// Reads --nccl-algo and --protocol ("" when not given); InputError naming the flag otherwise.
NcclPins nccl_pins(const std::string& algorithm, const std::string& protocol);
// `channels` 0: NCCL's own; `bandwidth_gbs`: --bandwidth-gbs, which replaces the link's figure.
NcclAnswer nccl_answer(const CostComparison& comparison, const NcclPins& pins, int channels,
                       std::optional<double> bandwidth_gbs);
void print_nccl_line(const NcclAnswer& answer, const CostComparison& comparison, Language language);
nlohmann::json nccl_json(const NcclAnswer& answer);

}  // namespace ringviz::cli
