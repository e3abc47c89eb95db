// The Ultra-Scale Playbook's (Hugging Face, 2025) memory charts for Llama 3, held against the
// model term by term: "Memory Usage for 70B Model" with tensor parallelism, with and without
// sequence parallelism, and "Memory Usage for 8B Model" with TP 2. The charts plot GiB with a
// micro-batch of 1 and Korthikanti et al.'s GPT block without the stored attention scores
// (selective recomputation); docs/memory.md, "The playbook's charts", gives the same rows as a
// table (scripts/memory_tables.py), from the same data file.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <string>

#include "core/training/iteration_model.h"

using namespace ringviz;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// tests/data/playbook/memory-charts.json: each panel's bars as the chart's data holds them.
nlohmann::json playbook_panels() {
  std::ifstream file(std::string(RINGVIZ_SOURCE_DIR) + "/tests/data/playbook/memory-charts.json");
  REQUIRE(file);
  const auto panels = nlohmann::json::parse(file).at("panels");
  REQUIRE(panels.size() == 7);
  return panels;
}

IterationEstimate estimate(const nlohmann::json& panel, std::int64_t seq) {
  IterationQuery q;
  q.model = find_transformer_preset(panel.at("model").get<std::string>());
  q.seq = seq;
  q.micro_batch = 1;
  q.recompute = Recompute::selective;
  q.tp = panel.at("tp").get<int>();
  q.gpus = q.tp;  // one tensor-parallel group, no data parallelism: what each chart shows
  q.sp = panel.at("sp").get<bool>();
  q.block = Block::gpt;
  return estimate_iteration(q);
}

}  // namespace

TEST_CASE("the playbook's Llama 3 charts: activations to the byte at every TP, SP and sequence length") {
  for (const auto& panel : playbook_panels()) {
    const auto& seqs = panel.at("seq");
    const auto& activations = panel.at("activations");
    REQUIRE(seqs.size() == activations.size());
    for (std::size_t i = 0; i < seqs.size(); ++i) {
      const auto seq = seqs[i].get<std::int64_t>();
      const IterationEstimate e = estimate(panel, seq);
      INFO(panel.at("chart").get<std::string>() << ", sequence " << seq);
      // Dyadic GiB values: the chart's bar times 2^30 is a whole number of bytes, exactly.
      CHECK(static_cast<double>(e.activations.all_layers) == activations[i].get<double>() * kGiB);
    }
  }
}

TEST_CASE("the playbook's Llama 3 charts: 16-bit parameters and gradients and Adam's two fp32 states, to the charts' rounding of the parameter count") {
  for (const auto& panel : playbook_panels()) {
    const IterationEstimate e = estimate(panel, panel.at("seq")[0].get<std::int64_t>());
    const ModelStateBytes states = e.model_states.largest();
    INFO(panel.at("chart").get<std::string>());
    // The charts count 70.6 and 8.03 billion parameters where the presets hold Meta's exact
    // 70,553,706,496 and 8,030,261,248: 0.07% and 0.003% apart.
    CHECK(states.parameters() / kGiB == doctest::Approx(panel.at("parameters").get<double>()).epsilon(0.001));
    CHECK(states.gradients() / kGiB == doctest::Approx(panel.at("gradients").get<double>()).epsilon(0.001));
    const auto adam = states[StateComponent::momentum] + states[StateComponent::variance];
    CHECK(adam / kGiB == doctest::Approx(panel.at("optimizer_states").get<double>()).epsilon(0.001));
    // What the charts leave out: the optimizer's fp32 master copy of the weights, 4 bytes a
    // parameter, which the paper convention's 16 bytes include.
    CHECK(states.optimizer_states() - adam == states[StateComponent::master_weights]);
    CHECK(states[StateComponent::master_weights] == 2 * states.parameters());
  }
}
