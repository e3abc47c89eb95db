// `ringviz trace`: run one collective to the end and print every round.
#include <iostream>
#include <memory>

#include "app/backend_select.h"
#include "app/cli/command.h"
#include "app/cli/config_flags.h"
#include "core/engine/provenance.h"
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

// Copies of the rank buffers a streamed trace holds at its peak, beyond the backend's own:
// the inputs, the session's snapshot of round 0 and its fetch buffer, and the round being
// written. JSON turns one rank's row at a time into document nodes of about 16 bytes an
// element, which stays below one more copy.
std::uint64_t trace_buffer_copies(TraceFormat format) {
  const bool json = format == TraceFormat::json || format == TraceFormat::chrome;
  return json ? 5 : 4;
}

int run_trace(const TraceFlags& flags) {
  const Config config = config_from_flags(flags.config);
  const TraceFormat format = parse_trace_format(flags.format, "--format");
  const Language language = parse_language(flags.config.lang, "--lang");
  const BackendChoice choice = backend_from_flags(flags.config);
  // Refuse a size that cannot fit before a single buffer is allocated.
  check_fits_in_memory(config, trace_buffer_copies(format));

  BackendSelection selection = select_backend(choice);
  // The trace only steps forward: snapshots for stepping back would be memory spent for nothing.
  Session session(config, std::move(selection.backend), SessionOptions{0});
  // Printed only once the inputs were accepted, so that a bad-input error stays one line.
  if (!selection.notice.empty()) std::cerr << "ringviz: " << selection.notice << "\n";
  stream_trace(session, *make_trace_writer(std::cout, format, language));
  std::cout.flush();
  return std::cout ? 0 : 1;
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
