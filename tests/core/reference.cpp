#include "tests/core/reference.h"

#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <type_traits>

#include "core/model/half.h"

namespace ringviz::test {

namespace {

// How the reference computes on each storage type: halves widen to float and are rounded
// back after every operation, as the collective semantics ask; the rest compute as themselves.
template <class T>
struct Plain {
  using C = T;
  static C widen(T value) { return value; }
  static T narrow(C value) { return value; }
};
template <>
struct Plain<Half> {
  using C = float;
  static C widen(Half value) { return half_to_float(value); }
  static Half narrow(C value) { return half_from_float(value); }
};
template <>
struct Plain<BFloat16> {
  using C = float;
  static C widen(BFloat16 value) { return bfloat16_to_float(value); }
  static BFloat16 narrow(C value) { return bfloat16_from_float(value); }
};

template <class T>
T load(const ByteBuffer& bytes, std::int64_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
  return value;
}

// Whole buffers are converted once, so the loops below index plain arrays (the suite also
// runs unoptimised under the sanitizers, where per-element helpers dominate).
template <class T>
std::vector<T> typed(const ByteBuffer& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

template <class T>
ByteBuffer bytes_of(const T* values, std::size_t count) {
  ByteBuffer bytes(count * sizeof(T));
  if (count) std::memcpy(bytes.data(), values, bytes.size());
  return bytes;
}

template <class T>
std::vector<std::vector<T>> typed_all(const std::vector<ByteBuffer>& buffers) {
  std::vector<std::vector<T>> all;
  for (const ByteBuffer& bytes : buffers) all.push_back(typed<T>(bytes));
  return all;
}

// incoming (+) local. Integer sum and product wrap (two's complement), computed unsigned so
// the wrap is defined.
template <class C>
C combine(ReduceOp op, C incoming, C local) {
  if constexpr (std::is_integral_v<C>) {
    using U = std::make_unsigned_t<C>;
    if (op == ReduceOp::sum || op == ReduceOp::avg)
      return static_cast<C>(static_cast<U>(incoming) + static_cast<U>(local));
    if (op == ReduceOp::prod) return static_cast<C>(static_cast<U>(incoming) * static_cast<U>(local));
  } else {
    if (op == ReduceOp::sum || op == ReduceOp::avg) return incoming + local;
    if (op == ReduceOp::prod) return incoming * local;
  }
  if (op == ReduceOp::max) return local < incoming ? incoming : local;
  return incoming < local ? incoming : local;
}

// The GPU that ends up with slot `slot` in the ring's ReduceScatter: seed order leaves rank r
// with slot r + 1, nccl order with slot r.
int ring_owner(const Config& config, int slot) {
  const int n = config.ranks;
  return config.order == Order::seed ? (slot + n - 1) % n : slot;
}

template <class T>
std::vector<ByteBuffer> fold_order_typed(const Config& config, const std::vector<ByteBuffer>& inputs, FoldOrder order,
                                         const std::vector<int>& owned) {
  using P = Plain<T>;
  using C = typename P::C;
  const int n = config.ranks;
  std::vector<ByteBuffer> outputs(static_cast<std::size_t>(n));
  if (config.op == Op::allgather) {
    ByteBuffer gathered;
    gathered.reserve(static_cast<std::size_t>(n) * inputs.front().size());
    for (const ByteBuffer& input : inputs) gathered.insert(gathered.end(), input.begin(), input.end());
    return {std::move(gathered)};
  }
  const std::vector<std::int64_t> sizes = plain_slot_sizes(config.count, n);
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
  for (int s = 0; s < n; ++s) offsets[s + 1] = offsets[s] + sizes[s];

  const std::vector<std::vector<T>> x = typed_all<T>(inputs);
  std::vector<T> reduced(static_cast<std::size_t>(config.count));
  for (int slot = 0; slot < n; ++slot) {
    // The ring: the partial result starts at GPU s (seed) or s + 1 (nccl) and goes up. The
    // bidirectional ring: the same for the first half of the slot (the longer half when the slot
    // is odd); the second half starts one below the slot's owner and goes down to it.
    const int ring_first = config.order == Order::seed ? slot : (slot + 1) % n;
    const int down_first = (ring_owner(config, slot) + n - 1) % n;
    const std::int64_t first_half = (sizes[slot] + 1) / 2;
    for (std::int64_t i = offsets[slot]; i < offsets[slot + 1]; ++i) {
      const bool down = order == FoldOrder::bidirectional_ring && i - offsets[slot] >= first_half;
      const bool from_owner = order == FoldOrder::switch_from_owner;
      const int first = order == FoldOrder::rank_order ? 0 : from_owner ? slot : down ? down_first : ring_first;
      const int step = down ? n - 1 : 1;
      T value = x[first][i];
      for (int hop = 1; hop < n; ++hop) {
        const C part = P::widen(x[(first + hop * step) % n][i]);
        // The switch's part arrives as the incoming operand; the ring's partial result does.
        value = P::narrow(from_owner ? combine<C>(config.reduce, part, P::widen(value))
                                     : combine<C>(config.reduce, P::widen(value), part));
      }
      if (config.reduce == ReduceOp::avg && n > 1)
        value = P::narrow(static_cast<C>(P::widen(value) / static_cast<C>(n)));
      reduced[static_cast<std::size_t>(i)] = value;
    }
  }
  if (config.op == Op::allreduce) return {bytes_of(reduced.data(), reduced.size())};
  for (int rank = 0; rank < n; ++rank) {
    // Seed order leaves rank r with slot r + 1, nccl order with slot r; other algorithms say.
    const int kept = !owned.empty() ? owned[static_cast<std::size_t>(rank)] : config.order == Order::seed ? (rank + 1) % n : rank;
    outputs[rank] = bytes_of(reduced.data() + offsets[kept], static_cast<std::size_t>(sizes[kept]));
  }
  return outputs;
}

long double unit_roundoff(DType dtype) {
  switch (dtype) {
    case DType::f32: return std::ldexp(1.0L, -24);
    case DType::f64: return std::ldexp(1.0L, -53);
    case DType::f16: return std::ldexp(1.0L, -11);
    case DType::bf16: return std::ldexp(1.0L, -8);
    default: return 0;
  }
}

// Results that underflow are off by up to half the smallest subnormal, whatever their size.
long double underflow_allowance(DType dtype) {
  switch (dtype) {
    case DType::f32: return std::numeric_limits<float>::denorm_min();
    case DType::f64: return std::numeric_limits<double>::denorm_min();
    case DType::f16: return std::ldexp(1.0L, -24);
    case DType::bf16: return std::ldexp(1.0L, -133);
    default: return 0;
  }
}

template <class T>
double worst_error_typed(const Config& config, const std::vector<ByteBuffer>& inputs,
                         const std::vector<ByteBuffer>& outputs, const std::vector<int>& owned) {
  using P = Plain<T>;
  const int n = config.ranks;
  const long double u = unit_roundoff(config.dtype);
  const long double tiny = underflow_allowance(config.dtype);
  const std::vector<std::int64_t> sizes = plain_slot_sizes(config.count, n);
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
  for (int s = 0; s < n; ++s) offsets[s + 1] = offsets[s] + sizes[s];

  // The exact result and the error allowed there, once per element of the whole buffer.
  const std::vector<std::vector<T>> x = typed_all<T>(inputs);
  std::vector<long double> exact(static_cast<std::size_t>(config.count));
  std::vector<long double> allowed(static_cast<std::size_t>(config.count));
  for (std::int64_t i = 0; i < config.count; ++i) {
    long double result = 0;
    long double magnitude = 0;
    if (config.reduce == ReduceOp::prod) result = 1;
    if (config.reduce == ReduceOp::max) result = -std::numeric_limits<long double>::infinity();
    if (config.reduce == ReduceOp::min) result = std::numeric_limits<long double>::infinity();
    for (int source = 0; source < n; ++source) {
      const long double value = P::widen(x[source][i]);
      magnitude += std::fabs(value);
      switch (config.reduce) {
        case ReduceOp::sum:
        case ReduceOp::avg: result += value; break;
        case ReduceOp::prod: result *= value; break;
        case ReduceOp::max: result = std::fmax(result, value); break;
        case ReduceOp::min: result = std::fmin(result, value); break;
      }
    }
    long double bound = 0;
    switch (config.reduce) {
      case ReduceOp::sum: bound = 2 * n * u * magnitude + tiny; break;
      case ReduceOp::avg:
        result /= n;
        bound = 2 * u * magnitude + 2 * u * std::fabs(result) + tiny;
        break;
      case ReduceOp::prod: bound = 2 * n * u * std::fabs(result) + tiny; break;
      case ReduceOp::max:
      case ReduceOp::min: bound = 0; break;
    }
    exact[static_cast<std::size_t>(i)] = result;
    allowed[static_cast<std::size_t>(i)] = bound;
  }

  double worst = 0;
  for (int rank = 0; rank < n; ++rank) {
    std::int64_t begin = 0;
    if (config.op == Op::reducescatter)
      begin = offsets[!owned.empty() ? owned[static_cast<std::size_t>(rank)]
                      : config.order == Order::seed ? (rank + 1) % n
                                                    : rank];
    const std::vector<T> produced = typed<T>(outputs[rank]);
    for (std::size_t j = 0; j < produced.size(); ++j) {
      const auto i = static_cast<std::size_t>(begin) + j;
      const long double error = std::fabs(P::widen(produced[j]) - exact[i]);
      const double ratio = error == 0         ? 0.0
                           : allowed[i] == 0 ? std::numeric_limits<double>::infinity()
                                             : static_cast<double>(error / allowed[i]);
      if (!(ratio <= worst)) worst = ratio;  // NaN counts as the worst
    }
  }
  return worst;
}

template <class T>
std::string render(const ByteBuffer& bytes, std::int64_t index) {
  const T value = load<T>(bytes, index);
  std::ostringstream text;
  text << std::setprecision(17);
  if constexpr (std::is_integral_v<T>) {
    text << value;
  } else {
    text << static_cast<double>(Plain<T>::widen(value));
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    text << " (0x" << std::hex << bits << ")";
  }
  return text.str();
}

std::string render_element(DType dtype, const ByteBuffer& bytes, std::int64_t index) {
  switch (dtype) {
    case DType::f32: return render<float>(bytes, index);
    case DType::f64: return render<double>(bytes, index);
    case DType::f16: return render<Half>(bytes, index);
    case DType::bf16: return render<BFloat16>(bytes, index);
    case DType::i32: return render<std::int32_t>(bytes, index);
    case DType::i64: return render<std::int64_t>(bytes, index);
  }
  return "?";
}

template <class T>
ByteBuffer row_as(const std::vector<double>& row) {
  std::vector<T> values(row.size());
  for (std::size_t i = 0; i < row.size(); ++i) {
    if constexpr (std::is_same_v<T, Half>) values[i] = half_from_float(static_cast<float>(row[i]));
    else if constexpr (std::is_same_v<T, BFloat16>) values[i] = bfloat16_from_float(static_cast<float>(row[i]));
    else values[i] = static_cast<T>(row[i]);
  }
  return bytes_of(values.data(), values.size());
}

}  // namespace

std::vector<ByteBuffer> inputs_of(const Config& config, const BufferState& initial) {
  const std::size_t element = dtype_size(config.dtype);
  std::vector<ByteBuffer> inputs;
  for (int rank = 0; rank < config.ranks; ++rank) {
    // AllGather's buffer is N blocks of `count`; rank r's input sits in block r.
    const std::size_t begin =
        (config.op == Op::allgather ? static_cast<std::size_t>(rank * config.count) : 0) * element;
    const ByteBuffer& buffer = initial.ranks[static_cast<std::size_t>(rank)];
    // AllToAll's buffer holds its N blocks alone: the count % N left over are not in it.
    const std::int64_t used = config.op == Op::alltoall ? config.count / config.ranks * config.ranks : config.count;
    inputs.emplace_back(buffer.begin() + static_cast<std::ptrdiff_t>(begin),
                        buffer.begin() + static_cast<std::ptrdiff_t>(begin + static_cast<std::size_t>(used) * element));
  }
  return inputs;
}

std::vector<ByteBuffer> all_to_all_outputs(const Config& config, const std::vector<ByteBuffer>& inputs) {
  const std::size_t element = dtype_size(config.dtype);
  if (!config.splits.empty()) {
    // Uneven: GPU r receives, from each sender s in turn, the split[s][r] elements that follow
    // s's blocks for GPUs 0 .. r-1 in s's input (all_to_all_single's output).
    const auto n = static_cast<std::size_t>(config.ranks);
    std::vector<ByteBuffer> outputs(n);
    for (std::size_t receiver = 0; receiver < n; ++receiver)
      for (std::size_t sender = 0; sender < n; ++sender) {
        std::size_t before = 0;
        for (std::size_t d = 0; d < receiver; ++d) before += static_cast<std::size_t>(config.splits[sender * n + d]);
        const auto first = inputs[sender].begin() + static_cast<std::ptrdiff_t>(before * element);
        const auto length = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(config.splits[sender * n + receiver]) * element);
        outputs[receiver].insert(outputs[receiver].end(), first, first + length);
      }
    return outputs;
  }
  const std::size_t block_bytes = static_cast<std::size_t>(config.count / config.ranks) * dtype_size(config.dtype);
  std::vector<ByteBuffer> outputs(static_cast<std::size_t>(config.ranks));
  for (std::size_t receiver = 0; receiver < outputs.size(); ++receiver)
    for (std::size_t sender = 0; sender < outputs.size(); ++sender) {
      const auto block = inputs[sender].begin() + static_cast<std::ptrdiff_t>(receiver * block_bytes);
      outputs[receiver].insert(outputs[receiver].end(), block, block + static_cast<std::ptrdiff_t>(block_bytes));
    }
  return outputs;
}

std::vector<ByteBuffer> broadcast_outputs(const Config& config, const std::vector<ByteBuffer>& inputs) {
  return std::vector<ByteBuffer>(static_cast<std::size_t>(config.ranks), inputs[static_cast<std::size_t>(config.root)]);
}

std::vector<ByteBuffer> inputs_from_values(const Config& config) {
  std::vector<ByteBuffer> inputs;
  for (const std::vector<ElementValue>& numbers : config.init.values) {
    std::vector<double> row;
    for (const ElementValue& number : numbers) row.push_back(number.real);
    switch (config.dtype) {
      case DType::f32: inputs.push_back(row_as<float>(row)); break;
      case DType::f64: inputs.push_back(row_as<double>(row)); break;
      case DType::f16: inputs.push_back(row_as<Half>(row)); break;
      case DType::bf16: inputs.push_back(row_as<BFloat16>(row)); break;
      case DType::i32: inputs.push_back(row_as<std::int32_t>(row)); break;
      case DType::i64: inputs.push_back(row_as<std::int64_t>(row)); break;
    }
  }
  return inputs;
}

double representable(DType dtype, double value) {
  switch (dtype) {
    case DType::f32: return static_cast<float>(value);
    case DType::f64: return value;
    case DType::f16: return half_to_float(half_from_float(static_cast<float>(value)));
    case DType::bf16: return bfloat16_to_float(bfloat16_from_float(static_cast<float>(value)));
    case DType::i32: return static_cast<double>(static_cast<std::int32_t>(value));
    case DType::i64: return static_cast<double>(static_cast<std::int64_t>(value));
  }
  return value;
}

std::vector<std::int64_t> plain_slot_sizes(std::int64_t count, int ranks) {
  std::vector<std::int64_t> sizes;
  for (int slot = 0; slot < ranks; ++slot) sizes.push_back(count / ranks + (slot < count % ranks ? 1 : 0));
  return sizes;
}

std::optional<FoldOrder> documented_fold_order(std::string_view algorithm_name) {
  if (algorithm_name == "ring") return FoldOrder::ring;
  if (algorithm_name == "bidir-ring") return FoldOrder::bidirectional_ring;
  if (algorithm_name == "nvls") return FoldOrder::switch_from_owner;
  return std::nullopt;
}

std::vector<ByteBuffer> fold_order_outputs(const Config& config, const std::vector<ByteBuffer>& inputs,
                                           FoldOrder order, const std::vector<int>& owned) {
  switch (config.dtype) {
    case DType::f32: return fold_order_typed<float>(config, inputs, order, owned);
    case DType::f64: return fold_order_typed<double>(config, inputs, order, owned);
    case DType::f16: return fold_order_typed<Half>(config, inputs, order, owned);
    case DType::bf16: return fold_order_typed<BFloat16>(config, inputs, order, owned);
    case DType::i32: return fold_order_typed<std::int32_t>(config, inputs, order, owned);
    case DType::i64: return fold_order_typed<std::int64_t>(config, inputs, order, owned);
  }
  return {};
}

std::vector<ByteBuffer> ring_order_outputs(const Config& config, const std::vector<ByteBuffer>& inputs) {
  return fold_order_outputs(config, inputs, FoldOrder::ring);
}

double worst_error_ratio(const Config& config, const std::vector<ByteBuffer>& inputs,
                         const std::vector<ByteBuffer>& outputs, const std::vector<int>& owned) {
  if (config.op == Op::allgather) return 0;  // copies only: the bit-exact check covers them
  switch (config.dtype) {
    case DType::f32: return worst_error_typed<float>(config, inputs, outputs, owned);
    case DType::f64: return worst_error_typed<double>(config, inputs, outputs, owned);
    case DType::f16: return worst_error_typed<Half>(config, inputs, outputs, owned);
    case DType::bf16: return worst_error_typed<BFloat16>(config, inputs, outputs, owned);
    default: return 0;
  }
}

Difference first_difference(DType dtype, const std::vector<ByteBuffer>& actual,
                            const std::vector<ByteBuffer>& expected) {
  const bool shared = expected.size() == 1;  // one output every rank must hold
  if (!shared && actual.size() != expected.size())
    return {std::to_string(actual.size()) + " ranks", std::to_string(expected.size()) + " ranks"};
  const auto element = static_cast<std::int64_t>(dtype_size(dtype));
  for (std::size_t rank = 0; rank < actual.size(); ++rank) {
    const ByteBuffer& got = actual[rank];
    const ByteBuffer& want = shared ? expected.front() : expected[rank];
    const std::string where = "GPU " + std::to_string(rank);
    if (got.size() != want.size())
      return {where + ": " + std::to_string(got.size() / element) + " elements",
              where + ": " + std::to_string(want.size() / element) + " elements"};
    // memcmp: comparing std::byte vectors with == goes byte by byte in unoptimised builds.
    if (got.empty() || std::memcmp(got.data(), want.data(), got.size()) == 0) continue;
    for (std::int64_t i = 0; i * element < static_cast<std::int64_t>(got.size()); ++i)
      if (std::memcmp(got.data() + i * element, want.data() + i * element, static_cast<std::size_t>(element)) != 0)
        return {where + " [" + std::to_string(i) + "] = " + render_element(dtype, got, i),
                where + " [" + std::to_string(i) + "] = " + render_element(dtype, want, i)};
  }
  return {};
}

std::string describe(const Config& config) {
  return std::string(op_name(config.op)) + " " + std::string(order_name(config.order)) +
         " N=" + std::to_string(config.ranks) + " count=" + std::to_string(config.count) + " " +
         std::string(dtype_name(config.dtype)) + " " + std::string(reduce_op_name(config.reduce)) +
         " init=" + config.init.spec() + (config.op == Op::broadcast ? " root=" + std::to_string(config.root) : "");
}

}  // namespace ringviz::test
