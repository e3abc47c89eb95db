#pragma once
// What `ringviz capture` measured beside the trace: the `capture` block of a ringviz.trace/1
// document (docs/architecture.md, "Capture"). Times are microseconds on rank 0's clock,
// relative to the start of round 1 on rank 0.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/enum_table.h"

namespace ringviz {

// Which buffers the capture gathered: after every round, the initial and final ones, or none.
enum class SnapshotMode { rounds, ends, none };
inline constexpr EnumName<SnapshotMode> kSnapshotModeNames[] = {
    {SnapshotMode::rounds, "rounds", "", "every round's buffers"},
    {SnapshotMode::ends, "ends", "", "the initial and final buffers"},
    {SnapshotMode::none, "none", "", "no buffers"}};
inline constexpr EnumNamer snapshot_mode_name{kSnapshotModeNames};
inline constexpr EnumParser parse_snapshot_mode{kSnapshotModeNames, "snapshot"};

struct CaptureRank {
  int rank = 0;
  std::string host;
  int device = -1;  // CUDA device index; -1 (null) for host memory
  double clock_offset_us = 0;
  double clock_error_us = 0;
};

// One rank's part of one round.
struct CaptureSpan {
  double start_us = 0;
  double posted_us = 0;
  double arrived_us = 0;
  double end_us = 0;
  double delay_us = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t bytes_received = 0;
};

struct CaptureDelay {
  int rank = 0;
  std::int64_t us = 0;  // --delay RANK:MICROSECONDS
};

// What NCCL would do for the captured collective (docs/nccl-model.md), beside the measured time:
// NCCL's pick and its predicted time on the machine the capture names (--topology, or
// nvswitch:N without it).
struct CapturePrediction {
  std::string topology;  // "nvswitch:4"
  std::string machine;   // "4 GPUs on one NVSwitch (NVLink 4)"
  std::string algorithm;  // "RING"
  std::string protocol;   // "LL"
  int channels = 1;
  double us = 0;
  double busbw_gbps = 0;
};

struct CaptureRecord {
  std::string transport;
  std::string command;
  SnapshotMode snapshot = SnapshotMode::rounds;
  std::string clock;
  std::optional<CaptureDelay> delay;
  std::vector<CaptureRank> ranks;
  std::vector<std::vector<CaptureSpan>> rounds;  // [round - 1][rank]
  std::optional<CapturePrediction> prediction;   // empty: an op NCCL's model does not cover
};

// The measured collective: from the first start of round 1 to the last end of the last round,
// on rank 0's clock; 0 without rounds.
double captured_microseconds(const CaptureRecord& record);

}  // namespace ringviz
