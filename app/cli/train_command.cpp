// ringviz train: a small MLP trained data-parallel on N simulated GPUs through ringviz's own
// collectives (ddp, zero2 or nosync). Prints the loss per step, what each GPU really holds
// next to the memory model's prediction, and a checksum of every GPU's parameters.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/backend/backend_select.h"
#include "app/cli/command.h"
#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "core/output/terminal_text.h"
#include "core/training/memory_model.h"
#include "core/training/training_run.h"

namespace ringviz::cli {

namespace {

struct TrainFlags {
  // What runs, and for how long.
  std::string strategy = "ddp";
  std::string steps = "100";
  // Where: --gpus, --dtype, --order and --backend.
  ConfigFlags config;
  // How each step learns, and how the run is printed.
  std::string batch = "32";
  std::string lr = "0.01";
  std::string seed = "1";
  std::string format = "table";
};

// The element types --dtype offers, and what they apply to.
std::string dtype_help() {
  return choice_help(kDTypeNames, kTrainingDTypes) + " (parameters and gradients; AdamW state stays fp32)";
}

// Loss columns per GPU up to this many GPUs; beyond, min / mean / max.
constexpr int kLossColumns = 8;
// About ten minutes of training on one core (some 6 µs an example).
constexpr double kMaxTrainingExamples = 1e8;
// About a minute: the collectives of 256 GPUs cost some 30 ms a step here.
constexpr double kMaxTrainingGpuSteps = 2.5e5;

std::string format_count(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

TrainingOptions options_from(const TrainFlags& flags, int& steps, bool& json) {
  TrainingOptions o;
  o.strategy = parse_train_strategy(flags.strategy, "--strategy");
  o.gpus = parse_gpu_count(flags.config.gpus, "--gpus");
  steps = static_cast<int>(parse_number_in_range(flags.steps, "--steps", 1, kMaxTrainingSteps));
  o.dtype = parse_dtype_or_throw(flags.config.dtype, "--dtype");
  if (!trains_in(o.dtype))
    throw InputError("--dtype: " + flags.config.dtype + " is not supported for training (expected " +
                     training_dtype_choices() + ")");
  o.order = parse_order(flags.config.order, "--order");
  o.batch_per_gpu =
      static_cast<int>(parse_number_in_range(flags.batch, "--batch", 1, kMaxBatchPerGpu, "examples per GPU"));
  // The rate trains as a float: a value that rounds to float zero (1e-320) is out of range too.
  const double lr = parse_real_in_range(flags.lr, "--lr", 0, 1, "above 0, at most 1");
  if (static_cast<float>(lr) == 0) throw InputError("--lr: " + flags.lr + " is out of range (above 0, at most 1)");
  o.adamw.learning_rate = static_cast<float>(lr);
  o.seed = static_cast<std::uint64_t>(parse_whole_number(flags.seed, "--seed"));
  json = parse_enum(kReportFormatNames, flags.format, "--format") == ReportFormat::json;
  // Each bound alone still allows 10^12 examples, months of work: bound the product.
  const double examples = static_cast<double>(o.gpus) * o.batch_per_gpu * steps;
  if (examples > kMaxTrainingExamples)
    throw InputError("--steps: " + flags.steps + " steps x " + std::to_string(o.batch_per_gpu) + " examples x " +
                     std::to_string(o.gpus) + " GPUs is " + format_count(examples) +
                     " examples, more than one run trains (at most 1e8); lower --steps, --batch or --gpus");
  // Every step runs each GPU's collectives whatever the batch, so GPUs x steps bounds the time
  // on its own: 1000 steps on 256 GPUs take some 30 s on one core.
  const double gpu_steps = static_cast<double>(o.gpus) * steps;
  if (gpu_steps > kMaxTrainingGpuSteps)
    throw InputError("--steps: " + flags.steps + " steps x " + std::to_string(o.gpus) + " --gpus is " +
                     format_count(gpu_steps) + " GPU-steps, more than one run takes (at most 2.5e5, about a "
                     "minute); lower --steps or --gpus");
  validate_training_options(o);
  return o;
}

std::string hex(std::uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string describe(const TrainingOptions& o, std::int64_t parameters, const std::string& backend, Language lang) {
  std::ostringstream text;
  if (lang == Language::zh) {
    text << train_strategy_name(o.strategy) << "，" << o.gpus << " 个 GPU（" << backend << " 后端），MLP "
         << o.model.inputs << "-" << o.model.hidden << "-" << o.model.outputs << "，" << parameters << " 个参数，"
         << (o.dtype == DType::bf16 ? "bf16 参数和梯度，fp32 主权重和 AdamW 状态" : "fp32 参数、梯度和 AdamW 状态")
         << "，每步每个 GPU " << o.batch_per_gpu << " 个样本";
    return text.str();
  }
  text << train_strategy_name(o.strategy) << " on " << o.gpus << (o.gpus == 1 ? " GPU" : " GPUs") << " ("
       << backend << " backend), MLP " << o.model.inputs << "-" << o.model.hidden << "-" << o.model.outputs
       << " with " << parameters << " parameters, "
       << (o.dtype == DType::bf16 ? "bf16 parameters and gradients with fp32 master weights and AdamW state"
                                  : "fp32 parameters, gradients and AdamW state")
       << ", " << o.batch_per_gpu << " examples per GPU per step";
  return text.str();
}

void print_step(const TrainingStepRecord& record, int gpus) {
  std::cout << std::setw(6) << record.step;
  std::cout << std::fixed << std::setprecision(5);
  if (gpus <= kLossColumns) {
    for (double loss : record.loss) std::cout << std::setw(10) << loss;
  } else {
    double low = record.loss[0];
    double high = low;
    for (double loss : record.loss) {
      low = std::min(low, loss);
      high = std::max(high, loss);
    }
    std::cout << std::setw(10) << low << std::setw(10) << high;
  }
  std::cout << std::setw(10) << record.mean_loss << std::scientific << std::setprecision(3) << std::setw(12)
            << record.parameter_spread << std::defaultfloat << std::setw(10) << record.bytes_sent[0] << "\n";
}

bool all_identical(const TrainingRun& run) {
  for (int r = 1; r < run.options().gpus; ++r)
    if (run.parameter_bytes(r) != run.parameter_bytes(0)) return false;
  return true;
}

int run_table(TrainingRun& run, int steps, const std::string& backend, Language lang) {
  const TrainingOptions& o = run.options();
  std::cout << en_zh(lang, "ringviz train: ", "ringviz train：") << describe(o, run.parameter_count(), backend, lang)
            << "\n"
            << en_zh(lang,
                     "loss@r: GPU r's loss on its own mini-batch before the update; spread: the largest "
                     "difference of one parameter between GPUs after it; sent@0: bytes GPU 0 sent\n",
                     "loss@r：更新前 GPU r 在自己小批量上的损失；离散：更新后同一参数在各 GPU 间的最大差；"
                     "sent@0：GPU 0 发送的字节数\n");
  std::cout << pad_left(en_zh(lang, "step", "步"), 6);
  if (o.gpus <= kLossColumns)
    for (int r = 0; r < o.gpus; ++r) std::cout << std::setw(10) << ("loss@" + std::to_string(r));
  else
    std::cout << pad_left(en_zh(lang, "loss min", "最小损失"), 10) << pad_left(en_zh(lang, "loss max", "最大损失"), 10);
  std::cout << pad_left(en_zh(lang, "mean", "平均"), 10) << pad_left(en_zh(lang, "spread", "离散"), 12)
            << std::setw(10) << "sent@0" << "\n";
  for (int s = 0; s < steps; ++s) print_step(run.step(), o.gpus);

  const MemoryQuery query = memory_query_for(o);
  const MemoryEstimate model = estimate_memory(query);
  if (lang == Language::zh)
    std::cout << "\n优化器步时每个 GPU 持有的字节数，实测（内存模型：" << strategy_title(query.strategy) << "，约定 "
              << convention_name(query.convention) << "）\n";
  else
    std::cout << "\nbytes held per GPU at the optimizer step, measured (memory model: "
              << strategy_title(query.strategy) << ", convention " << convention_name(query.convention) << ")\n";
  std::cout << std::setw(5) << "GPU" << pad_left(en_zh(lang, "parameters", "参数"), 12)
            << pad_left(en_zh(lang, "gradients", "梯度"), 11) << pad_left(en_zh(lang, "master", "主权重"), 10)
            << pad_left(en_zh(lang, "momentum", "动量"), 10) << pad_left(en_zh(lang, "variance", "方差"), 10)
            << pad_left(en_zh(lang, "optimizer states", "优化器状态"), 18) << "  " << en_zh(lang, "model", "模型")
            << "\n";
  for (int r = 0; r < o.gpus; ++r) {
    const ModelStateBytes& held = run.held_at_optimizer_step()[static_cast<std::size_t>(r)];
    const ModelStateBytes& predicted = model.per_gpu[static_cast<std::size_t>(r)];
    const std::string differs = lang == Language::zh ? "不同（模型 " + std::to_string(predicted.total()) + " B）"
                                                     : "DIFFERENT (model " + std::to_string(predicted.total()) + " B)";
    std::cout << std::setw(5) << r << std::setw(12) << held.parameters() << std::setw(11) << held.gradients()
              << std::setw(10) << held[StateComponent::master_weights] << std::setw(10)
              << held[StateComponent::momentum] << std::setw(10) << held[StateComponent::variance]
              << std::setw(18) << held.optimizer_states() << "  "
              << (held == predicted ? std::string(en_zh(lang, "equal", "相同")) : differs) << "\n";
  }
  std::cout << en_zh(lang, "\nparameter checksums (FNV-1a 64 of each GPU's parameter bytes)\n",
                     "\n参数校验和（每个 GPU 参数字节的 FNV-1a 64）\n");
  for (int r = 0; r < o.gpus; ++r)
    std::cout << std::setw(5) << r << "  " << hex(run.history().back().checksums[static_cast<std::size_t>(r)]) << "\n";
  const std::string spread = std::to_string(run.history().back().parameter_spread);
  if (all_identical(run))
    std::cout << en_zh(lang, "every GPU holds bit-identical parameters\n", "每个 GPU 持有逐位相同的参数\n");
  else if (lang == Language::zh)
    std::cout << "各 GPU 的参数不同（最大差 " << spread << "）\n";
  else
    std::cout << "the GPUs' parameters differ (largest difference " << spread << ")\n";
  return 0;
}

int run_json(TrainingRun& run, int steps, const std::string& backend) {
  const TrainingOptions& o = run.options();
  nlohmann::json history = nlohmann::json::array();
  for (int s = 0; s < steps; ++s) {
    const TrainingStepRecord& record = run.step();
    nlohmann::json checksums = nlohmann::json::array();
    for (std::uint64_t c : record.checksums) checksums.push_back(hex(c));
    history.push_back({{"step", record.step},
                       {"loss", record.loss},
                       {"mean_loss", record.mean_loss},
                       {"parameter_spread", record.parameter_spread},
                       {"parameter_spread_rms", record.parameter_spread_rms},
                       {"checksums", std::move(checksums)},
                       {"bytes_sent", record.bytes_sent}});
  }
  const MemoryQuery query = memory_query_for(o);
  const MemoryEstimate model = estimate_memory(query);
  const auto bytes = [](const ModelStateBytes& b) {
    return nlohmann::json{{"parameters", b.parameters()},
                          {"gradients", b.gradients()},
                          {"master_weights", b[StateComponent::master_weights]},
                          {"momentum", b[StateComponent::momentum]},
                          {"variance", b[StateComponent::variance]},
                          {"optimizer_states", b.optimizer_states()},
                          {"total", b.total()}};
  };
  nlohmann::json held = nlohmann::json::array();
  nlohmann::json predicted = nlohmann::json::array();
  for (int r = 0; r < o.gpus; ++r) {
    held.push_back(bytes(run.held_at_optimizer_step()[static_cast<std::size_t>(r)]));
    predicted.push_back(bytes(model.per_gpu[static_cast<std::size_t>(r)]));
  }
  const nlohmann::json out = {
      {"schema", "ringviz.train/1"},
      {"strategy", train_strategy_name(o.strategy)},
      {"gpus", o.gpus},
      {"dtype", dtype_name(o.dtype)},
      {"order", order_name(o.order)},
      {"backend", backend},
      {"model", {{"inputs", o.model.inputs}, {"hidden", o.model.hidden}, {"outputs", o.model.outputs},
                 {"parameters", run.parameter_count()}}},
      {"batch_per_gpu", o.batch_per_gpu},
      {"learning_rate", o.adamw.learning_rate},
      {"seed", o.seed},
      {"memory_model", {{"strategy", strategy_name(query.strategy)}, {"convention", convention_name(query.convention)}}},
      {"steps", std::move(history)},
      {"held_at_optimizer_step", std::move(held)},
      {"predicted", std::move(predicted)},
      {"identical", all_identical(run)}};
  std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace

Command add_train_command(CLI::App& app) {
  auto* parser = app.add_subcommand(
      "train", "train a small MLP data-parallel on N GPUs through ringviz's collectives (" +
                   choice_names(kTrainStrategyNames) + ")");
  auto flags = std::make_shared<TrainFlags>();
  add_choice_option(*parser, "--strategy,-s", flags->strategy, kTrainStrategyNames);
  add_gpus_option(*parser, flags->config.gpus, "data-parallel GPUs", kMaxRanks);
  parser->add_option("--steps", flags->steps, "training steps, 1-" + std::to_string(kMaxTrainingSteps))
      ->capture_default_str();
  parser->add_option("--dtype,-d", flags->config.dtype, dtype_help())->capture_default_str();
  add_choice_option(*parser, "--order", flags->config.order, kOrderNames,
                    "which slot each GPU owns after the reduce-scatter");
  add_backend_option(*parser, flags->config.backend);
  add_verbose_flag(*parser, flags->config.verbose);
  parser->add_option("--batch", flags->batch, "examples per GPU per step")->capture_default_str();
  parser->add_option("--lr", flags->lr, "AdamW learning rate")->capture_default_str();
  parser->add_option("--seed", flags->seed, "seed of the synthetic data and the initial weights")->capture_default_str();
  add_report_format_option(*parser, flags->format);
  add_lang_option(*parser, flags->config.lang);
  return {parser, [flags] {
            int steps = 0;
            bool json = false;
            const TrainingOptions options = options_from(*flags, steps, json);
            const Language language = parse_language(flags->config.lang, "--lang");
            BackendSelection selection = select_backend(backend_from_flags(flags->config));
            say_backend_notice(selection.notice, flags->config.verbose);
            TrainingRun run(options, *selection.backend);
            const std::string backend = selection.backend->name();
            return json ? run_json(run, steps, backend) : run_table(run, steps, backend, language);
          }};
}

}  // namespace ringviz::cli
