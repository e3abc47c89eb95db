#pragma once
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "core/model/enum_table.h"
#include "core/model/text.h"
#include "core/trace/chrome_trace.h"
#include "core/trace/trace.h"
#include "core/trace/trace_report.h"

namespace ringviz {

// table: aligned for a terminal; markdown: the source article's tables, ready to paste into notes;
// json: the `ringviz.trace/1` document for tools and tests; chrome: trace events for Perfetto
// (core/trace/chrome_trace.h).
enum class TraceFormat { table, markdown, json, chrome };
inline constexpr EnumName<TraceFormat> kTraceFormatNames[] = {
    {TraceFormat::table, "table", "", "aligned for a terminal"},
    {TraceFormat::markdown, "markdown", "md"},
    {TraceFormat::json, "json", "", "schema ringviz.trace/1"},
    {TraceFormat::chrome, "chrome", "", "trace events for Perfetto"},
};

inline constexpr EnumNamer trace_format_name{kTraceFormatNames};
// Throws InputError naming `field` and the accepted values.
inline constexpr EnumParser parse_trace_format{kTraceFormatNames, "format"};

std::string render_markdown(const TraceReport& report);
// Columns padded to the widest cell, counting Chinese characters as two terminal columns.
std::string render_terminal(const TraceReport& report);

// The whole `ringviz trace` output, written while the run streams by (stream_trace()).
// `language` changes neither JSON format; `chrome` times the Chrome trace's rounds.
std::unique_ptr<TraceListener> make_trace_writer(std::ostream& out, TraceFormat format, Language language,
                                                 ChromeTraceOptions chrome = {});

// The same output for a recorded trace.
void write_trace(std::ostream& out, const Trace& trace, TraceFormat format, Language language);

}  // namespace ringviz
