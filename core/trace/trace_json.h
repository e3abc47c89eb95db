#pragma once
#include <ostream>

#include <nlohmann/json.hpp>

#include "core/trace/trace.h"

namespace ringviz {

inline constexpr const char* kTraceSchema = "ringviz.trace/1";

// A recorded collective as the `ringviz.trace/1` document of docs/architecture.md ("How a round
// flows"). Keys keep the schema's order. Elements of a slot that nothing has reached yet are null;
// NaN and the infinities are the strings "nan", "inf", "-inf"; integers are exact; floats are the
// shortest decimal of their own type, and whole floats are written without ".0". "time_us" appears
// on a round only when the backend timed it.
nlohmann::ordered_json trace_to_json(const Trace& trace);

// Indented like any pretty JSON, except that arrays of plain values stay on one line, so that
// a rank's buffer reads as a row.
void write_json(std::ostream& out, const nlohmann::ordered_json& document);

}  // namespace ringviz
