// `ringviz bench`: the table nccl-tests prints, for our ring on a chosen backend, plus how
// close the ring's memory traffic comes to a plain copy on the same machine.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/backend/backend_select.h"
#include "core/algorithms/registry.h"
#include "app/cli/bench_cuda.h"
#include "app/cli/command.h"
#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "core/engine/benchmark.h"
#include "core/model/text.h"
#include "core/nccl/nccl_text.h"
#include "core/nccl/nccl_tuner.h"
#include "core/output/terminal_text.h"

namespace ringviz::cli {

namespace {

// bus_bandwidth_factor() as the header prints it.
const char* bus_factor_text(Op op) {
  return op == Op::allreduce ? "2(n-1)/n" : op == Op::broadcast ? "1" : "(n-1)/n";
}

// Runs per size: a few thousand already average out noise; more only makes a run that never ends.
constexpr int kMaxBenchWarmup = 1000;
constexpr int kMaxBenchIterations = 10000;

struct BenchFlags {
  ConfigFlags config;
  std::string min_bytes = "1K";
  std::string max_bytes = "16M";
  std::string step_factor = "4";
  int warmup = 1;
  int iterations = 0;
  std::string mode = "step";
};

// The CPU target measures host memcpy as its baseline, the CUDA target a device-to-device
// copy. Any other backend is timed through the same table without a baseline ("-").
BenchTarget bench_target_for(BackendChoice choice, BenchMode mode, BackendInfo& info, bool verbose) {
  BackendSelection probe = select_backend(choice);
  say_backend_notice(probe.notice, verbose);
  info = probe.info;
  if (probe.backend->name() == "cpu") return cpu_bench_target();
  if (auto cuda = cuda_bench_target(info, mode)) return *cuda;
  BenchTarget target;
  target.name = probe.backend->name();
  target.make_backend = [choice] { return select_backend(choice).backend; };
  return target;
}

// The NCCL model's prediction for the row's size, as the last three columns: its time, busbw
// and the algorithm/protocol NCCL would pick; "-" where the model has nothing to say.
std::string model_columns(const std::optional<NcclPrediction>& model) {
  char text[96];
  if (!model) {
    std::snprintf(text, sizeof text, "  %10s  %8s  %s", "-", "-", "-");
    return text;
  }
  std::snprintf(text, sizeof text, "  %10.1f  %8.2f  %s", model->seconds * 1e6, model->busbw / 1e9,
                nccl_pair_text(*model).c_str());
  return text;
}

std::string format_row(const BenchRow& row, const Config& config, const std::optional<NcclPrediction>& model) {
  const auto optional_column = [](const std::optional<double>& value, const char* format) {
    if (!value) return std::string("       -");
    char text[32];
    std::snprintf(text, sizeof text, format, *value);
    return std::string(text);
  };
  char text[256];
  std::snprintf(text, sizeof text, "%12lld  %12lld  %6s  %6s  %10.1f  %7.2f  %7.2f  %6lld  %8.2f  %s  %s",
                static_cast<long long>(row.bytes), static_cast<long long>(row.count),
                std::string(dtype_name(config.dtype)).c_str(),
                std::string(reduce_op_name(config.reduce)).c_str(), row.microseconds,
                row.algbw_gbps, row.busbw_gbps, static_cast<long long>(row.wrong),
                row.traffic_gbps, optional_column(row.copy_gbps, "%8.2f").c_str(),
                optional_column(row.fraction, "%8.3f").c_str());
  return text + model_columns(model);
}

// nccl-tests prints the bare number; ours carries its unit and four significant digits.
std::string average_bandwidth(double gbps) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g GB/s", gbps);
  return text;
}

// The column heads in Chinese, each right-aligned over its column of format_row by display width.
std::string chinese_column_heads() {
  static constexpr ColumnHead kHeads[] = {
      {"大小", "(B)", 12},          {"元素数", "(个)", 12},   {"类型", "", 6},         {"归约", "", 6},
      {"时间", "(us)", 10},         {"algbw", "(GB/s)", 7}, {"busbw", "(GB/s)", 7}, {"#错误", "", 6},
      {"内存流量", "(GB/s)", 8},    {"memcpy", "(GB/s)", 8}, {"比例", "", 8},
      {"模型时间", "(us)", 10},     {"模型带宽", "(GB/s)", 8}};
  const ColumnHeadLines lines = commented_column_heads(kHeads);
  return lines.names + "  NCCL 的选择\n" + lines.units + "\n";
}

void print_header_zh(const Config& config, const BenchTarget& target, const BenchSettings& settings,
                     const Topology& assumed) {
  std::cout << "# ringviz bench：" << op_name(config.op) << "（" << algorithm_name(config.algorithm) << "，"
            << order_name(config.order) << " 顺序），" << config.ranks << " 个 GPU，" << dtype_name(config.dtype)
            << " " << reduce_op_name(config.reduce) << "，初值 " << config.init.spec() << "\n"
            << "# 后端 " << (target.name_zh.empty() ? target.name : target.name_zh) << "，模式 "
            << bench_mode_name(settings.mode);
  if (!target.mode_note.empty())
    std::cout << "（" << (target.mode_note_zh.empty() ? target.mode_note : target.mode_note_zh) << "）";
  std::cout << "\n# 预热 " << settings.warmup << " 次，计时 "
            << (settings.iterations > 0 ? std::to_string(settings.iterations) + " 次"
                                        : std::string("自动（每个大小约 0.5 秒，至少 5 次）"))
            << "；每次计时都从输入重新开始\n"
            << "# 大小：一个 rank 缓冲区的字节数（AllGather：它的 N 块输出）；元素数：每个 GPU 起始的元素个数\n"
            << "# busbw（总线带宽）：algbw（算法带宽，大小 / 时间）x " << bus_factor_text(config.op) << "；#错误：输出元素中"
            << (config.algorithm == Algorithm::ring
                    ? "与普通结果不逐位相同的个数（每个槽按环的顺序累加）"
                    : "偏离普通结果的个数（浮点数：超出本算法舍入顺序可能带来的误差）")
            << "\n"
            << "# 内存流量：环在最快一次计时中每秒搬动的内存（归约一步读两个槽写一个，复制一步读一个写一个）\n"
            << "# memcpy：在同一目标上复制同样大小缓冲区的最快速度，每秒读+写字节数；比例 = 内存流量 / memcpy\n"
            << nccl_prediction_note(assumed, Language::zh) << "\n#\n"
            << chinese_column_heads();
}

void print_header(const Config& config, const BenchTarget& target, const BenchSettings& settings, Language lang,
                  const Topology& assumed) {
  if (lang == Language::zh) return print_header_zh(config, target, settings, assumed);
  std::cout << "# ringviz bench: " << op_name(config.op) << " (" << algorithm_name(config.algorithm)
            << ", " << order_name(config.order) << " order), " << config.ranks << " GPUs, "
            << dtype_name(config.dtype) << " " << reduce_op_name(config.reduce) << ", init "
            << config.init.spec() << "\n"
            << "# backend " << target.name << ", mode " << bench_mode_name(settings.mode);
  if (!target.mode_note.empty()) std::cout << " (" << target.mode_note << ")";
  std::cout << "\n# warmup " << settings.warmup << ", iterations "
            << (settings.iterations > 0 ? std::to_string(settings.iterations)
                                        : std::string("auto (about 0.5 s per size, at least 5)"))
            << "; every timed run starts from the inputs\n"
            << "# size: bytes of one rank's buffer (AllGather: its N-block output); count: "
               "elements each GPU starts with\n"
            << "# busbw: algbw x " << bus_factor_text(config.op)
            << "; #wrong: output elements "
            << (config.algorithm == Algorithm::ring
                    ? "not bit-identical to the plain result (each slot folded in ring order)"
                    : "off the plain result (floats: beyond what this algorithm's order of "
                      "rounding may add)")
            << "\n"
            << "# traffic: memory the ring moved per second in its fastest timed run (a reduce step "
               "reads two slots and writes one, a copy step reads one and writes one)\n"
            << "# memcpy: the fastest plain copy of a buffer of the same size on this target, bytes "
               "read + written per second; fraction = traffic / memcpy\n"
            << nccl_prediction_note(assumed, Language::en) << "\n#\n"
            << "#       size         count    type   redop        time    algbw    busbw  #wrong   traffic    memcpy  fraction  "
               "model time  model bw  NCCL pick\n"
            << "#        (B)    (elements)                        (us)   (GB/s)   (GB/s)            (GB/s)    (GB/s)            "
               "(us)    (GB/s)\n";
}

int run_bench(const BenchFlags& flags, CLI::App& parser) {
  if (parser.count("--count") > 0)
    throw InputError("--count: bench derives the count from each size; use -b, -e and -f instead");
  Config config = config_from_flags(flags.config);
  if (config.init.kind == InitKind::file)
    throw InputError("--init: a file holds inputs for one count, and bench changes the count with "
                     "every size; use seed, rank, index or random:SEED");
  if (uneven_all_to_all(config))
    throw InputError("--splits: the splits fix every block's size, and bench changes the size with every row; use "
                     "trace or capture for an uneven exchange, or drop --splits to time even ones");
  BenchSettings settings;
  settings.config = config;
  const auto bytes = [](const std::string& text, const char* flag) {
    try {
      return parse_whole_number(text, flag, true);
    } catch (const InputError& error) {
      throw InputError(error.what() + std::string(" (bytes per GPU, at least 1: 1024, 1K, 16M, 1G)"));
    }
  };
  std::int64_t factor = 0;
  try {
    factor = parse_whole_number(flags.step_factor, "--stepfactor");
  } catch (const InputError& error) {
    throw InputError(error.what() + std::string(" (a whole number, at least 2)"));
  }
  settings.sizes = bench_sizes(bytes(flags.min_bytes, "--minbytes"), bytes(flags.max_bytes, "--maxbytes"), factor);
  // A size below one element would run a row of count 0; the smallest size is what -b gave.
  const std::int64_t smallest_bytes =
      static_cast<std::int64_t>(dtype_size(config.dtype)) * (config.op == Op::allgather ? config.ranks : 1);
  if (count_for_bytes(config.op, config.ranks, config.dtype, settings.sizes.front()) == 0)
    throw InputError("--minbytes: " + flags.min_bytes + " is smaller than one " + std::string(dtype_name(config.dtype)) +
                     " element" + (config.op == Op::allgather ? " from each of " + std::to_string(config.ranks) + " GPUs" : "") + " (" +
                     std::to_string(smallest_bytes) + " bytes); give -b " + std::to_string(smallest_bytes) +
                     " or more");
  settings.warmup = flags.warmup;
  settings.iterations = flags.iterations;
  settings.mode = parse_bench_mode(flags.mode, "--mode");

  // Refuse before allocating anything: the largest size decides.
  Config largest = config;
  largest.count = count_for_bytes(config.op, config.ranks, config.dtype, settings.sizes.back());
  validate_or_throw(largest);
  try {
    check_fits_in_memory(largest, kBenchExtraCopies);
  } catch (const InputError&) {
    // Same decision, worded for this command's flags rather than --count.
    const std::string needed = format_size_for_message(static_cast<double>(working_set_bytes(largest)) *
                                                       (1 + kBenchExtraCopies));
    const MemoryHeadroom headroom = memory_headroom();
    const std::string available = format_size_for_message(static_cast<double>(headroom.bytes));
    throw InputError("--maxbytes: " + flags.max_bytes + " per GPU on " + std::to_string(config.ranks) +
                     " GPUs needs " + needed + " (the buffers plus the copies the benchmark keeps) but only " +
                     available + " " + headroom.source + "; choose a smaller -e or fewer --gpus");
  }

  BackendInfo info;
  const BenchTarget target = bench_target_for(backend_from_flags(flags.config), settings.mode, info,
                                                flags.config.verbose);
  const Language language = parse_language(flags.config.lang, "--lang");
  const Topology assumed = prediction_topology(flags.config, config.ranks);
  const NcclMachine machine = nccl_machine(assumed);
  print_header(config, target, settings, language, assumed);
  for (const std::string& line : nccl_header_lines(config, info)) std::cout << line << "\n";
  std::int64_t wrong = 0;
  double busbw_sum = 0;
  BenchRow last;
  for (std::int64_t size : settings.sizes) {
    const BenchRow row = bench_one_size(config, size, target, settings);
    wrong += row.wrong;
    busbw_sum += row.busbw_gbps;
    std::cout << format_row(row, config, nccl_prediction_beside(machine, config.op, row.bytes)) << std::endl;  // one row at a time: big sizes are slow
    for (const std::string& line : nccl_row_lines(config, info, row, settings))
      std::cout << line << std::endl;
    last = row;
  }
  const std::string average = average_bandwidth(busbw_sum / static_cast<double>(settings.sizes.size()));
  if (language == Language::zh)
    std::cout << "# 越界值      ：" << wrong << (wrong == 0 ? " 通过" : " 失败") << "\n"
              << "# 平均 busbw  ：" << average << "\n";
  else
    std::cout << "# Out of bounds values : " << wrong << (wrong == 0 ? " OK" : " FAILED") << "\n"
              << "# Avg bus bandwidth    : " << average << "\n";
  if (info.name == "cuda")
    for (const std::string& line : ring_sent_summary(config, last)) std::cout << line << "\n";
  std::cout << "#\n";
  return wrong == 0 ? 0 : 1;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto flags = std::make_shared<BenchFlags>();
  auto* parser = app.add_subcommand(
      "bench", "time a collective over a range of sizes, nccl-tests style, with a memcpy baseline");
  add_config_flags(*parser, flags->config);
  parser->add_option("-b,--minbytes", flags->min_bytes, "smallest buffer per rank (K, M, G suffixes)")
      ->capture_default_str();
  parser->add_option("-e,--maxbytes", flags->max_bytes, "largest buffer per rank (K, M, G suffixes)")
      ->capture_default_str();
  parser->add_option("-f,--stepfactor", flags->step_factor, "multiply the size by this between rows")
      ->capture_default_str();
  add_checked_option<int>(
      *parser, "-w,--warmup_iters", flags->warmup,
      [](const std::string& text) {
        return static_cast<int>(parse_number_in_range(text, "--warmup_iters", 0, kMaxBenchWarmup));
      },
      "untimed runs before timing each size, 0-" + std::to_string(kMaxBenchWarmup) + " (default 1)", "INT");
  add_checked_option<int>(
      *parser, "-i,--iters", flags->iterations,
      [](const std::string& text) {
        return static_cast<int>(parse_number_in_range(text, "--iters", 0, kMaxBenchIterations));
      },
      "timed runs per size, 0-" + std::to_string(kMaxBenchIterations) +
          "; 0 (default) picks enough for about half a second (5 to 50)",
      "INT");
  add_choice_option(*parser, "--mode", flags->mode, kBenchModeNames);
  return {parser, [flags, parser] { return run_bench(*flags, *parser); }};
}

}  // namespace ringviz::cli
