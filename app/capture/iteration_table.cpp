#include "app/capture/iteration_table.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <memory>

#include <mpi.h>

#include "app/capture/capture_prediction.h"
#include "app/capture/mpi/library_collectives.h"
#ifdef RINGVIZ_WITH_NCCL
#include "app/capture/nccl/nccl_collectives.h"
#endif
#include "app/capture/mpi/mpi_world.h"
#include "core/engine/backend.h"
#include "core/engine/benchmark.h"
#include "core/engine/session.h"
#include "core/engine/slot_kernels.h"
#include "core/model/half.h"
#include "core/nccl/nccl_text.h"
#include "core/input/initial_values.h"
#include "core/output/terminal_text.h"
#include "core/schedule/pipeline.h"
#include "core/schedule/round_plan.h"
#include "core/algorithms/registry.h"

namespace ringviz::capture {

namespace {

// One size: the inputs on rank 0, this rank's share, and what the in-process engine computes.
struct SizeRun {
  Config config;
  CollectiveShape shape;
  Schedule schedule;
  // What ringviz's own run executes: one slot per piece when pipelined (docs/architecture.md,
  // "Pipelined schedules"); the libraries and the checks keep `shape`.
  CollectiveShape pieces;
  Schedule execution;
  BufferState initial;  // rank 0 only
  ByteBuffer mine;      // this rank's input
};

SizeRun prepare_size(const Config& base, std::int64_t count) {
  SizeRun run;
  run.config = base;
  run.config.count = count;
  run.shape = CollectiveShape{base.dtype, base.reduce, base.ranks, make_layout(run.config)};
  run.schedule = make_schedule(run.config);
  run.pieces = run.shape;
  run.pieces.layout = piece_layout(run.shape.layout, pipeline_shape_of(run.schedule));
  run.execution = execution_schedule(run.schedule);
  run.mine.resize(static_cast<std::size_t>(run.shape.layout.elements_per_rank) * dtype_size(base.dtype));
  if (world_rank() == 0) run.initial = make_initial_state(run.config);
  scatter_from_root(run.initial.ranks, run.mine);
  return run;
}

void run_all_rounds(RankTransport& transport, RoundPlanner& planner, const SizeRun& run) {
  for (const Round& round : run.execution.rounds) transport.execute(planner.plan(round, run.pieces), round, 0);
}

// Elements of `got` whose bits differ from `expected`.
std::int64_t differing_elements(const ByteBuffer& got, const ByteBuffer& expected, std::size_t element) {
  std::int64_t wrong = 0;
  for (std::size_t at = 0; at + element <= expected.size(); at += element)
    wrong += std::memcmp(got.data() + at, expected.data() + at, element) != 0;
  return wrong;
}

// A float element as a double (f16 and bf16 exactly: NCCL reduces them, MPI does not).
double widened(DType dtype, const std::byte* element) {
  const auto load = [&](auto value) {
    std::memcpy(&value, element, sizeof value);
    return value;
  };
  switch (dtype) {
    case DType::f32: return load(float{});
    case DType::f16: return half_to_float(load(Half{}));
    case DType::bf16: return bfloat16_to_float(load(BFloat16{}));
    default: return load(double{});
  }
}

double machine_epsilon(DType dtype) {
  switch (dtype) {
    case DType::f32: return 0x1p-23;
    case DType::f16: return 0x1p-10;
    case DType::bf16: return 0x1p-7;
    default: return 0x1p-52;
  }
}

// The library folds in an order of its own: integers, max and min must be exact, float sums
// and products within the rounding that N steps may add. `reference` is the in-process ring.
std::int64_t library_wrong_elements(const Config& config, const ByteBuffer& got, const ByteBuffer& reference) {
  const bool exact = !is_floating(config.dtype) || config.reduce == ReduceOp::max ||
                     config.reduce == ReduceOp::min || !op_reduces(config.op);
  const std::size_t element = dtype_size(config.dtype);
  if (exact) return differing_elements(got, reference, element);
  std::int64_t wrong = 0;
  const double tolerance = machine_epsilon(config.dtype) * 2.0 * config.ranks;
  for (std::size_t at = 0; at + element <= reference.size(); at += element) {
    const double a = widened(config.dtype, got.data() + at);
    const double b = widened(config.dtype, reference.data() + at);
    const bool close = a == b || std::fabs(a - b) <= tolerance * std::fmax(std::fabs(a), std::fabs(b));
    wrong += !close;
  }
  return wrong;
}

// What rank r must hold at the end in the library convention (library_collectives.h): the
// engine's final buffer, or for ReduceScatter slot r as fully reduced by the engine (on the
// rank that owns it), the only part compared.
ByteBuffer library_expectation(const SizeRun& run, const BufferState& engine_final, int rank) {
  if (run.config.op != Op::reducescatter) return engine_final.ranks[static_cast<std::size_t>(rank)];
  const std::size_t element = dtype_size(run.config.dtype);
  const Slot& slot = run.shape.layout[rank];
  for (int owner = 0; owner < run.config.ranks; ++owner) {
    if (run.schedule.owned_slot[static_cast<std::size_t>(owner)] != rank) continue;
    const std::byte* from = engine_final.ranks[static_cast<std::size_t>(owner)].data() + slot.offset * static_cast<std::int64_t>(element);
    return ByteBuffer(from, from + slot.count * static_cast<std::int64_t>(element));
  }
  return {};
}

// The part of rank r's end buffer library_expectation() describes.
ByteBuffer library_result(const SizeRun& run, const ByteBuffer& got, int rank) {
  if (run.config.op != Op::reducescatter) return got;
  const std::int64_t element = static_cast<std::int64_t>(dtype_size(run.config.dtype));
  const Slot& slot = run.shape.layout[rank];
  return ByteBuffer(got.data() + slot.offset * element, got.data() + (slot.offset + slot.count) * element);
}

struct Row {
  std::string name;
  double seconds = 0;
  std::int64_t wrong = 0;
};

void print_row(const SizeRun& run, std::int64_t bytes, const Row& row, const std::optional<NcclPrediction>& model) {
  const double algbw = static_cast<double>(bytes) / row.seconds / 1e9;
  const double busbw = algbw * bus_bandwidth_factor(run.config.op, run.config.ranks);
  // AllGather and Broadcast reduce nothing: nccl-tests print "none" there too.
  const std::string redop = !op_reduces(run.config.op) ? "none" : std::string(reduce_op_name(run.config.reduce));
  // The model's time, busbw and pick for the size, beside the measured ones.
  char predicted[96];
  if (model)
    std::snprintf(predicted, sizeof predicted, "%10.1f  %8.2f  %-12s", model->seconds * 1e6, model->busbw / 1e9,
                  nccl_pair_text(*model).c_str());
  else
    std::snprintf(predicted, sizeof predicted, "%10s  %8s  %-12s", "-", "-", "-");
  char text[384];
  std::snprintf(text, sizeof text, "%12lld  %12lld  %6s  %6s  %10.1f  %7.2f  %7.2f  %6lld  %s  %s",
                static_cast<long long>(bytes), static_cast<long long>(run.config.count),
                std::string(dtype_name(run.config.dtype)).c_str(), redop.c_str(),
                row.seconds * 1e6, algbw, busbw, static_cast<long long>(row.wrong), predicted, row.name.c_str());
  std::cout << text << std::endl;
}

double slowest_rank(double seconds) {
  double slowest = 0;
  MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

// Every rank's end buffer against the expectation for that rank, counted on rank 0.
std::int64_t gather_wrong(const ByteBuffer& mine, const std::function<std::int64_t(const ByteBuffer&, int)>& judge) {
  std::vector<ByteBuffer> all;
  gather_to_root(mine, all);
  std::int64_t wrong = 0;
  for (std::size_t rank = 0; rank < all.size(); ++rank) wrong += judge(all[rank], static_cast<int>(rank));
  MPI_Bcast(&wrong, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return wrong;
}

}  // namespace

int print_iteration_table(const CaptureOptions& options, RankTransport& transport) {
  const Config& base = options.config;
  const bool root = world_rank() == 0;
  std::vector<std::string> notes;
  std::vector<LibraryCollective> libraries = library_collectives(options.transport, base, notes);
#ifdef RINGVIZ_WITH_NCCL
  if (options.transport == "nccl") libraries = nccl_library_collectives(base, notes);
#endif
  if (root && options.language == Language::zh) {
    std::cout << "# ringviz capture：" << op_name(base.op) << "（" << algorithm_name(base.algorithm) << "，"
              << order_name(base.order) << " 顺序），" << base.ranks << " 个 rank，传输 " << transport.name() << "，"
              << "每个大小先检查一次，再计时 " << options.iterations << " 次\n"
              << "# 时间：最慢 rank 每次集合通信的平均值；busbw（总线带宽）：algbw（算法带宽）x "
              << (base.op == Op::allreduce ? "2(n-1)/n" : base.op == Op::broadcast ? "1" : "(n-1)/n")
              << "；#错误：我们的，与进程内引擎不逐位相同的元素数；库的，超出舍入误差（浮点数）"
                 "或任何偏差（整数、max、min）的元素数\n";
    for (const std::string& note : notes) std::cout << "# " << note << "\n";
    // The heads right-aligned over format_row's columns by display width.
    static constexpr ColumnHead kHeads[] = {{"大小", "(B)", 12},       {"元素数", "(个)", 12}, {"类型", "", 6},
                                            {"归约", "", 6},           {"时间", "(us)", 10},   {"algbw", "(GB/s)", 7},
                                            {"busbw", "(GB/s)", 7}, {"#错误", "", 6},
                                            {"模型时间", "(us)", 10}, {"模型带宽", "(GB/s)", 8}};
    const ColumnHeadLines lines = commented_column_heads(kHeads);
    std::cout << nccl_prediction_note(options.assumed, Language::zh) << "\n"
              << lines.names << "  NCCL 的选择  集合通信\n" << lines.units << "\n";
  } else if (root) {
    std::cout << "# ringviz capture: " << op_name(base.op) << " (" << algorithm_name(base.algorithm) << ", "
              << order_name(base.order) << " order), " << base.ranks << " ranks, transport " << transport.name()
              << ", " << options.iterations << " iterations per size after one checked run\n"
              << "# time: the slowest rank's mean per collective; busbw: algbw x "
              << (base.op == Op::allreduce ? "2(n-1)/n" : base.op == Op::broadcast ? "1" : "(n-1)/n")
              << "; #wrong: ours, elements not bit-identical to the in-process engine; the library's, off it "
                 "beyond rounding (floats) or at all (integers, max, min)\n";
    for (const std::string& note : notes) std::cout << "# " << note << "\n";
    std::cout << nccl_prediction_note(options.assumed, Language::en) << "\n"
              << "#       size         count    type   redop        time    algbw    busbw  #wrong  model time  model bw  "
                 "NCCL pick     collective\n"
              << "#        (B)    (elements)                        (us)   (GB/s)   (GB/s)                (us)    (GB/s)\n";
  }
  std::vector<std::int64_t> counts;
  for (std::int64_t bytes : options.sizes) counts.push_back(count_for_bytes(base.op, base.ranks, base.dtype, bytes));
  if (counts.empty()) counts.push_back(base.count);
  std::int64_t total_wrong = 0;
  RoundPlanner planner;
  for (std::int64_t count : counts) {
    SizeRun run = prepare_size(base, count);
    const std::int64_t bytes = static_cast<std::int64_t>(run.mine.size());
    BufferState engine_final;
    if (root) {
      Session engine(run.config, make_cpu_backend(), SessionOptions{0});
      engine.seek(engine.round_count());
      engine_final = engine.buffers();
    }
    const std::size_t element = dtype_size(base.dtype);
    // Ours: one checked run from the inputs, then the timed repetitions.
    transport.load(run.pieces, world_rank(), run.mine);
    run_all_rounds(transport, planner, run);
    ByteBuffer result;
    transport.fetch(result);
    Row ours{"ringviz " + transport.name() + " " + std::string(algorithm_name(base.algorithm)), 0, 0};
    ours.wrong = gather_wrong(result, [&](const ByteBuffer& got, int rank) {
      return differing_elements(got, engine_final.ranks[static_cast<std::size_t>(rank)], element);
    });
    MPI_Barrier(MPI_COMM_WORLD);
    const double started = MPI_Wtime();
    for (int iteration = 0; iteration < options.iterations; ++iteration) run_all_rounds(transport, planner, run);
    MPI_Barrier(MPI_COMM_WORLD);
    ours.seconds = slowest_rank((MPI_Wtime() - started) / options.iterations);
    const std::optional<NcclPrediction> model = iteration_prediction(base.op, options.assumed, bytes);
    if (root) print_row(run, bytes, ours, model);
    total_wrong += ours.wrong;
    for (const LibraryCollective& library : libraries) {
      ByteBuffer buffer = run.mine;
      Row row{library.name, 0, 0};
      row.seconds = slowest_rank(library.run(run.config, run.shape, buffer, options.iterations));
      row.wrong = gather_wrong(buffer, [&](const ByteBuffer& got, int rank) {
        return library_wrong_elements(run.config, library_result(run, got, rank),
                                      library_expectation(run, engine_final, rank));
      });
      if (root) print_row(run, bytes, row, model);
      total_wrong += row.wrong;
    }
  }
  if (root && options.language == Language::zh)
    std::cout << "# 越界值      ：" << total_wrong << (total_wrong == 0 ? " 通过" : " 失败") << "\n#\n";
  else if (root)
    std::cout << "# Out of bounds values : " << total_wrong << (total_wrong == 0 ? " OK" : " FAILED") << "\n#\n";
  return total_wrong == 0 ? 0 : 1;
}

}  // namespace ringviz::capture
