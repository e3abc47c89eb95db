// nvls: NVLink SHARP, NCCL's AllReduce on machines whose GPUs share an NVSwitch that reduces.
// Each GPU sends its data once into the switch; the switch adds the parts of each slot and
// hands the slot's owner the sum; each owner sends its reduced slot once more, and the switch
// copies it to every other GPU (multicast). Two rounds whatever N, and each GPU's link carries
// M each way instead of the ring's 2(N-1)/N x M.
#include "core/algorithms/algorithm_unit.h"
#include "core/algorithms/unit_words.h"
#include "core/schedule/schedule_steps.h"

namespace ringviz {

using namespace schedule_steps;

namespace {

// The switch's sum of slot j lands on GPU j. Its fold starts with GPU j's own part, which stays
// where it is, and takes the others going up from j (j+1, j+2, ... round to j-1), each part p
// folded as p (+) sum: the order the reference (tests/core/reference.h, switch_from_owner)
// computes. NVIDIA does not publish the order the switch adds in; this is ringviz's.
Round switch_reduce(int n) {
  Round round{Phase::reduce_scatter, {}};
  for (int owner = 0; owner < n; ++owner)
    for (int hop = 1; hop < n; ++hop) send_reduce(round, (owner + hop) % n, owner, owner, hop == n - 1);
  return round;
}

// GPU r sends its reduced slot r once into the switch, which writes it into every other GPU.
Round switch_multicast(int n) {
  Round round{Phase::all_gather, {}};
  for (int owner = 0; owner < n; ++owner)
    for (int hop = 1; hop < n; ++hop) send_copy(round, owner, (owner + hop) % n, owner);
  return round;
}

Schedule nvls_rounds(const Config& config) {
  const int n = config.ranks;
  Schedule schedule;
  schedule.owned_slot = identity_owners(n);
  schedule.through_switch = true;
  if (n == 1) return schedule;
  schedule.rounds.push_back(switch_reduce(n));
  schedule.rounds.push_back(switch_multicast(n));
  return schedule;
}

bool nvls_supports(Op op) { return op == Op::allreduce; }

// α: one per round; β: the bytes through one GPU's port, M in and M out; the switch's own
// reduction rate (core/nccl's NVLS model) bounds the rate where the port would allow more.
std::string_view nvls_cost(Op) { return "2α + n·max(β_port, β_switch)"; }

constexpr Words kCostNote{
    "  (β_switch: the switch reduces at most about 258 GB/s of each GPU's data; NCCL's NVLS model in "
    "docs/nccl-model.md)",
    "  （β_switch：交换机对每张 GPU 的数据最多约 258 GB/s 的归约速率；见 docs/nccl-model.md 中 NCCL 的 NVLS 模型）"};

constexpr Words kPlan{
    "The NVSwitch reduces (NVLink SHARP). Round 1: every GPU sends the slots it does not own into it, "
    "and GPU j gets slot j's sum. Round 2: each sends its sum once; the switch copies it to all.",
    "NVSwitch 负责归约（NVLink SHARP）。第 1 轮：每张 GPU 把不归自己的分片发进交换机，GPU j 收到分片 j 的和。"
    "第 2 轮：每张 GPU 把和只发一次，交换机复制给所有 GPU。"};
constexpr Words kRoundReduce{
    "Every GPU sends %d slots into the NVSwitch; it adds slot j's %d parts (GPU j's first, then upward) "
    "and gives GPU j the sum once (in-switch reduction).",
    "每张 GPU 把 %d 个分片发进 NVSwitch；交换机把分片 j 的 %d 份相加（先 GPU j 自己的，再向上），"
    "把和只交给 GPU j 一次（交换机内归约）。"};
constexpr Words kRoundMulticast{
    "Every GPU r sends its reduced slot r once into the switch, which copies it to the %d others at once "
    "(multicast).",
    "每张 GPU r 把归约好的分片 r 只发一次进交换机，交换机同时复制给其余 %d 张 GPU（组播）。"};
constexpr Words kTraffic{"%s sends, per GPU:  (N-1)/N x M into the switch + M/N to multicast = M",
                         "%s 每张 GPU 发送：(N-1)/N x M 进交换机 + M/N 组播 = M"};
constexpr Words kTrafficValues{"= (%d-1)/%d x %s + %s/%d = %s", "= (%d-1)/%d x %s + %s/%d = %s"};
constexpr Words kTraceNote{
    "Through the switch each GPU sends %s B and receives %s B: its part of every other slot once, and "
    "its reduced slot once for the switch to multicast. The ring sends 2(N-1)/N x M = %s B per GPU.",
    "经过交换机，每张 GPU 发送 %s B、接收 %s B：其余每个分片的自己那份各一次，加上归约好的分片一次（由交换机组播）。"
    "环形每张 GPU 要发送 2(N-1)/N x M = %s B。"};

TrafficFormula nvls_traffic(Language language, Op, int ranks, int /*root*/, double buffer_bytes, const std::string& subject) {
  TrafficFormula f;
  f.busiest_bytes = buffer_bytes;
  f.formula = formatted(kTraffic.in(language).data(), subject.c_str());
  const std::string m = format_binary_bytes(buffer_bytes);
  f.values = formatted(kTrafficValues.in(language).data(), ranks, ranks, m.c_str(), m.c_str(), ranks,
                       m.c_str());
  return f;
}

std::vector<std::string> nvls_trace_notes(Language language, const Config& config, std::string (*quantity)(double)) {
  const double m = static_cast<double>(config.count) * static_cast<double>(dtype_size(config.dtype));
  const std::string each = quantity(m);
  return {formatted(kTraceNote.in(language).data(), each.c_str(), each.c_str(),
                    quantity(2.0 * pass_bytes_per_gpu(config.ranks, m)).c_str())};
}

std::string nvls_plan(const CaptionContext& c) { return std::string(kPlan.in(c.language)); }

std::string nvls_round(const CaptionContext& c) {
  const RoundShape shape = shape_of(c.schedule.rounds[static_cast<std::size_t>(c.round - 1)]);
  if (shape.first == nullptr) return "";
  const int others = c.config.ranks - 1;
  return shape.reduces ? formatted(kRoundReduce.in(c.language).data(), others, c.config.ranks)
                       : formatted(kRoundMulticast.in(c.language).data(), others);
}

constexpr Words kAllWords[] = {kPlan, kRoundReduce, kRoundMulticast, kTraffic, kTrafficValues, kTraceNote};

}  // namespace

const AlgorithmUnit& nvls_unit() {
  static const AlgorithmUnit unit{
      .id = Algorithm::nvls,
      .name = "nvls",
      .aliases = "NVLS sharp",
      .help = "NVLink SHARP: the NVSwitch reduces; AllReduce on an NVSwitch topology",
      .title = {"NVLS (reduction in the NVSwitch)", "NVLS（在 NVSwitch 内归约）"},
      .menu_name = {"NVLS", "NVLS"},  // the note under the menu says what it assumes; a longer name is cut at 1280 px
      .label = {"NVLS", "NVLS"},
      .chart_colour = {118, 185, 0},
      .reduces_in_switch = true,
      .supports = nvls_supports,
      .rounds = nvls_rounds,
      .cost_shape = nvls_cost,
      .cost_note = kCostNote,
      .traffic = nvls_traffic,
      .trace_traffic_notes = nvls_trace_notes,
      .captions = {.start = nvls_plan, .round = nvls_round},
      .words = kAllWords,
  };
  return unit;
}

}  // namespace ringviz
