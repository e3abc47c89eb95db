// docs/architecture.md, "Collective semantics": for the same config and inputs every backend
// produces bit-identical buffers after every round, and the CPU backend is the reference. These
// tests step a CPU session and a CUDA session side by side and compare every rank's buffer after
// every round.
#include <doctest/doctest.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <set>

#include "core/algorithms/registry.h"
#include "core/model/checked_value.h"
#include "core/input/initial_values.h"
#include "core/engine/session.h"
#include "gpu/backend/cuda_backend.h"
#include "tests/gpu/compare.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

constexpr Order kOrders[] = {Order::seed, Order::nccl};

// Returns false (after reporting) at the first round whose buffers differ.
bool check_round_by_round(const Config& config) {
  Session cpu(config, make_cpu_backend(1));
  Session cuda(config, gpu::make_cuda_backend());
  std::string difference = test::first_difference(cpu.buffers(), cuda.buffers());
  while (difference.empty() && !cpu.at_end()) {
    cpu.step_forward();
    cuda.step_forward();
    difference = test::first_difference(cpu.buffers(), cuda.buffers());
    if (!cuda.round_microseconds(cuda.round() - 1)) difference = "no device time for this round";
    if (!difference.empty()) difference = "after round " + std::to_string(cpu.round()) + ": " + difference;
  }
  if (difference.empty()) return true;
  FAIL_CHECK(test::describe(config) << ": " << difference);
  return false;
}

// Counts the collective semantics single out: none, fewer than N (empty slots), one more than N
// (uneven slots), a prime, and one large enough for several blocks per slot with a ragged tail.
std::vector<std::int64_t> counts_for(int ranks) {
  std::set<std::int64_t> counts = {0, 1, ranks + 1, 37, 1031, 20011};
  return {counts.begin(), counts.end()};
}

void sweep_ring(Op op) {
  std::uint64_t seed = 1;
  int failures = 0;
  for (int ranks = 1; ranks <= 9; ++ranks)
    for (std::int64_t count : counts_for(ranks))
      for (Order order : kOrders)
        for (DType dtype : kAllDTypes)
          for (ReduceOp reduce : kAllReduceOps) {
            // AllGather and Broadcast only copy: one reduction is as good as five (Broadcast
            // refuses the others).
            if (!op_reduces(op) && reduce != ReduceOp::sum) continue;
            Config config = ConfigBuilder().op(op).order(order).ranks(ranks).count(count).dtype(dtype)
                .reduce(reduce);
            config.init = test::inputs_for(config, seed++);
            if (!check_round_by_round(config) && ++failures >= 10) return;  // enough to go on
          }
}

TEST_CASE("ring AllReduce on the CUDA backend matches the CPU bit for bit after every round") {
  sweep_ring(Op::allreduce);
}

TEST_CASE("ring ReduceScatter on the CUDA backend matches the CPU bit for bit after every round") {
  sweep_ring(Op::reducescatter);
}

TEST_CASE("ring AllGather on the CUDA backend matches the CPU bit for bit after every round") {
  sweep_ring(Op::allgather);
}

TEST_CASE("ring Broadcast on the CUDA backend matches the CPU bit for bit after every round") {
  sweep_ring(Op::broadcast);
}

TEST_CASE("AllToAll's pairwise swaps on the CUDA backend match the CPU bit for bit after every round") {
  // Each round reads and writes the same two slots per pair, from another slot than it writes:
  // the staged reads and the sender's own slot (Transfer::source_slot) on the device.
  std::uint64_t seed = 500;
  int failures = 0;
  for (int ranks = 1; ranks <= 9; ++ranks)
    for (std::int64_t count : counts_for(ranks))
      for (DType dtype : kAllDTypes)
        for (int channels : {1, 2}) {
          Config config = ConfigBuilder().op(Op::alltoall).algorithm(Algorithm::direct).ranks(ranks).count(count)
              .dtype(dtype).channels(channels);
          config.init = test::inputs_for(config, seed++);
          if (!check_round_by_round(config) && ++failures >= 10) return;
        }
}

TEST_CASE("the other algorithms' schedules run bit-identically on the CUDA backend too") {
  // Their rounds send several slots to one rank, and some read a slot that the same round
  // overwrites: the backend's general paths, which the ring never takes.
  std::uint64_t seed = 1000;
  int failures = 0;
  for (Algorithm algorithm : kAllAlgorithms) {
    if (algorithm == Algorithm::ring) continue;
    for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce}) {
      if (!algorithm_supports(algorithm, op)) continue;
      for (int ranks = 1; ranks <= 9; ++ranks)
        for (std::int64_t count : {std::int64_t{ranks + 1}, std::int64_t{1031}})
          for (DType dtype : {DType::f32, DType::bf16, DType::i32})
            for (ReduceOp reduce : kAllReduceOps) {
              if (op == Op::allgather && reduce != ReduceOp::sum) continue;
              Config config = ConfigBuilder().op(op).algorithm(algorithm).ranks(ranks).count(count)
                  .dtype(dtype).reduce(reduce);
              config.init = test::inputs_for(config, seed++);
              if (validate(config)) continue;
              if (!check_round_by_round(config) && ++failures >= 10) return;
            }
    }
  }
}

// Infinities, NaNs with payloads, signed zeros and subnormals, placed so that each element
// index has at most one NaN among its inputs (with two, x86's own answer depends on how the
// compiler ordered the operands) while inf - inf and 0 * inf still make NaNs mid-collective.
InitPattern special_values(const Config& config) {
  InitPattern init;
  init.kind = InitKind::values;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (int rank = 0; rank < config.ranks; ++rank) {
    std::vector<double> row;
    for (std::int64_t i = 0; i < config.count; ++i) {
      const std::uint64_t bits = splitmix64_at(77, static_cast<std::uint64_t>(rank * config.count + i));
      double value = static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;
      switch (i % 8) {
        case 0: if (rank == 0) value = std::copysign(nan, -1.0); break;
        case 1: if (rank == config.ranks - 1) value = nan; break;
        case 2: if (rank < 2) value = rank == 0 ? inf : -inf; break;   // sum: inf - inf
        case 3: if (rank < 2) value = rank == 0 ? inf : 0.0; break;    // prod: inf * 0
        case 4: value = rank % 2 ? 1e-40 : -1e-41; break;             // f32 subnormals
        case 5: value = rank % 2 ? -0.0 : 0.0; break;
        case 6: value = rank % 2 ? 65504.0 : 60000.0; break;          // f16 overflow to inf
        default: break;
      }
      row.push_back(value);
    }
    init.values.push_back(numbers_of_reals({std::move(row)}).front());
  }
  return init;
}

// docs/architecture.md, "Pipelined schedules": the waves of every (channels, slices) in 1…4 × 1…8
// match the CPU's wave by wave and end on the CPU's lock-step buffers, for every type and
// reduction; the operation, ring size and count rotate from case to case.
TEST_CASE("every channel and slice count on the CUDA backend ends bit-identical to the CPU's lock-step rounds") {
  constexpr Op kOps[] = {Op::allreduce, Op::reducescatter, Op::allgather};
  constexpr int kRanks[] = {1, 2, 3, 5, 8};
  constexpr std::int64_t kCounts[] = {0, 4, 37, 1031, 20011};
  std::uint64_t seed = 2000;
  std::size_t turn = 0;
  int failures = 0;
  for (DType dtype : kAllDTypes)
    for (ReduceOp reduce : kAllReduceOps)
      for (int channels = 1; channels <= 4; ++channels)
        for (int slices = 1; slices <= 8; ++slices, ++turn) {
          Config config = ConfigBuilder().op(kOps[turn % std::size(kOps)])
              .ranks(kRanks[turn % std::size(kRanks)])
              .count(kCounts[(turn / std::size(kRanks)) % std::size(kCounts)]).dtype(dtype).reduce(reduce);
          config.init = test::inputs_for(config, seed++);
          Session lock_step(config, make_cpu_backend(1), SessionOptions{0});
          lock_step.seek(lock_step.round_count());
          config.channels = channels;
          config.slices = slices;
          if (!check_round_by_round(config)) {
            if (++failures >= 10) return;
            continue;
          }
          Session cuda(config, gpu::make_cuda_backend(), SessionOptions{0});
          cuda.seek(cuda.round_count());
          INFO(test::describe(config) << " channels " << channels << " slices " << slices);
          CHECK(test::first_difference(lock_step.buffers(), cuda.buffers()) == "");
        }
}

TEST_CASE("NaNs, infinities, signed zeros and subnormals come out with the CPU's exact bits") {
  for (int ranks = 1; ranks <= 6; ++ranks)
    for (Order order : kOrders)
      for (Op op : {Op::reducescatter, Op::allreduce})
        for (DType dtype : {DType::f32, DType::f64, DType::f16, DType::bf16})
          for (ReduceOp reduce : kAllReduceOps) {
            Config config = ConfigBuilder().op(op).order(order).ranks(ranks).count(203).dtype(dtype)
                .reduce(reduce);
            config.init = special_values(config);
            check_round_by_round(config);
          }
}

TEST_CASE("slots larger than one pass of the grid are reduced completely") {
  // A few million elements per slot: every thread loops several times over its vectors.
  for (DType dtype : {DType::f32, DType::f16, DType::f64}) {
    const Config config = ConfigBuilder().op(Op::allreduce).ranks(2).count((std::int64_t{9} << 20) + 3)
        .dtype(dtype).reduce(ReduceOp::avg).random_init(5);
    check_round_by_round(config);
  }
}

TEST_CASE("stepping back and seeking on the CUDA backend lands on the CPU's buffers") {
  const Config config = ConfigBuilder().ranks(5).count(4099).dtype(DType::bf16).reduce(ReduceOp::avg)
      .random_init(9);
  // A tiny snapshot budget forces replays from earlier snapshots on the way back.
  SessionOptions options;
  options.snapshot_budget_bytes = 4096;
  Session cpu(config, make_cpu_backend(1), options);
  Session cuda(config, gpu::make_cuda_backend(), options);
  for (int target : {8, 3, 0, 6, 5, 8, 1, 7}) {
    cpu.seek(target);
    cuda.seek(target);
    INFO("round " << target);
    CHECK(test::first_difference(cpu.buffers(), cuda.buffers()) == "");
  }
  cpu.step_back();
  cuda.step_back();
  CHECK(test::first_difference(cpu.buffers(), cuda.buffers()) == "");
}

BufferState run_on(Backend& backend, const CollectiveShape& shape, const BufferState& initial,
                   const std::vector<Round>& rounds) {
  backend.load(shape, initial);
  for (const Round& round : rounds) backend.execute(round);
  backend.synchronize();
  BufferState result;
  backend.fetch(result);
  return result;
}

TEST_CASE("a round that reads a slot it also overwrites sees the value from before the round") {
  const Config config = ConfigBuilder().ranks(3).count(1000).dtype(DType::f32).reduce(ReduceOp::avg).random_init(3);
  const SlotLayout layout = make_layout(config);
  const CollectiveShape shape{config.dtype, config.reduce, config.ranks, layout};
  const BufferState initial = make_initial_state(config);
  // Ranks 0 and 1 swap-and-reduce slot 0; rank 1 also receives slot 0 from rank 2, the second
  // arrival completing it (avg divides); rank 2 gets a copy of rank 0's slot 1.
  Round round{Phase::reduce_scatter,
              {{0, 1, 0, TransferKind::reduce, false, {}},
               {1, 0, 0, TransferKind::reduce, false, {}},
               {2, 1, 0, TransferKind::reduce, true, {}},
               {0, 2, 1, TransferKind::copy, false, {}}}};
  auto cpu_backend = make_cpu_backend(1);
  gpu::CudaBackend cuda_backend;
  const BufferState expected = run_on(*cpu_backend, shape, initial, {round});
  CHECK(test::first_difference(expected, run_on(cuda_backend, shape, initial, {round})) == "");
  // The same round queued twice goes through the multi-round path.
  const BufferState expected_twice = run_on(*cpu_backend, shape, initial, {round, round});
  CHECK(test::first_difference(expected_twice, run_on(cuda_backend, shape, initial, {round, round})) == "");
}

TEST_CASE("rounds queued back to back (one graph, slots cut in chunks) end bit-identical to the CPU") {
  struct Case {
    Op op;
    Order order;
    int ranks;
    std::int64_t count;
    DType dtype;
    ReduceOp reduce;
  };
  const Case cases[] = {
      {Op::allreduce, Order::seed, 8, (std::int64_t{1} << 20) + 13, DType::f32, ReduceOp::sum},
      {Op::allreduce, Order::nccl, 5, 777777, DType::bf16, ReduceOp::avg},
      {Op::reducescatter, Order::nccl, 3, 500001, DType::f16, ReduceOp::max},
      {Op::allgather, Order::seed, 4, 300001, DType::i64, ReduceOp::sum},
      {Op::allreduce, Order::seed, 1, 1000, DType::f64, ReduceOp::prod},
  };
  struct Variant {
    const char* name;
    std::uint64_t chunk_bytes;
    bool graphs;
  };
  const Variant variants[] = {{"graph, 64 KiB chunks", 64 << 10, true},
                              {"graph, whole rounds", 0, true},
                              {"streams, 100000-byte chunks", 100000, false}};
  for (const Case& c : cases) {
    Config config = ConfigBuilder().op(c.op).order(c.order).ranks(c.ranks).count(c.count).dtype(c.dtype)
        .reduce(c.reduce);
    config.init = test::inputs_for(config, 11);
    Session cpu(config, make_cpu_backend(0));
    cpu.seek(cpu.round_count());
    const BufferState expected = cpu.buffers();
    const BufferState initial = make_initial_state(config);
    const CollectiveShape shape{config.dtype, config.reduce, config.ranks, make_layout(config)};
    for (const Variant& variant : variants) {
      gpu::CudaBackendOptions options;
      options.pipeline_chunk_bytes = variant.chunk_bytes;
      options.use_graphs = variant.graphs;
      gpu::CudaBackend backend(options);
      INFO(test::describe(config) << ", " << variant.name);
      // Twice: the second run replays the graph the first one captured.
      for (int run = 0; run < 2; ++run) {
        const BufferState result = run_on(backend, shape, initial, cpu.schedule().rounds);
        CHECK(test::first_difference(expected, result) == "");
      }
      MESSAGE(test::describe(config) << ", " << variant.name << ": " << backend.last_submission());
    }
  }
}

TEST_CASE("ranks are spread round-robin over the GPUs, and each link says how it travels") {
  gpu::CudaBackend backend;
  const auto& devices = backend.devices();
  REQUIRE(!devices.empty());
  const int k = static_cast<int>(devices.size());
  for (int rank = 0; rank < 8; ++rank) CHECK(backend.device_of_rank(rank) == devices[static_cast<std::size_t>(rank % k)].index);
  for (int src = 0; src < 8; ++src)
    for (int dst = 0; dst < 8; ++dst)
      if (src % k == dst % k) CHECK(backend.link(src, dst) == gpu::LinkKind::same_device);
      else CHECK(backend.link(src, dst) != gpu::LinkKind::same_device);
  const Config config = ConfigBuilder().ranks(8).count(1 << 16);
  Session session(config, std::make_unique<gpu::CudaBackend>());
  const auto& cuda = static_cast<const gpu::CudaBackend&>(session.backend());
  std::uint64_t total = 0;
  for (const auto& device : cuda.devices()) total += cuda.allocated_bytes(device.index);
  CHECK(total >= static_cast<std::uint64_t>(8) * (1 << 16) * 4);
}

}  // namespace
}  // namespace ringviz
