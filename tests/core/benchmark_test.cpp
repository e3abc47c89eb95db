// The bench's arithmetic and its correctness check (core/engine/benchmark.h). Nothing here asserts
// on time: benchmarks measure and print, tests assert behaviour.
#include <doctest/doctest.h>

#include <string>

#include "core/algorithms/registry.h"
#include "core/engine/benchmark.h"
#include "core/input/initial_values.h"
#include "core/engine/session.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

std::string sizes_text(const std::vector<std::int64_t>& sizes) {
  std::string text;
  for (std::int64_t size : sizes) text += (text.empty() ? "" : " ") + std::to_string(size);
  return text;
}

std::string input_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST_CASE("-b, -e and -f give min, min*f, ... up to max") {
  CHECK(sizes_text(bench_sizes(1024, 16384, 2)) == "1024 2048 4096 8192 16384");
  CHECK(sizes_text(bench_sizes(1024, 10000, 4)) == "1024 4096");
  CHECK(bench_sizes(1024, std::int64_t{256} << 20, 4).size() == 10);
  CHECK(sizes_text(bench_sizes(8, 8, 2)) == "8");
  // A factor that would overflow past the largest int64 stops instead.
  CHECK(bench_sizes(1, INT64_MAX, 1 << 30).size() == 3);
  CHECK(input_error([] { bench_sizes(1024, 16, 2); }).rfind("--maxbytes:", 0) == 0);
  CHECK(input_error([] { bench_sizes(0, 16, 2); }).rfind("--minbytes:", 0) == 0);
  CHECK(input_error([] { bench_sizes(1, 16, 1); }).rfind("--stepfactor:", 0) == 0);
}

TEST_CASE("A size is the per-rank buffer, AllGather's being N blocks") {
  CHECK(count_for_bytes(Op::allreduce, 8, DType::f32, 1024) == 256);
  CHECK(count_for_bytes(Op::reducescatter, 8, DType::f64, 1024) == 128);
  CHECK(count_for_bytes(Op::allgather, 8, DType::f32, 1024) == 32);
  CHECK(count_for_bytes(Op::allreduce, 8, DType::f32, 3) == 0);
}

TEST_CASE("Bus bandwidth factors follow nccl-tests") {
  CHECK(bus_bandwidth_factor(Op::allreduce, 8) == 1.75);
  CHECK(bus_bandwidth_factor(Op::reducescatter, 8) == 0.875);
  CHECK(bus_bandwidth_factor(Op::allgather, 4) == 0.75);
  CHECK(bus_bandwidth_factor(Op::allreduce, 1) == 0.0);
}

TEST_CASE("Memory traffic counts three slot transfers per reduce and two per copy") {
  const auto traffic = [](const Config& config, DType dtype) {
    return ring_memory_traffic_bytes(make_schedule(config), make_layout(config), dtype);
  };
  const ConfigBuilder four = ConfigBuilder().ranks(4).count(8);
  // Reduce-scatter: 3 rounds x 4 transfers x 2 elements x 4 bytes x 3 = 288; all-gather:
  // the same transfers copying, x 2 = 192.
  CHECK(traffic(four, DType::f32) == 480);
  CHECK(traffic(four.op(Op::allgather), DType::f32) == 3 * 4 * 8 * 4 * 2);
  // In general 5 (N-1) count sizeof(T) for an AllReduce whose count N divides.
  CHECK(traffic(four.op(Op::allreduce).ranks(8).count(800), DType::f64) == 5 * 7 * 800 * 8);
}

BufferState final_buffers(const Config& config) {
  Session session(config, make_cpu_backend(1));
  session.seek(session.round_count());
  return session.buffers();
}

TEST_CASE("The bench's correctness check finds nothing wrong in a correct run and each corrupted element") {
  for (Op op : {Op::allgather, Op::reducescatter, Op::allreduce})
    for (Order order : {Order::seed, Order::nccl})
      for (DType dtype : kAllDTypes)
        for (ReduceOp reduce : kAllReduceOps) {
          const Config config = ConfigBuilder().op(op).order(order).ranks(5).count(23).dtype(dtype).reduce(reduce)
              .random_init(5);
          INFO(op_name(op), " ", order_name(order), " ", dtype_name(dtype), " ", reduce_op_name(reduce));
          const BufferState initial = make_initial_state(config);
          BufferState result = final_buffers(config);
          CHECK(count_wrong_elements(config, initial, result) == 0);
          // Element 0 is in every output: slot 0 belongs to rank 4 (seed) or rank 0 (nccl).
          const int holder = op == Op::reducescatter && order == Order::seed ? 4 : 0;
          result.ranks[static_cast<std::size_t>(holder)][0] ^= std::byte{1};
          CHECK(count_wrong_elements(config, initial, result) == 1);
        }
}

TEST_CASE("Other algorithms' results pass the bench's check within rounding, and a corrupted element fails it") {
  for (Algorithm algorithm : {Algorithm::naive, Algorithm::direct, Algorithm::rhd, Algorithm::tree})
    for (DType dtype : {DType::f32, DType::f16, DType::i64})
      for (ReduceOp reduce : {ReduceOp::sum, ReduceOp::avg, ReduceOp::prod, ReduceOp::min}) {
        const Config config = ConfigBuilder().algorithm(algorithm).ranks(6).count(31).dtype(dtype).reduce(reduce)
            .random_init(9);
        INFO(algorithm_name(algorithm), " ", dtype_name(dtype), " ", reduce_op_name(reduce));
        const BufferState initial = make_initial_state(config);
        BufferState result = final_buffers(config);
        CHECK(count_wrong_elements(config, initial, result) == 0);
        // Flipping the top bit of the last byte negates a float; integers change by far more.
        result.ranks[2][dtype_size(dtype) - 1] ^= std::byte{0x80};
        CHECK(count_wrong_elements(config, initial, result) == 1);
      }
}

TEST_CASE("One bench row on the CPU target is correct and fully filled in") {
  const Config config = ConfigBuilder().ranks(4).random_init(1);
  BenchSettings settings;
  settings.warmup = 1;
  settings.iterations = 2;
  for (BenchMode mode : {BenchMode::step, BenchMode::fast}) {
    settings.mode = mode;
    const BenchRow row = bench_one_size(config, 4096, cpu_bench_target(2), settings);
    CHECK(row.bytes == 4096);
    CHECK(row.count == 1024);
    CHECK(row.iterations == 2);
    CHECK(row.best_microseconds <= row.microseconds * (1 + 1e-12));  // the fastest run vs the mean
    CHECK(row.wrong == 0);
    CHECK(row.memory_traffic_bytes == 5 * 3 * 1024 * 4);
    CHECK(row.copy_gbps.has_value());
    CHECK(row.fraction.has_value());
  }
  // A target without a copy baseline leaves those columns empty.
  BenchTarget bare = cpu_bench_target(1);
  bare.copy_bandwidth = nullptr;
  const BenchRow row = bench_one_size(config, 4096, bare, settings);
  CHECK(row.wrong == 0);
  CHECK_FALSE(row.copy_gbps.has_value());
  // Auto iterations run at least five times, whatever the clock says.
  settings.iterations = 0;
  CHECK(bench_one_size(config, 1024, bare, settings).iterations >= 5);
  CHECK_FALSE(row.fraction.has_value());
  CHECK(parse_bench_mode("fast") == BenchMode::fast);
  CHECK(input_error([] { parse_bench_mode("slow", "--mode"); }).rfind("--mode:", 0) == 0);
}

}  // namespace
}  // namespace ringviz
