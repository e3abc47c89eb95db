// The memory, training and compare views' numbers, without a window: what the bars, curves
// and links are drawn from.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/algorithms/registry.h"
#include "app/gui/plots/centre_view_draw.h"
#include "app/gui/views/compare_view.h"
#include "app/gui/views/devices_view.h"
#include "app/gui/views/link_view.h"
#include "app/gui/views/iteration/memory_view.h"
#include "app/gui/views/training_view.h"
#include "app/gui/views/iteration/iteration_words.h"
#include "app/gui/text/strings.h"
#include "core/engine/session.h"
#include "tests/support/config_builder.h"
#include "app/gui/views/job_view.h"
#include "app/gui/replay/replay_timing.h"
#include "core/job/job_import.h"
#include "core/job/job_table.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;
using namespace ringviz::gui;

TEST_CASE("the memory view's 7B model on 4 GPUs holds 112 GB under DDP and 38.5 GB under ZeRO-2 at rest") {
  MemoryView view;
  view.set_model(7'000'000'000, 4, {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper);
  const auto& columns = view.columns();
  REQUIRE(columns.size() == 2);
  CHECK(columns[0].error == "");
  CHECK(columns[0].estimate.largest().total() == 112'000'000'000);
  CHECK(columns[1].estimate.largest().total() == 38'500'000'000);
  // At the optimizer step the timeline holds exactly the model states.
  const auto& ddp = columns[0].timeline;
  int optimizer = -1;
  for (std::size_t s = 0; s < ddp.steps.size(); ++s)
    if (ddp.steps[s].kind == IterationStepKind::optimizer_step) optimizer = static_cast<int>(s);
  REQUIRE(optimizer >= 0);
  CHECK(memory_at(ddp, optimizer, 0).total() == 112'000'000'000);
}

TEST_CASE("DDP and ZeRO-2 timelines line up step by step until ZeRO-2's all-gather") {
  MemoryView view;
  view.set_model(1'500'000'000, 4, {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper);
  view.set_bucket_bytes(std::int64_t{500} << 20);
  const auto& columns = view.columns();
  const auto& ddp = columns[0].timeline.steps;
  const auto& zero = columns[1].timeline.steps;
  REQUIRE(zero.size() > ddp.size());
  for (std::size_t s = 0; s < ddp.size(); ++s) {
    CAPTURE(s);
    CHECK(ddp[s].bucket == zero[s].bucket);
  }
  CHECK(view.step_count() == static_cast<int>(zero.size()));
}

TEST_CASE("each GPU's peak over the iteration is at least what it holds at any step, and ZeRO-2's is far below DDP's") {
  MemoryView view;
  view.set_model(7'000'000'000, 4, {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper);
  view.set_bucket_bytes(std::int64_t{1} << 30);
  const auto& columns = view.columns();
  for (const auto& column : columns) {
    REQUIRE(column.peak_per_gpu.size() == 4);
    for (int s = 0; s < static_cast<int>(column.timeline.steps.size()); ++s)
      for (int g = 0; g < 4; ++g) CHECK(memory_at(column.timeline, s, g).total() <= column.peak_per_gpu[g]);
  }
  CHECK(columns[0].peak_per_gpu[0] == 112'000'000'000);
  CHECK(columns[1].peak_per_gpu[0] < 45'000'000'000);
  CHECK(peak_text(columns[1].timeline, Language::en).rfind("Peak ", 0) == 0);
}

TEST_CASE("the memory view words the peak's cause from the timeline's data, in English and in Chinese") {
  TimelineQuery query;
  query.memory.parameters = 1000;
  query.memory.gpus = 4;
  query.memory.strategy = Strategy::zero2;
  query.bucket_bytes = 800;
  const IterationTimeline timeline = build_iteration_timeline(query);
  CHECK(peak_text(timeline, Language::en) ==
        "Peak 6e-06 GB on GPU 3 at step 4 (backward: the gradients of bucket 2 of 3 are ready): gradients "
        "(2e-07 GB) and transient buffers (8e-07 GB) on top of the parameters and optimizer states");
  const std::string chinese = peak_text(timeline, Language::zh);
  CHECK(chinese.rfind("峰值 6e-06 GB，出现在 GPU 3。第 4 步", 0) == 0);
  CHECK(chinese.find("梯度（2e-07 GB）和临时缓冲区（8e-07 GB）") != std::string::npos);
}

TEST_CASE("playing the memory view walks the iteration and stops at its last step") {
  MemoryView view;
  view.set_model(1'500'000'000, 2, {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper);
  view.set_bucket_bytes(std::int64_t{1} << 30);
  view.columns();
  const int steps = view.step_count();
  view.set_step(0);
  view.play();
  view.advance(2.0);  // a beat lasts a ring round at 1x (1.6 s) when the iteration is short
  CHECK(view.step() >= 1);
  for (int i = 0; i < 1000 && view.playing(); ++i) view.advance(0.5);
  CHECK_FALSE(view.playing());
  CHECK(view.step() == steps - 1);
}

TEST_CASE("the training view's DDP and ZeRO-2 runs stay bit-identical across GPUs while nosync drifts") {
  TrainingView view;
  view.configure(4, DType::f32, Order::seed, 12, {TrainStrategy::ddp, TrainStrategy::zero2, TrainStrategy::nosync});
  view.compute(12);
  REQUIRE(view.run_count() == 3);
  for (int run = 0; run < 3; ++run) {
    CAPTURE(run);
    CHECK(view.error(run) == "");
    REQUIRE(view.history(run).size() == 12);
  }
  for (const auto& record : view.history(0)) CHECK(record.parameter_spread == 0);
  for (const auto& record : view.history(1)) CHECK(record.parameter_spread == 0);
  CHECK(view.history(2).back().parameter_spread > 0);
  // DDP and ZeRO-2 hold the same parameters as each other, step after step.
  for (std::size_t k = 0; k < 12; ++k) CHECK(view.history(0)[k].checksums == view.history(1)[k].checksums);
}

TEST_CASE("the training view plays from 0 to its iteration count and computes no more than that") {
  TrainingView view;
  view.configure(2, DType::f32, Order::seed, 10, {TrainStrategy::ddp});
  view.play();
  CHECK(view.playing());
  for (int i = 0; i < 100 && view.playing(); ++i) view.advance(0.25);
  CHECK(view.shown_iterations() == doctest::Approx(10));
  view.compute(50);
  CHECK(view.history(0).size() == 10);
}

TEST_CASE("link loads add up the bytes of every transfer between one pair of GPUs") {
  Config config = ConfigBuilder().op(Op::allreduce).ranks(4).count(8);
  SUBCASE("ring: four neighbour links, each with one slot of 2 floats") {
    const Schedule schedule = make_schedule(config);
    const SlotLayout layout = make_layout(config);
    const auto loads = link_loads(schedule.rounds[0], layout, config.dtype);
    REQUIRE(loads.size() == 4);
    for (const LinkLoad& load : loads) {
      CHECK(load.dst == (load.src + 1) % 4);
      CHECK(load.bytes == 8);
    }
    CHECK(busiest_link_in_any_round(schedule, layout, config.dtype) == 8);
  }
  SUBCASE("direct: every ordered pair at once") {
    config.algorithm = Algorithm::direct;
    const Schedule schedule = make_schedule(config);
    const auto loads = link_loads(schedule.rounds[0], make_layout(config), config.dtype);
    CHECK(loads.size() == 12);
  }
}

TEST_CASE("the link view shows the round in flight, else the last one done, else the first") {
  RoundMoment moment;
  CHECK(link_view_round(moment, 6) == 1);
  moment.round = 3;
  CHECK(link_view_round(moment, 6) == 3);
  CHECK(link_view_round(moment, 2) == 2);
  CHECK(link_view_round(moment, 0) == 0);
}

TEST_CASE("heat colours run from cold blue to hot red") {
  CHECK(heat_colour(0) == Rgb{44, 82, 160});
  CHECK(heat_colour(1) == Rgb{232, 72, 56});
  CHECK(heat_colour(2) == heat_colour(1));
}

TEST_CASE("axis ticks are 1, 2 or 5 times a power of ten and the axis ends on one") {
  CHECK(nice_step(112, 6) == doctest::Approx(20));
  CHECK(nice_ceiling(118.7, 6) == doctest::Approx(120));
  CHECK(nice_step(0.0031, 4) == doctest::Approx(0.001));
  CHECK(nice_step(0) == 1);
}

TEST_CASE("the compare view offers every algorithm that has the operation, ring first, and caches its answer") {
  CompareView view;
  Config config = ConfigBuilder().op(Op::allreduce).ranks(8).count(1024);
  const CostComparison* comparison = view.comparison_for(config);
  REQUIRE(comparison != nullptr);
  CHECK(comparison->algorithms.front() == Algorithm::ring);
  CHECK(comparison->algorithms.size() == std::size(kAllAlgorithms));
  CHECK(view.comparison_for(config) == comparison);
  config.op = Op::allgather;
  const CostComparison* gather = view.comparison_for(config);
  REQUIRE(gather != nullptr);
  for (Algorithm algorithm : gather->algorithms) CHECK(algorithm_supports(algorithm, Op::allgather));
  CHECK(format_seconds(2.5e-6) == "2.5 us");
  CHECK(format_seconds(0.0123) == "12.3 ms");
}

TEST_CASE("the devices view labels CPU round times as the host clock and rounds not run as untimed") {
  const Config config = ConfigBuilder().ranks(4).count(256);
  Session session(config, make_cpu_backend(1));
  const UiStrings& t = ui_strings_for(Language::en);
  CHECK_FALSE(round_time(session, 0, t).microseconds.has_value());
  CHECK(round_time(session, 0, t).clock == nullptr);
  session.seek(2);
  const RoundTime first = round_time(session, 0, t);
  REQUIRE(first.microseconds.has_value());
  CHECK(std::string(first.clock) == "host clock");
  CHECK(round_time(session, 2, t).clock == nullptr);
}

TEST_CASE("while a recorded run replays, the devices view shows its measured times, not the re-execution's") {
  const Config config = ConfigBuilder().ranks(2).count(8);
  Session session(config, make_cpu_backend(1));
  session.seek(session.round_count());
  const UiStrings& t = ui_strings_for(Language::en);
  const std::vector<std::optional<double>> recorded = {2110.5, std::nullopt};
  const RoundTime first = round_time(session, 0, t, recorded);
  REQUIRE(first.microseconds.has_value());
  CHECK(*first.microseconds == 2110.5);
  CHECK(std::string(first.clock) == "the recorded run");
  CHECK_FALSE(round_time(session, 1, t, recorded).microseconds.has_value());
}

TEST_CASE("round times print in microseconds, milliseconds or seconds with three significant digits") {
  CHECK(format_duration(12.34) == "12.3 us");
  CHECK(format_duration(3204.0) == "3.20 ms");
  CHECK(format_duration(1.05e6) == "1.05 s");
}

TEST_CASE("the memory view's whole iteration is the iteration model's, shown at its peak until stepped") {
  MemoryView view;
  view.set_model(7'000'000'000, 8, {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper);
  IterationView& iteration = view.iteration();
  IterationQuery query;
  query.model = find_transformer_preset("llama3-8b");
  query.gpus = 8;
  query.strategy = Strategy::zero3;
  query.recompute = Recompute::full;
  iteration.set_query(query);
  const IterationEstimate* shown = iteration.estimate();
  REQUIRE(shown != nullptr);
  const IterationEstimate expected = estimate_iteration(query);
  CHECK(shown->peak.memory == expected.peak.memory);
  CHECK(shown->timeline.size() == expected.timeline.size());
  CHECK(iteration.moment() == expected.peak.event);
  iteration.set_moment(0);
  CHECK(iteration.moment() == 0);
  // The setup panel's GPU count reaches the iteration too.
  view.set_model(7'000'000'000, 4, {Strategy::ddp, Strategy::zero2}, MemoryConvention::paper);
  CHECK(iteration.query().gpus == 4);
}

TEST_CASE("playing the whole iteration walks forward and backward and stops at the last event") {
  IterationView view;
  IterationQuery query;
  query.model = find_transformer_preset("llama2-7b");
  view.set_query(query);
  const int events = static_cast<int>(view.estimate()->timeline.size());
  view.set_moment(0);
  view.play();
  view.advance(1.0);
  CHECK(view.moment() >= 2);
  for (int i = 0; i < 1000 && view.playing(); ++i) view.advance(0.5);
  CHECK_FALSE(view.playing());
  CHECK(view.moment() == events - 1);
}

TEST_CASE("the whole iteration's peak, verdict and moments are worded from the model's data in both languages") {
  IterationQuery query;
  query.model = find_transformer_preset("llama3-8b");
  query.gpus = 8;
  const IterationEstimate estimate = estimate_iteration(query);
  // At seq 4096 without recomputation the logits join every layer's activations at the loss.
  REQUIRE(estimate.timeline[static_cast<std::size_t>(estimate.peak.event)].phase == IterationPhase::loss);
  CHECK(iteration_peak_text(estimate, Language::en).rfind("Peak " + iteration_gb(static_cast<double>(estimate.peak.memory.total())) +
                                                " per GPU at \"loss", 0) == 0);
  CHECK(iteration_peak_text(estimate, Language::en).find("activations (") != std::string::npos);
  // At the loss backward has made no gradient yet: what lies under the activations is named as
  // weights and optimizer states, not as the model states of the optimizer step.
  const IterationMemory& at_loss = estimate.peak.memory;
  REQUIRE(at_loss.gradients == 0);
  CHECK(iteration_peak_text(estimate, Language::en).find(
            "on top of " + iteration_gb(static_cast<double>(at_loss.parameters + at_loss.optimizer_states)) +
            " of weights and optimizer states.") != std::string::npos);
  CHECK(iteration_peak_text(estimate, Language::en).find("model states") == std::string::npos);
  // In backward the gradients made so far are named beside the cause.
  IterationQuery rerun = query;
  rerun.seq = 16384;
  rerun.strategy = Strategy::zero3;
  rerun.recompute = Recompute::full;
  const IterationEstimate backward = estimate_iteration(rerun);
  REQUIRE(backward.peak.memory.gradients > 0);
  REQUIRE(backward.peak.cause != PeakCause::gradients);
  CHECK(iteration_peak_text(backward, Language::en).find("and gradients (" +
                                           iteration_gb(static_cast<double>(backward.peak.memory.gradients)) +
                                           ") on top of ") != std::string::npos);
  const double over = static_cast<double>(estimate.peak.memory.total()) - 80e9;
  CHECK(iteration_fit_text(estimate, Language::en) == "Does not fit in 80 GB: over by " + iteration_gb(over));
  CHECK(iteration_event_text(estimate, 1, Language::en) == "forward through layer 1 of 32");
  CHECK(iteration_event_text(estimate, 34, Language::en) == "backward through layer 32 of 32");
  const std::string chinese = iteration_fit_text(estimate, Language::zh);
  const std::string layer = iteration_event_text(estimate, 1, Language::zh);
  CHECK(chinese == "放不下 80 GB：超出 " + iteration_gb(over));
  CHECK(layer == "前向：第 1 层（共 32 层）");
}

TEST_CASE("a Job view bar's hover text is the row of job show, with the NCCL model's time beside the measured one") {
  // The 2-GPU NCCL 2.17 trace (tests/data/kineto): its kernels carry algorithm, protocol and channels.
  const Job job = import_job({std::string(RINGVIZ_SOURCE_DIR) + "/tests/data/kineto/nccl-2gpu-rank0.json.gz"});
  const JobTable table = job_table(job);
  const auto predicted = std::find_if(table.rows.begin(), table.rows.end(),
                                      [](const JobRow& row) { return row.predicted_us > 0 && row.time_us > 0; });
  REQUIRE(predicted != table.rows.end());
  const std::string english = job_tooltip_text(*predicted, job.run, Language::en);
  CAPTURE(english);
  CHECK(english.find("time " + duration_text(predicted->time_us) + " (model " + duration_text(predicted->predicted_us) +
                     ")") != std::string::npos);
  CHECK(job_tooltip_text(*predicted, job.run, Language::zh).find("（模型 " + duration_text(predicted->predicted_us) + "）") !=
        std::string::npos);
  // A collective the model has nothing for says nothing of it.
  JobRow unpredicted = *predicted;
  unpredicted.predicted_us = 0;
  CHECK(job_tooltip_text(unpredicted, job.run, Language::en).find("model") == std::string::npos);
}
