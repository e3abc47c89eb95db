#pragma once
// What one transformer layer keeps for backward on one GPU, in bytes (Korthikanti et al. 2022,
// "Reducing Activation Recomputation in Large Transformer Models", Table 2), split into the
// parts tensor parallelism, sequence parallelism, FlashAttention and recomputation treat
// differently. The iteration model (core/training/iteration_model.h) adds them up over the
// layers and the pass; a measured job (core/job/memory_comparison.h) is held against the same
// terms. The derivation is in docs/memory.md, "Activations, term by term".
#include <cstdint>
#include <string_view>

#include "core/model/enum_table.h"
#include "core/training/transformer_presets.h"

namespace ringviz {

// What the backward pass gets back without storing it in forward (Korthikanti et al. 2022):
//   none:      every layer keeps all its activations;
//   selective: the attention scores, softmax and its dropout are recomputed;
//   full:      only each layer's input is kept; a layer's forward runs again in backward.
enum class Recompute { none, selective, full };
inline constexpr Recompute kAllRecomputes[] = {Recompute::none, Recompute::selective, Recompute::full};
inline constexpr EnumName<Recompute> kRecomputeNames[] = {
    {Recompute::none, "none", "", "keep every activation"},
    {Recompute::selective, "selective", "", "recompute attention scores"},
    {Recompute::full, "full", "", "keep layer inputs, rerun each layer's forward"},
};
inline constexpr EnumNamer recompute_name{kRecomputeNames};
inline constexpr EnumParser parse_recompute{kRecomputeNames, "recompute"};

// eager: the attention scores, their softmax and its dropout are tensors autograd keeps (a·s²·b
// each). flash: FlashAttention keeps only the output and one fp32 log-sum-exp per row and head,
// and rebuilds the scores in backward (one more Q·Kᵀ product a layer).
enum class Attention { eager, flash };
inline constexpr Attention kAllAttentions[] = {Attention::eager, Attention::flash};
inline constexpr EnumName<Attention> kAttentionNames[] = {
    {Attention::eager, "eager", "", "scores and softmax stored (Korthikanti's 5·a·s²·b)"},
    {Attention::flash, "flash", "flash-attention", "FlashAttention: no s² term, scores rebuilt in backward"},
};
inline constexpr EnumNamer attention_name{kAttentionNames};
inline constexpr EnumParser parse_attention{kAttentionNames, "attention"};

// gpt: Korthikanti's GPT block, whatever the shape says (K and V as wide as Q, an MLP 4h wide
// with GeLU, dropout): the published 34 and 5 constants. model: the shape's own block
// (grouped-query K and V, its MLP width, SwiGLU's gate, dropout or none).
enum class Block { gpt, model };
inline constexpr Block kAllBlocks[] = {Block::gpt, Block::model};
inline constexpr EnumName<Block> kBlockNames[] = {
    {Block::gpt, "gpt", "", "Korthikanti's GPT block: 34·s·b·h + 5·a·s²·b"},
    {Block::model, "model", "", "the model's own block: KV heads, MLP width, SwiGLU, dropout"},
};
inline constexpr EnumNamer block_name{kBlockNames};
inline constexpr EnumParser parse_block{kBlockNames, "block"};

struct ActivationQuery {
  TransformerShape model;
  std::int64_t seq = 4096;       // s
  std::int64_t micro_batch = 1;  // b
  Recompute recompute = Recompute::none;
  int tp = 1;                    // t, the tensor-parallel group
  bool sp = false;               // sequence parallelism (needs t > 1)
  Attention attention = Attention::eager;
  Block block = Block::gpt;
  int value_bytes = 2;           // an activation's element: 2 (16-bit, the formulas), 4 (fp32)
  int mask_bytes = 1;            // a dropout mask's element (bytes or bools)
};

// One layer's activations on one GPU, by term, in bytes (each term rounded up to whole bytes
// where t does not divide it). For the GPT block at t = 1, 16-bit:
//   replicated = 10·s·b·h  (the two norms' inputs, the QKV and MLP inputs, two dropout masks)
//   parallel   = 24·s·b·h  (Q, K, V, the output projection's input, the MLP's two intermediates)
//   scores     =  5·a·s²·b (softmax output 2, its dropout mask 1, the dropped output 2)
// TP divides parallel and scores by t; SP divides replicated too; flash drops scores and keeps
// the log-sum-exp (4·a·s·b/t bytes) instead.
struct ActivationTerms {
  std::int64_t replicated = 0;
  std::int64_t parallel = 0;
  std::int64_t scores = 0;            // 0 with flash
  std::int64_t flash_statistics = 0;  // 0 with eager
  std::int64_t layer_input = 0;       // what full recomputation keeps: s·b·h (/t with SP)
  std::int64_t all() const { return replicated + parallel + scores + flash_statistics; }
};

// Activation bytes of one transformer layer on one GPU, and of the logits.
struct ActivationBytes {
  ActivationTerms terms;
  std::int64_t full_layer = 0;       // terms.all(): everything forward would keep
  std::int64_t stored_per_layer = 0; // what forward keeps per layer under the recompute mode
  std::int64_t recomputed = 0;       // full: one layer's full_layer rebuilt at a time in backward
  std::int64_t all_layers = 0;       // L · stored_per_layer
  std::int64_t logits = 0;           // fp32: 4·s·b·V, vocabulary-parallel under TP (/t)
};

// Throws InputError naming "seq" when the counts overflow 64 bits.
ActivationBytes activation_bytes(const ActivationQuery& query);
// The GPT block at t = 1, eager, 16-bit: Korthikanti's Table 2 as published.
ActivationBytes activation_bytes(const TransformerShape& model, std::int64_t seq, std::int64_t micro_batch,
                                 Recompute recompute);

// FLOPs the pass spends again per layer and GPU: selective rebuilds Q·Kᵀ and the scores times V
// (4·b·s²·h/t), FlashAttention rebuilds Q·Kᵀ in backward (2·b·s²·h/t, all selective needs then).
double attention_recompute_flops_per_layer(const ActivationQuery& query);

// "s·b·h·(34 + 5·a·s/h)" and its TP/SP/flash forms, for the tables' headers.
std::string_view activation_formula(Recompute recompute);
std::string_view tensor_parallel_formula(Recompute recompute, bool sp, Attention attention);

// The caveat every output carries with the formulas: what the count leaves out.
inline constexpr std::string_view kActivationCaveat =
    "The 34 and 5 constants come from a GPT block (Korthikanti et al. 2022); for other blocks "
    "(SwiGLU MLPs, grouped-query attention) they are an approximation.";
inline constexpr std::string_view kModelBlockCaveat =
    "--block model counts the model's own block: K and V at the key/value heads' width (as "
    "FlashAttention and fused kernels keep them; an eager implementation that repeats them keeps "
    "a heads' worth), SwiGLU's gate, up, activation and product f wide each, no dropout masks "
    "where the model has no dropout; still left out: the norms' statistics, rotary embeddings' "
    "tables, the loss's own buffers and allocator fragmentation.";

}  // namespace ringviz
