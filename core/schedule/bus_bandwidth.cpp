#include "core/schedule/bus_bandwidth.h"

namespace ringviz {

std::int64_t nccl_tests_size_bytes(Op op, std::int64_t count, DType dtype, int ranks) {
  return count * static_cast<std::int64_t>(dtype_size(dtype)) * (op == Op::allgather ? ranks : 1);
}

double bus_bandwidth_factor(Op op, int ranks) {
  const double pass = ranks > 0 ? static_cast<double>(ranks - 1) / ranks : 0.0;
  if (op == Op::allreduce) return 2.0 * pass;
  // Each byte crosses one link on its way to each receiver, as nccl-tests counts them.
  if (op == Op::broadcast || op == Op::sendrecv) return 1.0;
  return pass;
}

}  // namespace ringviz
