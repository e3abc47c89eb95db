#include "core/model/text.h"

#include <array>
#include <cstdio>

namespace ringviz {

namespace {

struct Entry {
  Phrase key;
  std::string_view en;
  std::string_view zh;
};

// Kept in enum order so that lookup is an index; the static_assert below catches a gap.
constexpr Entry kPhrases[] = {
    {Phrase::title, "{} {} on {}", "{} {}：{}"},
    {Phrase::setup_count, "count {} per GPU", "每张 GPU {} 个元素"},
    {Phrase::setup_reduce, "reduce {}", "归约 {}"},
    {Phrase::setup_order, "order {}", "顺序 {}"},
    {Phrase::setup_inputs, "inputs {}", "输入 {}"},
    {Phrase::setup_backend, "backend {}", "后端 {}"},
    {Phrase::layout_blocks,
     "Each GPU starts with one block of {}, named after its GPU: GPU 0 has A, GPU 1 "
     "has B, and so on.",
     "每张 GPU 起初只有一块 {}的数据，以所在 GPU 的字母命名：GPU 0 的是 A，GPU 1 的是 "
     "B，依此类推。"},
    {Phrase::layout_chunks,
     "Each GPU's buffer is cut into {}, {} per chunk. A label is GPU letter + chunk "
     "index: b2 is GPU 1's chunk 2, and {}.",
     "每张 GPU 的缓冲区分成 {}，每片 {}。标签由 GPU 字母加分片序号组成：b2 表示 "
     "GPU 1 的分片 2，{}。"},
    {Phrase::layout_broadcast,
     "GPU {}, the root, holds {} cut into {}, {} per chunk; the other GPUs start empty. A label is "
     "the root's capital letter + chunk index: {} is GPU {}'s chunk 2, wherever it has arrived.",
     "根 GPU {} 持有 {}，分成 {}，每片 {}；其他 GPU 起初为空。标签由根的大写字母加分片序号组成："
     "{} 表示 GPU {} 的分片 2，无论它到了哪张 GPU。"},
    {Phrase::layout_all_to_all,
     "Each GPU holds {} of {} each, block j meant for GPU j{}. A label is the sender's letter + the GPU "
     "the block is meant for: c1 is GPU 2's block for GPU 1, in GPU 2's slot 1 before the exchange and "
     "in GPU 1's slot 2 after it.",
     "每张 GPU 持有 {}，每块 {}，块 j 发给 GPU j{}。标签由发送方字母加接收方序号组成：c1 表示 GPU 2 "
     "发给 GPU 1 的块，交换前在 GPU 2 的分片 1，交换后在 GPU 1 的分片 2。"},
    {Phrase::all_to_all_left_over, " (the last {} take no part: every block is one size)",
     "（最后 {} 不参与：每块大小相同）"},
    {Phrase::layout_all_to_all_uneven,
     "The blocks differ in size (splits, row s: what GPU s sends to GPU 0 to {}: {}). Every GPU's buffer has "
     "a slot for each of the {} (sender, receiver) pairs, slot s·N+d for GPU s's block for GPU d: a GPU "
     "starts with its row and ends with its column, in sender order. A label is the sender's letter + the "
     "receiver: c1 is GPU 2's block for GPU 1.",
     "各块大小不同（切分表，第 s 行是 GPU s 发给 GPU 0 到 {} 的元素数：{}）。每张 GPU 的缓冲区为 {} 个"
     "（发送方，接收方）组合各留一个分片，分片 s·N+d 存 GPU s 发给 GPU d 的块：GPU 起初持有自己那一行，"
     "结束时持有自己那一列，按发送方排列。标签由发送方字母加接收方序号组成：c1 表示 GPU 2 发给 GPU 1 的块。"},
    {Phrase::label_sum, "a0+b0 is the sum of GPU 0's and GPU 1's chunk 0",
     "a0+b0 表示 GPU 0 与 GPU 1 的分片 0 之和"},
    {Phrase::label_prod, "a0\u00d7b0 is the product of GPU 0's and GPU 1's chunk 0",
     "a0\u00d7b0 表示 GPU 0 与 GPU 1 的分片 0 之积"},
    {Phrase::label_max, "max(a0,b0) is the larger of GPU 0's and GPU 1's chunk 0, element by element",
     "max(a0,b0) 表示 GPU 0 与 GPU 1 的分片 0 逐元素取较大值"},
    {Phrase::label_min, "min(a0,b0) is the smaller of GPU 0's and GPU 1's chunk 0, element by element",
     "min(a0,b0) 表示 GPU 0 与 GPU 1 的分片 0 逐元素取较小值"},
    {Phrase::label_avg,
     "a0+b0 is the running sum of GPU 0's and GPU 1's chunk 0; once every GPU's chunk is in it is "
     "divided by N and reads mean(a0,\u2026)",
     "a0+b0 表示 GPU 0 与 GPU 1 的分片 0 的累加和，所有 GPU 的分片都加入后记作 mean(a0,\u2026)，"
     "即平均值"},
    {Phrase::label_runs,
     "c2..e2 is a run of GPUs in ring order, c2+d2+e2; a run may wrap from the last GPU to GPU 0 (g2..b2 "
     "on 8 GPUs is g2+h2+a2+b2), and a gap is never bridged: a2+c2..e2 lacks b2.",
     "c2..e2 表示按环顺序连续的一段 GPU，即 c2+d2+e2；一段可以从最后一张 GPU 绕回 GPU 0（8 张 GPU 时 "
     "g2..b2 即 g2+h2+a2+b2），中间缺的不会被跨过：a2+c2..e2 不含 b2。"},
    {Phrase::empty_pieces,
     "{} of {} pieces hold no elements, so their transfers move 0 B: --count {} is below {} "
     "(GPUs × channels × slices; channels × slices for AllGather). --count {} fills every piece.",
     "有 {} 个片段没有元素（共 {} 个），它们的传输都是 0 B：--count {} 小于 {}（GPU 数 × 通道数 × "
     "切片数；AllGather 为通道数 × 切片数）。--count {} 可让每个片段都有元素。"},
    {Phrase::empty_pieces_of_blocks,
     "{} of {} pieces hold no elements, so their transfers move 0 B: the splits give some blocks fewer "
     "elements than channels × slices ({}).",
     "有 {} 个片段没有元素（共 {} 个），它们的传输都是 0 B：切分表中有些块的元素数少于通道数 × 切片数（{}）。"},
    {Phrase::inputs_heading, "Inputs", "输入"},
    {Phrase::round_heading, "Round {} ({})", "第 {} 轮（{}）"},
    {Phrase::wave_heading, "Wave {} ({})", "第 {} 波（{}）"},
    {Phrase::round_time, " · {} µs", " · 用时 {} µs"},
    {Phrase::values_after_round, "Values after round {}:", "第 {} 轮后的数值："},
    {Phrase::values_after_wave, "Values after wave {}:", "第 {} 波后的数值："},
    {Phrase::column_gpu, "GPU", "GPU"},
    {Phrase::column_holds, "holds", "持有"},
    {Phrase::column_values, "values", "数值"},
    {Phrase::column_sends, "sends", "发送"},
    {Phrase::column_receives, "receives", "接收"},
    {Phrase::column_holds_after_round, "holds after round", "轮后持有"},
    {Phrase::column_holds_after_wave, "holds after wave", "波后持有"},
    {Phrase::column_fully_reduced, "holds (fully reduced)", "持有（已完全归约）"},
    {Phrase::column_bytes_sent, "bytes sent", "发送字节"},
    {Phrase::column_bytes_received, "bytes received", "接收字节"},
    {Phrase::gpu_name, "GPU {}", "GPU {}"},
    {Phrase::chunk_name, "chunk {}", "分片 {}"},
    {Phrase::owned_chunk, "{} (chunk {})", "{}（分片 {}）"},
    {Phrase::changed_chunk, "chunk {} = {}", "分片 {} = {}"},
    {Phrase::reduce_scatter_result_heading, "Fully reduced chunks", "完全归约的分片"},
    {Phrase::after_reduce_scatter_phase_heading,
     "After the reduce-scatter phase: the chunk each GPU now owns",
     "reduce-scatter 阶段结束：各 GPU 此时负责的分片"},
    {Phrase::outputs_heading, "Outputs", "输出"},
    {Phrase::value_count, " ({} values)", "（共 {} 个值）"},
    {Phrase::block_count, " ({} blocks)", "（共 {} 块）"},
    {Phrase::either, "{} or {}", "{} 或 {}"},
    {Phrase::traffic_heading, "Traffic", "通信量"},
    {Phrase::formula_uneven,
     "{} cannot be split evenly over {} GPUs, so the exact totals above differ a little "
     "from the formula.",
     "{}无法平均分给 {} 张 GPU，因此上表的精确字节数与公式略有出入。"},
    {Phrase::elements_many, "{} elements", "{} 个元素"},
    {Phrase::elements_one, "{} element", "{} 个元素"},
    {Phrase::chunks_many, "{} chunks", "{} 个分片"},
    {Phrase::chunks_one, "{} chunk", "{} 个分片"},
    {Phrase::gpus_many, "{} GPUs", "{} 张 GPU"},
    {Phrase::gpus_one, "{} GPU", "{} 张 GPU"},
    {Phrase::blocks_many, "{} blocks", "{} 个块"},
    {Phrase::blocks_one, "{} block", "{} 个块"},
};

constexpr bool phrases_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kPhrases); ++i)
    if (static_cast<std::size_t>(kPhrases[i].key) != i) return false;
  return true;
}
static_assert(phrases_in_enum_order(), "kPhrases must list every Phrase in enum order");
static_assert(std::size(kPhrases) == static_cast<std::size_t>(Phrase::blocks_one) + 1);

// The East Asian Wide and Fullwidth blocks that Chinese text and its punctuation use.
bool is_wide(char32_t c) {
  return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0x303E) ||
         (c >= 0x3041 && c <= 0x33FF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xA000 && c <= 0xA4CF) ||
         (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
         (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD);
}

}  // namespace

static_assert(spellings_are_unique(kLanguageNames));

std::string_view phrase(Phrase key, Language language) {
  const Entry& entry = kPhrases[static_cast<std::size_t>(key)];
  return language == Language::en ? entry.en : entry.zh;
}

std::string fill(std::string_view pattern, std::initializer_list<std::string_view> arguments) {
  std::string out;
  out.reserve(pattern.size() + 16 * arguments.size());
  auto next = arguments.begin();
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 1 < pattern.size() && pattern[i + 1] == '}') {
      if (next != arguments.end()) out += *next++;
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

char32_t next_code_point(std::string_view utf8, std::size_t& at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(utf8[i]); };
  const unsigned char lead = byte(at);
  const int extra = lead < 0x80 ? 0
                    : (lead >> 5) == 0x6 ? 1
                    : (lead >> 4) == 0xE ? 2
                    : (lead >> 3) == 0x1E ? 3
                                          : -1;
  if (extra < 0 || at + static_cast<std::size_t>(extra) >= utf8.size()) {
    ++at;
    return kReplacementCharacter;
  }
  char32_t point = extra == 0 ? lead : lead & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    const unsigned char continuation = byte(at + static_cast<std::size_t>(k));
    if ((continuation & 0xC0) != 0x80) {
      ++at;
      return kReplacementCharacter;
    }
    point = (point << 6) | (continuation & 0x3F);
  }
  at += static_cast<std::size_t>(extra) + 1;
  return point;
}

void append_utf8(std::string& out, char32_t point) {
  if (point < 0x80) {
    out += static_cast<char>(point);
  } else if (point < 0x800) {
    out += static_cast<char>(0xC0 | (point >> 6));
    out += static_cast<char>(0x80 | (point & 0x3F));
  } else if (point < 0x10000) {
    out += static_cast<char>(0xE0 | (point >> 12));
    out += static_cast<char>(0x80 | ((point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (point >> 18));
    out += static_cast<char>(0x80 | ((point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (point & 0x3F));
  }
}

namespace {

// The length of the well-formed UTF-8 sequence at `at` (shortest form, no surrogate, at most
// U+10FFFF), or 0 when the byte there does not start one.
std::size_t valid_sequence_length(std::string_view text, std::size_t at, char32_t& point) {
  std::size_t next = at;
  point = next_code_point(text, next);
  const std::size_t length = next - at;
  const char32_t shortest = length == 1 ? 0 : length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
  const bool replacement_read = point == kReplacementCharacter && text.substr(at, 3) != "\xEF\xBF\xBD";
  if (replacement_read || point < shortest || point > 0x10FFFF || (point >= 0xD800 && point < 0xE000))
    return 0;
  return length;
}

void append_hex_escape(std::string& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kHex[(value >> shift) & 0xF];
}

}  // namespace

std::string escape_for_message(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    char32_t point = 0;
    const std::size_t length = valid_sequence_length(text, at, point);
    if (length == 0) {
      append_hex_escape(out, "\\x", static_cast<unsigned char>(text[at]), 2);
      ++at;
      continue;
    }
    if (point == U'\n') out += "\\n";
    else if (point == U'\t') out += "\\t";
    else if (point == U'\r') out += "\\r";
    else if (point < 0x20 || point == 0x7F) append_hex_escape(out, "\\x", static_cast<unsigned>(point), 2);
    else if (point >= 0x80 && point < 0xA0) append_hex_escape(out, "\\u", static_cast<unsigned>(point), 4);
    else out.append(text.substr(at, length));
    at += length;
  }
  return out;
}

std::size_t display_width(std::string_view utf8) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < utf8.size();) width += is_wide(next_code_point(utf8, i)) ? 2 : 1;
  return width;
}

std::string count_of(Noun noun, std::string_view number, Language language) {
  const auto many = static_cast<Phrase>(static_cast<int>(Phrase::elements_many) + 2 * static_cast<int>(noun));
  const auto one = static_cast<Phrase>(static_cast<int>(many) + 1);
  return say(number == "1" ? one : many, language, {number});
}

std::string format_size_for_message(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
  std::size_t unit = 0;
  // 999.6 would print as 1e+03 in its unit: move up before that.
  while (bytes >= 999.5 && unit + 1 < std::size(kUnits)) {
    bytes /= 1000;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, bytes >= 999.5 ? "%.0f %s" : "%.3g %s", bytes, kUnits[unit]);
  return text;
}

}  // namespace ringviz
