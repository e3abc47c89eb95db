#include "core/training/activation_model.h"

#include <string>

#include "core/model/input_error.h"
#include "core/training/memory_model.h"

namespace ringviz {

static_assert(spellings_are_unique(kRecomputeNames) && lists_exactly(kRecomputeNames, kAllRecomputes));
static_assert(spellings_are_unique(kAttentionNames) && lists_exactly(kAttentionNames, kAllAttentions));
static_assert(spellings_are_unique(kBlockNames) && lists_exactly(kBlockNames, kAllBlocks));

namespace {

[[noreturn]] void overflow() {
  throw InputError("seq: the byte counts overflow 64 bits (sequence × micro-batch × hidden size or "
                   "vocabulary is too large); choose a shorter sequence or a smaller micro-batch");
}

std::int64_t times(std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) overflow();
  return product;
}

std::int64_t plus(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) overflow();
  return sum;
}

// Split over t GPUs, rounded up: the GPU with the larger piece.
std::int64_t split(std::int64_t bytes, int t) { return (bytes + t - 1) / t; }

}  // namespace

ActivationBytes activation_bytes(const ActivationQuery& q) {
  const TransformerShape& m = q.model;
  const bool own_block = q.block == Block::model;
  const std::int64_t kv_heads = own_block ? kv_heads_of(m) : m.heads;
  const std::int64_t ffn = own_block ? ffn_of(m) : 4 * m.hidden;
  const bool gated = own_block && m.gated_mlp;
  const bool dropout = !own_block || m.dropout;
  const std::int64_t v = q.value_bytes;
  const std::int64_t sb = times(q.seq, q.micro_batch);
  const std::int64_t sbh = times(sb, m.hidden);
  const std::int64_t sbf = times(sb, ffn);
  const std::int64_t as2b = times(times(m.heads, times(q.seq, q.seq)), q.micro_batch);

  ActivationTerms whole;  // one layer at t = 1
  // The inputs of the two norms, of the QKV projection and of the MLP, and the dropout masks
  // after the attention's output projection and after the MLP.
  whole.replicated = plus(times(4 * v, sbh), dropout ? times(2 * q.mask_bytes, sbh) : 0);
  // Q (h wide), K and V (k/a of that each), the output projection's input; the MLP keeps its
  // activation's input and the down projection's input (GeLU), or gate, up, activation output
  // and product (SwiGLU).
  const std::int64_t kv = m.heads > 0 ? times(sbh, kv_heads) / m.heads : 0;
  whole.parallel = plus(times(v, plus(times(2, sbh), times(2, kv))), times(v * (gated ? 4 : 2), sbf));
  if (q.attention == Attention::eager) {
    // The softmax's output; with dropout also its mask and the dropped scores that multiply V.
    whole.scores = dropout ? plus(times(2 * v, as2b), times(q.mask_bytes, as2b)) : times(v, as2b);
  } else {
    whole.flash_statistics = times(4, times(m.heads, sb));  // fp32 log-sum-exp per row and head
  }
  whole.layer_input = times(v, sbh);

  const int t = q.tp;
  ActivationBytes bytes;
  ActivationTerms& terms = bytes.terms;
  terms.replicated = q.sp ? split(whole.replicated, t) : whole.replicated;
  terms.parallel = split(whole.parallel, t);
  terms.scores = split(whole.scores, t);
  terms.flash_statistics = split(whole.flash_statistics, t);
  terms.layer_input = q.sp ? split(whole.layer_input, t) : whole.layer_input;
  bytes.full_layer = terms.all();
  switch (q.recompute) {
    case Recompute::none: bytes.stored_per_layer = bytes.full_layer; break;
    case Recompute::selective: bytes.stored_per_layer = terms.replicated + terms.parallel; break;
    case Recompute::full:
      bytes.stored_per_layer = terms.layer_input;
      bytes.recomputed = bytes.full_layer;
      break;
  }
  bytes.all_layers = times(m.layers, bytes.stored_per_layer);
  bytes.logits = split(times(times(4, sb), m.vocab), t);
  // Every event's sum must fit too: all layers, the recomputed one and the logits together.
  plus(plus(plus(bytes.all_layers, bytes.recomputed), bytes.logits), 2 * kMaxModelParameters * 16);
  return bytes;
}

ActivationBytes activation_bytes(const TransformerShape& model, std::int64_t seq, std::int64_t micro_batch,
                                 Recompute recompute) {
  ActivationQuery q;
  q.model = model;
  q.seq = seq;
  q.micro_batch = micro_batch;
  q.recompute = recompute;
  return activation_bytes(q);
}

double attention_recompute_flops_per_layer(const ActivationQuery& q) {
  // One product of b·s²·h multiply-adds is 2·b·s²·h FLOPs.
  const double product = 2.0 * static_cast<double>(q.micro_batch) * static_cast<double>(q.seq) *
                         static_cast<double>(q.seq) * static_cast<double>(q.model.hidden) / q.tp;
  if (q.recompute == Recompute::full) return 0;  // its second forward is counted whole elsewhere
  if (q.attention == Attention::flash) return product;  // selective has nothing more to rebuild
  return q.recompute == Recompute::selective ? 2 * product : 0;  // Q·Kᵀ and scores·V
}

std::string_view activation_formula(Recompute recompute) {
  switch (recompute) {
    case Recompute::none: return "s·b·h·(34 + 5·a·s/h) per layer";
    case Recompute::selective: return "34·s·b·h per layer";
    case Recompute::full: return "2·s·b·h per layer + one layer's s·b·h·(34 + 5·a·s/h) recomputed";
  }
  return "";
}

std::string_view tensor_parallel_formula(Recompute recompute, bool sp, Attention attention) {
  const bool flash = attention == Attention::flash;
  switch (recompute) {
    case Recompute::none:
      if (sp) return flash ? "s·b·h/t·34 per layer (+ log-sum-exp)" : "s·b·h/t·(34 + 5·a·s/h) per layer";
      return flash ? "s·b·h·(10 + 24/t) per layer (+ log-sum-exp)" : "s·b·h·(10 + 24/t + 5·a·s/(h·t)) per layer";
    case Recompute::selective: return sp ? "34·s·b·h/t per layer" : "s·b·h·(10 + 24/t) per layer";
    case Recompute::full:
      return sp ? "2·s·b·h/t per layer + one layer recomputed" : "2·s·b·h per layer + one layer recomputed";
  }
  return "";
}

}  // namespace ringviz
