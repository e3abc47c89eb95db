// An all_to_all with uneven splits in a real job's traces (an MoE layer's token dispatch):
// `In split size` and `Out split size` read per rank, checked against each other across the
// group, kept in the job document and `job show`, and stepped on the ring as the N x N table.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/job/job_document.h"
#include "core/job/job_import.h"
#include "core/job/job_table.h"
#include "core/model/input_error.h"
#include "core/run/run_collectives.h"
#include "tests/core/kineto_fixture.h"
#include "tests/support/temp_dir.h"

namespace ringviz {
namespace {

using test::FakeCollective;
using test::fake_kineto_trace;
using test::import_error;
using test::TempDir;

// Three ranks; row s is what rank s sends ranks 0, 1, 2.
const std::vector<std::vector<std::int64_t>> kTable = {{2, 3, 0}, {1, 0, 4}, {0, 2, 1}};

std::string list_text(const std::vector<std::int64_t>& sizes) {
  std::string text = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + "]";
}

// Rank `rank`'s record of the exchange: its row as In split size, its column as Out split size.
FakeCollective exchange_of(int rank, const std::vector<std::vector<std::int64_t>>& table) {
  FakeCollective exchange;
  exchange.name = "all_to_all_single";
  exchange.kernel = "ncclDevKernel_SendRecv(ncclDevComm*)";
  exchange.ranks = {0, 1, 2};
  std::vector<std::int64_t> column;
  for (const std::vector<std::int64_t>& row : table) column.push_back(row[static_cast<std::size_t>(rank)]);
  exchange.in = exchange.out = 0;
  for (std::int64_t size : table[static_cast<std::size_t>(rank)]) exchange.in += size;
  for (std::int64_t size : column) exchange.out += size;
  exchange.in_split = list_text(table[static_cast<std::size_t>(rank)]);
  exchange.out_split = list_text(column);
  return exchange;
}

std::vector<std::string> write_ranks(TempDir& folder, const std::vector<int>& ranks,
                                     const std::vector<std::vector<std::int64_t>>& table) {
  std::vector<std::string> files;
  for (int rank : ranks)
    files.push_back(folder.write("rank" + std::to_string(rank) + ".json",
                                 fake_kineto_trace(rank, 3, {exchange_of(rank, table)})));
  return files;
}

TEST_CASE("uneven splits are imported per rank and stepped as the group's whole table") {
  TempDir folder;
  const Job job = import_job(write_ranks(folder, {0, 1, 2}, kTable));
  const CollectiveInstance& rank1 = job.run.ranks[1].collectives.at(0);
  CHECK(rank1.op == Op::alltoall);
  CHECK(rank1.count == 5);  // what rank 1 sends in all; rank 2 sends 3
  CHECK(job.run.ranks[2].collectives.at(0).count == 3);
  CHECK(rank1.in_splits == std::vector<std::int64_t>{1, 0, 4});
  CHECK(rank1.out_splits == std::vector<std::int64_t>{3, 0, 2});

  const std::vector<RunCollective> collectives = run_collectives(job.run);
  REQUIRE(collectives.size() == 1);
  const Config config = collective_config(job.run, collectives.front());
  CHECK(config.splits == std::vector<std::int64_t>{2, 3, 0, 1, 0, 4, 0, 2, 1});
  CHECK(config.count == 5);
  REQUIRE_FALSE(validate(config));
  Session session(config, make_cpu_backend(1));
  session.seek(session.round_count());
  CHECK(session.outputs()[0].size() == 3 * sizeof(float));  // rank 0 receives 2 + 1 + 0

  // The document keeps them, and job show names them.
  const std::string document = job_document_text(job);
  CHECK(job_document_text(parse_job_document(document, "job.json")) == document);
  const JobTable table = job_table(job);
  CHECK(job_table_text(job, table).find("splits: sends 1,0,4, receives 3,0,2") != std::string::npos);
  const nlohmann::json shown = nlohmann::json::parse(job_table_json(job, table));
  CHECK(shown["collectives"][1]["in_splits"] == nlohmann::json::array({1, 0, 4}));
  CHECK(shown["collectives"][1]["out_splits"] == nlohmann::json::array({3, 0, 2}));
}

TEST_CASE("splits that contradict each other or the group are refused with one line") {
  TempDir folder;
  SUBCASE("two ranks disagree on their block") {
    std::vector<std::string> files = write_ranks(folder, {0, 2}, kTable);
    std::vector<std::vector<std::int64_t>> other = kTable;
    other[1][2] = 5;  // rank 1 says it sends 5 to rank 2, which received 4
    files.push_back(write_ranks(folder, {1}, other).front());
    CHECK(import_error(files).find("rank 1 sends 5 elements to rank 2 (in_splits), but rank 2 receives 4 from it "
                                   "(out_splits)") != std::string::npos);
  }
  SUBCASE("a list of another length than the group") {
    FakeCollective bad = exchange_of(0, kTable);
    bad.in_split = "[2, 3]";
    const std::string error = import_error({folder.write("r.json", fake_kineto_trace(0, 3, {bad}))});
    CHECK(error.find("In split size lists 2 sizes for a group of 3 ranks") != std::string::npos);
    CHECK(error.find("r.json: traceEvents[") != std::string::npos);
  }
  SUBCASE("a list that is not one of element counts") {
    FakeCollective bad = exchange_of(0, kTable);
    bad.in_split = "[2, -3, 0]";
    CHECK(import_error({folder.write("r.json", fake_kineto_trace(0, 3, {bad}))})
              .find("In split size '[2, -3, 0]' is not a list of element counts") != std::string::npos);
  }
  SUBCASE("sizes that do not add up to the message") {
    FakeCollective bad = exchange_of(0, kTable);
    bad.in = 6;
    CHECK(import_error({folder.write("r.json", fake_kineto_trace(0, 3, {bad}))})
              .find("In split size adds up to 5 elements, but In msg nelems is 6") != std::string::npos);
  }
}

TEST_CASE("one side given as even takes its total over the group, and says it was derived") {
  TempDir folder;
  FakeCollective exchange = exchange_of(0, {{2, 3, 1}, {2, 0, 4}, {2, 2, 1}});
  exchange.out_split = "[]";  // output_split_sizes=None: 6 received, 2 from each
  const Job job = import_job({folder.write("r.json", fake_kineto_trace(0, 3, {exchange}))});
  const CollectiveInstance& instance = job.run.ranks[0].collectives.at(0);
  CHECK(instance.out_splits == std::vector<std::int64_t>{2, 2, 2});
  CHECK(std::find(instance.derived.begin(), instance.derived.end(), "out_splits") != instance.derived.end());
}

TEST_CASE("traced on some ranks: the table is built from what the traced ranks sent and received") {
  TempDir folder;
  const Job job = import_job(write_ranks(folder, {1}, kTable));
  const std::vector<RunCollective> collectives = run_collectives(job.run);
  REQUIRE(collectives.size() == 1);
  const Config config = collective_config(job.run, collectives.front());
  // Row 1 from rank 1's In split size, column 1 from its Out split size; the block between
  // ranks 0 and 2, in no trace, is stepped as empty.
  CHECK(config.splits == std::vector<std::int64_t>{0, 3, 0, 1, 0, 4, 0, 2, 0});
  CHECK(config.count == 5);
  CHECK_FALSE(validate(config));
}

}  // namespace
}  // namespace ringviz
