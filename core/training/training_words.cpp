#include "core/training/training_words.h"

#include <vector>

namespace ringviz {

namespace {

std::string bucket_text_zh(int bucket, int buckets) {
  return "第 " + std::to_string(bucket + 1) + "/" + std::to_string(buckets) + " 桶";
}

std::string layer_text_zh(std::int64_t layer, std::int64_t layers) {
  return "第 " + std::to_string(layer) + "/" + std::to_string(layers) + " 层";
}

std::string gb(std::int64_t bytes) { return format_bytes(static_cast<double>(bytes), ByteUnit::gb); }

}  // namespace

std::string_view convention_assumptions(MemoryConvention convention, Language language) {
  if (language == Language::en) return convention_assumptions(convention);
  switch (convention) {
    case MemoryConvention::paper:
      return "paper：按 ZeRO 论文的方式计算混合精度 AdamW。参数和梯度为 16 位浮点数（各 2 字节）；"
             "优化器保留一份 fp32 主权重副本、fp32 动量和 fp32 方差（各 4 字节，K = 12）。"
             "DDP 在每个 GPU 上每个参数占 16 字节。不计激活、通信缓冲区和内存碎片。";
    case MemoryConvention::deepspeed:
      return "deepspeed：DeepSpeed 自带的 ZeRO 估算器。在 paper 之外，另有一份优化器读取的 fp32 梯度副本"
             "（每个参数 4 字节），与优化器状态一起分片：ZeRO-2 每个参数 2 + 18/N 字节。DDP、ZeRO-1 和 "
             "ZeRO-3 采用同样的计法，故此处 ZeRO-3 为 20Ψ/N；DeepSpeed 自己的 ZeRO-3 估算器为 18Ψ/N，"
             "另加最大层（整层收集）每个参数 4 字节，--model 会在本表之外打印该估算。不计激活。";
    case MemoryConvention::fp32:
      return "fp32：不用混合精度。参数和梯度为 fp32（各 4 字节），AdamW 动量和方差为 fp32（各 4 字节），"
             "没有主副本：DDP 下每个参数 16 字节，与 paper 相同，但分法不同，因此 ZeRO 省得更少。不计激活。";
  }
  return convention_assumptions(convention);
}

std::string_view activation_caveat(Language language) {
  if (language == Language::en) return kActivationCaveat;
  return "常数 34 和 5 来自 GPT 块（Korthikanti 等，2022）；对其他块（SwiGLU MLP、分组查询注意力）只是近似。";
}

std::string_view component_heading(StateComponent component, Language language) {
  const bool zh = language == Language::zh;
  switch (component) {
    case StateComponent::parameters: return zh ? "参数" : "params";
    case StateComponent::gradients: return zh ? "梯度" : "grads";
    case StateComponent::fp32_gradients: return zh ? "fp32梯度" : "fp32 grads";
    case StateComponent::master_weights: return zh ? "主权重" : "master";
    case StateComponent::momentum: return zh ? "动量" : "momentum";
    case StateComponent::variance: return zh ? "方差" : "variance";
  }
  return "?";
}

std::string timeline_step_label(const IterationTimeline& timeline, const IterationStep& step, Language language) {
  if (language == Language::en) return step.label;
  const Strategy strategy = timeline.query.memory.strategy;
  const int buckets = static_cast<int>(timeline.buckets.size());
  const std::string which = step.bucket >= 0 ? bucket_text_zh(step.bucket, buckets) : "";
  switch (step.kind) {
    case IterationStepKind::forward:
      return step.bucket >= 0 ? "前向经过" + which + "：全收集其参数，用完即丢弃"
                              : "前向：每个 GPU 计算自己的小批量";
    case IterationStepKind::gather_parameters: return "为反向再次全收集" + which + "的参数";
    case IterationStepKind::backward: return "反向：" + which + "的梯度就绪";
    case IterationStepKind::all_reduce: return which + "的全归约：每个 GPU 得到平均值";
    case IterationStepKind::reduce_scatter:
      return which + "的归约散射" +
             (shards(strategy, StateGroup::gradients) ? "；每个 GPU 只保留自己的分片，释放其余" : "；完整梯度保留");
    case IterationStepKind::optimizer_step:
      return strategy == Strategy::ddp ? "优化器步：每个 GPU 更新全部参数" : "优化器步：每个 GPU 只更新自己拥有的分片";
    case IterationStepKind::all_gather: return which + "的全收集：每个 GPU 得到更新后的参数";
  }
  return step.label;
}

std::string iteration_event_label(const IterationEstimate& estimate, const IterationEvent& event, Language language) {
  if (language == Language::en) return event.label;
  const std::int64_t layers = estimate.query.model.layers;
  switch (event.phase) {
    case IterationPhase::start: return "迭代开始：只有模型状态";
    case IterationPhase::forward: return "前向经过" + layer_text_zh(event.layer, layers);
    case IterationPhase::loss: return "损失：fp32 的 logits 与每层的激活同在";
    case IterationPhase::backward:
      return "反向经过" + layer_text_zh(event.layer, layers) +
             (estimate.query.recompute == Recompute::full ? "，重算其前向" : "");
    case IterationPhase::optimizer_step:
      return estimate.query.offload == Offload::optimizer ? "在主机上做优化器步；更新后的参数经 PCIe 传回"
                                                          : "优化器步";
    case IterationPhase::parameter_gather: return "全收集更新后的参数";
  }
  return event.label;
}

std::string iteration_peak_description(const IterationEstimate& estimate, Language language) {
  if (language == Language::en) return estimate.peak.description;
  const IterationEvent& event = estimate.timeline[static_cast<std::size_t>(estimate.peak.event)];
  const IterationMemory& m = event.memory;
  std::string text = iteration_event_label(estimate, event, language) + "：";
  const std::pair<const char*, std::int64_t> parts[] = {
      {"激活", m.activations}, {"logits", m.logits}, {"梯度", m.gradients}, {"缓冲区", m.buffers}};
  bool any = false;
  for (const auto& [name, bytes] : parts) {
    if (bytes == 0) continue;
    text += std::string(any ? "、" : "") + name + " " + gb(bytes);
    any = true;
  }
  return text + (any ? "，另有" : "") + "参数和优化器状态 " + gb(m.parameters + m.optimizer_states) + "；总计 " +
         gb(m.total());
}

std::string iteration_overlap(const IterationEstimate& estimate, Language language) {
  const IterationTime& time = estimate.time;
  if (language == Language::en) return time.overlap;
  // The same clauses as the English, in the same order, from the flags the model set.
  std::string text;
  if (time.gathers_ahead) text += "ZeRO-3 的参数收集先于需要它们的层进行，除第一次外都被计算掩盖；";
  text += "反向计算下一批梯度桶时归约已完成的桶，除最后一个外都被掩盖";
  if (time.gather_after_step) text += "；优化器步之后对更新参数的全收集未被掩盖";
  if (time.offload_streams)
    text += "；反向期间梯度经 PCIe 下传，更新后的参数在优化器步后传回，未被掩盖；主机上的优化器步本身不计";
  return text + "。";
}

std::string_view activation_formula(Recompute recompute, Language language) {
  if (language == Language::en) return activation_formula(recompute);
  switch (recompute) {
    case Recompute::none: return "每层 s·b·h·(34 + 5·a·s/h)";
    case Recompute::selective: return "每层 34·s·b·h";
    case Recompute::full: return "每层 2·s·b·h，另加一层的 s·b·h·(34 + 5·a·s/h) 重算";
  }
  return activation_formula(recompute);
}

}  // namespace ringviz
