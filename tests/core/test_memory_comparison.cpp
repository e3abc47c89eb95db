// A job document's measured memory: read, written back unchanged, refused where it is malformed,
// and set beside the memory model with numbers worked by hand for the measured GPT's shapes.
#include <doctest/doctest.h>

#include <string>

#include "core/job/job_document.h"
#include "core/job/memory_comparison.h"
#include "core/model/input_error.h"

using namespace ringviz;

namespace {

// One rank of examples/measured_gpt.py as ringviz_torch writes it (L = 2, h = 64, a = 4,
// f = 256, V = 96, s = 32, b = 2, Ψ = 114432); without the memory member where asked.
std::string document(const std::string& recompute = "none", const std::string& per_layer = "[345096, 345096]",
                     bool with_memory = true) {
  const std::string head = R"({"format": "ringviz.job/1", "source": {"kind": "ringviz_torch", "files": []},
    "job": {"world_size": 4, "backend": "gloo"},
    "groups": [{"name": "0", "description": "default_pg", "ranks": [0, 1, 2, 3]}],
    "ranks": [{"rank": 0, "traced": true, "clock_offset_us": 0, "collectives": [], "compute": [])";
  if (!with_memory) return head + "}]}";
  return head + R"(,
      "memory": [{"label": "DDP, recompute )" + recompute + R"(", "strategy": "ddp", "recompute": ")" + recompute + R"(",
        "world_size": 4,
        "shape": {"parameters": 114432, "layers": 2, "hidden": 64, "heads": 4, "ffn": 256, "vocab": 96,
                  "seq": 32, "micro_batch": 2, "dropout": true},
        "element_bytes": {"parameters": 4, "gradients": 4, "activations": 4, "masks": 1},
        "measured": {"parameters": 457728, "gradients": 457728, "optimizer_states": 915456,
          "optimizer_step_counters": 116, "optimizer_parameter_tensors": 29, "largest_parameter_tensor": 16384,
          "activations_per_layer": )" + per_layer + R"(, "recomputed_per_layer": [0, 0],
          "outside_layers": 59156, "activations_peak": 749348}}]}]})";
}

const MemoryTermComparison& term_named(const MemoryComparison& c, const std::string& name) {
  for (const MemoryTermComparison& t : c.terms)
    if (t.name == name) return t;
  FAIL("no term " << name);
  return c.terms.front();
}

}  // namespace

TEST_CASE("a job's measured memory is read, written back unchanged, and optional") {
  const Job job = parse_job_document(document(), "job.json");
  REQUIRE(job.memory.size() == 1);
  const MeasuredMemory& m = job.memory.front();
  CHECK(m.rank == 0);
  CHECK(m.strategy == Strategy::ddp);
  CHECK(m.shape.ffn == 256);
  CHECK(m.measured.activations_per_layer == std::vector<std::int64_t>{345096, 345096});
  const Job again = parse_job_document(job_document_text(job), "again.json");
  REQUIRE(again.memory.size() == 1);
  CHECK(again.memory.front().measured.activations_peak == 749348);
  CHECK(again.memory.front().label == "DDP, recompute none");
  // Without it, a document reads as before.
  CHECK(parse_job_document(document("none", "[]", false), "old.json").memory.empty());
}

TEST_CASE("a measured layer list of the wrong length is refused at its position") {
  try {
    parse_job_document(document("none", "[345096]"), "job.json");
    FAIL("accepted a one-layer list for two layers");
  } catch (const InputError& error) {
    INFO(std::string(error.what()));
    CHECK(std::string(error.what()).find("job.json:12:36: ranks[0].memory[0].measured.activations_per_layer: lists 1 layers; the shape has 2") !=
          std::string::npos);
  }
}

TEST_CASE("the model's figures for the measured GPT, worked by hand, and their tolerances") {
  const MemoryComparison c = compare_measured_memory(parse_job_document(document(), "job.json").memory.front());
  CHECK(c.convention == MemoryConvention::fp32);
  // s·b·h = 4096, s·b·f = 16384, a·s²·b = 8192; 4-byte values, 1-byte masks:
  //   replicated 4·4·4096 + 2·4096 = 73728, parallel 4·(2 + 2)·4096 + 4·2·16384 = 196608,
  //   scores (2·4 + 1)·8192 = 73728: 344064 a layer.
  CHECK(term_named(c, "layer 1 activations").model == 344'064);
  CHECK(term_named(c, "layer 1 activations").high == 16 * 64 + 8);
  CHECK(term_named(c, "parameters").model == 4 * 114'432);
  CHECK(term_named(c, "optimizer states").model == 8 * 114'432);
  CHECK(term_named(c, "logits and loss").model == 4 * 64 * 96);
  CHECK(term_named(c, "activations peak").model == 2 * 344'064 + 4 * 64 * 96);
  CHECK(c.within());
  // Four bytes more than the model's parameters is outside an exact tolerance.
  Job tampered = parse_job_document(document(), "job.json");
  tampered.memory.front().measured.parameters += 4;
  CHECK_FALSE(compare_measured_memory(tampered.memory.front()).within());
  // Full recomputation keeps a layer's input alone, exactly, and rebuilds one layer whole.
  const MemoryComparison full =
      compare_measured_memory(parse_job_document(document("full", "[16384, 16384]"), "job.json").memory.front());
  CHECK(term_named(full, "layer 1 activations").model == 16'384);
  CHECK(term_named(full, "layer 1 activations").high == 0);
  CHECK(term_named(full, "recomputed layer").model == 344'064);
  CHECK(term_named(full, "activations peak").model == 16'384 + 344'064);
}

TEST_CASE("the comparison speaks Chinese when asked, with the same figures term by term") {
  const MeasuredMemory measured = parse_job_document(document(), "job.json").memory.front();
  const MemoryComparison english = compare_measured_memory(measured);
  const MemoryComparison chinese = compare_measured_memory(measured, Language::zh);
  CHECK(english.language == Language::en);
  CHECK(chinese.language == Language::zh);
  REQUIRE(chinese.terms.size() == english.terms.size());
  for (std::size_t i = 0; i < english.terms.size(); ++i) {
    const MemoryTermComparison& en = english.terms[i];
    const MemoryTermComparison& zh = chinese.terms[i];
    CAPTURE(en.name);
    CHECK(zh.term == en.term);
    CHECK(zh.measured == en.measured);
    CHECK(zh.model == en.model);
    CHECK(zh.low == en.low);
    CHECK(zh.high == en.high);
    CHECK(zh.name != en.name);  // every name and reason translated
    CHECK(zh.why != en.why);
  }
  CHECK(term_named(chinese, "第 1 层激活").model == 344'064);
  CHECK(term_named(chinese, "参数").why == "精确");
}
