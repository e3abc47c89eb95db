#pragma once
// The one place a DType becomes the C++ type its elements are stored as. A generic lambda
// written once then serves all six types:
//   with_storage_type(dtype, [&](auto* type) { using T = storage_of<decltype(type)>; ... });
// (the pointer is always null; it only carries the type).
#include <cstdint>
#include <type_traits>

#include "core/model/half.h"
#include "core/model/dtype.h"

namespace ringviz {

template <class Fn>
decltype(auto) with_storage_type(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::f64: return fn(static_cast<double*>(nullptr));
    case DType::f16: return fn(static_cast<Half*>(nullptr));
    case DType::bf16: return fn(static_cast<BFloat16*>(nullptr));
    case DType::i32: return fn(static_cast<std::int32_t*>(nullptr));
    case DType::i64: return fn(static_cast<std::int64_t*>(nullptr));
    case DType::f32: break;
  }
  return fn(static_cast<float*>(nullptr));
}

// The type a `type` argument of with_storage_type's lambda stands for.
template <class Pointer>
using storage_of = std::remove_const_t<std::remove_pointer_t<Pointer>>;

}  // namespace ringviz
