#include "core/model/dtype.h"

namespace ringviz {

std::size_t dtype_size(DType type) {
  switch (type) {
    case DType::f32: return 4;
    case DType::f64: return 8;
    case DType::f16: return 2;
    case DType::bf16: return 2;
    case DType::i32: return 4;
    case DType::i64: return 8;
  }
  return 0;
}

static_assert(spellings_are_unique(kDTypeNames) && lists_exactly(kDTypeNames, kAllDTypes));

bool is_floating(DType type) {
  return type != DType::i32 && type != DType::i64;
}

}  // namespace ringviz
