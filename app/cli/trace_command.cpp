// `ringviz trace`: run one collective to the end and print every round.
#include <algorithm>
#include <iostream>
#include <memory>

#include "app/backend_select.h"
#include "app/cli/command.h"
#include "app/cli/config_flags.h"
#include "core/engine/provenance.h"
#include "core/schedule/schedule.h"
#include "core/engine/session.h"
#include "core/model/text.h"
#include "core/trace/trace.h"
#include "core/trace/trace_format.h"

namespace ringviz::cli {

namespace {

struct TraceFlags {
  ConfigFlags config;
  std::string format = "table";
};

// Copies of the rank buffers a trace holds at its peak, beyond the backend's own: one per
// recorded round plus the inputs, the session's snapshot and its fetch buffer. JSON then
// turns every element into a document node of about 16 bytes. Every recorded round also
// keeps an N x N table of contributor sets, which outweighs the buffers when count is small
// and N large; it is counted here in buffer-sized units.
std::uint64_t trace_buffer_copies(const Config& config, TraceFormat format) {
  const auto recorded = static_cast<std::uint64_t>(make_schedule(config).round_count()) + 1;
  const bool json = format == TraceFormat::json || format == TraceFormat::chrome;
  const std::uint64_t per_copy = json ? 1 + 16 / dtype_size(config.dtype) : 1;
  const auto ranks = static_cast<std::uint64_t>(config.ranks);
  const std::uint64_t provenance_bytes = recorded * ranks * ranks * sizeof(RankSet);
  const std::uint64_t buffer_bytes = std::max<std::uint64_t>(working_set_bytes(config), 1);
  return recorded * per_copy + 2 + (provenance_bytes + buffer_bytes - 1) / buffer_bytes;
}

int run_trace(const TraceFlags& flags) {
  const Config config = config_from_flags(flags.config);
  const TraceFormat format = parse_trace_format(flags.format, "--format");
  const Language language = parse_language(flags.config.lang, "--lang");
  const BackendChoice choice = backend_from_flags(flags.config);
  // Refuse a size that cannot fit before a single buffer is allocated.
  check_fits_in_memory(config, trace_buffer_copies(config, format));

  BackendSelection selection = select_backend(choice);
  Session session(config, std::move(selection.backend));
  const Trace trace = record_trace(session);
  // Printed only once the inputs were accepted, so that a bad-input error stays one line.
  if (!selection.notice.empty()) std::cerr << "ringviz: " << selection.notice << "\n";
  write_trace(std::cout, trace, format, language);
  return 0;  // main() checks that stdout took it all
}

}  // namespace

Command add_trace_command(CLI::App& app) {
  auto* parser = app.add_subcommand(
      "trace", "print every round of a collective: what each GPU sends, receives and holds");
  auto flags = std::make_shared<TraceFlags>();
  add_config_flags(*parser, flags->config);
  add_choice_option(*parser, "--format,-f", flags->format, kTraceFormatNames);
  return {parser, [flags] { return run_trace(*flags); }};
}

}  // namespace ringviz::cli
