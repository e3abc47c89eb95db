// AllToAll (docs/architecture.md, "Collective semantics"): GPU r's block j ends in GPU j's slot r.
// The reference sweep (collective_sweep_test.cpp) checks the bytes; this checks the schedule's
// shape, the labels, the traffic and what is refused.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/engine/contributor_label.h"
#include "core/engine/session.h"
#include "core/engine/traffic.h"
#include "core/input/initial_values.h"
#include "core/model/layout.h"
#include "tests/core/reference.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

ConfigBuilder all_to_all() { return ConfigBuilder().op(Op::alltoall).algorithm(Algorithm::direct); }

TEST_CASE("AllToAll pairs every two GPUs exactly once, one partner per GPU per round, in N-1 rounds (N when odd)") {
  for (int n = 1; n <= 17; ++n) {
    INFO("N=" << n);
    const Schedule schedule = make_schedule(all_to_all().ranks(n));
    CHECK(schedule.round_count() == (n == 1 ? 0 : n % 2 == 0 ? n - 1 : n));
    std::set<std::pair<int, int>> sent;  // (sender, receiver), each once
    for (const Round& round : schedule.rounds) {
      CHECK(round.phase == Phase::all_to_all);
      std::vector<int> partner(static_cast<std::size_t>(n), -1);
      for (const Transfer& transfer : round.transfers) {
        CHECK(transfer.kind == TransferKind::copy);
        CHECK(transfer.src != transfer.dst);
        // GPU r's block for GPU p (its slot p) lands in GPU p's slot r.
        CHECK(transfer.source_slot() == transfer.dst);
        CHECK(transfer.slot == transfer.src);
        CHECK(partner[static_cast<std::size_t>(transfer.src)] == -1);  // one message per GPU per round
        partner[static_cast<std::size_t>(transfer.src)] = transfer.dst;
        CHECK(sent.insert({transfer.src, transfer.dst}).second);
      }
      // A swap: whoever sends to p hears back from p in the same round.
      for (int rank = 0; rank < n; ++rank) {
        const int p = partner[static_cast<std::size_t>(rank)];
        if (p >= 0) CHECK(partner[static_cast<std::size_t>(p)] == rank);
      }
    }
    CHECK(sent.size() == static_cast<std::size_t>(n * (n - 1)));
  }
}

TEST_CASE("An AllToAll block is count / N elements, the count % N left over take no part") {
  const SlotLayout layout = make_layout(Op::alltoall, 4, 10);
  REQUIRE(layout.size() == 4);
  for (int slot = 0; slot < 4; ++slot) {
    CHECK(layout[slot].count == 2);
    CHECK(layout[slot].offset == 2 * slot);
  }
  CHECK(layout.elements_per_rank == 8);
  CHECK(make_layout(Op::alltoall, 4, 3).elements_per_rank == 0);
  // The seed inputs keep their values (GPU r's element i is r x count + i + 1), the last two unread.
  const BufferState initial = make_initial_state(all_to_all().ranks(4).count(10));
  CHECK(read_element(initial, 1, 0).real == 11);
  CHECK(read_element(initial, 1, 7).real == 18);
}

TEST_CASE("An AllToAll cell names the sender and the GPU its block is meant for, before and after the swap") {
  const Config config = all_to_all().ranks(4).count(8);
  Session session(config, make_cpu_backend(1));
  const auto labels = [&](int rank) {
    std::string text;
    for (int slot = 0; slot < 4; ++slot)
      text += (slot ? " " : "") + reduction_label(config, session.provenance().at(rank, slot), slot, rank);
    return text;
  };
  CHECK(labels(0) == "a0 a1 a2 a3");
  CHECK(labels(2) == "c0 c1 c2 c3");
  session.seek(session.round_count());
  CHECK(labels(0) == "a0 b0 c0 d0");
  CHECK(labels(2) == "a2 b2 c2 d2");
  // Round by round, a slot holds its own block until its pair's round, then the partner's.
  session.seek(0);
  for (int round = 0; round < session.round_count(); ++round) {
    session.step_forward();
    for (const Transfer& transfer : session.schedule().rounds[static_cast<std::size_t>(round)].transfers)
      CHECK(reduction_label(config, session.provenance().at(transfer.dst, transfer.slot), transfer.slot,
                            transfer.dst) == term_label(transfer.src, transfer.dst));
  }
  CHECK_THROWS_AS(label_forms(config, session.provenance().at(0, 1), 1), std::logic_error);
}

TEST_CASE("Every GPU sends and receives (N-1) blocks of count / N elements") {
  for (int n : {1, 2, 3, 4, 5, 8})
    for (std::int64_t count : {std::int64_t{0}, std::int64_t{n - 1}, std::int64_t{n + 1}, std::int64_t{1000}}) {
      const Config config = all_to_all().ranks(n).count(count).dtype(DType::f64);
      INFO(test::describe(config));
      const Traffic traffic = compute_traffic(make_schedule(config), make_layout(config), config.dtype, n);
      const std::int64_t bytes = (n - 1) * (count / n) * 8;
      for (int rank = 0; rank < n; ++rank) {
        CHECK(traffic.total_sent(rank) == bytes);
        CHECK(traffic.total_received(rank) == bytes);
      }
    }
}

TEST_CASE("AllToAll runs on direct, the default for it, the others and a reduction are refused") {
  CHECK(default_algorithm(Op::alltoall) == Algorithm::direct);
  CHECK(default_algorithm(Op::allreduce) == Algorithm::ring);
  CHECK(default_algorithm(Op::broadcast) == Algorithm::ring);
  for (Algorithm algorithm : kAllAlgorithms) {
    CAPTURE(algorithm_name(algorithm));
    const auto refused = validate(ConfigBuilder().op(Op::alltoall).algorithm(algorithm));
    CHECK(refused.has_value() == (algorithm != Algorithm::direct));
    if (refused) CHECK(refused->find("(direct support alltoall)") != std::string::npos);
  }
  const auto problem = validate(all_to_all().reduce(ReduceOp::max));
  REQUIRE(problem.has_value());
  CHECK(problem->find("alltoall only copies them") != std::string::npos);
}

}  // namespace
}  // namespace ringviz
