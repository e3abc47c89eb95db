#include "core/engine/benchmark.h"
#include "core/schedule/schedule.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <type_traits>

#include "core/algorithms/registry.h"
#include "core/engine/element_math.h"
#include "core/input/initial_values.h"
#include "core/engine/thread_pool.h"
#include "core/model/storage_type.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Auto iteration count: enough repetitions for a steady mean, and for a fastest run that a
// busy host did not interrupt, without making the big sizes on a small host take minutes.
constexpr double kAutoSecondsPerSize = 0.5;
constexpr int kAutoMinIterations = 5;
constexpr int kAutoMaxIterations = 50;
// The copy baseline is the machine at its best: copies are timed in batches long enough for
// the clock (kCopyBatchSeconds), batches are repeated for kCopyMinSeconds and at least
// kCopyMinBatches times, and the fastest batch counts. On a busy host that keeps other
// programs' interruptions out of the baseline, so the fraction errs on the low side.
constexpr double kCopyBatchSeconds = 0.002;
constexpr double kCopyMinSeconds = 0.05;
constexpr int kCopyMinBatches = 5;

// ---- the plain result (no schedule): every slot folded rank by rank in ring order ----

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Algorithms other than the ring fold each element in an order of their own
// (docs/architecture.md, "Collective semantics", fixes only the ring's), so their float sums, products and averages are checked against
// the exact reduction with the error that N roundings in the type may add: 2 N u per unit of
// sum |x| (u the unit roundoff), plus the smallest subnormal for results that underflow.
template <class T>
double unit_roundoff() {
  if constexpr (std::is_same_v<T, Half>) return 0x1.0p-11;
  else if constexpr (std::is_same_v<T, BFloat16>) return 0x1.0p-8;
  else return std::numeric_limits<T>::epsilon() / 2;
}
template <class T>
long double smallest_subnormal() {
  if constexpr (std::is_same_v<T, Half>) return 0x1.0p-24L;
  else if constexpr (std::is_same_v<T, BFloat16>) return 0x1.0p-133L;
  else return std::numeric_limits<T>::denorm_min();
}

template <class T, ReduceOp Op>
bool within_rounding(const Config& config, const BufferState& initial, std::int64_t i, T value) {
  using Math = ComputeOf<T>;
  const int n = config.ranks;
  long double exact = Op == ReduceOp::prod ? 1 : 0;
  long double magnitude = 0;
  for (int rank = 0; rank < n; ++rank) {
    const long double x = Math::load(initial.data<T>(rank)[i]);
    exact = Op == ReduceOp::prod ? exact * x : exact + x;
    magnitude += std::fabs(x);
  }
  const long double u = unit_roundoff<T>();
  long double allowed = 2 * n * u * (Op == ReduceOp::prod ? std::fabs(exact) : magnitude);
  if constexpr (Op == ReduceOp::avg) {
    exact /= n;
    allowed = allowed / n + 2 * u * std::fabs(exact);
  }
  const long double got = Math::load(value);
  if (std::isnan(exact) || std::isinf(exact)) return std::isnan(exact) ? std::isnan(got) : got == exact;
  return std::fabs(got - exact) <= allowed + smallest_subnormal<T>();
}

template <class T, ReduceOp Op>
std::int64_t count_wrong_reduced(const Config& config, const SlotLayout& layout,
                                 const BufferState& initial, const BufferState& final_state) {
  using Math = ComputeOf<T>;
  const int n = config.ranks;
  // Bit for bit where the fold order is the documented one (the ring) or does not matter (integers
  // wrap the same in any order; max and min pick one of the inputs).
  const bool ring = config.algorithm == Algorithm::ring;
  const bool order_free = !std::is_floating_point_v<typename Math::type> || Op == ReduceOp::max ||
                          Op == ReduceOp::min;
  // ReduceScatter keeps each slot on one rank only (for the ring: rank s - 1 in seed order,
  // rank s in nccl order); AllReduce on every rank.
  std::vector<int> holder(static_cast<std::size_t>(n));
  const Schedule schedule = ring ? Schedule{} : make_schedule(config);
  for (int rank = 0; rank < n; ++rank) {
    const int slot = ring ? ring_owned_slot(config.order, rank, n)
                          : schedule.owned_slot[static_cast<std::size_t>(rank)];
    holder[static_cast<std::size_t>(slot)] = rank;
  }
  const auto matches = [&](T got, T want, std::int64_t i) {
    if (ring) return same_bits(got, want);
    if (order_free) {
      const auto a = Math::load(got);
      const auto b = Math::load(want);
      return a == b || (a != a && b != b);  // a NaN in, a NaN out, whichever payload
    }
    return within_rounding<T, Op>(config, initial, i, got);
  };

  std::int64_t wrong = 0;
  for (int slot = 0; slot < n; ++slot) {
    // In seed order slot s's partial result starts at rank s, in nccl order at rank s + 1; each
    // receiver folds incoming (+) local (docs/architecture.md, "Collective semantics").
    const int first = config.order == Order::seed ? slot : (slot + 1) % n;
    const Slot& where = layout[slot];
    for (std::int64_t i = where.offset; i < where.offset + where.count; ++i) {
      T value = initial.data<T>(first)[i];
      for (int step = 1; step < n; ++step)
        value = reduce_element<Op, T>(value, initial.data<T>((first + step) % n)[i]);
      // A single rank never completes a slot by receiving, so nothing divides it.
      if constexpr (Op == ReduceOp::avg)
        if (n > 1) value = divide_element(value, n);
      if (config.op == Op::reducescatter) {
        const int rank = holder[static_cast<std::size_t>(slot)];
        wrong += matches(final_state.data<T>(rank)[i], value, i) ? 0 : 1;
      } else {
        for (int rank = 0; rank < n; ++rank)
          wrong += matches(final_state.data<T>(rank)[i], value, i) ? 0 : 1;
      }
    }
  }
  return wrong;
}

template <class T>
std::int64_t count_wrong_typed(const Config& config, const SlotLayout& layout,
                               const BufferState& initial, const BufferState& final_state) {
  switch (config.reduce) {
    case ReduceOp::sum: return count_wrong_reduced<T, ReduceOp::sum>(config, layout, initial, final_state);
    case ReduceOp::prod: return count_wrong_reduced<T, ReduceOp::prod>(config, layout, initial, final_state);
    case ReduceOp::max: return count_wrong_reduced<T, ReduceOp::max>(config, layout, initial, final_state);
    case ReduceOp::min: return count_wrong_reduced<T, ReduceOp::min>(config, layout, initial, final_state);
    case ReduceOp::avg: return count_wrong_reduced<T, ReduceOp::avg>(config, layout, initial, final_state);
  }
  return 0;
}

// AllGather: block b of every rank must be rank b's input, byte for byte.
std::int64_t count_wrong_gathered(const Config& config, const SlotLayout& layout,
                                  const BufferState& initial, const BufferState& final_state) {
  const std::size_t element = dtype_size(config.dtype);
  std::int64_t wrong = 0;
  for (int rank = 0; rank < config.ranks; ++rank) {
    for (int block = 0; block < config.ranks; ++block) {
      const std::size_t offset = static_cast<std::size_t>(layout[block].offset) * element;
      const std::byte* got = final_state.ranks[static_cast<std::size_t>(rank)].data() + offset;
      const std::byte* want = initial.ranks[static_cast<std::size_t>(block)].data() + offset;
      const std::size_t bytes = static_cast<std::size_t>(layout[block].count) * element;
      if (std::memcmp(got, want, bytes) == 0) continue;  // the common case, checked in one go
      for (std::size_t at = 0; at < bytes; at += element)
        wrong += std::memcmp(got + at, want + at, element) == 0 ? 0 : 1;
    }
  }
  return wrong;
}

// AllToAll: slot i of GPU r must be GPU i's slot r (its block meant for r), byte for byte;
// with uneven splits, each (sender, receiver) slot as the sender holds it.
std::int64_t count_wrong_all_to_all(const Config& config, const SlotLayout& layout, const BufferState& initial,
                                    const BufferState& final_state) {
  const std::size_t element = dtype_size(config.dtype);
  std::int64_t wrong = 0;
  const bool uneven = uneven_all_to_all(config);
  for (int rank = 0; rank < config.ranks; ++rank)
    for (int sender = 0; sender < config.ranks; ++sender) {
      // Uneven splits: GPU r's slot (sender, r) must be the sender's slot of the same pair.
      const Slot& arrived = layout[uneven ? pair_slot(config.ranks, sender, rank) : sender];
      const Slot& sent = uneven ? arrived : layout[rank];
      const std::byte* got = final_state.ranks[static_cast<std::size_t>(rank)].data() +
                             static_cast<std::size_t>(arrived.offset) * element;
      const std::byte* want = initial.ranks[static_cast<std::size_t>(sender)].data() +
                              static_cast<std::size_t>(sent.offset) * element;
      const std::size_t bytes = static_cast<std::size_t>(arrived.count) * element;
      if (std::memcmp(got, want, bytes) == 0) continue;
      for (std::size_t at = 0; at < bytes; at += element) wrong += std::memcmp(got + at, want + at, element) == 0 ? 0 : 1;
    }
  return wrong;
}

// Broadcast copies the root's buffer unchanged to every GPU: each must hold it bit for bit.
std::int64_t count_wrong_broadcast(const Config& config, const BufferState& initial, const BufferState& final_state) {
  const std::size_t element = dtype_size(config.dtype);
  const ByteBuffer& want = initial.ranks[static_cast<std::size_t>(config.root)];
  std::int64_t wrong = 0;
  for (const ByteBuffer& got : final_state.ranks) {
    if (got.size() == want.size() && std::memcmp(got.data(), want.data(), want.size()) == 0) continue;
    for (std::size_t at = 0; at < want.size(); at += element)
      wrong += at + element <= got.size() && std::memcmp(got.data() + at, want.data() + at, element) == 0 ? 0 : 1;
  }
  return wrong;
}

// One memcpy of `bytes` split into `pieces` contiguous parts, one per thread.
void split_copy(ThreadPool& pool, std::byte* dst, const std::byte* src, std::uint64_t bytes) {
  const std::size_t pieces = pool.size();
  const std::uint64_t piece = (bytes + pieces - 1) / pieces;
  pool.parallel_for(pieces, [&](std::size_t index) {
    const std::uint64_t begin = std::min<std::uint64_t>(bytes, index * piece);
    const std::uint64_t end = std::min<std::uint64_t>(bytes, begin + piece);
    std::memcpy(dst + begin, src + begin, static_cast<std::size_t>(end - begin));
  });
}

// Seconds per copy in the fastest of several batches.
double seconds_per_copy(ThreadPool& pool, std::byte* dst, const std::byte* src, std::uint64_t bytes) {
  split_copy(pool, dst, src, bytes);  // warm the caches and the pages
  const auto time_batch = [&](std::uint64_t batch) {
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < batch; ++i) split_copy(pool, dst, src, bytes);
    return seconds_since(start);
  };
  std::uint64_t batch = 1;
  double elapsed = time_batch(batch);
  while (elapsed < kCopyBatchSeconds && batch < (std::uint64_t{1} << 30)) {
    batch *= 2;
    elapsed = time_batch(batch);
  }
  double best = elapsed;
  double spent = elapsed;
  for (int round = 1; round < kCopyMinBatches || spent < kCopyMinSeconds; ++round) {
    elapsed = time_batch(batch);
    best = std::min(best, elapsed);
    spent += elapsed;
  }
  return best / static_cast<double>(batch);
}

// Host memcpy bandwidth (bytes read + bytes written per second) on a buffer of `bytes`: the
// better of one thread and all `threads`, since small buffers copy fastest without a handoff.
double host_copy_bandwidth(unsigned threads, std::uint64_t bytes) {
  if (bytes == 0) return 0;
  // Default-initialised storage: the memset below touches every page exactly once.
  std::unique_ptr<std::byte[]> src(new std::byte[bytes]);
  std::unique_ptr<std::byte[]> dst(new std::byte[bytes]);
  std::memset(src.get(), 1, bytes);
  std::memset(dst.get(), 0, bytes);
  double best = std::numeric_limits<double>::max();
  for (unsigned used : {1u, threads}) {
    ThreadPool pool(used);
    best = std::min(best, seconds_per_copy(pool, dst.get(), src.get(), bytes));
    if (used == threads) break;
  }
  // Reading the result keeps the copies observable.
  volatile std::byte sink = dst[bytes - 1];
  (void)sink;
  return 2.0 * static_cast<double>(bytes) / best;
}

}  // namespace

static_assert(spellings_are_unique(kBenchModeNames));


BenchTarget cpu_bench_target(unsigned threads) {
  const unsigned used = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  BenchTarget target;
  target.name = "cpu (" + std::to_string(used) + (used == 1 ? " thread)" : " threads)");
  target.mode_note =
      "the CPU backend finishes each round before execute() returns, so step and fast time "
      "the same work";
  target.name_zh = "cpu（" + std::to_string(used) + " 个线程）";
  target.mode_note_zh = "CPU 后端在 execute() 返回前完成每一轮，所以 step 与 fast 计时的是同样的工作";
  target.make_backend = [used] { return make_cpu_backend(used); };
  target.copy_bandwidth = [used](std::uint64_t bytes) { return host_copy_bandwidth(used, bytes); };
  return target;
}

std::vector<std::int64_t> bench_sizes(std::int64_t min_bytes, std::int64_t max_bytes,
                                      std::int64_t factor) {
  if (min_bytes < 1)
    throw InputError("--minbytes: " + std::to_string(min_bytes) + " is out of range (at least 1 byte)");
  if (max_bytes < min_bytes)
    throw InputError("--maxbytes: " + std::to_string(max_bytes) + " is below --minbytes (" +
                     std::to_string(min_bytes) + ")");
  if (factor < 2) throw InputError("--stepfactor: " + std::to_string(factor) + " is out of range (at least 2)");
  std::vector<std::int64_t> sizes;
  for (std::int64_t size = min_bytes;; size *= factor) {
    sizes.push_back(size);
    if (size > max_bytes / factor) break;  // the next one would pass max (or overflow)
  }
  return sizes;
}

std::int64_t count_for_bytes(Op op, int ranks, DType dtype, std::int64_t bytes) {
  const auto per_element =
      static_cast<std::int64_t>(dtype_size(dtype)) * (op == Op::allgather ? ranks : 1);
  return bytes / per_element;
}

std::uint64_t ring_memory_traffic_bytes(const Schedule& schedule, const SlotLayout& layout,
                                        DType dtype) {
  std::uint64_t total = 0;
  const PipelineShape shape = pipeline_shape_of(schedule);
  for (const Round& round : schedule.rounds)
    for (const Transfer& transfer : round.transfers) {
      const std::uint64_t slot_bytes =
          static_cast<std::uint64_t>(transfer_span(transfer, layout, shape).count) * dtype_size(dtype);
      total += slot_bytes * (transfer.kind == TransferKind::reduce ? 3 : 2);
    }
  return total;
}

std::int64_t count_wrong_elements(const Config& config, const BufferState& initial,
                                  const BufferState& final_state) {
  const SlotLayout layout = make_layout(config);
  if (config.op == Op::allgather) return count_wrong_gathered(config, layout, initial, final_state);
  if (config.op == Op::broadcast) return count_wrong_broadcast(config, initial, final_state);
  if (config.op == Op::alltoall) return count_wrong_all_to_all(config, layout, initial, final_state);
  return with_storage_type(config.dtype, [&](auto* type) {
    return count_wrong_typed<storage_of<decltype(type)>>(config, layout, initial, final_state);
  });
}

BenchRow bench_one_size(Config config, std::int64_t bytes, const BenchTarget& target,
                        const BenchSettings& settings) {
  config.count = count_for_bytes(config.op, config.ranks, config.dtype, bytes);
  validate_or_throw(config);
  const SlotLayout layout = make_layout(config);
  const Schedule schedule = make_schedule(config);
  // A pipelined collective runs wave by wave on one slot per piece (docs/architecture.md,
  // "Pipelined schedules").
  const Schedule execution = execution_schedule(schedule);
  const BufferState initial = make_initial_state(config);
  std::unique_ptr<Backend> backend = target.make_backend();
  backend->load({config.dtype, config.reduce, config.ranks,
                 piece_layout(layout, pipeline_shape_of(schedule))},
                initial);

  const auto run_collective = [&] {
    for (const Round& round : execution.rounds) {
      backend->execute(round);
      if (settings.mode == BenchMode::step) backend->synchronize();
    }
    if (settings.mode == BenchMode::fast) backend->synchronize();
  };
  // Every timed run starts from the inputs: repeated sums would drift into infinities or
  // (prod) subnormals, whose arithmetic is far slower on most CPUs than what we mean to time.
  const auto timed_run = [&] {
    backend->store(initial);
    backend->synchronize();
    const auto start = Clock::now();
    run_collective();
    return seconds_since(start);
  };

  BenchRow row;
  row.count = config.count;
  row.bytes = nccl_tests_size_bytes(config.op, config.count, config.dtype, config.ranks);

  // Correctness first, outside any timing.
  run_collective();
  {
    BufferState result;
    backend->fetch(result);
    row.wrong = count_wrong_elements(config, initial, result);
  }

  for (int i = 0; i < settings.warmup; ++i) timed_run();
  double total = 0;
  double best = std::numeric_limits<double>::max();
  const auto measure = [&] {
    const double seconds = timed_run();
    total += seconds;
    best = std::min(best, seconds);
    ++row.iterations;
  };
  if (settings.iterations > 0) {
    while (row.iterations < settings.iterations) measure();
  } else {
    do measure();
    while ((total < kAutoSecondsPerSize || row.iterations < kAutoMinIterations) &&
           row.iterations < kAutoMaxIterations);
  }
  const double seconds = total / row.iterations;
  row.microseconds = seconds * 1e6;
  row.best_microseconds = best * 1e6;
  const auto per_second = [](double amount, double time) { return time > 0 ? amount / time : 0.0; };
  row.algbw_gbps = per_second(static_cast<double>(row.bytes), seconds) / 1e9;
  row.busbw_gbps = row.algbw_gbps * bus_bandwidth_factor(config.op, config.ranks);
  row.memory_traffic_bytes = ring_memory_traffic_bytes(schedule, layout, config.dtype);
  // The fastest run against the fastest copy: both at their best, so that another program
  // briefly taking a core during one of the two measurements does not decide the fraction.
  row.traffic_gbps = per_second(static_cast<double>(row.memory_traffic_bytes), best) / 1e9;

  backend.reset();  // free the collective's buffers before the baseline allocates its own
  if (target.copy_bandwidth && row.bytes > 0) {
    row.copy_gbps = target.copy_bandwidth(static_cast<std::uint64_t>(row.bytes)) / 1e9;
    if (*row.copy_gbps > 0) row.fraction = row.traffic_gbps / *row.copy_gbps;
  }
  return row;
}

}  // namespace ringviz
