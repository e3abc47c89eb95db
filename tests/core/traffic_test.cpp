// Traffic (docs/architecture.md, "Collective semantics"): the bytes each rank sends and receives,
// per round and in total.
#include <doctest/doctest.h>

#include "core/model/layout.h"
#include "core/algorithms/registry.h"
#include "core/engine/traffic.h"
#include "tests/core/reference.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

int wrap(int value, int ranks) { return ((value % ranks) + ranks) % ranks; }

Traffic traffic_of(const Config& config) {
  return compute_traffic(make_schedule(config), make_layout(config), config.dtype, config.ranks);
}

Config allreduce(int ranks, std::int64_t count, DType dtype, Order order = Order::seed) {
  return ConfigBuilder().op(Op::allreduce).ranks(ranks).count(count).dtype(dtype).order(order);
}

TEST_CASE("Ring AllReduce sends exactly 2(N-1)/N x count x sizeof(T) per rank when N divides count") {
  for (int n : {2, 3, 4, 8, 16})
    for (DType dtype : kAllDTypes)
      for (Order order : {Order::seed, Order::nccl}) {
        const std::int64_t count = 12 * 35 * n;  // divisible by every n above
        INFO("N=", n, " ", dtype_name(dtype), " ", order_name(order));
        const Traffic traffic = traffic_of(allreduce(n, count, dtype, order));
        const auto expected = 2 * (n - 1) * count / n * static_cast<std::int64_t>(dtype_size(dtype));
        for (int rank = 0; rank < n; ++rank) {
          CHECK(traffic.total_sent(rank) == expected);
          CHECK(traffic.total_received(rank) == expected);
        }
      }
}

TEST_CASE("With uneven slots each rank sends the sizes of exactly the slots the schedule has it send") {
  for (int n : {2, 3, 5, 7})
    for (std::int64_t count : {1, 4, 11, 101})
      for (Order order : {Order::seed, Order::nccl}) {
        INFO("N=", n, " count=", count, " ", order_name(order));
        const std::vector<std::int64_t> sizes = test::plain_slot_sizes(count, n);
        const Traffic traffic = traffic_of(allreduce(n, count, DType::f32, order));
        for (int rank = 0; rank < n; ++rank) {
          // Reduce-scatter: slot r - t (seed) or r - 1 - t (nccl); all-gather: owned - t,
          // with owned = r + 1 (seed) or r (nccl); t = 0 ... N-2 in both passes.
          const int first = order == Order::seed ? rank : rank - 1;
          const int owned = order == Order::seed ? rank + 1 : rank;
          std::int64_t elements = 0;
          for (int t = 0; t + 1 < n; ++t)
            elements += sizes[static_cast<std::size_t>(wrap(first - t, n))] +
                        sizes[static_cast<std::size_t>(wrap(owned - t, n))];
          CHECK(traffic.total_sent(rank) == elements * 4);
        }
      }
}

TEST_CASE("Per-round traffic adds up to the running totals") {
  const Traffic traffic = traffic_of(allreduce(4, 10, DType::f64));
  REQUIRE(traffic.sent.size() == 6);
  std::int64_t running = 0;
  for (int round = 0; round < 6; ++round) {
    CHECK(traffic.sent_after(2, round) == running);
    running += traffic.sent[static_cast<std::size_t>(round)][2];
  }
  CHECK(traffic.total_sent(2) == running);
  CHECK(traffic.sent_after(2, 100) == running);
}

TEST_CASE("ReduceScatter sends (N-1)/N of the buffer and AllGather N-1 whole inputs") {
  const ConfigBuilder eight(allreduce(8, 800, DType::f32));
  CHECK(traffic_of(eight.op(Op::reducescatter)).total_sent(3) == 7 * 100 * 4);
  CHECK(traffic_of(eight.op(Op::allgather)).total_sent(3) == 7 * 800 * 4);
  CHECK(traffic_of(eight.op(Op::allgather).ranks(1)).total_sent(0) == 0);
}

TEST_CASE("The source article's figure: 4 GPUs with 4 GB each send 6 GB per GPU in a ring AllReduce") {
  CHECK(ring_allreduce_bytes_per_gpu(4, 4e9) == 6e9);
  CHECK(ring_pass_bytes_per_gpu(4, 4e9) == 3e9);
  // The same from the schedule, with 10^9 f32 elements (4 GB) per GPU: no buffers needed.
  const Traffic traffic = traffic_of(allreduce(4, 1'000'000'000, DType::f32));
  CHECK(traffic.total_sent(0) == 6'000'000'000);
}

}  // namespace
}  // namespace ringviz
