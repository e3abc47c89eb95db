// ringviz-capture: `ringviz capture` after execv, one process per MPI rank (docs/architecture.md,
// "Capture"). Built only where MPI was found; the GUI binary never links MPI.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <mpi.h>

#include <CLI/CLI.hpp>

#include "app/capture/capture_options.h"
#include "app/capture/mpi/clock_alignment.h"
#include "app/capture/document_sink.h"
#include "app/capture/iteration_table.h"
#include "app/capture/launcher.h"
#include "app/capture/mpi/library_collectives.h"
#include "app/capture/mpi/mpi_world.h"
#include "app/capture/round_capture.h"
#include "app/capture/trace_writers.h"
#include "app/capture/transport_factory.h"
#include "app/options/config_flags.h"
#include "core/input/initial_values.h"
#include "core/model/input_error.h"
#include "core/model/text.h"
#include "core/output/output_file.h"
#include "core/output/output_path.h"

namespace ringviz::capture {

namespace {

constexpr const char* kDescription =
    "ringviz capture: the collective executed across the processes of an MPI job, one rank each, "
    "measured round by round. Start it with mpirun -np N ringviz capture ...";

// The buffers a rank holds at once: its working buffer, the staging of one round and the copy
// it fetches for a snapshot. Rank 0 also keeps every rank's inputs, the round it gathers, the
// final state and, with --iters or --check-engine, the in-process engine's run (three copies).
std::optional<std::string> memory_refusal(const CaptureOptions& options, int rank) {
  const Config& config = options.config;
  const double buffer = static_cast<double>(buffer_elements(config)) * static_cast<double>(dtype_size(config.dtype));
  double copies = 3;
  if (rank == 0) copies += 3.0 * config.ranks + (options.iterations > 0 || options.check_engine ? 3.0 * config.ranks : 0);
  const double needed = buffer * copies;
  const MemoryHeadroom headroom = memory_headroom();
  if (needed <= static_cast<double>(headroom.bytes)) return std::nullopt;
  return "--count: " + std::to_string(config.count) + " elements of " + std::string(dtype_name(config.dtype)) +
         " need " + format_size_for_message(needed) + " of buffers on rank " + std::to_string(rank) + " but only " +
         format_size_for_message(static_cast<double>(headroom.bytes)) + " " + headroom.source +
         "; choose a smaller --count or spread the ranks over more nodes";
}

std::string quoted_for_shell(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=:,./+@%") ==
                           std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string command_text(int argc, char** argv) {
  std::string text = "ringviz capture";
  for (int i = 1; i < argc; ++i) text += " " + quoted_for_shell(argv[i]);
  return text;
}

// The fault test kills a rank in the middle of a capture: the last rank writes its pid to the
// file RINGVIZ_CAPTURE_TEST_PIDFILE names once the document is open and the rounds are about
// to start (the last, so that rank 0, which holds the document, sees the job torn down).
void announce_started_for_tests() {
  const char* path = std::getenv("RINGVIZ_CAPTURE_TEST_PIDFILE");
  if (path == nullptr || world_rank() != world_size() - 1) return;
  const std::string temporary = std::string(path) + ".partial";
  if (FILE* file = std::fopen(temporary.c_str(), "w")) {
    std::fprintf(file, "%d\n", static_cast<int>(::getpid()));
    std::fclose(file);
    std::rename(temporary.c_str(), path);
  }
}

// One option set as the ranks agree on it, or the refusal every rank exits 2 with.
struct Agreed {
  std::optional<CaptureOptions> options;
  std::string refusal;
};

// The output path is checked here, on rank 0, before the first message of the run.
Agreed agree_on_options(const std::function<CaptureOptions()>& parse) {
  Agreed agreed;
  std::optional<std::string> mine;
  try {
    agreed.options = parse();
    if (world_rank() == 0 && !agreed.options->out.empty()) check_output_file(agreed.options->out, "--out");
  } catch (const InputError& error) {
    mine = error.what();
  }
  if (auto refusal = first_refusal(mine)) return {std::nullopt, *refusal};
  if (auto disagreement = options_disagreement(canonical_options(*agreed.options))) return {std::nullopt, *disagreement};
  return agreed;
}

// Checks that need no communication, then one agreement: every rank refuses together.
std::optional<std::string> preflight(const CaptureOptions& options, DocumentSink* sink) {
  const int rank = world_rank();
  std::optional<std::string> mine;
  try {
    if (rank == 0) check_initial_values(options.config);
    mine = memory_refusal(options, rank);
    if (!mine && rank == 0 && sink) {
      std::string error;
      if (!sink->open(error)) mine = error;
    }
  } catch (const InputError& error) {
    mine = error.what();
  }
  return first_refusal(mine);
}

int capture_one(const CaptureOptions& requested, const std::string& command, bool quiet_document) {
  const int rank = world_rank();
  CaptureOptions options = requested;
  std::string unavailable;
  std::unique_ptr<RankTransport> transport = make_rank_transport(options.transport, unavailable);
  if (auto refusal = first_refusal(transport ? std::nullopt : std::optional<std::string>(unavailable))) {
    if (rank == 0) std::cerr << "ringviz: " << escape_for_message(*refusal) << "\n";
    return 2;
  }
  if (options.iterations > 0) {
    if (auto refusal = preflight(options, nullptr)) {
      if (rank == 0) std::cerr << "ringviz: " << escape_for_message(*refusal) << "\n";
      return 2;
    }
    return print_iteration_table(options, *transport);
  }
  const bool writes_document = !(quiet_document && options.out.empty());
  DocumentSink sink(options.out);
  if (auto refusal = preflight(options, writes_document ? &sink : nullptr)) {
    if (rank == 0) std::cerr << "ringviz: " << escape_for_message(*refusal) << "\n";
    return 2;
  }
  CaptureContext context;
  context.command = command;
  context.snapshot = options.check_engine ? SnapshotMode::rounds
                                          : options.snapshot.value_or(choose_snapshot_mode(options));
  if (rank == 0 && !options.snapshot && context.snapshot != SnapshotMode::rounds && !options.check_engine)
    std::cerr << "ringviz: keeping " << (context.snapshot == SnapshotMode::ends ? "the first and last buffers" : "no buffers")
              << " (as --snapshot " << snapshot_mode_name(context.snapshot) << "): every round's buffers would be "
              << value_count_text(snapshot_values(options, SnapshotMode::rounds)) << " values, over the "
              << value_count_text(kAutoSnapshotValues) << " a capture keeps by default; give --snapshot rounds or ends to keep more\n";
  context.hosts = gather_host_names();
  context.clocks = measure_clock_offsets();
  announce_started_for_tests();
  std::unique_ptr<TraceListener> writer;
  if (rank == 0) writer = make_capture_writer(sink.stream(), options.format, writes_document);
  const std::string mismatch = capture_collective(options, context, *transport, writer.get());
  int code = 0;
  if (rank == 0) {
    std::string error;
    if (!mismatch.empty()) {
      std::cerr << "ringviz: capture differs from the in-process engine (" << command << "): " << mismatch << "\n";
      code = 1;
    } else if (writes_document && !sink.commit(error)) {
      std::cerr << "ringviz: " << escape_for_message(error) << "\n";
      code = 1;
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return code;
}

// Options of one --batch entry, parsed as the command line is.
CaptureOptions parse_batch_entry(const std::string& entry) {
  CLI::App parser{"", "ringviz capture --batch"};
  CaptureFlags flags;
  add_capture_flags(parser, flags);
  cli::refuse_empty_values(parser, "ringviz capture --help");
  try {
    parser.parse(entry);
  } catch (const CLI::ParseError& error) {
    throw InputError("--batch: '" + entry + "': " + cli::parse_error_message(error, parser, "ringviz capture --help"));
  }
  return parse_capture_flags(flags, parser.count("--gpus") > 0, world_size());
}

int run_launched(CLI::App& parser, const CaptureFlags& flags, const std::string& command) {
  const Agreed agreed =
      agree_on_options([&] { return parse_capture_flags(flags, parser.count("--gpus") > 0, world_size()); });
  if (!agreed.options) {
    if (world_rank() == 0) std::cerr << "ringviz: " << escape_for_message(agreed.refusal) << "\n";
    return 2;
  }
  int code = capture_one(*agreed.options, command, false);
  for (const std::string& entry : flags.batch) {
    if (code != 0) break;
    const Agreed batch = agree_on_options([&] { return parse_batch_entry(entry); });
    if (!batch.options) {
      if (world_rank() == 0) std::cerr << "ringviz: " << escape_for_message(batch.refusal) << "\n";
      return 2;
    }
    code = capture_one(*batch.options, "ringviz capture " + entry, true);
    if (code == 0 && world_rank() == 0 && batch.options->check_engine)
      std::cout << "ringviz: capture matches the in-process engine: " << entry << "\n";
  }
  return code;
}

}  // namespace

}  // namespace ringviz::capture

int main(int argc, char** argv) {
  using namespace ringviz;
  using namespace ringviz::capture;
  std::signal(SIGXFSZ, SIG_IGN);
  CLI::App parser{kDescription, "ringviz capture"};
  CaptureFlags flags;
  add_capture_flags(parser, flags);
  cli::refuse_empty_values(parser, "ringviz capture --help");
  try {
    parser.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return parser.exit(help);
  } catch (const CLI::ParseError& error) {
    std::cerr << "ringviz: " << escape_for_message(cli::parse_error_message(error, parser, "ringviz capture --help"))
              << "\n";
    return 2;
  } catch (const InputError& error) {
    std::cerr << "ringviz: " << escape_for_message(error.what()) << "\n";
    return 2;
  }
  if (!started_by_mpi_launcher()) {
    std::cerr << "ringviz: " << launch_hint() << "\n";
    return 2;
  }
  if (flags.iterations != "0") allow_forced_library_algorithms();
  MPI_Init(&argc, &argv);
  // Every exit code below was agreed by all ranks; an exception is one rank failing alone, which
  // the others would wait for forever: it ends the whole job.
  int code = 1;
  try {
    code = run_launched(parser, flags, command_text(argc, argv));
  } catch (const InputError& error) {
    std::cerr << "ringviz: " << escape_for_message(error.what()) << "\n";
    MPI_Abort(MPI_COMM_WORLD, 2);
  } catch (const std::bad_alloc&) {
    std::cerr << "ringviz: out of memory on rank " << world_rank()
              << " although the size check passed; choose a smaller --count\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  } catch (const std::exception& error) {
    std::cerr << "ringviz: error on rank " << world_rank() << ": " << escape_for_message(error.what()) << "\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return check_stdout_at_exit(code);
}
