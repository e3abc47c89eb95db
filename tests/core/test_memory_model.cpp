// The memory model against the source article and the ZeRO paper, and the iteration timeline.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/algorithms/registry.h"
#include "core/engine/collective.h"
#include "core/model/layout.h"
#include "core/training/memory_model.h"
#include "core/schedule/schedule.h"
#include "core/engine/traffic.h"
#include "core/training/training_timeline.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

MemoryEstimate estimate(std::int64_t parameters, int gpus, Strategy strategy,
                        MemoryConvention convention = MemoryConvention::paper,
                        Order order = Order::seed) {
  MemoryQuery query;
  query.parameters = parameters;
  query.gpus = gpus;
  query.strategy = strategy;
  query.convention = convention;
  query.order = order;
  return estimate_memory(query);
}

}  // namespace

TEST_CASE("a 7B model under DDP needs 112 GB of model states on every GPU, as the source article says") {
  for (int gpus : {1, 4, 8}) {
    const MemoryEstimate e = estimate(7'000'000'000, gpus, Strategy::ddp);
    for (const ModelStateBytes& gpu : e.per_gpu) {
      CHECK(gpu.total() == 112'000'000'000);
      CHECK(gpu.parameters() == 14'000'000'000);
      CHECK(gpu.gradients() == 14'000'000'000);
      CHECK(gpu[StateComponent::master_weights] == 28'000'000'000);
      CHECK(gpu[StateComponent::momentum] == 28'000'000'000);
      CHECK(gpu[StateComponent::variance] == 28'000'000'000);
      CHECK(gpu.optimizer_states() == 84'000'000'000);
    }
    CHECK(format_bytes(static_cast<double>(e.largest().total()), ByteUnit::gb) == "112.0 GB");
  }
}

TEST_CASE("the ZeRO paper's Figure 1 (7.5B parameters, 64 GPUs) is reproduced: 120, 31.4, 16.6 and 1.9 GB") {
  const std::int64_t psi = 7'500'000'000;
  const auto total = [&](Strategy s) { return estimate(psi, 64, s).largest().total(); };
  CHECK(total(Strategy::ddp) == 120'000'000'000);
  CHECK(total(Strategy::zero1) == 31'406'250'000);
  CHECK(total(Strategy::zero2) == 16'640'625'000);
  CHECK(total(Strategy::zero3) == 1'875'000'000);
  CHECK(format_bytes(static_cast<double>(total(Strategy::ddp)), ByteUnit::gb) == "120.0 GB");
  CHECK(format_bytes(static_cast<double>(total(Strategy::zero1)), ByteUnit::gb) == "31.4 GB");
  CHECK(format_bytes(static_cast<double>(total(Strategy::zero2)), ByteUnit::gb) == "16.6 GB");
  CHECK(format_bytes(static_cast<double>(total(Strategy::zero3)), ByteUnit::gb) == "1.9 GB");
}

TEST_CASE("each convention's closed form is stated and matches the bytes when N divides the parameters") {
  struct Expected {
    MemoryConvention convention;
    Strategy strategy;
    const char* formula;
  };
  const Expected cases[] = {
      {MemoryConvention::paper, Strategy::ddp, "16Ψ"},
      {MemoryConvention::paper, Strategy::zero1, "4Ψ + 12Ψ/N"},
      {MemoryConvention::paper, Strategy::zero2, "2Ψ + 14Ψ/N"},
      {MemoryConvention::paper, Strategy::zero3, "16Ψ/N"},
      {MemoryConvention::deepspeed, Strategy::ddp, "20Ψ"},
      {MemoryConvention::deepspeed, Strategy::zero1, "4Ψ + 16Ψ/N"},
      {MemoryConvention::deepspeed, Strategy::zero2, "2Ψ + 18Ψ/N"},
      {MemoryConvention::deepspeed, Strategy::zero3, "20Ψ/N"},
      {MemoryConvention::fp32, Strategy::ddp, "16Ψ"},
      {MemoryConvention::fp32, Strategy::zero1, "8Ψ + 8Ψ/N"},
      {MemoryConvention::fp32, Strategy::zero2, "4Ψ + 12Ψ/N"},
      {MemoryConvention::fp32, Strategy::zero3, "16Ψ/N"},
  };
  for (const Expected& c : cases) {
    CAPTURE(convention_name(c.convention));
    CAPTURE(strategy_name(c.strategy));
    const MemoryEstimate e = estimate(13'000'000'000, 8, c.strategy, c.convention);
    CHECK(e.formula == c.formula);
    for (const ModelStateBytes& gpu : e.per_gpu) CHECK(static_cast<double>(gpu.total()) == e.formula_bytes);
    CHECK(!convention_assumptions(c.convention).empty());
  }
}

TEST_CASE("the deepspeed convention keeps an fp32 gradient copy and fp32 has no master weights") {
  const MemoryEstimate deepspeed = estimate(1000, 4, Strategy::zero2, MemoryConvention::deepspeed);
  CHECK(deepspeed.per_gpu[0][StateComponent::fp32_gradients] == 4 * 250);
  CHECK(deepspeed.per_gpu[0][StateComponent::gradients] == 2 * 250);
  const MemoryEstimate fp32 = estimate(1000, 4, Strategy::ddp, MemoryConvention::fp32);
  CHECK(fp32.per_gpu[0][StateComponent::master_weights] == 0);
  CHECK(fp32.per_gpu[0].parameters() == 4000);
}

TEST_CASE("uneven shards follow the engine's slots and add up to the whole model") {
  for (Order order : {Order::seed, Order::nccl}) {
    const MemoryEstimate e = estimate(1003, 4, Strategy::zero3, MemoryConvention::paper, order);
    std::int64_t owned = 0;
    std::int64_t momentum = 0;
    for (int gpu = 0; gpu < 4; ++gpu) {
      owned += e.owned_elements[static_cast<std::size_t>(gpu)];
      momentum += e.per_gpu[static_cast<std::size_t>(gpu)][StateComponent::momentum];
    }
    CHECK(owned == 1003);
    CHECK(momentum == 4 * 1003);
    // The first three slots are one element longer; the largest GPU owns one of them.
    CHECK(e.owned_elements[static_cast<std::size_t>(e.largest_gpu)] == 251);
  }
}

TEST_CASE("ring_owned_slot is the slot each rank's last reduce-scatter transfer completes, for every N and both orders") {
  for (Order order : {Order::seed, Order::nccl})
    for (int n = 1; n <= 20; ++n) {
      const Config config = ConfigBuilder().op(Op::reducescatter).order(order).ranks(n).count(3 * n + 1);
      const Schedule schedule = make_schedule(config);
      for (int r = 0; r < n; ++r) CHECK(ring_owned_slot(order, r, n) == schedule.owned_slot[static_cast<std::size_t>(r)]);
      if (n == 1) {
        CHECK(ring_owned_slot(order, 0, 1) == 0);
        continue;
      }
      for (const Transfer& transfer : schedule.rounds.back().transfers) {
        CHECK(transfer.completes_slot);
        CHECK(transfer.slot == ring_owned_slot(order, transfer.dst, n));
      }
    }
}

TEST_CASE("the per-slot byte count of a ring pass equals the engine's traffic") {
  for (Order order : {Order::seed, Order::nccl})
    for (int n = 1; n <= 12; ++n)
      for (std::int64_t count : {std::int64_t{0}, std::int64_t{5}, std::int64_t{97}, std::int64_t{1000}}) {
        const Config config = ConfigBuilder().op(Op::allreduce).order(order).ranks(n).count(count)
            .dtype(DType::bf16);
        const SlotLayout layout = make_layout(config);
        const Schedule schedule = make_schedule(config);
        const Traffic traffic = compute_traffic(schedule, layout, config.dtype, n);
        for (int r = 0; r < n; ++r) {
          std::int64_t rs = 0;
          std::int64_t ag = 0;
          for (std::size_t round = 0; round < schedule.rounds.size(); ++round)
            (schedule.rounds[round].phase == Phase::reduce_scatter ? rs : ag) +=
                traffic.sent[round][static_cast<std::size_t>(r)];
          CHECK(ring_pass_bytes_sent(layout, order, Phase::reduce_scatter, r, 2) == rs);
          CHECK(ring_pass_bytes_sent(layout, order, Phase::all_gather, r, 2) == ag);
        }
      }
}

TEST_CASE("communication per GPU: ZeRO-2 sends what DDP sends, ZeRO-3 half as much again") {
  const std::int64_t psi = 7'000'000'000;
  for (int gpus : {2, 4, 64, 300}) {
    CAPTURE(gpus);
    const MemoryEstimate ddp = estimate(psi, gpus, Strategy::ddp);
    const MemoryEstimate zero1 = estimate(psi, gpus, Strategy::zero1);
    const MemoryEstimate zero2 = estimate(psi, gpus, Strategy::zero2);
    const MemoryEstimate zero3 = estimate(psi, gpus, Strategy::zero3);
    CHECK(zero2.bytes_sent_per_gpu == ddp.bytes_sent_per_gpu);
    CHECK(zero1.bytes_sent_per_gpu == ddp.bytes_sent_per_gpu);
    // Exactly 1.5x when N divides Ψ; otherwise the extra all-gather skips a slot that may be
    // one element (2 bytes) longer or shorter than the one the reduce-scatter skips.
    for (int gpu = 0; gpu < gpus; ++gpu) {
      const auto g = static_cast<std::size_t>(gpu);
      const std::int64_t excess = 2 * zero3.bytes_sent_per_gpu[g] - 3 * ddp.bytes_sent_per_gpu[g];
      if (psi % gpus == 0)
        CHECK(excess == 0);
      else
        CHECK(std::abs(excess) <= 2);
    }
    // The source article's formula, 2 (N - 1) / N x M with M = 2Ψ bytes of bf16 gradients.
    if (psi % gpus == 0)
      CHECK(static_cast<double>(ddp.bytes_sent_per_gpu[0]) == ring_allreduce_bytes_per_gpu(gpus, 2.0 * psi));
  }
}

TEST_CASE("beyond the engine's 256 ranks the per-slot count continues the engine's traffic") {
  // N = 256 through the engine and through the closed form must agree; 1024 then follows.
  const std::int64_t count = 1'000'003;
  for (Op op : {Op::allreduce, Op::reducescatter, Op::allgather}) {
    const auto engine = ring_bytes_sent(op, count, DType::bf16, 256, Order::seed);
    const SlotLayout layout = make_layout(Op::allreduce, 256, count);
    for (int r = 0; r < 256; r += 17) {
      std::int64_t formula = 0;
      if (op != Op::allgather) formula += ring_pass_bytes_sent(layout, Order::seed, Phase::reduce_scatter, r, 2);
      if (op != Op::reducescatter) formula += ring_pass_bytes_sent(layout, Order::seed, Phase::all_gather, r, 2);
      CHECK(engine[static_cast<std::size_t>(r)] == formula);
    }
  }
  const MemoryEstimate big = estimate(70'000'000'000, 1024, Strategy::zero3);
  CHECK(big.per_gpu.size() == 1024);
  CHECK(big.bytes_sent_per_gpu[5] > 0);
}

TEST_CASE("parameter counts parse from presets, suffixes and plain integers") {
  CHECK(parse_parameter_count("7B") == 7'000'000'000);
  CHECK(parse_parameter_count("7.5B") == 7'500'000'000);
  CHECK(parse_parameter_count("1.5B") == 1'500'000'000);
  CHECK(parse_parameter_count("13B") == 13'000'000'000);
  CHECK(parse_parameter_count("70B") == 70'000'000'000);
  CHECK(parse_parameter_count("350M") == 350'000'000);
  CHECK(parse_parameter_count("2563") == 2563);
  CHECK(parse_parameter_count("1T") == 1'000'000'000'000);
  for (const ModelPreset& preset : kModelPresets) {
    CHECK(parse_parameter_count(preset.name) == preset.parameters);
    CHECK(format_parameter_count(preset.parameters) == preset.name);
  }
  CHECK(format_parameter_count(2563) == "2563");
  CHECK(format_parameter_count(350'000'000) == "350M");
}

TEST_CASE("bad sizes and names are refused with a message naming the flag") {
  for (const char* bad : {"-7B", "0", "abc", "7.5", "1.2345B5", "", "B", "7..5B", "1000T", "1.0000000001B"})
    CHECK_THROWS_WITH_AS(parse_parameter_count(bad, "--params"), doctest::Contains("--params"), InputError);
  MemoryQuery query;
  query.gpus = 0;
  CHECK_THROWS_WITH_AS(estimate_memory(query), doctest::Contains("gpus"), InputError);
  query.gpus = kMaxMemoryGpus + 1;
  CHECK_THROWS_WITH_AS(estimate_memory(query), doctest::Contains("gpus"), InputError);
  query.gpus = 4;
  query.parameters = -1;
  CHECK_THROWS_WITH_AS(estimate_memory(query), doctest::Contains("params"), InputError);
  CHECK_THROWS_WITH_AS(parse_strategy("zero4", "--strategy"), doctest::Contains("--strategy"), InputError);
  CHECK_THROWS_WITH_AS(parse_convention("mine", "--convention"), doctest::Contains("--convention"), InputError);
  CHECK_THROWS_WITH_AS(parse_unit("tb", "--unit"), doctest::Contains("--unit"), InputError);
}

TEST_CASE("GiB divide by 2^30, small values keep three significant digits and bytes stay whole") {
  CHECK(format_bytes(1073741824.0, ByteUnit::gib) == "1.0 GiB");
  CHECK(format_bytes(12'300'000.0, ByteUnit::gb) == "0.0123 GB");
  CHECK(format_bytes(0, ByteUnit::gb, false) == "0.0");
  CHECK(format_bytes(5126, ByteUnit::bytes) == "5126 bytes");
  CHECK(parse_unit("bytes") == ByteUnit::bytes);
}

namespace {

IterationTimeline timeline(std::int64_t parameters, int gpus, Strategy strategy, std::int64_t bucket_bytes,
                           MemoryConvention convention = MemoryConvention::paper, Order order = Order::seed) {
  TimelineQuery query;
  query.memory.parameters = parameters;
  query.memory.gpus = gpus;
  query.memory.strategy = strategy;
  query.memory.convention = convention;
  query.memory.order = order;
  query.bucket_bytes = bucket_bytes;
  return build_iteration_timeline(query);
}

std::vector<IterationStepKind> kinds(const IterationTimeline& t) {
  std::vector<IterationStepKind> result;
  for (const IterationStep& step : t.steps) result.push_back(step.kind);
  return result;
}

}  // namespace

TEST_CASE("the DDP iteration is forward, backward and all-reduce bucket by bucket, then one optimizer step") {
  using K = IterationStepKind;
  const IterationTimeline t = timeline(1000, 4, Strategy::ddp, 800);  // 400 bf16 gradients per bucket
  REQUIRE(t.buckets.size() == 3);
  CHECK(t.buckets[0].offset == 600);  // backward starts at the last layer
  CHECK(t.buckets[2].elements == 200);
  CHECK(kinds(t) == std::vector<K>{K::forward, K::backward, K::all_reduce, K::backward, K::all_reduce,
                                   K::backward, K::all_reduce, K::optimizer_step});
  CHECK(t.steps[2].collective->op == Op::allreduce);
  CHECK(t.steps[2].collective->elements == 400);
  // Gradients pile up bucket by bucket; the peak is reached when the last bucket's are made.
  CHECK(t.steps[1].largest.gradients == 800);
  CHECK(t.steps[5].largest.gradients == 2000);
  CHECK(t.peak.step == 5);
  CHECK(t.peak.component == PeakComponent::gradients);
  CHECK(t.peak.memory.total() == 16'000);
}

TEST_CASE("the ZeRO-2 iteration frees non-owned gradient slots after each reduce-scatter and ends with an all-gather") {
  using K = IterationStepKind;
  const IterationTimeline t = timeline(1000, 4, Strategy::zero2, 800);
  CHECK(kinds(t) == std::vector<K>{K::forward, K::backward, K::reduce_scatter, K::backward, K::reduce_scatter,
                                   K::backward, K::reduce_scatter, K::optimizer_step, K::all_gather,
                                   K::all_gather, K::all_gather});
  // GPU 3 owns slot 0 in seed order: 100 of each full bucket, 50 of the last.
  CHECK(t.owned_elements[3] == 250);
  const GpuMemory during_second = memory_at(t, 3, 3);  // backward of bucket 2
  CHECK(during_second.gradients == 2 * 100);           // the owned slot of bucket 1
  CHECK(during_second.transient == 2 * 400);           // bucket 2, whole, until its reduce-scatter
  CHECK(during_second.parameters == 2000);
  CHECK(during_second.optimizer_states == 12 * 250);
  const GpuMemory step = memory_at(t, 7, 3);
  CHECK(step.gradients == 2 * 250);
  CHECK(step.transient == 0);
  CHECK(memory_at(t, 8, 3).gradients == 0);
  CHECK(t.steps[8].collective->op == Op::allgather);
  CHECK(t.peak.memory.transient > 0);
}

TEST_CASE("with one bucket the optimizer step holds exactly what the memory model predicts, on every GPU") {
  for (MemoryConvention convention : kAllConventions)
    for (Strategy strategy : kAllStrategies)
      for (Order order : {Order::seed, Order::nccl}) {
        CAPTURE(convention_name(convention));
        CAPTURE(strategy_name(strategy));
        const IterationTimeline t = timeline(1003, 4, strategy, 1 << 20, convention, order);
        REQUIRE(t.buckets.size() == 1);
        MemoryQuery query = t.query.memory;
        const MemoryEstimate e = estimate_memory(query);
        int optimizer = -1;
        for (int s = 0; s < static_cast<int>(t.steps.size()); ++s)
          if (t.steps[static_cast<std::size_t>(s)].kind == IterationStepKind::optimizer_step) optimizer = s;
        for (int gpu = 0; gpu < 4; ++gpu) {
          const GpuMemory held = memory_at(t, optimizer, gpu);
          const ModelStateBytes& model = e.per_gpu[static_cast<std::size_t>(gpu)];
          CHECK(held.parameters == model.parameters());
          CHECK(held.gradients == model.gradients());
          CHECK(held.optimizer_states == model.optimizer_states());
          CHECK(held.transient == 0);
        }
      }
}

TEST_CASE("every step's largest GPU really holds the most, and owned ranges tile each bucket") {
  for (Strategy strategy : kAllStrategies)
    for (Order order : {Order::seed, Order::nccl}) {
      CAPTURE(strategy_name(strategy));
      const IterationTimeline t = timeline(1013, 5, strategy, 2 * 203, MemoryConvention::deepspeed, order);
      for (int s = 0; s < static_cast<int>(t.steps.size()); ++s) {
        std::int64_t most = 0;
        for (int gpu = 0; gpu < 5; ++gpu) most = std::max(most, memory_at(t, s, gpu).total());
        CHECK(t.steps[static_cast<std::size_t>(s)].largest.total() == most);
        if (const auto& call = t.steps[static_cast<std::size_t>(s)].collective)
          CHECK(!validate(call->ring_view(5, order)).has_value());
      }
      for (int b = 0; b < static_cast<int>(t.buckets.size()); ++b) {
        std::set<std::int64_t> covered;
        for (int gpu = 0; gpu < 5; ++gpu) {
          const Slot range = owned_range(t, b, gpu);
          for (std::int64_t i = range.offset; i < range.offset + range.count; ++i) CHECK(covered.insert(i).second);
        }
        CHECK(static_cast<std::int64_t>(covered.size()) == t.buckets[static_cast<std::size_t>(b)].elements);
        CHECK(*covered.begin() == t.buckets[static_cast<std::size_t>(b)].offset);
      }
    }
}

TEST_CASE("ZeRO-2's peak exceeds its steady state by at most one bucket, for a 7B model on 4 GPUs") {
  const IterationTimeline t = timeline(7'000'000'000, 4, Strategy::zero2, kDefaultBucketBytes);
  CHECK(t.bucket_elements == kDefaultBucketBytes / 2);
  CHECK(t.buckets.size() == 535);  // 534 full buckets of 13107200 bf16 gradients and a short one
  const MemoryEstimate e = estimate(7'000'000'000, 4, Strategy::zero2);
  CHECK(t.peak.memory.total() > e.largest().total());
  CHECK(t.peak.memory.total() <= e.largest().total() + kDefaultBucketBytes + 2 * 535);
  // The peak comes while a bucket's full gradients wait for their reduce-scatter, on top of
  // the owned slots of the buckets already reduced.
  CHECK(t.steps[static_cast<std::size_t>(t.peak.step)].bucket >= 0);
  CHECK(t.peak.memory.transient > 0);
  CHECK(t.peak.component == PeakComponent::gradients);
  const IterationTimeline ddp = timeline(7'000'000'000, 4, Strategy::ddp, kDefaultBucketBytes);
  CHECK(ddp.peak.memory.total() == 112'000'000'000);
}

TEST_CASE("ZeRO stage k shards one more group per stage, and every component follows its group") {
  CHECK(!shards(Strategy::ddp, StateGroup::optimizer_states));
  CHECK(shards(Strategy::zero1, StateGroup::optimizer_states));
  CHECK(!shards(Strategy::zero1, StateGroup::gradients));
  CHECK(shards(Strategy::zero2, StateGroup::gradients));
  CHECK(!shards(Strategy::zero2, StateGroup::parameters));
  CHECK(shards(Strategy::zero3, StateGroup::parameters));
  CHECK(state_group(StateComponent::fp32_gradients) == StateGroup::optimizer_states);
  for (MemoryConvention convention : kAllConventions)
    for (const ComponentRule& rule : component_rules(convention))
      for (Strategy strategy : kAllStrategies)
        CHECK(is_sharded(rule, strategy) == (zero_stage(strategy) >= rule.sharded_from_stage));
}

TEST_CASE("a bucket smaller than one gradient, or too many buckets, is refused naming the bucket") {
  CHECK_THROWS_WITH_AS(timeline(1000, 4, Strategy::ddp, 1), doctest::Contains("bucket"), InputError);
  CHECK_THROWS_WITH_AS(timeline(70'000'000'000, 4, Strategy::ddp, 1000), doctest::Contains("bucket"), InputError);
}
