#pragma once
// Helpers of the CUDA suite: build configs, and compare CUDA buffers with the CPU backend's
// bit for bit, reporting the first difference with both values' bits.
#include <cstdint>
#include <optional>
#include <string>

#include "core/model/buffers.h"
#include "core/model/config.h"

namespace ringviz::test {

std::string describe(const Config& config);

// "" when identical; otherwise "rank r, element i: cpu 0x.. cuda 0x..".
std::string first_difference(const BufferState& cpu, const BufferState& cuda);

// Inputs that keep every reduction meaningful: random values, except prod, whose factors stay
// near 1 (small non-zero integers) so that 9 of them neither vanish nor wrap too early.
InitPattern inputs_for(const Config& config, std::uint64_t seed);

}  // namespace ringviz::test
