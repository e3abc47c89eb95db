#include "app/capture/capture_prediction.h"

#include "core/nccl/nccl_choice.h"
#include "core/schedule/bus_bandwidth.h"

namespace ringviz::capture {

std::optional<NcclPrediction> iteration_prediction(Op op, const Topology& assumed, std::int64_t size_bytes) {
  return nccl_prediction_beside(nccl_machine(assumed), op, size_bytes);
}

std::optional<CapturePrediction> capture_prediction(const Config& config, const Topology& assumed) {
  const std::optional<NcclPrediction> model = iteration_prediction(
      config.op, assumed, nccl_tests_size_bytes(config.op, config.count, config.dtype, config.ranks));
  if (!model) return std::nullopt;
  return CapturePrediction{assumed.key,
                           assumed.label,
                           std::string(nccl_algorithm_title(model->algorithm)),
                           std::string(nccl_protocol_name(model->protocol)),
                           model->channels,
                           model->seconds * 1e6,
                           model->busbw / 1e9};
}

}  // namespace ringviz::capture
