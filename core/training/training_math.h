#pragma once
// The arithmetic of the small training run: a two-layer MLP on synthetic data, and AdamW.
// Every GPU of every strategy calls exactly these functions, so when two strategies hand a GPU
// the same bits (parameters, averaged gradients) they get the same bits back.
#include <cstdint>
#include <vector>

namespace ringviz {

// y = W2 tanh(W1 x + b1) + b2. The flat parameter vector is W1 (hidden x inputs, row-major),
// b1, W2 (outputs x hidden), b2. The default has 2563 parameters: a prime-ish size that no
// small N divides, so uneven shards are exercised.
struct MlpShape {
  int inputs = 16;
  int hidden = 128;
  int outputs = 3;

  std::int64_t parameter_count() const {
    return std::int64_t{hidden} * inputs + hidden + std::int64_t{outputs} * hidden + outputs;
  }
};

// One mini-batch: `examples` rows of inputs and targets.
struct Batch {
  int examples = 0;
  std::vector<float> inputs;   // examples x shape.inputs
  std::vector<float> targets;  // examples x shape.outputs
};

// The mini-batch GPU `gpu` sees at step `step`: inputs uniform in [-1, 1), targets from a
// fixed random "teacher" function of them. Different for every (gpu, step), and the same on
// every run with the same seed.
Batch synthetic_batch(const MlpShape& shape, std::uint64_t seed, int gpu, int step, int examples);

// The same starting point on every GPU: weights uniform in ±1/sqrt(fan-in), biases zero.
std::vector<float> initial_parameters(const MlpShape& shape, std::uint64_t seed);

// Mean squared error over the batch (mean over examples and outputs), and its gradient with
// respect to every parameter written to `gradient` (parameter_count() floats). Forward runs
// over the whole batch before backward, as a framework does, so each layer's output is kept in
// between; with `kept_per_layer`, the bytes of those buffers are written there, one entry per
// layer (the tanh outputs, the predictions).
double loss_and_gradient(const MlpShape& shape, const float* parameters, const Batch& batch,
                         float* gradient, std::vector<std::int64_t>* kept_per_layer = nullptr);

struct AdamWOptions {
  float learning_rate = 0.01f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float epsilon = 1e-8f;
  float weight_decay = 0.01f;
};

// The per-step scalars of AdamW (bias corrections depend on the step number), computed once
// per step so every caller uses identical values.
struct AdamWStep {
  float learning_rate = 0;
  float beta1 = 0;
  float beta2 = 0;
  float epsilon = 0;
  float decay = 1;               // 1 - lr * weight_decay (decoupled weight decay)
  float bias_correction1 = 1;    // 1 - beta1^t
  float bias_correction2 = 1;    // 1 - beta2^t
};
AdamWStep adamw_step(const AdamWOptions& options, int step);  // step counts from 1

// AdamW on `count` elements: weights, momentum and variance updated in place from gradients.
// Purely element-wise (no element depends on another), so updating a shard gives the same
// bits as updating the whole vector and reading the shard.
void adamw_update(float* weights, float* momentum, float* variance, const float* gradients,
                  std::int64_t count, const AdamWStep& step);

}  // namespace ringviz
