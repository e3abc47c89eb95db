#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/buffers.h"
#include "core/model/config.h"
#include "core/model/layout.h"
#include "core/schedule/rounds.h"

// Reading a `ringviz.trace/1` document back: `trace --format json` output or a `ringviz
// capture` (docs/architecture.md, "Replaying a recorded run"). Every problem is one InputError
// line "<file>:<line>:<column>: <where>: <problem>".

namespace ringviz {

// A trace can be far larger than a lesson; the bound keeps the parsed document within reach
// of a desktop's memory.
inline constexpr std::uintmax_t kMaxTraceFileBytes = std::uintmax_t{256} << 20;

// One rank in one round of a capture, in microseconds on rank 0's clock from the start of
// round 1 (the capture contract in docs/architecture.md).
struct RankSpans {
  double start_us = 0;
  double posted_us = 0;   // every send and receive posted, after any --delay sleep
  double arrived_us = 0;  // every receive complete
  double end_us = 0;      // reductions done
  double delay_us = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t bytes_received = 0;
};

struct CapturedRank {
  std::string host;
  std::optional<int> device;  // the CUDA device of an nccl rank
  double clock_offset_us = 0;
  double clock_error_us = 0;
};

struct CaptureDelay {
  int rank = 0;
  double us = 0;
};

// The `capture` block: how the run was measured.
struct CaptureRecord {
  std::string transport;  // "mpi", "nccl"
  std::string command;
  std::string snapshot;   // "rounds", "ends", "none"
  std::string clock;
  std::optional<CaptureDelay> delay;
  std::vector<CapturedRank> ranks;
  std::vector<std::vector<RankSpans>> rounds;  // [round - 1][rank]

  int host_count() const;
};

struct RecordedRound {
  Phase phase = Phase::reduce_scatter;
  std::optional<double> time_us;
  std::optional<BufferState> buffers;  // after the round, where the document has them
};

struct RecordedRun {
  // A Session re-executes `config`: an init file or table is replaced by the recorded inputs.
  Config config;
  std::string init_spec;  // config.init as the document wrote it ("file:in.json")
  std::string backend;  // config.backend: "cpu", "cuda", "mpi", "nccl"
  SlotLayout layout;
  std::optional<BufferState> initial;
  std::vector<RecordedRound> rounds;
  std::optional<std::vector<ByteBuffer>> outputs;
  std::optional<CaptureRecord> capture;

  bool every_round_timed() const;
};

// `source` starts every message (the file name as the user gave it).
RecordedRun parse_recorded_run(std::string_view text, std::string_view source);
// Reads and parses the file at `path` (size, folder and type checks as every input file).
RecordedRun read_recorded_run(const std::string& path);

}  // namespace ringviz
