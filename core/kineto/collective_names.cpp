#include "core/kineto/collective_names.h"

#include <algorithm>
#include <cctype>

#include "core/algorithms/registry.h"

namespace ringviz {
namespace {

struct NamedOp {
  std::string_view name;
  Op op;
};

// Every spelling seen in PyTorch 1.13 to 2.x traces, with underscores and a leading "_"
// removed before the lookup ("_allgather_base" -> "allgatherbase").
constexpr NamedOp kSteppedNames[] = {
    {"allreduce", Op::allreduce},        {"allreducecoalesced", Op::allreduce},
    {"allgather", Op::allgather},        {"allgatherbase", Op::allgather},
    {"allgatherintotensor", Op::allgather}, {"allgatherintotensorcoalesced", Op::allgather},
    {"allgathercoalesced", Op::allgather},
    {"reducescatter", Op::reducescatter}, {"reducescatterbase", Op::reducescatter},
    {"reducescattertensor", Op::reducescatter}, {"reducescattertensorcoalesced", Op::reducescatter},
    {"reducescattercoalesced", Op::reducescatter},
    {"broadcast", Op::broadcast},        {"broadcastcoalesced", Op::broadcast},
    {"alltoall", Op::alltoall},          {"alltoallbase", Op::alltoall},
    {"alltoallv", Op::alltoall},         {"alltoallsingle", Op::alltoall},
    {"send", Op::sendrecv},              {"recv", Op::sendrecv},
    {"isend", Op::sendrecv},             {"irecv", Op::sendrecv},
    {"sendrecv", Op::sendrecv},          {"recvanysource", Op::sendrecv},
};
constexpr std::string_view kNotData[] = {"wait", "barrier", "monitoredbarrier"};

std::string squeezed(std::string_view name) {
  std::string out;
  for (const char c : name)
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

CollectiveName classify_collective(std::string_view pytorch_name) {
  const std::string key = squeezed(pytorch_name);
  for (const NamedOp& named : kSteppedNames)
    if (named.name == key) return {TracedCollective::stepped, named.op};
  for (const std::string_view name : kNotData)
    if (name == key) return {TracedCollective::not_data, Op::allreduce};
  return {TracedCollective::unsupported, Op::allreduce};
}

Algorithm algorithm_for_library(Op op, std::string_view library_algorithm) {
  if (library_algorithm == "TREE") {
    if (auto tree = find_algorithm("tree"); tree && algorithm_supports(*tree, op)) return *tree;
  }
  for (const char* name : {"ring", "direct"})
    if (auto candidate = find_algorithm(name); candidate && algorithm_supports(*candidate, op)) return *candidate;
  return *find_algorithm("ring");
}

std::optional<DType> dtype_of_pytorch(std::string_view name) {
  if (name.substr(0, 5) == "c10::") name.remove_prefix(5);
  std::string key(name);
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
  if (key == "float" || key == "float32") return DType::f32;
  if (key == "double" || key == "float64") return DType::f64;
  if (key == "half" || key == "float16") return DType::f16;
  if (key == "bfloat16") return DType::bf16;
  if (key == "int" || key == "int32") return DType::i32;
  if (key == "long" || key == "long int" || key == "int64") return DType::i64;
  return std::nullopt;
}

}  // namespace ringviz
