#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

#include "core/model/enum_table.h"

namespace ringviz {

// Element types a collective can run on. f16/bf16 are stored as 16-bit patterns and computed
// in f32 (see half.h).
enum class DType { f32, f64, f16, bf16, i32, i64 };

inline constexpr DType kAllDTypes[] = {DType::f32, DType::f64, DType::f16,
                                       DType::bf16, DType::i32, DType::i64};
// The aliases are the names nccl-tests and PyTorch users type out of habit.
inline constexpr EnumName<DType> kDTypeNames[] = {
    {DType::f32, "f32", "float float32"}, {DType::f64, "f64", "double float64"},
    {DType::f16, "f16", "half float16"}, {DType::bf16, "bf16", "bfloat16"},
    {DType::i32, "i32", "int int32"}, {DType::i64, "i64", "int64"}};

std::size_t dtype_size(DType type);
inline constexpr EnumNamer dtype_name{kDTypeNames};
inline constexpr EnumFinder parse_dtype{kDTypeNames};
bool is_floating(DType type);

}  // namespace ringviz
