#pragma once
// `ringviz bench`: a collective timed on a backend, one row per buffer size, in the style of
// nccl-tests, plus how much memory traffic the ring moved compared with a plain copy on the
// same target. The table code knows nothing about where buffers live: everything
// target-specific comes through BenchTarget, so a device backend plugs in with its own
// backend factory and its own copy baseline.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/schedule/rounds.h"
#include "core/schedule/bus_bandwidth.h"
#include "core/engine/backend.h"
#include "core/model/buffers.h"
#include "core/model/config.h"
#include "core/model/layout.h"

namespace ringviz {

// step: what the visualiser does, the host waits for the backend after every round.
// fast: all rounds are submitted back to back and the host waits once at the end.
enum class BenchMode { step, fast };
inline constexpr EnumName<BenchMode> kBenchModeNames[] = {
    {BenchMode::step, "step", "", "wait for the backend after every round, as the visualiser does"},
    {BenchMode::fast, "fast", "", "submit all rounds and wait once"},
};

inline constexpr EnumNamer bench_mode_name{kBenchModeNames};
inline constexpr EnumParser parse_bench_mode{kBenchModeNames, "mode"};

struct BenchTarget {
  std::string name;       // shown in the header, e.g. "cpu (2 threads)"
  std::string mode_note;  // why step and fast time the same work, where they do ("" otherwise)
  std::function<std::unique_ptr<Backend>()> make_backend;
  // Bytes read plus bytes written per second by a plain copy of `bytes` bytes in the target's
  // own memory (host memcpy, device-to-device copy). Empty: no baseline for this target.
  std::function<double(std::uint64_t bytes)> copy_bandwidth;
  // name and mode_note in Chinese (`ringviz bench --lang zh`); empty: print the English ones.
  std::string name_zh;
  std::string mode_note_zh;
};

// The host reference: the CPU backend with `threads` workers (0: one per hardware thread) and
// a memcpy baseline spread over the same number of threads.
BenchTarget cpu_bench_target(unsigned threads = 0);

struct BenchSettings {
  Config config;                 // op, ranks, dtype, reduce, order, init; count comes from sizes
  std::vector<std::int64_t> sizes;  // bytes per rank buffer, as in nccl-tests' size column
  int warmup = 1;
  int iterations = 0;            // 0: as many as fit in about half a second (5 to 50)
  BenchMode mode = BenchMode::step;
};

struct BenchRow {
  std::int64_t bytes = 0;        // the per-rank buffer: count x type, x N for AllGather's output
  std::int64_t count = 0;        // elements each GPU starts with (Config::count)
  int iterations = 0;
  double microseconds = 0;       // mean time of one whole collective
  double best_microseconds = 0;  // the fastest of the timed runs
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  std::int64_t wrong = 0;        // output elements that differ from the plain result
  std::uint64_t memory_traffic_bytes = 0;
  double traffic_gbps = 0;       // memory_traffic_bytes over the fastest run
  std::optional<double> copy_gbps;  // the target's copy baseline on `bytes`-sized buffers
  std::optional<double> fraction;   // traffic_gbps / copy_gbps
};

// -b, -e, -f: min, min*f, min*f^2, ... up to max. Throws InputError naming the flag.
std::vector<std::int64_t> bench_sizes(std::int64_t min_bytes, std::int64_t max_bytes,
                                      std::int64_t factor);
// The largest count whose per-rank buffer is at most `bytes` (AllGather's buffer is N blocks).
std::int64_t count_for_bytes(Op op, int ranks, DType dtype, std::int64_t bytes);
// Memory a backend must move to run `schedule`: a reduce step reads two slots and writes one,
// a copy step reads one and writes one, over every transfer of every round.
std::uint64_t ring_memory_traffic_bytes(const Schedule& schedule, const SlotLayout& layout,
                                        DType dtype);
// Output elements of `final_state` (every rank's working buffer after the last round) that
// differ from the plain result computed from `initial`. For the ring: not bit-identical to
// each slot folded rank by rank in the order docs/architecture.md ("Collective semantics")
// gives, without the schedule.
// Other algorithms fold in orders of their own: their integers, max and min must still be
// exact, float sums, products and averages within the rounding N steps may add.
std::int64_t count_wrong_elements(const Config& config, const BufferState& initial,
                                  const BufferState& final_state);
// Host bytes the benchmark holds for `config` beyond the backend's own buffers, in copies of
// the working set (inputs kept for each iteration, the fetched result, the copy baseline).
inline constexpr std::uint64_t kBenchExtraCopies = 3;

BenchRow bench_one_size(Config config, std::int64_t bytes, const BenchTarget& target,
                        const BenchSettings& settings);

}  // namespace ringviz
