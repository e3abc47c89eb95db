// ringviz memory: per-GPU model-state memory and communication for DDP and ZeRO-1/2/3, and
// (--timeline) one training iteration step by step. A thin client of core/training/memory_model.h and
// core/training/training_timeline.h.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/command.h"
#include "app/options/config_flags.h"
#include "app/cli/memory/memory_iteration.h"
#include "app/cli/memory/memory_measured.h"
#include "app/options/number_flags.h"
#include "core/training/memory_model.h"
#include "core/model/text.h"
#include "core/output/terminal_text.h"
#include "core/training/training_timeline.h"
#include "core/training/training_words.h"

namespace ringviz::cli {

namespace {

// The one --strategy value that is not in kStrategyNames: every strategy in turn.
constexpr const char* kEveryStrategy = "all";

struct MemoryFlags {
  ConfigFlags config;  // --gpus (up to kMaxMemoryGpus) and --order are options
  std::string params = "7B";
  std::string strategy = kEveryStrategy;
  std::string convention = "paper";
  bool timeline = false;  // one iteration step by step, in buckets of --bucket-mb
  std::string bucket_mb = "25";
  std::string format = "table";
  std::string unit = "gb";
  std::string gpu_memory = "80";
  IterationFlags iteration;  // any of them given: the whole iteration of a transformer
  std::string from_job;      // a recorded job's measured memory beside the model's
  std::string lang = "en";
};

// A positive decimal number for `flag`, at most `limit`.
// A capacity or bucket size: a plain decimal read like every other real flag (no hex, no
// spaces), from a thousandth (1 MB of capacity, 1 KiB of bucket) so that a vanishing value such
// as 1e-300 cannot turn into zero bytes.
double parse_size_figure(const std::string& text, const std::string& flag) {
  return parse_real_in_range(text, flag, 1e-3, 1e6, "0.001 to 1e6");
}

struct MemoryRequest {
  MemoryQuery base;
  std::vector<Strategy> strategies;
  ByteUnit unit = ByteUnit::gb;
  double capacity_bytes = 0;
  bool json = false;
  bool timeline = false;
  std::int64_t bucket_bytes = kDefaultBucketBytes;
  Language language = Language::en;
};

MemoryRequest request_from(const MemoryFlags& flags) {
  MemoryRequest request;
  request.base.parameters = parse_parameter_count(flags.params, "--params");
  request.base.gpus = parse_gpu_count(flags.config.gpus, "--gpus", kMaxMemoryGpus);
  request.base.convention = parse_convention(flags.convention, "--convention");
  request.base.order = parse_order(flags.config.order, "--order");
  if (flags.strategy == kEveryStrategy)
    request.strategies.assign(std::begin(kAllStrategies), std::end(kAllStrategies));
  else
    request.strategies = {parse_strategy(flags.strategy, "--strategy")};
  request.unit = parse_unit(flags.unit, "--unit");
  // The capacity is in GB or GiB as the sizes are; with --unit bytes it stays in GB.
  const double capacity_unit = request.unit == ByteUnit::gib ? unit_bytes(ByteUnit::gib) : 1e9;
  request.capacity_bytes = parse_size_figure(flags.gpu_memory, "--gpu-memory") * capacity_unit;
  request.json = parse_enum(kReportFormatNames, flags.format, "--format") == ReportFormat::json;
  request.timeline = flags.timeline;
  request.language = parse_language(flags.lang, "--lang");
  if (request.timeline && request.strategies.size() != 1)
    throw InputError("--timeline: choose one --strategy (" + join_or(enum_names(kStrategyNames)) + ")");
  // PyTorch's bucket_cap_mb counts MB of 2^20 bytes.
  request.bucket_bytes =
      static_cast<std::int64_t>(parse_size_figure(flags.bucket_mb, "--bucket-mb") * 1048576.0);
  return request;
}

std::string amount(double bytes, ByteUnit unit) { return format_bytes(bytes, unit, false); }
// An amount in a fixed-width column: the leading space keeps it apart from its neighbour when
// it is wider than the column (100T parameters in bytes is 16 digits).
std::string column_amount(double bytes, ByteUnit unit) { return " " + amount(bytes, unit); }

std::string communication_summary(const MemoryEstimate& e, Language language) {
  std::string ops;
  for (const CommunicationCost& cost : e.communication) {
    if (!ops.empty()) ops += " + ";
    ops += cost.call.op == Op::allreduce       ? en_zh(language, "all-reduce", "全归约")
           : cost.call.op == Op::reducescatter ? en_zh(language, "reduce-scatter", "归约散射")
                                               : en_zh(language, "all-gather", "全收集");
  }
  return ops;
}

void print_table(const MemoryRequest& request, const std::vector<MemoryEstimate>& estimates) {
  const MemoryQuery& q = request.base;
  const Language lang = request.language;
  const std::string unit(unit_name(request.unit));
  const char* unit_bytes_note =
      request.unit == ByteUnit::gb ? " (10^9 bytes)" : request.unit == ByteUnit::gib ? " (2^30 bytes)" : "";
  if (lang == Language::zh)
    std::cout << "ringviz memory：" << format_parameter_count(q.parameters) << " 个参数（Ψ = " << q.parameters
              << "），" << q.gpus << " 个 GPU，约定 " << convention_name(q.convention) << "，大小单位 " << unit
              << (request.unit == ByteUnit::gb ? "（10^9 字节）" : request.unit == ByteUnit::gib ? "（2^30 字节）" : "")
              << "\n";
  else
    std::cout << "ringviz memory: " << format_parameter_count(q.parameters) << " parameters (Ψ = "
              << q.parameters << ") on " << q.gpus << (q.gpus == 1 ? " GPU" : " GPUs") << ", convention "
              << convention_name(q.convention) << ", sizes in " << unit << unit_bytes_note << "\n";
  std::cout << wrap(convention_assumptions(q.convention, lang), 100) << "\n";

  const std::vector<ComponentRule> rules = component_rules(q.convention);
  const ByteUnit capacity_unit = request.unit == ByteUnit::gib ? ByteUnit::gib : ByteUnit::gb;
  std::ostringstream capacity;
  capacity << in_unit(request.capacity_bytes, capacity_unit);
  const std::string fits = std::string(en_zh(lang, "fits ", "容得下 ")) + capacity.str() + " " +
                           std::string(unit_name(capacity_unit));
  const std::size_t fits_width = display_width(fits) + 2;
  std::ostringstream out;
  out << pad_right(en_zh(lang, "strategy", "策略"), 9) << pad_right(en_zh(lang, "formula", "公式"), 13);
  for (const ComponentRule& rule : rules) out << pad_left(component_heading(rule.component, lang), 11);
  out << pad_left(en_zh(lang, "total", "总计"), 10) << "  " << pad_right(fits, fits_width)
      << en_zh(lang, "sent per GPU per iteration", "每次迭代每个 GPU 发送") << "\n";
  bool uneven = false;
  for (const MemoryEstimate& e : estimates) {
    const ModelStateBytes& largest = e.largest();
    out << std::left << std::setw(9) << strategy_title(e.query.strategy) << cell_left(e.formula, 13);
    for (const ComponentRule& rule : rules)
      out << std::right << std::setw(11) << column_amount(static_cast<double>(largest[rule.component]), request.unit);
    const bool fits_capacity = static_cast<double>(largest.total()) <= request.capacity_bytes;
    out << std::setw(10) << column_amount(static_cast<double>(largest.total()), request.unit) << "  "
        << pad_right(fits_capacity ? en_zh(lang, "yes", "是") : en_zh(lang, "no", "否"), fits_width)
        << amount(static_cast<double>(e.bytes_sent_per_gpu[static_cast<std::size_t>(e.largest_gpu)]), request.unit)
        << en_zh(lang, " (", "（") << communication_summary(e, lang) << en_zh(lang, ")", "）") << "\n";
    for (const ModelStateBytes& gpu : e.per_gpu) uneven = uneven || gpu.total() != largest.total();
  }
  std::cout << out.str();
  if (uneven)
    std::cout << en_zh(lang,
                       "\nN does not divide Ψ: shards differ by one parameter; each row shows the GPU holding the most.\n",
                       "\nN 不能整除 Ψ：各分片相差一个参数；每行显示持有最多的 GPU。\n");
}

// "peak at step 12 (what step 12 does): gradients (1.2 GB) and transient buffers (0.1 GB) on
// top of the parameters and optimizer states", in GB whatever --unit says.
std::string peak_cause(const IterationTimeline& t, Language lang = Language::en) {
  const MemoryPeak& peak = t.peak;
  const bool zh = lang == Language::zh;
  std::vector<std::string> parts;
  if (peak.memory.gradients > 0)
    parts.push_back(std::string(en_zh(lang, "gradients (", "梯度（")) +
                    format_bytes(static_cast<double>(peak.memory.gradients), ByteUnit::gb) + en_zh(lang, ")", "）"));
  if (peak.memory.transient > 0)
    parts.push_back(std::string(en_zh(lang, "transient buffers (", "临时缓冲区（")) +
                    format_bytes(static_cast<double>(peak.memory.transient), ByteUnit::gb) + en_zh(lang, ")", "）"));
  const IterationStep& step = t.steps[static_cast<std::size_t>(peak.step)];
  if (zh) {
    std::string joined;
    for (const std::string& part : parts) joined += (joined.empty() ? "" : "和") + part;
    return "峰值在第 " + std::to_string(peak.step + 1) + " 步（" + timeline_step_label(t, step, lang) + "）：" +
           (parts.empty() ? "只有参数和优化器状态" : "参数和优化器状态之外另有" + joined);
  }
  const std::string on_top = parts.empty() ? "only the parameters and optimizer states"
                                           : join_and(std::vector<std::string_view>(parts.begin(), parts.end())) +
                                                 " on top of the parameters and optimizer states";
  return "peak at step " + std::to_string(peak.step + 1) + " (" + step.label + "): " + on_top;
}

// One precision per timeline column: enough decimals for its smallest non-zero value to keep
// three significant digits (0.0168), at least one, so that 0.0168, 0.1 and 14.0 line up.
int column_decimals(const IterationTimeline& t, ByteUnit unit, double (*field)(const GpuMemory&)) {
  if (unit == ByteUnit::bytes) return 0;
  double smallest = 0;
  for (const IterationStep& step : t.steps) {
    const double value = in_unit(field(step.largest), unit);
    if (value > 0 && (smallest == 0 || value < smallest)) smallest = value;
  }
  if (smallest == 0 || smallest >= 0.1) return 1;
  return std::min(12, 2 - static_cast<int>(std::floor(std::log10(smallest))));
}

std::string column_amount(double bytes, ByteUnit unit, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, " %.*f", decimals, in_unit(bytes, unit));
  return text;
}

void print_timeline_table(const MemoryRequest& request, const IterationTimeline& t) {
  const MemoryQuery& q = t.query.memory;
  const ByteUnit unit = request.unit;
  const Language lang = request.language;
  const std::int64_t bucket_bytes =
      t.bucket_elements * static_cast<std::int64_t>(dtype_size(gradient_dtype(q.convention)));
  const int first_gpu = t.steps.empty() ? 0 : t.steps.front().largest_gpu;
  if (lang == Language::zh)
    std::cout << "\n迭代时间线：" << strategy_title(q.strategy) << "，" << t.buckets.size() << " 个桶，每桶最多 "
              << t.bucket_elements << " 个梯度（" << bucket_bytes << " 字节）；持有最多的 GPU " << first_gpu
              << " 的内存，单位 " << unit_name(unit) << "\n";
  else
    std::cout << "\niteration timeline: " << strategy_title(q.strategy) << ", " << t.buckets.size()
              << (t.buckets.size() == 1 ? " bucket" : " buckets") << " of up to " << t.bucket_elements
              << " gradients (" << bucket_bytes << " bytes); memory of GPU " << first_gpu
              << ", the one holding the most, in " << unit_name(unit) << "\n";
  std::cout << pad_left(en_zh(lang, "step", "步"), 6) << pad_left(en_zh(lang, "params", "参数"), 10)
            << pad_left(en_zh(lang, "grads", "梯度"), 10) << pad_left(en_zh(lang, "optimizer", "优化器"), 11)
            << pad_left(en_zh(lang, "transient", "临时"), 11) << pad_left(en_zh(lang, "total", "总计"), 10) << "  "
            << en_zh(lang, "what", "内容") << "\n";
  using Field = double (*)(const GpuMemory&);
  const Field fields[] = {[](const GpuMemory& m) { return static_cast<double>(m.parameters); },
                          [](const GpuMemory& m) { return static_cast<double>(m.gradients); },
                          [](const GpuMemory& m) { return static_cast<double>(m.optimizer_states); },
                          [](const GpuMemory& m) { return static_cast<double>(m.transient); },
                          [](const GpuMemory& m) { return static_cast<double>(m.total()); }};
  const int widths[] = {10, 10, 11, 11, 10};
  int decimals[5];
  for (int c = 0; c < 5; ++c) decimals[c] = column_decimals(t, unit, fields[c]);
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    const IterationStep& step = t.steps[s];
    std::cout << std::right << std::setw(6) << s + 1;
    for (int c = 0; c < 5; ++c)
      std::cout << std::setw(widths[c]) << column_amount(fields[c](step.largest), unit, decimals[c]);
    std::cout << "  " << timeline_step_label(t, step, lang) << "\n";
  }
  std::cout << peak_cause(t, lang) << en_zh(lang, "; total ", "；总计 ")
            << format_bytes(static_cast<double>(t.peak.memory.total()), unit) << en_zh(lang, " on GPU ", "，在 GPU ")
            << t.peak.gpu << en_zh(lang, "\n", " 上\n");
}

nlohmann::json bytes_json(const ModelStateBytes& bytes, const std::vector<ComponentRule>& rules) {
  nlohmann::json j = nlohmann::json::object();
  for (const ComponentRule& rule : rules) j[std::string(component_name(rule.component))] = bytes[rule.component];
  j["gradients_total"] = bytes.gradients();
  j["optimizer_states"] = bytes.optimizer_states();
  j["total"] = bytes.total();
  return j;
}

nlohmann::json call_json(const CollectiveCall& call, int gpus, Order order) {
  const Config view = call.ring_view(gpus, order);
  return {{"purpose", call.purpose},
          {"op", op_name(call.op)},
          {"elements", call.elements},
          {"dtype", dtype_name(call.dtype)},
          {"reduce", reduce_op_name(call.reduce)},
          {"ring_view", {{"op", op_name(view.op)}, {"count", view.count}, {"dtype", dtype_name(view.dtype)},
                         {"reduce", reduce_op_name(view.reduce)}, {"gpus", view.ranks},
                         {"order", order_name(view.order)}}}};
}

nlohmann::json gpu_memory_json(const GpuMemory& m) {
  return {{"parameters", m.parameters}, {"gradients", m.gradients}, {"optimizer_states", m.optimizer_states},
          {"transient", m.transient}, {"total", m.total()}};
}

nlohmann::json timeline_json(const IterationTimeline& t) {
  const MemoryQuery& q = t.query.memory;
  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t s = 0; s < t.steps.size(); ++s) {
    const IterationStep& step = t.steps[s];
    nlohmann::json j = {{"step", s + 1},
                        {"kind", step_kind_name(step.kind)},
                        {"label", step.label},
                        {"bucket", step.bucket},
                        {"buckets_backward_done", step.buckets_backward_done},
                        {"buckets_reduced", step.buckets_reduced},
                        {"largest_gpu", step.largest_gpu},
                        {"largest", gpu_memory_json(step.largest)}};
    if (step.collective) j["collective"] = call_json(*step.collective, q.gpus, q.order);
    steps.push_back(std::move(j));
  }
  return {{"bucket_bytes", t.query.bucket_bytes},
          {"bucket_elements", t.bucket_elements},
          {"buckets", t.buckets.size()},
          {"owned_elements", t.owned_elements},
          {"steps", std::move(steps)},
          {"peak", {{"step", t.peak.step + 1}, {"gpu", t.peak.gpu},
                    {"component", peak_component_name(t.peak.component)}, {"cause", peak_cause(t)},
                    {"memory", gpu_memory_json(t.peak.memory)}}}};
}

void print_json(const MemoryRequest& request, const std::vector<MemoryEstimate>& estimates,
                const std::vector<IterationTimeline>& timelines) {
  const MemoryQuery& q = request.base;
  const std::vector<ComponentRule> rules = component_rules(q.convention);
  nlohmann::json strategies = nlohmann::json::array();
  for (std::size_t i = 0; i < estimates.size(); ++i) {
    const MemoryEstimate& e = estimates[i];
    nlohmann::json per_gpu = nlohmann::json::array();
    for (std::size_t gpu = 0; gpu < e.per_gpu.size(); ++gpu) {
      nlohmann::json j = bytes_json(e.per_gpu[gpu], rules);
      j["gpu"] = gpu;
      j["owned_elements"] = e.owned_elements[gpu];
      j["bytes_sent"] = e.bytes_sent_per_gpu[gpu];
      per_gpu.push_back(std::move(j));
    }
    nlohmann::json communication = nlohmann::json::array();
    for (const CommunicationCost& cost : e.communication) {
      nlohmann::json j = call_json(cost.call, q.gpus, q.order);
      j["bytes_sent"] = cost.bytes_sent;
      communication.push_back(std::move(j));
    }
    nlohmann::json s = {{"strategy", strategy_name(e.query.strategy)},
                        {"title", strategy_title(e.query.strategy)},
                        {"formula", e.formula},
                        {"formula_bytes", e.formula_bytes},
                        {"replicated_bytes_per_parameter", e.replicated_bytes_per_parameter},
                        {"sharded_bytes_per_parameter", e.sharded_bytes_per_parameter},
                        {"largest_gpu", e.largest_gpu},
                        {"largest", bytes_json(e.largest(), rules)},
                        {"fits", static_cast<double>(e.largest().total()) <= request.capacity_bytes},
                        {"per_gpu", std::move(per_gpu)},
                        {"communication", std::move(communication)},
                        {"bytes_sent_per_gpu", e.bytes_sent_per_gpu}};
    if (i < timelines.size()) s["timeline"] = timeline_json(timelines[i]);
    strategies.push_back(std::move(s));
  }
  nlohmann::json components = nlohmann::json::array();
  for (const ComponentRule& rule : rules)
    components.push_back({{"component", component_name(rule.component)},
                          {"bytes_per_parameter", rule.bytes_per_parameter},
                          {"sharded_from_stage", rule.sharded_from_stage}});
  const nlohmann::json out = {{"schema", "ringviz.memory/1"},
                              {"parameters", q.parameters},
                              {"gpus", q.gpus},
                              {"order", order_name(q.order)},
                              {"convention", convention_name(q.convention)},
                              {"assumptions", convention_assumptions(q.convention)},
                              {"components", std::move(components)},
                              {"unit", unit_name(request.unit)},
                              {"gpu_memory_bytes", request.capacity_bytes},
                              {"strategies", std::move(strategies)}};
  std::cout << out.dump(2) << "\n";
}

// The core names its field "bucket"; here the user typed --bucket-mb.
IterationTimeline timeline_for(const MemoryQuery& query, std::int64_t bucket_bytes) {
  try {
    return build_iteration_timeline({query, bucket_bytes});
  } catch (const InputError& error) {
    const std::string message = error.what();
    if (message.rfind("bucket:", 0) == 0) throw InputError("--bucket-mb:" + message.substr(7));
    throw;
  }
}

}  // namespace

Command add_memory_command(CLI::App& app) {
  auto* parser = app.add_subcommand(
      "memory", "per-GPU model-state memory and communication for ddp / zero1 / zero2 / zero3");
  auto flags = std::make_shared<MemoryFlags>();
  CLI::Option* params = parser->add_option("--params,-p", flags->params,
                     "parameters: 1.5B, 7B (the source article), 7.5B (ZeRO paper), 13B, 70B, 350M or a plain integer")
      ->capture_default_str();
  add_gpus_option(*parser, flags->config.gpus, "data-parallel GPUs", kMaxMemoryGpus);
  add_choice_option(*parser, "--strategy,-s", flags->strategy, kStrategyNames,
                    std::string(kEveryStrategy) + " (each in turn) or one of");
  add_choice_option(*parser, "--convention", flags->convention, kConventionNames);
  add_report_format_option(*parser, flags->format);
  add_choice_option(*parser, "--unit", flags->unit, kByteUnitNames);
  parser->add_option("--gpu-memory", flags->gpu_memory,
                     "GPU capacity for the 'fits' column, in GB (GiB with --unit gib): 24, 40, 80, 141 ...")
      ->capture_default_str();
  add_choice_option(*parser, "--order", flags->config.order, kOrderNames,
                    "which shard each GPU owns (matters when N does not divide Ψ)");
  parser->add_flag("--timeline", flags->timeline,
                   "also show one training iteration step by step (needs one --strategy)");
  parser->add_option("--bucket-mb", flags->bucket_mb, "gradient bucket size in MB of 2^20 bytes (PyTorch DDP's default: 25)")
      ->capture_default_str();
  add_iteration_options(*parser, flags->iteration);
  parser->add_option("--from-job", flags->from_job,
                     "a job document whose ranks ringviz_torch.measure measured: measured and model bytes per term");
  add_lang_option(*parser, flags->lang);
  return {parser, [flags, params, parser] {
            const MemoryRequest request = request_from(*flags);
            if (!flags->from_job.empty()) {
              if (flags->iteration.given() || params->count() > 0)
                throw InputError("--from-job: the job's shapes are the model's; leave out --model, --params and the "
                                 "iteration flags");
              // A measured job is small: bytes unless --unit says otherwise.
              print_measured_memory(flags->from_job, parser->count("--unit") > 0 ? request.unit : ByteUnit::bytes,
                                    request.json, request.language);
              return 0;
            }
            if (flags->iteration.given()) {
              print_iteration_report(flags->iteration,
                                     {request.base, params->count() > 0, request.strategies, request.unit,
                                      request.capacity_bytes, request.json, request.timeline, request.bucket_bytes,
                                      request.language});
              return 0;
            }
            std::vector<MemoryEstimate> estimates;
            std::vector<IterationTimeline> timelines;
            for (Strategy strategy : request.strategies) {
              MemoryQuery query = request.base;
              query.strategy = strategy;
              estimates.push_back(estimate_memory(query));
              if (request.timeline) timelines.push_back(timeline_for(query, request.bucket_bytes));
            }
            if (request.json) {
              print_json(request, estimates, timelines);
            } else {
              print_table(request, estimates);
              for (const IterationTimeline& t : timelines) print_timeline_table(request, t);
            }
            return 0;
          }};
}

}  // namespace ringviz::cli
