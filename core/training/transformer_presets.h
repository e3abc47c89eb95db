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
// tokens, and Ψ parameters in all.
struct TransformerShape {
  std::string_view name = "custom";  // what --model takes
  std::int64_t parameters = 0;       // Ψ
  std::int64_t layers = 0;           // L
  std::int64_t hidden = 0;           // h
  std::int64_t heads = 0;            // a
  std::int64_t vocab = 0;            // V
  std::string_view source = "";      // where the figures come from, in one line
};

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
