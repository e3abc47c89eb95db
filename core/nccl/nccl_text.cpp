#include "core/nccl/nccl_text.h"

#include <cstdio>

namespace ringviz {

std::string nccl_pair_text(const NcclPrediction& prediction) {
  return std::string(nccl_algorithm_title(prediction.algorithm)) + "/" +
         std::string(nccl_protocol_name(prediction.protocol));
}

std::string nccl_time_text(double seconds) {
  char text[32];
  // Absurd link figures give absurd times: powers of ten rather than thirty digits.
  if (seconds < 1e-6)
    std::snprintf(text, sizeof text, "%.3g ns", seconds * 1e9);
  else if (seconds < 1e-3)
    std::snprintf(text, sizeof text, "%.1f µs", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  else if (seconds < 1e4)
    std::snprintf(text, sizeof text, "%.3f s", seconds);
  else
    std::snprintf(text, sizeof text, "%.3e s", seconds);
  return text;
}

std::string nccl_choice_text(const NcclPrediction& prediction, Language language) {
  char rates[96];
  if (language == Language::zh) {
    std::snprintf(rates, sizeof rates, "，busbw %.4g GB/s（algbw %.4g GB/s）", prediction.busbw / 1e9,
                  prediction.algbw / 1e9);
    return nccl_pair_text(prediction) + "，" + std::to_string(prediction.channels) + " 个通道：" +
           nccl_time_text(prediction.seconds) + rates;
  }
  std::snprintf(rates, sizeof rates, ", busbw %.4g GB/s (algbw %.4g GB/s)", prediction.busbw / 1e9,
                prediction.algbw / 1e9);
  return nccl_pair_text(prediction) + " on " + std::to_string(prediction.channels) +
         (prediction.channels == 1 ? " channel: " : " channels: ") + nccl_time_text(prediction.seconds) + rates;
}

std::string nccl_prediction_note(const Topology& assumed, Language language) {
  if (language == Language::zh)
    return "# 模型：NCCL 在 " + assumed.key + "（" + (assumed.label_zh.empty() ? assumed.label : assumed.label_zh) +
           "，NCCL 默认通道数）上会怎么做：它选的算法/协议、预测时间和 busbw（docs/nccl-model.md）；--topology 换机器";
  return "# model: what NCCL would do on " + assumed.key + " (" + assumed.label +
         ", NCCL's default channels): the time and busbw it predicts and the algorithm/protocol it picks "
         "(docs/nccl-model.md); --topology picks the machine";
}

}  // namespace ringviz
