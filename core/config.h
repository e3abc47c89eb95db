#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.h"
#include "core/reduce_op.h"

namespace ringviz {

enum class Op { allgather, reducescatter, allreduce };
// ring: the default. naive: everyone through GPU 0. direct: every pair at once. rhd:
// recursive halving / doubling (Rabenseifner). tree: binary-tree reduce then broadcast of the
// whole buffer; tree_pipelined: the same tree, one slot per hop per round.
enum class Algorithm { ring, naive, direct, rhd, tree, tree_pipelined };
inline constexpr Algorithm kAllAlgorithms[] = {Algorithm::ring, Algorithm::naive,
                                               Algorithm::direct, Algorithm::rhd,
                                               Algorithm::tree, Algorithm::tree_pipelined};
// seed: the article's tables (rank r sends slot r - t); nccl: NCCL's reduce-scatter, where
// rank r ends up owning slot r.
enum class Order { seed, nccl };
enum class InitKind { seed, rank, index, random, file, values };
enum class BackendChoice { automatic, cpu, cuda };

inline constexpr int kMaxRanks = 256;
// Far above anything a host can hold; the real limit is checked against free memory.
inline constexpr std::int64_t kMaxCount = std::int64_t{1} << 40;

// Bad user input (a flag, a file, a value out of range). The message names the field or the
// file position and, where it helps, the allowed values.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct InitPattern {
  InitKind kind = InitKind::seed;
  std::uint64_t random_seed = 0;           // random:SEED
  std::string path;                        // file:PATH
  std::vector<std::vector<double>> values; // values: one row per rank (the GUI's table)

  std::string spec() const;  // as typed on the command line: "seed", "random:7", "file:x.json"
};

struct Config {
  Op op = Op::allreduce;
  Algorithm algorithm = Algorithm::ring;
  Order order = Order::seed;
  int ranks = 4;
  std::int64_t count = 8;  // elements each GPU starts with (DESIGN section 2)
  DType dtype = DType::f32;
  ReduceOp reduce = ReduceOp::sum;
  InitPattern init;
};

std::string_view op_name(Op op);
std::string_view algorithm_name(Algorithm algorithm);
std::string_view order_name(Order order);
std::string_view backend_choice_name(BackendChoice choice);

// Each parser throws InputError naming `field` (e.g. "--op") and the accepted values.
Op parse_op(std::string_view text, std::string_view field = "op");
Algorithm parse_algorithm(std::string_view text, std::string_view field = "algorithm");
// Whether `algorithm` has a schedule for `op` (tree and tree-pipelined: allreduce only).
bool algorithm_supports(Algorithm algorithm, Op op);
// "--algo tree: supports allreduce only (ring, naive, direct and rhd support reducescatter)";
// nullopt when the pair is supported.
std::optional<std::string> unsupported_op_message(Algorithm algorithm, Op op);
Order parse_order(std::string_view text, std::string_view field = "order");
DType parse_dtype_or_throw(std::string_view text, std::string_view field = "dtype");
ReduceOp parse_reduce_or_throw(std::string_view text, std::string_view field = "reduce");
InitPattern parse_init(std::string_view text, std::string_view field = "init");
BackendChoice parse_backend_choice(std::string_view text, std::string_view field = "backend");

// Range checks on every field; nullopt when valid, else one sentence naming the field and
// the allowed range.
std::optional<std::string> validate(const Config& config);
void validate_or_throw(const Config& config);

// Elements in one rank's working buffer (N slots; see layout.h).
std::int64_t buffer_elements(const Config& config);
// Bytes the collective's buffers need on the host (every rank's working buffer).
std::uint64_t working_set_bytes(const Config& config);
// Refuses, before anything is allocated, a configuration whose buffers would not fit in the
// memory this machine has available. Throws InputError naming --count and the limit.
void check_fits_in_memory(const Config& config, std::uint64_t extra_copies = 1);
std::uint64_t available_host_memory_bytes();

}  // namespace ringviz
