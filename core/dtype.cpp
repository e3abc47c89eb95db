#include "core/dtype.h"

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

std::string_view dtype_name(DType type) {
  switch (type) {
    case DType::f32: return "f32";
    case DType::f64: return "f64";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
    case DType::i32: return "i32";
    case DType::i64: return "i64";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view text) {
  for (DType type : kAllDTypes)
    if (dtype_name(type) == text) return type;
  // The names nccl-tests and PyTorch users type out of habit.
  if (text == "float" || text == "float32") return DType::f32;
  if (text == "double" || text == "float64") return DType::f64;
  if (text == "half" || text == "float16") return DType::f16;
  if (text == "bfloat16") return DType::bf16;
  if (text == "int" || text == "int32") return DType::i32;
  if (text == "int64") return DType::i64;
  return std::nullopt;
}

bool is_floating(DType type) {
  return type != DType::i32 && type != DType::i64;
}

}  // namespace ringviz
