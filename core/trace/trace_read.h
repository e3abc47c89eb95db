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
#include "core/trace/capture_record.h"

// Reading a `ringviz.trace/1` document back: `trace --format json` output or a `ringviz
// capture` (docs/architecture.md, "Replaying a recorded run"). Every problem is one InputError
// line "<file>:<line>:<column>: <where>: <problem>".

namespace ringviz {

// A trace can be far larger than a lesson; the bound keeps the parsed document within reach
// of a desktop's memory.
inline constexpr std::uintmax_t kMaxTraceFileBytes = std::uintmax_t{256} << 20;

// Distinct hosts among a capture's ranks.
int host_count(const CaptureRecord& capture);

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
