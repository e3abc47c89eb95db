#include "core/config.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace ringviz {

namespace {

[[noreturn]] void reject(std::string_view field, std::string_view text, std::string_view allowed) {
  std::ostringstream message;
  message << field << ": unknown value '" << text << "' (expected " << allowed << ")";
  throw InputError(message.str());
}

template <class E, std::size_t N>
std::optional<E> find_by_name(std::string_view text, const E (&all)[N],
                              std::string_view (*name_of)(E)) {
  for (E value : all)
    if (name_of(value) == text) return value;
  return std::nullopt;
}

constexpr Op kAllOps[] = {Op::allgather, Op::reducescatter, Op::allreduce};
// Joins names as a sentence: "a", "a and b", "a, b and c".
std::string join_names(const std::vector<std::string_view>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += std::string(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") +
            std::string(names[i]);
  return text;
}

constexpr Order kAllOrders[] = {Order::seed, Order::nccl};
constexpr BackendChoice kAllBackends[] = {BackendChoice::automatic, BackendChoice::cpu,
                                          BackendChoice::cuda};

}  // namespace

std::string_view op_name(Op op) {
  switch (op) {
    case Op::allgather: return "allgather";
    case Op::reducescatter: return "reducescatter";
    case Op::allreduce: return "allreduce";
  }
  return "?";
}

std::string_view algorithm_name(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::ring: return "ring";
    case Algorithm::naive: return "naive";
    case Algorithm::direct: return "direct";
    case Algorithm::rhd: return "rhd";
    case Algorithm::tree: return "tree";
    case Algorithm::tree_pipelined: return "tree-pipelined";
  }
  return "?";
}

std::string_view order_name(Order order) { return order == Order::seed ? "seed" : "nccl"; }

std::string_view backend_choice_name(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::automatic: return "auto";
    case BackendChoice::cpu: return "cpu";
    case BackendChoice::cuda: return "cuda";
  }
  return "?";
}

Op parse_op(std::string_view text, std::string_view field) {
  if (auto op = find_by_name(text, kAllOps, op_name)) return *op;
  if (text == "all-gather" || text == "all_gather") return Op::allgather;
  if (text == "reduce-scatter" || text == "reduce_scatter") return Op::reducescatter;
  if (text == "all-reduce" || text == "all_reduce") return Op::allreduce;
  reject(field, text, "allgather, reducescatter or allreduce");
}

Algorithm parse_algorithm(std::string_view text, std::string_view field) {
  if (auto algorithm = find_by_name(text, kAllAlgorithms, algorithm_name)) return *algorithm;
  reject(field, text, "ring, naive, direct, rhd, tree or tree-pipelined");
}

bool algorithm_supports(Algorithm algorithm, Op op) {
  const bool tree = algorithm == Algorithm::tree || algorithm == Algorithm::tree_pipelined;
  return !tree || op == Op::allreduce;
}

std::optional<std::string> unsupported_op_message(Algorithm algorithm, Op op) {
  if (algorithm_supports(algorithm, op)) return std::nullopt;
  std::vector<std::string_view> ops, others;
  for (Op candidate : kAllOps)
    if (algorithm_supports(algorithm, candidate)) ops.push_back(op_name(candidate));
  for (Algorithm candidate : kAllAlgorithms)
    if (algorithm_supports(candidate, op)) others.push_back(algorithm_name(candidate));
  return "--algo " + std::string(algorithm_name(algorithm)) + ": supports " + join_names(ops) +
         " only (" + join_names(others) + " support " + std::string(op_name(op)) + ")";
}

Order parse_order(std::string_view text, std::string_view field) {
  if (auto order = find_by_name(text, kAllOrders, order_name)) return *order;
  reject(field, text, "seed or nccl");
}

DType parse_dtype_or_throw(std::string_view text, std::string_view field) {
  if (auto type = parse_dtype(text)) return *type;
  reject(field, text, "f32, f64, f16, bf16, i32 or i64");
}

ReduceOp parse_reduce_or_throw(std::string_view text, std::string_view field) {
  if (auto op = parse_reduce_op(text)) return *op;
  reject(field, text, "sum, prod, max, min or avg");
}

BackendChoice parse_backend_choice(std::string_view text, std::string_view field) {
  if (auto choice = find_by_name(text, kAllBackends, backend_choice_name)) return *choice;
  reject(field, text, "auto, cpu or cuda");
}

InitPattern parse_init(std::string_view text, std::string_view field) {
  InitPattern init;
  if (text == "seed") return init;
  if (text == "rank") { init.kind = InitKind::rank; return init; }
  if (text == "index") { init.kind = InitKind::index; return init; }
  if (text.rfind("random", 0) == 0) {
    init.kind = InitKind::random;
    if (text == "random") return init;
    const std::string_view digits = text.substr(text.find(':') + 1);
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), init.random_seed);
    if (text[6] != ':' || digits.empty() || error != std::errc() ||
        end != digits.data() + digits.size())
      throw InputError(std::string(field) + ": '" + std::string(text) +
                       "' is not random:SEED with SEED a non-negative integer");
    return init;
  }
  if (text.rfind("file:", 0) == 0 && text.size() > 5) {
    init.kind = InitKind::file;
    init.path = std::string(text.substr(5));
    return init;
  }
  reject(field, text, "seed, rank, index, random:SEED or file:PATH");
}

std::string InitPattern::spec() const {
  switch (kind) {
    case InitKind::seed: return "seed";
    case InitKind::rank: return "rank";
    case InitKind::index: return "index";
    case InitKind::random: return "random:" + std::to_string(random_seed);
    case InitKind::file: return "file:" + path;
    case InitKind::values: return "values";
  }
  return "?";
}

std::optional<std::string> validate(const Config& config) {
  if (config.ranks < 1 || config.ranks > kMaxRanks)
    return "gpus: " + std::to_string(config.ranks) + " is out of range (1 to " +
           std::to_string(kMaxRanks) + ")";
  if (config.count < 0 || config.count > kMaxCount)
    return "count: " + std::to_string(config.count) + " is out of range (0 to 2^40 elements)";
  if (auto problem = unsupported_op_message(config.algorithm, config.op)) return problem;
  if (config.init.kind == InitKind::values) {
    if (config.init.values.size() != static_cast<std::size_t>(config.ranks))
      return "init: the value table has " + std::to_string(config.init.values.size()) +
             " rows, expected one per GPU (" + std::to_string(config.ranks) + ")";
    for (std::size_t r = 0; r < config.init.values.size(); ++r)
      if (config.init.values[r].size() != static_cast<std::size_t>(config.count))
        return "init: row " + std::to_string(r) + " of the value table has " +
               std::to_string(config.init.values[r].size()) + " values, expected count (" +
               std::to_string(config.count) + ")";
  }
  return std::nullopt;
}

void validate_or_throw(const Config& config) {
  if (auto problem = validate(config)) throw InputError(*problem);
}

std::int64_t buffer_elements(const Config& config) {
  return config.op == Op::allgather ? config.count * config.ranks : config.count;
}

std::uint64_t working_set_bytes(const Config& config) {
  return static_cast<std::uint64_t>(buffer_elements(config)) * config.ranks *
         dtype_size(config.dtype);
}

std::uint64_t available_host_memory_bytes() {
  // MemAvailable counts reclaimable cache too, which is what an allocation can really get.
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * page_size : UINT64_MAX;
}

void check_fits_in_memory(const Config& config, std::uint64_t extra_copies) {
  // Guard the multiplication: 256 ranks x 2^40 elements x 8 bytes overflows 64 bits.
  const long double needed = static_cast<long double>(buffer_elements(config)) * config.ranks *
                             dtype_size(config.dtype) * (1 + extra_copies);
  const std::uint64_t available = available_host_memory_bytes();
  if (needed > static_cast<long double>(available)) {
    std::ostringstream message;
    message.precision(3);
    message << "count: " << config.count << " elements of " << dtype_name(config.dtype)
            << " on " << config.ranks << " GPUs need " << needed / 1e9
            << " GB of buffers but only " << available / 1e9
            << " GB of memory is available; choose a smaller --count or fewer --gpus";
    throw InputError(message.str());
  }
}

}  // namespace ringviz
