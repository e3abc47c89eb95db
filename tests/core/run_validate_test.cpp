// The Run model holds a training job's timeline (AllReduce buckets over every rank, a
// ReduceScatter on a sub-group, compute between them), matches each collective across its
// ranks, steps each one, and refuses every broken rule with one sentence naming where.
#include <doctest/doctest.h>

#include <string>

#include "capture_input_error.h"
#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/run/run_collectives.h"
#include "core/run/run_from_trace.h"
#include "core/run/run_validate.h"
#include "core/schedule/schedule.h"
#include "synthetic_capture.h"

using namespace ringviz;

namespace {

constexpr int kWorld = 0;
constexpr int kPair = 1;

CollectiveInstance bucket(std::int64_t count, double start_us, double end_us, const std::string& label) {
  CollectiveInstance instance;
  instance.op = Op::allreduce;
  instance.group = kWorld;
  instance.count = count;
  instance.dtype = DType::f32;
  instance.bytes = count * 4;
  instance.measured = TimeSpan{start_us, end_us};
  instance.library = {"RING", "LL", 8};
  instance.label = label;
  return instance;
}

// One iteration of a 4-rank job: forward, backward with three gradient buckets reduced while
// it runs, ranks 0 and 1 reduce-scatter optimizer state over their pair, then the optimizer.
Run training_job() {
  Run run;
  run.groups = {{"world", {0, 1, 2, 3}, ""}, {"pair", {0, 1}, ""}};
  for (int rank = 0; rank < 4; ++rank) {
    RankTimeline& timeline = run.ranks.emplace_back();
    timeline.compute = {{"forward", ComputeKind::forward, {0, 100}},
                        {"backward", ComputeKind::backward, {100, 400}},
                        {"cast", ComputeKind::kernel, {400, 410}},
                        {"adam", ComputeKind::optimizer, {520, 560}}};
    timeline.collectives = {bucket(1 << 20, 200, 260, "bucket 0"), bucket(1 << 20, 280, 340, "bucket 1"),
                            bucket(1 << 19, 400, 470, "bucket 2")};
    if (rank < 2) {
      CollectiveInstance shard;
      shard.op = Op::reducescatter;
      shard.group = kPair;
      shard.count = 1024;
      shard.dtype = DType::bf16;
      shard.measured = TimeSpan{480, 520};
      timeline.collectives.push_back(shard);
    }
  }
  return run;
}

std::string problem(const Run& run) { return validate(run).value_or("(valid)"); }

}  // namespace

TEST_CASE("a training job's timeline is a valid run whose collectives match across their groups") {
  const Run run = training_job();
  CHECK(problem(run) == "(valid)");
  const std::vector<RunCollective> collectives = run_collectives(run);
  REQUIRE(collectives.size() == 4);
  for (int sequence = 0; sequence < 3; ++sequence) {
    const RunCollective& allreduce = collectives[static_cast<std::size_t>(sequence)];
    CHECK(allreduce.group == kWorld);
    CHECK(allreduce.sequence == sequence);
    REQUIRE(allreduce.members.size() == 4);
    for (std::size_t rank = 0; rank < 4; ++rank)
      CHECK(allreduce.members[rank] == &run.ranks[rank].collectives[static_cast<std::size_t>(sequence)]);
  }
  const RunCollective& shard = collectives[3];
  CHECK(shard.group == kPair);
  CHECK(shard.members == std::vector<const CollectiveInstance*>{&run.ranks[0].collectives[3], &run.ranks[1].collectives[3]});
  CHECK(shard.first().op == Op::reducescatter);
  CHECK(collectives[1].first().label == "bucket 1");
  CHECK(collectives[1].first().library.protocol == "LL");
}

TEST_CASE("each collective of the job steps in a session over its own group") {
  const Run run = training_job();
  const std::vector<RunCollective> collectives = run_collectives(run);
  const Config bucket_config = collective_config(run, collectives[2]);
  CHECK(bucket_config.op == Op::allreduce);
  CHECK(bucket_config.ranks == 4);
  CHECK(bucket_config.count == 1 << 19);
  Config shard_config = collective_config(run, collectives[3]);
  CHECK(shard_config.op == Op::reducescatter);
  CHECK(shard_config.ranks == 2);
  CHECK(shard_config.dtype == DType::bf16);
  CHECK_FALSE(validate(shard_config));
  Session session(shard_config, make_cpu_backend(1));
  CHECK(session.round_count() == make_schedule(shard_config).round_count());
  session.seek(session.round_count());
  // Each of the pair ends with its half of the 1024 bf16 elements.
  const std::vector<ByteBuffer> outputs = session.outputs();
  REQUIRE(outputs.size() == 2);
  CHECK(outputs[0].size() == 512 * 2);
  CHECK(outputs[1].size() == 512 * 2);
}

TEST_CASE("ranks the source did not trace list nothing, and their part of each collective is left open") {
  Run run = training_job();
  run.ranks[3] = RankTimeline{false, {}, {}};
  CHECK(problem(run) == "(valid)");
  const std::vector<RunCollective> collectives = run_collectives(run);
  REQUIRE(collectives.size() == 4);
  CHECK(collectives[0].members[3] == nullptr);
  CHECK(collective_config(run, collectives[0]).ranks == 4);
  run.ranks[3].compute.push_back({"forward", ComputeKind::forward, {0, 1}});
  CHECK(problem(run) == "rank 3 is not traced, but lists 0 collectives and 1 compute span");
}

TEST_CASE("groups must name existing ranks once each, under names of their own") {
  Run run = training_job();
  run.groups[kPair].ranks = {0, 4};
  CHECK(problem(run) == "group \"pair\" lists rank 4, but the run has 4 ranks (0 to 3)");
  run.groups[kPair].ranks = {1, 1};
  CHECK(problem(run) == "group \"pair\" lists rank 1 twice");
  run.groups[kPair].ranks.clear();
  CHECK(problem(run) == "group \"pair\" has no ranks");
  run.groups[kPair] = {"world", {0, 1}, ""};
  CHECK(problem(run) == "two groups are named \"world\"");
  run.groups[kPair].name.clear();
  CHECK(problem(run) == "group 1 has no name");
  CHECK(problem(Run{}) == "the run has no ranks");
}

TEST_CASE("an instance must be on a group that exists and holds its rank") {
  Run run = training_job();
  run.ranks[0].collectives[1].group = 5;
  CHECK(problem(run) == "rank 0, collective 2 (AllReduce): group 5 does not exist (the run has 2 groups)");
  run = training_job();
  CollectiveInstance stray = run.ranks[0].collectives[3];
  run.ranks[2].collectives.push_back(stray);
  CHECK(problem(run) == "rank 2, collective 4 (ReduceScatter): rank 2 is not in group \"pair\" (ranks 0, 1)");
}

TEST_CASE("an instance's sizes must be ones a schedule takes, and its bytes its count's") {
  Run run = training_job();
  run.ranks[1].collectives[0].count = -1;
  CHECK(problem(run) == "rank 1, collective 1 (AllReduce): count -1 is out of range (0 to 2^40 elements)");
  run = training_job();
  run.ranks[1].collectives[0].bytes = 100;
  CHECK(problem(run) == "rank 1, collective 1 (AllReduce): bytes 100 do not match count 1048576 of f32 (4194304 bytes)");
  run = training_job();
  run.ranks[0].collectives[3].algorithm = Algorithm::tree;
  CHECK(problem(run) == "rank 0, collective 4 (ReduceScatter): the tree algorithm has no reducescatter schedule");
  run = training_job();
  run.ranks[0].collectives[0].channels = 0;
  CHECK(problem(run) == "rank 0, collective 1 (AllReduce): channels 0 is out of range (1 to 32)");
  run = training_job();
  run.ranks[0].collectives[0].library.channels = 0;
  CHECK(problem(run) == "rank 0, collective 1 (AllReduce): the library's channels 0 must be 1 or more");
}

TEST_CASE("the ranks of one collective must agree on what it is, matched by sequence within the group") {
  Run run = training_job();
  run.ranks[2].collectives[1].count = 1000;
  run.ranks[2].collectives[1].bytes = 4000;
  CHECK(problem(run) == "group \"world\", collective 2: rank 2 has count 1000 where rank 0 has count 1048576");
  run = training_job();
  run.ranks[1].collectives[3].dtype = DType::f32;
  CHECK(problem(run) == "group \"pair\", collective 1: rank 1 has dtype f32 where rank 0 has dtype bf16");
  run = training_job();
  run.ranks[3].collectives[0].op = Op::allgather;
  CHECK(problem(run) == "group \"world\", collective 1: rank 3 has op allgather where rank 0 has op allreduce");
  run = training_job();
  run.ranks[3].collectives.pop_back();  // rank 3 never issued bucket 2
  CHECK(problem(run) ==
        "group \"world\", collective 3: rank 3 does not list it (the ranks of a group issue the same collectives)");
}

TEST_CASE("a rank's times must not run backwards") {
  Run run = training_job();
  run.ranks[1].collectives[1].measured = TimeSpan{150, 190};
  CHECK(problem(run) == "rank 1, collective 2 (AllReduce): starts at 150 us, before collective 1 (200 us): a rank "
                        "lists its collectives in the order it issued them");
  run = training_job();
  run.ranks[1].collectives[0].measured = TimeSpan{200, 199.5};
  CHECK(problem(run) == "rank 1, collective 1 (AllReduce): measured: ends at 199.5 us, before its start at 200 us");
  run = training_job();
  run.ranks[2].compute[3].time = {90, 95};
  CHECK(problem(run) == "rank 2, compute span 4 (\"adam\"): starts at 90 us, before compute span 3 (400 us): spans "
                        "are listed in order of start");
  run = training_job();
  run.ranks[2].compute[0].time = {0, -1};
  CHECK(problem(run) == "rank 2, compute span 1 (\"forward\"): ends at -1 us, before its start at 0 us");
  run = training_job();
  run.ranks[2].compute[0].name.clear();
  CHECK(problem(run) == "rank 2, compute span 1: has no name");
}

TEST_CASE("a recorded collective must be the one its instances say, and a refused run names its source") {
  Run run = parse_run(trace_document(Config{}), "t.json");
  for (RankTimeline& timeline : run.ranks) {
    timeline.collectives[0].count = 9;
    timeline.collectives[0].bytes.reset();
  }
  CHECK(problem(run) == "group \"world\", collective 1: its recording has count 8 where the instances have count 9");
  run = parse_run(trace_document(Config{}), "t.json");
  run.groups[0].ranks.pop_back();
  run.ranks[3].collectives.clear();
  CHECK(problem(run) == "group \"world\", collective 1: its recording is of 4 ranks, the group has 3");
  CHECK(input_error([&] { validate_or_throw(run, "job.json"); }) ==
        "job.json: group \"world\", collective 1: its recording is of 4 ranks, the group has 3");
}
