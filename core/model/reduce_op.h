#pragma once
#include <optional>
#include <string_view>

#include "core/model/enum_table.h"

namespace ringviz {

// avg is computed as sum; the rank that completes a slot divides it by N once.
enum class ReduceOp { sum, prod, max, min, avg };

inline constexpr ReduceOp kAllReduceOps[] = {ReduceOp::sum, ReduceOp::prod, ReduceOp::max,
                                             ReduceOp::min, ReduceOp::avg};
inline constexpr EnumName<ReduceOp> kReduceOpNames[] = {
    {ReduceOp::sum, "sum"}, {ReduceOp::prod, "prod"}, {ReduceOp::max, "max"},
    {ReduceOp::min, "min"}, {ReduceOp::avg, "avg"}};

inline constexpr EnumNamer reduce_op_name{kReduceOpNames};
inline constexpr EnumFinder parse_reduce_op{kReduceOpNames};

}  // namespace ringviz
