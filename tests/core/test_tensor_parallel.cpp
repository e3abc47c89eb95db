// Tensor and sequence parallelism, FlashAttention, the models' own blocks and DeepSpeed's
// estimators, each term against numbers worked by hand from Korthikanti et al. 2022 (Table 2)
// and DeepSpeed's estimator code.
#include <doctest/doctest.h>

#include <string>

#include "tests/core/capture_input_error.h"
#include "core/model/input_error.h"
#include "core/training/activation_model.h"
#include "core/training/iteration_model.h"

using namespace ringviz;

namespace {

// s = 4096, b = 1, h = 4096: s·b·h = 16'777'216.
constexpr std::int64_t kSbh = 16'777'216;

ActivationQuery llama3_8b(Recompute recompute = Recompute::none, int tp = 1, bool sp = false,
                          Attention attention = Attention::eager, Block block = Block::gpt) {
  ActivationQuery q;
  q.model = find_transformer_preset("llama3-8b");
  q.seq = 4096;
  q.micro_batch = 1;
  q.recompute = recompute;
  q.tp = tp;
  q.sp = sp;
  q.attention = attention;
  q.block = block;
  return q;
}

IterationQuery iteration(std::string_view preset, int gpus, int tp, bool sp, Strategy strategy = Strategy::ddp) {
  IterationQuery q;
  q.model = find_transformer_preset(preset);
  q.gpus = gpus;
  q.tp = tp;
  q.sp = sp;
  q.strategy = strategy;
  return q;
}

std::string refusal(const IterationQuery& q) {
  return input_error([&] { estimate_iteration(q); });
}

}  // namespace

TEST_CASE("Llama-3-8B's stored scores and softmax are 2.68 of the 3.25 GB a layer keeps, and FlashAttention drops them") {
  const ActivationBytes eager = activation_bytes(llama3_8b());
  CHECK(eager.terms.replicated == 10 * kSbh);
  CHECK(eager.terms.parallel == 24 * kSbh);
  CHECK(eager.terms.scores == 5LL * 32 * 4096 * 4096);  // 5·a·s²·b
  CHECK(eager.terms.scores == 2'684'354'560);
  CHECK(eager.full_layer == 3'254'779'904);
  const ActivationBytes flash = activation_bytes(llama3_8b(Recompute::none, 1, false, Attention::flash));
  CHECK(flash.terms.scores == 0);
  CHECK(flash.terms.flash_statistics == 4LL * 32 * 4096);  // fp32 log-sum-exp, a·s·b of them
  CHECK(flash.full_layer == 34 * kSbh + 524'288);
  // Its recompute: one Q·Kᵀ product a layer in backward, 2·b·s²·h FLOPs.
  CHECK(attention_recompute_flops_per_layer(llama3_8b(Recompute::none, 1, false, Attention::flash)) ==
        2.0 * 4096 * 4096 * 4096);
  CHECK(attention_recompute_flops_per_layer(llama3_8b(Recompute::selective)) == 4.0 * 4096 * 4096 * 4096);
  CHECK(attention_recompute_flops_per_layer(llama3_8b()) == 0);
}

TEST_CASE("tensor parallelism follows Korthikanti's Table 2 row by row") {
  // TP 8: s·b·h·(10 + 24/t + 5·a·s/(h·t)) = s·b·h·(10 + 3 + 20) = 33·s·b·h.
  CHECK(activation_bytes(llama3_8b(Recompute::none, 8)).full_layer == 33 * kSbh);
  // TP 8 + SP: s·b·h/t·(34 + 5·a·s/h) = s·b·h/8·194.
  CHECK(activation_bytes(llama3_8b(Recompute::none, 8, true)).full_layer == kSbh / 8 * 194);
  // Selective: s·b·h·(10 + 24/t) without SP, 34·s·b·h/t with it.
  CHECK(activation_bytes(llama3_8b(Recompute::selective, 8)).stored_per_layer == 13 * kSbh);
  CHECK(activation_bytes(llama3_8b(Recompute::selective, 8, true)).stored_per_layer == 34 * kSbh / 8);
  // Full: the layer's input, 2·s·b·h, split by SP; one whole layer rebuilt at a time.
  const ActivationBytes full = activation_bytes(llama3_8b(Recompute::full, 8, true));
  CHECK(full.stored_per_layer == 2 * kSbh / 8);
  CHECK(full.recomputed == kSbh / 8 * 194);
  CHECK(activation_bytes(llama3_8b(Recompute::full, 8)).stored_per_layer == 2 * kSbh);
  // The logits are vocabulary-parallel: 4·s·b·V / t.
  CHECK(activation_bytes(llama3_8b(Recompute::none, 8)).logits == 4LL * 4096 * 128'256 / 8);
}

TEST_CASE("the model's own block counts grouped-query K and V, SwiGLU's four intermediates and no dropout") {
  const ActivationBytes own = activation_bytes(llama3_8b(Recompute::none, 1, false, Attention::eager, Block::model));
  // Norms' inputs 2, QKV input 1, MLP input 1 (16-bit: 8·s·b·h), no dropout masks.
  CHECK(own.terms.replicated == 8 * kSbh);
  // Q 2·s·b·h + the output projection's input 2·s·b·h, K and V 2·s·b·h·8/32 each, and the
  // gate, up, SiLU output and product 2·s·b·f each with f = 14336.
  const std::int64_t sbf = 4096LL * 14'336;
  CHECK(own.terms.parallel == 4 * kSbh + kSbh + 8 * sbf);
  // Without dropout only the softmax's output remains of the s² terms: 2·a·s²·b.
  CHECK(own.terms.scores == 2LL * 32 * 4096 * 4096);
  CHECK(own.full_layer == 1'761'607'680);
  // The presets carry the released configurations.
  CHECK(kv_heads_of(find_transformer_preset("llama3-70b")) == 8);
  CHECK(ffn_of(find_transformer_preset("llama3-70b")) == 28'672);
  CHECK(kv_heads_of(find_transformer_preset("gpt3-175b")) == 96);
  CHECK(ffn_of(find_transformer_preset("gpt3-175b")) == 4 * 12'288);
}

TEST_CASE("TP divides the model states by t and leaves gpus / t to data parallelism") {
  const IterationEstimate e = estimate_iteration(iteration("llama3-70b", 64, 8, true));
  CHECK(e.data_parallel == 8);
  CHECK(e.model_states.query.gpus == 8);
  CHECK(e.model_states.query.parameters == 70'553'706'496 / 8);
  CHECK(e.model_states.largest().total() == 16 * (70'553'706'496 / 8));
  // Compute is split t ways too.
  CHECK(e.time.model_flops == doctest::Approx(6.0 * 70'553'706'496 / 8 * 4096));
}

TEST_CASE("TP's collectives: four all-reduces a layer, or four all-gathers and four reduce-scatters with SP, the same bytes") {
  // s·b·h = 16'777'216 bf16 elements = 33'554'432 bytes on t = 8: an all-reduce's ring sends
  // 2·7/8 of it from each GPU, an all-gather or a reduce-scatter 7/8.
  const IterationEstimate tp = estimate_iteration(iteration("llama3-8b", 8, 8, false));
  CHECK(tp.tensor_parallel.collectives_per_layer == 4);
  CHECK(tp.tensor_parallel.collectives == "4 all-reduce per layer");
  CHECK(tp.tensor_parallel.bytes_sent_per_gpu == 4LL * 58'720'256 * 32);
  const IterationEstimate sp = estimate_iteration(iteration("llama3-8b", 8, 8, true));
  CHECK(sp.tensor_parallel.collectives == "4 all-gather + 4 reduce-scatter per layer");
  CHECK(sp.tensor_parallel.bytes_sent_per_gpu == tp.tensor_parallel.bytes_sent_per_gpu);
  CHECK(tp.time.tensor_parallel > 0);
  CHECK(tp.time.total == doctest::Approx(tp.time.compute + tp.time.recompute + tp.time.exposed_communication +
                                         tp.time.tensor_parallel + tp.time.exposed_offload));
  // Full recomputation reruns the forward's two a layer.
  IterationQuery full = iteration("llama3-8b", 8, 8, false);
  full.recompute = Recompute::full;
  CHECK(estimate_iteration(full).tensor_parallel.collectives_per_layer == 6);
  // Without TP there is nothing.
  const IterationEstimate none = estimate_iteration(iteration("llama3-8b", 8, 1, false));
  CHECK(none.tensor_parallel.bytes_sent_per_gpu == 0);
  CHECK(none.time.tensor_parallel == 0);
}

TEST_CASE("DeepSpeed's estimators, exactly: ZeRO-3 is 18 bytes a parameter plus 4 × the largest layer") {
  IterationQuery q = iteration("llama3-8b", 8, 1, false, Strategy::zero3);
  q.convention = MemoryConvention::deepspeed;
  const std::int64_t psi = 8'030'261'248;
  const std::int64_t largest = 128'256LL * 4096;  // the embedding
  DeepSpeedEstimate d = estimate_iteration(q).deepspeed;
  CHECK(d.exists);
  CHECK(d.largest_layer_parameters == largest);
  CHECK(d.gpu_bytes == 4 * largest + 18 * psi / 8);
  CHECK(d.host_bytes_per_machine == 0);
  q.offload = Offload::optimizer;
  d = estimate_iteration(q).deepspeed;
  CHECK(d.gpu_bytes == 4 * largest + 2 * psi / 8);
  CHECK(d.host_bytes_per_machine == psi * 16 * 3 / 2);  // one machine, the 1.5 buffer factor
  q.strategy = Strategy::zero2;
  d = estimate_iteration(q).deepspeed;
  CHECK(d.gpu_bytes == 2 * psi);
  CHECK(d.host_bytes_per_machine == psi * 32 * 3 / 2);  // max(4·8, 16) = 32
  q.offload = Offload::none;
  CHECK(estimate_iteration(q).deepspeed.gpu_bytes == 2 * psi + 18 * psi / 8);
  q.strategy = Strategy::ddp;
  CHECK_FALSE(estimate_iteration(q).deepspeed.exists);
  q.convention = MemoryConvention::paper;
  q.strategy = Strategy::zero3;
  CHECK_FALSE(estimate_iteration(q).deepspeed.exists);
}

TEST_CASE("a tensor-parallel group that does not divide the GPUs, the heads or the KV heads is refused by name") {
  CHECK(refusal(iteration("llama3-8b", 8, 3, false)) ==
        "tp: 3 does not divide the GPUs (8); a tensor-parallel group splits them evenly");
  IterationQuery heads = iteration("llama3-8b", 64, 64, false);
  CHECK(refusal(heads).rfind("tp: 64 does not divide the attention heads (32)", 0) == 0);
  IterationQuery kv = iteration("llama3-8b", 16, 16, false);
  kv.block = Block::model;
  CHECK(refusal(kv).rfind("tp: 16 does not divide the key/value heads (8)", 0) == 0);
  kv.block = Block::gpt;  // a GPT block has as many K/V heads as heads
  CHECK(refusal(kv) == "(no error)");
  CHECK(refusal(iteration("llama3-8b", 8, 1, true)).rfind("sp: ", 0) == 0);
  CHECK(refusal(iteration("llama3-8b", 8, 0, false)) == "tp: 0 must be at least 1");
}
