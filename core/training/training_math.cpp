#include "core/training/training_math.h"

#include <cmath>

#include "core/input/initial_values.h"

namespace ringviz {

namespace {

// Independent streams for data, the teacher and the initial weights.
constexpr std::uint64_t kTeacherStream = 0x7465616368657221ull;
constexpr std::uint64_t kInitStream = 0x696e697469616c21ull;

// Uniform in [-1, 1) from 24 random bits: exact in float, identical on every platform.
float uniform_pm1(std::uint64_t seed, std::uint64_t index) {
  const auto bits = static_cast<std::uint32_t>(splitmix64_at(seed, index) >> 40);
  return static_cast<float>(bits) * (2.0f / 16777216.0f) - 1.0f;
}

}  // namespace

Batch synthetic_batch(const MlpShape& shape, std::uint64_t seed, int gpu, int step, int examples) {
  Batch batch;
  batch.examples = examples;
  batch.inputs.resize(static_cast<std::size_t>(examples) * shape.inputs);
  batch.targets.resize(static_cast<std::size_t>(examples) * shape.outputs);
  // A position in the data stream unique to (step, gpu, example, feature).
  const std::uint64_t base =
      ((static_cast<std::uint64_t>(step) << 20) + static_cast<std::uint64_t>(gpu)) *
      static_cast<std::uint64_t>(examples) * static_cast<std::uint64_t>(shape.inputs);
  for (std::size_t i = 0; i < batch.inputs.size(); ++i) batch.inputs[i] = uniform_pm1(seed, base + i);
  // The teacher: y_k = sin(2 * sum_j T_kj x_j) with T fixed by the seed.
  for (int e = 0; e < examples; ++e)
    for (int k = 0; k < shape.outputs; ++k) {
      float sum = 0;
      for (int j = 0; j < shape.inputs; ++j)
        sum += uniform_pm1(seed ^ kTeacherStream, static_cast<std::uint64_t>(k) * shape.inputs + j) *
               batch.inputs[static_cast<std::size_t>(e) * shape.inputs + j];
      batch.targets[static_cast<std::size_t>(e) * shape.outputs + k] =
          std::sin(2.0f * sum / std::sqrt(static_cast<float>(shape.inputs)));
    }
  return batch;
}

std::vector<float> initial_parameters(const MlpShape& shape, std::uint64_t seed) {
  std::vector<float> parameters(static_cast<std::size_t>(shape.parameter_count()), 0.0f);
  const std::size_t w1 = static_cast<std::size_t>(shape.hidden) * shape.inputs;
  const std::size_t w2_begin = w1 + static_cast<std::size_t>(shape.hidden);
  const std::size_t w2 = static_cast<std::size_t>(shape.outputs) * shape.hidden;
  const float scale1 = 1.0f / std::sqrt(static_cast<float>(shape.inputs));
  const float scale2 = 1.0f / std::sqrt(static_cast<float>(shape.hidden));
  for (std::size_t i = 0; i < w1; ++i) parameters[i] = scale1 * uniform_pm1(seed ^ kInitStream, i);
  for (std::size_t i = 0; i < w2; ++i)
    parameters[w2_begin + i] = scale2 * uniform_pm1(seed ^ kInitStream, w1 + i);
  return parameters;
}

double loss_and_gradient(const MlpShape& shape, const float* parameters, const Batch& batch,
                         float* gradient, std::vector<std::int64_t>* kept_per_layer) {
  const int in = shape.inputs;
  const int hid = shape.hidden;
  const int out = shape.outputs;
  const float* w1 = parameters;
  const float* b1 = w1 + static_cast<std::size_t>(hid) * in;
  const float* w2 = b1 + hid;
  const float* b2 = w2 + static_cast<std::size_t>(out) * hid;
  float* gw1 = gradient;
  float* gb1 = gw1 + static_cast<std::size_t>(hid) * in;
  float* gw2 = gb1 + hid;
  float* gb2 = gw2 + static_cast<std::size_t>(out) * hid;
  for (std::int64_t i = 0; i < shape.parameter_count(); ++i) gradient[i] = 0.0f;

  // Forward over the whole batch first, keeping each layer's output for backward: the tanh
  // outputs (read by tanh's derivative and by the second layer's weight gradient) and the
  // predictions (read by the loss).
  const std::size_t examples = static_cast<std::size_t>(batch.examples);
  std::vector<float> hidden(examples * static_cast<std::size_t>(hid));
  std::vector<float> predictions(examples * static_cast<std::size_t>(out));
  for (std::size_t e = 0; e < examples; ++e) {
    const float* x = batch.inputs.data() + e * static_cast<std::size_t>(in);
    float* a = hidden.data() + e * static_cast<std::size_t>(hid);
    for (int h = 0; h < hid; ++h) {
      float z = b1[h];
      for (int j = 0; j < in; ++j) z += w1[static_cast<std::size_t>(h) * in + j] * x[j];
      a[h] = std::tanh(z);
    }
    for (int k = 0; k < out; ++k) {
      float prediction = b2[k];
      for (int h = 0; h < hid; ++h) prediction += w2[static_cast<std::size_t>(k) * hid + h] * a[h];
      predictions[e * static_cast<std::size_t>(out) + static_cast<std::size_t>(k)] = prediction;
    }
  }
  if (kept_per_layer != nullptr)
    *kept_per_layer = {static_cast<std::int64_t>(hidden.size() * sizeof(float)),
                       static_cast<std::int64_t>(predictions.size() * sizeof(float))};

  std::vector<float> hidden_grad(static_cast<std::size_t>(hid));
  std::vector<float> output_grad(static_cast<std::size_t>(out));
  const float scale = 2.0f / static_cast<float>(batch.examples * out);  // d(mean sq)/d(error)
  double loss = 0;
  for (std::size_t e = 0; e < examples; ++e) {
    const float* x = batch.inputs.data() + e * static_cast<std::size_t>(in);
    const float* y = batch.targets.data() + e * static_cast<std::size_t>(out);
    const float* a = hidden.data() + e * static_cast<std::size_t>(hid);
    for (int k = 0; k < out; ++k) {
      const float error = predictions[e * static_cast<std::size_t>(out) + static_cast<std::size_t>(k)] - y[k];
      loss += static_cast<double>(error) * error;
      output_grad[static_cast<std::size_t>(k)] = scale * error;
    }
    // Backward: output layer, then through tanh (d tanh = 1 - tanh^2) into the first layer.
    for (int h = 0; h < hid; ++h) hidden_grad[static_cast<std::size_t>(h)] = 0.0f;
    for (int k = 0; k < out; ++k) {
      const float g = output_grad[static_cast<std::size_t>(k)];
      gb2[k] += g;
      for (int h = 0; h < hid; ++h) {
        gw2[static_cast<std::size_t>(k) * hid + h] += g * a[h];
        hidden_grad[static_cast<std::size_t>(h)] += g * w2[static_cast<std::size_t>(k) * hid + h];
      }
    }
    for (int h = 0; h < hid; ++h) {
      const float g = hidden_grad[static_cast<std::size_t>(h)] * (1.0f - a[h] * a[h]);
      gb1[h] += g;
      for (int j = 0; j < in; ++j) gw1[static_cast<std::size_t>(h) * in + j] += g * x[j];
    }
  }
  return loss / (static_cast<double>(batch.examples) * out);
}

AdamWStep adamw_step(const AdamWOptions& options, int step) {
  AdamWStep constants;
  constants.learning_rate = options.learning_rate;
  constants.beta1 = options.beta1;
  constants.beta2 = options.beta2;
  constants.epsilon = options.epsilon;
  constants.decay = 1.0f - options.learning_rate * options.weight_decay;
  constants.bias_correction1 = static_cast<float>(1.0 - std::pow(double{options.beta1}, step));
  constants.bias_correction2 = static_cast<float>(1.0 - std::pow(double{options.beta2}, step));
  return constants;
}

void adamw_update(float* weights, float* momentum, float* variance, const float* gradients,
                  std::int64_t count, const AdamWStep& s) {
  for (std::int64_t i = 0; i < count; ++i) {
    const float g = gradients[i];
    momentum[i] = s.beta1 * momentum[i] + (1.0f - s.beta1) * g;
    variance[i] = s.beta2 * variance[i] + (1.0f - s.beta2) * (g * g);
    const float m_hat = momentum[i] / s.bias_correction1;
    const float v_hat = variance[i] / s.bias_correction2;
    weights[i] = weights[i] * s.decay - s.learning_rate * (m_hat / (std::sqrt(v_hat) + s.epsilon));
  }
}

}  // namespace ringviz
