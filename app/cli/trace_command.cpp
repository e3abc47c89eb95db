// `ringviz trace`: run one collective to the end and print every round.
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/backend/backend_select.h"
#include "app/cli/command.h"
#include "app/options/config_flags.h"
#include "core/input/integer_overflow.h"
#include "core/engine/provenance.h"
#include "core/engine/session.h"
#include "core/algorithms/registry.h"
#include "core/model/text.h"
#include "core/trace/trace.h"
#include "core/trace/trace_format.h"
#include "core/trace/trace_json.h"

namespace ringviz::cli {

namespace {

struct TraceFlags {
  ConfigFlags config;
  std::string format = "table";
};

// Copies of the rank buffers a streamed trace holds at its peak, beyond the backend's own:
// the inputs, the session's snapshot of round 0 and its fetch buffer, the trace's inputs and
// the round being written, and one for the worker threads' stacks and malloc arenas (measured
// under ulimit -v). JSON turns one rank's row at a time into document nodes of about 16 bytes
// an element, which stays below one more copy.
std::uint64_t trace_buffer_copies(TraceFormat format) {
  const bool json = format == TraceFormat::json || format == TraceFormat::chrome;
  return json ? 7 : 6;
}

// JSON prints every element of every rank after every round, and every round each GPU's
// contributor set of every slot: N^3 numbers and more for a ring (a 256-GPU AllReduce of one
// element is some 4 billion). Past 2^31 numbers (some 10 GB of text) the output is no longer
// something to read or parse, although memory would hold it, since it is streamed.
constexpr double kMaxJsonTraceNumbers = 2147483648.0;

void check_json_trace_size(const Config& config, TraceFormat format) {
  if (format != TraceFormat::json) return;
  const JsonTraceVolume volume = json_trace_volume(config, kMaxJsonTraceNumbers);
  if (volume.numbers() <= kMaxJsonTraceNumbers) return;
  const auto shown = [](double numbers) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", numbers);
    return std::string(text);
  };
  // Name the flag that drives the size: GPUs for the contributor lists, the count for values.
  const std::string flag = volume.contributors > volume.values ? "--gpus" : "--count";
  throw InputError(flag + ": a JSON trace of " + std::to_string(config.count) +
                   (config.count == 1 ? " element on " : " elements on ") +
                   std::to_string(config.ranks) + " GPUs would print more than 2^31 numbers, the most it may hold (" +
                   shown(volume.values) + " buffer values" +
                   (volume.contributors > 0 ? " and at least " + shown(volume.contributors) +
                                                  " ranks in its contributor lists, which grow as GPUs^3"
                                            : std::string()) +
                   "); choose fewer --gpus or a smaller "
                   "--count, or --format table or chrome, which print no contributor lists");
}

int run_trace(const TraceFlags& flags) {
  const Config config = config_from_flags(flags.config);
  const TraceFormat format = parse_trace_format(flags.format, "--format");
  const Language language = parse_language(flags.config.lang, "--lang");
  const BackendChoice choice = backend_from_flags(flags.config);
  // Refuse a size that cannot fit before a single buffer is allocated.
  try {
    check_fits_in_memory(config, trace_buffer_copies(format));
  } catch (const InputError& error) {
    // The core names its field "count"; here the user typed --count.
    const std::string message = error.what();
    if (message.rfind("count:", 0) == 0) throw InputError("--" + message);
    throw;
  }
  check_json_trace_size(config, format);
  // The machine `--topology` names times the Chrome trace as `compare` times it there.
  ChromeTraceOptions chrome = format == TraceFormat::chrome
                                  ? chrome_options_on(config, topology_from_flags(flags.config, config.ranks))
                                  : ChromeTraceOptions{};

  BackendSelection selection = select_backend(choice);
  // The trace only steps forward: snapshots for stepping back would be memory spent for nothing.
  Session session(config, std::move(selection.backend), SessionOptions{0});
  // Printed only once the inputs were accepted, so that a bad-input error stays one line.
  say_backend_notice(selection.notice, flags.config.verbose);
  // Wrapping is the rule (docs/architecture.md, "Collective semantics"), but rarely meant.
  if (const auto overflow = first_integer_overflow(config, session.buffers()))
    std::cerr << "ringviz: note: " << integer_overflow_message(config, *overflow) << "\n";
  stream_trace(session, *make_trace_writer(std::cout, format, language, std::move(chrome)));
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
