#include "app/cli/memory/memory_iteration.h"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "core/model/text.h"
#include "core/output/terminal_text.h"
#include "core/training/cost_model.h"
#include "core/training/training_words.h"

namespace ringviz::cli {

namespace {

// The one --recompute value that is not in kRecomputeNames: every mode in turn.
constexpr const char* kEveryRecompute = "all";

std::int64_t parse_size(const std::string& text, const std::string& flag) {
  const std::int64_t value = parse_whole_number(text, flag);
  if (value < 1) throw InputError(flag + ": " + text + " must be at least 1");
  return value;
}

// The core names fields as the flags without their dashes; here the user typed the flags.
[[noreturn]] void rethrow_as_flag(const InputError& error) {
  const std::string message = error.what();
  for (const char* field : {"seq", "micro-batch", "layers", "hidden", "heads", "vocab", "params", "gpus",
                            "utilisation", "gpu-memory", "accelerator", "link", "bucket", "tp", "sp"}) {
    const std::string prefix = std::string(field) + ":";
    if (message.rfind(prefix, 0) == 0)
      throw InputError("--" + std::string(field == std::string("bucket") ? "bucket-mb" : field) +
                       message.substr(prefix.size() - 1));
  }
  throw error;
}

TransformerShape model_from(const IterationFlags& flags, const IterationReportRequest& request) {
  const std::pair<const char*, const std::string*> shape_flags[] = {
      {"--layers", &flags.layers}, {"--hidden", &flags.hidden}, {"--heads", &flags.heads}, {"--vocab", &flags.vocab}};
  const bool shape_given =
      !flags.layers.empty() || !flags.hidden.empty() || !flags.heads.empty() || !flags.vocab.empty();
  const std::string name = flags.model.empty() && shape_given ? std::string(kCustomModelName) : flags.model;
  std::string presets;
  for (const TransformerShape& preset : transformer_presets()) presets += std::string(preset.name) + ", ";
  if (name.empty())
    throw InputError("--model: the whole-iteration flags need a model; give --model " + presets + "or custom");
  if (name != kCustomModelName) {
    const TransformerShape& preset = find_transformer_preset(name, "--model");
    std::string extra = request.params_given ? "--params" : "";
    for (const auto& [flag, text] : shape_flags)
      if (!text->empty()) extra = flag;
    if (!extra.empty())
      throw InputError(extra + ": only with --model custom; " + name + " has its published shape");
    return preset;
  }
  for (const auto& [flag, text] : shape_flags)
    if (text->empty())
      throw InputError(std::string(flag) + ": --model custom needs --layers, --hidden, --heads, --vocab and --params");
  if (!request.params_given)
    throw InputError("--params: --model custom needs --params (the parameter count, e.g. 7B)");
  TransformerShape shape;
  shape.parameters = request.memory.parameters;
  shape.layers = parse_size(flags.layers, "--layers");
  shape.hidden = parse_size(flags.hidden, "--hidden");
  shape.heads = parse_size(flags.heads, "--heads");
  shape.vocab = parse_size(flags.vocab, "--vocab");
  return shape;
}

IterationQuery base_query(const IterationFlags& flags, const IterationReportRequest& request) {
  IterationQuery q;
  q.model = model_from(flags, request);
  q.seq = parse_size(flags.seq.empty() ? "4096" : flags.seq, "--seq");
  q.micro_batch = parse_size(flags.micro_batch.empty() ? "1" : flags.micro_batch, "--micro-batch");
  q.offload = parse_offload(flags.offload.empty() ? "none" : flags.offload, "--offload");
  q.gpus = request.memory.gpus;
  q.convention = request.memory.convention;
  q.order = request.memory.order;
  q.gpu_memory_bytes = request.capacity_bytes;
  q.accelerator = flags.accelerator.empty() ? "h100" : flags.accelerator;
  find_accelerator(q.accelerator, "--accelerator");
  if (!flags.utilisation.empty())
    q.utilisation = parse_real_in_range(flags.utilisation, "--utilisation", 1e-3, 1, "0.001 to 1");
  q.link = flags.link.empty() ? "nvlink4" : flags.link;
  find_link_preset(q.link, "--link");
  q.bucket_bytes = request.bucket_bytes;
  if (!flags.tp.empty()) q.tp = static_cast<int>(parse_number_in_range(flags.tp, "--tp", 1, kMaxMemoryGpus));
  q.sp = flags.sp;
  q.attention = parse_attention(flags.attention.empty() ? "eager" : flags.attention, "--attention");
  q.block = parse_block(flags.block.empty() ? "gpt" : flags.block, "--block");
  return q;
}

std::vector<Recompute> recomputes_from(const IterationFlags& flags) {
  if (flags.recompute == kEveryRecompute) return {std::begin(kAllRecomputes), std::end(kAllRecomputes)};
  return {parse_recompute(flags.recompute.empty() ? "none" : flags.recompute, "--recompute")};
}

std::string amount(std::int64_t bytes, ByteUnit unit) { return format_bytes(static_cast<double>(bytes), unit, false); }

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, seconds >= 0.1 ? "%.2f" : "%.3g", seconds);
  return text;
}

void print_header(const IterationQuery& q, const IterationReportRequest& request) {
  const Accelerator& accelerator = find_accelerator(q.accelerator);
  const LinkModel& link = find_link_preset(q.link);
  const TransformerShape& m = q.model;
  const Language lang = request.language;
  if (lang == Language::zh) {
    std::cout << "ringviz memory：" << m.name << "（Ψ = " << m.parameters << "，L = " << m.layers << " 层，h = "
              << m.hidden << "，a = " << m.heads << " 个头，V = " << m.vocab << "），" << q.gpus << " 个 GPU，s = "
              << q.seq << "，b = " << q.micro_batch << "，约定 " << convention_name(q.convention) << "，卸载 "
              << offload_name(q.offload) << "，大小单位 " << unit_name(request.unit) << "，取持有最多的 GPU\n";
    if (!m.source.empty()) std::cout << "形状：" << m.source << "\n";
    if (q.tp > 1 || q.attention == Attention::flash || q.block == Block::model)
      // The formulas below are the GPT block's at t = 1; say which count the table uses instead.
      std::cout << "本表按张量并行 t = " << q.tp << (q.sp ? "（含序列并行）" : "") << "，数据并行 " << q.gpus / q.tp
                << "，" << attention_name(q.attention) << " 注意力，" << block_name(q.block) << " 块计算："
                << tensor_parallel_formula(Recompute::none, q.sp, q.attention) << "（none）。\n";
    std::cout << "模型状态：见公式列（约定 " << convention_name(q.convention)
              << "）；每层激活，16 位，无张量并行（Korthikanti 等，2022）：none " << activation_formula(Recompute::none, lang)
              << "；selective " << activation_formula(Recompute::selective, lang) << "；full "
              << activation_formula(Recompute::full, lang) << "；logits 为 fp32 的 4·s·b·V 字节。\n"
              << activation_caveat(lang) << "\n";
    std::cout << "时间（估算）：6·Ψ·s·b 次浮点运算，按 " << accelerator.label << " 的 " << std::setprecision(3)
              << accelerator.peak_flops / 1e12 << " TFLOP/s 的 " << q.utilisation * 100
              << "% 计算；完全重算另加 2·Ψ·s·b（多三分之一），选择性重算另加 4·b·s²·h·L；环形集合通信走 "
              << link.label << "（α-β-γ 成本模型）；卸载走 " << find_link_preset(accelerator.host_link).label
              << "。\n\n";
    return;
  }
  std::cout << "ringviz memory: " << m.name << " (Ψ = " << m.parameters << ", L = " << m.layers << " layers, h = "
            << m.hidden << ", a = " << m.heads << " heads, V = " << m.vocab << ") on " << q.gpus
            << (q.gpus == 1 ? " GPU" : " GPUs") << ", s = " << q.seq << ", b = " << q.micro_batch
            << ", convention " << convention_name(q.convention) << ", offload " << offload_name(q.offload)
            << ", sizes in " << unit_name(request.unit) << " on the GPU holding the most\n";
  if (!m.source.empty()) std::cout << "shape: " << m.source << "\n";
  if (q.tp > 1)
    std::cout << "tensor parallelism: t = " << q.tp << (q.sp ? " with sequence parallelism" : "") << ", data parallelism "
              << q.gpus / q.tp << " (GPUs / t); parameters, gradients and optimizer states are 1/t of the model, "
              << "sharded or replicated over the data-parallel GPUs; " << (q.sp ? "all-gathers and reduce-scatters" : "all-reduces")
              << " of s·b·h per layer on " << find_link_preset(q.tp_link).label << ", not hidden\n";
  std::cout << "model states: the formula column over Ψ/t (convention " << convention_name(q.convention)
            << "); activations per layer, 16-bit, " << block_name(q.block) << " block, " << attention_name(q.attention)
            << " attention (Korthikanti et al. 2022, Table 2): ";
  if (q.tp == 1 && q.attention == Attention::eager)
    std::cout << "none " << activation_formula(Recompute::none) << "; selective "
              << activation_formula(Recompute::selective) << "; full " << activation_formula(Recompute::full);
  else
    std::cout << "none " << tensor_parallel_formula(Recompute::none, q.sp, q.attention) << "; selective "
              << tensor_parallel_formula(Recompute::selective, q.sp, q.attention) << "; full "
              << tensor_parallel_formula(Recompute::full, q.sp, q.attention);
  std::cout << "; logits 4·s·b·V bytes in fp32" << (q.tp > 1 ? " / t (vocabulary-parallel)" : "") << ".\n"
            << (q.attention == Attention::flash
                    ? "FlashAttention keeps no s² scores, only a fp32 log-sum-exp per row and head, and rebuilds Q·Kᵀ "
                      "in backward (2·b·s²·h/t FLOPs a layer, in the recompute column).\n"
                    : "")
            << (q.block == Block::gpt ? kActivationCaveat : kModelBlockCaveat) << "\n";
  std::cout << "time (an estimate): 6·Ψ·s·b" << (q.tp > 1 ? "/t" : "") << " FLOPs at " << std::setprecision(3) << q.utilisation * 100 << "% of "
            << accelerator.label << "'s " << accelerator.peak_flops / 1e12 << " TFLOP/s; full recomputation adds "
            << "2·Ψ·s·b (a third more), selective 4·b·s²·h·L; ring collectives on " << link.label
            << " (α-β-γ cost model); offload over " << find_link_preset(accelerator.host_link).label << ".\n\n";
}

void print_rows(const std::vector<IterationEstimate>& estimates, const IterationReportRequest& request) {
  const ByteUnit unit = request.unit;
  const Language lang = request.language;
  std::ostringstream capacity;
  const ByteUnit capacity_unit = unit == ByteUnit::gib ? ByteUnit::gib : ByteUnit::gb;
  capacity << in_unit(request.capacity_bytes, capacity_unit);
  const std::string fits =
      std::string(en_zh(lang, "fits ", "容得下 ")) + capacity.str() + " " + std::string(unit_name(capacity_unit));
  const std::size_t fits_width = display_width(fits) + 2;
  const bool offload = !estimates.empty() && estimates.front().query.offload == Offload::optimizer;
  std::ostringstream out;
  out << pad_right(en_zh(lang, "strategy", "策略"), 9) << pad_right(en_zh(lang, "recompute", "重算"), 11)
      << pad_right(en_zh(lang, "formula", "公式"), 13) << pad_left(en_zh(lang, "params", "参数"), 8)
      << pad_left(en_zh(lang, "grads", "梯度"), 8) << pad_left(en_zh(lang, "optimizer", "优化器"), 11)
      << pad_left(en_zh(lang, "activations", "激活"), 13) << pad_left("logits", 8)
      << pad_left(en_zh(lang, "buffers", "缓冲区"), 9) << pad_left(en_zh(lang, "peak", "峰值"), 8) << "  "
      << pad_right(fits, fits_width);
  if (offload) out << pad_left(en_zh(lang, "host", "主机"), 8) << "  ";
  const bool tensor_parallel = !estimates.empty() && estimates.front().query.tp > 1;
  if (tensor_parallel) out << pad_left(en_zh(lang, "sent DP", "发送 DP"), 9) << pad_left(en_zh(lang, "sent TP", "发送 TP"), 9) << "  ";
  out << en_zh(lang, "seconds = compute + recompute + communication", "秒 = 计算 + 重算 + 通信")
      << (tensor_parallel ? en_zh(lang, " + tensor parallel", " + 张量并行") : "")
      << (offload ? en_zh(lang, " + offload", " + 卸载") : "") << en_zh(lang, " (exposed)\n", "（未掩盖部分）\n");
  for (const IterationEstimate& e : estimates) {
    const IterationMemory& m = e.peak.memory;
    const IterationTime& t = e.time;
    out << std::left << std::setw(9) << strategy_title(e.query.strategy) << std::setw(11)
        << recompute_name(e.query.recompute);
    out << cell_left(e.model_states.formula, 13);
    out << std::right;
    for (const auto& [width, bytes] : {std::pair{8, m.parameters}, {8, m.gradients}, {11, m.optimizer_states},
                                      {13, m.activations}, {8, m.logits}, {9, m.buffers}, {8, m.total()}})
      out << std::setw(width) << " " + amount(bytes, unit);
    out << "  " << pad_right(e.fits ? en_zh(lang, "yes", "是") : en_zh(lang, "no", "否"), fits_width);
    if (offload) out << std::right << std::setw(8) << " " + amount(e.host_per_gpu, unit) << "  " << std::left;
    if (tensor_parallel)
      out << std::right << std::setw(9) << " " + amount(e.data_parallel_bytes_sent, unit) << std::setw(9)
          << " " + amount(e.tensor_parallel.bytes_sent_per_gpu, unit) << "  " << std::left;
    out << seconds_text(t.total) << " = " << seconds_text(t.compute) << " + " << seconds_text(t.recompute) << " + "
        << seconds_text(t.exposed_communication) << (tensor_parallel ? " + " + seconds_text(t.tensor_parallel) : "")
        << (offload ? " + " + seconds_text(t.exposed_offload) : "") << "\n";
  }
  std::cout << out.str() << en_zh(lang, "\npeaks:\n", "\n峰值：\n");
  for (const IterationEstimate& e : estimates)
    std::cout << "  " << strategy_title(e.query.strategy) << ", " << recompute_name(e.query.recompute)
              << en_zh(lang, ": ", "：") << iteration_peak_description(e, lang) << "\n";
  if (offload) {
    const IterationEstimate& e = estimates.front();
    if (lang == Language::zh)
      std::cout << "卸载：每个 GPU 的主机内存见主机列，每台机器最多 " << kGpusPerMachine << " 个 GPU，乘以 "
                << std::min(e.query.gpus, kGpusPerMachine)
                << "；每次迭代每个 GPU 的 PCIe 字节：梯度下传、更新后的参数上传（每行见 --format json）。\n";
    else
      std::cout << "offload: host memory per GPU as the host column says, per machine of up to " << kGpusPerMachine
                << " GPUs that times " << std::min(e.query.gpus, kGpusPerMachine) << "; PCIe bytes per GPU per "
                << "iteration: gradients down and updated parameters up (per row in --format json).\n";
  }
  if (tensor_parallel)
    std::cout << en_zh(lang, "tensor parallelism: ", "张量并行：") << estimates.front().tensor_parallel.collectives
              << en_zh(lang, " of ", "，每次 ") << estimates.front().tensor_parallel.elements
              << en_zh(lang, " elements (s·b·h), every layer; sent DP and sent TP are bytes each GPU sends per iteration.\n",
                       " 个元素（s·b·h）；发送 DP 与发送 TP 为每次迭代每个 GPU 发送的字节。\n");
  for (std::size_t i = 0; i < estimates.size(); ++i) {
    const IterationEstimate& e = estimates[i];
    // Model states only: one line a strategy, whatever the recomputation.
    if (!e.deepspeed.exists || (i > 0 && estimates[i - 1].query.strategy == e.query.strategy)) continue;
      std::cout << en_zh(lang, "DeepSpeed's estimator, ", "DeepSpeed 估算器，") << strategy_title(e.query.strategy) << ", "
                << e.deepspeed.formula << en_zh(lang, " (largest layer ", "（最大层 ")
                << format_parameter_count(e.deepspeed.largest_layer_parameters) << en_zh(lang, " parameters): GPU ", " 个参数）：GPU ")
                << format_bytes(static_cast<double>(e.deepspeed.gpu_bytes), unit)
                << (e.deepspeed.host_bytes_per_machine > 0
                        ? std::string(en_zh(lang, ", host per machine ", "，每台机器主机 ")) +
                              format_bytes(static_cast<double>(e.deepspeed.host_bytes_per_machine), unit) +
                              en_zh(lang, " (its 1.5 buffer factor included)", "（含其 1.5 倍缓冲系数）")
                        : std::string())
                << en_zh(lang, "; model states only\n", "；仅模型状态\n");
  }
  std::cout << en_zh(lang, "overlap: ", "重叠：") << iteration_overlap(estimates.front(), lang) << "\n";
}

void print_timeline(const IterationEstimate& e, ByteUnit unit, Language lang) {
  if (lang == Language::zh)
    std::cout << "\n迭代时间线：" << strategy_title(e.query.strategy) << "，重算 " << recompute_name(e.query.recompute)
              << "，单位 " << unit_name(unit) << "\n";
  else
    std::cout << "\niteration timeline: " << strategy_title(e.query.strategy) << ", recompute "
              << recompute_name(e.query.recompute) << ", in " << unit_name(unit) << "\n";
  std::cout << pad_left(en_zh(lang, "event", "事件"), 6) << pad_left(en_zh(lang, "params", "参数"), 9)
            << pad_left(en_zh(lang, "grads", "梯度"), 9) << pad_left(en_zh(lang, "optimizer", "优化器"), 11)
            << pad_left(en_zh(lang, "activations", "激活"), 13) << pad_left("logits", 9)
            << pad_left(en_zh(lang, "buffers", "缓冲区"), 9) << pad_left(en_zh(lang, "total", "总计"), 9) << "  "
            << en_zh(lang, "what", "内容") << "\n";
  for (std::size_t i = 0; i < e.timeline.size(); ++i) {
    const IterationMemory& m = e.timeline[i].memory;
    std::cout << std::right << std::setw(6) << i + 1;
    for (const auto& [width, bytes] : {std::pair{9, m.parameters}, {9, m.gradients}, {11, m.optimizer_states},
                                      {13, m.activations}, {9, m.logits}, {9, m.buffers}, {9, m.total()}})
      std::cout << std::setw(width) << " " + amount(bytes, unit);
    std::cout << "  " << iteration_event_label(e, e.timeline[i], lang)
              << (static_cast<int>(i) == e.peak.event ? en_zh(lang, "  <- peak", "  <- 峰值") : "") << "\n";
  }
}

nlohmann::json memory_json(const IterationMemory& m) {
  return {{"parameters", m.parameters}, {"gradients", m.gradients}, {"optimizer_states", m.optimizer_states},
          {"activations", m.activations}, {"logits", m.logits}, {"buffers", m.buffers}, {"total", m.total()}};
}

nlohmann::json estimate_json(const IterationEstimate& e, bool with_timeline) {
  nlohmann::json per_gpu = memory_json(e.peak.memory);
  per_gpu.erase("total");
  per_gpu["peak"] = e.peak.memory.total();
  if (e.query.offload == Offload::optimizer) per_gpu["host"] = e.host_per_gpu;
  const IterationTime& t = e.time;
  const IterationEvent& at = e.timeline[static_cast<std::size_t>(e.peak.event)];
  nlohmann::json j = {
      {"strategy", strategy_name(e.query.strategy)},
      {"recompute", recompute_name(e.query.recompute)},
      {"model_states_formula", e.model_states.formula},
      {"largest_gpu", e.model_states.largest_gpu},
      {"per_gpu", std::move(per_gpu)},
      {"peak", {{"event", e.peak.event + 1}, {"phase", iteration_phase_name(at.phase)}, {"layer", at.layer},
                {"cause", peak_cause_name(e.peak.cause)}, {"description", e.peak.description}}},
      {"fits", e.fits},
      {"activation_bytes", {{"full_layer", e.activations.full_layer}, {"stored_per_layer", e.activations.stored_per_layer},
                            {"recomputed", e.activations.recomputed}, {"all_layers", e.activations.all_layers},
                            {"logits", e.activations.logits}}},
      {"bucket_bytes", e.bucket_bytes},
      {"data_parallel", e.data_parallel},
      {"bytes_sent_per_gpu", {{"data_parallel", e.data_parallel_bytes_sent},
                              {"tensor_parallel", e.tensor_parallel.bytes_sent_per_gpu}}},
      {"activation_terms", {{"replicated", e.activations.terms.replicated}, {"parallel", e.activations.terms.parallel},
                            {"scores", e.activations.terms.scores},
                            {"flash_statistics", e.activations.terms.flash_statistics},
                            {"layer_input", e.activations.terms.layer_input}}},
      {"iteration_seconds", {{"estimate", true}, {"total", t.total}, {"compute", t.compute}, {"recompute", t.recompute},
                             {"communication", t.communication}, {"exposed_communication", t.exposed_communication},
                             {"offload", t.offload}, {"exposed_offload", t.exposed_offload},
                             {"tensor_parallel", t.tensor_parallel},
                             {"model_flops", t.model_flops}, {"recompute_flops", t.recompute_flops},
                             {"overlap", t.overlap}}}};
  if (e.query.offload == Offload::optimizer)
    j["offload"] = {{"host_per_gpu", e.host_per_gpu}, {"host_per_machine", e.host_per_machine},
                    {"pcie_bytes_per_gpu", e.pcie_bytes_per_gpu}};
  if (e.tensor_parallel.collectives_per_layer > 0)
    j["tensor_parallel"] = {{"collectives", e.tensor_parallel.collectives},
                            {"collectives_per_layer", e.tensor_parallel.collectives_per_layer},
                            {"elements", e.tensor_parallel.elements},
                            {"bytes_sent_per_gpu", e.tensor_parallel.bytes_sent_per_gpu}};
  if (e.deepspeed.exists)
    j["deepspeed_estimate"] = {{"formula", e.deepspeed.formula},
                               {"largest_layer_parameters", e.deepspeed.largest_layer_parameters},
                               {"gpu_bytes", e.deepspeed.gpu_bytes},
                               {"host_bytes_per_machine", e.deepspeed.host_bytes_per_machine},
                               {"buffer_factor", kDeepSpeedBufferFactor}};
  if (with_timeline) {
    nlohmann::json events = nlohmann::json::array();
    for (std::size_t i = 0; i < e.timeline.size(); ++i) {
      const IterationEvent& event = e.timeline[i];
      nlohmann::json one = memory_json(event.memory);
      one["event"] = i + 1;
      one["phase"] = iteration_phase_name(event.phase);
      one["layer"] = event.layer;
      one["label"] = event.label;
      events.push_back(std::move(one));
    }
    j["timeline"] = std::move(events);
  }
  return j;
}

void print_json(const IterationQuery& q, const IterationReportRequest& request,
                const std::vector<IterationEstimate>& estimates) {
  const Accelerator& accelerator = find_accelerator(q.accelerator);
  nlohmann::json rows = nlohmann::json::array();
  for (const IterationEstimate& e : estimates) rows.push_back(estimate_json(e, request.timeline));
  const TransformerShape& m = q.model;
  const nlohmann::json out = {
      {"schema", "ringviz.memory.iteration/1"},
      {"model", {{"name", m.name}, {"parameters", m.parameters}, {"layers", m.layers}, {"hidden", m.hidden},
                 {"heads", m.heads}, {"vocab", m.vocab}, {"kv_heads", kv_heads_of(m)}, {"ffn", ffn_of(m)},
                 {"gated_mlp", m.gated_mlp}, {"dropout", m.dropout}, {"source", m.source}}},
      {"seq", q.seq},
      {"micro_batch", q.micro_batch},
      {"gpus", q.gpus},
      {"tp", q.tp},
      {"sp", q.sp},
      {"attention", attention_name(q.attention)},
      {"block", block_name(q.block)},
      {"order", order_name(q.order)},
      {"convention", convention_name(q.convention)},
      {"offload", offload_name(q.offload)},
      {"accelerator", {{"name", accelerator.name}, {"label", accelerator.label},
                       {"peak_flops", accelerator.peak_flops}, {"host_link", accelerator.host_link}}},
      {"utilisation", q.utilisation},
      {"link", q.link},
      {"gpu_memory_bytes", request.capacity_bytes},
      {"activation_formulas", {{"none", activation_formula(Recompute::none)},
                               {"selective", activation_formula(Recompute::selective)},
                               {"full", activation_formula(Recompute::full)}, {"logits", "4·s·b·V"}}},
      {"caveat", q.block == Block::gpt ? kActivationCaveat : kModelBlockCaveat},
      {"estimates", std::move(rows)}};
  std::cout << out.dump(2) << "\n";
}

}  // namespace

bool IterationFlags::given() const {
  for (const std::string* text : {&model, &layers, &hidden, &heads, &vocab, &seq, &micro_batch, &recompute,
                                  &offload, &accelerator, &utilisation, &link, &tp, &attention, &block})
    if (!text->empty()) return true;
  return sp;
}

void add_iteration_options(CLI::App& parser, IterationFlags& flags) {
  std::string presets;
  for (const TransformerShape& preset : transformer_presets()) presets += std::string(preset.name) + " | ";
  parser.add_option("--model", flags.model,
                    "the whole iteration of a transformer: " + presets + "custom (with --layers --hidden --heads "
                    "--vocab --params)");
  parser.add_option("--layers", flags.layers, "custom model: transformer layers (L)");
  parser.add_option("--hidden", flags.hidden, "custom model: hidden size (h)");
  parser.add_option("--heads", flags.heads, "custom model: attention heads (a)");
  parser.add_option("--vocab", flags.vocab, "custom model: vocabulary size (V)");
  parser.add_option("--seq", flags.seq, "sequence length in tokens (s), default 4096");
  parser.add_option("--micro-batch", flags.micro_batch, "sequences per GPU per iteration (b), default 1");
  parser.add_option("--recompute", flags.recompute,
                    std::string(kEveryRecompute) + " (each in turn) or " + choice_help(kRecomputeNames) +
                        "; default none");
  parser.add_option("--offload", flags.offload, choice_help(kOffloadNames) + "; default none");
  std::string accelerators;
  for (const Accelerator& a : accelerator_presets())
    accelerators += (accelerators.empty() ? "" : " | ") + std::string(a.name) + " (" + std::string(a.label) + ")";
  parser.add_option("--accelerator", flags.accelerator, "peak BF16 rate for the time estimate: " + accelerators +
                                                             "; default h100");
  parser.add_option("--utilisation", flags.utilisation, "fraction of the peak rate reached, default 0.40");
  std::string links;
  for (const LinkModel& link : link_presets()) links += (links.empty() ? "" : " | ") + link.key;
  parser.add_option("--link", flags.link, "data-parallel fabric for the collectives' time: " + links +
                                              "; default nvlink4");
  parser.add_option("--tp", flags.tp, "tensor-parallel GPUs (t), dividing --gpus and the heads; default 1");
  parser.add_flag("--sp", flags.sp, "sequence parallelism across the tensor-parallel group (needs --tp above 1)");
  parser.add_option("--attention", flags.attention, choice_help(kAttentionNames) + "; default eager (Korthikanti's published s² term)");
  parser.add_option("--block", flags.block, choice_help(kBlockNames) + "; default gpt (Korthikanti's published constants)");
}

void print_iteration_report(const IterationFlags& flags, const IterationReportRequest& request) {
  try {
    const IterationQuery base = base_query(flags, request);
    std::vector<IterationEstimate> estimates;
    for (Strategy strategy : request.strategies)
      for (Recompute recompute : recomputes_from(flags)) {
        IterationQuery query = base;
        query.strategy = strategy;
        query.recompute = recompute;
        estimates.push_back(estimate_iteration(query));
      }
    if (request.timeline && estimates.size() != 1)
      throw InputError("--timeline: choose one --strategy and one --recompute");
    if (request.json) {
      print_json(base, request, estimates);
      return;
    }
    print_header(base, request);
    print_rows(estimates, request);
    if (request.timeline) print_timeline(estimates.front(), request.unit, request.language);
  } catch (const InputError& error) {
    rethrow_as_flag(error);
  }
}

}  // namespace ringviz::cli
