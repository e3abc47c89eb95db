#include "core/training/transformer_presets.h"

#include <algorithm>
#include <string>

#include "core/model/input_error.h"

namespace ringviz {

namespace {

// Parameter counts are the exact totals of the released checkpoints (embeddings included);
// shapes are the configurations their papers and model cards publish.
// Llama blocks: SwiGLU MLPs and no dropout; Llama 3 adds grouped-query attention with 8
// key/value heads (the released configurations' num_key_value_heads and intermediate_size).
constexpr TransformerShape kTransformerPresets[] = {
    {"llama2-7b", 6'738'415'616, 32, 4096, 32, 32'000,
     "Touvron et al. 2023, Llama 2 (Table 1 sizes; shape and count from the released 7B checkpoint; "
     "SwiGLU 11008 wide, no dropout)",
     32, 11'008, true, false},
    {"llama3-8b", 8'030'261'248, 32, 4096, 32, 128'256,
     "Meta 2024, The Llama 3 Herd of Models (8B: 32 layers, width 4096, 32 heads, 8 key/value heads, "
     "SwiGLU 14336 wide, 128K vocabulary)",
     8, 14'336, true, false},
    {"llama3-70b", 70'553'706'496, 80, 8192, 64, 128'256,
     "Meta 2024, The Llama 3 Herd of Models (70B: 80 layers, width 8192, 64 heads, 8 key/value heads, "
     "SwiGLU 28672 wide, 128K vocabulary)",
     8, 28'672, true, false},
    {"gpt3-175b", 175'000'000'000, 96, 12288, 96, 50'257,
     "Brown et al. 2020, Language Models are Few-Shot Learners (Table 2.1; GPT-2's 50257-token BPE; "
     "a GPT block: MLP 4h wide, dropout as Korthikanti et al. count it)",
     96, 4 * 12'288, false, true},
};

// Dense BF16 tensor-core peaks from NVIDIA's data sheets (without sparsity).
constexpr Accelerator kAccelerators[] = {
    {"a100", "A100 SXM", 312e12, "pcie4", "NVIDIA A100 data sheet: 312 TFLOP/s BF16 dense"},
    {"h100", "H100 SXM", 989e12, "pcie5", "NVIDIA H100 data sheet: 989 TFLOP/s BF16 dense (SXM)"},
};

template <class T>
const T& find_by_name(std::span<const T> table, std::string_view name, std::string_view field,
                      std::string_view extra) {
  std::string names;
  for (const T& entry : table) {
    if (entry.name == name) return entry;
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  }
  if (!extra.empty()) names += " or " + std::string(extra);
  throw InputError(std::string(field) + ": unknown value '" + std::string(name) + "' (expected " +
                   names + ")");
}

}  // namespace

std::int64_t kv_heads_of(const TransformerShape& shape) { return shape.kv_heads > 0 ? shape.kv_heads : shape.heads; }

std::int64_t ffn_of(const TransformerShape& shape) { return shape.ffn > 0 ? shape.ffn : 4 * shape.hidden; }

std::int64_t largest_layer_parameters(const TransformerShape& shape) {
  const std::int64_t embedding = shape.vocab * shape.hidden;
  // GPT blocks project Q, K and V in one module (3·h²); Llama blocks in three (the largest h²).
  const std::int64_t attention = shape.hidden * shape.hidden * (shape.gated_mlp ? 1 : 3);
  const std::int64_t mlp = shape.hidden * ffn_of(shape);
  return std::max({embedding, attention, mlp});
}

std::span<const TransformerShape> transformer_presets() { return kTransformerPresets; }

const TransformerShape& find_transformer_preset(std::string_view name, std::string_view field) {
  return find_by_name(transformer_presets(), name, field, kCustomModelName);
}

std::span<const Accelerator> accelerator_presets() { return kAccelerators; }

const Accelerator& find_accelerator(std::string_view name, std::string_view field) {
  return find_by_name(accelerator_presets(), name, field, "");
}

}  // namespace ringviz
