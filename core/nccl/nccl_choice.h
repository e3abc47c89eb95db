#pragma once
// NCCL's names for what it chooses per collective: the algorithm (ring, tree, NVLS) and the
// protocol (LL, LL128, SIMPLE), as NCCL_ALGO and NCCL_PROTO spell them and as `--nccl-algo` and
// `--protocol` read them (docs/nccl-model.md).
#include "core/model/enum_table.h"

namespace ringviz {

// NVLS: NVLink SHARP, the reduction done inside an NVSwitch (NCCL 2.17 and later, Hopper).
enum class NcclAlgorithm { ring, tree, nvls };
// LL: 8-byte lines of 4 bytes of data and a 4-byte flag; LL128: 128-byte lines of 120 bytes of
// data and an 8-byte flag; SIMPLE: whole buffers behind a fence, the full rate.
enum class NcclProtocol { ll, ll128, simple };

inline constexpr EnumName<NcclAlgorithm> kNcclAlgorithmNames[] = {
    {NcclAlgorithm::ring, "ring", "RING Ring", "", "RING"},
    {NcclAlgorithm::tree, "tree", "TREE Tree", "", "TREE"},
    {NcclAlgorithm::nvls, "nvls", "NVLS", "NVLink SHARP: the NVSwitch reduces", "NVLS"},
};
inline constexpr EnumName<NcclProtocol> kNcclProtocolNames[] = {
    {NcclProtocol::ll, "LL", "ll", "low latency, half the data rate"},
    {NcclProtocol::ll128, "LL128", "ll128", "120 of 128 bytes data"},
    {NcclProtocol::simple, "SIMPLE", "simple Simple", "full rate, highest latency"},
};

inline constexpr EnumNamer nccl_algorithm_title{kNcclAlgorithmNames, true};  // "RING"
inline constexpr EnumNamer nccl_protocol_name{kNcclProtocolNames};           // "LL128"
inline constexpr EnumParser parse_nccl_algorithm{kNcclAlgorithmNames, "--nccl-algo"};
inline constexpr EnumParser parse_nccl_protocol{kNcclProtocolNames, "--protocol"};

inline constexpr NcclAlgorithm kNcclAlgorithms[] = {NcclAlgorithm::ring, NcclAlgorithm::tree, NcclAlgorithm::nvls};
inline constexpr NcclProtocol kNcclProtocols[] = {NcclProtocol::ll, NcclProtocol::ll128, NcclProtocol::simple};

}  // namespace ringviz
