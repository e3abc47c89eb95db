// `--lang zh` on the table-printing subcommands (memory, memory --model, compare, bench, train):
// Chinese heads, columns that line up on a terminal where a Chinese character takes two columns,
// the same numbers as the English run, and a clear refusal of a language we do not have.
#include <doctest/doctest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "run_ringviz.h"

using ringviz::test::lines_of;
using ringviz::test::terminal_columns;
using ringviz::test::run_ringviz;
using ringviz::test::RunResult;

namespace {

RunResult run_in(std::vector<std::string> arguments, const std::string& language) {
  arguments.push_back("--lang");
  arguments.push_back(language);
  RunResult run = run_ringviz(arguments);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return run;
}

// The first line that contains every one of `cells`.
std::string line_with(const std::string& output, const std::vector<std::string>& cells) {
  for (const std::string& line : lines_of(output)) {
    bool all = true;
    for (const std::string& cell : cells) all = all && line.find(cell) != std::string::npos;
    if (all) return line;
  }
  FAIL("no line holds all of the cells, the first being " << cells.front() << "\n" << output);
  return "";
}

// The line that follows `line` in `output`.
std::string next_line(const std::string& output, const std::string& line) {
  const std::vector<std::string> lines = lines_of(output);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i] == line) return lines[i + 1];
  FAIL("no line follows " << line);
  return "";
}

// The terminal columns at which words (runs of non-space characters) of `line` end.
std::set<std::size_t> word_ends(const std::string& line) {
  std::set<std::size_t> ends;
  for (std::size_t at = 0; at < line.size(); ++at)
    if (line[at] != ' ' && (at + 1 == line.size() || line[at + 1] == ' ')) ends.insert(terminal_columns(line.substr(0, at + 1)));
  return ends;
}

std::set<std::size_t> word_starts(const std::string& line) {
  std::set<std::size_t> starts;
  for (std::size_t at = 0; at < line.size(); ++at)
    if (line[at] != ' ' && (at == 0 || line[at - 1] == ' ')) starts.insert(terminal_columns(line.substr(0, at)));
  return starts;
}

// A right-aligned head ends where the row's value ends; a left-aligned one starts where it starts.
void check_right_aligned(const std::string& head_line, const std::string& head, const std::string& row) {
  const std::size_t at = head_line.find(head);
  REQUIRE(at != std::string::npos);
  INFO(head_line, "\n", row);
  CHECK(word_ends(row).count(terminal_columns(head_line.substr(0, at + head.size()))) == 1);
}

void check_left_aligned(const std::string& head_line, const std::string& head, const std::string& row) {
  const std::size_t at = head_line.find(head);
  REQUIRE(at != std::string::npos);
  INFO(head_line, "\n", row);
  CHECK(word_starts(row).count(terminal_columns(head_line.substr(0, at))) == 1);
}

// The numbers of the table rows (lines that begin, after spaces, with one of `keys` or a digit
// and hold at least two gaps of two spaces), in order: the same in both languages.
std::vector<std::string> row_numbers(const std::string& output, const std::vector<std::string>& keys) {
  static const std::regex number(R"([0-9]+(\.[0-9]+)?(e[-+][0-9]+)?)");
  std::vector<std::string> found;
  for (const std::string& line : lines_of(output)) {
    const std::string trimmed = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    bool keyed = !trimmed.empty() && trimmed[0] >= '0' && trimmed[0] <= '9';
    for (const std::string& key : keys) keyed = keyed || trimmed.rfind(key + " ", 0) == 0;
    std::size_t gaps = 0;
    for (std::size_t at = line.find("  "); at != std::string::npos; at = line.find("  ", at + 2)) ++gaps;
    if (!keyed || gaps < 2) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), number), end; it != end; ++it) found.push_back(it->str());
  }
  return found;
}

const std::vector<std::string> kStrategies = {"DDP", "ZeRO-1", "ZeRO-2", "ZeRO-3"};

}  // namespace

TEST_CASE("memory --lang zh: Chinese heads over aligned columns, the English run's numbers") {
  const std::vector<std::string> args = {"memory", "--params", "7B", "--gpus", "4"};
  const RunResult en = run_in(args, "en");
  const RunResult zh = run_in(args, "zh");
  CHECK(zh.out.find("策略") != std::string::npos);
  CHECK(zh.out.find("每次迭代每个 GPU 发送") != std::string::npos);
  CHECK(zh.out.find("混合精度") != std::string::npos);  // the convention's assumptions too
  CHECK(zh.out.find("parameters") == std::string::npos);
  const std::string heads = line_with(zh.out, {"策略", "公式", "总计"});
  const std::string row = line_with(zh.out, {"ZeRO-3"});
  for (const char* head : {"参数", "梯度", "主权重", "动量", "方差", "总计"}) check_right_aligned(heads, head, row);
  check_left_aligned(heads, "公式", row);
  check_left_aligned(heads, "容得下", row);
  check_left_aligned(heads, "每次迭代", row);
  CHECK(row_numbers(zh.out, kStrategies) == row_numbers(en.out, kStrategies));
  CHECK_FALSE(row_numbers(en.out, kStrategies).empty());
}

TEST_CASE("memory --timeline --lang zh: the steps worded in Chinese, the same amounts") {
  const std::vector<std::string> args = {"memory", "--params", "1B", "--strategy", "zero2", "--timeline",
                                         "--bucket-mb", "500"};
  const RunResult en = run_in(args, "en");
  const RunResult zh = run_in(args, "zh");
  CHECK(zh.out.find("迭代时间线") != std::string::npos);
  CHECK(zh.out.find("的归约散射") != std::string::npos);
  CHECK(zh.out.find("峰值在第") != std::string::npos);
  CHECK(zh.out.find("bucket") == std::string::npos);
  const std::string heads = line_with(zh.out, {"步", "临时", "内容"});
  const std::string row = line_with(zh.out, {"     1 "});
  for (const char* head : {"步", "参数", "梯度", "优化器", "临时", "总计"}) check_right_aligned(heads, head, row);
  check_left_aligned(heads, "内容", row);
  CHECK(row_numbers(zh.out, {}) == row_numbers(en.out, {}));
  CHECK(row_numbers(en.out, {}).size() > 10);
}

TEST_CASE("memory --model --lang zh: the whole iteration's report in Chinese, the same figures") {
  const std::vector<std::string> rows = {"memory", "--model", "llama2-7b", "--gpus", "8", "--recompute", "all"};
  const RunResult en = run_in(rows, "en");
  const RunResult zh = run_in(rows, "zh");
  CHECK(zh.out.find("重算") != std::string::npos);
  CHECK(zh.out.find("峰值：") != std::string::npos);
  CHECK(zh.out.find("重叠：") != std::string::npos);
  CHECK(zh.out.find("常数 34 和 5") != std::string::npos);
  CHECK(zh.out.find("on top of") == std::string::npos);
  const std::string heads = line_with(zh.out, {"策略", "重算", "激活"});
  const std::string row = line_with(zh.out, {"ZeRO-3", "selective"});
  for (const char* head : {"参数", "梯度", "优化器", "激活", "logits", "缓冲区", "峰值"})
    check_right_aligned(heads, head, row);
  check_left_aligned(heads, "重算", row);
  check_left_aligned(heads, "容得下", row);
  CHECK(row_numbers(zh.out, kStrategies) == row_numbers(en.out, kStrategies));

  const std::vector<std::string> timeline = {"memory", "--model", "llama2-7b", "--gpus", "8", "--strategy",
                                             "zero3", "--recompute", "full", "--timeline"};
  const RunResult en_timeline = run_in(timeline, "en");
  const RunResult zh_timeline = run_in(timeline, "zh");
  CHECK(zh_timeline.out.find("反向经过第 32/32 层，重算其前向") != std::string::npos);
  CHECK(zh_timeline.out.find("<- 峰值") != std::string::npos);
  const std::string event_heads = line_with(zh_timeline.out, {"事件", "内容"});
  const std::string event = line_with(zh_timeline.out, {"     2 "});
  for (const char* head : {"事件", "参数", "激活", "总计"}) check_right_aligned(event_heads, head, event);
  CHECK(row_numbers(zh_timeline.out, kStrategies) == row_numbers(en_timeline.out, kStrategies));
}

TEST_CASE("compare --lang zh: Chinese heads over aligned columns, the same predictions") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", "--gpus", "8", "--count", "1M", "--sweep"},
        std::vector<std::string>{"compare", "--topology", "nodes:2x4", "--count", "64K"}}) {
    const RunResult en = run_in(args, "en");
    const RunResult zh = run_in(args, "zh");
    CHECK(zh.out.find("算法") != std::string::npos);
    CHECK(zh.out.find("成本公式") != std::string::npos);
    CHECK(zh.out.find("per GPU") == std::string::npos);
    const std::string heads = line_with(zh.out, {"算法", "轮数", "比最快"});
    const std::string row = line_with(zh.out, {"ring ", "x"});
    for (const char* head : {"轮数", "消息/GPU", "最多发送", "最忙链路", "预测", "比最快"})
      check_right_aligned(heads, head, row);
    const std::vector<std::string> algorithms = {"ring", "naive", "direct", "rhd", "tree", "tree-pipelined"};
    CHECK(row_numbers(zh.out, algorithms) == row_numbers(en.out, algorithms));
    CHECK_FALSE(row_numbers(en.out, algorithms).empty());
  }
}

TEST_CASE("compare --lang zh: overridden link figures and the trees' note worded in Chinese, not left in English") {
  const std::vector<std::string> args = {"compare", "--link", "pcie4", "--alpha-us", "3"};
  const RunResult en = run_in(args, "en");
  const RunResult zh = run_in(args, "zh");
  CHECK(en.out.find("PCIe 4.0 x16 with figures overridden") != std::string::npos);
  CHECK(en.out.find("(a full tree)") != std::string::npos);
  CHECK(zh.out.find("PCIe 4.0 x16（数值已覆盖）") != std::string::npos);
  CHECK(zh.out.find("（满二叉树）") != std::string::npos);
  CHECK(zh.out.find("overridden") == std::string::npos);
  CHECK(zh.out.find("full tree") == std::string::npos);
  // The JSON keeps the English label, whatever the table's language.
  const RunResult json = run_in({"compare", "--link", "pcie4", "--alpha-us", "3", "--format", "json"}, "zh");
  CHECK(json.out.find("\"label\": \"PCIe 4.0 x16 with figures overridden\"") != std::string::npos);
}

TEST_CASE("bench --lang zh: Chinese heads over format_row's columns, the same sizes and counts") {
  const std::vector<std::string> args = {"bench", "--gpus", "2", "-b", "64", "-e", "256", "-i", "1", "-w", "0",
                                         "--backend", "cpu"};
  const RunResult en = run_in(args, "en");
  const RunResult zh = run_in(args, "zh");
  CHECK(zh.out.find("busbw（总线带宽）") != std::string::npos);
  CHECK(zh.out.find("# 越界值      ：0 通过") != std::string::npos);
  const std::string heads = line_with(zh.out, {"大小", "元素数", "比例"});
  const std::string row = line_with(zh.out, {"  256  "});
  for (const char* head : {"大小", "元素数", "类型", "归约", "时间", "algbw", "busbw", "#错误", "内存流量", "比例"})
    check_right_aligned(heads, head, row);
  // The timings differ from run to run; the sizes, counts and wrong elements do not.
  const auto fixed_columns = [](const std::string& output) {
    std::vector<std::string> kept;
    for (const std::string& line : lines_of(output))
      if (!line.empty() && line[0] != '#') kept.push_back(line.substr(0, 42) + line.substr(74, 6));
    return kept;
  };
  CHECK(fixed_columns(zh.out) == fixed_columns(en.out));
  CHECK(fixed_columns(en.out).size() == 2);  // 64 and 256 bytes
}

TEST_CASE("train --lang zh: Chinese heads, the same losses and bytes") {
  const std::vector<std::string> args = {"train", "--gpus", "2", "--steps", "3", "--batch", "4", "--backend", "cpu"};
  const RunResult en = run_in(args, "en");
  const RunResult zh = run_in(args, "zh");
  CHECK(zh.out.find("优化器状态") != std::string::npos);
  CHECK(zh.out.find("每个 GPU 持有逐位相同的参数") != std::string::npos);
  const std::string heads = line_with(zh.out, {"步", "平均", "离散"});
  const std::string row = next_line(zh.out, heads);
  for (const char* head : {"步", "loss@0", "平均", "离散", "sent@0"}) check_right_aligned(heads, head, row);
  const std::string held = line_with(zh.out, {"GPU", "优化器状态", "模型"});
  const std::string gpu = next_line(zh.out, held);
  for (const char* head : {"参数", "梯度", "主权重", "动量", "方差", "优化器状态"}) check_right_aligned(held, head, gpu);
  CHECK(row_numbers(zh.out, {}) == row_numbers(en.out, {}));
}

TEST_CASE("--lang names the languages it takes when given one it does not") {
  for (const char* command : {"memory", "compare", "bench", "train"}) {
    const RunResult run = run_ringviz({command, "--lang", "xx"});
    INFO(command, run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.rfind("ringviz: --lang", 0) == 0);
    CHECK(run.err.find("en") != std::string::npos);
    CHECK(run.err.find("zh") != std::string::npos);
    CHECK(run.out.empty());
  }
  const RunResult model = run_ringviz({"memory", "--model", "llama2-7b", "--lang", "fr"});
  CHECK(model.exit_code == 2);
  CHECK(model.err.rfind("ringviz: --lang", 0) == 0);
}

TEST_CASE("compare --fit --lang zh: the fitted classes and the rounds' heads in Chinese, the same rounds") {
  const std::vector<std::string> args = {
      "compare", "--fit", std::string(RINGVIZ_TRACE_CORPUS_DIR) + "/../../../assets/captures/straggler-4gpus.json"};
  const RunResult en = run_in(args, "en");
  const RunResult zh = run_in(args, "zh");
  CHECK(zh.out.find("最小二乘法") != std::string::npos);
  const std::string heads = line_with(zh.out, {"轮", "链路类", "实测", "预测"});
  const std::string row = next_line(zh.out, heads);
  for (const char* head : {"轮", "字节/GPU", "实测", "预测"}) check_right_aligned(heads, head, row);
  check_left_aligned(heads, "链路类", row);
  CHECK(row_numbers(zh.out, {}) == row_numbers(en.out, {}));
  // English lines up the same way (its µs times once sat a column left of their heads).
  const std::string en_heads = line_with(en.out, {"round", "class", "measured", "predicted"});
  const std::string en_row = next_line(en.out, en_heads);
  for (const char* head : {"round", "bytes/GPU", "measured", "predicted"}) check_right_aligned(en_heads, head, en_row);
  check_left_aligned(en_heads, "class", en_row);
}
