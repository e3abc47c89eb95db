#include "core/job/memory_comparison.h"

#include <algorithm>

#include "core/model/input_error.h"
#include "core/output/terminal_text.h"
#include "core/training/activation_model.h"
#include "core/training/memory_model.h"

namespace ringviz {

bool MemoryComparison::within() const {
  return std::all_of(terms.begin(), terms.end(), [](const MemoryTermComparison& t) { return t.within(); });
}

MemoryComparison compare_measured_memory(const MeasuredMemory& m, Language language) {
  const MeasuredShape& shape = m.shape;
  if (shape.hidden % shape.heads != 0)
    throw InputError("memory: " + m.label + ": " + std::to_string(shape.heads) + " heads do not divide the width " +
                     std::to_string(shape.hidden));
  MemoryComparison out;
  out.measured = m;
  out.language = language;
  const auto say = [language](std::string_view english, std::string_view chinese) {
    return en_zh(language, english, chinese);
  };
  const std::string exact = say("exact", "精确");
  const std::string norm_statistics =
      say("LayerNorm's fp32 mean and 1/σ (16·s·b bytes) and the 8-byte 1/√d scalar",
          "LayerNorm 的 fp32 均值与 1/σ（16·s·b 字节）和 8 字节的 1/√d 标量");
  // fp32 parameters and gradients with Adam's fp32 moments and no master copy is `fp32`;
  // 16-bit ones are `paper`.
  out.convention = m.element_bytes.parameters == 4 ? MemoryConvention::fp32 : MemoryConvention::paper;
  const MemoryEstimate states =
      estimate_memory({shape.parameters, m.world_size, m.strategy, out.convention, Order::seed});
  if (m.rank >= static_cast<int>(states.per_gpu.size()))
    throw InputError("memory: " + m.label + ": rank " + std::to_string(m.rank) + " of a world of " +
                     std::to_string(m.world_size));
  const ModelStateBytes& held = states.per_gpu[static_cast<std::size_t>(m.rank)];

  ActivationQuery q;
  q.model.layers = shape.layers;
  q.model.hidden = shape.hidden;
  q.model.heads = shape.heads;
  q.model.vocab = shape.vocab;
  q.model.ffn = shape.ffn;
  q.model.kv_heads = shape.heads;
  q.model.dropout = shape.dropout;
  q.block = Block::model;  // the measured block's own width and dropout; a GPT block at ffn = 4h
  q.seq = shape.seq;
  q.micro_batch = shape.micro_batch;
  q.recompute = m.recompute;
  q.value_bytes = m.element_bytes.activations;
  q.mask_bytes = m.element_bytes.masks;
  const ActivationBytes a = activation_bytes(q);

  const std::int64_t s = shape.seq, b = shape.micro_batch, h = shape.hidden, v = q.value_bytes;
  const std::int64_t sb = s * b;
  // Per layer, what the formulas leave out: LayerNorm's fp32 mean and 1/σ for each of the two
  // norms (2 · 2 · s·b · 4 bytes) and the 1/√d scale, which autograd keeps as an 8-byte scalar.
  const std::int64_t layer_extra = 16 * sb + 8;
  // Outside the layers: the final norm's input and statistics, the head's input, and the int64
  // token ids (b·(s+1), targets sliced from them), positions (s) and targets' copy (s·b), and the
  // loss's scalar weight.
  const std::int64_t outside_extra = 2 * sb * h * v + 8 * sb + 8 * (2 * sb + b + s) + 8;
  const MeasuredTerms& t = m.measured;
  const auto add = [&](MemoryTerm term, int layer, std::string name, std::int64_t measured, std::int64_t model,
                       std::int64_t low, std::int64_t high, std::string why) {
    out.terms.push_back({term, layer, std::move(name), measured, model, low, high, std::move(why)});
  };

  add(MemoryTerm::parameters, 0, say("parameters", "参数"), t.parameters, held.parameters(), 0, 0, exact);
  add(MemoryTerm::gradients, 0, say("gradients", "梯度"), t.gradients, held.gradients(), 0, 0,
      say("exact (DDP's gradient_as_bucket_view: the gradients are its buckets, counted once)",
          "精确（DDP 的 gradient_as_bucket_view：梯度就是它的桶，只算一次）"));
  const std::int64_t optimizer_model = held.optimizer_states();
  if (m.strategy == Strategy::zero1) {
    const std::int64_t slack = (held[StateComponent::momentum] + held[StateComponent::variance]) > 0
                                   ? 8 * t.largest_parameter_tensor
                                   : 0;
    add(MemoryTerm::optimizer_states, 0, say("optimizer states", "优化器状态"), t.optimizer_states, optimizer_model,
        -slack, slack,
        say("shard rounding: ZeroRedundancyOptimizer gives each rank whole parameter tensors, the model a slice of "
            "the flat vector; a rank's share differs by less than its largest tensor's momentum and variance "
            "(8 bytes × ",
            "分片取整：ZeroRedundancyOptimizer 按整个参数张量分给各 rank，模型按扁平向量切片；"
            "一个 rank 的份额相差不到它最大张量的动量与方差（8 字节 × ") +
            std::to_string(t.largest_parameter_tensor) + say(")", "）"));
  } else {
    add(MemoryTerm::optimizer_states, 0, say("optimizer states", "优化器状态"), t.optimizer_states, optimizer_model, 0,
        0, exact);
  }
  add(MemoryTerm::optimizer_step_counters, 0, say("optimizer step counters", "优化器步数计数"),
      t.optimizer_step_counters, 0, 0, 4 * t.optimizer_parameter_tensors,
      say("Adam's step, one fp32 scalar per parameter tensor (", "Adam 的 step：每个参数张量一个 fp32 标量（") +
          std::to_string(t.optimizer_parameter_tensors) +
          say("), which the formulas leave out", " 个），公式未计入"));
  for (std::size_t layer = 0; layer < t.activations_per_layer.size(); ++layer)
    add(MemoryTerm::layer_activations, static_cast<int>(layer) + 1,
        say("layer ", "第 ") + std::to_string(layer + 1) + say(" activations", " 层激活"),
        t.activations_per_layer[layer], a.stored_per_layer, 0, m.recompute == Recompute::full ? 0 : layer_extra,
        m.recompute == Recompute::full ? say("exact (the layer's input alone)", "精确（只存该层的输入）")
                                       : norm_statistics);
  const std::int64_t rebuilt = t.recomputed_per_layer.empty()
                                   ? 0
                                   : *std::max_element(t.recomputed_per_layer.begin(), t.recomputed_per_layer.end());
  switch (m.recompute) {
    case Recompute::none:
      add(MemoryTerm::recomputed_layer, 0, say("recomputed layer", "重算的层"), rebuilt, 0, 0, 0,
          say("exact (nothing is rebuilt)", "精确（不重建任何层）"));
      break;
    case Recompute::selective:
      add(MemoryTerm::recomputed_layer, 0, say("recomputed attention", "重算的注意力"), rebuilt, a.terms.scores, 0,
          3 * sb * h * v + 8,
          say("the copies of Q, K and V the batched products take of the checkpoint's inputs (3·s·b·h elements) "
              "and the 1/√d scalar",
              "批量矩阵乘对检查点输入所取的 Q、K、V 副本（3·s·b·h 个元素）和 1/√d 标量"));
      break;
    case Recompute::full:
      add(MemoryTerm::recomputed_layer, 0, say("recomputed layer", "重算的层"), rebuilt, a.full_layer, 0, layer_extra,
          norm_statistics);
      break;
  }
  add(MemoryTerm::outside_layers, 0, say("logits and loss", "logits 与损失"), t.outside_layers, a.logits, 0,
      outside_extra,
      say("the final norm's input and statistics, the head's input (2·s·b·h elements) and the int64 token ids, "
          "positions and targets",
          "最后一个归一化层的输入与统计量、输出头的输入（2·s·b·h 个元素），以及 int64 的词元 id、位置和目标"));
  // The most alive at once: every layer's saves and the logits at the end of forward, or under
  // full recomputation the layers' inputs with one layer rebuilt whole (its input is the stored
  // one, counted once).
  const std::int64_t layers = shape.layers;
  std::int64_t peak = layers * a.stored_per_layer + a.logits;
  if (m.recompute == Recompute::full) peak = std::max(peak, (layers - 1) * a.stored_per_layer + a.full_layer);
  add(MemoryTerm::activations_peak, 0, say("activations peak", "激活峰值"), t.activations_peak, peak, 0,
      layers * layer_extra + outside_extra,
      say("every layer's and the outside terms' tolerances together", "各层与层外各项的容差之和"));
  return out;
}

}  // namespace ringviz
