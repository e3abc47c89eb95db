#include "core/model/checked_value.h"
#include "tests/gpu/compare.h"

#include <cstdio>
#include <cstring>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/input/initial_values.h"

namespace ringviz::test {

std::string describe(const Config& config) {
  std::ostringstream text;
  text << op_name(config.op) << " " << algorithm_name(config.algorithm) << " order "
       << order_name(config.order) << ", " << config.ranks << " ranks, count " << config.count << ", "
       << dtype_name(config.dtype) << " " << reduce_op_name(config.reduce) << ", init "
       << config.init.spec();
  return text.str();
}

std::string first_difference(const BufferState& cpu, const BufferState& cuda) {
  if (cpu.dtype != cuda.dtype || cpu.elements_per_rank != cuda.elements_per_rank ||
      cpu.ranks.size() != cuda.ranks.size())
    return "the two states have different shapes";
  const std::size_t element = dtype_size(cpu.dtype);
  for (std::size_t rank = 0; rank < cpu.ranks.size(); ++rank) {
    const ByteBuffer& a = cpu.ranks[rank];
    const ByteBuffer& b = cuda.ranks[rank];
    if (a == b) continue;
    for (std::size_t at = 0; at < a.size(); at += element) {
      if (std::memcmp(a.data() + at, b.data() + at, element) == 0) continue;
      std::uint64_t x = 0, y = 0;
      std::memcpy(&x, a.data() + at, element);
      std::memcpy(&y, b.data() + at, element);
      char text[160];
      std::snprintf(text, sizeof text, "rank %zu, element %zu: cpu 0x%llx, cuda 0x%llx", rank,
                    at / element, static_cast<unsigned long long>(x), static_cast<unsigned long long>(y));
      return text;
    }
  }
  return "";
}

InitPattern inputs_for(const Config& config, std::uint64_t seed) {
  InitPattern init;
  if (config.reduce != ReduceOp::prod) {
    init.kind = InitKind::random;
    init.random_seed = seed;
    return init;
  }
  init.kind = InitKind::values;
  constexpr double kSmallIntegers[] = {-3, -2, -1, 1, 2, 3};
  for (int rank = 0; rank < config.ranks; ++rank) {
    std::vector<double> row;
    for (std::int64_t i = 0; i < config.count; ++i) {
      const std::uint64_t bits = splitmix64_at(seed, static_cast<std::uint64_t>(rank * config.count + i));
      if (is_floating(config.dtype))
        row.push_back(1.0 + (static_cast<double>(bits >> 11) * 0x1.0p-53 - 0.5) / 4.0);
      else
        row.push_back(kSmallIntegers[bits % 6]);
    }
    init.values.push_back(numbers_of_reals({std::move(row)}).front());
  }
  return init;
}

}  // namespace ringviz::test
