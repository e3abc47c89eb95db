#pragma once
#include "core/model/text.h"
// The options of `ringviz capture` (docs/architecture.md, "Capture"): every collective option of
// `trace`, plus where and how the measured run goes.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/options/config_flags.h"
#include "core/model/config.h"
#include "core/trace/capture_record.h"

namespace ringviz::capture {

enum class CaptureFormat { json, chrome };
inline constexpr EnumName<CaptureFormat> kCaptureFormatNames[] = {
    {CaptureFormat::json, "json", "", "schema ringviz.trace/1 with a capture block"},
    {CaptureFormat::chrome, "chrome", "perfetto", "Chrome trace events: one track per rank"}};
inline constexpr EnumParser parse_capture_format{kCaptureFormatNames, "format"};

// As typed; parse_capture_flags() reads them.
struct CaptureFlags {
  cli::ConfigFlags config;
  std::string transport = "mpi";
  std::string out;
  std::string format = "json";
  std::string snapshot = "auto";
  std::string iterations = "0";
  std::string delay;
  std::string min_bytes;
  std::string max_bytes;
  std::string step_factor = "2";
  bool check_engine = false;        // hidden: compare every round with the in-process engine
  std::vector<std::string> batch;   // hidden: more configs run in the same launch (tests)
};

struct CaptureOptions {
  Config config;
  std::string transport = "mpi";
  std::string out;  // empty: rank 0 writes to stdout
  CaptureFormat format = CaptureFormat::json;
  std::optional<SnapshotMode> snapshot;  // empty: chosen by size (choose_snapshot_mode)
  int iterations = 0;                    // > 0: time repetitions and print a table instead
  std::optional<CaptureDelay> delay;
  std::vector<std::int64_t> sizes;       // --iters: bytes per rank; empty: --count alone
  bool check_engine = false;
  Language language = Language::en;  // --lang: the words of the --iters table
  // The machine the NCCL model's predictions beside the measured times assume: --topology, or
  // nvswitch:N without it.
  Topology assumed;
};

// Registers the options on `parser`. `parser` keeps references into `flags`.
void add_capture_flags(CLI::App& parser, CaptureFlags& flags);

// Throws InputError naming the flag. `world_size` is the ring size; a --gpus given must equal it.
CaptureOptions parse_capture_flags(const CaptureFlags& flags, bool gpus_given, int world_size);

// Every option as (flag, canonical value), so that ranks started with different options can
// be told which option differs (the values as parsed: 16M and 16777216 agree).
std::vector<std::pair<std::string, std::string>> canonical_options(const CaptureOptions& options);

// The JSON values a document of `options` would print with `mode`, to pick the default mode.
double snapshot_values(const CaptureOptions& options, SnapshotMode mode);
// Without --snapshot: rounds when the whole document stays under kAutoSnapshotValues values,
// else ends when that fits, else none.
inline constexpr double kAutoSnapshotValues = 1 << 20;  // a document of about 10 MB
SnapshotMode choose_snapshot_mode(const CaptureOptions& options);
// A count of JSON values in a message, as a whole number.
std::string value_count_text(double values);

}  // namespace ringviz::capture
