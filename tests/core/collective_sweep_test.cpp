// Every registered algorithm, operation, order, type and reduction, on 1 to 17 GPUs and counts
// around the GPU count, run through Session and the CPU backend and compared with the plain
// reference: bit for bit where the algorithm documents its fold order (the rings) or the
// result does not depend on it, within rounding otherwise.
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/model/checked_value.h"
#include "core/engine/backend.h"
#include "core/input/initial_values.h"
#include "core/engine/session.h"
#include "tests/core/reference.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

constexpr Order kOrders[] = {Order::seed, Order::nccl};

// Inputs that give each reduction something real to compute, generated as values of the
// element type so the reference knows them exactly. Random values in [-1, 1) (integers -1000
// to 1000) exercise the rounding of sum and avg; a product of up to 17 of those would
// underflow, so prod gets factors close to 1 (integers: small non-zero ones) that keep 17 of
// them finite, normal in f16 and within i32.
InitPattern inputs_for(const Config& config, std::uint64_t seed) {
  constexpr double kSmallIntegers[] = {-3, -2, -1, 1, 2, 3};
  InitPattern init;
  init.kind = InitKind::values;
  for (int rank = 0; rank < config.ranks; ++rank) {
    std::vector<double> row;
    row.reserve(static_cast<std::size_t>(config.count));
    for (std::int64_t i = 0; i < config.count; ++i) {
      const std::uint64_t bits = splitmix64_at(seed, static_cast<std::uint64_t>(rank * config.count + i));
      const double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;  // [0, 1)
      double value = 0;
      if (config.reduce == ReduceOp::prod)
        value = is_floating(config.dtype) ? 1.0 + (unit - 0.5) / 4.0 : kSmallIntegers[bits % 6];
      else
        value = is_floating(config.dtype) ? 2.0 * unit - 1.0 : static_cast<double>(bits % 2001) - 1000.0;
      row.push_back(test::representable(config.dtype, value));
    }
    init.values.push_back(numbers_of_reals({std::move(row)}).front());
  }
  return init;
}

// The counts the collective semantics single out: none, fewer than N (empty slots), exactly N, one
// either side of N (uneven slots), a prime that N never divides evenly, and a larger one.
std::vector<std::int64_t> counts_for(int ranks) {
  std::set<std::int64_t> counts = {0, 1, ranks - 1, ranks, ranks + 1, 101, 1000};
  return {counts.begin(), counts.end()};
}

// Integers wrap the same in any order, max and min pick one of the inputs, copies copy.
bool order_free(const Config& config) {
  return !is_floating(config.dtype) || config.reduce == ReduceOp::max || config.reduce == ReduceOp::min ||
         config.op == Op::allgather;
}

void check_outputs(const Config& config, const Session& session, const std::vector<ByteBuffer>& inputs) {
  const std::vector<ByteBuffer> outputs = session.outputs();
  const std::optional<test::FoldOrder> documented = test::documented_fold_order(algorithm_name(config.algorithm));
  // An algorithm with a documented order must also leave each slot where the ring does; the
  // others say where (their owned slots are checked against the semantics in test_algorithms).
  const std::vector<int> owned = documented ? std::vector<int>{} : session.schedule().owned_slot;
  if (documented || order_free(config)) {
    const test::Difference difference = test::first_difference(
        config.dtype, outputs,
        test::fold_order_outputs(config, inputs, documented.value_or(test::FoldOrder::rank_order), owned));
    CHECK(difference.actual == difference.expected);
  }
  if (is_floating(config.dtype)) CHECK(test::worst_error_ratio(config, inputs, outputs, owned) <= 1.0);
}

void check_against_reference(const Config& config) {
  INFO(algorithm_name(config.algorithm) << " " << test::describe(config));
  // No snapshots beyond the inputs: this checks where the rounds lead, and the stepping tests
  // check that every way of getting there agrees; snapshots would only add copying here.
  Session session(config, make_cpu_backend(2), SessionOptions{0});
  session.seek(session.round_count());
  REQUIRE(session.at_end());
  check_outputs(config, session, test::inputs_from_values(config));
}

// An op that copies ignores the reduction, so it is run once, with sum's inputs.
std::vector<ReduceOp> reductions_for(Op op) {
  if (!op_reduces(op)) return {ReduceOp::sum};
  return {std::begin(kAllReduceOps), std::end(kAllReduceOps)};
}

void sweep(Algorithm algorithm, Op op, DType dtype) {
  std::uint64_t seed = 1;
  for (int ranks = 1; ranks <= 17; ++ranks)
    for (std::int64_t count : counts_for(ranks))
      for (Order order : kOrders)
        for (ReduceOp reduce : reductions_for(op)) {
          Config config = ConfigBuilder().algorithm(algorithm).op(op).order(order).ranks(ranks).count(count).dtype(dtype)
              .reduce(reduce);
          config.init = inputs_for(config, seed++);
          check_against_reference(config);
        }
}

// Every algorithm in the registry, so that a new unit is checked without editing this file.
void sweep_every_algorithm_and_type(Op op) {
  for (Algorithm algorithm : kAllAlgorithms) {
    if (!algorithm_supports(algorithm, op)) continue;
    for (DType dtype : kAllDTypes)
      SUBCASE((std::string(algorithm_name(algorithm)) + " " + std::string(dtype_name(dtype))).c_str()) {
        sweep(algorithm, op, dtype);
      }
  }
}

TEST_CASE("AllReduce matches the plain reference for every algorithm, GPU count, count, order, type and reduction") {
  sweep_every_algorithm_and_type(Op::allreduce);
}

TEST_CASE("ReduceScatter matches the plain reference for every algorithm, GPU count, count, order, type and "
          "reduction") {
  sweep_every_algorithm_and_type(Op::reducescatter);
}

TEST_CASE("AllGather matches the plain reference for every algorithm, GPU count, count, order and type") {
  sweep_every_algorithm_and_type(Op::allgather);
}

// Runs `config` to its end lock-step and pipelined (2 channels of 3 slices), each with fresh
// inputs from `seed`, and holds its outputs against `expected(config, inputs)`.
template <typename Expected>
void check_plain_and_pipelined(Config config, std::uint64_t& seed, Expected expected) {
  for (const std::pair<int, int>& shape : {std::pair{1, 1}, std::pair{2, 3}}) {
    // Plain ints: clang (the sanitizer build) cannot capture a structured binding in INFO.
    const int channels = shape.first;
    const int slices = shape.second;
    config.channels = channels;
    config.slices = slices;
    config.init = inputs_for(config, seed++);
    INFO(algorithm_name(config.algorithm) << " " << test::describe(config) << " channels " << channels << " slices "
                                          << slices);
    Session session(config, make_cpu_backend(2), SessionOptions{0});
    session.seek(session.round_count());
    REQUIRE(session.at_end());
    const test::Difference difference = test::first_difference(
        config.dtype, session.outputs(), expected(config, test::inputs_from_values(config)));
    CHECK(difference.actual == difference.expected);
  }
}

// AllToAll (docs/architecture.md, "Collective semantics"): GPU r ends with block r of every GPU
// i in its slot i. Copies only, so bit for bit for every type, also when N does not divide the
// count (the count % N left over take no part) or the count is below N (empty blocks), and
// pipelined on channels and slices.
TEST_CASE("AllToAll matches the plain reference for every algorithm, GPU count, count, type and pipeline") {
  std::uint64_t seed = 1;
  for (Algorithm algorithm : kAllAlgorithms) {
    if (!algorithm_supports(algorithm, Op::alltoall)) continue;
    for (DType dtype : kAllDTypes)
      for (int ranks : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17})
        for (std::int64_t count : {std::int64_t{0}, std::int64_t{1}, std::int64_t{ranks - 1}, std::int64_t{ranks},
                                   std::int64_t{ranks + 1}, std::int64_t{2 * ranks}, std::int64_t{101},
                                   std::int64_t{64 * ranks}})
          check_plain_and_pipelined(
              ConfigBuilder().algorithm(algorithm).op(Op::alltoall).ranks(ranks).count(count).dtype(dtype), seed,
              test::all_to_all_outputs);
  }
}

// Uneven AllToAll block sizes for `ranks` GPUs, in the shapes that single out a rule: random
// (zeros included), everything sent to GPU 0 (one expert takes every token), each GPU keeping
// its own block alone (nothing moves), one large block among ones, and none at all.
std::vector<std::vector<std::int64_t>> split_tables_for(int ranks, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(ranks);
  std::vector<std::vector<std::int64_t>> tables(5, std::vector<std::int64_t>(n * n, 0));
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t d = 0; d < n; ++d) {
      tables[0][s * n + d] = static_cast<std::int64_t>(splitmix64_at(seed, s * n + d) % 7);
      tables[1][s * n + d] = d == 0 ? static_cast<std::int64_t>(s + 2) : 0;
      tables[2][s * n + d] = s == d ? 3 : 0;
      tables[3][s * n + d] = s == n - 1 && d == 0 ? 97 : 1;
    }
  return tables;
}

// AllToAll with uneven splits (Config::splits): every GPU ends with what each sender holds for
// it, in sender order, bit for bit, for every type, lock-step and pipelined; the count is the
// largest row's sum, or two more so that some elements of every input take no part.
TEST_CASE("Uneven AllToAll matches the plain reference for every split shape, GPU count, type and pipeline") {
  std::uint64_t seed = 1;
  for (Algorithm algorithm : kAllAlgorithms) {
    if (!algorithm_supports(algorithm, Op::alltoall)) continue;
    for (DType dtype : kAllDTypes)
      for (int ranks : {1, 2, 3, 4, 5, 7, 8, 9, 16})
        for (const std::vector<std::int64_t>& splits : split_tables_for(ranks, seed)) {
          std::int64_t largest_row = 0;
          for (int s = 0; s < ranks; ++s) {
            std::int64_t row = 0;
            for (int d = 0; d < ranks; ++d) row += splits[static_cast<std::size_t>(s * ranks + d)];
            largest_row = std::max(largest_row, row);
          }
          for (std::int64_t extra : {0, 2})
            check_plain_and_pipelined(ConfigBuilder()
                                          .algorithm(algorithm)
                                          .op(Op::alltoall)
                                          .ranks(ranks)
                                          .count(largest_row + extra)
                                          .dtype(dtype)
                                          .splits(splits),
                                      seed, test::all_to_all_outputs);
        }
  }
}

// Broadcast (docs/architecture.md, "Collective semantics"): every GPU ends with the root's input,
// from every root of every GPU count, on every algorithm that has it, lock-step and pipelined.
TEST_CASE("Broadcast matches the plain reference for every algorithm, GPU count, root, count, type and pipeline") {
  std::uint64_t seed = 1;
  for (Algorithm algorithm : kAllAlgorithms) {
    if (!algorithm_supports(algorithm, Op::broadcast)) continue;
    for (DType dtype : kAllDTypes)
      for (int ranks = 1; ranks <= 17; ++ranks)
        for (int root = 0; root < ranks; ++root)
          for (std::int64_t count : {std::int64_t{0}, std::int64_t{1}, std::int64_t{ranks + 1}, std::int64_t{101}})
            check_plain_and_pipelined(
                ConfigBuilder().algorithm(algorithm).op(Op::broadcast).ranks(ranks).root(root).count(count).dtype(dtype),
                seed, test::broadcast_outputs);
  }
}

TEST_CASE("Slots larger than one worker's share are split and still reduce bit-exactly") {
  // Over 32768 elements per slot (uneven, too): the CPU backend cuts each slot into several
  // tasks that run on different threads. Inputs come from init random, read back from the
  // state make_initial_state builds.
  Config config = ConfigBuilder().ranks(3).count(100'003).random_init(11);
  const std::pair<DType, ReduceOp> kinds[] = {
      {DType::f32, ReduceOp::sum}, {DType::bf16, ReduceOp::avg}, {DType::i64, ReduceOp::max}};
  for (Op op : {Op::allreduce, Op::reducescatter})
    for (Order order : kOrders)
      for (const auto& [dtype, reduce] : kinds) {
        config.op = op;
        config.order = order;
        config.dtype = dtype;
        config.reduce = reduce;
        INFO(test::describe(config));
        Session session(config, make_cpu_backend(2), SessionOptions{0});
        session.seek(session.round_count());
        check_outputs(config, session, test::inputs_of(config, make_initial_state(config)));
      }
}

// One rank's output as whole numbers (the example's values all are), so a failed CHECK shows
// both sides.
std::string output_text(const Session& session, int rank) {
  const std::vector<ByteBuffer> outputs = session.outputs();
  const ByteBuffer& bytes = outputs[static_cast<std::size_t>(rank)];
  BufferState view{session.config().dtype, 0, {bytes}};
  view.elements_per_rank = static_cast<std::int64_t>(bytes.size() / dtype_size(view.dtype));
  std::string text;
  for (std::int64_t i = 0; i < view.elements_per_rank; ++i)
    text += (i ? " " : "") + std::to_string(static_cast<long long>(read_element(view, 0, i).real));
  return text;
}

TEST_CASE("The source article's two-GPU example gives the source article's results") {
  // GPU 0 starts with [1, 2, 3, 4] and GPU 1 with [5, 6, 7, 8] (init seed, count 4).
  Config config = ConfigBuilder().ranks(2).count(4);

  SUBCASE("AllReduce leaves the element-wise sum on both GPUs") {
    config.op = Op::allreduce;
    Session session(config, make_cpu_backend(1));
    session.seek(session.round_count());
    CHECK(output_text(session, 0) == "6 8 10 12");
    CHECK(output_text(session, 1) == "6 8 10 12");
  }
  SUBCASE("ReduceScatter in seed order leaves GPU 0 the second half and GPU 1 the first") {
    config.op = Op::reducescatter;
    Session session(config, make_cpu_backend(1));
    session.seek(session.round_count());
    CHECK(output_text(session, 0) == "10 12");
    CHECK(output_text(session, 1) == "6 8");
  }
  SUBCASE("ReduceScatter in nccl order leaves GPU r chunk r") {
    config.op = Op::reducescatter;
    config.order = Order::nccl;
    Session session(config, make_cpu_backend(1));
    session.seek(session.round_count());
    CHECK(output_text(session, 0) == "6 8");
    CHECK(output_text(session, 1) == "10 12");
  }
  SUBCASE("AllGather leaves both inputs, in rank order, on both GPUs") {
    config.op = Op::allgather;
    Session session(config, make_cpu_backend(1));
    session.seek(session.round_count());
    CHECK(output_text(session, 0) == "1 2 3 4 5 6 7 8");
    CHECK(output_text(session, 1) == "1 2 3 4 5 6 7 8");
  }
}

}  // namespace
}  // namespace ringviz
