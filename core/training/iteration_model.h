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
#include "core/training/activation_model.h"
#include "core/training/memory_model.h"
#include "core/training/training_math.h"
#include "core/training/training_timeline.h"
#include "core/training/transformer_presets.h"

namespace ringviz {

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
  // Tensor parallelism over t GPUs of a machine (Megatron-LM): each layer's weights split t ways,
  // the data-parallel group is gpus / t. With sp the norms and dropouts split the sequence too.
  int tp = 1;
  bool sp = false;
  Attention attention = Attention::eager;  // eager keeps Korthikanti's published s² term
  Block block = Block::gpt;                // gpt keeps Korthikanti's published constants
  std::string tp_link = "nvlink4";         // the tensor-parallel group's fabric
};

// The activation count's query for an iteration query (16-bit, its t, SP, attention, block).
ActivationQuery activation_query(const IterationQuery& query);

// The same count for the small training run's MLP (core/training/training_math.h), which trains
// in fp32 arithmetic: each layer keeps its output until backward, the tanh outputs (b·hidden
// floats) and the predictions (b·outputs floats); the input is the batch itself.
std::vector<std::int64_t> mlp_activation_bytes(const MlpShape& shape, std::int64_t examples);
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
  double tensor_parallel = 0;        // TP's per-layer collectives: on the critical path, all exposed
  double offload = 0;                // PCIe: gradients down + parameters up
  double exposed_offload = 0;
  double total = 0;  // compute + recompute + exposed_communication + tensor_parallel + exposed_offload
  // Which parts overlap: the clauses of `overlap`, so that other languages word the same facts
  // (core/training/training_words.h) rather than reading the English.
  bool gathers_ahead = false;      // ZeRO-3 gathers each layer's parameters ahead of it
  bool gather_after_step = false;  // an all-gather of the updated parameters follows the step, exposed
  bool offload_streams = false;    // gradients and parameters cross PCIe to and from the host
  std::string overlap;  // those clauses in one English sentence
};

// The collectives tensor parallelism adds (Korthikanti et al. 2022, section 4.2): per layer an
// AllReduce after the attention and one after the MLP in forward, their conjugates in backward
// (four AllReduces of s·b·h 16-bit elements); with SP each AllReduce becomes an AllGather
// before and a ReduceScatter after (the same bytes). Full recomputation reruns the forward's
// two in backward.
struct TensorParallelTraffic {
  int collectives_per_layer = 0;      // 4 AllReduces, or 8 with SP (4 AllGathers + 4 ReduceScatters)
  std::int64_t elements = 0;          // s·b·h per collective (the whole tensor, before splitting)
  std::int64_t bytes_sent_per_gpu = 0;  // the ring's bytes over the iteration, every layer
  std::string collectives;            // "4 all-reduce per layer" / "4 all-gather + 4 reduce-scatter per layer"
};

// DeepSpeed's own estimators, exactly as they compute (deepspeed/runtime/zero: stage_1_and_2's
// estimate_zero2_model_states_mem_needs, stage3's estimate_zero3_model_states_mem_needs), for
// Ψ/t parameters on gpus/t data-parallel GPUs in machines of kGpusPerMachine:
//   ZeRO-1/2:          GPU 2Ψ + 18Ψ/N;  offloaded: GPU 2Ψ, host Ψ·max(4·N, 16)·1.5 per machine
//   ZeRO-3:            GPU 4·largest + 18Ψ/N;  offloaded: GPU 4·largest + 2Ψ/N, host Ψ·16/nodes·1.5
// (largest: the parameters of the largest module; 1.5: their additional_buffer_factor). DDP has
// no estimator there. Model states only, like the estimators.
struct DeepSpeedEstimate {
  bool exists = false;
  std::int64_t largest_layer_parameters = 0;
  std::int64_t gpu_bytes = 0;
  std::int64_t host_bytes_per_machine = 0;  // 0 without offloading
  std::string formula;  // "4·largest + 18Ψ/N"
};
DeepSpeedEstimate deepspeed_estimate(const IterationQuery& query);
inline constexpr double kDeepSpeedBufferFactor = 1.5;

struct IterationEstimate {
  IterationQuery query;
  int data_parallel = 0;  // gpus / tp: the group ZeRO shards over and DDP reduces over
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
  TensorParallelTraffic tensor_parallel;
  std::int64_t data_parallel_bytes_sent = 0;  // the data-parallel collectives, per GPU
  DeepSpeedEstimate deepspeed;                // with --convention deepspeed
  IterationTime time;
  bool fits = false;  // peak.memory.total() <= gpu_memory_bytes
};

// Throws InputError naming the field ("seq", "micro-batch", "layers", "hidden", "heads",
// "vocab", "params", "gpus", "utilisation", "gpu-memory", "accelerator", "link", "tp", "sp") for
// sizes below 1, an unknown preset, a tensor-parallel group that does not divide the GPUs, the
// heads or the key/value heads, SP without TP, or totals that overflow 64 bits.
void validate_iteration_query(const IterationQuery& query);
IterationEstimate estimate_iteration(const IterationQuery& query);

}  // namespace ringviz
