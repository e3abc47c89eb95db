#pragma once
// One training iteration, step by step, as data: forward, backward producing gradients bucket
// by bucket, each bucket's collective, the optimizer step and (ZeRO) the parameter all-gather,
// with what every GPU holds at each step. The GUI steps through it; the CLI prints it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/layout.h"
#include "core/training/memory_model.h"

namespace ringviz {

// PyTorch DDP's default bucket_cap_mb = 25, which it multiplies by 2^20.
inline constexpr std::int64_t kDefaultBucketBytes = 25 * 1024 * 1024;
// Past this a timeline has too many steps to read or draw; the query asks for larger buckets.
inline constexpr std::int64_t kMaxTimelineBuckets = 100'000;

struct TimelineQuery {
  MemoryQuery memory;  // Ψ, N, strategy, convention, order
  // Gradient bytes per bucket (in the convention's gradient type); one bucket when it is at
  // least the whole gradient.
  std::int64_t bucket_bytes = kDefaultBucketBytes;
};

enum class IterationStepKind {
  forward,            // the forward pass (ZeRO-3: one step per bucket, gathering its parameters)
  gather_parameters,  // ZeRO-3, backward: all-gather a bucket's parameters again
  backward,           // compute one bucket's gradients
  all_reduce,         // DDP: average a bucket's gradients on every GPU
  reduce_scatter,     // ZeRO: average a bucket's gradients, each GPU keeping its slot
  optimizer_step,     // AdamW: every parameter (DDP) or the owned shard (ZeRO)
  all_gather,         // ZeRO-1/2: share a bucket's updated parameters
};
inline constexpr EnumName<IterationStepKind> kIterationStepKindNames[] = {
    {IterationStepKind::forward, "forward"},
    {IterationStepKind::gather_parameters, "gather-parameters"},
    {IterationStepKind::backward, "backward"},
    {IterationStepKind::all_reduce, "all-reduce"},
    {IterationStepKind::reduce_scatter, "reduce-scatter"},
    {IterationStepKind::optimizer_step, "optimizer-step"},
    {IterationStepKind::all_gather, "all-gather"}};
inline constexpr EnumNamer step_kind_name{kIterationStepKindNames};

// What one GPU holds during a step, in bytes: the most it holds at any moment of the step.
struct GpuMemory {
  std::int64_t parameters = 0;
  std::int64_t gradients = 0;         // incl. the fp32 gradient copy under `deepspeed`
  std::int64_t optimizer_states = 0;  // master weights + momentum + variance
  std::int64_t transient = 0;         // a bucket waiting for its collective, gathered parameters
  std::int64_t total() const { return parameters + gradients + optimizer_states + transient; }
  bool operator==(const GpuMemory&) const = default;
};

// A contiguous run of the flat parameter vector whose gradients are produced together.
// Backward runs from the last layer to the first, so bucket 0 is the end of the vector.
struct Bucket {
  std::int64_t offset = 0;
  std::int64_t elements = 0;
};

struct IterationStep {
  IterationStepKind kind = IterationStepKind::forward;
  std::string label;  // e.g. "reduce-scatter of bucket 3 of 12: each GPU keeps its slot"
  int bucket = -1;    // the bucket this step works on; -1 for whole-model steps
  // Buckets whose gradients exist when the step ends / have been through their collective.
  int buckets_backward_done = 0;
  int buckets_reduced = 0;
  std::optional<CollectiveCall> collective;  // for communication steps
  int largest_gpu = 0;                       // the GPU holding the most at this step
  GpuMemory largest;                         // and what it holds
};

// What comes and goes on top of the resident parameters and optimizer states.
enum class PeakComponent { gradients, transient };
inline constexpr EnumName<PeakComponent> kPeakComponentNames[] = {
    {PeakComponent::gradients, "gradients"}, {PeakComponent::transient, "transient"}};
inline constexpr EnumNamer peak_component_name{kPeakComponentNames};

// The most one GPU holds during the iteration, and why: at step `step` (steps[step] says what
// it does, on which bucket) the GPU holds memory.gradients and memory.transient bytes on top of
// its parameters and optimizer states; `component` is the larger of the two. The front ends
// word the cause themselves.
struct MemoryPeak {
  int step = 0;
  int gpu = 0;
  GpuMemory memory;
  PeakComponent component = PeakComponent::gradients;
};

struct IterationTimeline {
  TimelineQuery query;
  std::int64_t bucket_elements = 0;  // every bucket but the last (which may be shorter)
  std::vector<Bucket> buckets;
  std::vector<std::int64_t> owned_elements;  // per GPU: its shard (ZeRO) summed over buckets
  std::vector<IterationStep> steps;
  MemoryPeak peak;

  int gpus() const { return query.memory.gpus; }
};

// Throws InputError (naming "bucket" or the memory field) for bad queries or more than
// kMaxTimelineBuckets buckets.
IterationTimeline build_iteration_timeline(const TimelineQuery& query);

// What GPU `gpu` holds during step `step`.
GpuMemory memory_at(const IterationTimeline& timeline, int step, int gpu);
// The elements of bucket `bucket` GPU `gpu` owns after its reduce-scatter (the engine's
// owned slot of the bucket), as a run of the flat parameter vector.
Slot owned_range(const IterationTimeline& timeline, int bucket, int gpu);

}  // namespace ringviz
