#include "app/cli/compare_nccl.h"

#include <cstdio>
#include <iostream>

#include "core/nccl/nccl_text.h"
#include "core/output/terminal_text.h"
#include "core/schedule/bus_bandwidth.h"

namespace ringviz::cli {

NcclPins nccl_pins(const std::string& algorithm, const std::string& protocol) {
  NcclPins pins;
  if (!algorithm.empty()) pins.algorithm = parse_nccl_algorithm(algorithm);
  if (!protocol.empty()) pins.protocol = parse_nccl_protocol(protocol);
  return pins;
}

NcclAnswer nccl_answer(const CostComparison& comparison, const NcclPins& pins, int channels,
                       std::optional<double> bandwidth_gbs) {
  const Config& config = comparison.config;
  NcclAnswer answer;
  answer.pins = pins;
  answer.machine = nccl_machine(comparison.topology, channels);
  if (bandwidth_gbs) {
    answer.machine.intra_bytes_per_second = *bandwidth_gbs * 1e9;
    answer.machine.channel_bytes_per_second = answer.machine.intra_bytes_per_second / answer.machine.default_channels;
    char why[96];
    std::snprintf(why, sizeof why, "%.4g GB/s per GPU", *bandwidth_gbs);
    answer.machine.why = std::string("--bandwidth-gbs: ") + why;
    answer.machine.why_zh = std::string("--bandwidth-gbs：") + why;
  }
  answer.modelled = nccl_models(config.op) && config.ranks > 1;
  if (!answer.modelled && !pins.algorithm && !pins.protocol) return answer;
  // Throws for pins that leave no pair, before anything is printed.
  answer.at_count = nccl_choose(answer.machine, config.op,
                                nccl_tests_size_bytes(config.op, config.count, config.dtype, config.ranks), pins);
  const std::int64_t element = static_cast<std::int64_t>(dtype_size(config.dtype));
  for (std::int64_t bytes : comparison.sweep_bytes)
    answer.sweep.push_back(nccl_choose(answer.machine, config.op,
                                       nccl_tests_size_bytes(config.op, bytes / element, config.dtype, config.ranks),
                                       pins));
  return answer;
}

void print_nccl_line(const NcclAnswer& answer, const CostComparison& comparison, Language language) {
  if (!answer.modelled) {
    if (comparison.config.ranks < 2)
      std::cout << en_zh(language, "what NCCL would do: nothing, one GPU has no one to talk to\n\n",
                         "NCCL 会怎么做：什么也不做，一个 GPU 无需通信\n\n");
    else
      std::cout << en_zh(language, "what NCCL would do: not modelled for ", "NCCL 会怎么做：模型不涵盖 ")
                << op_display_name(comparison.config.op) << "\n\n";
    return;
  }
  const bool pinned = answer.pins.algorithm || answer.pins.protocol;
  std::cout << (pinned ? en_zh(language, "what NCCL would do, as pinned: ", "NCCL 会怎么做（已指定）：")
                       : en_zh(language, "what NCCL would do: ", "NCCL 会怎么做："))
            << nccl_choice_text(answer.at_count, language) << "\n";
  if (language == Language::zh)
    std::cout << "  NCCL 自己的调优模型：延迟加上字节数除以带宽（docs/nccl-model.md）；\n  " << answer.machine.why_zh
              << "。\n  下表模拟的是 ringviz 自己的算法。\n\n";
  else
    std::cout << "  NCCL's own tuning model: a latency plus the bytes at a bandwidth (docs/nccl-model.md);\n  "
              << answer.machine.why << ".\n  The table below simulates ringviz's own algorithms.\n\n";
}

nlohmann::json nccl_json(const NcclAnswer& answer) {
  if (!answer.modelled) return nullptr;
  auto one = [](const NcclPrediction& p) {
    return nlohmann::json{{"algorithm", std::string(nccl_algorithm_title(p.algorithm))},
                          {"protocol", std::string(nccl_protocol_name(p.protocol))},
                          {"channels", p.channels},
                          {"size_bytes", p.size_bytes},
                          {"seconds", p.seconds},
                          {"latency_seconds", p.latency_seconds},
                          {"algbw_bytes_per_second", p.algbw},
                          {"busbw_bytes_per_second", p.busbw}};
  };
  nlohmann::json out = one(answer.at_count);
  out["pinned"] = {{"algorithm", answer.pins.algorithm
                                     ? nlohmann::json(std::string(nccl_algorithm_title(*answer.pins.algorithm)))
                                     : nlohmann::json(nullptr)},
                   {"protocol", answer.pins.protocol
                                    ? nlohmann::json(std::string(nccl_protocol_name(*answer.pins.protocol)))
                                    : nlohmann::json(nullptr)}};
  out["machine"] = answer.machine.why;
  out["sweep"] = nlohmann::json::array();
  for (const NcclPrediction& p : answer.sweep) out["sweep"].push_back(one(p));
  return out;
}

}  // namespace ringviz::cli
