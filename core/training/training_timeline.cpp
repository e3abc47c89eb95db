#include "core/training/training_timeline.h"

#include <algorithm>

#include "core/model/layout.h"
#include "core/schedule/schedule.h"

namespace ringviz {

namespace {

// Bytes per parameter of each group under a convention.
struct Costs {
  int parameters = 0;        // working parameters
  int gradients = 0;         // working gradients (what backward produces and the ring moves)
  int fp32_gradients = 0;    // deepspeed: the fp32 copy the optimizer reads
  int optimizer_states = 0;  // master weights + momentum + variance
};

Costs costs_of(MemoryConvention convention) {
  Costs costs;
  for (const ComponentRule& rule : component_rules(convention)) {
    switch (rule.component) {
      case StateComponent::parameters: costs.parameters += rule.bytes_per_parameter; break;
      case StateComponent::gradients: costs.gradients += rule.bytes_per_parameter; break;
      case StateComponent::fp32_gradients: costs.fp32_gradients += rule.bytes_per_parameter; break;
      default: costs.optimizer_states += rule.bytes_per_parameter; break;
    }
  }
  return costs;
}

// The part of an `elements`-long vector that the owner of `slot` keeps: the engine's own
// reduce-scatter slot, so the timeline's shards are exactly the engine's.
Slot shard_of(std::int64_t elements, int slot, int ranks) {
  return make_layout(Op::reducescatter, ranks, elements)[slot];
}

std::string bucket_text(int bucket, int buckets) {
  return "bucket " + std::to_string(bucket + 1) + " of " + std::to_string(buckets);
}

}  // namespace

static_assert(spellings_are_unique(kPeakComponentNames));
static_assert(spellings_are_unique(kIterationStepKindNames));

Slot owned_range(const IterationTimeline& timeline, int bucket, int gpu) {
  const Bucket& b = timeline.buckets[static_cast<std::size_t>(bucket)];
  const int n = timeline.gpus();
  const int slot = ring_owned_slot(timeline.query.memory.order, gpu, n);
  const Slot shard = shard_of(b.elements, slot, n);
  return {b.offset + shard.offset, shard.count};
}

namespace {

// Owned elements of GPU `gpu` over buckets [0, count): every bucket but the last has the same
// size, so this is a closed form rather than a table of buckets x GPUs.
std::int64_t owned_prefix(const IterationTimeline& timeline, int count, int gpu) {
  const int n = timeline.gpus();
  const int slot = ring_owned_slot(timeline.query.memory.order, gpu, n);
  const int total = static_cast<int>(timeline.buckets.size());
  const int full = std::min(count, total - 1);
  std::int64_t owned = full * shard_of(timeline.bucket_elements, slot, n).count;
  if (count >= total) owned += shard_of(timeline.buckets.back().elements, slot, n).count;
  return owned;
}

// Gradient elements of buckets [0, count).
std::int64_t made_prefix(const IterationTimeline& timeline, int count) {
  const int total = static_cast<int>(timeline.buckets.size());
  std::int64_t made = std::min(count, total - 1) * timeline.bucket_elements;
  if (count >= total) made += timeline.buckets.back().elements;
  return made;
}

}  // namespace

GpuMemory memory_at(const IterationTimeline& timeline, int step_index, int gpu) {
  const MemoryQuery& q = timeline.query.memory;
  const IterationStep& step = timeline.steps[static_cast<std::size_t>(step_index)];
  const Costs costs = costs_of(q.convention);
  const bool sharded_parameters = shards(q.strategy, StateGroup::parameters);
  const bool sharded_gradients = shards(q.strategy, StateGroup::gradients);
  const bool sharded_optimizer = shards(q.strategy, StateGroup::optimizer_states);
  const std::int64_t all = q.parameters;
  const std::int64_t owned = timeline.owned_elements[static_cast<std::size_t>(gpu)];
  const std::int64_t bucket =
      step.bucket >= 0 ? timeline.buckets[static_cast<std::size_t>(step.bucket)].elements : 0;

  GpuMemory memory;
  memory.parameters = costs.parameters * (sharded_parameters ? owned : all);
  memory.optimizer_states = costs.optimizer_states * (sharded_optimizer ? owned : all);
  // Gradients made so far: DDP and ZeRO-1 keep every bucket whole; ZeRO-2/3 keep only the
  // owned slot of each bucket that has been reduce-scattered.
  const std::int64_t gradients_kept = sharded_gradients
                                         ? owned_prefix(timeline, step.buckets_reduced, gpu)
                                         : made_prefix(timeline, step.buckets_backward_done);
  switch (step.kind) {
    case IterationStepKind::forward:
      if (sharded_parameters) memory.transient = costs.parameters * bucket;  // the gathered bucket
      break;
    case IterationStepKind::gather_parameters:
      memory.gradients = costs.gradients * gradients_kept;
      memory.transient = costs.parameters * bucket;
      break;
    case IterationStepKind::backward:
    case IterationStepKind::all_reduce:
    case IterationStepKind::reduce_scatter:
      memory.gradients = costs.gradients * gradients_kept;
      // ZeRO-2/3: the bucket's full gradients live only until its reduce-scatter is done.
      if (sharded_gradients) memory.transient = costs.gradients * bucket;
      // ZeRO-3 backward also needs the bucket's gathered parameters while it computes.
      if (sharded_parameters && step.kind == IterationStepKind::backward)
        memory.transient += costs.parameters * bucket;
      break;
    case IterationStepKind::optimizer_step:
      memory.gradients = costs.gradients * (sharded_gradients ? owned : all) +
                         costs.fp32_gradients * (sharded_optimizer ? owned : all);
      break;
    case IterationStepKind::all_gather:
      break;  // the gradients were released after the optimizer step
  }
  return memory;
}

IterationTimeline build_iteration_timeline(const TimelineQuery& query) {
  validate_memory_query(query.memory);
  const MemoryQuery& q = query.memory;
  const Costs costs = costs_of(q.convention);
  if (query.bucket_bytes < costs.gradients)
    throw InputError("bucket: " + std::to_string(query.bucket_bytes) +
                     " bytes is smaller than one gradient (" + std::to_string(costs.gradients) +
                     " bytes)");
  IterationTimeline timeline;
  timeline.query = query;
  timeline.bucket_elements = std::min(q.parameters, query.bucket_bytes / costs.gradients);
  const std::int64_t bucket_count =
      (q.parameters + timeline.bucket_elements - 1) / timeline.bucket_elements;
  if (bucket_count > kMaxTimelineBuckets)
    throw InputError("bucket: " + std::to_string(query.bucket_bytes) + " bytes makes " +
                     std::to_string(bucket_count) + " buckets for " +
                     format_parameter_count(q.parameters) + " parameters (at most " +
                     std::to_string(kMaxTimelineBuckets) + "); choose larger buckets");
  for (std::int64_t b = 0; b < bucket_count; ++b) {
    const std::int64_t end = q.parameters - b * timeline.bucket_elements;
    const std::int64_t begin = std::max<std::int64_t>(0, end - timeline.bucket_elements);
    timeline.buckets.push_back({begin, end - begin});
  }
  const int buckets = static_cast<int>(bucket_count);
  const int n = q.gpus;
  // Every ZeRO stage shards at least the optimizer states, so each GPU owns a shard.
  const bool zero = shards(q.strategy, StateGroup::optimizer_states);
  const bool sharded_gradients = shards(q.strategy, StateGroup::gradients);
  const bool sharded_parameters = shards(q.strategy, StateGroup::parameters);
  for (int gpu = 0; gpu < n; ++gpu)
    timeline.owned_elements.push_back(zero ? 0 : q.parameters);
  if (zero)
    for (int gpu = 0; gpu < n; ++gpu)
      timeline.owned_elements[static_cast<std::size_t>(gpu)] = owned_prefix(timeline, buckets, gpu);

  const DType grads = gradient_dtype(q.convention);
  const DType params = parameter_dtype(q.convention);
  auto& steps = timeline.steps;
  int produced = 0;
  int reduced = 0;
  const auto add = [&](IterationStepKind kind, std::string label, int bucket,
                       std::optional<CollectiveCall> collective = std::nullopt) {
    IterationStep step;
    step.kind = kind;
    step.label = std::move(label);
    step.bucket = bucket;
    step.buckets_backward_done = produced;
    step.buckets_reduced = reduced;
    step.collective = std::move(collective);
    steps.push_back(std::move(step));
  };
  const auto collective = [&](std::string purpose, Op op, DType dtype, int bucket) {
    return CollectiveCall{std::move(purpose), op,
                          timeline.buckets[static_cast<std::size_t>(bucket)].elements, dtype,
                          ReduceOp::avg};
  };

  // Forward. ZeRO-3 holds only its shard, so each bucket's parameters are gathered, used and
  // dropped, first layers first (the last bucket of backward order).
  if (sharded_parameters) {
    for (int b = buckets - 1; b >= 0; --b)
      add(IterationStepKind::forward,
          "forward through " + bucket_text(b, buckets) + ": all-gather its parameters, use them, drop them",
          b, collective("all-gather of the parameters for the forward pass", Op::allgather, params, b));
  } else {
    add(IterationStepKind::forward, "forward pass: every GPU runs its own mini-batch", -1);
  }

  for (int b = 0; b < buckets; ++b) {
    const std::string which = bucket_text(b, buckets);
    if (sharded_parameters)
      add(IterationStepKind::gather_parameters, "all-gather the parameters of " + which + " again for backward",
          b, collective("all-gather of the parameters for the backward pass", Op::allgather, params, b));
    ++produced;
    add(IterationStepKind::backward, "backward: the gradients of " + which + " are ready", b);
    if (!zero) {
      add(IterationStepKind::all_reduce, "all-reduce of " + which + ": every GPU gets the average",
          b, collective("all-reduce of the gradients", Op::allreduce, grads, b));
    } else {
      const std::string after = sharded_gradients ? "; each GPU keeps only its slot and frees the rest"
                                                  : "; the full gradients stay";
      add(IterationStepKind::reduce_scatter, "reduce-scatter of " + which + after, b,
          collective("reduce-scatter of the gradients", Op::reducescatter, grads, b));
    }
    ++reduced;
  }
  add(IterationStepKind::optimizer_step,
      !zero ? "optimizer step: every GPU updates every parameter"
            : "optimizer step: each GPU updates only the shard it owns",
      -1);
  if (zero && !sharded_parameters)
    for (int b = 0; b < buckets; ++b)
      add(IterationStepKind::all_gather,
          "all-gather of " + bucket_text(b, buckets) + ": every GPU gets the updated parameters", b,
          collective("all-gather of the updated parameters", Op::allgather, params, b));

  // Every term of memory_at grows with the GPU's owned elements, and the owner of slot 0
  // has the most of every bucket, so it is the largest GPU at every step.
  int largest_gpu = 0;
  for (int gpu = 0; gpu < n; ++gpu)
    if (ring_owned_slot(q.order, gpu, n) == 0) largest_gpu = gpu;
  for (int s = 0; s < static_cast<int>(steps.size()); ++s) {
    IterationStep& step = steps[static_cast<std::size_t>(s)];
    step.largest_gpu = largest_gpu;
    step.largest = memory_at(timeline, s, largest_gpu);
    if (step.largest.total() > timeline.peak.memory.total() || s == 0)
      timeline.peak = {s, largest_gpu, step.largest};
  }
  MemoryPeak& peak = timeline.peak;
  peak.component =
      peak.memory.transient > peak.memory.gradients ? PeakComponent::transient : PeakComponent::gradients;
  return timeline;
}

}  // namespace ringviz
