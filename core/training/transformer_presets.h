#pragma once
// The shapes of real transformer models and the accelerators that train them: what the
// iteration model (core/training/iteration_model.h) needs to count activations and to turn
// FLOPs into seconds. Published figures only; each preset says where its numbers come from.
#include <cstdint>
#include <span>
#include <string_view>

namespace ringviz {

// A decoder-only transformer as the activation formulas see it (docs/architecture.md,
// "The iteration model"): L layers of hidden size h with a attention heads, a vocabulary of V
// tokens, and Ψ parameters in all. The block's own shape (key/value heads, MLP width, gated
// MLP, dropout) is what `--block model` counts; a shape that leaves them at their defaults is
// a GPT block, whose counts are Korthikanti et al.'s 34·s·b·h + 5·a·s²·b.
struct TransformerShape {
  std::string_view name = "custom";  // what --model takes
  std::int64_t parameters = 0;       // Ψ
  std::int64_t layers = 0;           // L
  std::int64_t hidden = 0;           // h
  std::int64_t heads = 0;            // a
  std::int64_t vocab = 0;            // V
  std::string_view source = "";      // where the figures come from, in one line
  std::int64_t kv_heads = 0;         // k: grouped-query attention's key/value heads; 0: a
  std::int64_t ffn = 0;              // f: the MLP's inner width; 0: 4·h
  bool gated_mlp = false;            // SwiGLU: gate and up projections, f wide each
  bool dropout = true;               // dropout after attention, its output and the MLP
};
// k and f with their defaults filled in.
std::int64_t kv_heads_of(const TransformerShape& shape);
std::int64_t ffn_of(const TransformerShape& shape);
// The most parameters one module holds (DeepSpeed's "largest layer"): the embedding (V·h) or
// the widest projection of a layer, whichever is larger.
std::int64_t largest_layer_parameters(const TransformerShape& shape);

// llama2-7b, llama3-8b, llama3-70b, gpt3-175b (see transformer_presets.cpp for the sources).
std::span<const TransformerShape> transformer_presets();
// Throws InputError naming `field` and the preset names ("custom" included) for other text;
// "custom" itself is not a preset and throws too: the caller builds a custom shape.
const TransformerShape& find_transformer_preset(std::string_view name, std::string_view field = "model");
inline constexpr std::string_view kCustomModelName = "custom";

// A GPU's published peak dense BF16 rate and the PCIe link it reaches host memory through
// (a key of link_presets(), core/training/cost_model.h).
struct Accelerator {
  std::string_view name;         // what --accelerator takes: "h100"
  std::string_view label;        // "H100 SXM"
  double peak_flops = 0;         // dense BF16, FLOP/s
  std::string_view host_link;    // "pcie5"
  std::string_view source;
};

std::span<const Accelerator> accelerator_presets();  // a100, h100
const Accelerator& find_accelerator(std::string_view name, std::string_view field = "accelerator");

}  // namespace ringviz
