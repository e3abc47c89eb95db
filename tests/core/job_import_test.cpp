// The job importer against real profiler traces (tests/data/kineto) and against small traces
// written here for what the real ones do not show: several ranks, missing ranks, bad input.
#include <zlib.h>

#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "core/job/job_document.h"
#include "core/job/job_import.h"
#include "core/job/job_table.h"
#include "core/algorithms/registry.h"
#include "core/model/layout.h"
#include "core/run/run_collectives.h"
#include "core/kineto/nccl_kernel_name.h"
#include "core/model/input_error.h"
#include "tests/core/kineto_fixture.h"
#include "tests/support/temp_dir.h"

namespace ringviz {
namespace {

using test::FakeCollective;
using test::fake_kineto_trace;
using test::import_error;
using test::TempDir;

std::string fixture(const char* name) { return std::string(RINGVIZ_SOURCE_DIR) + "/tests/data/kineto/" + name; }

void write_gzip(const std::string& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  REQUIRE(file != nullptr);
  REQUIRE(gzwrite(file, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  REQUIRE(gzclose(file) == Z_OK);
}

}  // namespace

TEST_CASE("NCCL kernel names give the algorithm and protocol NCCL chose") {
  const auto old_style = parse_nccl_kernel_name("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long)");
  REQUIRE(old_style);
  CHECK(old_style->collective == "AllReduce");
  CHECK(old_style->algorithm == "RING");
  CHECK(old_style->protocol == "LL");
  const auto new_style = parse_nccl_kernel_name("ncclDevKernel_AllReduce_Sum_f32_TREE_LL128(ncclDevComm*)");
  REQUIRE(new_style);
  CHECK(new_style->algorithm == "TREE");
  CHECK(new_style->protocol == "LL128");
  const auto gather = parse_nccl_kernel_name("ncclDevKernel_AllGather_RING_LL(x)");
  REQUIRE(gather);
  CHECK(gather->algorithm == "RING");
  const auto collnet = parse_nccl_kernel_name("ncclDevKernel_AllReduce_Sum_bf16_COLLNET_DIRECT_SIMPLE()");
  REQUIRE(collnet);
  CHECK(collnet->algorithm == "COLLNET_DIRECT");
  CHECK(collnet->protocol == "SIMPLE");
  const auto generic = parse_nccl_kernel_name("ncclDevKernel_Generic(ncclDevComm*)");
  REQUIRE(generic);
  CHECK(generic->algorithm.empty());
  CHECK_FALSE(parse_nccl_kernel_name("sgemm_128x64_nn"));
}

TEST_CASE("the 2-GPU NCCL trace imports every collective with its op, size, type, group, algorithm and channels") {
  JobImportStats stats;
  const Job job = import_job({fixture("nccl-2gpu-rank0.json.gz")}, &stats);
  CHECK(stats.text_bytes == 9778890);
  CHECK(job.info.world_size == 2);
  CHECK(job.info.nccl_version == "2.17.1");
  CHECK(job.info.gpu == "NVIDIA A100-PG509-200");
  REQUIRE(job.run.groups.size() == 1);
  CHECK(job.run.groups[0].name == "0");
  CHECK(job.run.groups[0].description == "default_pg");
  CHECK(job.run.groups[0].ranks == std::vector<int>{0, 1});
  CHECK(job.run.ranks[0].traced);
  CHECK_FALSE(job.run.ranks[1].traced);
  CHECK(untraced_ranks(job.run) == std::vector<int>{1});

  const std::vector<CollectiveInstance>& collectives = job.run.ranks[0].collectives;
  REQUIRE(collectives.size() == 21);
  int allreduces = 0, broadcasts = 0;
  for (const CollectiveInstance& c : collectives) {
    CAPTURE(c.count);
    CHECK(c.library.algorithm == "RING");
    CHECK(c.library.protocol == "LL");
    CHECK(c.derived.empty());
    REQUIRE(c.measured);
    if (c.op == Op::allreduce) {
      ++allreduces;
      CHECK(c.dtype == DType::f32);
      CHECK(c.library.channels == 8);
      CHECK(c.channels == 8);
    } else {
      REQUIRE(c.op == Op::broadcast);
      ++broadcasts;
      CHECK(((c.dtype == DType::f32 && c.count == 53120) || (c.dtype == DType::i64 && c.count == 53)));
    }
  }
  CHECK(allreduces == 15);
  CHECK(broadcasts == 6);
  // Each step: two broadcasts, then DDP's five buckets (the kernel order of the first step).
  const std::vector<std::int64_t> first_step = {53120, 53, 2049000, 7875584, 6563840, 6637568, 2431040};
  for (std::size_t i = 0; i < first_step.size(); ++i) CHECK(collectives[i].count == first_step[i]);
  // Times are the kernels': the first bucket's AllReduce ran 3306.963 us on the GPU.
  CHECK(collectives[2].measured->end_us - collectives[2].measured->start_us == doctest::Approx(3306.963));
  CHECK(collectives[1].library.channels == 1);  // the 53-element broadcast ran on one channel
  bool backward = false, gpu_busy = false;
  for (const ComputeSpan& span : job.run.ranks[0].compute) {
    backward = backward || span.kind == ComputeKind::backward;
    gpu_busy = gpu_busy || span.kind == ComputeKind::kernel;
  }
  CHECK(backward);
  CHECK(gpu_busy);
}

TEST_CASE("the 1-GPU trace's collectives have no kernel: their times come from the CPU op and say so") {
  const Job job = import_job({fixture("nccl-1gpu-rank0.json.gz")});
  CHECK(job.info.world_size == 1);
  const std::vector<CollectiveInstance>& collectives = job.run.ranks[0].collectives;
  REQUIRE(!collectives.empty());
  for (const CollectiveInstance& c : collectives) {
    CHECK(c.library.algorithm.empty());
    CHECK(c.derived == std::vector<std::string>{"start_us", "duration_us"});
  }
  // The CPU op's span says nothing of what the GPU overlapped: no hidden share.
  const JobTable table = job_table(job);
  for (const JobRow& row : table.rows) CHECK_FALSE(row.hidden_known);
  for (const JobSummary& summary : table.summaries) CHECK_FALSE(summary.hidden_share);
  // DDP's two broadcasts of the model state, then its first bucket.
  CHECK(collectives[0].op == Op::broadcast);
  CHECK(collectives[2].op == Op::allreduce);
  CHECK(collectives[2].count == 2049000);
}

TEST_CASE("job show lists nccl-tests' columns with its bus bandwidth factor") {
  const Job job = import_job({fixture("nccl-2gpu-rank0.json.gz")});
  const JobTable table = job_table(job);
  REQUIRE(table.rows.size() == 21);
  const JobRow& bucket = table.rows[2];
  CHECK(bucket.size_bytes == 2049000 * 4);
  CHECK(bucket.time_us == doctest::Approx(3306.963));
  CHECK(bucket.algbw_gbps == doctest::Approx(8196000 / 3306.963e-6 / 1e9));
  CHECK(bucket.busbw_gbps == doctest::Approx(bucket.algbw_gbps * 2 * 1 / 2.0));  // 2(n-1)/n = 1 on 2 ranks
  const JobRow& broadcast = table.rows[0];
  CHECK(broadcast.busbw_gbps == doctest::Approx(broadcast.algbw_gbps));
  REQUIRE(table.summaries.size() == 2);
  CHECK(bucket.hidden_known);
  const std::string text = job_table_text(job, table);
  CHECK(text.find("not traced: ranks 1") != std::string::npos);
  CHECK(text.find("busbw(GB/s)") != std::string::npos);
  const auto json = nlohmann::json::parse(job_table_json(job, table));
  REQUIRE(json["collectives"].size() == 21);
  CHECK(json["collectives"][2]["op"] == "allreduce");
  CHECK(json["collectives"][2]["protocol"] == "LL");
  CHECK(json["collectives"][2]["channels"] == 8);
  CHECK(json["collectives"][0]["op"] == "broadcast");
}

TEST_CASE("a job document reads back as the job that was written") {
  const Job job = import_job({fixture("nccl-2gpu-rank0.json.gz")});
  const std::string text = job_document_text(job);
  const Job again = parse_job_document(text, "job.json");
  CHECK(job_document_text(again) == text);
  CHECK(looks_like_job_document(text.substr(0, 100)));
  CHECK_FALSE(looks_like_job_document("{\"traceEvents\": []}"));
}

TEST_CASE("traces of several ranks are matched per group by sequence, and the slowest rank is marked") {
  TempDir folder;
  std::vector<std::string> files;
  for (int rank = 0; rank < 3; ++rank) {
    FakeCollective reduce;
    reduce.ranks = {0, 1, 2};
    reduce.in = reduce.out = 3000;
    reduce.start_us = 1000 + 10 * rank;  // rank 2 starts last
    FakeCollective gather = reduce;
    gather.name = "_allgather_base";
    gather.in = 100;
    gather.out = 300;
    gather.start_us = 2000;
    gather.kernel = "ncclDevKernel_AllGather_RING_LL(ncclDevComm*)";
    files.push_back(folder.write("rank" + std::to_string(rank) + ".json", fake_kineto_trace(rank, 3, {reduce, gather})));
  }
  const Job job = import_job(job_input_files({folder.path().string()}));
  CHECK(job.run.world_size() == 3);
  CHECK(untraced_ranks(job.run).empty());
  const CollectiveInstance& gather = job.run.ranks[1].collectives[1];
  CHECK(gather.op == Op::allgather);
  CHECK(gather.count == 100);  // elements each rank starts with
  const JobTable table = job_table(job);
  int slowest = 0;
  for (const JobRow& row : table.rows)
    if (row.slowest && row.instance->op == Op::allreduce) {
      ++slowest;
      CHECK(row.rank == 2);
    }
  CHECK(slowest == 1);
}

TEST_CASE("AllToAll and send/recv are imported and listed, and an AllToAll steps on direct") {
  TempDir folder;
  FakeCollective exchange;
  exchange.name = "all_to_all_single";
  exchange.kernel = "ncclDevKernel_SendRecv(ncclDevComm*)";
  FakeCollective send = exchange;
  send.name = "send";
  send.start_us = 3000;
  const Job job = import_job({folder.write("rank0.json", fake_kineto_trace(0, 2, {exchange, send}))});
  const std::vector<CollectiveInstance>& collectives = job.run.ranks[0].collectives;
  REQUIRE(collectives.size() == 2);
  CHECK(collectives[0].op == Op::alltoall);
  CHECK(collectives[1].op == Op::sendrecv);
  CHECK(job_table(job).rows.size() == 2);
  // The exchange opens on the ring view as pairwise swaps on its 2 GPUs: 512 floats to each.
  CHECK(collectives[0].algorithm == Algorithm::direct);
  const std::vector<RunCollective> steps = run_collectives(job.run);
  REQUIRE_FALSE(steps.empty());
  const Config config = collective_config(job.run, steps.front());
  CHECK(config.op == Op::alltoall);
  CHECK(config.ranks == 2);
  CHECK_FALSE(validate(config).has_value());
  CHECK(make_schedule(config).round_count() == 1);
  CHECK(make_layout(config)[1].count == 512);
}

TEST_CASE("a job traced on 2 of 8 ranks names the others as not traced") {
  TempDir folder;
  FakeCollective reduce;
  reduce.ranks = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::string a = folder.write("rank-0.json", fake_kineto_trace(0, 8, {reduce}));
  const std::string b = folder.write("rank-5.json", fake_kineto_trace(5, 8, {reduce}));
  const Job job = import_job({a, b});
  CHECK(untraced_ranks(job.run) == std::vector<int>{1, 2, 3, 4, 6, 7});
}

TEST_CASE("older traces: sizes from nccl:<op> Input Dims are derived, and the document says so") {
  TempDir folder;
  nlohmann::json trace = {
      {"traceEvents",
       {{{"ph", "X"}, {"cat", "cpu_op"}, {"name", "nccl:all_reduce"}, {"pid", 1}, {"tid", 1}, {"ts", 10.0}, {"dur", 5.0},
         {"args", {{"Input Dims", {{64, 32}}}, {"Input type", {"c10::BFloat16"}}}}}}}};
  const Job job = import_job({folder.write("old.json", trace.dump())});
  const CollectiveInstance& c = job.run.ranks[0].collectives.at(0);
  CHECK(c.count == 2048);
  CHECK(c.dtype == DType::bf16);
  CHECK(c.derived == std::vector<std::string>{"group", "count", "dtype", "start_us", "duration_us"});
}

TEST_CASE("bad traces are refused with one line naming the file and the problem") {
  TempDir folder;
  FakeCollective reduce;

  SUBCASE("not JSON: the line and column") {
    const std::string error = import_error({folder.write("x.json", "{\n  \"traceEvents\": [1,,]\n}")});
    CHECK(error.find("x.json:2:") != std::string::npos);
    CHECK(error.find("not valid JSON") != std::string::npos);
  }
  SUBCASE("JSON but not a trace") {
    CHECK(import_error({folder.write("x.json", "[1, 2]")}).find("not a PyTorch profiler trace") != std::string::npos);
    CHECK(import_error({folder.write("y.json", "{\"a\": 1}")}).find("no \"traceEvents\"") != std::string::npos);
  }
  SUBCASE("a truncated gzip") {
    const std::string path = folder.file("t.json.gz");
    write_gzip(path, fake_kineto_trace(0, 2, {reduce}));
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    CHECK(import_error({path}).find("gzip data ends early") != std::string::npos);
  }
  SUBCASE("a trace with no collective") {
    CHECK(import_error({folder.write("x.json", fake_kineto_trace(0, 2, {}))}).find("no collective to import") !=
          std::string::npos);
  }
  SUBCASE("sizes that contradict the process group") {
    FakeCollective bad = reduce;
    bad.name = "_allgather_base";
    bad.in = 10;
    bad.out = 30;  // a group of 2 gathers 20
    const std::string error = import_error({folder.write("x.json", fake_kineto_trace(0, 2, {bad}))});
    CHECK(error.find("contradict a group of 2 ranks") != std::string::npos);
    CHECK(error.find("x.json: traceEvents[") != std::string::npos);
  }
  SUBCASE("ranks of two different jobs") {
    const std::string a = folder.write("rank0.json", fake_kineto_trace(0, 2, {reduce}));
    FakeCollective other = reduce;
    other.in = other.out = 999;
    const std::string b = folder.write("rank1.json", fake_kineto_trace(1, 2, {other}));
    CHECK(import_error({a, b}).find("are these traces of one job?") != std::string::npos);
    const std::string c = folder.write("rank1b.json", fake_kineto_trace(1, 4, {reduce}));
    CHECK(import_error({a, c}).find("world size 4") != std::string::npos);
  }
  SUBCASE("one rank twice") {
    const std::string a = folder.write("a.json", fake_kineto_trace(0, 2, {reduce}));
    const std::string b = folder.write("b.json", fake_kineto_trace(0, 2, {reduce}));
    CHECK(import_error({a, b}).find("rank 0 again") != std::string::npos);
  }
  SUBCASE("a folder with no trace, a missing file") {
    CHECK_THROWS_AS(job_input_files({folder.path().string()}), InputError);
    CHECK_THROWS_AS(job_input_files({folder.file("missing.json")}), InputError);
  }
}

}  // namespace ringviz
