#include "core/algorithms/unit_words.h"

#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace ringviz {

namespace {

constexpr Words kGpuName{"GPU %d", "GPU %d"};
constexpr Words kListPair{"%s and %s", "%s 和 %s"};
constexpr Words kListComma{", ", "、"};

constexpr Words kPassFormulaAllReduce{"%s sends, per GPU:  2(N-1)/N x M", "%s 每张 GPU 发送：2(N-1)/N x M"};
constexpr Words kPassFormula{"%s sends, per GPU:  (N-1)/N x M", "%s 每张 GPU 发送：(N-1)/N x M"};
constexpr Words kPassValuesAllReduce{"= 2 x (%d-1)/%d x %s = %s", "= 2 x (%d-1)/%d x %s = %s"};
constexpr Words kPassValues{"= (%d-1)/%d x %s = %s", "= (%d-1)/%d x %s = %s"};

constexpr Words kAllWords[] = {kGpuName, kListPair, kListComma, kPassFormulaAllReduce,
                               kPassFormula, kPassValuesAllReduce, kPassValues};

}  // namespace

std::span<const Words> shared_unit_words() { return kAllWords; }

std::string formatted(const char* pattern, ...) {
  va_list args;
  va_start(args, pattern);
  va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(nullptr, 0, pattern, copy);
  va_end(copy);
  std::string text(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
  if (length > 0) std::vsnprintf(text.data(), text.size() + 1, pattern, args);
  va_end(args);
  return text;
}

std::string format_binary_bytes(double bytes) {
  if (bytes < 1024) return formatted("%.0f B", bytes);
  if (bytes < 1024.0 * 1024) return formatted("%.1f KiB", bytes / 1024);
  if (bytes < 1024.0 * 1024 * 1024) return formatted("%.1f MiB", bytes / (1024.0 * 1024));
  return formatted("%.2f GiB", bytes / (1024.0 * 1024 * 1024));
}

std::string gpu_list(Language language, const std::vector<int>& gpus) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    if (gpus.size() > 4 && i == 2) {
      names.push_back("...");
      i = gpus.size() - 2;
      continue;
    }
    names.push_back(formatted(kGpuName.in(language).data(), gpus[i]));
  }
  if (names.empty()) return "";
  std::string text = names.back();
  if (names.size() >= 2)
    text = formatted(kListPair.in(language).data(), names[names.size() - 2].c_str(), text.c_str());
  for (std::size_t i = names.size() - 2; names.size() > 2 && i-- > 0;)
    text = names[i] + std::string(kListComma.in(language)) + text;
  return text;
}

RoundShape shape_of(const Round& round) {
  RoundShape shape;
  if (round.transfers.empty()) return shape;
  shape.first = &round.transfers.front();
  shape.distance = std::abs(shape.first->src - shape.first->dst);
  // (src, dst, slot), sorted: messages and their slots are runs. A pipelined schedule sends a
  // slot in several pieces, which count once. Sorting keeps direct's N(N-1) transfers cheap.
  std::vector<std::array<int, 3>> sends;
  sends.reserve(round.transfers.size());
  std::set<int> senders, receivers;
  for (const Transfer& transfer : round.transfers) {
    shape.reduces |= transfer.kind == TransferKind::reduce;
    sends.push_back({transfer.src, transfer.dst, transfer.slot});
    senders.insert(transfer.src);
    receivers.insert(transfer.dst);
    if (std::abs(transfer.src - transfer.dst) != shape.distance) shape.distance = 0;
  }
  std::sort(sends.begin(), sends.end());
  sends.erase(std::unique(sends.begin(), sends.end()), sends.end());
  int slots = 0, messages = 0;
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const bool same_src = i > 0 && sends[i][0] == sends[i - 1][0];
    const bool same_message = same_src && sends[i][1] == sends[i - 1][1];
    slots = same_message ? slots + 1 : 1;
    messages = same_message ? messages : same_src ? messages + 1 : 1;
    shape.most_slots_per_message = std::max(shape.most_slots_per_message, slots);
    shape.most_messages = std::max(shape.most_messages, messages);
  }
  shape.senders = static_cast<int>(senders.size());
  shape.receivers = static_cast<int>(receivers.size());
  shape.sending_gpus.assign(senders.begin(), senders.end());
  shape.receiving_gpus.assign(receivers.begin(), receivers.end());
  return shape;
}

int reduce_round_count(const Schedule& schedule) {
  int count = 0;
  for (const Round& round : schedule.rounds) count += round.phase == Phase::reduce_scatter ? 1 : 0;
  return count;
}

double pass_bytes_per_gpu(int ranks, double buffer_bytes) {
  return ranks > 0 ? (ranks - 1) * buffer_bytes / ranks : 0.0;
}

TrafficFormula pass_traffic_formula(Language language, Op op, int ranks, int /*root*/, double buffer_bytes,
                                    const std::string& subject) {
  TrafficFormula f;
  const bool allreduce = op == Op::allreduce;
  f.busiest_bytes = (allreduce ? 2 : 1) * pass_bytes_per_gpu(ranks, buffer_bytes);
  f.formula = formatted((allreduce ? kPassFormulaAllReduce : kPassFormula).in(language).data(), subject.c_str());
  f.values = formatted((allreduce ? kPassValuesAllReduce : kPassValues).in(language).data(), ranks, ranks,
                       format_binary_bytes(buffer_bytes).c_str(), format_binary_bytes(f.busiest_bytes).c_str());
  return f;
}

}  // namespace ringviz
