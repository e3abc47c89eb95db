#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

namespace ringviz {

// Element types a collective can run on. f16/bf16 are stored as 16-bit patterns and computed
// in f32 (see half.h).
enum class DType { f32, f64, f16, bf16, i32, i64 };

inline constexpr DType kAllDTypes[] = {DType::f32, DType::f64, DType::f16,
                                       DType::bf16, DType::i32, DType::i64};

std::size_t dtype_size(DType type);
std::string_view dtype_name(DType type);
std::optional<DType> parse_dtype(std::string_view text);
bool is_floating(DType type);

}  // namespace ringviz
