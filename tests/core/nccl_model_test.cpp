// The model of NCCL's choices (docs/nccl-model.md) against the published figures it is held to
// and against the facts of NCCL's tuning it follows. Every expectation is a model output, so
// none depends on a machine.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/model/input_error.h"
#include "core/nccl/nccl_tuner.h"
#include "core/topology/topology.h"

using namespace ringviz;

namespace {

constexpr std::int64_t kGiB = std::int64_t{1} << 30;

NcclMachine h100_nvswitch() { return nccl_machine(topology_preset("nvswitch:8")); }

std::string refusal(const NcclMachine& machine, Op op, const NcclPins& pins) {
  try {
    nccl_choose(machine, op, 1 << 20, pins);
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("nccl model: 8 H100 on NVSwitch, ring pinned at 1 GiB, predicts the maintainers' 370 GB/s busbw within 10%") {
  const NcclPrediction ring = nccl_choose(h100_nvswitch(), Op::allreduce, kGiB, {.algorithm = NcclAlgorithm::ring});
  CHECK(ring.algorithm == NcclAlgorithm::ring);
  CHECK(ring.protocol == NcclProtocol::simple);
  CHECK(std::abs(ring.busbw / 370e9 - 1) < 0.10);
}

TEST_CASE("nccl model: 8 H100 on NVSwitch at 1 GiB, NCCL picks NVLS and it predicts 480 GB/s busbw within 10%") {
  const NcclPrediction choice = nccl_choose(h100_nvswitch(), Op::allreduce, kGiB);
  CHECK(choice.algorithm == NcclAlgorithm::nvls);
  CHECK(choice.protocol == NcclProtocol::simple);
  CHECK(std::abs(choice.busbw / 480e9 - 1) < 0.10);
  // NVLS beats the ring by moving S + S/N each way instead of 2(N-1)/N x S.
  const NcclPrediction ring = nccl_choose(h100_nvswitch(), Op::allreduce, kGiB, {.algorithm = NcclAlgorithm::ring});
  CHECK(choice.seconds < ring.seconds);
}

TEST_CASE("nccl model: the 8 B end is ring/LL within a factor 1.5 of the 12.5 us published for a Hopper NVSwitch node") {
  const NcclPrediction tiny = nccl_choose(h100_nvswitch(), Op::allreduce, 8);
  CHECK(tiny.algorithm == NcclAlgorithm::ring);
  CHECK(tiny.protocol == NcclProtocol::ll);
  // NCCL's own latencies: 6.6 us once, 0.6 us per step, 2(N-1) = 14 steps.
  CHECK(tiny.latency_seconds == doctest::Approx(15.0e-6));
  CHECK(tiny.seconds / 12.5e-6 < 1.5);
  CHECK(12.5e-6 / tiny.seconds < 1.5);
}

TEST_CASE("nccl model: the protocol moves from LL to LL128 or SIMPLE as the size grows") {
  const NcclMachine machine = h100_nvswitch();
  CHECK(nccl_choose(machine, Op::allreduce, 4096).protocol == NcclProtocol::ll);
  const NcclPrediction mid = nccl_choose(machine, Op::allreduce, 4 << 20, {.algorithm = NcclAlgorithm::ring});
  CHECK(mid.protocol != NcclProtocol::ll);
  // LL moves a quarter of SIMPLE's bus bandwidth for an AllReduce (8-byte lines of 4 bytes of
  // data, and NCCL's further halving), below its 87.7 GB/s ceiling.
  NcclMachine two = nccl_machine(topology_preset("nvswitch:2"), 2);
  const double ll = nccl_predict(two, Op::allreduce, kGiB, NcclAlgorithm::ring, NcclProtocol::ll).algbw;
  const double simple = nccl_predict(two, Op::allreduce, kGiB, NcclAlgorithm::ring, NcclProtocol::simple).algbw;
  CHECK(ll / simple == doctest::Approx(0.25).epsilon(0.01));
}

TEST_CASE("nccl model: channels come from the machine and --channels overrides them") {
  const NcclMachine machine = h100_nvswitch();
  CHECK(machine.default_channels == 12);
  CHECK(machine.channels == 12);
  CHECK(machine.nvls);
  const NcclMachine one = nccl_machine(topology_preset("nvswitch:8"), 1);
  CHECK(one.channels == 1);
  const NcclPrediction slow = nccl_choose(one, Op::allreduce, kGiB, {.algorithm = NcclAlgorithm::ring,
                                                                     .protocol = NcclProtocol::simple});
  // One channel carries 30 GB/s (NCCL's top Hopper speed of 60 halved by its channel duplication).
  CHECK(slow.busbw < 31e9);
  CHECK(slow.busbw > 29e9);
}

TEST_CASE("nccl model: NVLS only where every GPU hangs off one NVSwitch of NVLink 4") {
  CHECK_FALSE(nccl_machine(topology_preset("ring:8")).nvls);
  CHECK_FALSE(nccl_machine(topology_preset("pcie:8")).nvls);
  CHECK_FALSE(nccl_machine(topology_preset("nodes:2x8")).nvls);
  CHECK(nccl_choose(nccl_machine(topology_preset("ring:8")), Op::allreduce, kGiB).algorithm == NcclAlgorithm::ring);
  CHECK(refusal(nccl_machine(topology_preset("ring:8")), Op::allreduce, {.algorithm = NcclAlgorithm::nvls})
            .find("--nccl-algo: nvls cannot run AllReduce here: NVLS needs") == 0);
  CHECK(refusal(h100_nvswitch(), Op::allreduce, {.algorithm = NcclAlgorithm::nvls, .protocol = NcclProtocol::ll})
            .find("NVLS runs on SIMPLE only") != std::string::npos);
  CHECK(refusal(nccl_machine(topology_preset("pcie:8")), Op::allreduce, {.protocol = NcclProtocol::ll128})
            .find("--protocol: LL128 cannot run AllReduce here: NCCL enables LL128 only over NVLink") == 0);
  CHECK(refusal(h100_nvswitch(), Op::allgather, {.algorithm = NcclAlgorithm::tree})
            .find("tree runs AllReduce only") != std::string::npos);
}

TEST_CASE("nccl model: between machines the network bounds the ring and its steps pay the network's latency") {
  const NcclMachine machines = nccl_machine(topology_preset("nodes:2x8"));
  CHECK(machines.machines == 2);
  CHECK(machines.inter_bytes_per_second == doctest::Approx(50e9));
  const NcclMachine rails = nccl_machine(topology_preset("nodes-rail:2x8"));
  CHECK(rails.inter_bytes_per_second == doctest::Approx(400e9));
  const NcclPrediction ring = nccl_choose(machines, Op::allreduce, kGiB, {.algorithm = NcclAlgorithm::ring});
  CHECK(ring.busbw < 50e9);
  CHECK(ring.busbw > 40e9);
}

TEST_CASE("nccl model: a 2-GPU A100 ring on LL with 8 channels, as the shared trace ran it") {
  const NcclMachine machine = nccl_machine(find_link_preset("nvlink3"), 2, 8);
  const NcclPrediction p = nccl_predict(machine, Op::allreduce, 31502336, NcclAlgorithm::ring, NcclProtocol::ll);
  // 6.6 us + 2 steps of 0.6 us; 8 channels of 20 GB/s, a quarter of it on LL.
  CHECK(p.latency_seconds == doctest::Approx(7.8e-6));
  CHECK(p.seconds == doctest::Approx(7.8e-6 + 31502336 / 40e9));
}
