#pragma once
// The memory view's clock. One training iteration is counted in beats: a compute step
// (forward, a bucket's backward, the optimizer step) is one beat, and a communication step is
// as many beats as its ring collective has rounds. The bars and the ring picture beside them
// then move on one clock: while a bucket's reduce-scatter runs round by round on the ring, the
// bucket shrinks on each GPU round by round. DDP's all-reduce of a bucket takes 2(N-1) beats,
// ZeRO-2's reduce-scatter N-1 now and its all-gather N-1 after the step: the two iterations
// last the same number of beats, as their traffic is the same.
#include <cstdint>
#include <vector>

#include "core/training/training_timeline.h"

namespace ringviz::gui {

struct StepBeats {
  std::vector<int> first;   // per step: the beat it starts at
  std::vector<int> length;  // per step: its beats (at least 1)
  int total = 0;
};

// Rounds of the ring collective of a communication step on `gpus` GPUs (1 for compute steps
// and for a single GPU, where nothing moves).
int step_beat_length(const IterationStep& step, int gpus);
StepBeats step_beats(const IterationTimeline& timeline);

// Where a clock position (in beats) falls: the step, and how many of its beats have passed
// (0 .. its length; a whole number k means k rounds of its collective are complete).
struct StepMoment {
  int step = 0;
  double into = 0;
};
StepMoment step_moment(const StepBeats& beats, double position);

// What GPU `gpu` holds at that moment: memory_at(), except that a reduce-scatter releases the
// bucket's slots as the GPU sends them, round by round, until only its own shard (already
// counted with the gradients) is left.
GpuMemory memory_at_moment(const IterationTimeline& timeline, const StepMoment& moment, int gpu);

// Bytes GPU `gpu` has sent from the start of the iteration up to `position`, whole rounds
// only, from the engine's ring traffic of every collective; and in the whole iteration.
class SentBytes {
 public:
  SentBytes() = default;
  SentBytes(const IterationTimeline& timeline, const StepBeats& beats);
  std::int64_t until(const StepMoment& moment, int gpu) const;
  std::int64_t per_iteration(int gpu) const;

 private:
  int gpus_ = 0;
  std::vector<std::int64_t> before_step_;  // [step * gpus + gpu]: sent before the step starts
  std::vector<std::int64_t> in_step_;      // [step * gpus + gpu]: sent by the step
  std::vector<int> length_;
};

}  // namespace ringviz::gui
