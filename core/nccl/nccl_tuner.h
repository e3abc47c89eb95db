#pragma once
// What NCCL would do (docs/nccl-model.md): the time of each algorithm/protocol pair NCCL has
// for a collective on a machine, in the shape of NCCL's own tuning model (a latency plus the
// bytes at a bandwidth), and the pair NCCL's tuner would pick: the fastest, unless NCCL_ALGO
// or NCCL_PROTO (`--nccl-algo`, `--protocol`) pin one.
#include <cstdint>
#include <optional>
#include <string>

#include "core/model/config.h"
#include "core/nccl/nccl_choice.h"
#include "core/nccl/nccl_machine.h"

namespace ringviz {

struct NcclPrediction {
  NcclAlgorithm algorithm = NcclAlgorithm::ring;
  NcclProtocol protocol = NcclProtocol::simple;
  int channels = 1;
  std::int64_t size_bytes = 0;  // nccl-tests' size of the collective
  double latency_seconds = 0;
  double seconds = 0;
  double algbw = 0;  // bytes per second: size / time, as nccl-tests prints it
  double busbw = 0;  // algbw x nccl-tests' bus bandwidth factor
};

// What NCCL_ALGO and NCCL_PROTO would pin; empty: NCCL's choice.
struct NcclPins {
  std::optional<NcclAlgorithm> algorithm;
  std::optional<NcclProtocol> protocol;
};

// The ops NCCL's model here covers: AllReduce, AllGather, ReduceScatter and Broadcast.
bool nccl_models(Op op);
// Whether NCCL has the pair for `op` on `machine` (NVLS: AllReduce, SIMPLE, NVLS machines only;
// the tree: AllReduce; LL128: NVLink inside the machine). When not, `why` says why.
bool nccl_has(const NcclMachine& machine, Op op, NcclAlgorithm algorithm, NcclProtocol protocol,
              std::string* why = nullptr);
// One pair's prediction for nccl-tests' size `size_bytes`; the pair must be one NCCL has.
NcclPrediction nccl_predict(const NcclMachine& machine, Op op, std::int64_t size_bytes, NcclAlgorithm algorithm,
                            NcclProtocol protocol);
// The pair NCCL's tuner picks: the least predicted time among the pairs it has and the pins
// allow (ties to the earlier in NCCL's order: tree, ring, NVLS; LL, LL128, SIMPLE). Throws
// InputError naming --nccl-algo or --protocol when the pins leave no pair, and for an op the
// model does not cover.
NcclPrediction nccl_choose(const NcclMachine& machine, Op op, std::int64_t size_bytes, const NcclPins& pins = {});
// What NCCL would do for a size ringviz measured (bench rows, captures): NCCL's pick, or nullopt
// where the model has nothing to say (an op it does not cover, one GPU).
std::optional<NcclPrediction> nccl_prediction_beside(const NcclMachine& machine, Op op, std::int64_t size_bytes);

}  // namespace ringviz
