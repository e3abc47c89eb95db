#include "app/cli/bench_cuda.h"

#include <cstdio>

#include "core/model/layout.h"
#include "core/algorithms/registry.h"
#include "core/engine/traffic.h"

#if RINGVIZ_WITH_CUDA
#include "gpu/backend/cuda_backend.h"
#include "gpu/baselines/device_baselines.h"
#endif

namespace ringviz::cli {

namespace {

std::string format(const char* pattern, double a, double b = 0, double c = 0) {
  char text[160];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

}  // namespace

#if RINGVIZ_WITH_CUDA

std::optional<BenchTarget> cuda_bench_target(const BackendInfo& info, BenchMode mode) {
  if (info.name != "cuda") return std::nullopt;
  BenchTarget target;
  target.name = info.summary;
  const gpu::CudaBackendOptions options = gpu::CudaBackendOptions::from_environment();
  if (mode == BenchMode::step) {
    target.mode_note = "each round is submitted on its own, one stream per rank, and the host waits for it";
  } else {
    target.mode_note = std::string("all rounds submitted together") +
                       (options.use_graphs ? " as one CUDA graph" : " on the rank streams") +
                       (options.pipeline_chunk_bytes
                            ? ", each slot pipelined in chunks of " +
                                  std::to_string(options.pipeline_chunk_bytes >> 10) + " KiB"
                            : std::string(", whole rounds")) +
                       "; the host waits once";
  }
  target.make_backend = [] { return std::unique_ptr<Backend>(gpu::make_cuda_backend()); };
  const int first_gpu = info.gpus.empty() ? 0 : info.gpus.front().index;
  target.copy_bandwidth = [first_gpu](std::uint64_t bytes) {
    return gpu::device_copy_bandwidth(bytes, first_gpu);
  };
  return target;
}

std::vector<std::string> nccl_header_lines(const Config& config, const BackendInfo& info) {
  if (info.name != "cuda") return {};
  const int gpus = static_cast<int>(info.gpus.size());
  if (const std::string why = gpu::nccl_unavailable_reason(gpus); !why.empty())
    return {"# NCCL baseline: not run: " + why};
  if (!is_gather_or_reduce(config.op))
    return {"# NCCL baseline: not run: ringviz times NCCL on allgather, reducescatter and allreduce only"};
  std::vector<std::string> lines = {
      "# NCCL baseline: " + gpu::nccl_version_text() + ", NCCL_ALGO=Ring, one rank on each of " +
      std::to_string(gpus) + " GPUs, same sizes; host wall clock as nccl-tests"};
  if (config.ranks != gpus)
    lines.push_back("# (ringviz runs " + std::to_string(config.ranks) + " ranks on " + std::to_string(gpus) +
                    " GPUs: pass --gpus " + std::to_string(gpus) + " for a like-for-like ring)");
  return lines;
}

std::vector<std::string> nccl_row_lines(const Config& config, const BackendInfo& info,
                                        const BenchRow& row, const BenchSettings& settings) {
  if (info.name != "cuda") return {};
  const int gpus = static_cast<int>(info.gpus.size());
  if (!gpu::nccl_unavailable_reason(gpus).empty() || !is_gather_or_reduce(config.op) || row.count == 0) return {};
  // The same per-rank buffer in bytes as ringviz's row, for NCCL's rank count.
  const std::int64_t count = count_for_bytes(config.op, gpus, config.dtype, row.bytes);
  if (count == 0) return {};
  try {
    const gpu::NcclTiming timing =
        gpu::time_nccl_collective(config.op, config.dtype, config.reduce, count, gpus,
                                  settings.warmup, settings.iterations > 0 ? settings.iterations : 20);
    const double algbw = static_cast<double>(row.bytes) / (timing.microseconds * 1e-6) / 1e9;
    const double busbw = algbw * bus_bandwidth_factor(config.op, gpus);
    return {format("#   nccl ring: time %.1f us, algbw %.2f GB/s, busbw %.2f GB/s", timing.microseconds,
                   algbw, busbw) +
            format("; ringviz busbw / nccl busbw = %.3f", busbw > 0 ? row.busbw_gbps / busbw : 0.0)};
  } catch (const std::exception& error) {
    return {std::string("#   nccl ring: failed: ") + error.what()};
  }
}

#else

std::optional<BenchTarget> cuda_bench_target(const BackendInfo&, BenchMode) { return std::nullopt; }
std::vector<std::string> nccl_header_lines(const Config&, const BackendInfo&) { return {}; }
std::vector<std::string> nccl_row_lines(const Config&, const BackendInfo&, const BenchRow&,
                                        const BenchSettings&) {
  return {};
}

#endif

std::vector<std::string> ring_sent_summary(const Config& config, const BenchRow& row) {
  if (!row.copy_gbps || row.microseconds <= 0) return {};
  Config sized = config;
  sized.count = row.count;
  const SlotLayout layout = make_layout(sized);
  const Schedule schedule = make_schedule(sized);
  const Traffic traffic = compute_traffic(schedule, layout, sized.dtype, sized.ranks);
  double sent = 0;
  for (int rank = 0; rank < sized.ranks; ++rank) sent += static_cast<double>(traffic.total_sent(rank));
  const double sent_gbps = sent / (row.microseconds * 1e-6) / 1e9;
  // The copy baseline counts bytes read + written; a copy "moves" half of that.
  const double copied_gbps = *row.copy_gbps / 2;
  return {format("# ring sent at %.0f MiB per rank: %.2f GB/s by all ranks together", row.bytes / 1048576.0,
                 sent_gbps) +
          format(" = %.3f of the copy's %.2f GB/s of bytes copied", sent_gbps / copied_gbps, copied_gbps)};
}

}  // namespace ringviz::cli
