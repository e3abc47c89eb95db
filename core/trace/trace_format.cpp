#include "core/trace/trace_format.h"

#include <algorithm>
#include <memory>
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

namespace {

// Markdown and the terminal each lay out the report's header and then its sections one by
// one, so that a streamed run is written section by section.
struct ReportLayout {
  void (*header)(std::ostream&, const TraceReport&);
  void (*section)(std::ostream&, const ReportSection&);
};

void markdown_header(std::ostream& out, const TraceReport& report) {
  out << "## " << report.title << "\n";
  for (const ReportBlock& block : report.preamble) {
    out << "\n";
    markdown_block(out, block);
  }
}

void markdown_section(std::ostream& out, const ReportSection& section) {
  out << "\n### " << section.heading << "\n";
  for (const ReportBlock& block : section.blocks) {
    out << "\n";
    markdown_block(out, block);
  }
}

void terminal_header(std::ostream& out, const TraceReport& report) {
  out << report.title << "\n" << repeat("=", display_width(report.title)) << "\n";
  for (std::size_t i = 0; i < report.preamble.size(); ++i) {
    if (i > 0) out << "\n";
    terminal_block(out, report.preamble[i]);
  }
}

void terminal_section(std::ostream& out, const ReportSection& section) {
  out << "\n" << section.heading << "\n" << repeat("-", display_width(section.heading)) << "\n";
  bool first = true;
  for (const ReportBlock& block : section.blocks) {
    // A table after a line of text belongs to it; only tables get a blank line between them.
    if (!first && block.kind == ReportBlock::Kind::paragraph) out << "\n";
    terminal_block(out, block);
    first = false;
  }
}

constexpr ReportLayout kMarkdownLayout{markdown_header, markdown_section};
constexpr ReportLayout kTerminalLayout{terminal_header, terminal_section};

std::string render(const TraceReport& report, const ReportLayout& layout) {
  std::ostringstream out;
  layout.header(out, report);
  for (const ReportSection& section : report.sections) layout.section(out, section);
  return out.str();
}

class ReportTraceWriter : public TraceListener {
 public:
  ReportTraceWriter(std::ostream& out, const ReportLayout& layout, Language language)
      : out_(out), layout_(layout), language_(language) {}

  void begin(const Trace& trace) override {
    builder_ = std::make_unique<TraceReportBuilder>(trace, language_);
    write(builder_->header());
  }
  void round(const Trace&, const TraceRound& round) override { write(builder_->round(round)); }
  void end(const Trace&) override {
    write(builder_->end());
    builder_.reset();
  }

 private:
  void write(const TraceReport& report) {
    layout_.header(out_, report);
    write(report.sections);
  }
  void write(const std::vector<ReportSection>& sections) {
    for (const ReportSection& section : sections) layout_.section(out_, section);
  }

  std::ostream& out_;
  const ReportLayout& layout_;
  Language language_;
  std::unique_ptr<TraceReportBuilder> builder_;
};

}  // namespace

std::string render_markdown(const TraceReport& report) { return render(report, kMarkdownLayout); }

std::string render_terminal(const TraceReport& report) { return render(report, kTerminalLayout); }

std::unique_ptr<TraceListener> make_trace_writer(std::ostream& out, TraceFormat format, Language language,
                                                 ChromeTraceOptions chrome) {
  switch (format) {
    case TraceFormat::table: return std::make_unique<ReportTraceWriter>(out, kTerminalLayout, language);
    case TraceFormat::markdown: return std::make_unique<ReportTraceWriter>(out, kMarkdownLayout, language);
    case TraceFormat::json: return std::make_unique<JsonTraceWriter>(out);
    case TraceFormat::chrome: return std::make_unique<ChromeTraceWriter>(out, std::move(chrome));
  }
  return std::make_unique<JsonTraceWriter>(out);
}

void write_trace(std::ostream& out, const Trace& trace, TraceFormat format, Language language) {
  replay_trace(trace, *make_trace_writer(out, format, language));
}

}  // namespace ringviz
