#include "app/gui/compare/compare_sentence.h"

#include <cmath>

#include "core/algorithms/registry.h"
#include "app/gui/render/imgui_helpers.h"

namespace ringviz::gui {

std::string size_words(std::int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  // Whole numbers stay whole; others keep three significant digits ("1.5 MiB", "96.3 KiB").
  if (value == std::floor(value)) return format("%.0f %s", value, units[unit]);
  return format("%.3g %s", value, units[unit]);
}

std::string comparison_sentence(const CostComparison& comparison, const UiStrings& strings) {
  if (comparison.sweep_fastest.empty() || comparison.sweep_bytes.empty()) return {};
  const std::string where = comparison.topology.key.empty() ? comparison.link.key : comparison.topology.key;
  const std::string smallest = size_words(comparison.sweep_bytes.front());
  const std::string largest = size_words(comparison.sweep_bytes.back());
  const std::string first(algorithm_name(comparison.sweep_fastest.front()));
  const std::string last(algorithm_name(comparison.sweep_fastest.back()));
  if (comparison.crossovers.empty())
    return format(strings.compare_sentence_one, where.c_str(), first.c_str(), smallest.c_str(), largest.c_str());
  std::string sentence = format(strings.compare_sentence_start, where.c_str(), first.c_str(), smallest.c_str());
  for (const Crossover& crossover : comparison.crossovers)
    sentence += format(strings.compare_sentence_change, std::string(algorithm_name(crossover.faster)).c_str(),
                       std::string(algorithm_name(crossover.slower)).c_str(), size_words(crossover.bytes).c_str());
  sentence += format(strings.compare_sentence_end, largest.c_str(), last.c_str());
  return sentence;
}

}  // namespace ringviz::gui
