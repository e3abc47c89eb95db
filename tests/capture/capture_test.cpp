// `ringviz capture` run as users run it: mpirun starting the ringviz executable, which becomes
// ringviz-capture on every rank.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/algorithms/registry.h"
#include "core/model/config.h"
#include "core/nccl/nccl_text.h"
#include "core/nccl/nccl_tuner.h"
#include "core/topology/topology.h"
#include "tests/capture/mpi_launch.h"
#include "tests/cli/run_ringviz.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz::test {

namespace {

// The document a capture wrote.
std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int count_of(const std::string& text, const std::string& word) {
  int found = 0;
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + word.size())) ++found;
  return found;
}

// Every rank refused the run: exit 2, and the one line says `why`.
void check_every_rank_refused(const RunResult& result, const std::string& why) {
  INFO(result.err);
  CHECK(result.exit_code == 2);
  CHECK(result.err.find(why) != std::string::npos);
}

// A sample of the config space for a ring of `ranks`: every op, algorithm, order, type and
// reduction appears at some ring size; counts that leave slots empty or uneven included.
// Combinations the planner does not run (an algorithm without that op) are skipped.
std::vector<std::string> sampled_configs(int ranks) {
  const Op ops[] = {Op::allreduce, Op::reducescatter, Op::allgather};
  const Algorithm algorithms[] = {Algorithm::ring, Algorithm::naive, Algorithm::direct, Algorithm::rhd, Algorithm::tree};
  const DType types[] = {DType::f32, DType::f64, DType::f16, DType::bf16, DType::i32, DType::i64};
  const ReduceOp reductions[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::max, ReduceOp::min, ReduceOp::avg};
  const char* inits[] = {"seed", "random:7", "rank", "index"};
  std::vector<std::string> configs;
  for (int k = 3 * ranks; configs.size() < 10; ++k) {
    const Config config = ConfigBuilder().ranks(ranks).op(ops[(k / 5 + k) % 3]).algorithm(algorithms[k % 5])
        .order(k % 2 ? Order::nccl : Order::seed).dtype(types[k % 6]).reduce(reductions[(k / 2) % 5])
        .init(inits[k % 4]).count(1 + (k * 7) % 23);
    if (validate(config)) continue;
    configs.push_back("--check-engine --op " + std::string(op_name(config.op)) + " --algo " +
                      std::string(algorithm_name(config.algorithm)) + " --order " + std::string(order_name(config.order)) +
                      " --dtype " + std::string(dtype_name(config.dtype)) + " --reduce " +
                      std::string(reduce_op_name(config.reduce)) + " --init " + config.init.spec() + " --count " +
                      std::to_string(config.count));
  }
  return configs;
}

}  // namespace

TEST_CASE("a capture on 1 to 6 ranks holds every round's buffers bit for bit as the in-process engine does") {
  for (int ranks = 1; ranks <= 6; ++ranks) {
    CAPTURE(ranks);
    std::vector<std::string> arguments = {"capture", "--check-engine", "--count", "5"};
    const std::vector<std::string> configs = sampled_configs(ranks);
    for (const std::string& config : configs) {
      arguments.push_back("--batch");
      arguments.push_back(config);
    }
    TempDir folder;
    arguments.push_back("--out");
    arguments.push_back((folder.path() / "first.json").string());
    const RunResult result = run_mpi(ranks, arguments);
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(count_of(result.out, "capture matches the in-process engine") == static_cast<int>(configs.size()));
  }
}

TEST_CASE("started without an MPI launcher, ringviz capture says how to launch it and exits 2") {
  const RunResult result = run_ringviz({"capture", "--count", "8"});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("mpirun -np 4 ringviz capture") != std::string::npos);
  CHECK(lines_of(result.err).size() == 1);
}

TEST_CASE("ranks started with different options all exit 2 naming the option and both values") {
  check_every_rank_refused(run_mpmd({{"capture", "--count", "8"}, {"capture", "--count", "9"}}),
                "--count is 8 on rank 0 but 9 on rank 1");
}

TEST_CASE("a --gpus other than the MPI world size is refused with both numbers") {
  check_every_rank_refused(run_mpi(2, {"capture", "--gpus", "3"}), "--gpus: 3 but MPI started 2 ranks");
}

TEST_CASE("--delay with --iters is refused, since the library's collectives cannot be delayed alike") {
  check_every_rank_refused(run_mpi(2, {"capture", "--iters", "2", "--delay", "1:100"}), "--delay: --iters times the ring");
}

TEST_CASE("an output folder that does not exist is refused before any data moves, on every rank") {
  TempDir folder;
  const std::string out = (folder.path() / "missing" / "run.json").string();
  check_every_rank_refused(run_mpi(2, {"capture", "--out", out}), "--out");
  CHECK(std::filesystem::is_empty(folder.path()));
}

TEST_CASE("--transport nccl in a build without the NCCL transport is refused with the reason") {
#ifdef RINGVIZ_WITH_NCCL
  MESSAGE("this build has the NCCL transport: ctest gpu.nccl_capture checks it");
#else
  check_every_rank_refused(run_mpi(2, {"capture", "--transport", "nccl"}), "built without the NCCL transport");
#endif
}

TEST_CASE("a rank killed in the middle ends the job within 30 seconds, non-zero, leaving no file") {
  TempDir folder;
  const std::filesystem::path out = folder.path() / "run.json";
  // Each round waits 0.3 s for rank 3's sends: the capture is still running when it is killed.
  const KilledRun run = run_mpi_and_kill_last_rank(
      4, {"capture", "--count", "64K", "--delay", "3:300000", "--out", out.string()}, folder.path() / "pid");
  std::string left;
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) left += entry.path().filename().string() + " ";
  INFO("killed ", run.killed, ", exit ", run.exit_code, " after ", run.seconds_after_kill, " s; left: ", left);
  CHECK(run.killed);
  CHECK(run.exit_code != 0);
  CHECK(run.seconds_after_kill < 30);
  CHECK_FALSE(std::filesystem::exists(out));
  for (const auto& entry : std::filesystem::directory_iterator(folder.path()))
    CHECK(entry.path().filename() == "pid");  // no partial document left beside it
}

TEST_CASE("--iters prints ours beside MPI's own collective, default and forced ring, with no wrong element") {
  const RunResult result = run_mpi(2, {"capture", "--iters", "2", "-b", "1K", "-e", "4K"});
  INFO(result.out, result.err);
  CHECK(result.exit_code == 0);
  CHECK(count_of(result.out, "ringviz mpi ring") == 3);
  CHECK(count_of(result.out, "MPI_Allreduce (library default)") == 3);
  CHECK(count_of(result.out, "MPI_Allreduce (forced ring: coll_tuned_allreduce_algorithm=4)") == 3);
  CHECK(result.out.find("# Out of bounds values : 0 OK") != std::string::npos);
  // The NCCL model's time, busbw and pick beside every row, for the machine the header names.
  CHECK(result.out.find("# model: what NCCL would do on nvswitch:2") != std::string::npos);
  CHECK(result.out.find("model time  model bw  NCCL pick") != std::string::npos);
  const NcclPrediction model =
      *nccl_prediction_beside(nccl_machine(topology_preset("nvswitch:2")), Op::allreduce, 1024);
  char expected[96];
  std::snprintf(expected, sizeof expected, "%10.1f  %8.2f  %-12s", model.seconds * 1e6, model.busbw / 1e9,
                nccl_pair_text(model).c_str());
  int rows_of_1k = 0;
  for (const std::string& line : lines_of(result.out))
    if (line.rfind("        1024 ", 0) == 0) {
      ++rows_of_1k;
      CHECK(line.find(expected) != std::string::npos);
    }
  CHECK(rows_of_1k == 3);
}

TEST_CASE("--iters --lang zh heads the table in Chinese over the same columns, and --lang xx is refused") {
  const RunResult result = run_mpi(2, {"capture", "--iters", "1", "-b", "1K", "-e", "1K", "--lang", "zh"});
  INFO(result.out, result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("busbw（总线带宽）") != std::string::npos);
  CHECK(result.out.find("# 越界值      ：0 通过") != std::string::npos);
  CHECK(count_of(result.out, "ringviz mpi ring") == 1);
  // "#错误" ends where the row's #wrong (a right-aligned 6-wide column at 74) ends: byte 80 of an
  // ASCII row, column 80 of the head line, whose Chinese characters take two columns each.
  std::string heads;
  std::string row;
  for (const std::string& line : lines_of(result.out)) {
    if (heads.empty() && line.rfind("#       大小", 0) == 0) heads = line;
    if (row.empty() && line.find("ringviz mpi ring") != std::string::npos) row = line;
  }
  REQUIRE_FALSE(heads.empty());
  REQUIRE(row.size() > 80);
  const std::string before = heads.substr(0, heads.find("#错误"));
  std::size_t columns = 0;
  for (unsigned char c : before) columns += (c & 0xC0) != 0x80 ? ((c >= 0xE0) ? 2 : 1) : 0;
  CHECK(columns + 5 == 80);  // "#错误" is five columns wide
  CHECK(row[79] != ' ');
  CHECK(row[80] == ' ');
  check_every_rank_refused(run_mpi(2, {"capture", "--iters", "1", "--lang", "xx"}), "--lang");
}

TEST_CASE("ringviz capture without ringviz-capture beside it names the folder and how to get MPI") {
  TempDir folder;
  const std::filesystem::path copy = folder.path() / "ringviz";
  std::filesystem::copy_file(RINGVIZ_EXECUTABLE, copy);
  const RunResult result = run_command({copy.string(), "capture", "--count", "8"});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find(folder.path().string()) != std::string::npos);
  CHECK(result.err.find("apt-get install libopenmpi-dev openmpi-bin") != std::string::npos);
}

TEST_CASE("a broadcast captured on 1 to 5 ranks holds every round's buffers as the in-process engine does") {
  for (int ranks = 1; ranks <= 5; ++ranks) {
    CAPTURE(ranks);
    TempDir folder;
    // A batch entry says on stdout that it was checked; the first run only fails if it differs.
    const RunResult result = run_mpi(
        ranks, {"capture", "--check-engine", "--op", "broadcast", "--count", "5", "--batch",
                "--check-engine --op broadcast --dtype f16 --init random:3 --count " + std::to_string(2 * ranks + 1),
                "--out", (folder.path() / "bcast.json").string()});
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(count_of(result.out, "capture matches the in-process engine") == 1);
  }
}

TEST_CASE("a broadcast from --root 2 of 3 ranks matches the engine, and MPI_Bcast from the same root leaves no wrong element") {
  TempDir folder;
  const RunResult checked = run_mpi(3, {"capture", "--check-engine", "--op", "broadcast", "--root", "2", "--count", "7",
                                        "--init", "random:5", "--out", (folder.path() / "bcast.json").string()});
  INFO(checked.err);
  CHECK(checked.exit_code == 0);  // --check-engine fails the run where a round's buffers differ
  const std::string document = file_text(folder.path() / "bcast.json");
  CHECK(document.find("\"root\": 2") != std::string::npos);
  // Every rank's output is checked against GPU 2's input: MPI_Bcast from another root would differ.
  const RunResult timed = run_mpi(3, {"capture", "--op", "broadcast", "--root", "2", "--init", "random:5", "--iters", "2",
                                      "-b", "1K", "-e", "2K"});
  INFO(timed.out, timed.err);
  CHECK(timed.exit_code == 0);
  CHECK(count_of(timed.out, "MPI_Bcast") >= 2);
  CHECK(timed.out.find("# Out of bounds values : 0 OK") != std::string::npos);
  check_every_rank_refused(run_mpi(3, {"capture", "--op", "broadcast", "--root", "3"}),
                           "--root: 3 is not a GPU of a ring of 3 (--gpus); give 0 to 2");
}

TEST_CASE("an uneven AllToAll of 3 ranks matches the engine round by round, and an even one matches MPI_Alltoall") {
  TempDir folder;
  const RunResult checked = run_mpi(3, {"capture", "--check-engine", "--op", "alltoall", "--splits", "2,3,0/1,0,4/0,2,1",
                                        "--init", "random:5", "--out", (folder.path() / "a2a.json").string()});
  INFO(checked.err);
  CHECK(checked.exit_code == 0);  // --check-engine fails the run where a round's buffers differ
  const std::string document = file_text(folder.path() / "a2a.json");
  CHECK(document.find("\"splits\"") != std::string::npos);
  const RunResult timed = run_mpi(3, {"capture", "--op", "alltoall", "--init", "random:5", "--iters", "2", "-b", "1K",
                                      "-e", "2K"});
  INFO(timed.out, timed.err);
  CHECK(timed.exit_code == 0);
  CHECK(count_of(timed.out, "MPI_Alltoall (library default)") >= 2);
  CHECK(timed.out.find("# Out of bounds values : 0 OK") != std::string::npos);
  check_every_rank_refused(run_mpi(3, {"capture", "--op", "alltoall", "--splits", "2,3,0/1,0,4/0,2,1", "--iters", "2"}),
                           "--splits: --iters sweeps the sizes, and the splits fix every block's size; drop --iters to "
                           "capture the uneven exchange, or --splits to time even ones");
}

}  // namespace ringviz::test
