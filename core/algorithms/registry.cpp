#include "core/algorithms/registry.h"

#include <array>
#include <cstddef>
#include <stdexcept>

#include "core/model/input_error.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

// Each unit's one entry point, defined in its own file (core/algorithms/<id>.cpp).
#define RINGVIZ_DECLARE_UNIT(id) const AlgorithmUnit& id##_unit();
RINGVIZ_ALGORITHMS(RINGVIZ_DECLARE_UNIT)
#undef RINGVIZ_DECLARE_UNIT

namespace {

constexpr std::size_t kAlgorithmCount = std::size(kAllAlgorithms);

// Built on first use from the explicit list (never by static initialisers), and checked once:
// each unit sits at its enum value and every spelling names one algorithm.
struct Registry {
  std::array<const AlgorithmUnit*, kAlgorithmCount> units{};
  std::vector<EnumName<Algorithm>> names;

  Registry() {
    std::size_t at = 0;
#define RINGVIZ_LIST_UNIT(id) units[at++] = &id##_unit();
    RINGVIZ_ALGORITHMS(RINGVIZ_LIST_UNIT)
#undef RINGVIZ_LIST_UNIT
    for (std::size_t i = 0; i < kAlgorithmCount; ++i) {
      const AlgorithmUnit& unit = *units[i];
      if (unit.id != kAllAlgorithms[i] || unit.supports == nullptr || unit.rounds == nullptr ||
          unit.cost_shape == nullptr || unit.traffic == nullptr || unit.captions.start == nullptr ||
          unit.captions.round == nullptr ||
          (unit.own_channels > 1 && unit.lane_names.size() != static_cast<std::size_t>(unit.own_channels)))
        throw std::logic_error("algorithm unit '" + std::string(unit.name) + "' is incomplete or out of place");
      names.push_back({unit.id, unit.name, unit.aliases, unit.help, {}});
    }
    for (const EnumName<Algorithm>& entry : names)
      for (const EnumName<Algorithm>& other : names)
        if (&entry != &other && (entry.name == other.name || count_word(other.aliases, entry.name) > 0))
          throw std::logic_error("algorithm name '" + std::string(entry.name) + "' is spelled twice");
  }
};

const Registry& registry() {
  static const Registry instance;
  return instance;
}

// The ops some algorithm runs, as a choice: "allgather, reducescatter or allreduce".
std::string collective_op_names() {
  std::vector<std::string_view> ops;
  for (const EnumName<Op>& candidate : kOpNames)
    for (const AlgorithmUnit* unit : registry().units)
      if (unit->supports(candidate.value)) {
        ops.push_back(candidate.name);
        break;
      }
  return join_or(ops);
}

}  // namespace

std::span<const AlgorithmUnit* const> algorithm_units() { return registry().units; }

const AlgorithmUnit& algorithm_unit(Algorithm algorithm) {
  return *registry().units.at(static_cast<std::size_t>(algorithm));
}

std::span<const EnumName<Algorithm>> algorithm_name_table() { return registry().names; }

std::string_view algorithm_name(Algorithm algorithm) {
  const auto index = static_cast<std::size_t>(algorithm);
  return index < kAlgorithmCount ? registry().units[index]->name : "?";
}

std::optional<Algorithm> find_algorithm(std::string_view text) { return find_enum(registry().names, text); }

Algorithm parse_algorithm(std::string_view text, std::string_view field) {
  return parse_enum(registry().names, text, field);
}

bool algorithm_supports(Algorithm algorithm, Op op) { return algorithm_unit(algorithm).supports(op); }

Algorithm default_algorithm(Op op) {
  if (algorithm_supports(Algorithm::ring, op)) return Algorithm::ring;
  for (const AlgorithmUnit* unit : algorithm_units())
    if (unit->supports(op)) return unit->id;
  return Algorithm::ring;
}

bool op_has_schedule(Op op) {
  for (const AlgorithmUnit* unit : algorithm_units())
    if (unit->supports(op)) return true;
  return false;
}

std::optional<std::string> unsupported_op_message(Algorithm algorithm, Op op) {
  if (algorithm_supports(algorithm, op)) return std::nullopt;
  // A job's send and receive move one buffer between two GPUs: there are no rounds to step through.
  if (op == Op::sendrecv)
    return "--op sendrecv: a point-to-point transfer between two GPUs, which ringviz shows as a transfer, "
           "not as a schedule of rounds; choose a collective (" + collective_op_names() + ")";
  std::vector<std::string_view> ops, others;
  for (const EnumName<Op>& candidate : kOpNames)
    if (algorithm_supports(algorithm, candidate.value)) ops.push_back(candidate.name);
  for (const AlgorithmUnit* unit : algorithm_units())
    if (unit->supports(op)) others.push_back(unit->name);
  if (others.empty())
    return "--op " + std::string(op_name(op)) + ": no algorithm runs it yet; choose " + collective_op_names();
  return "--algo " + std::string(algorithm_name(algorithm)) + ": supports " + join_and(ops) + " only (" +
         join_and(others) + " support " + std::string(op_name(op)) + ")";
}

std::optional<std::string> validate(const Config& config) {
  if (auto problem = validate_fields(config)) return problem;
  if (static_cast<std::size_t>(config.algorithm) >= kAlgorithmCount)
    return "algorithm: " + std::to_string(static_cast<int>(config.algorithm)) + " names no algorithm";
  return unsupported_op_message(config.algorithm, config.op);
}

void validate_or_throw(const Config& config) {
  if (auto problem = validate(config)) throw InputError(*problem);
}

Schedule make_lock_step_schedule(const Config& config) {
  if (auto problem = unsupported_op_message(config.algorithm, config.op)) throw InputError(*problem);
  const AlgorithmUnit& unit = algorithm_unit(config.algorithm);
  Schedule rounds = unit.rounds(config);
  if (rounds.channels != unit.own_channels)
    throw std::logic_error("algorithm unit '" + std::string(unit.name) + "' built rounds on " +
                           std::to_string(rounds.channels) + " channels, not its own " +
                           std::to_string(unit.own_channels));
  return rounds;
}

PipelineShape pipeline_shape(const Config& config) {
  const int lanes = algorithm_unit(config.algorithm).own_channels;
  return {lanes * config.channels, config.slices, lanes};
}

Schedule make_schedule(const Config& config) {
  const Schedule rounds = make_lock_step_schedule(config);
  std::int64_t transfers = 0;
  for (const Round& round : rounds.rounds) transfers += static_cast<std::int64_t>(round.transfers.size());
  const std::int64_t pipelined = transfers * config.channels * config.slices;
  if (pipelined > kMaxPipelinedTransfers)
    throw InputError("slices: " + std::to_string(config.slices) + " slices on " + std::to_string(config.channels) +
                     " channels make " + std::to_string(pipelined) + " transfers (at most " +
                     std::to_string(kMaxPipelinedTransfers) + "); choose fewer --slices, --channels or --gpus");
  return pipeline_schedule(rounds, {config.channels, config.slices});
}

}  // namespace ringviz
