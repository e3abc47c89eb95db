#pragma once
#include <optional>
#include <string_view>

namespace ringviz {

// avg is computed as sum; the rank that completes a slot divides it by N once.
enum class ReduceOp { sum, prod, max, min, avg };

inline constexpr ReduceOp kAllReduceOps[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::max,
                                             ReduceOp::min, ReduceOp::avg};

std::string_view reduce_op_name(ReduceOp op);
std::optional<ReduceOp> parse_reduce_op(std::string_view text);

}  // namespace ringviz
