#include "app/capture/capture_options.h"

#include <cstdio>

#include "app/options/number_flags.h"
#include "core/engine/benchmark.h"
#include "core/model/input_error.h"
#include "core/algorithms/registry.h"

namespace ringviz::capture {

namespace {

constexpr int kMaxIterations = 10000;
// A straggler of a minute per send is already a stuck job.
constexpr std::int64_t kMaxDelayMicroseconds = 60'000'000;
// As `ringviz trace`: past 2^31 values a JSON document is no longer something to read.
constexpr double kMaxDocumentValues = 2147483648.0;

std::optional<CaptureDelay> parse_delay(const std::string& text, int world_size) {
  if (text.empty()) return std::nullopt;
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw InputError("--delay: '" + text + "' is not RANK:MICROSECONDS; write e.g. --delay 2:2000");
  CaptureDelay delay;
  delay.rank = static_cast<int>(
      cli::parse_number_in_range(text.substr(0, colon), "--delay (rank)", 0, world_size - 1));
  delay.us = cli::parse_number_in_range(text.substr(colon + 1), "--delay (microseconds)", 0,
                                        kMaxDelayMicroseconds);
  return delay;
}

std::vector<std::int64_t> parse_sizes(const CaptureFlags& flags, const Config& config) {
  if (flags.min_bytes.empty() && flags.max_bytes.empty()) return {};
  const auto bytes = [](const std::string& text, const char* flag) {
    return cli::parse_number_in_range(text, flag, 1, kMaxCount);
  };
  const auto whole = [&bytes](const std::string& text, const char* flag) {
    return bytes(std::to_string(cli::parse_whole_number(text, flag, true)), flag);
  };
  const std::int64_t low = whole(flags.min_bytes.empty() ? flags.max_bytes : flags.min_bytes, "--minbytes");
  const std::int64_t high = whole(flags.max_bytes.empty() ? flags.min_bytes : flags.max_bytes, "--maxbytes");
  const std::int64_t factor = cli::parse_whole_number(flags.step_factor, "--stepfactor");
  std::vector<std::int64_t> sizes = bench_sizes(low, high, factor);
  if (count_for_bytes(config.op, config.ranks, config.dtype, sizes.front()) == 0)
    throw InputError("--minbytes: " + std::to_string(sizes.front()) + " bytes is smaller than one " +
                     std::string(dtype_name(config.dtype)) + " element per rank; give a larger -b");
  return sizes;
}

}  // namespace

std::string value_count_text(double values) {
  char text[48];
  std::snprintf(text, sizeof text, "%.0f", values);
  return text;
}

void add_capture_flags(CLI::App& parser, CaptureFlags& flags) {
  cli::add_config_flags(parser, flags.config);
  // Where the buffers live is --transport's choice. Messages are English on every rank; --lang
  // words only the --iters table.
  parser.remove_option(parser.get_option("--backend"));
  parser.get_option("--lang")->description("language of the --iters table: en | zh");
  parser.remove_option(parser.get_option("--verbose"));  // no backend to choose, so nothing to say
  parser.get_option("--gpus")
      ->description("the ring size: the MPI world size; if given, it must equal that")
      ->default_str("");
  parser.add_option("--transport", flags.transport, "mpi (host buffers, MPI messages) | nccl (GPU buffers, NCCL)")
      ->capture_default_str();
  parser.add_option("--out", flags.out, "the document, written by rank 0 (default: rank 0's stdout)");
  // -f is the size factor here, as in `ringviz bench` and nccl-tests; the format has its long name only.
  cli::add_choice_option(parser, "--format", flags.format, kCaptureFormatNames);
  parser.add_option("--snapshot", flags.snapshot,
                    "rounds | ends | none: which buffers are gathered to rank 0 (default: rounds when the "
                    "document stays under 1048576 values, else ends, else none)")
      ->capture_default_str();
  parser.add_option("--iters,-i", flags.iterations,
                    "time this many repetitions per size without snapshots and print an nccl-tests table "
                    "beside the MPI library's own collective, 0-" + std::to_string(kMaxIterations))
      ->capture_default_str();
  parser.add_option("--delay", flags.delay, "RANK:MICROSECONDS: that rank sleeps before each of its sends");
  parser.add_option("-b,--minbytes", flags.min_bytes,
                    "--iters: smallest size, each rank's whole buffer as nccl-tests count it (AllGather: "
                    "the gathered result; K, M, G suffixes)");
  parser.add_option("-e,--maxbytes", flags.max_bytes, "--iters: largest size, counted as -b is (K, M, G suffixes)");
  parser.add_option("-f,--stepfactor", flags.step_factor, "--iters: multiply the size by this between rows")
      ->capture_default_str();
  parser.add_flag("--check-engine", flags.check_engine,
                  "compare every round with the in-process engine (tests)")
      ->group("");
  parser.add_option("--batch", flags.batch, "more option sets to capture in the same launch (tests)")->group("");
}

CaptureOptions parse_capture_flags(const CaptureFlags& flags, bool gpus_given, int world_size) {
  CaptureOptions options;
  cli::ConfigFlags config_flags = flags.config;
  if (gpus_given) {
    const int gpus = cli::parse_gpu_count(config_flags.gpus, "--gpus");
    if (gpus != world_size)
      throw InputError("--gpus: " + config_flags.gpus + " but MPI started " + std::to_string(world_size) +
                       " ranks; the ring is the MPI world: drop --gpus or start mpirun -np " +
                       std::to_string(gpus));
  }
  config_flags.gpus = std::to_string(world_size);
  options.config = cli::config_from_flags(config_flags);
  options.assumed = cli::prediction_topology(config_flags, world_size);
  options.language = parse_language(flags.config.lang, "--lang");
  if (flags.transport != "mpi" && flags.transport != "nccl")
    throw InputError("--transport: '" + flags.transport + "' is not a transport; choose mpi or nccl");
  options.transport = flags.transport;
  options.out = flags.out;
  options.format = parse_capture_format(flags.format, "--format");
  if (flags.snapshot != "auto") options.snapshot = parse_snapshot_mode(flags.snapshot, "--snapshot");
  options.iterations = static_cast<int>(cli::parse_number_in_range(flags.iterations, "--iters", 0, kMaxIterations));
  options.delay = parse_delay(flags.delay, world_size);
  options.check_engine = flags.check_engine;
  if (options.iterations > 0) {
    if (!options.out.empty())
      throw InputError("--out: --iters prints a table on stdout and writes no document; drop --out or --iters");
    if (options.delay)
      throw InputError("--delay: --iters times the ring beside the MPI library's own collective, which "
                       "cannot be delayed alike; drop --delay, or --iters to capture the delayed rounds");
    if (uneven_all_to_all(options.config))
      throw InputError("--splits: --iters sweeps the sizes, and the splits fix every block's size; drop --iters to "
                       "capture the uneven exchange, or --splits to time even ones");
    options.sizes = parse_sizes(flags, options.config);
  } else if (!flags.min_bytes.empty() || !flags.max_bytes.empty()) {
    throw InputError("--minbytes: sizes belong to --iters; give --iters K, or --count for one capture");
  }
  if (options.snapshot && options.iterations == 0) {
    const double values = snapshot_values(options, *options.snapshot);
    if (values > kMaxDocumentValues)
      throw InputError("--snapshot: " + std::string(snapshot_mode_name(*options.snapshot)) + " would print " +
                       value_count_text(values) +
                       " values (at most 2^31); choose --snapshot ends or none, or a smaller --count");
  }
  return options;
}

std::vector<std::pair<std::string, std::string>> canonical_options(const CaptureOptions& options) {
  const Config& config = options.config;
  std::string sizes;
  for (std::int64_t size : options.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(size);
  return {{"--op", std::string(op_name(config.op))},
          {"--algo", std::string(algorithm_name(config.algorithm))},
          {"--order", std::string(order_name(config.order))},
          {"--count", std::to_string(config.count)},
          {"--dtype", std::string(dtype_name(config.dtype))},
          {"--reduce", std::string(reduce_op_name(config.reduce))},
          {"--root", std::to_string(config.root)},
          {"--init", config.init.spec()},
          {"--transport", options.transport},
          {"--out", options.out},
          {"--format", options.format == CaptureFormat::json ? "json" : "chrome"},
          {"--snapshot", options.snapshot ? std::string(snapshot_mode_name(*options.snapshot)) : "auto"},
          {"--iters", std::to_string(options.iterations)},
          {"--delay", options.delay ? std::to_string(options.delay->rank) + ":" + std::to_string(options.delay->us) : ""},
          {"-b/-e/--stepfactor", sizes},
          {"--check-engine", options.check_engine ? "on" : "off"},
          {"--topology", options.assumed.key}};
}

double snapshot_values(const CaptureOptions& options, SnapshotMode mode) {
  const double per_state = static_cast<double>(buffer_elements(options.config)) * options.config.ranks;
  switch (mode) {
    case SnapshotMode::rounds: return per_state * (make_schedule(options.config).round_count() + 2);
    case SnapshotMode::ends: return per_state * 3;
    case SnapshotMode::none: return 0;
  }
  return 0;
}

SnapshotMode choose_snapshot_mode(const CaptureOptions& options) {
  if (snapshot_values(options, SnapshotMode::rounds) <= kAutoSnapshotValues) return SnapshotMode::rounds;
  if (snapshot_values(options, SnapshotMode::ends) <= kAutoSnapshotValues) return SnapshotMode::ends;
  return SnapshotMode::none;
}

}  // namespace ringviz::capture
