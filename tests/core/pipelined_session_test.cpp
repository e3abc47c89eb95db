// Pipelined sessions (docs/architecture.md, "Pipelined schedules"): every element keeps its slot
// and its chain of ranks, so any number of channels and slices must leave the outputs and the
// final buffers bit-identical to the source article's lock-step rounds, and stepping a pipeline back
// and forth must show what a straight run shows.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "tests/core/reference.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

constexpr int kRankCounts[] = {1, 2, 3, 5, 8};

// Counts the pipeline singles out for N ranks: none, fewer than N (empty slots), fewer than
// N·C·S (empty pieces), one that no piece count divides, and a few hundred.
std::vector<std::int64_t> counts_for(int ranks, PipelineShape shape) {
  const std::int64_t pieces = std::int64_t{ranks} * shape.pieces_per_slot();
  return {0, ranks > 1 ? ranks - 1 : 1, pieces > 2 ? pieces - 1 : 2, 97, 300};
}

struct Run {
  BufferState final_buffers;
  std::vector<ByteBuffer> outputs;
};

Run run_to_end(const Config& config) {
  Session session(config, make_cpu_backend(1), SessionOptions{0});
  session.seek(session.round_count());
  return {session.buffers(), session.outputs()};
}

Config make_config(Op op, Algorithm algorithm, int ranks, std::int64_t count, DType dtype, ReduceOp reduce) {
  return ConfigBuilder().op(op).algorithm(algorithm).ranks(ranks).count(count).dtype(dtype).reduce(reduce)
      .init("random:7");
}

std::string shape_note(const Config& config) {
  return test::describe(config) + " channels=" + std::to_string(config.channels) +
         " slices=" + std::to_string(config.slices);
}

void check_same_as_lock_step(Config config, PipelineShape shape, const Run& lock_step) {
  config.channels = shape.channels;
  config.slices = shape.slices;
  INFO(shape_note(config));
  const Run pipelined = run_to_end(config);
  const test::Difference outputs = test::first_difference(config.dtype, pipelined.outputs, lock_step.outputs);
  CHECK(outputs.actual == outputs.expected);
  const test::Difference buffers =
      test::first_difference(config.dtype, pipelined.final_buffers.ranks, lock_step.final_buffers.ranks);
  CHECK(buffers.actual == buffers.expected);
}

// Every (C, S) in 1…4 × 1…8 for every type and reduction; the operation, algorithm, ring size
// and count rotate with each case so that the grid also covers all of those, in seconds.
TEST_CASE("every channel and slice count gives results bit-identical to lock-step for every type and reduction") {
  std::vector<Config> shapes;
  for (const Op op : {Op::allgather, Op::reducescatter, Op::allreduce})
    for (const Algorithm algorithm : kAllAlgorithms)
      if (algorithm_supports(algorithm, op)) shapes.push_back(make_config(op, algorithm, 1, 0, DType::f32, ReduceOp::sum));
  std::size_t turn = 0;
  for (const DType dtype : kAllDTypes)
    for (const ReduceOp reduce : kAllReduceOps)
      for (int channels = 1; channels <= 4; ++channels)
        for (int slices = 1; slices <= 8; ++slices) {
          const PipelineShape shape{channels, slices};
          const Config& base = shapes[turn % shapes.size()];
          const int ranks = kRankCounts[turn % std::size(kRankCounts)];
          const std::vector<std::int64_t> counts = counts_for(ranks, shape);
          const std::int64_t count = counts[(turn / std::size(kRankCounts)) % counts.size()];
          ++turn;
          const Config config = make_config(base.op, base.algorithm, ranks, count, dtype, reduce);
          check_same_as_lock_step(config, shape, run_to_end(config));
        }
}

// The other way round: every operation, algorithm, ring size and count, on a few shapes.
TEST_CASE("every algorithm, ring size and count gives results bit-identical to lock-step when pipelined") {
  const PipelineShape shapes[] = {{1, 2}, {3, 1}, {2, 3}, {4, 8}};
  for (const Op op : {Op::allgather, Op::reducescatter, Op::allreduce})
    for (const Algorithm algorithm : kAllAlgorithms) {
      if (!algorithm_supports(algorithm, op)) continue;
      for (const int ranks : kRankCounts)
        for (const PipelineShape shape : shapes)
          for (const std::int64_t count : counts_for(ranks, shape)) {
            const DType dtype = op == Op::allgather ? DType::i32 : DType::f16;
            const Config config = make_config(op, algorithm, ranks, count, dtype, ReduceOp::avg);
            check_same_as_lock_step(config, shape, run_to_end(config));
          }
    }
}

TEST_CASE("stepping a pipelined session back and forth shows the buffers of a straight run") {
  Config config = make_config(Op::allreduce, Algorithm::ring, 5, 97, DType::bf16, ReduceOp::avg);
  config.channels = 2;
  config.slices = 3;
  Session straight(config, make_cpu_backend(1));
  std::vector<BufferState> expected{straight.buffers()};
  std::vector<Provenance> expected_provenance{straight.provenance()};
  while (!straight.at_end()) {
    straight.step_forward();
    expected.push_back(straight.buffers());
    expected_provenance.push_back(straight.provenance());
  }
  REQUIRE(straight.round_count() == 2 * 4 + 3 - 1);
  // A tiny snapshot budget makes seeks rebuild waves from an earlier snapshot.
  Session walked(config, make_cpu_backend(2), SessionOptions{1});
  const int moves[] = {3, -1, 10, 4, -1, -1, 0, 7, 9, 2, 10};
  for (const int move : moves) {
    if (move < 0)
      walked.step_back();
    else
      walked.seek(move);
    INFO("after seeking to " << walked.round());
    CHECK(walked.buffers().ranks == expected[static_cast<std::size_t>(walked.round())].ranks);
    CHECK(walked.provenance() == expected_provenance[static_cast<std::size_t>(walked.round())]);
  }
}

TEST_CASE("a pipelined session keeps the source article's slots and moves pieces of them") {
  Config config = make_config(Op::reducescatter, Algorithm::ring, 3, 17, DType::f32, ReduceOp::sum);
  config.channels = 2;
  config.slices = 2;
  Session session(config, make_cpu_backend(1));
  CHECK(session.pipelined());
  CHECK(session.layout().size() == 3);
  CHECK(session.piece_layout().size() == 3 * 4);
  CHECK(session.schedule().round_count() == 2 + 2 - 1);
  CHECK(session.execution_schedule().round_count() == session.schedule().round_count());
  // Bytes follow the pieces: the whole run moves what the lock-step run moves.
  Config lock_step = config;
  lock_step.channels = lock_step.slices = 1;
  Session plain(lock_step, make_cpu_backend(1));
  for (int rank = 0; rank < 3; ++rank) CHECK(session.traffic().total_sent(rank) == plain.traffic().total_sent(rank));
  CHECK(session.traffic().sent[0][0] < plain.traffic().sent[0][0]);
}

TEST_CASE("provenance of a pipelined slot counts only what reached all of its pieces") {
  Config config = make_config(Op::reducescatter, Algorithm::ring, 3, 12, DType::f32, ReduceOp::sum);
  config.slices = 2;
  Session session(config, make_cpu_backend(1));
  // Wave 1 moves slice 0 of round 1 only: one piece of the slot rank 1 receives grows.
  session.step_forward();
  const Transfer& first = session.schedule().rounds[0].transfers[0];
  REQUIRE(first.step == PipelineStep{0, 0, 0});
  CHECK(session.provenance().at(first.dst, first.slot, 0).count() == 2);
  CHECK(session.provenance().at(first.dst, first.slot, 1).count() == 1);
  CHECK(session.provenance().at(first.dst, first.slot).count() == 1);
  session.step_forward();
  CHECK(session.provenance().at(first.dst, first.slot).count() == 2);
}

}  // namespace
}  // namespace ringviz
