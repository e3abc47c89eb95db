// The NCCL transport's engine (gpu/nccl/nccl_rank_engine.h) against the CPU backend: one
// thread per rank, each with its own GPU and NCCL rank, stepping the same rounds a CPU session
// steps, bit for bit after every round. NCCL refuses two ranks on one GPU, so these need two
// GPUs and libnccl; elsewhere they say so and pass.
#include <doctest/doctest.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/engine/session.h"
#include "core/model/layout.h"
#include "core/input/initial_values.h"
#include "core/schedule/rank_exchange.h"
#include "gpu/device/cuda_devices.h"
#include "gpu/nccl/nccl_rank_engine.h"
#include "tests/gpu/compare.h"
#include "tests/support/config_builder.h"

using ringviz::test::ConfigBuilder;

namespace ringviz {
namespace {

// Ranks the machine can run, or 0 (after saying why) when fewer than two.
int ranks_available() {
  if (const gpu::NcclLibraryState library = gpu::nccl_library_state(); !library.usable) {
    MESSAGE("NCCL engine not tested: " << library.reason);
    return 0;
  }
  const int gpus = static_cast<int>(gpu::probe_cuda().devices.size());
  if (gpus < 2) MESSAGE("NCCL engine not tested: it needs two GPUs, " << gpus << " visible");
  return gpus < 2 ? 0 : std::min(gpus, 4);
}

// Every config of `configs` (all with the same rank count) stepped on one NCCL engine per rank,
// one thread each: buffers[c][r] is every rank's buffer after round r + 1 of config c.
std::vector<std::vector<BufferState>> run_on_engines(const std::vector<Config>& configs) {
  const int ranks = configs.front().ranks;
  std::vector<std::vector<BufferState>> buffers;
  std::vector<CollectiveShape> shapes;
  std::vector<Schedule> schedules;
  std::vector<BufferState> initials;
  for (const Config& config : configs) {
    schedules.push_back(make_schedule(config));
    shapes.push_back({config.dtype, config.reduce, ranks, make_layout(config)});
    initials.push_back(make_initial_state(config));
    buffers.emplace_back(schedules.back().rounds.size(), initials.back());
  }
  const gpu::NcclUniqueIdBytes id = gpu::make_nccl_unique_id();
  std::mutex failure_lock;
  std::exception_ptr failure;
  std::vector<std::thread> threads;
  for (int rank = 0; rank < ranks; ++rank)
    threads.emplace_back([&, rank] {
      try {
        gpu::NcclRankEngine engine(rank, ranks, rank, id);
        RoundPlanner planner;
        RankExchange exchange;
        const auto at = static_cast<std::size_t>(rank);
        for (std::size_t c = 0; c < configs.size(); ++c) {
          engine.load(shapes[c], initials[c].ranks[at]);
          for (std::size_t r = 0; r < schedules[c].rounds.size(); ++r) {
            const RoundPlan& plan = planner.plan(schedules[c].rounds[r], shapes[c]);
            plan_rank_exchange(plan, rank, exchange);
            engine.post(plan, exchange);
            engine.wait_for_arrivals();
            engine.fold(plan);
            engine.fetch(buffers[c][r].ranks[at]);
          }
        }
      } catch (...) {
        std::lock_guard lock(failure_lock);
        if (!failure) failure = std::current_exception();
      }
    });
  for (std::thread& thread : threads) thread.join();
  if (failure) std::rethrow_exception(failure);
  return buffers;
}

// "" when the CPU backend holds `after_round` after every round of `config`, else the first
// difference.
std::string first_difference_from_cpu(const Config& config, const std::vector<BufferState>& after_round) {
  Session cpu(config, make_cpu_backend(1));
  for (std::size_t r = 0; r < after_round.size(); ++r) {
    cpu.step_forward();
    const std::string difference = test::first_difference(cpu.buffers(), after_round[r]);
    if (!difference.empty()) return "after round " + std::to_string(r + 1) + ": " + difference;
  }
  return "";
}

TEST_CASE("NCCL ranks in threads match the CPU backend after every round, for every op, algorithm, type and reduction") {
  const int ranks = ranks_available();
  std::uint64_t seed = 1;
  for (int n = 2; n <= ranks; ++n) {
    std::vector<Config> configs;
    for (Algorithm algorithm : kAllAlgorithms)
      for (Op op : {Op::allreduce, Op::reducescatter, Op::allgather})
        for (DType dtype : kAllDTypes)
          for (ReduceOp reduce : kAllReduceOps) {
            if (!algorithm_supports(algorithm, op)) continue;
            if (op == Op::allgather && reduce != ReduceOp::sum) continue;
            Config config = ConfigBuilder().algorithm(algorithm).op(op).ranks(n);
            // f32 with fewer elements than ranks: empty slots, skipped by both ends alike.
            config.count = dtype == DType::f32 ? n - 1 : 1031;
            config.dtype = dtype;
            config.reduce = reduce;
            config.init = test::inputs_for(config, seed++);
            configs.push_back(config);
          }
    const std::vector<std::vector<BufferState>> buffers = run_on_engines(configs);
    for (std::size_t c = 0; c < configs.size(); ++c) {
      const std::string difference = first_difference_from_cpu(configs[c], buffers[c]);
      CHECK_MESSAGE(difference.empty(), test::describe(configs[c]) << ": " << difference);
    }
  }
}

}  // namespace
}  // namespace ringviz
