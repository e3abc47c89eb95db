#include "core/kineto/nccl_kernel_name.h"

#include <vector>

namespace ringviz {
namespace {

bool is_protocol(std::string_view word) { return word == "LL" || word == "LL128" || word == "SIMPLE"; }

// NCCL's algorithms whose names hold an underscore; the others are one word (RING, TREE, NVLS,
// PAT).
bool is_two_word_algorithm(std::string_view first, std::string_view second) {
  return (first == "COLLNET" && (second == "DIRECT" || second == "CHAIN")) || (first == "NVLS" && second == "TREE");
}

std::vector<std::string_view> split_underscores(std::string_view text) {
  std::vector<std::string_view> words;
  while (true) {
    const std::size_t cut = text.find('_');
    words.push_back(text.substr(0, cut));
    if (cut == std::string_view::npos) return words;
    text.remove_prefix(cut + 1);
  }
}

}  // namespace

std::optional<NcclKernelName> parse_nccl_kernel_name(std::string_view name) {
  for (std::string_view prefix : {std::string_view("ncclKernel_"), std::string_view("ncclDevKernel_")}) {
    if (name.substr(0, prefix.size()) != prefix) continue;
    name.remove_prefix(prefix.size());
    name = name.substr(0, name.find('('));
    const std::vector<std::string_view> words = split_underscores(name);
    NcclKernelName parsed;
    parsed.collective = std::string(words[0]);
    if (parsed.collective.empty()) return std::nullopt;
    // The algorithm comes just before the protocol (one of three words), after the reduction
    // and type where the name has them (ncclDevKernel_AllReduce_Sum_f32_RING_LL); it may be
    // two words (COLLNET_DIRECT).
    for (std::size_t i = 2; i < words.size(); ++i) {
      if (!is_protocol(words[i])) continue;
      const bool two_words = i >= 3 && is_two_word_algorithm(words[i - 2], words[i - 1]);
      parsed.algorithm = two_words ? std::string(words[i - 2]) + "_" + std::string(words[i - 1]) : std::string(words[i - 1]);
      parsed.protocol = std::string(words[i]);
      break;
    }
    return parsed;
  }
  return std::nullopt;
}

}  // namespace ringviz
