#pragma once
// The CUDA side of `ringviz bench`: the device target (the CUDA backend and a device-to-device
// copy as its baseline) and, with two or more GPUs and NCCL, NCCL's ring at the same sizes.
// Everything here is empty or absent in a build without the CUDA backend.
#include <optional>
#include <string>
#include <vector>

#include "app/backend/backend_select.h"
#include "core/engine/benchmark.h"

namespace ringviz::cli {

// The CUDA target when `info` describes the CUDA backend; nullopt otherwise.
std::optional<BenchTarget> cuda_bench_target(const BackendInfo& info, BenchMode mode);

// Lines for the table's header: which NCCL baseline runs, or why none does.
std::vector<std::string> nccl_header_lines(const Config& config, const BackendInfo& info);

// NCCL's line for the size of `row`, beside ringviz's; empty when no baseline runs.
std::vector<std::string> nccl_row_lines(const Config& config, const BackendInfo& info,
                                        const BenchRow& row, const BenchSettings& settings);

// After the table: the bytes the ring sends per second at `row`'s size against the device
// copy's bytes copied per second (the figure the README's goal is stated in).
std::vector<std::string> ring_sent_summary(const Config& config, const BenchRow& row);

}  // namespace ringviz::cli
