// AllToAll with uneven splits (Config::splits, core/model/layout.h): a slot per (sender,
// receiver) pair on every GPU. The reference sweep (collective_sweep_test.cpp) checks the
// bytes; this checks the layout, what is refused, the labels from row to column, the traffic
// and a trace document read back.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/engine/contributor_label.h"
#include "core/engine/session.h"
#include "core/engine/traffic.h"
#include "core/input/initial_values.h"
#include "core/model/layout.h"
#include "core/trace/trace_read.h"
#include <nlohmann/json.hpp>
#include "synthetic_capture.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

// Three GPUs: GPU 0 sends 2 to itself, 3 to GPU 1 and none to GPU 2; GPU 1 sends 1, 0, 4; GPU 2
// sends 0, 2, 1. Row sums 5, 5, 3; column sums 3, 5, 5.
const std::vector<std::int64_t> kSplits = {2, 3, 0, 1, 0, 4, 0, 2, 1};

ConfigBuilder uneven() {
  return ConfigBuilder().op(Op::alltoall).algorithm(Algorithm::direct).ranks(3).count(5).splits(kSplits);
}

TEST_CASE("An uneven AllToAll's buffer holds every (sender, receiver) block, row by row") {
  const Config config = uneven();
  REQUIRE_FALSE(validate(config));
  const SlotLayout layout = make_layout(config);
  REQUIRE(layout.size() == 9);
  CHECK(slot_count(config) == 9);
  std::int64_t offset = 0;
  for (int slot = 0; slot < 9; ++slot) {
    CHECK(layout[slot].offset == offset);
    CHECK(layout[slot].count == kSplits[static_cast<std::size_t>(slot)]);
    offset += layout[slot].count;
  }
  CHECK(layout.elements_per_rank == 13);
  CHECK(input_elements_taken(config, 0) == 5);
  CHECK(input_elements_taken(config, 2) == 3);
  CHECK(input_offset(config, layout, 1) == 5);
  CHECK(input_offset(config, layout, 2) == 10);
  // GPU 1's seed input (6, 7, 8, 9, 10) fills its row; the rest of its buffer is zero.
  const BufferState initial = make_initial_state(config);
  for (std::int64_t i = 0; i < 13; ++i)
    CHECK(read_element(initial, 1, i).real == (i >= 5 && i < 10 ? static_cast<double>(i + 1) : 0.0));
}

TEST_CASE("Uneven splits are refused where they do not fit the ring, the op or the count") {
  const auto refusal = [](const Config& config) { return validate(config).value_or("(accepted)"); };
  CHECK(refusal(uneven().ranks(2)) ==
        "splits: 9 block sizes for 2 GPUs; give 2 rows of 2 (row s: what GPU s sends to GPU 0, 1, ...)");
  CHECK(refusal(uneven().count(4)) ==
        "splits: GPU 0 sends 5 elements in all, but starts with 4 (count); give a count of at least every row's sum");
  CHECK(refusal(uneven().op(Op::allgather).algorithm(Algorithm::ring)) ==
        "splits: uneven block sizes apply to alltoall, not allgather; leave --splits out");
  CHECK(refusal(uneven().splits({2, 3, 0, 1, -1, 4, 0, 2, 1})) ==
        "splits: GPU 1's block for GPU 1 (-1 elements) is out of range (0 to 2^40 elements)");
  CHECK(refusal(uneven().splits({kMaxCount, 1, 0, 0, 0, 0, 0, 0, 0}).count(kMaxCount)) ==
        "splits: the blocks add up to more than 2^40 elements");
  CHECK(refusal(uneven().count(9)) == "(accepted)");
}

TEST_CASE("The uneven schedule copies each block into the same pair's slot, every pair once") {
  const Config config = uneven().ranks(5).count(40).splits(std::vector<std::int64_t>(25, 3));
  const Schedule schedule = make_schedule(config);
  CHECK(schedule.round_count() == 5);  // odd N: one GPU waits each round
  std::vector<int> sent(25, 0);
  for (const Round& round : schedule.rounds)
    for (const Transfer& transfer : round.transfers) {
      CHECK(transfer.src_slot == Transfer::kSameSlot);
      CHECK(transfer.slot == pair_slot(5, transfer.src, transfer.dst));
      ++sent[static_cast<std::size_t>(transfer.slot)];
    }
  for (int s = 0; s < 5; ++s)
    for (int d = 0; d < 5; ++d) CHECK(sent[static_cast<std::size_t>(pair_slot(5, s, d))] == (s == d ? 0 : 1));
}

TEST_CASE("A GPU starts holding its row and ends holding its column, each block named sender + receiver") {
  const Config config = uneven();
  Session session(config, make_cpu_backend(1));
  const auto held = [&](int rank) {
    std::string text;
    for (int slot = 0; slot < 9; ++slot) {
      const RankSet& set = session.provenance().at(rank, slot);
      if (set.none()) continue;
      text += (text.empty() ? "" : " ") + reduction_label(config, set, slot, rank);
    }
    return text;
  };
  CHECK(held(1) == "b0 b1 b2");
  session.seek(session.round_count());
  // Its own row stays (the sent blocks are still in its buffer) and the column arrives.
  CHECK(held(1) == "a1 b0 b1 b2 c1");
  CHECK(held(2) == "a2 b2 c0 c1 c2");
  // The output is the column in sender order: GPU 1 receives a1 (3), b1 (0) and c1 (2 elements).
  const std::vector<ByteBuffer> outputs = session.outputs();
  CHECK(outputs[1].size() == 5 * sizeof(float));
  CHECK(outputs[0].size() == 3 * sizeof(float));
}

TEST_CASE("Each GPU sends its row and receives its column, its own block aside") {
  const Config config = uneven().dtype(DType::f64);
  const Traffic traffic = compute_traffic(make_schedule(config), make_layout(config), config.dtype, 3);
  // Row sums without the diagonal 3, 5, 2; column sums without it 1, 5, 4; eight bytes each.
  CHECK(traffic.total_sent(0) == 3 * 8);
  CHECK(traffic.total_sent(1) == 5 * 8);
  CHECK(traffic.total_sent(2) == 2 * 8);
  CHECK(traffic.total_received(0) == 1 * 8);
  CHECK(traffic.total_received(1) == 5 * 8);
  CHECK(traffic.total_received(2) == 4 * 8);
}

TEST_CASE("A trace document keeps the splits and reads back into the same run") {
  const Config config = uneven().init("random:3");
  const std::string document = trace_document(config);
  CHECK(document.find("\"splits\"") != std::string::npos);
  const RecordedRun run = parse_recorded_run(document, "t.json");
  CHECK(run.config.splits == kSplits);
  CHECK(run.layout.size() == 9);
  REQUIRE(run.outputs);
  Session session(config, make_cpu_backend(1));
  session.seek(session.round_count());
  CHECK(*run.outputs == session.outputs());
  // An even document has no such field, and a table that does not fit the ring is refused.
  CHECK(trace_document(uneven().splits({}).count(6)).find("\"splits\"") == std::string::npos);
  nlohmann::ordered_json bad = nlohmann::ordered_json::parse(document);
  bad["config"]["splits"][0].erase(2);
  CHECK_THROWS_WITH_AS(parse_recorded_run(bad.dump(), "t.json"),
                       doctest::Contains("config.splits[0]: expected an array of 3"), InputError);
}

}  // namespace
}  // namespace ringviz
