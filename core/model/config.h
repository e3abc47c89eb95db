#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/buffers.h"
#include "core/model/dtype.h"
#include "core/model/enum_table.h"
#include "core/model/input_error.h"
#include "core/model/reduce_op.h"

namespace ringviz {

// broadcast and alltoall move data without reducing it; sendrecv is a point-to-point transfer,
// named so that a recorded job can say what it did, and run by no algorithm (validate() says so).
enum class Op { allgather, reducescatter, allreduce, broadcast, alltoall, sendrecv };
inline constexpr EnumName<Op> kOpNames[] = {
    {Op::allgather, "allgather", "all-gather all_gather", "", "AllGather"},
    {Op::reducescatter, "reducescatter", "reduce-scatter reduce_scatter", "", "ReduceScatter"},
    {Op::allreduce, "allreduce", "all-reduce all_reduce", "", "AllReduce"},
    {Op::broadcast, "broadcast", "bcast", "", "Broadcast"},
    {Op::alltoall, "alltoall", "all-to-all all_to_all", "", "AllToAll"},
    {Op::sendrecv, "sendrecv", "send-recv send recv", "", "Send/Recv"},
};
// The three collectives of the source article's ring, which every algorithm but the trees runs.
constexpr bool is_gather_or_reduce(Op op) {
  return op == Op::allgather || op == Op::reducescatter || op == Op::allreduce;
}
// Whether the op combines values with --reduce; the others only copy them.
constexpr bool op_reduces(Op op) { return op == Op::reducescatter || op == Op::allreduce; }
// Which algorithm runs: declared here without its values, which the registry's list defines
// (core/algorithms/algorithm_list.h) together with everything else about each one.
enum class Algorithm : std::uint8_t;
// seed: the source article's tables (rank r sends slot r - t); nccl: NCCL's reduce-scatter, where
// rank r ends up owning slot r.
enum class Order { seed, nccl };
inline constexpr EnumName<Order> kOrderNames[] = {
    {Order::seed, "seed", "", "the source article's tables: rank r sends slot r-t"},
    {Order::nccl, "nccl", "", "rank r ends owning slot r, as NCCL does"},
};
// values: a table of numbers per rank (the GUI's editor, a lesson's arrays), never typed.
enum class InitKind { seed, rank, index, random, file, values };
// The patterns typed on the command line, as --help shows them; random and file take an
// argument after the colon (see parse_init).
inline constexpr EnumName<InitKind> kTypedInitNames[] = {
    {InitKind::seed, "seed"}, {InitKind::rank, "rank"}, {InitKind::index, "index"},
    {InitKind::random, "random:SEED"}, {InitKind::file, "file:PATH"}};
enum class BackendChoice { automatic, cpu, cuda };
inline constexpr EnumName<BackendChoice> kBackendChoiceNames[] = {
    {BackendChoice::automatic, "auto"}, {BackendChoice::cpu, "cpu"}, {BackendChoice::cuda, "cuda"}};

inline constexpr int kMaxRanks = 256;
// NCCL's own limit on channels; more slices than 64 cut a slot finer than anything teaches.
inline constexpr int kMaxChannels = 32;
inline constexpr int kMaxSlices = 64;
// Far above anything a host can hold; the real limit is checked against free memory.
inline constexpr std::int64_t kMaxCount = std::int64_t{1} << 40;

struct InitPattern {
  InitKind kind = InitKind::seed;
  std::uint64_t random_seed = 0;           // random:SEED
  std::string path;                        // file:PATH
  // values: one row per rank (the GUI's table, --init values:, a lesson's arrays), each number
  // exact as written (core/model/checked_value.h); checked against the dtype by check_init_values.
  std::vector<std::vector<ElementValue>> values;

  std::string spec() const;  // as typed on the command line: "seed", "random:7", "file:x.json"
};

struct Config {
  Op op = Op::allreduce;
  Algorithm algorithm{};  // the ring (core/algorithms/algorithm_list.h)
  Order order = Order::seed;
  int ranks = 4;
  std::int64_t count = 8;  // elements each GPU starts with (docs/architecture.md, "Collective semantics")
  DType dtype = DType::f32;
  ReduceOp reduce = ReduceOp::sum;
  InitPattern init;
  // 1 and 1: the source article's lock-step rounds. More: NCCL's pipelined ring (core/schedule/pipeline.h).
  int channels = 1;
  int slices = 1;
  // Broadcast's source GPU, 0 to ranks - 1 (0: NCCL's and MPI's usual root). The other ops have
  // no root and take only 0 (validate_fields).
  int root = 0;
  // AllToAll with uneven splits (PyTorch's all_to_all_single with split sizes, an MoE layer's
  // dispatch): splits[s * ranks + d] elements go from GPU s to GPU d, so row s is GPU s's input
  // split sizes and column d GPU d's output split sizes. Empty: N equal blocks of count / N.
  // GPU s sends the first row-sum of its `count` elements; count is at least every row's sum.
  std::vector<std::int64_t> splits;
};

// An AllToAll whose blocks differ in size (Config::splits): each GPU's buffer then holds a
// block for every (sender, receiver) pair (core/model/layout.h).
inline bool uneven_all_to_all(const Config& config) {
  return config.op == Op::alltoall && !config.splits.empty();
}
// Elements GPU `sender` sends to GPU `receiver` under Config::splits.
inline std::int64_t split_of(const Config& config, int sender, int receiver) {
  return config.splits[static_cast<std::size_t>(sender) * static_cast<std::size_t>(config.ranks) +
                       static_cast<std::size_t>(receiver)];
}
// GPU `sender`'s row of Config::splits summed: the elements of its input that it sends.
std::int64_t split_row_sum(const Config& config, int sender);
// The largest row's sum: the smallest count that holds every GPU's share of the splits.
std::int64_t largest_split_row(const Config& config);
// Config::splits as --splits takes it, "3,1/0,2": rows by `row_separator`, blocks by ','; past
// `most_rows` rows, the first of them and "…" (for sentences; --splits takes them all).
std::string splits_text(const Config& config, std::string_view row_separator = "/", int most_rows = kMaxRanks);


inline constexpr EnumNamer op_name{kOpNames};
inline constexpr EnumNamer op_display_name{kOpNames, true};  // "AllGather", "ReduceScatter" ...
inline constexpr EnumNamer order_name{kOrderNames};
inline constexpr EnumNamer backend_choice_name{kBackendChoiceNames};

// Each parser throws InputError naming `field` (e.g. "--op") and the accepted values.
inline constexpr EnumParser parse_op{kOpNames, "op"};
inline constexpr EnumParser parse_order{kOrderNames, "order"};
inline constexpr EnumParser parse_dtype_or_throw{kDTypeNames, "dtype"};
inline constexpr EnumParser parse_reduce_or_throw{kReduceOpNames, "reduce"};
InitPattern parse_init(std::string_view text, std::string_view field = "init");
// Every number of a value table (InitKind::values) must fit `dtype` as an init file's must:
// throws InputError "<field>: values: GPU 1, element 0: 3000000000 does not fit i32 (...)".
// Nothing to check for the other patterns.
void check_init_values(const InitPattern& init, DType dtype, std::string_view field = "init");
inline constexpr EnumParser parse_backend_choice{kBackendChoiceNames, "backend"};

// Range checks on every field, the algorithm's ops aside (validate() in
// core/algorithms/registry.h checks both); nullopt when valid, else one sentence naming the
// field and the allowed range.
std::optional<std::string> validate_fields(const Config& config);

// Elements in one rank's working buffer (N slots; see layout.h).
std::int64_t buffer_elements(const Config& config);
// How many of rank `rank`'s `count` input elements its buffer takes: all, but for AllToAll,
// whose N equal blocks leave the last count % N out, and whose uneven splits take the rank's
// row sum.
std::int64_t input_elements_taken(const Config& config, int rank);
// Bytes the collective's buffers need on the host (every rank's working buffer).
std::uint64_t working_set_bytes(const Config& config);
// Refuses, before anything is allocated, a configuration whose buffers would not fit in the
// memory this machine has available. Throws InputError naming --count and the limit.
void check_fits_in_memory(const Config& config, std::uint64_t extra_copies = 1);

// What this process can really allocate: the machine's MemAvailable, or less where the
// process's own address-space or data limit leaves less; `source` says which, as the end of
// "only 2.1 GB <source>".
struct MemoryHeadroom {
  std::uint64_t bytes = 0;
  const char* source = "";
};
MemoryHeadroom memory_headroom();
std::uint64_t available_host_memory_bytes();

}  // namespace ringviz
