#pragma once
// The registry of algorithms (docs/architecture.md, "Algorithms: one unit each"): the one place
// that chooses among them. Everything else asks it: the unit of an algorithm, its name, whether
// it has an op, its schedule, and whether a Config can run at all.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/algorithms/algorithm_unit.h"
#include "core/model/enum_table.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

// Every unit, in the order of algorithm_list.h.
std::span<const AlgorithmUnit* const> algorithm_units();
const AlgorithmUnit& algorithm_unit(Algorithm algorithm);

// The names as an enum table (name, aliases, help), for parsers and --help lists.
std::span<const EnumName<Algorithm>> algorithm_name_table();
std::string_view algorithm_name(Algorithm algorithm);
std::optional<Algorithm> find_algorithm(std::string_view text);
// Throws InputError naming `field` and every algorithm's name.
Algorithm parse_algorithm(std::string_view text, std::string_view field = "algorithm");

// Whether `algorithm` has a schedule for `op`.
bool algorithm_supports(Algorithm algorithm, Op op);
// The algorithm a collective runs when none is named (no --algo, a job's collective): the ring
// where it has `op`, else the first in the list that has it (direct, for AllToAll); the ring
// when none has it, so that validate() says why.
Algorithm default_algorithm(Op op);
// Whether some algorithm has a schedule for `op` (send/recv never does: it is one transfer).
bool op_has_schedule(Op op);
// "--algo tree: supports allreduce only (ring, ... support reducescatter)"; nullopt when the
// pair is supported.
std::optional<std::string> unsupported_op_message(Algorithm algorithm, Op op);

// Every field in range (validate_fields, core/model/config.h) and an algorithm that has the op;
// nullopt when valid, else one sentence naming the field and the allowed range.
std::optional<std::string> validate(const Config& config);
void validate_or_throw(const Config& config);

// Schedules are data: the CPU and CUDA backends, the trace printer and the GUI all walk the
// same list of rounds. With config.channels or config.slices above 1 the rounds are the
// pipeline's waves (core/schedule/pipeline.h); throws InputError for an op the algorithm lacks
// or when that is too many transfers.
Schedule make_schedule(const Config& config);
// The algorithm's own rounds whatever config.channels and config.slices say.
Schedule make_lock_step_schedule(const Config& config);
// The channels and slices make_schedule(config) runs on: --channels times the algorithm's own
// channels (AlgorithmUnit::own_channels), and --slices.
PipelineShape pipeline_shape(const Config& config);

}  // namespace ringviz
