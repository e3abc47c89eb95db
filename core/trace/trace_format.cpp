#include "core/trace/trace_format.h"

#include <algorithm>
#include <sstream>

#include "core/trace/chrome_trace.h"
#include "core/model/config.h"
#include "core/trace/trace_json.h"

namespace ringviz {

namespace {

// A cell must not end its Markdown row early.
std::string markdown_cell(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '|') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

void markdown_row(std::ostream& out, const std::vector<std::string>& cells) {
  out << "|";
  for (const std::string& cell : cells) out << " " << markdown_cell(cell) << " |";
  out << "\n";
}

void markdown_table(std::ostream& out, const TextTable& table) {
  markdown_row(out, table.header);
  out << "|";
  for (std::size_t i = 0; i < table.header.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& row : table.rows) markdown_row(out, row);
}

std::string repeat(std::string_view unit, std::size_t times) {
  std::string text;
  for (std::size_t i = 0; i < times; ++i) text += unit;
  return text;
}

void pad_to(std::ostream& out, const std::string& text, std::size_t width) {
  out << text << std::string(width - std::min(width, display_width(text)), ' ');
}

// Header, a dashed rule under each column, then the rows; the last column is not padded so
// that lines carry no trailing blanks.
void terminal_table(std::ostream& out, const TextTable& table) {
  std::vector<std::size_t> widths(table.header.size(), 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], display_width(row[i]));
  };
  measure(table.header);
  for (const auto& row : table.rows) measure(row);
  const auto print = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0) out << "  ";
      if (i + 1 == row.size()) out << row[i];
      else pad_to(out, row[i], widths[i]);
    }
    out << "\n";
  };
  print(table.header);
  std::vector<std::string> rule;
  for (std::size_t width : widths) rule.push_back(repeat("-", width));
  print(rule);
  for (const auto& row : table.rows) print(row);
}

// Markdown and the terminal write paragraphs alike; they differ in the list bullet and the table.
void write_block(std::ostream& out, const ReportBlock& block, std::string_view bullet,
                 void (*write_table)(std::ostream&, const TextTable&)) {
  switch (block.kind) {
    case ReportBlock::Kind::paragraph:
      for (const std::string& line : block.lines) out << line << "\n";
      break;
    case ReportBlock::Kind::list:
      for (const std::string& item : block.lines) out << bullet << item << "\n";
      break;
    case ReportBlock::Kind::table:
      write_table(out, block.table);
      break;
  }
}

void markdown_block(std::ostream& out, const ReportBlock& block) { write_block(out, block, "- ", markdown_table); }
void terminal_block(std::ostream& out, const ReportBlock& block) { write_block(out, block, "  ", terminal_table); }

}  // namespace

static_assert(spellings_are_unique(kTraceFormatNames));

std::string render_markdown(const TraceReport& report) {
  std::ostringstream out;
  out << "## " << report.title << "\n";
  for (const ReportBlock& block : report.preamble) {
    out << "\n";
    markdown_block(out, block);
  }
  for (const ReportSection& section : report.sections) {
    out << "\n### " << section.heading << "\n";
    for (const ReportBlock& block : section.blocks) {
      out << "\n";
      markdown_block(out, block);
    }
  }
  return out.str();
}

std::string render_terminal(const TraceReport& report) {
  std::ostringstream out;
  out << report.title << "\n" << repeat("=", display_width(report.title)) << "\n";
  for (std::size_t i = 0; i < report.preamble.size(); ++i) {
    if (i > 0) out << "\n";
    terminal_block(out, report.preamble[i]);
  }
  for (const ReportSection& section : report.sections) {
    out << "\n" << section.heading << "\n" << repeat("-", display_width(section.heading)) << "\n";
    bool first = true;
    for (const ReportBlock& block : section.blocks) {
      // A table after a line of text belongs to it; only tables get a blank line between them.
      if (!first && block.kind == ReportBlock::Kind::paragraph) out << "\n";
      terminal_block(out, block);
      first = false;
    }
  }
  return out.str();
}

void write_trace(std::ostream& out, const Trace& trace, TraceFormat format, Language language) {
  switch (format) {
    case TraceFormat::table: out << render_terminal(build_trace_report(trace, language)); return;
    case TraceFormat::markdown: out << render_markdown(build_trace_report(trace, language)); return;
    case TraceFormat::json: write_json(out, trace_to_json(trace)); return;
    case TraceFormat::chrome: write_chrome_trace(out, trace); return;
  }
}

}  // namespace ringviz
