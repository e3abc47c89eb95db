#pragma once
// The whole training iteration of a transformer on one data-parallel GPU: model states (the
// memory model's DDP / ZeRO figures, unchanged), activations and logits as the forward pass
// builds them and the backward pass frees them, gradient buckets and gathered parameters from
// the bucket model (core/training/training_timeline.h), optimizer offloading to host memory,
// and an estimate of the iteration's time. Plain data: the CLI prints it, the GUI's Memory tab
// draws and steps through it. The formulas are in docs/architecture.md, "The iteration model".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/enum_table.h"
#include "core/training/memory_model.h"
#include "core/training/training_math.h"
#include "core/training/training_timeline.h"
#include "core/training/transformer_presets.h"

namespace ringviz {

// What the backward pass gets back without storing it in forward (Korthikanti et al. 2022):
//   none:      every layer keeps all its activations;
//   selective: the attention scores, softmax and its dropout are recomputed;
//   full:      only each layer's input is kept; a layer's forward runs again in backward.
enum class Recompute { none, selective, full };
inline constexpr Recompute kAllRecomputes[] = {Recompute::none, Recompute::selective, Recompute::full};
inline constexpr EnumName<Recompute> kRecomputeNames[] = {
    {Recompute::none, "none", "", "keep every activation"},
    {Recompute::selective, "selective", "", "recompute attention scores"},
    {Recompute::full, "full", "", "keep layer inputs, rerun each layer's forward"},
};
inline constexpr EnumNamer recompute_name{kRecomputeNames};
inline constexpr EnumParser parse_recompute{kRecomputeNames, "recompute"};

// none: everything on the GPU. optimizer: ZeRO-Offload: fp32 master weights and Adam moments
// (and deepspeed's fp32 gradients) live in host memory, sharded as the strategy shards them;
// gradients go down over PCIe and the updated 16-bit parameters come back every step.
enum class Offload { none, optimizer };
inline constexpr Offload kAllOffloads[] = {Offload::none, Offload::optimizer};
inline constexpr EnumName<Offload> kOffloadNames[] = {
    {Offload::none, "none", "", "everything on the GPU"},
    {Offload::optimizer, "optimizer", "cpu", "ZeRO-Offload: optimizer states in host memory"},
};
inline constexpr EnumNamer offload_name{kOffloadNames};
inline constexpr EnumParser parse_offload{kOffloadNames, "offload"};

inline constexpr double kDefaultUtilisation = 0.40;
inline constexpr double kDefaultGpuMemoryBytes = 80e9;
inline constexpr int kGpusPerMachine = 8;  // an HGX / DGX node

struct IterationQuery {
  TransformerShape model = transformer_presets()[0];  // llama2-7b
  std::int64_t seq = 4096;        // s, tokens per sequence
  std::int64_t micro_batch = 1;   // b, sequences per GPU per iteration
  Recompute recompute = Recompute::none;
  Offload offload = Offload::none;
  int gpus = 8;                   // N
  Strategy strategy = Strategy::ddp;
  MemoryConvention convention = MemoryConvention::paper;
  Order order = Order::seed;
  double gpu_memory_bytes = kDefaultGpuMemoryBytes;
  std::string accelerator = "h100";  // a key of accelerator_presets()
  double utilisation = kDefaultUtilisation;  // of the accelerator's peak, (0, 1]
  std::string link = "nvlink4";      // a key of link_presets(): the data-parallel fabric
  std::int64_t bucket_bytes = kDefaultBucketBytes;  // gradient bucket (PyTorch's 25 MiB)
};

// Activation bytes of one transformer layer, 16-bit, no tensor parallelism
// (Korthikanti et al. 2022, Table 2), and of the logits.
struct ActivationBytes {
  std::int64_t full_layer = 0;       // s·b·h·(34 + 5·a·s/h) = 34·s·b·h + 5·a·s²·b
  std::int64_t stored_per_layer = 0; // what forward keeps per layer under the recompute mode
  std::int64_t recomputed = 0;       // full: one layer's full_layer rebuilt at a time in backward
  std::int64_t all_layers = 0;       // L · stored_per_layer
  std::int64_t logits = 0;           // fp32: 4·s·b·V
};
// Throws InputError naming "seq" when the counts overflow 64 bits.
ActivationBytes activation_bytes(const TransformerShape& model, std::int64_t seq,
                                 std::int64_t micro_batch, Recompute recompute);
// The same count for the small training run's MLP (core/training/training_math.h), which trains
// in fp32 arithmetic: each layer keeps its output until backward, the tanh outputs (b·hidden
// floats) and the predictions (b·outputs floats); the input is the batch itself.
std::vector<std::int64_t> mlp_activation_bytes(const MlpShape& shape, std::int64_t examples);
// "s·b·h·(34 + 5·a·s/h)", "34·s·b·h", "2·s·b·h + one layer's s·b·h·(34 + 5·a·s/h)".
std::string_view activation_formula(Recompute recompute);
// The caveat every output carries with the formulas.
inline constexpr std::string_view kActivationCaveat =
    "The 34 and 5 constants come from a GPT block (Korthikanti et al. 2022); for other blocks "
    "(SwiGLU MLPs, grouped-query attention) they are an approximation.";

// What one GPU holds at a moment, in bytes.
struct IterationMemory {
  std::int64_t parameters = 0;
  std::int64_t gradients = 0;         // incl. deepspeed's fp32 copy when on the GPU
  std::int64_t optimizer_states = 0;  // 0 on the GPU when offloaded
  std::int64_t activations = 0;       // stored layers + (full) the layer being recomputed
  std::int64_t logits = 0;
  std::int64_t buffers = 0;           // gradient buckets in flight, gathered ZeRO-3 parameters
  std::int64_t total() const {
    return parameters + gradients + optimizer_states + activations + logits + buffers;
  }
  bool operator==(const IterationMemory&) const = default;
};

// The moments of the iteration the stepper walks through: the sawtooth.
enum class IterationPhase { start, forward, loss, backward, optimizer_step, parameter_gather };
inline constexpr EnumName<IterationPhase> kIterationPhaseNames[] = {
    {IterationPhase::start, "start"},
    {IterationPhase::forward, "forward"},
    {IterationPhase::loss, "loss"},
    {IterationPhase::backward, "backward"},
    {IterationPhase::optimizer_step, "optimizer-step"},
    {IterationPhase::parameter_gather, "parameter-gather"}};
inline constexpr EnumNamer iteration_phase_name{kIterationPhaseNames};

struct IterationEvent {
  IterationPhase phase = IterationPhase::start;
  std::int64_t layer = 0;  // 1..L for forward and backward, 0 otherwise
  std::string label;       // "forward through layer 12 of 32"
  IterationMemory memory;  // the most the largest GPU holds during the event
  std::int64_t host = 0;   // host bytes for this GPU (offloading), constant over the iteration
};

// What the peak is made of, largest first: the front ends word it ("activations (30.1 GB) and
// logits (2.1 GB) on top of the model states").
enum class PeakCause { model_states, activations, logits, gradients, buffers };
inline constexpr EnumName<PeakCause> kPeakCauseNames[] = {
    {PeakCause::model_states, "model_states"}, {PeakCause::activations, "activations"},
    {PeakCause::logits, "logits"}, {PeakCause::gradients, "gradients"}, {PeakCause::buffers, "buffers"}};
inline constexpr EnumNamer peak_cause_name{kPeakCauseNames};

struct IterationPeak {
  int event = 0;            // index into IterationEstimate::timeline
  IterationMemory memory;   // = timeline[event].memory
  PeakCause cause = PeakCause::model_states;  // the largest part that comes and goes
  std::string description;  // "backward through layer 32 of 32: activations 30.1 GB, ..."
};

// Seconds per iteration, an estimate: compute at utilisation × peak FLOP/s, ring collectives
// priced by the α-β-γ cost model on `link`, PCIe at the accelerator's host link.
struct IterationTime {
  double model_flops = 0;      // 6·Ψ·tokens, tokens = s·b per GPU
  double recompute_flops = 0;  // full: 2·Ψ·tokens (a third more); selective: 4·b·s²·h·L
  double compute = 0;          // model_flops / (peak · utilisation)
  double recompute = 0;
  double communication = 0;          // every collective of the iteration, back to back
  double exposed_communication = 0;  // what compute does not hide
  double offload = 0;                // PCIe: gradients down + parameters up
  double exposed_offload = 0;
  double total = 0;  // compute + recompute + exposed_communication + exposed_offload
  // Which parts overlap: the clauses of `overlap`, so that other languages word the same facts
  // (core/training/training_words.h) rather than reading the English.
  bool gathers_ahead = false;      // ZeRO-3 gathers each layer's parameters ahead of it
  bool gather_after_step = false;  // an all-gather of the updated parameters follows the step, exposed
  bool offload_streams = false;    // gradients and parameters cross PCIe to and from the host
  std::string overlap;  // those clauses in one English sentence
};

struct IterationEstimate {
  IterationQuery query;
  MemoryEstimate model_states;  // the memory model's figures for Ψ, N, strategy, convention
  ActivationBytes activations;
  std::int64_t bucket_bytes = 0;  // the bucket the timeline used (larger than asked for huge Ψ)
  std::vector<IterationEvent> timeline;
  IterationPeak peak;
  // Offloading: host bytes per GPU and per machine (kGpusPerMachine or fewer GPUs), PCIe bytes
  // each GPU moves per iteration (down + up). All 0 without offloading.
  std::int64_t host_per_gpu = 0;
  std::int64_t host_per_machine = 0;
  std::int64_t pcie_bytes_per_gpu = 0;
  IterationTime time;
  bool fits = false;  // peak.memory.total() <= gpu_memory_bytes
};

// Throws InputError naming the field ("seq", "micro-batch", "layers", "hidden", "heads",
// "vocab", "params", "gpus", "utilisation", "gpu-memory", "accelerator", "link") for sizes below
// 1, an unknown preset, or totals that overflow 64 bits.
void validate_iteration_query(const IterationQuery& query);
IterationEstimate estimate_iteration(const IterationQuery& query);

}  // namespace ringviz
