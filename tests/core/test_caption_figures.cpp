// Numbers in captions come from the model (docs/lessons.md, "Numbers in captions"): every
// GB, second and byte figure a shipped caption states in a scene with a memory block is, to the
// caption's printed precision, one the model computes for that scene, in English and Chinese.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "core/teaching/lesson.h"
#include "core/training/iteration_model.h"
#include "core/training/memory_model.h"

using namespace ringviz;

namespace {

const std::filesystem::path kLessonFolder = std::filesystem::path(RINGVIZ_SOURCE_DIR) / "assets" / "lessons";

// What a figure counts: bytes (memory, traffic), seconds, or bytes per parameter.
enum class Quantity { bytes, seconds, bytes_per_parameter };

struct Figure {
  Quantity quantity = Quantity::bytes;
  double value = 0;  // in bytes, seconds or bytes per parameter
  std::string what;  // where it comes from, for the failure message
};
using Figures = std::vector<Figure>;

// A figure as a caption states it: "38.5 GB" is 38.5 of 1e9 bytes, printed with 1 decimal.
struct StatedFigure {
  std::string text;
  double number = 0;
  int decimals = 0;
  double unit = 1;  // base units per printed unit
  Quantity quantity = Quantity::bytes;
};

// The GB, s, ms, bytes and 字节 figures of a text. Only a number directly before its unit
// counts, so in "14 + 98/4 = 38.5 GB" only the result does, and "8 GPUs" or "4096 tokens"
// are not figures.
std::vector<StatedFigure> stated_figures(const std::string& text) {
  static const std::regex figure(R"((\d+(?:\.(\d+))?) ?(GB|ms|s|bytes|byte|字节)(?![A-Za-z]))");
  std::vector<StatedFigure> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), figure); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    StatedFigure stated;
    stated.text = m.str(0);
    stated.number = std::stod(m.str(1));
    stated.decimals = static_cast<int>(m.length(2));
    const std::string unit = m.str(3);
    if (unit == "GB") stated.unit = 1e9;
    if (unit == "s" || unit == "ms") stated.quantity = Quantity::seconds;
    if (unit == "ms") stated.unit = 1e-3;
    found.push_back(stated);
  }
  return found;
}

// Whether `figure` prints as `stated` does: rounded to the stated decimals, the same number.
bool prints_as(const Figure& figure, const StatedFigure& stated) {
  const bool quantity_fits = figure.quantity == stated.quantity ||
                             (stated.quantity == Quantity::bytes && stated.unit == 1 &&
                              figure.quantity == Quantity::bytes_per_parameter);
  if (!quantity_fits) return false;
  const double half_step = 0.5 * std::pow(10.0, -stated.decimals);
  return std::abs(figure.value / stated.unit - stated.number) <= half_step * (1 + 1e-9);
}

void add(Figures& figures, Quantity quantity, double value, const std::string& what) {
  if (value > 0) figures.push_back({quantity, value, what});
}

// The memory model's figures for one strategy: the largest GPU's model states, whole and by
// part, the bytes per parameter they cost, and each GPU's traffic per iteration, in all and
// per collective.
void add_model_states(Figures& figures, const MemoryEstimate& e, const std::string& label) {
  const ModelStateBytes& m = e.largest();
  const auto bytes = [&](std::int64_t value, const std::string& what) {
    add(figures, Quantity::bytes, static_cast<double>(value), label + " " + what);
  };
  bytes(m.total(), "model states");
  bytes(m.parameters(), "parameters");
  bytes(m.gradients(), "gradients");
  bytes(m.optimizer_states(), "optimizer states");
  bytes(m.gradients() + m.optimizer_states(), "gradients + optimizer states");
  bytes(m.parameters() + m.optimizer_states(), "parameters + optimizer states");
  for (StateComponent component : kAllStateComponents) bytes(m[component], std::string(component_name(component)));
  const auto largest = static_cast<std::size_t>(e.largest_gpu);
  bytes(e.bytes_sent_per_gpu.at(largest), "traffic per GPU per iteration");
  for (const CommunicationCost& cost : e.communication) bytes(cost.bytes_sent.at(largest), cost.call.purpose);

  int all = 0;
  int optimizer = 0;
  for (const ComponentRule& rule : e.rules) {
    add(figures, Quantity::bytes_per_parameter, rule.bytes_per_parameter,
        std::string(convention_name(e.query.convention)) + " " + std::string(component_name(rule.component)) +
            " per parameter");
    all += rule.bytes_per_parameter;
    if (state_group(rule.component) == StateGroup::optimizer_states) optimizer += rule.bytes_per_parameter;
  }
  add(figures, Quantity::bytes_per_parameter, all, "model states per parameter");
  add(figures, Quantity::bytes_per_parameter, optimizer, "optimizer states per parameter");
}

std::string variant_label(const IterationQuery& q) {
  return std::string(strategy_name(q.strategy)) + ", recompute " + std::string(recompute_name(q.recompute)) +
         ", offload " + std::string(offload_name(q.offload)) + ", tp " + std::to_string(q.tp) + (q.sp ? " with sp" : "") +
         ":";
}

// The iteration model's figures for one query: its model states, the peak whole and by part,
// the activations, the GPU's capacity and how far the peak is from it, host memory and PCIe
// traffic when offloading, and the time estimate with its parts.
void add_iteration(Figures& figures, const IterationQuery& query) {
  const IterationEstimate e = estimate_iteration(query);
  const std::string label = variant_label(query);
  add_model_states(figures, e.model_states, label);
  const auto bytes = [&](double value, const std::string& what) {
    add(figures, Quantity::bytes, value, label + " " + what);
  };
  const auto seconds = [&](double value, const std::string& what) {
    add(figures, Quantity::seconds, value, label + " " + what);
  };
  const IterationMemory& peak = e.peak.memory;
  bytes(static_cast<double>(peak.total()), "peak");
  bytes(static_cast<double>(peak.activations), "activations at the peak");
  bytes(static_cast<double>(peak.logits), "logits at the peak");
  bytes(static_cast<double>(peak.gradients), "gradients at the peak");
  bytes(static_cast<double>(peak.buffers), "buffers at the peak");
  bytes(static_cast<double>(peak.parameters + peak.optimizer_states), "parameters + optimizer states at the peak");
  bytes(static_cast<double>(peak.parameters + peak.gradients + peak.optimizer_states), "model states at the peak");
  bytes(static_cast<double>(e.activations.all_layers), "activations stored in forward");
  bytes(static_cast<double>(e.activations.all_layers + e.activations.recomputed), "activations with the rerun layer");
  bytes(static_cast<double>(e.activations.full_layer), "one layer's activations");
  bytes(static_cast<double>(e.activations.logits), "logits");
  bytes(query.gpu_memory_bytes, "GPU memory");
  bytes(std::abs(static_cast<double>(peak.total()) - query.gpu_memory_bytes),
        e.fits ? "to spare under the GPU memory" : "over the GPU memory");
  bytes(static_cast<double>(e.host_per_gpu), "host memory per GPU");
  bytes(static_cast<double>(e.host_per_machine), "host memory per machine");
  bytes(static_cast<double>(e.pcie_bytes_per_gpu), "PCIe per GPU per iteration");
  seconds(e.time.total, "per iteration");
  seconds(e.time.compute, "compute");
  seconds(e.time.recompute, "recompute");
  seconds(e.time.communication, "communication");
  seconds(e.time.exposed_communication, "exposed communication");
  seconds(e.time.offload, "offload");
  seconds(e.time.exposed_offload, "exposed offload");
  seconds(e.time.tensor_parallel, "tensor parallel");
  bytes(static_cast<double>(e.tensor_parallel.bytes_sent_per_gpu), "tensor-parallel traffic per GPU per iteration");
  bytes(static_cast<double>(e.data_parallel_bytes_sent), "data-parallel traffic per GPU per iteration");
}

// Everything a caption of `scene` may quote. A model-states scene: each strategy of its block,
// against the GPU the memory view draws (kDefaultGpuMemoryBytes). A whole-iteration scene: its
// query, and the baselines its choices improve on: the same model with DDP instead of the
// strategy, without recomputation, without offloading, without tensor parallelism, and every
// mix of those.
Figures scene_figures(const LessonScene& scene) {
  Figures figures;
  const LessonMemory& memory = *scene.memory;
  if (!memory.iteration) {
    for (Strategy strategy : memory.strategies)
      add_model_states(figures, estimate_memory(memory_query(scene, strategy)), std::string(strategy_name(strategy)) + ":");
    add(figures, Quantity::bytes, kDefaultGpuMemoryBytes, "the memory view's GPU memory");
    return figures;
  }
  const IterationQuery& own = *memory.iteration;
  for (Strategy strategy : {own.strategy, Strategy::ddp})
    for (Recompute recompute : {own.recompute, Recompute::none})
      for (Offload offload : {own.offload, Offload::none})
        for (bool tensor_parallel : {true, false}) {
          IterationQuery variant = own;
          variant.strategy = strategy;
          variant.recompute = recompute;
          variant.offload = offload;
          if (!tensor_parallel) {
            variant.tp = 1;
            variant.sp = false;
          }
          add_iteration(figures, variant);
        }
  return figures;
}

std::string listed(const Figures& figures) {
  std::string text;
  for (const Figure& figure : figures) {
    char value[64];
    if (figure.quantity == Quantity::bytes) std::snprintf(value, sizeof value, "%.4g GB", figure.value / 1e9);
    else if (figure.quantity == Quantity::seconds) std::snprintf(value, sizeof value, "%.4g s", figure.value);
    else std::snprintf(value, sizeof value, "%g bytes", figure.value);
    text += "  " + std::string(value) + "  " + figure.what + "\n";
  }
  return text;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

// The stated figures of `text` that none of `figures` prints as.
std::vector<std::string> unsupported(const std::string& text, const Figures& figures) {
  std::vector<std::string> missing;
  for (const StatedFigure& stated : stated_figures(text)) {
    bool found = false;
    for (const Figure& figure : figures) found = found || prints_as(figure, stated);
    if (!found) missing.push_back(stated.text);
  }
  return missing;
}

}  // namespace

TEST_CASE("caption figures are read with their unit and precision, results of arithmetic only") {
  const std::vector<StatedFigure> found = stated_figures(
      "8 GPUs, 4096 tokens: 14 + 98/4 = 38.5 GB per GPU, 0.43 s, 20 ms, 16 bytes each, 权重 2 字节，共 112 GB。");
  REQUIRE(found.size() == 6);
  CHECK(found[0].text == "38.5 GB");
  CHECK(found[0].number == 38.5);
  CHECK(found[0].decimals == 1);
  CHECK(found[0].unit == 1e9);
  CHECK(found[1].quantity == Quantity::seconds);
  CHECK(found[1].decimals == 2);
  CHECK(found[2].unit == 1e-3);
  CHECK(found[3].text == "16 bytes");
  CHECK(found[4].text == "2 字节");
  CHECK(found[5].text == "112 GB");
  CHECK(stated_figures("3 steps, 2 sequences, 5 GBit").empty());

  const Figure peak{Quantity::bytes, 202'680'000'000, "peak"};
  CHECK(prints_as(peak, stated_figures("202.7 GB")[0]));
  CHECK(prints_as(peak, stated_figures("203 GB")[0]));
  CHECK_FALSE(prints_as(peak, stated_figures("202.6 GB")[0]));
  CHECK_FALSE(prints_as(peak, stated_figures("202.68 s")[0]));
  CHECK(prints_as({Quantity::bytes_per_parameter, 16, "all"}, stated_figures("16 bytes")[0]));
}

TEST_CASE("a figure the scene's model does not produce is caught") {
  const Lesson lesson = load_lesson_file(kLessonFolder / "06-ddp-vs-zero2.json");
  const Figures figures = scene_figures(lesson.scenes.at(3));
  CHECK(unsupported("DDP needs 112 GB, ZeRO-2 38.5 GB, 21 GB of traffic", figures).empty());
  CHECK(unsupported("ZeRO-2 needs 38.4 GB", figures) == std::vector<std::string>{"38.4 GB"});
  CHECK(unsupported("0.43 s", figures) == std::vector<std::string>{"0.43 s"});  // no time in a model-states scene
}

TEST_CASE("every GB, second and byte figure of a memory scene's caption is one its model computes") {
  int checked = 0;
  for (const std::filesystem::path& file : list_lesson_files(kLessonFolder)) {
    const Lesson lesson = load_lesson_file(file);
    Figures whole_lesson;  // the lesson's title and summary may quote any of its memory scenes
    for (std::size_t s = 0; s < lesson.scenes.size(); ++s) {
      const LessonScene& scene = lesson.scenes[s];
      if (!scene.memory) continue;
      const Figures figures = scene_figures(scene);
      whole_lesson.insert(whole_lesson.end(), figures.begin(), figures.end());
      for (Language language : {Language::en, Language::zh}) {
        std::vector<std::string> texts{scene.title.in(language)};
        for (const LessonStep& step : scene.steps) texts.push_back(step.caption.in(language));
        for (const std::string& text : texts) {
          CAPTURE(file.filename().string());
          CAPTURE(s);
          CAPTURE(text);
          INFO("the scene's model gives:\n" << listed(figures));
          const std::vector<std::string> missing = unsupported(text, figures);
          CHECK_MESSAGE(missing.empty(), "not the model's: " << joined(missing));
          checked += static_cast<int>(stated_figures(text).size());
        }
      }
    }
    if (whole_lesson.empty()) continue;
    for (Language language : {Language::en, Language::zh})
      for (const std::string& text : {lesson.title.in(language), lesson.summary.in(language)}) {
        CAPTURE(file.filename().string());
        CAPTURE(text);
        const std::vector<std::string> missing = unsupported(text, whole_lesson);
        CHECK_MESSAGE(missing.empty(), "not the model's: " << joined(missing));
      }
  }
  // Lessons 6, 8 and 9 quote dozens of figures: the reader must have found them.
  CHECK(checked >= 40);
}
