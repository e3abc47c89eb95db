// ringviz compare: every algorithm that has the op, simulated with contention on a topology
// (a preset, a file, or a star of one link preset), at one message size and across
// 1 KiB - 1 GiB. A thin client of core/training/cost_model and core/topology.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/algorithms/registry.h"
#include "app/cli/command.h"
#include "app/options/config_flags.h"
#include "app/options/number_flags.h"
#include "app/cli/compare_fit.h"
#include "app/cli/compare_nccl.h"
#include "core/nccl/nccl_text.h"
#include "core/training/cost_model.h"
#include "core/model/text.h"
#include "core/output/terminal_text.h"

namespace ringviz::cli {

namespace {

struct CompareFlags {
  ConfigFlags config{.gpus = "8", .count = "1M"};  // --op, --gpus, --count and --dtype are options
  std::string link = "nvlink4";
  std::optional<double> alpha_us;  // overrides of the preset, when given
  std::optional<double> bandwidth_gbs;
  std::optional<double> gamma_ps;
  bool sweep = false;
  std::string format = "table";
  std::string topology;  // empty: a star of --link
  int slices = 1;
  int channels = 1;
  std::string fit;  // a captured run to fit α and β to
  std::string nccl_algo;  // --nccl-algo: pins NCCL's algorithm, as NCCL_ALGO does
  std::string protocol;   // --protocol: pins NCCL's protocol, as NCCL_PROTO does
  std::string lang = "en";
};

std::string printf_string(const char* format, double value, const char* unit) {
  char text[64];
  std::snprintf(text, sizeof text, format, value, unit);
  return text;
}

// Binary units, as --count's K, M and G suffixes: "4 MiB", "629.7 KiB", "12 B".
std::string bytes_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::abs(bytes) >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  const bool whole = std::abs(bytes - std::round(bytes)) < 0.05;
  return printf_string(whole ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
}

// Always with a unit and never wider than a column: absurd link figures (1e-30 GB/s) give
// times of 10^27 s, which print in powers of ten rather than as 30 digits.
std::string seconds_text(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds < 1e-6) return printf_string("%.3g %s", seconds * 1e9, "ns");
  if (seconds < 1e-3) return printf_string("%.2f %s", seconds * 1e6, "µs");
  if (seconds < 1) return printf_string("%.3f %s", seconds * 1e3, "ms");
  if (seconds < 1e4) return printf_string("%.3f %s", seconds, "s");
  return printf_string("%.3e %s", seconds, "s");
}

std::string ratio_text(double ratio) { return printf_string(ratio < 1e4 ? "%.2f%s" : "%.3g%s", ratio, "x"); }

// Any positive figure however absurd (1e-30 GB/s) is a fair question to the model, but up to
// 10^12 only, so that every predicted time stays a finite number of seconds.
constexpr double kMaxLinkFigure = 1e12;

void add_link_override(CLI::App& parser, const std::string& flag, std::optional<double>& target, bool zero_allowed,
                       const std::string& help) {
  const std::string accepted = std::string(zero_allowed ? "0" : "above 0") + " to 1e12";
  add_checked_option<std::optional<double>>(
      parser, flag, target,
      [flag, zero_allowed, accepted](const std::string& text) -> std::optional<double> {
        const double value = parse_real_in_range(text, flag, 0, kMaxLinkFigure, accepted);
        if (value == 0 && !zero_allowed) throw InputError(flag + ": " + text + " is out of range (" + accepted + ")");
        return value;
      },
      help + ", " + accepted, "FLOAT");
}

bool figures_overridden(const CompareFlags& flags) {
  return flags.alpha_us || flags.bandwidth_gbs || flags.gamma_ps;
}

// The link's label as a table or the JSON names it: the preset's own, or marked as no longer
// the preset's figures when --alpha-us, --bandwidth-gbs or --gamma-ps changed them.
std::string link_label(const LinkModel& preset, bool overridden, Language lang) {
  if (!overridden) return preset.label;
  return preset.label + en_zh(lang, " with figures overridden", "（数值已覆盖）");
}

LinkModel link_from_flags(const CompareFlags& flags) {
  const LinkModel& preset = find_link_preset(flags.link, "--link");
  LinkModel link = preset;
  // The values were range-checked while parsing (add_link_override).
  if (flags.alpha_us) link.alpha_seconds = *flags.alpha_us * 1e-6;
  if (flags.bandwidth_gbs) link.bytes_per_second = *flags.bandwidth_gbs * 1e9;
  if (flags.gamma_ps) link.gamma_seconds_per_byte = *flags.gamma_ps * 1e-12;
  if (figures_overridden(flags)) {
    // The preset's note explains figures that no longer all hold.
    link.label = link_label(preset, true, Language::en);
    link.note.clear();
  }
  return link;
}

// One line per kind of link: "nvlink4: 16 links, 225 GB/s, 0.10 µs a hop, α 1.00 µs, 100 GB/s a channel".
void print_link_classes(const Topology& topology, Language lang) {
  std::vector<std::string> seen;
  for (const TopologyLink& link : topology.links) {
    const std::string bandwidth = printf_string("%.4g %s", link.bytes_per_second / 1e9, "GB/s");
    const std::string channel =
        link.channel_bytes_per_second > 0 ? printf_string("%.4g %s", link.channel_bytes_per_second / 1e9, "GB/s") : "";
    const std::string line =
        lang == Language::zh
            ? link.link_class + "：每个方向 " + bandwidth + "，每跳 " + seconds_text(link.latency_seconds) + "，α " +
                  seconds_text(link.alpha_seconds) +
                  (channel.empty() ? std::string("，通道不限速") : "，每个通道 " + channel)
            : link.link_class + ": " + bandwidth + " per direction, " + seconds_text(link.latency_seconds) +
                  " a hop, α " + seconds_text(link.alpha_seconds) +
                  (channel.empty() ? std::string(", no channel cap") : ", " + channel + " a channel");
    if (std::find(seen.begin(), seen.end(), line) != seen.end()) continue;
    seen.push_back(line);
    int count = 0;
    for (const TopologyLink& other : topology.links)
      count += other.link_class == link.link_class && other.bytes_per_second == link.bytes_per_second;
    if (lang == Language::zh)
      std::cout << "  " << line << "（" << count << " 条单向链路）\n";
    else
      std::cout << "  " << line << " (" << count << " one-way links)\n";
  }
}

std::string busiest_text(const CostEstimate& estimate, Language lang) {
  if (!estimate.busiest_link_bytes) return "0 B";
  const std::string gpu = std::to_string(estimate.busiest_link_rank);
  const std::string bytes = bytes_text(static_cast<double>(estimate.busiest_link_bytes));
  if (lang == Language::zh)
    return bytes + "（GPU " + gpu + (estimate.busiest_link_inbound ? " 入）" : " 出）");
  return bytes + " (GPU " + gpu + (estimate.busiest_link_inbound ? " in)" : " out)");
}

// How the table was asked for: on --topology or a star of --link, and whether --alpha-us,
// --bandwidth-gbs or --gamma-ps changed the link's figures.
struct TableRequest {
  bool sweep = false;
  bool on_topology = false;
  bool overridden = false;
  Language lang = Language::en;
};

void print_setup(const CostComparison& comparison, const TableRequest& request) {
  const bool on_topology = request.on_topology;
  const Language lang = request.lang;
  const Config& config = comparison.config;
  const LinkModel& link = comparison.link;
  const std::int64_t bytes = config.count * static_cast<std::int64_t>(dtype_size(config.dtype));
  const bool zh = lang == Language::zh;
  const std::string topology_label = zh && !comparison.topology.label_zh.empty() ? comparison.topology.label_zh
                                                                                   : comparison.topology.label;
  // On --topology there is no --link (the topology's label is printed instead).
  const std::string link_text = on_topology ? "" : link_label(find_link_preset(link.key), request.overridden, lang);
  if (zh)
    std::cout << op_display_name(config.op) << "，每个 GPU " << bytes_text(static_cast<double>(bytes)) << "（"
              << config.count << " x " << dtype_name(config.dtype) << "），"
              << (on_topology ? topology_label : std::to_string(config.ranks) + " 个 GPU，经 " + link_text) << "\n";
  else
    std::cout << op_display_name(config.op) << " of " << bytes_text(static_cast<double>(bytes)) << " per GPU ("
              << config.count << " x " << dtype_name(config.dtype) << ") on "
              << (on_topology ? comparison.topology.label
                              : std::to_string(config.ranks) + (config.ranks == 1 ? " GPU over " : " GPUs over ") +
                                    link_text)
              << "\n";
  const std::string gamma = printf_string("%.3g %s", comparison.topology.gamma_seconds_per_byte * 1e12, "ps");
  if (on_topology) {
    print_link_classes(comparison.topology, lang);
    if (zh)
      std::cout << "  γ 每归约一字节 " << gamma << "；共用一条链路的传输按最大最小公平分享带宽\n";
    else
      std::cout << "  γ " << gamma << " per byte reduced; transfers sharing a link share it max-min fairly\n";
  } else {
    const std::string beta = printf_string("%.4g %s", link.bytes_per_second / 1e9, "GB/s");
    const std::string link_gamma = printf_string("%.3g %s", link.gamma_seconds_per_byte * 1e12, "ps");
    if (zh)
      std::cout << "  α 每条消息 " << seconds_text(link.alpha_seconds) << "，每个 GPU 每个方向 " << beta
                << "（β），γ 每归约一字节 " << link_gamma << "\n";
    else
      std::cout << "  α " << seconds_text(link.alpha_seconds) << " per message, " << beta
                << " per direction per GPU (β), γ " << link_gamma << " per byte reduced\n";
    if (!link.note.empty())
      std::cout << "  " << (zh && !link_note_zh(link.key).empty() ? std::string(link_note_zh(link.key)) : link.note)
                << "\n";
  }
  if (config.channels > 1 || config.slices > 1) {
    if (zh)
      std::cout << "  " << config.channels << " 个通道，每个槽 " << config.slices << " 片：步数按流水线的波计\n";
    else
      std::cout << "  " << config.channels << (config.channels == 1 ? " channel, " : " channels, ") << config.slices
                << (config.slices == 1 ? " slice" : " slices") << " per slot: the steps are the pipeline's waves\n";
  }
  std::cout << "\n";
}

void print_table(const CostComparison& comparison, const NcclAnswer& nccl, const TableRequest& request) {
  const Config& config = comparison.config;
  const Language lang = request.lang;
  const bool zh = lang == Language::zh;
  const bool on_topology = request.on_topology;
  print_setup(comparison, request);
  print_nccl_line(nccl, comparison, lang);

  double best = 0;
  for (const CostEstimate& estimate : comparison.at_count)
    if (best == 0 || estimate.seconds < best) best = estimate.seconds;
  // Each column is as wide as its usual width or its widest cell plus a space, whichever is more.
  std::vector<std::vector<std::string>> rows = {
      // A pipelined schedule's steps are waves (docs/architecture.md, "Rounds and waves, in words").
      {std::string(en_zh(lang, "algorithm", "算法")),
       config.channels > 1 || config.slices > 1 ? std::string(en_zh(lang, "waves", "波数"))
                                                : std::string(en_zh(lang, "rounds", "轮数")),
       std::string(en_zh(lang, "msgs/GPU", "消息/GPU")), std::string(en_zh(lang, "most sent", "最多发送")),
       std::string(en_zh(lang, "busiest link", "最忙链路")), std::string(en_zh(lang, "predicted", "预测")),
       std::string(en_zh(lang, "vs best", "比最快"))}};
  for (const CostEstimate& estimate : comparison.at_count)
    rows.push_back({std::string(algorithm_name(estimate.algorithm)), std::to_string(estimate.rounds),
                    std::to_string(estimate.messages), bytes_text(static_cast<double>(estimate.max_bytes_sent)),
                    busiest_text(estimate, lang), seconds_text(estimate.seconds),
                    best > 0 ? ratio_text(estimate.seconds / best) : "-"});
  std::vector<std::size_t> widths = {16, 7, 10, 12, 24, 12, 9};
  for (const auto& row : rows)
    for (std::size_t c = 1; c < widths.size(); ++c) widths[c] = std::max(widths[c], display_width(row[c]) + 1);
  for (const auto& row : rows) {
    std::cout << cell_left(row[0], widths[0]);
    for (std::size_t c = 1; c < widths.size(); ++c) std::cout << cell_right(row[c], widths[c]);
    std::cout << "\n";
  }
  if (on_topology) {
    std::cout << en_zh(lang, "\nshared links (more than one transfer at once), and the contention-free time:\n",
                       "\n共用的链路（同时有多于一个传输），以及无争用时的时间：\n");
    for (const CostEstimate& estimate : comparison.at_count) {
      int shared = 0;
      int most = 0;
      for (const LinkTraffic& traffic : estimate.simulation.links) {
        shared += traffic.most_flows > 1;
        most = std::max(most, traffic.most_flows);
      }
      std::cout << "  " << cell_left(algorithm_name(estimate.algorithm), 16);
      if (zh)
        std::cout << shared << " 条共用（共 " << estimate.simulation.links.size() << " 条链路），最多同时 " << most
                  << " 个；无争用时 " << seconds_text(estimate.contention_free_seconds) << "\n";
      else
        std::cout << shared << " of " << estimate.simulation.links.size() << " links shared, at most " << most
                  << " at once; " << seconds_text(estimate.contention_free_seconds) << " without contention\n";
    }
  }
  std::cout << en_zh(lang, "\ncost shapes (n = bytes per GPU; exact when N is a power of two dividing the count):\n",
                     "\n成本公式（n = 每个 GPU 的字节数；N 为 2 的幂且整除元素数时精确）：\n");
  for (Algorithm algorithm : comparison.algorithms)
    std::cout << "  " << cell_left(algorithm_name(algorithm), 16)
              << cost_formula(algorithm, config.op, lang) << "\n";

  for (Algorithm algorithm : comparison.swept_without_contention) {
    if (zh)
      std::cout << "\n" << algorithm_name(algorithm) << " 的传输多于 " << kMaxSweptTransfers
                << " 个：下面的扫描不计争用（上面的时间是模拟的）";
    else
      std::cout << "\n" << algorithm_name(algorithm) << " has more than " << kMaxSweptTransfers
                << " transfers: swept below without contention (its time above is simulated)";
  }
  if (!comparison.swept_without_contention.empty()) std::cout << "\n";
  const std::string range = bytes_text(static_cast<double>(comparison.sweep_bytes.front())) + " - " +
                            bytes_text(static_cast<double>(comparison.sweep_bytes.back()));
  if (zh)
    std::cout << "\n各消息大小下最快的算法（每个 GPU " << range << "）：\n";
  else
    std::cout << "\nfastest by message size (" << range << " per GPU):\n";
  std::int64_t from = comparison.sweep_bytes.front();
  Algorithm winner = comparison.sweep_fastest.front();
  for (const Crossover& crossover : comparison.crossovers) {
    std::cout << "  " << cell_right(bytes_text(static_cast<double>(from)), 10) << " - "
              << cell_left(bytes_text(static_cast<double>(crossover.bytes)), 10) << "  " << algorithm_name(winner)
              << "\n";
    from = crossover.bytes;
    winner = crossover.faster;
  }
  std::cout << "  " << cell_right(bytes_text(static_cast<double>(from)), 10) << " - "
            << cell_left(bytes_text(static_cast<double>(comparison.sweep_bytes.back())), 10) << "  "
            << algorithm_name(winner) << "\n";
  for (const Crossover& crossover : comparison.crossovers) {
    if (zh)
      std::cout << "  交叉点 " << bytes_text(static_cast<double>(crossover.bytes)) << "（" << crossover.bytes
                << " B）：" << algorithm_name(crossover.faster) << " 超过 " << algorithm_name(crossover.slower) << "\n";
    else
      std::cout << "  crossover at " << bytes_text(static_cast<double>(crossover.bytes)) << " (" << crossover.bytes
                << " B): " << algorithm_name(crossover.faster) << " overtakes " << algorithm_name(crossover.slower)
                << "\n";
  }

  if (!request.sweep) return;
  std::cout << en_zh(lang, "\npredicted time by message size:\n", "\n各消息大小的预测时间：\n")
            << cell_right(en_zh(lang, "bytes/GPU", "字节/GPU"), 10);
  for (Algorithm algorithm : comparison.algorithms) std::cout << cell_right(algorithm_name(algorithm), 15);
  std::cout << cell_right(en_zh(lang, "fastest", "最快"), 16);
  if (nccl.modelled) std::cout << "  " << en_zh(lang, "what NCCL would do", "NCCL 会怎么做");
  std::cout << "\n";
  for (std::size_t i = 0; i < comparison.sweep_bytes.size(); ++i) {
    std::cout << cell_right(bytes_text(static_cast<double>(comparison.sweep_bytes[i])), 10);
    for (const auto& seconds : comparison.sweep_seconds) std::cout << cell_right(seconds_text(seconds[i]), 15);
    std::cout << cell_right(algorithm_name(comparison.sweep_fastest[i]), 16);
    if (nccl.modelled && i < nccl.sweep.size())
      std::cout << "  " << nccl_pair_text(nccl.sweep[i]) << " " << seconds_text(nccl.sweep[i].seconds);
    std::cout << "\n";
  }
}

// The machine the times were simulated on, so that others can check the model: every one-way
// link with its bandwidth (bytes per second) and latency (seconds), and each algorithm's load on it.
nlohmann::json topology_json(const CostComparison& comparison) {
  const Topology& topology = comparison.topology;
  nlohmann::json out = {{"key", topology.key},
                        {"label", topology.label},
                        {"gpus", topology.gpus},
                        {"nodes", topology.node_names},
                        {"gamma_seconds_per_byte", topology.gamma_seconds_per_byte},
                        {"links", nlohmann::json::array()}};
  for (std::size_t index = 0; index < topology.links.size(); ++index) {
    const TopologyLink& link = topology.links[index];
    nlohmann::json load = nlohmann::json::object();
    for (const CostEstimate& estimate : comparison.at_count) {
      const LinkTraffic& traffic = estimate.simulation.links[index];
      load[std::string(algorithm_name(estimate.algorithm))] = {{"bytes", traffic.bytes},
                                                               {"most_flows", traffic.most_flows},
                                                               {"busy_seconds", traffic.busy_seconds}};
    }
    out["links"].push_back({{"from", topology.node_names[static_cast<std::size_t>(link.from)]},
                            {"to", topology.node_names[static_cast<std::size_t>(link.to)]},
                            {"class", link.link_class},
                            {"bytes_per_second", link.bytes_per_second},
                            {"latency_seconds", link.latency_seconds},
                            {"alpha_seconds", link.alpha_seconds},
                            {"channel_bytes_per_second", link.channel_bytes_per_second},
                            {"load", load}});
  }
  return out;
}

nlohmann::json comparison_json(const CostComparison& comparison, const NcclAnswer& nccl) {
  const Config& config = comparison.config;
  const LinkModel& link = comparison.link;
  nlohmann::json out;
  out["schema"] = "ringviz.compare/1";
  out["config"] = {{"op", op_name(config.op)},
                   {"ranks", config.ranks},
                   {"count", config.count},
                   {"dtype", dtype_name(config.dtype)},
                   {"bytes_per_gpu", config.count * static_cast<std::int64_t>(dtype_size(config.dtype))},
                   {"channels", config.channels},
                   {"slices", config.slices}};
  out["link"] = {{"key", link.key},
                 {"label", link.label},
                 {"alpha_seconds", link.alpha_seconds},
                 {"bytes_per_second", link.bytes_per_second},
                 {"gamma_seconds_per_byte", link.gamma_seconds_per_byte}};
  out["topology"] = topology_json(comparison);
  out["nccl"] = nccl_json(nccl);
  out["algorithms"] = nlohmann::json::array();
  for (const CostEstimate& estimate : comparison.at_count)
    out["algorithms"].push_back({{"algorithm", algorithm_name(estimate.algorithm)},
                                 {"rounds", estimate.rounds},
                                 {"messages_per_gpu", estimate.messages},
                                 {"messages_total", estimate.messages_total},
                                 {"bytes_sent_per_gpu", estimate.max_bytes_sent},
                                 {"bytes_sent", estimate.bytes_sent},
                                 {"busiest_link", {{"rank", estimate.busiest_link_rank},
                                                   {"direction", estimate.busiest_link_inbound ? "in" : "out"},
                                                   {"bytes", estimate.busiest_link_bytes}}},
                                 {"bytes_reduced_per_gpu", estimate.max_bytes_reduced},
                                 {"terms", {{"alpha", estimate.terms.messages},
                                            {"beta_bytes", estimate.terms.bytes},
                                            {"gamma_bytes", estimate.terms.reduced_bytes}}},
                                 {"seconds", estimate.seconds},
                                 {"contention_free_seconds", estimate.contention_free_seconds},
                                 {"round_end_seconds", estimate.simulation.round_end_seconds},
                                 {"formula", cost_formula(estimate.algorithm, config.op)}});
  nlohmann::json sweep;
  sweep["bytes"] = comparison.sweep_bytes;
  for (std::size_t a = 0; a < comparison.algorithms.size(); ++a)
    sweep["seconds"][std::string(algorithm_name(comparison.algorithms[a]))] = comparison.sweep_seconds[a];
  sweep["fastest"] = nlohmann::json::array();
  for (Algorithm algorithm : comparison.sweep_fastest) sweep["fastest"].push_back(algorithm_name(algorithm));
  sweep["without_contention"] = nlohmann::json::array();
  for (Algorithm algorithm : comparison.swept_without_contention)
    sweep["without_contention"].push_back(algorithm_name(algorithm));
  out["sweep"] = sweep;
  out["crossovers"] = nlohmann::json::array();
  for (const Crossover& crossover : comparison.crossovers)
    out["crossovers"].push_back({{"bytes", crossover.bytes},
                                 {"slower", algorithm_name(crossover.slower)},
                                 {"faster", algorithm_name(crossover.faster)}});
  return out;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto* parser = app.add_subcommand(
      "compare", "predict every algorithm's time for a collective with the α-β-γ cost model");
  auto flags = std::make_shared<CompareFlags>();
  add_choice_option(*parser, "--op", flags->config.op, kOpNames);
  add_gpus_option(*parser, flags->config.gpus, "number of GPUs", kMaxRanks);
  add_count_option(*parser, flags->config.count);
  add_root_option(*parser, flags->config.root);
  add_choice_option(*parser, "--dtype,-d", flags->config.dtype, kDTypeNames);
  std::string links;
  for (const LinkModel& preset : link_presets()) links += (links.empty() ? "" : " | ") + preset.key;
  parser->add_option("--link", flags->link, links)->capture_default_str();
  add_link_override(*parser, "--alpha-us", flags->alpha_us, false, "override the preset's α (µs per message)");
  add_link_override(*parser, "--bandwidth-gbs", flags->bandwidth_gbs, false,
                    "override the preset's bandwidth (GB/s per direction per GPU)");
  add_link_override(*parser, "--gamma-ps", flags->gamma_ps, true, "override γ (ps per byte reduced)");
  parser->add_flag("--sweep", flags->sweep, "also print predicted times for every size from 1 KiB to 1 GiB");
  auto* topology_option = parser->add_option(
      "--topology", flags->topology,
      "the machine: " + topology_preset_forms() + " | FILE.json (default: every GPU one port of --link into one switch)");
  add_checked_option<int>(
      *parser, "--slices", flags->slices,
      [](const std::string& text) {
        return static_cast<int>(parse_number_in_range(text, "--slices", 1, kMaxSlices));
      },
      "pieces each slot is sent in, pipelined (1 to " + std::to_string(kMaxSlices) + ")", "INT");
  add_checked_option<int>(
      *parser, "--channels", flags->channels,
      [](const std::string& text) {
        return static_cast<int>(parse_number_in_range(text, "--channels", 1, kMaxChannels));
      },
      "parallel rings, each its own worker per GPU (1 to " + std::to_string(kMaxChannels) + ")", "INT");
  parser->add_option("--nccl-algo", flags->nccl_algo,
                     "pin what NCCL would do to one algorithm, as NCCL_ALGO does: " +
                         choice_help(kNcclAlgorithmNames));
  parser->add_option("--protocol", flags->protocol,
                     "pin what NCCL would do to one protocol, as NCCL_PROTO does: " +
                         choice_help(kNcclProtocolNames));
  parser->add_option("--fit", flags->fit,
                     "fit α and β per link class to a run recorded by `ringviz capture` (FILE.json) and show "
                     "predicted against measured per round");
  add_report_format_option(*parser, flags->format);
  add_lang_option(*parser, flags->lang);
  auto* gpus_option = parser->get_option("--gpus");
  auto* channels_option = parser->get_option("--channels");
  return {parser, [flags, parser, topology_option, gpus_option, channels_option] {
            const ReportFormat format = parse_enum(kReportFormatNames, flags->format, "--format");
            const Language language = parse_language(flags->lang, "--lang");
            const NcclPins pins = nccl_pins(flags->nccl_algo, flags->protocol);
            if (!flags->fit.empty()) return run_fit(flags->fit, format, language);
            const bool on_topology = topology_option->count() > 0;
            if (on_topology)
              for (const char* flag : {"--link", "--alpha-us", "--bandwidth-gbs", "--gamma-ps"})
                if (parser->get_option(flag)->count() > 0)
                  throw InputError(std::string(flag) + ": a topology carries its own link figures; leave " + flag +
                                   " out with --topology, or write them into a topology file");
            std::optional<Topology> topology;
            if (on_topology) topology = topology_from_spec(flags->topology);
            ConfigFlags config_flags = flags->config;
            if (topology && gpus_option->count() == 0) config_flags.gpus = std::to_string(topology->gpus);
            Config config = config_from_flags(config_flags);
            config.slices = flags->slices;
            config.channels = flags->channels;
            if (pins.algorithm || pins.protocol)  // refused before the comparison's seconds of work
              nccl_choose(nccl_machine(topology ? *topology : star_topology(link_from_flags(*flags), config.ranks)),
                          config.op, 1, pins);
            const CostComparison comparison =
                topology ? compare_algorithms(config, *topology) : compare_algorithms(config, link_from_flags(*flags));
            const NcclAnswer nccl =
                nccl_answer(comparison, pins, channels_option->count() > 0 ? flags->channels : 0,
                            on_topology ? std::nullopt : flags->bandwidth_gbs);
            if (format == ReportFormat::json)
              std::cout << comparison_json(comparison, nccl).dump(2) << "\n";
            else
              print_table(comparison, nccl, {.sweep = flags->sweep, .on_topology = on_topology,
                                       .overridden = !on_topology && figures_overridden(*flags), .lang = language});
            return 0;
          }};
}

}  // namespace ringviz::cli
