#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/model/dtype.h"

namespace ringviz {

using ByteBuffer = std::vector<std::byte>;

// Every rank's working buffer, as raw bytes of one element type, on the host. This is what
// snapshots, traces and views read; backends keep their own copies (host or device).
struct BufferState {
  DType dtype = DType::f32;
  std::int64_t elements_per_rank = 0;
  std::vector<ByteBuffer> ranks;

  static BufferState zeros(DType dtype, int ranks, std::int64_t elements_per_rank);

  std::size_t bytes_per_rank() const {
    return static_cast<std::size_t>(elements_per_rank) * dtype_size(dtype);
  }
  template <class T>
  T* data(int rank) { return reinterpret_cast<T*>(ranks[static_cast<std::size_t>(rank)].data()); }
  template <class T>
  const T* data(int rank) const {
    return reinterpret_cast<const T*>(ranks[static_cast<std::size_t>(rank)].data());
  }
  bool operator==(const BufferState& other) const = default;
};

// The value of one element widened for display and JSON: floats as double (f16/bf16 exactly),
// integers exactly as int64.
struct ElementValue {
  bool is_integer = false;
  double real = 0;
  std::int64_t integer = 0;
  bool operator==(const ElementValue& other) const = default;
};
ElementValue read_element(const BufferState& state, int rank, std::int64_t index);
// Stores `value` rounded to the element type (round-to-nearest-even for f16/bf16; integers
// are converted from `integer` when is_integer, otherwise truncated from `real`).
void write_element(BufferState& state, int rank, std::int64_t index, ElementValue value);

}  // namespace ringviz
