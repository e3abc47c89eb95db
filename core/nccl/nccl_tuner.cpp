#include "core/nccl/nccl_tuner.h"

#include <algorithm>
#include <cmath>

#include "core/model/input_error.h"
#include "core/schedule/bus_bandwidth.h"

namespace ringviz {

namespace {

// Every figure below is a fact of NCCL's tuning code (src/graph/tuning.cc, NCCL 2.19), a
// published measurement or our own choice; docs/nccl-model.md names which for each.
constexpr int kAlgorithms = 3;  // tree, ring, NVLS: NCCL's order
constexpr int kProtocols = 3;   // LL, LL128, SIMPLE

int index_of(NcclAlgorithm algorithm) {
  return algorithm == NcclAlgorithm::tree ? 0 : algorithm == NcclAlgorithm::ring ? 1 : 2;
}
int index_of(NcclProtocol protocol) {
  return protocol == NcclProtocol::ll ? 0 : protocol == NcclProtocol::ll128 ? 1 : 2;
}
int index_of(NcclFabric fabric) { return fabric == NcclFabric::nvlink ? 0 : fabric == NcclFabric::pci ? 1 : 2; }

// Microseconds paid once per collective, [algorithm][protocol].
constexpr double kBaseLatencyUs[kAlgorithms][kProtocols] = {{6.8, 14.0, 0}, {6.6, 14.0, 8.4}, {0, 0, 0}};
// Microseconds per step, [fabric][algorithm][protocol].
constexpr double kStepLatencyUs[3][kAlgorithms][kProtocols] = {
    {{0.6, 1.25, 28}, {0.6, 1.9, 3.4}, {0, 0, 23}},    // NVLink
    {{1.0, 1.9, 28}, {1.0, 2.5, 5.7}, {0, 0, 0}},      // PCI
    {{5.0, 8.5, 28}, {2.7, 4.0, 14.0}, {0, 0, 18}}};   // network
// The network's per-message overhead that an inter-machine ring step pays at least (µs; x3 on SIMPLE).
constexpr double kNetOverheadUs = 1.0;

// LL's ceiling, GB/s: one machine (Ampere and Hopper alike), two, more.
constexpr double kLlMaxGbs[3] = {87.7, 39.0, 20.4};
// Per-channel ceilings, GB/s, [Ampere, Hopper][one machine, two, more].
constexpr double kRingLl128PerChannelGbs[2][3] = {{20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}};
constexpr double kTreePerChannelGbs[2][3] = {{24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}};
constexpr double kTreeLl128PerChannelGbs[2][3] = {{20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}};

// NVLS: each GPU sends its S bytes into the switch and receives S/N reduced, then sends S/N to
// be multicast and receives S; so S + S/N crosses its port each way. The switch itself reduces
// at most about 258 GB/s of each GPU's data (the algbw published for 5 H100s, where NVLS first
// beats the ring).
constexpr double kNvlsSwitchBytesPerSecond = 258e9;

int machine_class(const NcclMachine& machine) { return machine.machines <= 1 ? 0 : machine.machines == 2 ? 1 : 2; }
int generation_index(const NcclMachine& machine) { return machine.generation == GpuGeneration::hopper ? 1 : 0; }

// Steps of the ring for `op` on N GPUs, and those of them that cross the network.
int ring_steps(Op op, int ranks) {
  return op == Op::allreduce ? 2 * (ranks - 1) : op == Op::broadcast ? ranks : ranks - 1;
}
int ring_network_steps(Op op, int machines) {
  if (machines <= 1) return 0;
  return op == Op::allreduce ? 2 * machines : op == Op::broadcast ? machines : machines - 1;
}

double latency_us(const NcclMachine& machine, Op op, NcclAlgorithm algorithm, NcclProtocol protocol) {
  const int a = index_of(algorithm), p = index_of(protocol);
  const double intra = kStepLatencyUs[index_of(machine.intra)][a][p];
  const double inter = kStepLatencyUs[2][a][p];
  const int n = machine.gpus, nodes = machine.machines;
  if (algorithm == NcclAlgorithm::nvls) return intra;
  if (algorithm == NcclAlgorithm::tree)
    return kBaseLatencyUs[a][p] + 2 * ((n / nodes - 1) * intra + std::log2(static_cast<double>(nodes)) * inter);
  if (op == Op::broadcast) return kBaseLatencyUs[a][p] + intra;  // one pipelined pass
  const int steps = ring_steps(op, n);
  const int network_steps = ring_network_steps(op, nodes);
  const double step = nodes > 1 ? std::max(intra, kNetOverheadUs * (protocol == NcclProtocol::simple ? 3 : 1)) : intra;
  return kBaseLatencyUs[a][p] + (steps - network_steps) * step + network_steps * inter;
}

// NCCL's bus bandwidth for the pair, then turned into the rate the collective's size moves at.
double size_bytes_per_second(const NcclMachine& machine, Op op, NcclAlgorithm algorithm, NcclProtocol protocol) {
  const int n = machine.gpus;
  if (algorithm == NcclAlgorithm::nvls) {
    const double port = machine.intra_bytes_per_second * n / (n + 1.0);
    return std::min(port, kNvlsSwitchBytesPerSecond);
  }
  const int m = machine_class(machine), g = generation_index(machine);
  const double channels = machine.channels;
  double bus = std::min(machine.intra_bytes_per_second, channels * machine.channel_bytes_per_second);
  if (machine.machines > 1) bus = std::min(bus, machine.inter_bytes_per_second);
  const double ll_max = kLlMaxGbs[m] * 1e9;
  if (algorithm == NcclAlgorithm::ring) {
    if (protocol == NcclProtocol::ll)
      bus = std::min(ll_max, bus * (machine.machines > 1 || op == Op::allreduce ? 1.0 / 4 : 1.0 / 3));
    if (protocol == NcclProtocol::ll128) bus = std::min(bus * 0.92, channels * kRingLl128PerChannelGbs[g][m] * 1e9);
    return bus * n / ring_steps(op, n);
  }
  bus = std::min(bus * 0.92, channels * kTreePerChannelGbs[g][m] * 1e9);
  if (protocol == NcclProtocol::ll) bus = std::min(bus / 3.8, ll_max);
  if (protocol == NcclProtocol::ll128)
    bus = std::min(bus * (machine.machines == 1 ? 7.0 / 9 : 120.0 / 128), channels * kTreeLl128PerChannelGbs[g][m] * 1e9);
  return bus * 0.5;
}

}  // namespace

bool nccl_models(Op op) {
  return op == Op::allreduce || op == Op::allgather || op == Op::reducescatter || op == Op::broadcast;
}

bool nccl_has(const NcclMachine& machine, Op op, NcclAlgorithm algorithm, NcclProtocol protocol, std::string* why) {
  auto refuse = [why](const char* reason) {
    if (why) *why = reason;
    return false;
  };
  if (!nccl_models(op)) return refuse("the model covers AllReduce, AllGather, ReduceScatter and Broadcast");
  if (algorithm == NcclAlgorithm::nvls) {
    if (op != Op::allreduce) return refuse("NVLS is modelled for AllReduce only");
    if (!machine.nvls) return refuse("NVLS needs every GPU of one machine on an NVSwitch of NVLink 4");
    if (protocol != NcclProtocol::simple) return refuse("NVLS runs on SIMPLE only");
  }
  if (algorithm == NcclAlgorithm::tree && op != Op::allreduce) return refuse("NCCL's tree runs AllReduce only");
  if (protocol == NcclProtocol::ll128 && machine.intra != NcclFabric::nvlink)
    return refuse("NCCL enables LL128 only over NVLink");
  if (machine.gpus < 2) return refuse("one GPU has nothing to send");
  return true;
}

NcclPrediction nccl_predict(const NcclMachine& machine, Op op, std::int64_t size_bytes, NcclAlgorithm algorithm,
                            NcclProtocol protocol) {
  NcclPrediction prediction;
  prediction.algorithm = algorithm;
  prediction.protocol = protocol;
  prediction.channels = algorithm == NcclAlgorithm::nvls ? std::max(machine.channels, machine.default_channels)
                                                         : machine.channels;
  prediction.size_bytes = size_bytes;
  prediction.latency_seconds = latency_us(machine, op, algorithm, protocol) * 1e-6;
  prediction.seconds = prediction.latency_seconds +
                       static_cast<double>(size_bytes) / size_bytes_per_second(machine, op, algorithm, protocol);
  prediction.algbw = prediction.seconds > 0 ? static_cast<double>(size_bytes) / prediction.seconds : 0;
  prediction.busbw = prediction.algbw * bus_bandwidth_factor(op, machine.gpus);
  return prediction;
}

NcclPrediction nccl_choose(const NcclMachine& machine, Op op, std::int64_t size_bytes, const NcclPins& pins) {
  if (!nccl_models(op))
    throw InputError("--op: the NCCL model covers allreduce, allgather, reducescatter and broadcast, not " +
                     std::string(op_name(op)));
  std::optional<NcclPrediction> best;
  std::string why, first_why;  // the first refusal names the pin's own reason
  for (NcclAlgorithm algorithm : {NcclAlgorithm::tree, NcclAlgorithm::ring, NcclAlgorithm::nvls}) {
    if (pins.algorithm && *pins.algorithm != algorithm) continue;
    for (NcclProtocol protocol : kNcclProtocols) {
      if (pins.protocol && *pins.protocol != protocol) continue;
      if (!nccl_has(machine, op, algorithm, protocol, &why)) {
        if (first_why.empty()) first_why = why;
        continue;
      }
      const NcclPrediction prediction = nccl_predict(machine, op, size_bytes, algorithm, protocol);
      if (!best || prediction.seconds < best->seconds) best = prediction;
    }
  }
  if (best) return *best;
  // "--nccl-algo: nvls cannot run ...", "--protocol: LL128 cannot run ...", or both pins named.
  std::string pinned = pins.algorithm ? "--nccl-algo: " + std::string(enum_name(kNcclAlgorithmNames, *pins.algorithm))
                                      : "--protocol: " + std::string(nccl_protocol_name(*pins.protocol));
  if (pins.algorithm && pins.protocol) pinned += " with --protocol " + std::string(nccl_protocol_name(*pins.protocol));
  throw InputError(pinned + " cannot run " + std::string(op_display_name(op)) + " here: " + first_why);
}

std::optional<NcclPrediction> nccl_prediction_beside(const NcclMachine& machine, Op op, std::int64_t size_bytes) {
  if (!nccl_models(op) || machine.gpus < 2) return std::nullopt;
  return nccl_choose(machine, op, size_bytes);
}

}  // namespace ringviz
