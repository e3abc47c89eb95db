#include "core/training/training_run.h"
#include "core/schedule/schedule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/engine/collective.h"
#include "core/model/half.h"
#include "core/model/layout.h"

namespace ringviz {

namespace {

// A rate as a person writes it: 1e-05, not to_string's 0.000010 (nor 0.000000 for 1e-45).
std::string as_typed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// The element range [offset, offset + count) of a typed byte buffer, as bytes.
ByteBuffer slice(const ByteBuffer& bytes, DType dtype, std::int64_t offset, std::int64_t count) {
  const std::size_t element = dtype_size(dtype);
  const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(offset * static_cast<std::int64_t>(element));
  return ByteBuffer(begin, begin + static_cast<std::ptrdiff_t>(count * static_cast<std::int64_t>(element)));
}

std::vector<float> widen(const ByteBuffer& bytes, DType dtype) {
  std::vector<float> values(bytes.size() / dtype_size(dtype));
  if (dtype == DType::f32) {
    std::memcpy(values.data(), bytes.data(), bytes.size());
  } else {
    const auto* halves = reinterpret_cast<const BFloat16*>(bytes.data());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = bfloat16_to_float(halves[i]);
  }
  return values;
}

// Stores floats into the element type: bf16 rounds to nearest even, as the engine does.
void narrow_into(const float* values, std::int64_t count, DType dtype, std::byte* out) {
  if (dtype == DType::f32) {
    std::memcpy(out, values, static_cast<std::size_t>(count) * sizeof(float));
    return;
  }
  auto* halves = reinterpret_cast<BFloat16*>(out);
  for (std::int64_t i = 0; i < count; ++i) halves[i] = bfloat16_from_float(values[i]);
}

ByteBuffer narrow(const std::vector<float>& values, DType dtype) {
  ByteBuffer bytes(values.size() * dtype_size(dtype));
  narrow_into(values.data(), static_cast<std::int64_t>(values.size()), dtype, bytes.data());
  return bytes;
}

// The memory model's strategy with the same sharding: no-sync keeps full copies, as DDP does.
Strategy memory_strategy(TrainStrategy strategy) {
  return strategy == TrainStrategy::zero2 ? Strategy::zero2 : Strategy::ddp;
}

template <class T>
std::int64_t bytes_of(const std::vector<T>& values) {
  return static_cast<std::int64_t>(values.size() * sizeof(T));
}

}  // namespace

static_assert(spellings_are_unique(kTrainStrategyNames) &&
              lists_exactly(kTrainStrategyNames, kAllTrainStrategies));

bool trains_in(DType dtype) {
  return std::find(std::begin(kTrainingDTypes), std::end(kTrainingDTypes), dtype) !=
         std::end(kTrainingDTypes);
}

std::string training_dtype_choices() {
  std::vector<std::string_view> names;
  for (DType dtype : kTrainingDTypes) names.push_back(dtype_name(dtype));
  return join_or(names);
}

std::uint64_t fnv1a64(const ByteBuffer& bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::byte b : bytes) hash = (hash ^ static_cast<std::uint64_t>(b)) * 0x100000001b3ull;
  return hash;
}

void validate_training_options(const TrainingOptions& o) {
  const auto check = [](bool ok, const std::string& message) {
    if (!ok) throw InputError(message);
  };
  check(o.gpus >= 1 && o.gpus <= kMaxRanks,
        "gpus: " + std::to_string(o.gpus) + " is out of range (1 to " + std::to_string(kMaxRanks) + ")");
  check(trains_in(o.dtype), "dtype: " + std::string(dtype_name(o.dtype)) +
                                " is not supported for training (expected " +
                                training_dtype_choices() + ")");
  check(o.batch_per_gpu >= 1 && o.batch_per_gpu <= kMaxBatchPerGpu,
        "batch: " + std::to_string(o.batch_per_gpu) + " is out of range (1 to " +
            std::to_string(kMaxBatchPerGpu) + " examples per GPU)");
  for (const auto& [name, size] : {std::pair{"inputs", o.model.inputs}, std::pair{"hidden", o.model.hidden},
                                   std::pair{"outputs", o.model.outputs}})
    check(size >= 1 && size <= 4096,
          std::string("model: ") + name + " = " + std::to_string(size) + " is out of range (1 to 4096)");
  check(o.model.parameter_count() * o.gpus <= (std::int64_t{1} << 28),
        "model: " + std::to_string(o.model.parameter_count()) + " parameters on " +
            std::to_string(o.gpus) + " GPUs is too large for a teaching run");
  const AdamWOptions& a = o.adamw;
  check(std::isfinite(a.learning_rate) && a.learning_rate > 0 && a.learning_rate <= 1,
        "lr: " + as_typed(a.learning_rate) + " is out of range (0 < lr <= 1)");
  check(a.beta1 >= 0 && a.beta1 < 1 && a.beta2 >= 0 && a.beta2 < 1,
        "betas: must lie in [0, 1)");
  check(std::isfinite(a.epsilon) && a.epsilon > 0, "eps: must be positive");
  check(std::isfinite(a.weight_decay) && a.weight_decay >= 0 && a.learning_rate * a.weight_decay < 1,
        "weight-decay: must be non-negative and below 1/lr");
}

MemoryQuery memory_query_for(const TrainingOptions& options) {
  MemoryQuery query;
  query.parameters = options.model.parameter_count();
  query.gpus = options.gpus;
  query.strategy = memory_strategy(options.strategy);
  query.convention = options.dtype == DType::bf16 ? MemoryConvention::paper : MemoryConvention::fp32;
  query.order = options.order;
  return query;
}

Config TrainingRun::collective_config(Op op, ReduceOp reduce) const {
  Config config;
  config.op = op;
  config.order = options_.order;
  config.ranks = options_.gpus;
  config.count = parameter_count();
  config.dtype = options_.dtype;
  config.reduce = reduce;
  return config;
}

TrainingRun::TrainingRun(TrainingOptions options, Backend& backend)
    : options_(std::move(options)), backend_(backend) {
  validate_training_options(options_);
  const int n = options_.gpus;
  const std::int64_t count = parameter_count();
  // ZeRO-2's shards are exactly the slots the engine's reduce-scatter leaves on each GPU.
  const SlotLayout layout = make_layout(Op::reducescatter, n, count);
  const std::vector<float> initial = initial_parameters(options_.model, options_.seed);
  const ByteBuffer initial_bytes = narrow(initial, options_.dtype);
  gpus_.resize(static_cast<std::size_t>(n));
  // The optimizer states decide: master weights, momentum and variance live on the shard.
  const bool sharded = shards(memory_strategy(options_.strategy), StateGroup::optimizer_states);
  for (int r = 0; r < n; ++r) {
    const Slot shard = layout[ring_owned_slot(options_.order, r, n)];
    shard_offset_.push_back(sharded ? shard.offset : 0);
    shard_elements_.push_back(sharded ? shard.count : count);
    Gpu& gpu = gpus_[static_cast<std::size_t>(r)];
    gpu.parameters = initial_bytes;
    const auto owned = static_cast<std::size_t>(shard_elements_.back());
    if (options_.dtype == DType::bf16)
      gpu.master.assign(initial.begin() + shard_offset_.back(),
                        initial.begin() + shard_offset_.back() + static_cast<std::ptrdiff_t>(owned));
    gpu.momentum.assign(owned, 0.0f);
    gpu.variance.assign(owned, 0.0f);
  }
  held_.assign(static_cast<std::size_t>(n), ModelStateBytes{});
}

void TrainingRun::update(int r, int step_number) {
  Gpu& gpu = gpus_[static_cast<std::size_t>(r)];
  const std::int64_t offset = shard_offset_[static_cast<std::size_t>(r)];
  const std::int64_t owned = shard_elements_[static_cast<std::size_t>(r)];
  const std::vector<float> gradients = widen(gpu.gradients, options_.dtype);
  const AdamWStep constants = adamw_step(options_.adamw, step_number);
  if (options_.dtype == DType::f32) {
    // fp32: the working parameters are the weights AdamW updates; no master copy.
    float* weights = reinterpret_cast<float*>(gpu.parameters.data()) + offset;
    adamw_update(weights, gpu.momentum.data(), gpu.variance.data(), gradients.data(), owned, constants);
  } else {
    adamw_update(gpu.master.data(), gpu.momentum.data(), gpu.variance.data(), gradients.data(), owned,
                 constants);
    narrow_into(gpu.master.data(), owned, DType::bf16,
                gpu.parameters.data() + offset * static_cast<std::int64_t>(dtype_size(DType::bf16)));
  }
}

const TrainingStepRecord& TrainingRun::step() {
  const int n = options_.gpus;
  const int step_number = steps_done() + 1;
  const std::int64_t count = parameter_count();
  const DType dtype = options_.dtype;
  TrainingStepRecord record;
  record.step = step_number;
  record.bytes_sent.assign(static_cast<std::size_t>(n), 0);

  // Forward and backward: every GPU, the same parameters, its own mini-batch.
  BufferState gradients = BufferState::zeros(dtype, n, count);
  std::vector<float> local(static_cast<std::size_t>(count));
  for (int r = 0; r < n; ++r) {
    const Batch batch =
        synthetic_batch(options_.model, options_.seed, r, step_number, options_.batch_per_gpu);
    const std::vector<float> weights = widen(gpus_[static_cast<std::size_t>(r)].parameters, dtype);
    record.loss.push_back(
        loss_and_gradient(options_.model, weights.data(), batch, local.data(), &activations_per_layer_));
    narrow_into(local.data(), count, dtype, gradients.ranks[static_cast<std::size_t>(r)].data());
  }

  // Synchronise the gradients through the ring.
  const auto add_traffic = [&](const CollectiveTraffic& traffic) {
    for (int r = 0; r < n; ++r)
      record.bytes_sent[static_cast<std::size_t>(r)] += traffic.sent[static_cast<std::size_t>(r)];
  };
  if (options_.strategy == TrainStrategy::ddp)
    add_traffic(run_collective(backend_, collective_config(Op::allreduce, ReduceOp::avg), gradients));
  else if (options_.strategy == TrainStrategy::zero2)
    add_traffic(run_collective(backend_, collective_config(Op::reducescatter, ReduceOp::avg), gradients));
  // Each GPU keeps what it needs: everything (ddp, nosync) or its own slot (zero2), and the
  // full buffer goes away.
  for (int r = 0; r < n; ++r) {
    Gpu& gpu = gpus_[static_cast<std::size_t>(r)];
    gpu.gradients = slice(gradients.ranks[static_cast<std::size_t>(r)], dtype,
                          shard_offset_[static_cast<std::size_t>(r)],
                          shard_elements_[static_cast<std::size_t>(r)]);
  }
  gradients = BufferState{};

  // AdamW, and the measurement of what each GPU holds at this moment.
  for (int r = 0; r < n; ++r) {
    update(r, step_number);
    const Gpu& gpu = gpus_[static_cast<std::size_t>(r)];
    ModelStateBytes& held = held_[static_cast<std::size_t>(r)];
    held[StateComponent::parameters] = static_cast<std::int64_t>(gpu.parameters.size());
    held[StateComponent::gradients] = static_cast<std::int64_t>(gpu.gradients.size());
    held[StateComponent::master_weights] = bytes_of(gpu.master);
    held[StateComponent::momentum] = bytes_of(gpu.momentum);
    held[StateComponent::variance] = bytes_of(gpu.variance);
  }

  // ZeRO-2: every GPU's updated shard goes to every other GPU.
  if (options_.strategy == TrainStrategy::zero2) {
    BufferState parameters;
    parameters.dtype = dtype;
    parameters.elements_per_rank = count;
    for (const Gpu& gpu : gpus_) parameters.ranks.push_back(gpu.parameters);
    add_traffic(run_collective(backend_, collective_config(Op::allreduce, ReduceOp::sum), parameters,
                               RingPasses::all_gather_only));
    for (int r = 0; r < n; ++r)
      gpus_[static_cast<std::size_t>(r)].parameters = std::move(parameters.ranks[static_cast<std::size_t>(r)]);
  }
  // Gradients are released until the next backward (set_to_none, as PyTorch does by default).
  for (Gpu& gpu : gpus_) ByteBuffer().swap(gpu.gradients);

  // What a loss plot and a spread plot need.
  double loss_sum = 0;
  for (double loss : record.loss) loss_sum += loss;
  record.mean_loss = loss_sum / n;
  std::vector<std::vector<float>> values;
  for (int r = 0; r < n; ++r) {
    values.push_back(parameters(r));
    record.checksums.push_back(fnv1a64(gpus_[static_cast<std::size_t>(r)].parameters));
  }
  double squares = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    double low = values[0][static_cast<std::size_t>(i)];
    double high = low;
    double mean = 0;
    for (int r = 0; r < n; ++r) {
      const double v = values[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)];
      low = std::min(low, v);
      high = std::max(high, v);
      mean += v;
    }
    mean /= n;
    for (int r = 0; r < n; ++r) {
      const double d = values[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)] - mean;
      squares += d * d;
    }
    record.parameter_spread = std::max(record.parameter_spread, high - low);
  }
  record.parameter_spread_rms = std::sqrt(squares / (static_cast<double>(count) * n));
  history_.push_back(std::move(record));
  return history_.back();
}

std::vector<float> TrainingRun::parameters(int gpu) const {
  return widen(gpus_[static_cast<std::size_t>(gpu)].parameters, options_.dtype);
}

const ByteBuffer& TrainingRun::parameter_bytes(int gpu) const {
  return gpus_[static_cast<std::size_t>(gpu)].parameters;
}

std::int64_t TrainingRun::shard_offset(int gpu) const { return shard_offset_[static_cast<std::size_t>(gpu)]; }

std::int64_t TrainingRun::shard_elements(int gpu) const {
  return shard_elements_[static_cast<std::size_t>(gpu)];
}

}  // namespace ringviz
