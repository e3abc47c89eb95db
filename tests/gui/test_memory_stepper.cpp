// The memory view's one clock (views/iteration/memory_beats.h): the bars and the ring picture step
// together, a reduce-scatter releases the bucket round by round, and the traffic on screen is
// the model's.
#include <doctest/doctest.h>

#include "app/gui/views/iteration/memory_beats.h"
#include "app/gui/views/iteration/memory_view.h"

using namespace ringviz;
using namespace ringviz::gui;

namespace {

IterationTimeline timeline_of(Strategy strategy, int gpus, std::int64_t parameters, std::int64_t bucket_bytes) {
  TimelineQuery query;
  query.memory.parameters = parameters;
  query.memory.gpus = gpus;
  query.memory.strategy = strategy;
  query.bucket_bytes = bucket_bytes;
  return build_iteration_timeline(query);
}

}  // namespace

TEST_CASE("DDP's and ZeRO-2's iterations last the same number of beats, as their traffic is the same") {
  // (One GPU sends nothing; its steps still take a beat each so that they can be seen.)
  for (int gpus : {2, 3, 4, 8, 16}) {
    for (std::int64_t bucket : {std::int64_t{800}, std::int64_t{4000}, std::int64_t{1} << 20}) {
      CAPTURE(gpus);
      CAPTURE(bucket);
      const IterationTimeline ddp = timeline_of(Strategy::ddp, gpus, 1000, bucket);
      const IterationTimeline zero2 = timeline_of(Strategy::zero2, gpus, 1000, bucket);
      CHECK(step_beats(ddp).total == step_beats(zero2).total);
      const SentBytes ddp_sent(ddp, step_beats(ddp)), zero2_sent(zero2, step_beats(zero2));
      for (int g = 0; g < gpus; ++g) CHECK(ddp_sent.per_iteration(g) == zero2_sent.per_iteration(g));
    }
  }
}

TEST_CASE("a communication step lasts its ring's rounds and a compute step one beat") {
  const IterationTimeline zero2 = timeline_of(Strategy::zero2, 4, 1000, 800);
  const StepBeats beats = step_beats(zero2);
  REQUIRE(beats.length.size() == zero2.steps.size());
  for (std::size_t s = 0; s < zero2.steps.size(); ++s) {
    CAPTURE(s);
    const IterationStepKind kind = zero2.steps[s].kind;
    const bool rounds = kind == IterationStepKind::reduce_scatter || kind == IterationStepKind::all_gather;
    CHECK(beats.length[s] == (rounds ? 3 : 1));
    if (s > 0) CHECK(beats.first[s] == beats.first[s - 1] + beats.length[s - 1]);
    const StepMoment moment = step_moment(beats, beats.first[s] + 0.5);
    CHECK(moment.step == static_cast<int>(s));
    CHECK(moment.into == doctest::Approx(0.5));
  }
  CHECK(step_moment(beats, 1e9).step == static_cast<int>(zero2.steps.size()) - 1);
}

TEST_CASE("ZeRO-2's bucket shrinks round by round during its reduce-scatter, down to nothing beside the kept shard") {
  const IterationTimeline zero2 = timeline_of(Strategy::zero2, 4, 1000, 800);
  for (int s = 0; s < static_cast<int>(zero2.steps.size()); ++s) {
    if (zero2.steps[static_cast<std::size_t>(s)].kind != IterationStepKind::reduce_scatter) continue;
    for (int g = 0; g < 4; ++g) {
      CAPTURE(s);
      CAPTURE(g);
      const GpuMemory start = memory_at_moment(zero2, {s, 0.0}, g);
      CHECK(start == memory_at(zero2, s, g));  // the model's figure, peak of the step
      std::int64_t previous = start.transient;
      for (int round = 1; round <= 3; ++round) {
        const GpuMemory now = memory_at_moment(zero2, {s, static_cast<double>(round)}, g);
        CHECK(now.transient < previous);
        CHECK(now.gradients == start.gradients);
        previous = now.transient;
      }
      CHECK(previous == 0);
    }
  }
  // DDP's all-reduce keeps the whole bucket: every GPU needs all of it back.
  const IterationTimeline ddp = timeline_of(Strategy::ddp, 4, 1000, 800);
  for (int s = 0; s < static_cast<int>(ddp.steps.size()); ++s)
    if (ddp.steps[static_cast<std::size_t>(s)].kind == IterationStepKind::all_reduce)
      CHECK(memory_at_moment(ddp, {s, 3.0}, 0) == memory_at(ddp, s, 0));
}

TEST_CASE("bytes sent so far grow by whole rounds and end at the model's traffic per iteration") {
  MemoryQuery query;
  query.parameters = 7'000'000'000;
  query.gpus = 4;
  for (Strategy strategy : {Strategy::ddp, Strategy::zero2}) {
    query.strategy = strategy;
    const MemoryEstimate estimate = estimate_memory(query);
    TimelineQuery timeline_query;
    timeline_query.memory = query;
    timeline_query.bucket_bytes = std::int64_t{1} << 30;
    const IterationTimeline timeline = build_iteration_timeline(timeline_query);
    const StepBeats beats = step_beats(timeline);
    const SentBytes sent(timeline, beats);
    for (int g = 0; g < 4; ++g) {
      CHECK(sent.per_iteration(g) == estimate.bytes_sent_per_gpu[static_cast<std::size_t>(g)]);
      CHECK(sent.until(step_moment(beats, beats.total), g) == sent.per_iteration(g));
      CHECK(sent.until(step_moment(beats, 0), g) == 0);
    }
    // 7B bf16 gradients on 4 GPUs: 2 x 3/4 x 14 GB = 21 GB either way.
    CHECK(sent.per_iteration(0) == 21'000'000'000);
  }
}

TEST_CASE("the memory view's clock drives the ring picture and a lesson's ring drives the bars") {
  MemoryView view;
  view.set_model(1'500'000'000, 4, {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper);
  view.set_bucket_bytes(std::int64_t{1} << 30);
  view.columns();
  CHECK(view.at_rest());
  CHECK_FALSE(view.ring_call().has_value());
  // Space on the Memory tab: the clock plays from the first beat.
  view.transport().toggle_play();
  CHECK_FALSE(view.at_rest());
  view.pause();
  // Follow ZeRO-2 into its first reduce-scatter, two rounds in.
  REQUIRE(view.follow_ring(Op::reducescatter, 2.0));
  CHECK(view.led_by_ring());
  const std::optional<MemoryView::RingCall> call = view.ring_call();
  REQUIRE(call.has_value());
  CHECK(call->config.op == Op::reducescatter);
  CHECK(call->config.ranks == 4);
  CHECK(call->config.count <= 8);
  CHECK(call->position == doctest::Approx(2.0));
  // Stepping the clock takes the lead back from the ring.
  view.transport().step_forward();
  CHECK_FALSE(view.led_by_ring());
  view.rest();
  CHECK(view.at_rest());
  CHECK(view.step() == MemoryView::kAtOptimizerStep);
  CHECK(view.follow_ring(Op::allgather, 1.0));  // ZeRO-2 has an all-gather after its step
}
