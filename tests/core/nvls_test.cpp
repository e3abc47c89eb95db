// NVLS, the in-switch reduction (core/algorithms/nvls.cpp): its two rounds through the switch,
// what each GPU's link carries, its pipelined runs against the reference, and its price, which
// NCCL's NVLS model gives only where the topology has a switch that reduces. The collective
// sweep (collective_sweep_test.cpp) checks every GPU count, count, type and reduction bit for bit.
#include <doctest/doctest.h>

#include <string>

#include "core/algorithms/registry.h"
#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/engine/traffic.h"
#include "core/input/initial_values.h"
#include "core/model/input_error.h"
#include "core/nccl/nccl_tuner.h"
#include "core/training/cost_model.h"
#include "tests/core/reference.h"
#include "tests/support/config_builder.h"

using namespace ringviz;
using ringviz::test::ConfigBuilder;

namespace {

Config nvls(int ranks, std::int64_t count) {
  return ConfigBuilder().algorithm(Algorithm::nvls).op(Op::allreduce).ranks(ranks).count(count);
}

std::string refusal_of(const Config& config, const Topology& topology) {
  try {
    estimate_cost(config, topology);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("nvls: AllReduce only, in two rounds through the switch whatever N") {
  CHECK(algorithm_supports(Algorithm::nvls, Op::allreduce));
  for (Op op : {Op::allgather, Op::reducescatter, Op::broadcast}) CHECK_FALSE(algorithm_supports(Algorithm::nvls, op));
  CHECK(unsupported_op_message(Algorithm::nvls, Op::allgather).value_or("").find("--algo nvls: supports allreduce only") == 0);
  CHECK(find_algorithm("NVLS") == Algorithm::nvls);
  CHECK(algorithm_unit(Algorithm::nvls).reduces_in_switch);
  for (int n : {2, 3, 8, 17}) {
    const Schedule schedule = make_schedule(nvls(n, 100));
    CHECK(schedule.through_switch);
    REQUIRE(schedule.round_count() == 2);
    CHECK(schedule.rounds[0].phase == Phase::reduce_scatter);
    CHECK(schedule.rounds[1].phase == Phase::all_gather);
    // Round 1: slot j's N-1 other parts go to GPU j, starting above j; the last completes it.
    const std::vector<Transfer>& into_switch = schedule.rounds[0].transfers;
    REQUIRE(into_switch.size() == static_cast<std::size_t>(n * (n - 1)));
    for (int owner = 0; owner < n; ++owner)
      for (int hop = 1; hop < n; ++hop) {
        const Transfer& t = into_switch[static_cast<std::size_t>(owner * (n - 1) + hop - 1)];
        CHECK(t.src == (owner + hop) % n);
        CHECK(t.dst == owner);
        CHECK(t.slot == owner);
        CHECK(t.kind == TransferKind::reduce);
        CHECK(t.completes_slot == (hop == n - 1));
      }
    // Round 2: each owner's slot copied to every other GPU.
    for (const Transfer& t : schedule.rounds[1].transfers) {
      CHECK(t.kind == TransferKind::copy);
      CHECK(t.slot == t.src);
      CHECK(t.dst != t.src);
    }
  }
  CHECK(make_schedule(nvls(1, 5)).round_count() == 0);
}

TEST_CASE("nvls: through the switch every GPU's link carries M out and M in, even and uneven slots alike") {
  for (int n : {2, 4, 5, 8})
    for (std::int64_t count : {std::int64_t{3}, std::int64_t{64}, std::int64_t{101}}) {
      CAPTURE(n);
      CAPTURE(count);
      const Config config = nvls(n, count);
      const Schedule schedule = make_schedule(config);
      const Traffic traffic = compute_traffic(schedule, make_layout(config), config.dtype, n);
      const std::int64_t m = count * 4;
      for (int rank = 0; rank < n; ++rank) {
        CHECK(traffic.total_sent(rank) == m);
        CHECK(traffic.total_received(rank) == m);
      }
      // Without the switch the same transfers would send (N-1)/N M + (N-1) slots.
      Schedule direct_wires = schedule;
      direct_wires.through_switch = false;
      const Traffic wires = compute_traffic(direct_wires, make_layout(config), config.dtype, n);
      if (n > 2 && count >= n) CHECK(wires.total_sent(0) > m);
    }
  // The unit's formula says the same: M.
  const TrafficFormula formula = algorithm_unit(Algorithm::nvls).traffic(Language::en, Op::allreduce, 8, 0, 1024.0, "NVLS");
  CHECK(formula.busiest_bytes == 1024.0);
  CHECK(formula.formula.find("= M") != std::string::npos);
}

TEST_CASE("nvls: pipelined over channels and slices it folds each element as the lock-step switch does") {
  // Plain ints, not a structured binding: clang (the sanitizer build) cannot capture one in INFO.
  for (const std::pair<int, int>& shape : {std::pair{2, 1}, std::pair{1, 3}, std::pair{3, 2}})
    for (DType dtype : {DType::f32, DType::f16, DType::bf16})
      for (ReduceOp reduce : {ReduceOp::sum, ReduceOp::avg, ReduceOp::prod}) {
        const int channels = shape.first;
        const int slices = shape.second;
        Config config = ConfigBuilder()
                            .algorithm(Algorithm::nvls)
                            .op(Op::allreduce)
                            .ranks(5)
                            .count(37)
                            .dtype(dtype)
                            .reduce(reduce)
                            .channels(channels)
                            .slices(slices)
                            .init(parse_init("random:11"));
        INFO(test::describe(config) << " channels " << channels << " slices " << slices);
        Session session(config, make_cpu_backend(2), SessionOptions{0});
        session.seek(session.round_count());
        const BufferState initial = make_initial_state(config);
        const std::vector<ByteBuffer> inputs = test::inputs_of(config, initial);
        const test::Difference difference = test::first_difference(
            dtype, session.outputs(), test::fold_order_outputs(config, inputs, test::FoldOrder::switch_from_owner));
        CHECK(difference.actual == difference.expected);
      }
}

TEST_CASE("nvls: priced by NCCL's NVLS model on an NVSwitch of NVLink 4, refused elsewhere naming the fix") {
  const Config config = nvls(8, std::int64_t{1} << 28);  // 1 GiB of f32
  const Topology nvswitch = topology_preset("nvswitch:8");
  const NcclPrediction model =
      nccl_predict(nccl_machine(nvswitch), Op::allreduce, std::int64_t{1} << 30, NcclAlgorithm::nvls, NcclProtocol::simple);
  CHECK(estimate_cost(config, nvswitch).seconds == doctest::Approx(model.seconds));
  // One message into the switch per round a GPU sends in (its pieces for 7 GPUs ride it), not
  // one per destination: compare's msgs/GPU says 2.
  CHECK(estimate_cost(config, nvswitch).messages == 2);
  CHECK(estimate_cost(config, nvswitch).messages_total == 16);
  const std::string refused = refusal_of(config, topology_preset("ring:8"));
  CHECK(refused.find("--algo nvls") == 0);
  CHECK(refused.find("--topology nvswitch:8") != std::string::npos);
  CHECK(refusal_of(nvls(4, 64), topology_preset("pcie:4")).find("--topology nvswitch:4") != std::string::npos);
}

TEST_CASE("nvls: compared on an NVSwitch at NCCL's NVLS times, and left out where no switch reduces") {
  Config config = ConfigBuilder().op(Op::allreduce).ranks(8).count(std::int64_t{1} << 24);
  SweepOptions sweep;
  sweep.min_bytes = std::int64_t{1} << 20;
  sweep.max_bytes = std::int64_t{1} << 30;
  const CostComparison on_switch = compare_algorithms(config, topology_preset("nvswitch:8"), sweep);
  std::size_t at = on_switch.algorithms.size();
  for (std::size_t i = 0; i < on_switch.algorithms.size(); ++i)
    if (on_switch.algorithms[i] == Algorithm::nvls) at = i;
  REQUIRE(at < on_switch.algorithms.size());
  const NcclMachine machine = nccl_machine(topology_preset("nvswitch:8"));
  for (std::size_t s = 0; s < on_switch.sweep_bytes.size(); ++s)
    CHECK(on_switch.sweep_seconds[at][s] ==
          doctest::Approx(nccl_predict(machine, Op::allreduce, on_switch.sweep_bytes[s], NcclAlgorithm::nvls,
                                       NcclProtocol::simple)
                              .seconds));
  // At 1 GiB the switch's reduction beats every schedule that reduces on the GPUs.
  CHECK(on_switch.sweep_fastest.back() == Algorithm::nvls);
  for (const char* spec : {"ring:8", "pcie:8", "nodes:2x4"}) {
    const CostComparison elsewhere = compare_algorithms(config, topology_preset(spec), sweep);
    for (Algorithm algorithm : elsewhere.algorithms) CHECK(algorithm != Algorithm::nvls);
  }
}

TEST_CASE("nvls: left out where the link's figures are overridden, and nothing to do on one GPU") {
  const Config config = ConfigBuilder().op(Op::allreduce).ranks(8).count(1024);
  LinkModel slow = find_link_preset("nvlink4");
  slow.bytes_per_second = 1e-21;
  for (Algorithm algorithm : compare_algorithms(config, slow).algorithms) CHECK(algorithm != Algorithm::nvls);
  LinkModel quick = find_link_preset("nvlink4");
  quick.alpha_seconds = 0;
  for (Algorithm algorithm : compare_algorithms(config, quick).algorithms) CHECK(algorithm != Algorithm::nvls);
  // The preset itself keeps it; one GPU sends nothing and takes no time.
  const CostComparison one = compare_algorithms(ConfigBuilder().op(Op::allreduce).ranks(1).count(1), find_link_preset("nvlink4"));
  bool listed = false;
  for (std::size_t i = 0; i < one.algorithms.size(); ++i)
    if (one.algorithms[i] == Algorithm::nvls) {
      listed = true;
      CHECK(one.at_count[i].seconds == 0);
    }
  CHECK(listed);
}
