#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/model/buffers.h"
#include "core/model/config.h"

namespace ringviz {

// Every rank's input (`count` elements each) laid into its working buffer: AllGather puts
// rank r's input in slot r and leaves the other slots zero (and empty in provenance);
// ReduceScatter and AllReduce fill the whole buffer. Throws InputError for file: problems,
// naming the file and the position (e.g. "inputs.json: [2][5]: expected a number").
BufferState make_initial_state(const Config& config);

// A value table (InitKind::values) as --init takes it: "values:1,2/3,4", one row per GPU, each
// number the shortest text that reads back as the same value (whole numbers exactly). The GUI's
// Copy command writes it so that inputs edited in its table survive the command line;
// parse_init reads it back.
std::string values_init_text(const std::vector<std::vector<ElementValue>>& rows);

// What make_initial_state would refuse in the inputs (an unreadable file, a value of a file or
// a value table that does not fit the type), thrown as InputError without building any buffer: front ends call it before
// they open a window, so bad input exits 2 there as it does in `ringviz trace`.
void check_initial_values(const Config& config);

// A JSON number the library already read as `type` stores it, or nothing when it does not fit
// (core/model/checked_value.h). Only for numbers whose double says all: integers, and floats
// under a float type; a float under an integer type needs its text (read_written_number).
std::optional<ElementValue> number_as_element(const nlohmann::json& number, DType type);

// "<written> does not fit <type> (<the type's range>)", the value shortened for the message.
std::string does_not_fit(std::string_view written, DType type);

// The "seed" input: element `index` of rank `rank` is rank * count + index + 1, so every element
// of every rank differs and each sum names its terms. The GUI's custom table starts from it too.
std::int64_t seed_input_value(int rank, std::int64_t index, std::int64_t count);

// splitmix64 at position `index` of the stream started by `seed`: random:SEED inputs are
// deterministic and can be computed for any element independently.
std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t index);

}  // namespace ringviz
