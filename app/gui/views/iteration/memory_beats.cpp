#include "app/gui/views/iteration/memory_beats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace ringviz::gui {

int step_beat_length(const IterationStep& step, int gpus) {
  if (!step.collective || gpus <= 1) return 1;
  // The ring's rounds (docs/architecture.md, "Collective semantics"): N-1 for one pass, two
  // passes for an all-reduce.
  return step.collective->op == Op::allreduce ? 2 * (gpus - 1) : gpus - 1;
}

StepBeats step_beats(const IterationTimeline& timeline) {
  StepBeats beats;
  beats.first.reserve(timeline.steps.size());
  beats.length.reserve(timeline.steps.size());
  for (const IterationStep& step : timeline.steps) {
    beats.first.push_back(beats.total);
    beats.length.push_back(step_beat_length(step, timeline.gpus()));
    beats.total += beats.length.back();
  }
  return beats;
}

StepMoment step_moment(const StepBeats& beats, double position) {
  if (beats.first.empty()) return {};
  position = std::clamp(position, 0.0, static_cast<double>(beats.total));
  // The last step whose first beat is at or before the position.
  const auto after = std::upper_bound(beats.first.begin(), beats.first.end(), position);
  const int step = std::max(0, static_cast<int>(after - beats.first.begin()) - 1);
  const double into = position - beats.first[static_cast<std::size_t>(step)];
  return {step, std::min(into, static_cast<double>(beats.length[static_cast<std::size_t>(step)]))};
}

GpuMemory memory_at_moment(const IterationTimeline& timeline, const StepMoment& moment, int gpu) {
  GpuMemory memory = memory_at(timeline, moment.step, gpu);
  const IterationStep& step = timeline.steps[static_cast<std::size_t>(moment.step)];
  if (step.kind != IterationStepKind::reduce_scatter || step.bucket < 0 || memory.transient <= 0) return memory;
  const int rounds = step_beat_length(step, timeline.gpus());
  const int done = std::clamp(static_cast<int>(std::floor(moment.into)), 0, rounds);
  if (done == 0) return memory;
  if (done == rounds) {
    memory.transient = 0;  // the own slot is one of the gradients kept from here on
    return memory;
  }
  // Each round the GPU passes one slot of the bucket on and never needs it again.
  const std::int64_t elements = timeline.buckets[static_cast<std::size_t>(step.bucket)].elements;
  const std::int64_t own_bytes = memory.transient / elements * owned_range(timeline, step.bucket, gpu).count;
  const std::int64_t others = memory.transient - own_bytes;
  memory.transient -= others / rounds * done + (done == rounds - 1 ? others % rounds : 0);
  return memory;
}

SentBytes::SentBytes(const IterationTimeline& timeline, const StepBeats& beats)
    : gpus_(timeline.gpus()), length_(beats.length) {
  const std::size_t steps = timeline.steps.size();
  const std::size_t gpus = static_cast<std::size_t>(gpus_);
  before_step_.assign(steps * gpus, 0);
  in_step_.assign(steps * gpus, 0);
  // Every bucket but the last has one size: a handful of distinct collectives, priced once.
  std::map<std::pair<Op, std::int64_t>, std::vector<std::int64_t>> priced;
  std::vector<std::int64_t> running(gpus, 0);
  for (std::size_t s = 0; s < steps; ++s) {
    const IterationStep& step = timeline.steps[s];
    for (std::size_t g = 0; g < gpus; ++g) before_step_[s * gpus + g] = running[g];
    if (!step.collective) continue;
    const auto key = std::pair{step.collective->op, step.collective->elements};
    auto found = priced.find(key);
    if (found == priced.end())
      found = priced.emplace(key, communication_cost(*step.collective, gpus_, timeline.query.memory.order).bytes_sent)
                  .first;
    for (std::size_t g = 0; g < gpus; ++g) {
      in_step_[s * gpus + g] = found->second[g];
      running[g] += found->second[g];
    }
  }
}

std::int64_t SentBytes::until(const StepMoment& moment, int gpu) const {
  if (gpus_ == 0) return 0;
  const std::size_t at = static_cast<std::size_t>(moment.step) * static_cast<std::size_t>(gpus_) +
                         static_cast<std::size_t>(gpu);
  const int rounds = length_[static_cast<std::size_t>(moment.step)];
  const int done = std::clamp(static_cast<int>(std::floor(moment.into)), 0, rounds);
  // Whole rounds: every round of a ring pass moves one slot per GPU.
  return before_step_[at] + in_step_[at] / rounds * done + (done == rounds ? in_step_[at] % rounds : 0);
}

std::int64_t SentBytes::per_iteration(int gpu) const {
  if (gpus_ == 0 || length_.empty()) return 0;
  const std::size_t last = (length_.size() - 1) * static_cast<std::size_t>(gpus_) + static_cast<std::size_t>(gpu);
  return before_step_[last] + in_step_[last];
}

}  // namespace ringviz::gui
