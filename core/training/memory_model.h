#pragma once
// What each GPU must keep in memory for the model states (parameters, gradients, optimizer
// states) under DDP and the three ZeRO stages, and what it sends per training iteration.
// Plain data, so the CLI prints it and the GUI draws it from the same numbers.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/config.h"
#include "core/model/dtype.h"
#include "core/model/enum_table.h"
#include "core/model/reduce_op.h"

namespace ringviz {

// ddp: everything replicated. ZeRO stage k shards one more group per stage: 1 the optimizer
// states, 2 also the gradients, 3 also the parameters.
enum class Strategy { ddp, zero1, zero2, zero3 };
inline constexpr Strategy kAllStrategies[] = {Strategy::ddp, Strategy::zero1, Strategy::zero2,
                                              Strategy::zero3};
inline constexpr EnumName<Strategy> kStrategyNames[] = {
    {Strategy::ddp, "ddp", "", "", "DDP"},
    {Strategy::zero1, "zero1", "zero-1", "", "ZeRO-1"},
    {Strategy::zero2, "zero2", "zero-2", "", "ZeRO-2"},
    {Strategy::zero3, "zero3", "zero-3", "", "ZeRO-3"},
};

// How many bytes each parameter costs, per component (see convention_assumptions()).
//   paper:     mixed-precision AdamW as the ZeRO paper counts it (K = 12).
//   deepspeed: DeepSpeed's own estimator, which also keeps an fp32 copy of the gradients.
//   fp32:      no mixed precision: fp32 parameters and gradients, no master copy.
enum class MemoryConvention { paper, deepspeed, fp32 };
inline constexpr MemoryConvention kAllConventions[] = {
    MemoryConvention::paper, MemoryConvention::deepspeed, MemoryConvention::fp32};
inline constexpr EnumName<MemoryConvention> kConventionNames[] = {
    {MemoryConvention::paper, "paper", "", "mixed-precision AdamW, K = 12"},
    {MemoryConvention::deepspeed, "deepspeed", "", "DeepSpeed's estimator, adds fp32 gradients"},
    {MemoryConvention::fp32, "fp32", "", "no mixed precision"},
};

// The separate pieces of model state. fp32_gradients exists only under `deepspeed`;
// master_weights does not exist under `fp32` (the parameters are already fp32).
enum class StateComponent { parameters, gradients, fp32_gradients, master_weights, momentum, variance };
inline constexpr int kStateComponentCount = 6;
inline constexpr StateComponent kAllStateComponents[] = {
    StateComponent::parameters,     StateComponent::gradients, StateComponent::fp32_gradients,
    StateComponent::master_weights, StateComponent::momentum,  StateComponent::variance};
inline constexpr EnumName<StateComponent> kStateComponentNames[] = {
    {StateComponent::parameters, "parameters"}, {StateComponent::gradients, "gradients"},
    {StateComponent::fp32_gradients, "fp32_gradients"},
    {StateComponent::master_weights, "master_weights"}, {StateComponent::momentum, "momentum"},
    {StateComponent::variance, "variance"}};

// What ZeRO shards, one group more per stage: stage 1 the optimizer states, 2 also the
// gradients, 3 also the parameters (the ZeRO paper's P_os, P_os+g and P_os+g+p).
enum class StateGroup { optimizer_states, gradients, parameters };
// The fp32 gradient copy is the optimizer's input, so it belongs to the optimizer states.
StateGroup state_group(StateComponent component);
int first_sharding_stage(StateGroup group);  // 1, 2 or 3
// Whether each GPU keeps only its own shard of `group` under `strategy` (DDP: never).
bool shards(Strategy strategy, StateGroup group);

// GB = 10^9 bytes (the default everywhere), GiB = 2^30 bytes; bytes for small teaching models.
enum class ByteUnit { gb, gib, bytes };
inline constexpr EnumName<ByteUnit> kByteUnitNames[] = {
    {ByteUnit::gb, "gb", "GB", "10^9 bytes", "GB"},
    {ByteUnit::gib, "gib", "GiB", "2^30 bytes", "GiB"},
    {ByteUnit::bytes, "bytes", "b B"},
};

inline constexpr EnumNamer strategy_name{kStrategyNames};         // "ddp", "zero1" ...
inline constexpr EnumNamer strategy_title{kStrategyNames, true};   // "DDP", "ZeRO-1" ...
inline constexpr EnumNamer convention_name{kConventionNames};
inline constexpr EnumNamer component_name{kStateComponentNames};
inline constexpr EnumNamer unit_name{kByteUnitNames, true};        // "GB" | "GiB" | "bytes"
// One paragraph saying what the convention assumes (precisions, what is counted, what not).
std::string_view convention_assumptions(MemoryConvention convention);

// Each parser throws InputError naming `field` and the accepted values.
inline constexpr EnumParser parse_strategy{kStrategyNames, "strategy"};
inline constexpr EnumParser parse_convention{kConventionNames, "convention"};
inline constexpr EnumParser parse_unit{kByteUnitNames, "unit"};

// How one component is stored: bytes per parameter, and the first ZeRO stage that shards it
// (first_sharding_stage of its group).
struct ComponentRule {
  StateComponent component = StateComponent::parameters;
  int bytes_per_parameter = 0;
  int sharded_from_stage = 4;
};
// The components that exist under `convention`, in kAllStateComponents order.
std::vector<ComponentRule> component_rules(MemoryConvention convention);
int zero_stage(Strategy strategy);  // ddp 0, zero1 1, zero2 2, zero3 3
bool is_sharded(const ComponentRule& rule, Strategy strategy);

// Model-size presets (parameters) and GPU capacities (GB) offered by the GUI and the docs.
struct ModelPreset {
  std::string_view name;
  std::int64_t parameters;
  std::string_view source;
};
inline constexpr ModelPreset kModelPresets[] = {
    {"1.5B", 1'500'000'000, "GPT-2 XL scale"},
    {"7B", 7'000'000'000, "the source article's 7B model"},
    {"7.5B", 7'500'000'000, "the ZeRO paper, Figure 1"},
    {"13B", 13'000'000'000, "a 13B model"},
    {"70B", 70'000'000'000, "a 70B model"},
};
inline constexpr double kGpuCapacitiesGB[] = {24, 40, 80, 141};
inline constexpr int kMaxMemoryGpus = 1024;
// 100 trillion parameters: far past any real model, small enough that bytes fit in int64.
inline constexpr std::int64_t kMaxModelParameters = 100'000'000'000'000;

// Parses a parameter count: plain integers ("350000000"), or a decimal with K, M, B (or G)
// or T ("7B", "7.5B", "350M", "1.5B"). Throws InputError naming `field` when it is not a
// positive whole number of parameters or exceeds kMaxModelParameters.
std::int64_t parse_parameter_count(std::string_view text, std::string_view field = "params");
// "7B", "7.5B", "350M", "2563": a suffix where at most two decimals make it exact.
std::string format_parameter_count(std::int64_t parameters);

// Model-state bytes held by one GPU, per component.
struct ModelStateBytes {
  std::array<std::int64_t, kStateComponentCount> bytes{};

  std::int64_t& operator[](StateComponent c) { return bytes[static_cast<std::size_t>(c)]; }
  std::int64_t operator[](StateComponent c) const { return bytes[static_cast<std::size_t>(c)]; }
  std::int64_t parameters() const { return (*this)[StateComponent::parameters]; }
  // Working gradients plus, under `deepspeed`, their fp32 copy.
  std::int64_t gradients() const {
    return (*this)[StateComponent::gradients] + (*this)[StateComponent::fp32_gradients];
  }
  // fp32 master weights + momentum + variance (AdamW's state).
  std::int64_t optimizer_states() const {
    return (*this)[StateComponent::master_weights] + (*this)[StateComponent::momentum] +
           (*this)[StateComponent::variance];
  }
  std::int64_t total() const { return parameters() + gradients() + optimizer_states(); }
  bool operator==(const ModelStateBytes&) const = default;
};

// One collective of a training iteration, as ringviz's engine runs it.
struct CollectiveCall {
  std::string purpose;       // e.g. "all-reduce of the gradients"
  Op op = Op::allreduce;     // allgather = the all-gather pass over the shards (see ring_view)
  std::int64_t elements = 0; // the whole vector the ring covers (Ψ, or one bucket)
  DType dtype = DType::bf16;
  ReduceOp reduce = ReduceOp::avg;  // gradients are averaged; unused by all-gather

  // The config the ring view opens for this call on `ranks` GPUs. An all-gather of shards
  // becomes an AllGather whose per-GPU input is the largest shard (ceil(elements / N)),
  // because the engine's AllGather takes equal blocks.
  Config ring_view(int ranks, Order order) const;
};

// A collective and what it costs each GPU.
struct CommunicationCost {
  CollectiveCall call;
  std::vector<std::int64_t> bytes_sent;  // per GPU
};

struct MemoryQuery {
  std::int64_t parameters = 7'000'000'000;  // Ψ
  int gpus = 4;                             // N, 1 to kMaxMemoryGpus
  Strategy strategy = Strategy::ddp;
  MemoryConvention convention = MemoryConvention::paper;
  // Which shard each GPU owns (the ring reduce-scatter's owned slot); matters only when N
  // does not divide Ψ, where the first Ψ mod N shards are one element longer.
  Order order = Order::seed;
};

struct MemoryEstimate {
  MemoryQuery query;
  std::vector<ComponentRule> rules;        // the convention's components
  std::vector<std::int64_t> owned_elements;  // per GPU: parameters in its shard
  std::vector<ModelStateBytes> per_gpu;    // per GPU
  int largest_gpu = 0;                     // the GPU with the largest total (first on a tie)
  // The closed form: replicated_bpp·Ψ + sharded_bpp·Ψ/N, e.g. "2Ψ + 14Ψ/N".
  int replicated_bytes_per_parameter = 0;
  int sharded_bytes_per_parameter = 0;
  std::string formula;
  double formula_bytes = 0;  // the closed form evaluated (exact when N divides Ψ)
  // Per iteration: the collectives, and their sum per GPU.
  std::vector<CommunicationCost> communication;
  std::vector<std::int64_t> bytes_sent_per_gpu;

  const ModelStateBytes& largest() const { return per_gpu[static_cast<std::size_t>(largest_gpu)]; }
};

// Throws InputError (naming the field) for Ψ < 1, Ψ > kMaxModelParameters or N outside
// 1 to kMaxMemoryGpus.
void validate_memory_query(const MemoryQuery& query);
MemoryEstimate estimate_memory(const MemoryQuery& query);

// The element types a convention computes and communicates in.
DType gradient_dtype(MemoryConvention convention);   // bf16 (paper, deepspeed) or f32
DType parameter_dtype(MemoryConvention convention);  // bf16 (paper, deepspeed) or f32

// The collectives of one iteration over a vector of `elements` parameters:
//   ddp: all-reduce of the gradients; zero1, zero2: reduce-scatter of the gradients, then
//   all-gather of the updated parameters (the same volume as the all-reduce); zero3: the
//   parameters are all-gathered twice (forward and backward) plus the reduce-scatter (1.5x).
std::vector<CollectiveCall> iteration_collectives(Strategy strategy, MemoryConvention convention,
                                                  std::int64_t elements);
// What `call` costs each of `gpus` GPUs, from the engine's ring traffic.
CommunicationCost communication_cost(const CollectiveCall& call, int gpus, Order order);

// Bytes each GPU sends in `op`'s ring passes over `elements` elements: the engine's own
// Traffic when N <= kMaxRanks, the same per-slot count beyond (tested to agree).
std::vector<std::int64_t> ring_bytes_sent(Op op, std::int64_t elements, DType dtype, int gpus,
                                          Order order);

double unit_bytes(ByteUnit unit);  // 1e9, 2^30 or 1
double in_unit(double bytes, ByteUnit unit);
// "112.0 GB", "31.4 GB", "0.0123 GB": one decimal, or three significant digits below 0.1;
// whole numbers in bytes ("5126 bytes").
std::string format_bytes(double bytes, ByteUnit unit, bool with_unit = true);

}  // namespace ringviz
