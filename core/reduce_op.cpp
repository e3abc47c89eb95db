#include "core/reduce_op.h"

namespace ringviz {

std::string_view reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::prod: return "prod";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
    case ReduceOp::avg: return "avg";
  }
  return "?";
}

std::optional<ReduceOp> parse_reduce_op(std::string_view text) {
  for (ReduceOp op : kAllReduceOps)
    if (reduce_op_name(op) == text) return op;
  return std::nullopt;
}

}  // namespace ringviz
