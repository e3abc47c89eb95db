// The training run: ringviz's own collectives keep DDP and ZeRO-2 replicas bit-identical,
// training without synchronisation drifts apart, and the buffers really held match the model.
#include <doctest/doctest.h>

#include <memory>

#include "core/engine/backend.h"
#include "core/schedule/schedule.h"
#include "core/engine/collective.h"
#include "core/input/initial_values.h"
#include "core/engine/session.h"
#include "core/training/training_math.h"
#include "core/training/training_run.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

using namespace ringviz;

namespace {

TrainingOptions options(TrainStrategy strategy, int gpus, DType dtype, Order order = Order::seed) {
  TrainingOptions o;
  o.strategy = strategy;
  o.gpus = gpus;
  o.dtype = dtype;
  o.order = order;
  o.batch_per_gpu = 8;
  return o;
}

}  // namespace

TEST_CASE("run_collective gives the same bits as a Session stepped to the end") {
  auto backend = make_cpu_backend(1);
  for (Op op : {Op::allreduce, Op::reducescatter, Op::allgather})
    for (DType dtype : {DType::f32, DType::bf16}) {
      const Config config = ConfigBuilder().op(op).ranks(5).count(23).dtype(dtype).reduce(ReduceOp::avg)
          .init("random:3");
      BufferState state = make_initial_state(config);
      const CollectiveTraffic traffic = run_collective(*backend, config, state);
      Session session(config, make_cpu_backend(1));
      session.seek(session.round_count());
      CHECK(state == session.buffers());
      for (int r = 0; r < 5; ++r) CHECK(traffic.sent[static_cast<std::size_t>(r)] == session.traffic().total_sent(r));
    }
}

TEST_CASE("the all-gather pass alone copies every owned slot to every GPU") {
  auto backend = make_cpu_backend(1);
  const Config config = ConfigBuilder().op(Op::allreduce).ranks(4).count(10);
  BufferState state = BufferState::zeros(DType::f32, 4, 10);
  const SlotLayout layout = make_layout(config);
  for (int r = 0; r < 4; ++r) {
    const Slot slot = layout[ring_owned_slot(config.order, r, 4)];
    for (std::int64_t i = slot.offset; i < slot.offset + slot.count; ++i) state.data<float>(r)[i] = static_cast<float>(i);
  }
  run_collective(*backend, config, state, RingPasses::all_gather_only);
  for (int r = 0; r < 4; ++r)
    for (int i = 0; i < 10; ++i) CHECK(state.data<float>(r)[i] == static_cast<float>(i));
}

TEST_CASE("AdamW on a shard gives the same bits as AdamW on the whole vector") {
  const int n = 37;
  std::vector<float> w(n), m(n, 0.0f), v(n, 0.0f), g(n);
  for (int i = 0; i < n; ++i) {
    w[static_cast<std::size_t>(i)] = 0.1f * static_cast<float>(i) - 1.0f;
    g[static_cast<std::size_t>(i)] = 0.03f * static_cast<float>(i % 7) - 0.1f;
  }
  std::vector<float> w2 = w, m2 = m, v2 = v;
  for (int step = 1; step <= 3; ++step) {
    const AdamWStep s = adamw_step({}, step);
    adamw_update(w.data(), m.data(), v.data(), g.data(), n, s);
    adamw_update(w2.data(), m2.data(), v2.data(), g.data(), 13, s);
    adamw_update(w2.data() + 13, m2.data() + 13, v2.data() + 13, g.data() + 13, n - 13, s);
  }
  CHECK(w == w2);
  CHECK(m == m2);
  CHECK(v == v2);
}

TEST_CASE("DDP and ZeRO-2 keep every GPU's parameters bit-identical after every step, and equal to each other") {
  auto backend = make_cpu_backend(1);
  for (DType dtype : {DType::f32, DType::bf16})
    for (Order order : {Order::seed, Order::nccl})
      for (int gpus : {1, 2, 3, 4, 5, 8}) {
        CAPTURE(dtype_name(dtype));
        CAPTURE(order_name(order));
        CAPTURE(gpus);
        TrainingRun ddp(options(TrainStrategy::ddp, gpus, dtype, order), *backend);
        TrainingRun zero2(options(TrainStrategy::zero2, gpus, dtype, order), *backend);
        for (int step = 1; step <= 12; ++step) {
          const TrainingStepRecord& a = ddp.step();
          const TrainingStepRecord& b = zero2.step();
          for (int r = 0; r < gpus; ++r) {
            CHECK(ddp.parameter_bytes(r) == ddp.parameter_bytes(0));
            CHECK(zero2.parameter_bytes(r) == zero2.parameter_bytes(0));
          }
          CHECK(ddp.parameter_bytes(0) == zero2.parameter_bytes(0));
          CHECK(a.parameter_spread == 0.0);
          CHECK(b.parameter_spread == 0.0);
          CHECK(a.checksums == b.checksums);
          CHECK(a.loss == b.loss);
        }
      }
}

TEST_CASE("without synchronisation the GPUs drift apart and keep drifting") {
  auto backend = make_cpu_backend(1);
  for (DType dtype : {DType::f32, DType::bf16}) {
    CAPTURE(dtype_name(dtype));
    TrainingRun run(options(TrainStrategy::nosync, 4, dtype), *backend);
    for (int step = 0; step < 40; ++step) run.step();
    const auto& history = run.history();
    CHECK(history[0].parameter_spread > 0.0);
    CHECK(history[39].parameter_spread > history[4].parameter_spread);
    CHECK(history[39].parameter_spread_rms > history[4].parameter_spread_rms);
    CHECK(history[39].checksums[0] != history[39].checksums[1]);
    CHECK(history[39].bytes_sent == std::vector<std::int64_t>(4, 0));
  }
}

TEST_CASE("the bytes each GPU holds at the optimizer step equal the memory model's prediction") {
  auto backend = make_cpu_backend(1);
  for (TrainStrategy strategy : kAllTrainStrategies)
    for (DType dtype : {DType::f32, DType::bf16})
      for (int gpus : {1, 3, 4, 7}) {
        CAPTURE(train_strategy_name(strategy));
        CAPTURE(dtype_name(dtype));
        CAPTURE(gpus);
        const TrainingOptions o = options(strategy, gpus, dtype);
        TrainingRun run(o, *backend);
        run.step();
        const MemoryEstimate model = estimate_memory(memory_query_for(o));
        for (int r = 0; r < gpus; ++r) {
          const ModelStateBytes& held = run.held_at_optimizer_step()[static_cast<std::size_t>(r)];
          const ModelStateBytes& predicted = model.per_gpu[static_cast<std::size_t>(r)];
          CHECK(held.optimizer_states() == predicted.optimizer_states());
          CHECK(held.gradients() == predicted.gradients());
          CHECK(held == predicted);
        }
        // The bytes each GPU sent are the model's ring traffic for this many parameters.
        const std::vector<std::int64_t> sent = run.history().back().bytes_sent;
        if (strategy == TrainStrategy::nosync)
          CHECK(sent == std::vector<std::int64_t>(static_cast<std::size_t>(gpus), 0));
        else
          CHECK(sent == model.bytes_sent_per_gpu);
      }
}

TEST_CASE("DDP training lowers the loss on every GPU") {
  auto backend = make_cpu_backend(1);
  TrainingOptions o = options(TrainStrategy::ddp, 2, DType::bf16);
  o.batch_per_gpu = 32;
  TrainingRun run(o, *backend);
  for (int step = 0; step < 100; ++step) run.step();
  const auto& history = run.history();
  double early = 0;
  double late = 0;
  for (int i = 0; i < 10; ++i) {
    early += history[static_cast<std::size_t>(i)].mean_loss;
    late += history[static_cast<std::size_t>(90 + i)].mean_loss;
  }
  CHECK(late < 0.5 * early);
  CHECK(history[0].loss.size() == 2);
}

TEST_CASE("bad training options are refused naming the field") {
  auto backend = make_cpu_backend(1);
  TrainingOptions o;
  o.gpus = 0;
  CHECK_THROWS_WITH_AS(TrainingRun(o, *backend), doctest::Contains("gpus"), InputError);
  o.gpus = 2;
  o.dtype = DType::f16;
  CHECK_THROWS_WITH_AS(TrainingRun(o, *backend), doctest::Contains("dtype"), InputError);
  o.dtype = DType::f32;
  o.batch_per_gpu = -3;
  CHECK_THROWS_WITH_AS(TrainingRun(o, *backend), doctest::Contains("batch"), InputError);
  CHECK_THROWS_WITH_AS(parse_train_strategy("fsdp", "--strategy"), doctest::Contains("--strategy"), InputError);
}
