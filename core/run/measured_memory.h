#pragma once
// What one rank of a real training step held, term by term, as `ringviz_torch.measure(...)`
// measured it (docs/job-format.md, "Measured memory"): model states by tensor storage,
// activations saved for backward per layer, what checkpointing rebuilt, and the peak. The job
// document carries it; core/job/memory_comparison.h sets the memory model's figures beside it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/training/activation_model.h"
#include "core/training/memory_model.h"

namespace ringviz {

// The model as the formulas see it: a GPT block (dropout or none) of these sizes.
struct MeasuredShape {
  std::int64_t parameters = 0;  // Ψ, distinct storages
  std::int64_t layers = 0, hidden = 0, heads = 0, ffn = 0, vocab = 0;
  std::int64_t seq = 0, micro_batch = 0;
  bool dropout = true;
};

// Bytes an element of each kind took in the job (the CPU job: 4, 4, 4 and 1).
struct MeasuredElementBytes {
  int parameters = 4, gradients = 4, activations = 4, masks = 1;
};

struct MeasuredTerms {
  std::int64_t parameters = 0;
  std::int64_t gradients = 0;
  std::int64_t optimizer_states = 0;         // per-parameter state tensors (Adam: momentum, variance)
  std::int64_t optimizer_step_counters = 0;  // the scalar ones (Adam's step)
  std::int64_t optimizer_parameter_tensors = 0;  // how many parameter tensors have optimizer state
  std::int64_t largest_parameter_tensor = 0;     // elements: ZeroRedundancyOptimizer shards by tensor
  std::vector<std::int64_t> activations_per_layer;  // saved in forward
  std::vector<std::int64_t> recomputed_per_layer;   // saved again in backward (checkpointing)
  std::int64_t outside_layers = 0;  // embedding, final norm, head, loss
  std::int64_t activations_peak = 0;
};

struct MeasuredMemory {
  int rank = 0;
  std::string label;  // "DDP, recompute none"
  Strategy strategy = Strategy::ddp;  // ddp or zero1 (ZeroRedundancyOptimizer)
  Recompute recompute = Recompute::none;
  int world_size = 1;
  MeasuredShape shape;
  MeasuredElementBytes element_bytes;
  MeasuredTerms measured;
};

}  // namespace ringviz
