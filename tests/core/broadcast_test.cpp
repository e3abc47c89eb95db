// Broadcast (docs/architecture.md, "Collective semantics"): the root's buffer reaches every GPU
// down the ring's chain root, root + 1, ..., cut into N slots that follow each other one hop per
// round. tests/core/collective_sweep_test.cpp checks every root's outputs against the reference.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/engine/contributor_label.h"
#include "core/engine/session.h"
#include "core/engine/traffic.h"
#include "core/input/initial_values.h"
#include "core/model/checked_value.h"
#include "core/model/layout.h"
#include "tests/core/reference.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

// A value table whose every element differs, as values of the element type (the reference reads
// the same table, never the engine's initial state).
InitPattern distinct_values(const Config& config, std::uint64_t seed) {
  InitPattern init;
  init.kind = InitKind::values;
  for (int rank = 0; rank < config.ranks; ++rank) {
    std::vector<double> row;
    for (std::int64_t i = 0; i < config.count; ++i) {
      const std::uint64_t bits = splitmix64_at(seed, static_cast<std::uint64_t>(rank * config.count + i));
      const double value = is_floating(config.dtype) ? static_cast<double>(bits >> 11) * 0x1.0p-53 * 2.0 - 1.0
                                                     : static_cast<double>(bits % 2001) - 1000.0;
      row.push_back(test::representable(config.dtype, value));
    }
    init.values.push_back(numbers_of_reals({std::move(row)}).front());
  }
  return init;
}

std::vector<std::int64_t> counts_for(int ranks) { return {0, 1, ranks - 1, ranks + 1, 1000}; }

std::vector<ByteBuffer> final_outputs(const Config& config) {
  Session session(config, make_cpu_backend(2), SessionOptions{0});
  session.seek(session.round_count());
  REQUIRE(session.at_end());
  return session.outputs();
}

TEST_CASE("Broadcast leaves GPU 0's input on every GPU bit for bit, for every GPU count, count and type") {
  std::uint64_t seed = 1;
  for (int ranks : {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 33})
    for (std::int64_t count : counts_for(ranks))
      for (DType dtype : kAllDTypes) {
        Config config = ConfigBuilder().op(Op::broadcast).ranks(ranks).count(count).dtype(dtype);
        config.init = distinct_values(config, seed++);
        INFO(test::describe(config));
        const std::vector<ByteBuffer> inputs = test::inputs_from_values(config);
        const std::vector<ByteBuffer> expected(static_cast<std::size_t>(ranks), inputs[static_cast<std::size_t>(config.root)]);
        const test::Difference difference = test::first_difference(dtype, final_outputs(config), expected);
        CHECK(difference.actual == difference.expected);
      }
}

TEST_CASE("Pipelined broadcast gives the same bytes as the lock-step one") {
  for (int ranks : {2, 5, 8})
    for (std::int64_t count : {std::int64_t{7}, std::int64_t{1000}}) {
      const Config lock_step = ConfigBuilder().op(Op::broadcast).ranks(ranks).count(count).dtype(DType::bf16).random_init(3);
      const std::vector<ByteBuffer> expected = final_outputs(lock_step);
      for (int channels : {1, 2})
        for (int slices : {1, 3}) {
          const Config pipelined = ConfigBuilder(lock_step).channels(channels).slices(slices);
          INFO(test::describe(pipelined) << " channels " << channels << " slices " << slices);
          CHECK(final_outputs(pipelined) == expected);
        }
    }
}

TEST_CASE("Ring broadcast runs the chain root, root+1, ... round the ring in 2N-2 rounds, hop k forwarding slot t-k") {
  for (int n = 1; n <= 9; ++n)
    for (int root = 0; root < n; ++root) {
      INFO("N=" << n << " root=" << root);
      const Schedule schedule = make_schedule(ConfigBuilder().op(Op::broadcast).ranks(n).root(root));
      REQUIRE(schedule.round_count() == (n == 1 ? 0 : 2 * n - 2));
      std::vector<std::vector<int>> sent_by(static_cast<std::size_t>(n));  // slots each GPU forwards, in order
      for (int t = 0; t < schedule.round_count(); ++t) {
        const Round& round = schedule.rounds[static_cast<std::size_t>(t)];
        CHECK(round.phase == Phase::broadcast);
        for (const Transfer& transfer : round.transfers) {
          const int hop = (transfer.src - root + n) % n;  // the sender's place down the chain
          CHECK(transfer.kind == TransferKind::copy);
          CHECK(transfer.dst == (transfer.src + 1) % n);  // to the right-hand neighbour
          CHECK(hop + 1 < n);                              // never from the last GPU back to the root
          CHECK(transfer.slot == t - hop);
          sent_by[static_cast<std::size_t>(transfer.src)].push_back(transfer.slot);
        }
      }
      const int last = (root + n - 1) % n;
      for (int rank = 0; rank < n; ++rank) {
        std::vector<int> all_slots;
        if (rank != last)
          for (int slot = 0; slot < n; ++slot) all_slots.push_back(slot);
        CHECK(sent_by[static_cast<std::size_t>(rank)] == all_slots);  // every slot once, in order; the last GPU none
      }
    }
}

TEST_CASE("Every GPU but the last in the chain sends count x size bytes, and every GPU but the root receives them") {
  for (int n : {1, 2, 3, 4, 7, 16})
    for (int root : {0, n / 2, n - 1})
      for (std::int64_t count : {std::int64_t{0}, std::int64_t{1}, std::int64_t{n + 1}, std::int64_t{1000}})
        for (DType dtype : {DType::f16, DType::f64}) {
          const Config config = ConfigBuilder().op(Op::broadcast).ranks(n).root(root).count(count).dtype(dtype);
          INFO(test::describe(config));
          const Traffic traffic = compute_traffic(make_schedule(config), make_layout(config), dtype, n);
          const std::int64_t bytes = count * static_cast<std::int64_t>(dtype_size(dtype));
          const int last = (root + n - 1) % n;
          for (int rank = 0; rank < n; ++rank) {
            CHECK(traffic.total_sent(rank) == (rank != last ? bytes : 0));
            CHECK(traffic.total_received(rank) == (rank == root ? 0 : bytes));
          }
        }
}

TEST_CASE("A broadcast cell is labelled with the root's capital and the slot, and starts empty off the root") {
  const Config config = ConfigBuilder().op(Op::broadcast).ranks(4).count(8);
  Session session(config, make_cpu_backend(1));
  const auto labels = [&](int rank) {
    std::string text;
    for (int slot = 0; slot < 4; ++slot)
      text += (slot ? " " : "") + (session.provenance().at(rank, slot).none()
                                        ? std::string("-")
                                        : reduction_label(config, session.provenance().at(rank, slot), slot));
    return text;
  };
  CHECK(labels(0) == "A0 A1 A2 A3");
  CHECK(labels(1) == "- - - -");
  CHECK(labels(3) == "- - - -");
  for (std::int64_t i = 0; i < 8; ++i) CHECK(read_element(session.buffers(), 1, i).real == 0);
  session.seek(2);  // slot 0 has gone two hops, slot 1 one
  CHECK(labels(1) == "A0 A1 - -");
  CHECK(labels(2) == "A0 - - -");
  CHECK(labels(3) == "- - - -");
  session.seek(session.round_count());
  for (int rank = 0; rank < 4; ++rank) CHECK(labels(rank) == "A0 A1 A2 A3");
}

TEST_CASE("A broadcast from root 3 of 5 starts at GPU 3 with its capital, and reaches GPU 4 first, then GPU 0") {
  const Config config = ConfigBuilder().op(Op::broadcast).ranks(5).root(3).count(10);
  Session session(config, make_cpu_backend(1));
  const auto labels = [&](int rank) {
    std::string text;
    for (int slot = 0; slot < 5; ++slot)
      text += (slot ? " " : "") + (session.provenance().at(rank, slot).none()
                                        ? std::string("-")
                                        : reduction_label(config, session.provenance().at(rank, slot), slot));
    return text;
  };
  CHECK(labels(3) == "D0 D1 D2 D3 D4");
  for (int rank : {0, 1, 2, 4}) CHECK(labels(rank) == "- - - - -");
  session.seek(2);
  CHECK(labels(4) == "D0 D1 - - -");
  CHECK(labels(0) == "D0 - - - -");
  CHECK(labels(1) == "- - - - -");
  session.seek(session.round_count());
  for (int rank = 0; rank < 5; ++rank) CHECK(labels(rank) == "D0 D1 D2 D3 D4");
}

TEST_CASE("A root outside the ring, or a root for an op without one, is refused naming both numbers") {
  const auto outside = validate(ConfigBuilder().op(Op::broadcast).ranks(5).root(5));
  REQUIRE(outside.has_value());
  CHECK(*outside == "root: GPU 5 is not in a ring of 5 GPUs; give 0 to 4");
  const auto negative = validate(ConfigBuilder().op(Op::broadcast).ranks(5).root(-1));
  REQUIRE(negative.has_value());
  CHECK(negative->rfind("root: GPU -1 is not in a ring of 5 GPUs", 0) == 0);
  const auto other_op = validate(ConfigBuilder().op(Op::allreduce).ranks(5).root(2));
  REQUIRE(other_op.has_value());
  CHECK(*other_op == "root: GPU 2 as the source, but allreduce has none; leave --root out (it applies to broadcast)");
  CHECK_FALSE(validate(ConfigBuilder().op(Op::allreduce).ranks(5).root(0)).has_value());
  CHECK_FALSE(validate(ConfigBuilder().op(Op::broadcast).ranks(5).root(4)).has_value());
}

TEST_CASE("Broadcast is refused with a reduction other than sum, and by every algorithm but the ring") {
  const auto problem = validate(ConfigBuilder().op(Op::broadcast).reduce(ReduceOp::max));
  REQUIRE(problem.has_value());
  CHECK(*problem ==
        "reduce: max combines values, but broadcast only copies them; leave --reduce out (it applies to "
        "reducescatter and allreduce)");
  for (Algorithm algorithm : kAllAlgorithms) {
    CAPTURE(algorithm_name(algorithm));
    const auto refused = validate(ConfigBuilder().op(Op::broadcast).algorithm(algorithm));
    CHECK(refused.has_value() == (algorithm != Algorithm::ring));
    if (refused) CHECK(refused->find("(ring support broadcast)") != std::string::npos);
  }
}

}  // namespace
}  // namespace ringviz
