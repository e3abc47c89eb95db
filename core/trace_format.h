#pragma once
#include <ostream>
#include <string>
#include <string_view>

#include "core/text.h"
#include "core/trace.h"
#include "core/trace_report.h"

namespace ringviz {

// table: aligned for a terminal; markdown: the article's tables, ready to paste into notes;
// json: the `ringviz.trace/1` document for tools and tests.
enum class TraceFormat { table, markdown, json };

std::string_view trace_format_name(TraceFormat format);
// Throws InputError naming `field` and the accepted values.
TraceFormat parse_trace_format(std::string_view text, std::string_view field = "format");

std::string render_markdown(const TraceReport& report);
// Columns padded to the widest cell, counting Chinese characters as two terminal columns.
std::string render_terminal(const TraceReport& report);

// The whole `ringviz trace` output. `language` does not change the JSON.
void write_trace(std::ostream& out, const Trace& trace, TraceFormat format, Language language);

}  // namespace ringviz
