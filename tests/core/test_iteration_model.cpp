// The whole-iteration model against Korthikanti et al.'s activation counts worked by hand, the
// memory model's ZeRO figures, the cost model, and the small training run.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/engine/backend.h"
#include "core/training/cost_model.h"
#include "core/training/iteration_model.h"
#include "core/training/training_run.h"
#include "core/training/training_words.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

IterationQuery query_for(std::string_view preset, Strategy strategy = Strategy::ddp,
                         Recompute recompute = Recompute::none, std::int64_t seq = 4096) {
  IterationQuery q;
  q.model = find_transformer_preset(preset);
  q.seq = seq;
  q.micro_batch = 1;
  q.gpus = 8;
  q.strategy = strategy;
  q.recompute = recompute;
  return q;
}

std::string message_of(const IterationQuery& q) {
  try {
    estimate_iteration(q);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("every preset's activations follow Korthikanti's per-layer counts in each recompute mode") {
  // Worked by hand with s = 4096 (gpt3-175b: its own 2048), b = 1:
  //   full layer = 34·s·b·h + 5·a·s²·b, selective = 34·s·b·h, full recompute stores 2·s·b·h,
  //   logits = 4·s·b·V. E.g. llama2-7b: s·b·h = 16777216, so 34·sbh = 570425344 and
  //   5·32·4096² = 2684354560, together 3254779904 bytes a layer.
  struct Expected {
    std::string_view preset;
    std::int64_t seq, full_layer, selective, stored_full, logits, layers;
  };
  const Expected table[] = {
      {"llama2-7b", 4096, 3'254'779'904, 570'425'344, 33'554'432, 524'288'000, 32},
      {"llama3-8b", 4096, 3'254'779'904, 570'425'344, 33'554'432, 2'101'346'304, 32},
      {"llama3-70b", 4096, 6'509'559'808, 1'140'850'688, 67'108'864, 2'101'346'304, 80},
      {"gpt3-175b", 2048, 2'868'903'936, 855'638'016, 50'331'648, 411'705'344, 96},
  };
  for (const Expected& e : table) {
    CAPTURE(e.preset);
    const TransformerShape& model = find_transformer_preset(e.preset);
    CHECK(model.layers == e.layers);
    const ActivationBytes none = activation_bytes(model, e.seq, 1, Recompute::none);
    CHECK(none.full_layer == e.full_layer);
    CHECK(none.stored_per_layer == e.full_layer);
    CHECK(none.all_layers == e.layers * e.full_layer);
    CHECK(none.recomputed == 0);
    CHECK(none.logits == e.logits);
    const ActivationBytes selective = activation_bytes(model, e.seq, 1, Recompute::selective);
    CHECK(selective.stored_per_layer == e.selective);
    CHECK(selective.all_layers == e.layers * e.selective);
    CHECK(selective.recomputed == 0);
    const ActivationBytes full = activation_bytes(model, e.seq, 1, Recompute::full);
    CHECK(full.stored_per_layer == e.stored_full);
    CHECK(full.all_layers == e.layers * e.stored_full);
    CHECK(full.recomputed == e.full_layer);
    CHECK(full.logits == e.logits);
    // Two sequences a GPU double every count.
    CHECK(activation_bytes(model, e.seq, 2, Recompute::none).full_layer == 2 * e.full_layer);
  }
}

TEST_CASE("the presets carry their published parameter counts and shapes") {
  CHECK(find_transformer_preset("llama2-7b").parameters == 6'738'415'616);
  CHECK(find_transformer_preset("llama3-8b").vocab == 128'256);
  CHECK(find_transformer_preset("llama3-70b").hidden == 8192);
  CHECK(find_transformer_preset("gpt3-175b").heads == 96);
  CHECK(find_accelerator("a100").peak_flops == 312e12);
  CHECK(find_accelerator("h100").peak_flops == 989e12);
}

TEST_CASE("the iteration's model states are the memory model's ZeRO figures, unchanged") {
  for (Strategy strategy : kAllStrategies)
    for (MemoryConvention convention : kAllConventions) {
      CAPTURE(strategy_name(strategy));
      CAPTURE(convention_name(convention));
      IterationQuery q = query_for("llama3-8b", strategy);
      q.convention = convention;
      const IterationEstimate e = estimate_iteration(q);
      const MemoryEstimate states = estimate_memory({q.model.parameters, 8, strategy, convention, Order::seed});
      CHECK(e.model_states.per_gpu == states.per_gpu);
      const IterationMemory& start = e.timeline.front().memory;
      CHECK(start.parameters == states.largest().parameters());
      CHECK(start.optimizer_states == states.largest().optimizer_states());
      CHECK(start.total() == start.parameters + start.optimizer_states);
      // The optimizer step holds every gradient the memory model counts.
      const auto step = std::find_if(e.timeline.begin(), e.timeline.end(), [](const IterationEvent& event) {
        return event.phase == IterationPhase::optimizer_step;
      });
      REQUIRE(step != e.timeline.end());
      CHECK(step->memory.parameters + step->memory.gradients + step->memory.optimizer_states ==
            states.largest().total());
    }
}

TEST_CASE("the source article's 7B ledger: 112 GB of model states under DDP at the optimizer step") {
  IterationQuery q = query_for("llama2-7b");
  q.model.name = kCustomModelName;
  q.model.parameters = 7'000'000'000;
  const IterationEstimate e = estimate_iteration(q);
  // The gradients (14 GB) exist from backward to the step; the other 98 GB throughout.
  CHECK(e.timeline.front().memory.total() == 98'000'000'000);
  const IterationEvent& step = e.timeline.back();
  CHECK(step.phase == IterationPhase::optimizer_step);
  CHECK(step.memory.total() == 112'000'000'000);
  CHECK_FALSE(e.fits);
}

TEST_CASE("activations rise layer by layer in forward and fall in backward, and the peak is the largest moment") {
  for (Recompute recompute : kAllRecomputes) {
    CAPTURE(recompute_name(recompute));
    const IterationEstimate e = estimate_iteration(query_for("llama2-7b", Strategy::zero2, recompute));
    const ActivationBytes& a = e.activations;
    std::int64_t forward_layers = 0;
    std::int64_t previous = -1;
    for (const IterationEvent& event : e.timeline) {
      if (event.phase == IterationPhase::forward) {
        ++forward_layers;
        CHECK(event.memory.activations == event.layer * a.stored_per_layer);
        CHECK(event.memory.activations > previous);
        previous = event.memory.activations;
      }
      if (event.phase == IterationPhase::loss) {
        CHECK(event.memory.activations == a.all_layers);
        CHECK(event.memory.logits == a.logits);
      }
      if (event.phase == IterationPhase::backward) {
        CHECK(event.memory.activations == event.layer * a.stored_per_layer + a.recomputed);
        CHECK(event.memory.logits == 0);
      }
      if (event.phase == IterationPhase::optimizer_step) CHECK(event.memory.activations == 0);
      CHECK(event.memory.total() <= e.peak.memory.total());
    }
    CHECK(forward_layers == 32);
    CHECK(e.peak.memory == e.timeline[static_cast<std::size_t>(e.peak.event)].memory);
  }
}

TEST_CASE("without recomputation a long sequence peaks at the loss, caused by activations") {
  const IterationEstimate e = estimate_iteration(query_for("llama3-8b", Strategy::zero3));
  CHECK(e.timeline[static_cast<std::size_t>(e.peak.event)].phase == IterationPhase::loss);
  CHECK(e.peak.cause == PeakCause::activations);
  CHECK(e.peak.description.find("activations") != std::string::npos);
  CHECK_FALSE(e.fits);
  // ZeRO-3 shards model states, not activations: full recomputation is what makes it fit.
  CHECK(estimate_iteration(query_for("llama3-8b", Strategy::zero3, Recompute::full)).fits);
}

TEST_CASE("ZeRO-3 gathers each bucket's parameters in forward as a buffer, and ZeRO-2 reduces gradient buckets") {
  const IterationEstimate zero3 = estimate_iteration(query_for("llama2-7b", Strategy::zero3));
  const std::int64_t bucket_parameters = 2 * (kDefaultBucketBytes / 2);  // 16-bit parameters
  CHECK(zero3.timeline[1].memory.buffers == bucket_parameters);
  const IterationEstimate zero2 = estimate_iteration(query_for("llama2-7b", Strategy::zero2));
  bool buffered = false;
  for (const IterationEvent& event : zero2.timeline)
    buffered = buffered || (event.phase == IterationPhase::backward && event.memory.buffers > 0);
  CHECK(buffered);
}

TEST_CASE("offloading the optimizer keeps its states in host memory, sharded as the strategy shards them") {
  IterationQuery q = query_for("llama2-7b", Strategy::zero2);
  q.offload = Offload::optimizer;
  const IterationEstimate e = estimate_iteration(q);
  const std::int64_t psi = q.model.parameters;
  const std::int64_t owned = (psi + 7) / 8;  // the largest shard
  // 12 bytes of fp32 master, momentum and variance, and the 2-byte gradient shard sent down.
  CHECK(e.host_per_gpu == 14 * owned);
  CHECK(e.host_per_machine == 8 * 14 * owned);
  CHECK(e.pcie_bytes_per_gpu == 4 * owned);  // gradients down, 16-bit parameters up
  for (const IterationEvent& event : e.timeline) {
    CHECK(event.memory.optimizer_states == 0);
    CHECK(event.host == e.host_per_gpu);
  }
  CHECK(e.time.offload > 0);
  IterationQuery ddp = q;
  ddp.strategy = Strategy::ddp;
  CHECK(estimate_iteration(ddp).host_per_gpu == 14 * psi);
  CHECK(estimate_iteration(query_for("llama2-7b")).host_per_gpu == 0);
}

TEST_CASE("compute is 6·Ψ·tokens at utilisation × peak, and full recomputation adds a third of it") {
  IterationQuery q = query_for("llama3-8b", Strategy::ddp, Recompute::full);
  q.accelerator = "a100";
  q.utilisation = 0.5;
  const IterationEstimate e = estimate_iteration(q);
  const double flops = 6.0 * static_cast<double>(q.model.parameters) * 4096;
  CHECK(e.time.model_flops == doctest::Approx(flops));
  CHECK(e.time.compute == doctest::Approx(flops / (312e12 * 0.5)));
  CHECK(e.time.recompute == doctest::Approx(e.time.compute / 3));
  CHECK(e.time.total == doctest::Approx(e.time.compute + e.time.recompute + e.time.exposed_communication +
                                        e.time.exposed_offload));
  CHECK(estimate_iteration(query_for("llama3-8b")).time.recompute == 0);
}

TEST_CASE("DDP's communication is the cost model's ring all-reduce of every bucket on the chosen link") {
  IterationQuery q = query_for("llama2-7b");
  q.link = "pcie4";
  const IterationEstimate e = estimate_iteration(q);
  const LinkModel& link = find_link_preset("pcie4");
  const std::int64_t bucket = kDefaultBucketBytes / 2;
  const std::int64_t full = q.model.parameters / bucket;
  const std::int64_t last = q.model.parameters - full * bucket;
  const auto ring = [&](std::int64_t count) {
    return estimate_cost(ConfigBuilder().op(Op::allreduce).ranks(8).count(count).dtype(DType::bf16), link).seconds;
  };
  CHECK(e.time.communication == doctest::Approx(static_cast<double>(full) * ring(bucket) + ring(last)));
  CHECK(e.time.exposed_communication <= e.time.communication);
  CHECK(e.time.exposed_communication > 0);
}

TEST_CASE("the training run's measured activation bytes per layer equal the model's count for that MLP") {
  auto backend = make_cpu_backend(1);
  TrainingOptions options;
  options.gpus = 2;
  options.batch_per_gpu = 24;
  TrainingRun run(options, *backend);
  CHECK(run.activation_bytes_per_layer().empty());
  run.step();
  CHECK(run.activation_bytes_per_layer() == mlp_activation_bytes(options.model, 24));
  CHECK(run.activation_bytes_per_layer() == std::vector<std::int64_t>{24 * 128 * 4, 24 * 3 * 4});
}

TEST_CASE("zero sizes, 64-bit overflow and unknown presets are refused, naming the field") {
  IterationQuery q = query_for("llama2-7b");
  q.seq = 0;
  CHECK(message_of(q).rfind("seq:", 0) == 0);
  q = query_for("llama2-7b");
  q.micro_batch = -3;
  CHECK(message_of(q).rfind("micro-batch:", 0) == 0);
  q = query_for("llama2-7b");
  q.model.heads = 0;
  CHECK(message_of(q).rfind("heads:", 0) == 0);
  q = query_for("llama2-7b");
  q.seq = 4'000'000'000;
  q.micro_batch = 4'000'000'000;
  CHECK(message_of(q).rfind("seq:", 0) == 0);
  CHECK(message_of(q).find("overflow") != std::string::npos);
  q = query_for("llama2-7b");
  q.utilisation = 0;
  CHECK(message_of(q).rfind("utilisation:", 0) == 0);
  CHECK_THROWS_AS(find_transformer_preset("llama9"), InputError);
  CHECK_THROWS_AS(find_accelerator("tpu"), InputError);
}

TEST_CASE("the overlap's clauses are flags both languages word, one clause per flag") {
  IterationQuery zero3 = query_for("llama2-7b", Strategy::zero3);
  zero3.offload = Offload::optimizer;
  const IterationEstimate gathered = estimate_iteration(zero3);
  CHECK(gathered.time.gathers_ahead);
  CHECK(gathered.time.offload_streams);
  CHECK(gathered.time.overlap.find("ZeRO-3's parameter gathers") != std::string::npos);
  CHECK(iteration_overlap(gathered, Language::zh).find("ZeRO-3 的参数收集") != std::string::npos);
  CHECK(iteration_overlap(gathered, Language::zh).find("PCIe") != std::string::npos);

  const IterationEstimate zero2 = estimate_iteration(query_for("llama2-7b", Strategy::zero2));
  CHECK_FALSE(zero2.time.gathers_ahead);
  CHECK(zero2.time.gather_after_step);
  CHECK_FALSE(zero2.time.offload_streams);
  CHECK(zero2.time.overlap.find("after the step is not hidden") != std::string::npos);
  CHECK(iteration_overlap(zero2, Language::zh).find("优化器步之后对更新参数的全收集未被掩盖") != std::string::npos);
  CHECK(iteration_overlap(zero2, Language::zh).find("ZeRO-3") == std::string::npos);
  CHECK(iteration_overlap(zero2, Language::en) == zero2.time.overlap);

  const IterationEstimate ddp = estimate_iteration(query_for("llama2-7b"));
  CHECK_FALSE(ddp.time.gather_after_step);
  CHECK(iteration_overlap(ddp, Language::zh) == "反向计算下一批梯度桶时归约已完成的桶，除最后一个外都被掩盖。");
}

TEST_CASE("the activation formulas in Chinese say per layer once, in front") {
  CHECK(activation_formula(Recompute::full, Language::en) == activation_formula(Recompute::full));
  for (Recompute recompute : kAllRecomputes) {
    const std::string zh(activation_formula(recompute, Language::zh));
    CHECK(zh.rfind("每层 ", 0) == 0);
    CHECK(zh.find("per layer") == std::string::npos);
  }
}
