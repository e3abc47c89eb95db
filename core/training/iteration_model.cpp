#include "core/training/iteration_model.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/model/input_error.h"
#include "core/training/cost_model.h"

namespace ringviz {

static_assert(spellings_are_unique(kOffloadNames) && lists_exactly(kOffloadNames, kAllOffloads));
static_assert(spellings_are_unique(kIterationPhaseNames));
static_assert(spellings_are_unique(kPeakCauseNames));

namespace {

// Past this many layers the stepper would have more events than anyone can step through.
constexpr std::int64_t kMaxLayers = 10'000;

void require_positive(std::int64_t value, std::string_view field) {
  if (value < 1)
    throw InputError(std::string(field) + ": " + std::to_string(value) + " must be at least 1");
}

// Bytes per parameter of the 16-bit (or fp32) working parameters and gradients, and of the
// fp32 gradient copy deepspeed's convention adds.
struct StateCosts {
  int parameters = 0;
  int gradients = 0;
  int fp32_gradients = 0;
};

StateCosts state_costs(MemoryConvention convention) {
  StateCosts costs;
  for (const ComponentRule& rule : component_rules(convention)) {
    if (rule.component == StateComponent::parameters) costs.parameters = rule.bytes_per_parameter;
    if (rule.component == StateComponent::gradients) costs.gradients = rule.bytes_per_parameter;
    if (rule.component == StateComponent::fp32_gradients) costs.fp32_gradients = rule.bytes_per_parameter;
  }
  return costs;
}

std::string layer_text(std::int64_t layer, std::int64_t layers) {
  return "layer " + std::to_string(layer) + " of " + std::to_string(layers);
}

bool is_backward_step(IterationStepKind kind) {
  return kind == IterationStepKind::gather_parameters || kind == IterationStepKind::backward ||
         kind == IterationStepKind::all_reduce || kind == IterationStepKind::reduce_scatter;
}

// The timeline's steps of one phase, in the order they run.
std::vector<int> steps_where(const IterationTimeline& timeline, bool (*wanted)(IterationStepKind)) {
  std::vector<int> steps;
  for (int s = 0; s < static_cast<int>(timeline.steps.size()); ++s)
    if (wanted(timeline.steps[static_cast<std::size_t>(s)].kind)) steps.push_back(s);
  return steps;
}

// Which of `count` buckets (or bucket steps) layer `k` of `layers` covers, 1-based k in the
// order the pass visits layers: every bucket belongs to the layer its start falls in, and a
// layer between two buckets' starts borrows the bucket it lies inside.
std::pair<std::int64_t, std::int64_t> covered(std::int64_t k, std::int64_t layers, std::int64_t count) {
  const auto first = static_cast<std::int64_t>((static_cast<__int128>(k - 1) * count) / layers);
  const auto end = static_cast<std::int64_t>((static_cast<__int128>(k) * count + layers - 1) / layers);
  return {first, std::max(first, end - 1)};
}

IterationMemory from_model_states(const GpuMemory& m) {
  IterationMemory memory;
  memory.parameters = m.parameters;
  memory.gradients = m.gradients;
  memory.optimizer_states = m.optimizer_states;
  memory.buffers = m.transient;
  return memory;
}

// The largest of `steps[range]` of the bucket model, as iteration memory.
IterationMemory most_of(const IterationTimeline& timeline, const std::vector<int>& steps,
                        std::int64_t first, std::int64_t last) {
  const GpuMemory* most = nullptr;
  for (std::int64_t i = first; i <= last && i < static_cast<std::int64_t>(steps.size()); ++i) {
    const GpuMemory& m = timeline.steps[static_cast<std::size_t>(steps[static_cast<std::size_t>(i)])].largest;
    if (most == nullptr || m.total() > most->total()) most = &m;
  }
  return most == nullptr ? IterationMemory{} : from_model_states(*most);
}

std::string gb(std::int64_t bytes) { return format_bytes(static_cast<double>(bytes), ByteUnit::gb); }

std::string describe_peak(const IterationEvent& event) {
  const IterationMemory& m = event.memory;
  std::string text = event.label + ": ";
  const std::pair<const char*, std::int64_t> parts[] = {{"activations", m.activations},
                                                        {"logits", m.logits},
                                                        {"gradients", m.gradients},
                                                        {"buffers", m.buffers}};
  bool any = false;
  for (const auto& [name, bytes] : parts) {
    if (bytes == 0) continue;
    text += std::string(any ? ", " : "") + name + " " + gb(bytes);
    any = true;
  }
  const std::int64_t states = m.parameters + m.optimizer_states;
  return text + (any ? " on top of " : "") + "parameters and optimizer states " + gb(states) +
         "; total " + gb(m.total());
}

PeakCause cause_of(const IterationMemory& m) {
  PeakCause cause = PeakCause::model_states;
  std::int64_t most = 0;
  const std::pair<PeakCause, std::int64_t> parts[] = {{PeakCause::activations, m.activations},
                                                      {PeakCause::logits, m.logits},
                                                      {PeakCause::gradients, m.gradients},
                                                      {PeakCause::buffers, m.buffers}};
  for (const auto& [part, bytes] : parts)
    if (bytes > most) {
      most = bytes;
      cause = part;
    }
  return cause;
}

// Ring time of `call` on `gpus` GPUs from the α-β-γ cost model. Beyond the engine's largest
// ring the schedule is not built; the ring's closed form (the same sums) is used instead.
double ring_seconds(const CollectiveCall& call, int gpus, Order order, const LinkModel& link) {
  if (gpus == 1) return 0;
  const Config config = call.ring_view(gpus, order);
  if (gpus <= kMaxRanks) return estimate_cost(config, link).seconds;
  const double n = gpus;
  const double element = static_cast<double>(dtype_size(config.dtype));
  const double chunk = static_cast<double>((config.count + gpus - 1) / gpus) * element;
  const double steps = n - 1;
  switch (config.op) {
    case Op::allreduce:
      return steps * (link.alpha_seconds + chunk * (link.beta() + link.gamma_seconds_per_byte)) +
             steps * (link.alpha_seconds + chunk * link.beta());
    case Op::reducescatter:
      return steps * (link.alpha_seconds + chunk * (link.beta() + link.gamma_seconds_per_byte));
    case Op::allgather:
      return steps * (link.alpha_seconds + static_cast<double>(config.count) * element * link.beta());
    case Op::broadcast:  // N slots down a chain of N-1 hops, pipelined: 2N-2 rounds of a slot
      return 2 * steps * (link.alpha_seconds + chunk * link.beta());
    case Op::alltoall:  // N-1 rounds, each sending one slot
      return steps * (link.alpha_seconds + chunk * link.beta());
    case Op::sendrecv:  // the whole buffer, once
      return link.alpha_seconds + static_cast<double>(config.count) * element * link.beta();
  }
  return 0;
}

// The collectives' seconds by phase: before backward (ZeRO-3 forward gathers), during backward
// (bucket reductions, ZeRO-3 backward gathers), after the optimizer step (ZeRO-1/2 gathers),
// and the first forward one and the last backward one, which nothing can hide.
struct PhaseSeconds {
  double forward = 0, backward = 0, after_step = 0;
  double first_forward = 0, last_backward = 0;
};

PhaseSeconds collective_seconds(const IterationTimeline& timeline, const LinkModel& link) {
  const MemoryQuery& q = timeline.query.memory;
  std::map<std::tuple<Op, std::int64_t, DType>, double> cache;  // all full buckets cost the same
  PhaseSeconds seconds;
  bool first = true;
  for (const IterationStep& step : timeline.steps) {
    if (!step.collective) continue;
    const CollectiveCall& call = *step.collective;
    const auto key = std::make_tuple(call.op, call.elements, call.dtype);
    auto found = cache.find(key);
    if (found == cache.end()) found = cache.emplace(key, ring_seconds(call, q.gpus, q.order, link)).first;
    const double t = found->second;
    if (step.kind == IterationStepKind::forward) {
      seconds.forward += t;
      if (first) seconds.first_forward = t;
      first = false;
    } else if (is_backward_step(step.kind)) {
      seconds.backward += t;
      seconds.last_backward = t;
    } else {
      seconds.after_step += t;
    }
  }
  return seconds;
}

// The collectives TP adds over the iteration, as calls of s·b·h 16-bit elements on t GPUs.
std::vector<CollectiveCall> tensor_parallel_calls(const IterationQuery& q) {
  const std::int64_t elements = q.seq * q.micro_batch * q.model.hidden;
  const DType dtype = parameter_dtype(q.convention);
  // Forward's two, backward's two, and forward's two again when backward reruns forward.
  const int per_layer_pairs = q.recompute == Recompute::full ? 3 : 2;
  std::vector<CollectiveCall> calls;
  for (int i = 0; i < per_layer_pairs * 2; ++i) {
    if (q.sp) {
      calls.push_back({"sequence-parallel all-gather", Op::allgather, elements, dtype, ReduceOp::sum});
      calls.push_back({"sequence-parallel reduce-scatter", Op::reducescatter, elements, dtype, ReduceOp::sum});
    } else {
      calls.push_back({"tensor-parallel all-reduce", Op::allreduce, elements, dtype, ReduceOp::sum});
    }
  }
  return calls;
}

double tensor_parallel_seconds(const IterationQuery& q) {
  if (q.tp == 1) return 0;
  const LinkModel& link = find_link_preset(q.tp_link, "tp-link");
  double per_layer = 0;
  for (const CollectiveCall& call : tensor_parallel_calls(q)) per_layer += ring_seconds(call, q.tp, q.order, link);
  return per_layer * static_cast<double>(q.model.layers);
}

TensorParallelTraffic tensor_parallel_traffic(const IterationQuery& q) {
  TensorParallelTraffic traffic;
  if (q.tp == 1) return traffic;
  const std::vector<CollectiveCall> calls = tensor_parallel_calls(q);
  traffic.collectives_per_layer = static_cast<int>(calls.size());
  traffic.elements = calls.front().elements;
  std::int64_t per_layer = 0;
  for (const CollectiveCall& call : calls) {
    const std::vector<std::int64_t> sent = ring_bytes_sent(call.op, call.elements, call.dtype, q.tp, q.order);
    per_layer += *std::max_element(sent.begin(), sent.end());
  }
  traffic.bytes_sent_per_gpu = per_layer * q.model.layers;
  const int half = traffic.collectives_per_layer / 2;
  traffic.collectives = q.sp ? std::to_string(half) + " all-gather + " + std::to_string(half) + " reduce-scatter per layer"
                             : std::to_string(traffic.collectives_per_layer) + " all-reduce per layer";
  return traffic;
}

IterationTime estimate_time(const IterationEstimate& e, const IterationTimeline& timeline) {
  const IterationQuery& q = e.query;
  const Accelerator& accelerator = find_accelerator(q.accelerator);
  const LinkModel& link = find_link_preset(q.link, "link");
  IterationTime time;
  const double rate = accelerator.peak_flops * q.utilisation;
  const double tokens = static_cast<double>(q.seq) * static_cast<double>(q.micro_batch);
  // Each GPU of a tensor-parallel group does 1/t of the work on the same tokens.
  const double psi = static_cast<double>(q.model.parameters) / q.tp;
  time.model_flops = 6 * psi * tokens;
  // Selective: Q·Kᵀ and the scores times V rerun (2 matrix products of b·s²·h/t multiply-adds a
  // layer); FlashAttention: Q·Kᵀ rebuilt in backward; full: a second forward.
  time.recompute_flops = q.recompute == Recompute::full
                             ? 2 * psi * tokens
                             : attention_recompute_flops_per_layer(activation_query(q)) *
                                   static_cast<double>(q.model.layers);
  time.compute = time.model_flops / rate;
  time.recompute = time.recompute_flops / rate;
  const double forward = time.compute / 3;
  const double backward = time.compute * 2 / 3 + time.recompute;

  const PhaseSeconds comm = collective_seconds(timeline, link);
  time.tensor_parallel = tensor_parallel_seconds(q);
  time.communication = comm.forward + comm.backward + comm.after_step;
  time.exposed_communication = std::max(comm.first_forward, comm.forward - forward) +
                               std::max(comm.last_backward, comm.backward - backward) + comm.after_step;
  if (q.offload == Offload::optimizer) {
    const double pcie = find_link_preset(accelerator.host_link, "accelerator").bytes_per_second;
    const double down = static_cast<double>(e.pcie_bytes_per_gpu - e.pcie_bytes_per_gpu / 2) / pcie;
    const double up = static_cast<double>(e.pcie_bytes_per_gpu / 2) / pcie;
    time.offload = down + up;
    time.exposed_offload = std::max(0.0, down - backward) + up;
  }
  time.total = time.compute + time.recompute + time.exposed_communication + time.tensor_parallel +
               time.exposed_offload;

  time.gathers_ahead = shards(q.strategy, StateGroup::parameters);
  time.gather_after_step = comm.after_step > 0;
  time.offload_streams = q.offload == Offload::optimizer;
  std::string overlap;
  if (time.gathers_ahead)
    overlap = "ZeRO-3's parameter gathers run ahead of the layers that need them, hidden by compute "
              "except the first; ";
  overlap += "gradient buckets are reduced while backward computes the next ones, all but the last "
             "hidden by it";
  if (time.gather_after_step) overlap += "; the all-gather of the updated parameters after the step is not hidden";
  if (time.offload_streams)
    overlap += "; gradients stream down over PCIe during backward, the updated parameters come back "
               "after the step, not hidden; the host's optimizer step itself is not counted";
  if (q.tp > 1)
    overlap += "; tensor parallelism's per-layer collectives wait for the layer's output and are not hidden";
  time.overlap = overlap + ".";
  return time;
}

}  // namespace

std::vector<std::int64_t> mlp_activation_bytes(const MlpShape& shape, std::int64_t examples) {
  const auto fp32 = static_cast<std::int64_t>(sizeof(float));
  return {examples * shape.hidden * fp32, examples * shape.outputs * fp32};
}

void validate_iteration_query(const IterationQuery& q) {
  require_positive(q.model.parameters, "params");
  require_positive(q.model.layers, "layers");
  require_positive(q.model.hidden, "hidden");
  require_positive(q.model.heads, "heads");
  require_positive(q.model.vocab, "vocab");
  require_positive(q.seq, "seq");
  require_positive(q.micro_batch, "micro-batch");
  if (q.model.layers > kMaxLayers)
    throw InputError("layers: " + std::to_string(q.model.layers) + " is more than " +
                     std::to_string(kMaxLayers));
  validate_memory_query({q.model.parameters, q.gpus, q.strategy, q.convention, q.order});
  if (q.tp < 1)
    throw InputError("tp: " + std::to_string(q.tp) + " must be at least 1");
  const auto divides = [&](std::int64_t whole, const std::string& what) {
    if (whole % q.tp != 0)
      throw InputError("tp: " + std::to_string(q.tp) + " does not divide " + what + " (" + std::to_string(whole) +
                       "); a tensor-parallel group splits them evenly");
  };
  divides(q.gpus, "the GPUs");
  divides(q.model.heads, "the attention heads");
  if (q.block == Block::model) {
    divides(kv_heads_of(q.model), "the key/value heads");
    if (q.model.heads % kv_heads_of(q.model) != 0)
      throw InputError("heads: " + std::to_string(q.model.heads) + " heads are not a multiple of the " +
                       std::to_string(kv_heads_of(q.model)) + " key/value heads");
  }
  if (q.sp && q.tp == 1)
    throw InputError("sp: sequence parallelism splits the sequence across the tensor-parallel group; give tp above 1");
  find_link_preset(q.tp_link, "tp-link");
  if (!(q.utilisation > 0 && q.utilisation <= 1))
    throw InputError("utilisation: " + std::to_string(q.utilisation) + " must be above 0 and at most 1");
  if (!(q.gpu_memory_bytes > 0)) throw InputError("gpu-memory: must be above 0");
  find_accelerator(q.accelerator);
  find_link_preset(q.link, "link");
  activation_bytes(activation_query(q));
}

ActivationQuery activation_query(const IterationQuery& q) {
  ActivationQuery a;
  a.model = q.model;
  a.seq = q.seq;
  a.micro_batch = q.micro_batch;
  a.recompute = q.recompute;
  a.tp = q.tp;
  a.sp = q.sp;
  a.attention = q.attention;
  a.block = q.block;
  return a;
}

DeepSpeedEstimate deepspeed_estimate(const IterationQuery& q) {
  DeepSpeedEstimate d;
  if (q.strategy == Strategy::ddp) return d;
  d.exists = true;
  const std::int64_t psi = (q.model.parameters + q.tp - 1) / q.tp;
  const std::int64_t n = q.gpus / q.tp;
  const std::int64_t nodes = (q.gpus + kGpusPerMachine - 1) / kGpusPerMachine;
  const bool offload = q.offload == Offload::optimizer;
  const auto host = [](double bytes) { return static_cast<std::int64_t>(bytes * kDeepSpeedBufferFactor); };
  d.largest_layer_parameters = (largest_layer_parameters(q.model) + q.tp - 1) / q.tp;
  const std::int64_t largest = 4 * d.largest_layer_parameters;
  if (q.strategy == Strategy::zero3) {
    if (offload) {
      d.gpu_bytes = largest + 2 * psi / n;
      d.host_bytes_per_machine = host(static_cast<double>(psi) * 16 / static_cast<double>(nodes));
      d.formula = "4·largest + 2Ψ/N; host 16Ψ/nodes × 1.5";
    } else {
      d.gpu_bytes = largest + 18 * psi / n;
      d.formula = "4·largest + 18Ψ/N";
    }
  } else if (offload) {
    d.gpu_bytes = 2 * psi;
    d.host_bytes_per_machine = host(static_cast<double>(psi) * static_cast<double>(std::max<std::int64_t>(4 * n, 16)));
    d.formula = "2Ψ; host Ψ·max(4N, 16) × 1.5";
  } else {
    d.gpu_bytes = 2 * psi + 18 * psi / n;
    d.formula = "2Ψ + 18Ψ/N";
  }
  return d;
}

IterationEstimate estimate_iteration(const IterationQuery& query) {
  validate_iteration_query(query);
  IterationEstimate e;
  e.query = query;
  // Tensor parallelism splits every weight t ways; ZeRO and DDP then work on that share over
  // the data-parallel group of gpus / t.
  e.data_parallel = query.gpus / query.tp;
  const std::int64_t share = (query.model.parameters + query.tp - 1) / query.tp;
  const MemoryQuery states{share, e.data_parallel, query.strategy, query.convention, query.order};
  e.model_states = estimate_memory(states);
  e.activations = activation_bytes(activation_query(query));
  e.tensor_parallel = tensor_parallel_traffic(query);
  e.data_parallel_bytes_sent = e.model_states.bytes_sent_per_gpu[static_cast<std::size_t>(e.model_states.largest_gpu)];
  if (query.convention == MemoryConvention::deepspeed) e.deepspeed = deepspeed_estimate(query);

  // The bucket model, with buckets large enough that there are at most kMaxTimelineBuckets.
  const StateCosts costs = state_costs(query.convention);
  const std::int64_t gradient_bytes = share * costs.gradients;
  e.bucket_bytes = std::max({query.bucket_bytes, (gradient_bytes + kMaxTimelineBuckets - 1) / kMaxTimelineBuckets,
                             std::int64_t{costs.gradients}});
  const IterationTimeline buckets = build_iteration_timeline({states, e.bucket_bytes});

  const bool offload = query.offload == Offload::optimizer;
  const bool sharded_gradients = shards(query.strategy, StateGroup::gradients);
  const std::int64_t all = share;
  const std::int64_t owned = e.model_states.owned_elements[static_cast<std::size_t>(e.model_states.largest_gpu)];
  const std::int64_t updated = shards(query.strategy, StateGroup::optimizer_states) ? owned : all;
  if (offload) {
    const ModelStateBytes& largest = e.model_states.largest();
    e.host_per_gpu = largest.optimizer_states() + largest[StateComponent::fp32_gradients] + costs.gradients * updated;
    e.host_per_machine = e.host_per_gpu * std::min(query.gpus, kGpusPerMachine);
    e.pcie_bytes_per_gpu = (costs.gradients + costs.parameters) * updated;
  }
  // Offloading moves the optimizer states off the GPU, and under ZeRO-2/3 the reduced
  // gradient shards follow them down as soon as they exist.
  const auto on_gpu = [&](IterationMemory m, bool at_step) {
    if (!offload) return m;
    m.optimizer_states = 0;
    if (sharded_gradients) m.gradients = 0;
    else if (at_step) m.gradients = costs.gradients * all;
    return m;
  };

  const std::int64_t layers = query.model.layers;
  const ActivationBytes& a = e.activations;
  const auto add = [&](IterationPhase phase, std::int64_t layer, std::string label, IterationMemory memory) {
    e.timeline.push_back({phase, layer, std::move(label), memory, e.host_per_gpu});
  };
  const std::vector<int> forward_steps =
      steps_where(buckets, [](IterationStepKind k) { return k == IterationStepKind::forward; });
  const std::vector<int> backward_steps = steps_where(buckets, is_backward_step);
  const std::vector<int> optimizer_steps =
      steps_where(buckets, [](IterationStepKind k) { return k == IterationStepKind::optimizer_step; });
  const std::vector<int> gather_steps =
      steps_where(buckets, [](IterationStepKind k) { return k == IterationStepKind::all_gather; });

  IterationMemory start = most_of(buckets, forward_steps, 0, 0);
  start.buffers = 0;
  add(IterationPhase::start, 0, "start of the iteration: model states only", on_gpu(start, false));
  const auto forward_count = static_cast<std::int64_t>(forward_steps.size());
  for (std::int64_t layer = 1; layer <= layers; ++layer) {
    const auto [first, last] = covered(layer, layers, forward_count);
    IterationMemory m = on_gpu(most_of(buckets, forward_steps, first, last), false);
    m.activations = layer * a.stored_per_layer;
    add(IterationPhase::forward, layer, "forward through " + layer_text(layer, layers), m);
  }
  IterationMemory loss = on_gpu(start, false);
  loss.activations = a.all_layers;
  loss.logits = a.logits;
  add(IterationPhase::loss, 0, "loss: the logits in fp32 beside every layer's activations", loss);
  // Backward visits buckets in steps of three or four per bucket; map layers onto buckets.
  const auto bucket_count = static_cast<std::int64_t>(buckets.buckets.size());
  for (std::int64_t k = 1; k <= layers; ++k) {
    const std::int64_t layer = layers - k + 1;
    const auto [first, last] = covered(k, layers, bucket_count);
    std::int64_t begin = -1, end = -1;
    for (std::size_t i = 0; i < backward_steps.size(); ++i) {
      const int bucket = buckets.steps[static_cast<std::size_t>(backward_steps[i])].bucket;
      if (bucket < first || bucket > last) continue;
      if (begin < 0) begin = static_cast<std::int64_t>(i);
      end = static_cast<std::int64_t>(i);
    }
    IterationMemory m = on_gpu(most_of(buckets, backward_steps, begin, end), false);
    m.activations = layer * a.stored_per_layer + a.recomputed;
    add(IterationPhase::backward, layer,
        (query.recompute == Recompute::full ? "backward through " + layer_text(layer, layers) + ", its forward rerun"
                                            : "backward through " + layer_text(layer, layers)),
        m);
  }
  add(IterationPhase::optimizer_step, 0,
      offload ? "optimizer step on the host; updated parameters come back over PCIe" : "optimizer step",
      on_gpu(most_of(buckets, optimizer_steps, 0, 0), true));
  if (!gather_steps.empty())
    add(IterationPhase::parameter_gather, 0, "all-gather of the updated parameters",
        on_gpu(most_of(buckets, gather_steps, 0, static_cast<std::int64_t>(gather_steps.size()) - 1), false));

  for (int i = 0; i < static_cast<int>(e.timeline.size()); ++i)
    if (e.timeline[static_cast<std::size_t>(i)].memory.total() > e.peak.memory.total() || i == 0)
      e.peak = {i, e.timeline[static_cast<std::size_t>(i)].memory, PeakCause::model_states, ""};
  e.peak.cause = cause_of(e.peak.memory);
  e.peak.description = describe_peak(e.timeline[static_cast<std::size_t>(e.peak.event)]);
  e.fits = static_cast<double>(e.peak.memory.total()) <= query.gpu_memory_bytes;
  e.time = estimate_time(e, buckets);
  return e;
}

}  // namespace ringviz
