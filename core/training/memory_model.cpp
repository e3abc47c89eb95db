#include "core/training/memory_model.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/engine/collective.h"
#include "core/model/layout.h"
#include "core/schedule/schedule.h"
#include "core/engine/traffic.h"

namespace ringviz {

static_assert(spellings_are_unique(kStrategyNames) && lists_exactly(kStrategyNames, kAllStrategies));
static_assert(spellings_are_unique(kConventionNames) && lists_exactly(kConventionNames, kAllConventions));
static_assert(spellings_are_unique(kStateComponentNames) &&
              lists_exactly(kStateComponentNames, kAllStateComponents));
static_assert(spellings_are_unique(kByteUnitNames));

std::string_view convention_assumptions(MemoryConvention convention) {
  switch (convention) {
    case MemoryConvention::paper:
      return "paper: mixed-precision AdamW as the ZeRO paper counts it. Parameters and "
             "gradients in 16-bit floats (2 bytes each); the optimizer keeps an fp32 master "
             "copy of the weights, fp32 momentum and fp32 variance (4 bytes each, K = 12). "
             "DDP holds 16 bytes per parameter on every GPU. Activations, communication "
             "buffers and fragmentation are not counted.";
    case MemoryConvention::deepspeed:
      return "deepspeed: DeepSpeed's own ZeRO estimator. As paper, plus an fp32 copy of the "
             "gradients (4 bytes per parameter) that the optimizer reads, sharded with the "
             "optimizer states: ZeRO-2 is 2 + 18/N bytes per parameter. The same accounting "
             "is applied to DDP, ZeRO-1 and ZeRO-3, so ZeRO-3 here is 20Ψ/N; DeepSpeed's own ZeRO-3 "
             "estimator is 18Ψ/N plus 4 bytes for each parameter of the largest layer (gathered "
             "whole), which `--model` prints beside this table. Activations are not counted.";
    case MemoryConvention::fp32:
      return "fp32: no mixed precision. Parameters and gradients in fp32 (4 bytes each), "
             "AdamW momentum and variance in fp32 (4 bytes each), no master copy: 16 bytes per "
             "parameter under DDP, as with paper, but split differently, so ZeRO saves less. "
             "Activations are not counted.";
  }
  return "";
}

StateGroup state_group(StateComponent component) {
  switch (component) {
    case StateComponent::parameters: return StateGroup::parameters;
    case StateComponent::gradients: return StateGroup::gradients;
    default: return StateGroup::optimizer_states;
  }
}

int first_sharding_stage(StateGroup group) { return static_cast<int>(group) + 1; }

bool shards(Strategy strategy, StateGroup group) {
  return zero_stage(strategy) >= first_sharding_stage(group);
}

std::vector<ComponentRule> component_rules(MemoryConvention convention) {
  // What each component costs per parameter under `convention`; 0: it does not exist there.
  const auto bytes = [convention](StateComponent component) {
    const bool mixed_precision = convention != MemoryConvention::fp32;
    switch (component) {
      case StateComponent::parameters:
      case StateComponent::gradients: return mixed_precision ? 2 : 4;
      case StateComponent::fp32_gradients: return convention == MemoryConvention::deepspeed ? 4 : 0;
      case StateComponent::master_weights: return mixed_precision ? 4 : 0;
      case StateComponent::momentum:
      case StateComponent::variance: return 4;
    }
    return 0;
  };
  std::vector<ComponentRule> rules;
  for (StateComponent component : kAllStateComponents)
    if (bytes(component) > 0)
      rules.push_back({component, bytes(component), first_sharding_stage(state_group(component))});
  return rules;
}

int zero_stage(Strategy strategy) {
  switch (strategy) {
    case Strategy::ddp: return 0;
    case Strategy::zero1: return 1;
    case Strategy::zero2: return 2;
    case Strategy::zero3: return 3;
  }
  return 0;
}

bool is_sharded(const ComponentRule& rule, Strategy strategy) {
  return shards(strategy, state_group(rule.component));
}

DType gradient_dtype(MemoryConvention convention) {
  return convention == MemoryConvention::fp32 ? DType::f32 : DType::bf16;
}

DType parameter_dtype(MemoryConvention convention) { return gradient_dtype(convention); }

std::int64_t parse_parameter_count(std::string_view text, std::string_view field) {
  const auto fail = [&](std::string_view why) -> std::int64_t {
    throw InputError(std::string(field) + ": '" + std::string(text) + "' " + std::string(why));
  };
  if (text.empty()) return fail("is empty; give a parameter count such as 7B, 350M or 2563");
  if (text[0] == '-') return fail("must be a positive number of parameters");
  // Exact decimal arithmetic: "7.5B" must be 7'500'000'000, not a rounded double.
  std::int64_t scale = 1;
  std::string_view number = text;
  switch (text.back()) {
    case 'K': case 'k': scale = 1'000; break;
    case 'M': case 'm': scale = 1'000'000; break;
    case 'B': case 'b': case 'G': case 'g': scale = 1'000'000'000; break;
    case 'T': case 't': scale = 1'000'000'000'000; break;
    default: break;
  }
  if (scale != 1) number.remove_suffix(1);
  const std::size_t point = number.find('.');
  const std::string_view whole = number.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? "" : number.substr(point + 1);
  const auto all_digits = [](std::string_view s) {
    for (char c : s)
      if (c < '0' || c > '9') return false;
    return true;
  };
  if (whole.empty() && fraction.empty()) return fail("is not a number of parameters (try 7B, 350M or 2563)");
  if (!all_digits(whole) || !all_digits(fraction) ||
      (point != std::string_view::npos && fraction.empty()))
    return fail("is not a number of parameters (try 7B, 7.5B, 350M or 2563)");
  if (whole.size() > 15) return fail("is too large (at most 100T parameters)");
  std::int64_t value = 0;
  for (char c : whole) value = value * 10 + (c - '0');
  if (value > kMaxModelParameters / scale) return fail("is too large (at most 100T parameters)");
  value *= scale;
  std::int64_t place = scale;
  for (char c : fraction) {
    if (place % 10 != 0) {
      if (c != '0') return fail("is not a whole number of parameters");
      continue;
    }
    place /= 10;
    value += (c - '0') * place;
  }
  if (value < 1) return fail("must be at least 1 parameter");
  if (value > kMaxModelParameters) return fail("is too large (at most 100T parameters)");
  return value;
}

std::string format_parameter_count(std::int64_t parameters) {
  struct Suffix {
    std::int64_t scale;
    char letter;
  };
  for (const Suffix suffix : {Suffix{1'000'000'000'000, 'T'}, Suffix{1'000'000'000, 'B'},
                              Suffix{1'000'000, 'M'}, Suffix{1'000, 'K'}}) {
    if (parameters < suffix.scale) continue;
    // A suffix only where at most two decimals make it exact; otherwise the plain integer.
    for (std::int64_t digits = 0, divisor = suffix.scale; digits <= 2; ++digits, divisor /= 10) {
      if (parameters % divisor != 0) continue;
      const std::int64_t whole = parameters / suffix.scale;
      std::string text = std::to_string(whole);
      if (digits > 0) {
        std::string fraction = std::to_string(parameters % suffix.scale / divisor);
        fraction.insert(0, static_cast<std::size_t>(digits) - fraction.size(), '0');
        text += "." + fraction;
      }
      return text + suffix.letter;
    }
    break;
  }
  return std::to_string(parameters);
}

void validate_memory_query(const MemoryQuery& query) {
  if (query.parameters < 1 || query.parameters > kMaxModelParameters)
    throw InputError("params: " + std::to_string(query.parameters) +
                     " is out of range (1 to 100T parameters)");
  if (query.gpus < 1 || query.gpus > kMaxMemoryGpus)
    throw InputError("gpus: " + std::to_string(query.gpus) + " is out of range (1 to " +
                     std::to_string(kMaxMemoryGpus) + ")");
}

std::vector<std::int64_t> ring_bytes_sent(Op op, std::int64_t elements, DType dtype, int gpus,
                                          Order order) {
  const auto element_bytes = static_cast<std::int64_t>(dtype_size(dtype));
  std::vector<std::int64_t> sent(static_cast<std::size_t>(gpus), 0);
  // The all-gather of shards is the second pass of an AllReduce over the same slots.
  const Op engine_op = op == Op::allgather ? Op::allreduce : op;
  const auto wanted = [op](Phase phase) {
    if (op == Op::allgather) return phase == Phase::all_gather;
    if (op == Op::reducescatter) return phase == Phase::reduce_scatter;
    return true;
  };
  if (gpus <= kMaxRanks) {
    const Config config{.op = engine_op, .order = order, .ranks = gpus, .count = elements, .dtype = dtype};
    const SlotLayout layout = make_layout(config);
    const Schedule schedule = make_schedule(config);
    const Traffic traffic = compute_traffic(schedule, layout, dtype, gpus);
    for (std::size_t round = 0; round < schedule.rounds.size(); ++round)
      if (wanted(schedule.rounds[round].phase))
        for (std::size_t rank = 0; rank < sent.size(); ++rank) sent[rank] += traffic.sent[round][rank];
    return sent;
  }
  const SlotLayout layout = make_layout(engine_op, gpus, elements);
  for (int rank = 0; rank < gpus; ++rank)
    for (Phase phase : {Phase::reduce_scatter, Phase::all_gather})
      if (wanted(phase))
        sent[static_cast<std::size_t>(rank)] +=
            ring_pass_bytes_sent(layout, order, phase, rank, element_bytes);
  return sent;
}

Config CollectiveCall::ring_view(int ranks, Order order) const {
  Config config;
  config.op = op;
  config.order = order;
  config.ranks = ranks;
  config.dtype = dtype;
  config.reduce = op == Op::allgather ? ReduceOp::sum : reduce;
  config.count = op == Op::allgather ? (elements + ranks - 1) / ranks : elements;
  return config;
}

std::vector<CollectiveCall> iteration_collectives(Strategy strategy, MemoryConvention convention,
                                                  std::int64_t elements) {
  const DType grads = gradient_dtype(convention);
  const DType params = parameter_dtype(convention);
  const auto call = [&](std::string purpose, Op op, DType dtype) {
    return CollectiveCall{std::move(purpose), op, elements, dtype, ReduceOp::avg};
  };
  switch (strategy) {
    case Strategy::ddp:
      return {call("all-reduce of the gradients", Op::allreduce, grads)};
    case Strategy::zero1:
    case Strategy::zero2:
      return {call("reduce-scatter of the gradients", Op::reducescatter, grads),
              call("all-gather of the updated parameters", Op::allgather, params)};
    case Strategy::zero3:
      return {call("all-gather of the parameters for the forward pass", Op::allgather, params),
              call("all-gather of the parameters for the backward pass", Op::allgather, params),
              call("reduce-scatter of the gradients", Op::reducescatter, grads)};
  }
  return {};
}

CommunicationCost communication_cost(const CollectiveCall& call, int gpus, Order order) {
  return {call, ring_bytes_sent(call.op, call.elements, call.dtype, gpus, order)};
}

MemoryEstimate estimate_memory(const MemoryQuery& query) {
  validate_memory_query(query);
  MemoryEstimate estimate;
  estimate.query = query;
  estimate.rules = component_rules(query.convention);
  const int n = query.gpus;
  const SlotLayout shards = make_layout(Op::reducescatter, n, query.parameters);
  for (int gpu = 0; gpu < n; ++gpu) {
    const std::int64_t owned = shards[ring_owned_slot(query.order, gpu, n)].count;
    estimate.owned_elements.push_back(owned);
    ModelStateBytes bytes;
    for (const ComponentRule& rule : estimate.rules)
      bytes[rule.component] =
          rule.bytes_per_parameter * (is_sharded(rule, query.strategy) ? owned : query.parameters);
    estimate.per_gpu.push_back(bytes);
    if (bytes.total() > estimate.largest().total()) estimate.largest_gpu = gpu;
  }
  for (const ComponentRule& rule : estimate.rules)
    (is_sharded(rule, query.strategy) ? estimate.sharded_bytes_per_parameter
                                      : estimate.replicated_bytes_per_parameter) +=
        rule.bytes_per_parameter;
  const int replicated = estimate.replicated_bytes_per_parameter;
  const int sharded = estimate.sharded_bytes_per_parameter;
  if (sharded == 0)
    estimate.formula = std::to_string(replicated) + "Ψ";
  else if (replicated == 0)
    estimate.formula = std::to_string(sharded) + "Ψ/N";
  else
    estimate.formula = std::to_string(replicated) + "Ψ + " + std::to_string(sharded) + "Ψ/N";
  const auto psi = static_cast<double>(query.parameters);
  estimate.formula_bytes = replicated * psi + sharded * psi / n;

  estimate.bytes_sent_per_gpu.assign(static_cast<std::size_t>(n), 0);
  for (const CollectiveCall& call :
       iteration_collectives(query.strategy, query.convention, query.parameters)) {
    estimate.communication.push_back(communication_cost(call, n, query.order));
    const auto& sent = estimate.communication.back().bytes_sent;
    for (std::size_t gpu = 0; gpu < sent.size(); ++gpu) estimate.bytes_sent_per_gpu[gpu] += sent[gpu];
  }
  return estimate;
}

double unit_bytes(ByteUnit unit) {
  switch (unit) {
    case ByteUnit::gb: return 1e9;
    case ByteUnit::gib: return 1073741824.0;
    case ByteUnit::bytes: return 1.0;
  }
  return 1.0;
}

double in_unit(double bytes, ByteUnit unit) { return bytes / unit_bytes(unit); }

std::string format_bytes(double bytes, ByteUnit unit, bool with_unit) {
  const double value = in_unit(bytes, unit);
  char text[64];
  if (unit == ByteUnit::bytes)
    std::snprintf(text, sizeof text, "%.0f", value);
  else if (value == 0 || std::fabs(value) >= 0.1)
    std::snprintf(text, sizeof text, "%.1f", value);
  else
    std::snprintf(text, sizeof text, "%.3g", value);
  std::string result = text;
  if (with_unit) result += " " + std::string(unit_name(unit));
  return result;
}

}  // namespace ringviz
