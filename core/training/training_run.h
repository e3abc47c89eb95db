#pragma once
// A real data-parallel training run: a small MLP trained on N simulated GPUs, each with its own
// mini-batches, with AdamW, synchronised through ringviz's own collectives on any Backend
// (CPU or CUDA). It shows with real numbers what the memory model predicts and why DDP and
// ZeRO-2 keep every GPU's parameters identical while training without synchronisation drifts.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine/backend.h"
#include "core/model/buffers.h"
#include "core/model/config.h"
#include "core/training/memory_model.h"
#include "core/training/training_math.h"

namespace ringviz {

// ddp: all-reduce of the gradients, every GPU updates every parameter.
// zero2: reduce-scatter of the gradients, each GPU keeps the gradient and optimizer state of
//        its own shard only and updates that shard, then the parameters are all-gathered.
// nosync: every GPU updates with its own gradients; nothing is exchanged.
enum class TrainStrategy { ddp, zero2, nosync };
inline constexpr TrainStrategy kAllTrainStrategies[] = {TrainStrategy::ddp, TrainStrategy::zero2,
                                                        TrainStrategy::nosync};
inline constexpr EnumName<TrainStrategy> kTrainStrategyNames[] = {
    {TrainStrategy::ddp, "ddp", "", "all-reduce"},
    {TrainStrategy::zero2, "zero2", "zero-2", "reduce-scatter, sharded AdamW, all-gather"},
    {TrainStrategy::nosync, "nosync", "", "no exchange"},
};
inline constexpr EnumNamer train_strategy_name{kTrainStrategyNames};
inline constexpr EnumParser parse_train_strategy{kTrainStrategyNames, "strategy"};

// The element types a run trains in: parameters and gradients (AdamW state stays fp32).
inline constexpr DType kTrainingDTypes[] = {DType::f32, DType::bf16};
bool trains_in(DType dtype);
std::string training_dtype_choices();  // "f32 or bf16"

inline constexpr int kMaxTrainingSteps = 100'000;
inline constexpr int kMaxBatchPerGpu = 65'536;

struct TrainingOptions {
  TrainStrategy strategy = TrainStrategy::ddp;
  int gpus = 4;
  // f32: parameters, gradients and optimizer states in fp32 (the memory model's `fp32`).
  // bf16: bf16 working parameters and gradients (reduced in bf16, as NCCL does), fp32 master
  // weights, momentum and variance (the memory model's `paper` convention).
  DType dtype = DType::f32;
  Order order = Order::seed;  // which slot (shard) each GPU owns after the reduce-scatter
  MlpShape model;
  int batch_per_gpu = 32;
  AdamWOptions adamw;
  std::uint64_t seed = 1;
};

// Throws InputError naming the field (gpus, dtype, batch, model, lr ...).
void validate_training_options(const TrainingOptions& options);

// The memory model's view of this run: Ψ = the MLP's parameter count, N = gpus, ddp and
// nosync as DDP, zero2 as ZeRO-2, f32 as `fp32` and bf16 as `paper`.
MemoryQuery memory_query_for(const TrainingOptions& options);

// What one step did, for printing and for loss and spread plots.
struct TrainingStepRecord {
  int step = 0;                      // 1-based
  std::vector<double> loss;          // per GPU, on its own mini-batch, before the update
  double mean_loss = 0;
  // Disagreement between GPUs after the update: the largest (max - min) over parameters, and
  // the root mean square of every parameter's deviation from its mean over GPUs.
  double parameter_spread = 0;
  double parameter_spread_rms = 0;
  std::vector<std::uint64_t> checksums;  // per GPU: FNV-1a of its parameter bytes after the step
  std::vector<std::int64_t> bytes_sent;  // per GPU, this step
};

// Steps a training run one iteration at a time. The backend is borrowed and must outlive the
// run; every collective goes through it.
class TrainingRun {
 public:
  TrainingRun(TrainingOptions options, Backend& backend);

  const TrainingOptions& options() const { return options_; }
  std::int64_t parameter_count() const { return options_.model.parameter_count(); }
  int steps_done() const { return static_cast<int>(history_.size()); }

  // One iteration: forward and backward on every GPU, synchronisation, AdamW, (ZeRO-2) the
  // parameter all-gather. Returns the step's record (also appended to history()).
  const TrainingStepRecord& step();

  const std::vector<TrainingStepRecord>& history() const { return history_; }
  // Model-state bytes each GPU held at the last optimizer step, measured from the sizes of
  // the buffers it really keeps (zero before the first step).
  const std::vector<ModelStateBytes>& held_at_optimizer_step() const { return held_; }
  // Bytes each GPU kept from forward to backward at the last step, per layer, measured from the
  // buffers loss_and_gradient really holds (empty before the first step).
  const std::vector<std::int64_t>& activation_bytes_per_layer() const { return activations_per_layer_; }
  // Each GPU's working parameters widened to float, and their raw bytes (f32 or bf16).
  std::vector<float> parameters(int gpu) const;
  const ByteBuffer& parameter_bytes(int gpu) const;
  // The element range of the flat parameter vector GPU `gpu` owns (its shard under zero2;
  // the whole vector otherwise).
  std::int64_t shard_offset(int gpu) const;
  std::int64_t shard_elements(int gpu) const;

 private:
  struct Gpu {
    ByteBuffer parameters;          // working parameters, all of them (options.dtype)
    std::vector<float> master;      // bf16 only: fp32 master weights of the owned range
    std::vector<float> momentum;    // owned range
    std::vector<float> variance;    // owned range
    ByteBuffer gradients;           // after synchronisation: the owned range (options.dtype)
  };

  void update(int gpu, int step_number);
  Config collective_config(Op op, ReduceOp reduce) const;

  TrainingOptions options_;
  Backend& backend_;
  std::vector<Gpu> gpus_;
  std::vector<std::int64_t> shard_offset_;
  std::vector<std::int64_t> shard_elements_;
  std::vector<ModelStateBytes> held_;
  std::vector<std::int64_t> activations_per_layer_;
  std::vector<TrainingStepRecord> history_;
};

std::uint64_t fnv1a64(const ByteBuffer& bytes);

}  // namespace ringviz
