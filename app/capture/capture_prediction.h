#pragma once
// The NCCL model's prediction (docs/nccl-model.md) that `ringviz capture` prints beside what it
// measured: in the capture document's `prediction` block and in the --iters table's columns.
#include <cstdint>
#include <optional>
#include <string>

#include "core/model/config.h"
#include "core/model/text.h"
#include "core/nccl/nccl_tuner.h"
#include "core/topology/topology.h"
#include "core/trace/capture_record.h"

namespace ringviz::capture {

// NCCL's pick for `config`'s collective (op, GPUs, count, dtype) on `assumed`; nullopt for an op
// the model does not cover or one GPU.
std::optional<CapturePrediction> capture_prediction(const Config& config, const Topology& assumed);
// The same for nccl-tests' size `size_bytes` of `op`, as the --iters table's rows need it.
std::optional<NcclPrediction> iteration_prediction(Op op, const Topology& assumed, std::int64_t size_bytes);

}  // namespace ringviz::capture
