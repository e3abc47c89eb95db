// What the job importer keeps of a collective beyond its size (a broadcast's root, a send's
// peer, a rank's host), and how it puts the parts of several machines on one clock
// (docs/job-format.md, "Clocks of several machines").
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/algorithms/registry.h"
#include "core/job/job_document.h"
#include "core/job/job_import.h"
#include "core/job/job_table.h"
#include "core/model/input_error.h"
#include "core/run/run_collectives.h"
#include "tests/core/kineto_fixture.h"
#include "tests/support/temp_dir.h"

namespace ringviz {
namespace {

using nlohmann::json;
using test::FakeCollective;
using test::fake_kineto_trace;
using test::TempDir;

// The broadcast among `collectives` of the run, stepped as a Config.
Config broadcast_config(const Job& job) {
  for (const RunCollective& collective : run_collectives(job.run))
    if (collective.first().op == Op::broadcast) return collective_config(job.run, collective);
  FAIL("no broadcast in the job");
  return {};
}

// One collective of a live recording's part (docs/job-format.md, "Parts written by a live job").
struct PartCollective {
  std::string op = "allreduce";
  int sequence = 0;
  double start_us = 0;
  double duration_us = 100;
  std::optional<int> root, peer;
};

// A part of a 4-rank job on the world group, as ringviz_torch writes it: times on the rank's
// own clock, `host` naming its machine.
std::string part_text(int rank, const std::string& host, const std::vector<PartCollective>& collectives) {
  json entries = json::array();
  for (const PartCollective& c : collectives) {
    json entry = {{"op", c.op}, {"group", "0"}, {"sequence", c.sequence}, {"count", 256}, {"dtype", "f32"},
                  {"bytes", 1024}};
    if (c.root) entry["root"] = *c.root;
    if (c.peer) entry["peer"] = *c.peer;
    entry["start_us"] = c.start_us;
    entry["duration_us"] = c.duration_us;
    entry["derived"] = json::array();
    entries.push_back(entry);
  }
  const json part = {
      {"format", "ringviz.job/1"},
      {"source", {{"kind", "ringviz_torch"}, {"files", json::array()}}},
      {"job", {{"world_size", 4}, {"backend", "gloo"}}},
      {"groups", json::array({{{"name", "0"}, {"description", "default_pg"}, {"ranks", {0, 1, 2, 3}}}})},
      {"ranks", json::array({{{"rank", rank},
                              {"traced", true},
                              {"host", host},
                              {"clock_offset_us", 0.0},
                              {"collectives", entries},
                              {"compute", json::array()}}})}};
  return part.dump(1);
}

// 40 AllReduces, 10 ms apart, that end within `spread_us` of each other across the ranks (a
// fixed pattern per rank and collective), on a clock `skew_us` ahead on host "b" (ranks 2, 3).
std::vector<std::string> two_host_parts(TempDir& folder, double skew_us, double spread_us,
                                        const std::string& second_host = "b") {
  std::vector<std::string> files;
  for (int rank = 0; rank < 4; ++rank) {
    const std::string host = rank < 2 ? "a" : second_host;
    std::vector<PartCollective> collectives;
    for (int k = 0; k < 40; ++k) {
      PartCollective c;
      c.sequence = k;
      const double jitter = spread_us * (((rank * 7 + k * 3) % 11) / 10.0 - 0.5);
      const double true_end = 1.6e14 + 10000.0 * k + 500 + jitter;
      c.duration_us = 200 + 13 * rank;
      c.start_us = true_end - c.duration_us + (host == "b" ? skew_us : 0);
      collectives.push_back(c);
    }
    files.push_back(folder.write("rank-" + std::to_string(rank) + ".json", part_text(rank, host, collectives)));
  }
  return files;
}

}  // namespace

TEST_CASE("a Kineto broadcast opens from the root its Rank names, as a global rank of its group") {
  TempDir folder;
  FakeCollective broadcast;
  broadcast.name = "broadcast";
  broadcast.group = "7";
  broadcast.ranks = {2, 3};
  broadcast.rank_arg = 1;  // the group's second rank: global rank 3
  broadcast.kernel = "ncclDevKernel_Broadcast_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
  const Job job = import_job({folder.write("rank2.json", fake_kineto_trace(2, 4, {broadcast}))});
  const CollectiveInstance& instance = job.run.ranks[2].collectives.at(0);
  REQUIRE(instance.root.has_value());
  CHECK(*instance.root == 3);
  const Config config = broadcast_config(job);
  CHECK(config.ranks == 2);
  CHECK(config.root == 1);  // GPU 1 of the group's ring
  CHECK_FALSE(validate(config).has_value());
  // Kept in the document, read back, and shown by job show (table and JSON).
  const Job again = parse_job_document(job_document_text(job), "job.json");
  CHECK(again.run.ranks[2].collectives.at(0).root == std::optional<int>(3));
  const json shown = json::parse(job_table_json(again, job_table(again)));
  CHECK(shown["collectives"][0]["root"] == 3);
  CHECK(shown["collectives"][0]["peer"].is_null());
  const std::string table = job_table_text(again, job_table(again));
  CHECK(table.find(" root peer  label\n") != std::string::npos);
}

TEST_CASE("a Kineto broadcast without Rank (traces before PyTorch 2.4) has no root and opens from GPU 0") {
  TempDir folder;
  FakeCollective broadcast;
  broadcast.name = "broadcast";
  broadcast.kernel = "ncclDevKernel_Broadcast_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
  const Job job = import_job({folder.write("rank0.json", fake_kineto_trace(0, 2, {broadcast}))});
  CHECK_FALSE(job.run.ranks[0].collectives.at(0).root.has_value());
  CHECK(broadcast_config(job).root == 0);
  REQUIRE(job.info.notes.size() == 1);
  CHECK(job.info.notes[0] == "1 broadcast names no root (the trace has no \"Rank\" on record_param_comms, which "
                             "PyTorch records from 2.4 on): stepped from the group's first GPU");
  CHECK(job_document_text(job).find("\"root\"") == std::string::npos);
}

TEST_CASE("a Kineto send keeps its Dst Rank and a recv its Src Rank as the peer, a root outside the group is refused") {
  TempDir folder;
  FakeCollective send;
  send.name = "send";
  send.kernel = "ncclDevKernel_SendRecv(ncclDevComm*)";
  send.dst_rank = 1;
  FakeCollective receive = send;
  receive.name = "recv";
  receive.dst_rank.reset();
  receive.src_rank = 1;
  receive.start_us = 3000;
  const Job job = import_job({folder.write("rank0.json", fake_kineto_trace(0, 2, {send, receive}))});
  CHECK(job.run.ranks[0].collectives.at(0).peer == std::optional<int>(1));
  CHECK(job.run.ranks[0].collectives.at(1).peer == std::optional<int>(1));
  const json shown = json::parse(job_table_json(job, job_table(job)));
  CHECK(shown["collectives"][0]["peer"] == 1);
  CHECK(shown["collectives"][0]["root"].is_null());

  FakeCollective outside;
  outside.name = "broadcast";
  outside.rank_arg = 2;  // a group of 2 has ranks 0 and 1
  try {
    import_job({folder.write("bad.json", fake_kineto_trace(0, 2, {outside}))});
    FAIL("a root outside the group was accepted");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()).find("Rank 2 as the broadcast's root, but process group \"0\" has 2 ranks") !=
          std::string::npos);
  }
}

TEST_CASE("parts keep a broadcast's root, a send's peer and each rank's host, the broadcast opens from its root") {
  TempDir folder;
  std::vector<std::string> files;
  for (int rank = 0; rank < 4; ++rank) {
    PartCollective broadcast;
    broadcast.op = "broadcast";
    broadcast.root = 2;
    broadcast.start_us = 1000 + rank;
    files.push_back(folder.write("rank-" + std::to_string(rank) + ".json", part_text(rank, "node0", {broadcast})));
  }
  const Job job = import_job(files);
  for (int rank = 0; rank < 4; ++rank) {
    CHECK(job.run.ranks[static_cast<std::size_t>(rank)].host == "node0");
    CHECK(job.run.ranks[static_cast<std::size_t>(rank)].collectives.at(0).root == std::optional<int>(2));
  }
  CHECK(broadcast_config(job).root == 2);
  const std::string text = job_document_text(job);
  CHECK(text.find("\"host\": \"node0\"") != std::string::npos);
  CHECK(text.find("\"root\": 2") != std::string::npos);

  // Ranks that disagree on the root are not one collective.
  PartCollective other;
  other.op = "broadcast";
  other.root = 1;
  other.start_us = 1000;
  files[3] = folder.write("rank-3.json", part_text(3, "node0", {other}));
  try {
    import_job(files);
    FAIL("ranks that disagree on the root were joined");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()).find("root") != std::string::npos);
  }
}

TEST_CASE("parts from two hosts with a 2.5 s skew are aligned on their shared collectives, within their spread") {
  TempDir folder;
  const double skew_us = 2.5e6, spread_us = 40;
  const Job job = import_job(two_host_parts(folder, skew_us, spread_us));
  const double a_offset = job.run.ranks[0].clock_offset_us;
  CHECK(job.run.ranks[1].clock_offset_us == a_offset);  // one host, one clock: not shifted apart
  CHECK(job.run.ranks[3].clock_offset_us == job.run.ranks[2].clock_offset_us);
  const double recovered = a_offset - job.run.ranks[2].clock_offset_us;
  CAPTURE(recovered);
  CHECK(std::fabs(recovered - skew_us) <= spread_us);
  // Each collective now ends within the spread on every rank.
  for (std::size_t k = 0; k < 40; ++k) {
    double first = 1e300, last = -1e300;
    for (const RankTimeline& timeline : job.run.ranks) {
      first = std::min(first, timeline.collectives.at(k).measured->end_us);
      last = std::max(last, timeline.collectives.at(k).measured->end_us);
    }
    CHECK(last - first <= 2 * spread_us);
  }
  REQUIRE(job.info.notes.size() == 1);
  CHECK(job.info.notes[0].rfind("clock of host \"b\" (from rank 2) shifted by -2", 0) == 0);
  CHECK(job.info.notes[0].find("onto host \"a\" (rank 0's)") != std::string::npos);
  CHECK(job.info.notes[0].find("40 collectives") != std::string::npos);
}

TEST_CASE("parts from one host keep their times as the clock gave them, and say nothing of clocks") {
  TempDir one_host, two_hosts;
  const Job job = import_job(two_host_parts(one_host, 0, 40, "a"));
  CHECK(job.info.notes.empty());
  for (const RankTimeline& timeline : job.run.ranks) CHECK(timeline.clock_offset_us == job.run.ranks[0].clock_offset_us);
  // Two hosts whose clocks already agree: the same times within the spread.
  const Job aligned = import_job(two_host_parts(two_hosts, 0, 40));
  for (std::size_t rank = 0; rank < 4; ++rank)
    CHECK(std::fabs(aligned.run.ranks[rank].collectives.at(5).measured->end_us -
                    job.run.ranks[rank].collectives.at(5).measured->end_us) <= 40);
}

}  // namespace ringviz
