#include "app/capture/round_capture.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include <mpi.h>

#include "app/capture/capture_prediction.h"
#include "app/capture/mpi/mpi_world.h"
#include "core/engine/backend.h"
#include "core/engine/session.h"
#include "core/engine/traffic.h"
#include "core/input/initial_values.h"
#include "core/schedule/pipeline.h"
#include "core/schedule/round_plan.h"
#include "core/algorithms/registry.h"

namespace ringviz::capture {

namespace {

// A rank's spans as they travel to rank 0: byte counts are exact in a double below 2^53.
using SpanWire = std::array<double, 7>;

SpanWire to_wire(const RoundSpans& spans) {
  return {spans.start, spans.posted, spans.arrived, spans.end, spans.delay,
          static_cast<double>(spans.bytes_sent), static_cast<double>(spans.bytes_received)};
}

// Rank 0's view of one rank's spans: shifted onto rank 0's clock, relative to `origin`.
CaptureSpan aligned_span(const SpanWire& wire, const ClockOffset& clock, double origin) {
  // Nanoseconds are below what the clocks can be aligned to: no more digits are written.
  const auto us = [&](double seconds) { return std::round((seconds - clock.offset_seconds - origin) * 1e9) / 1e3; };
  CaptureSpan span;
  span.start_us = us(wire[0]);
  span.posted_us = us(wire[1]);
  span.arrived_us = us(wire[2]);
  span.end_us = us(wire[3]);
  span.delay_us = std::round(wire[4] * 1e9) / 1e3;
  span.bytes_sent = static_cast<std::int64_t>(wire[5]);
  span.bytes_received = static_cast<std::int64_t>(wire[6]);
  return span;
}

bool sends_in(const Round& round, int rank) {
  return std::any_of(round.transfers.begin(), round.transfers.end(),
                     [rank](const Transfer& transfer) { return transfer.src == rank; });
}

// The first element where the capture and the engine differ, bit for bit.
std::string first_difference(const BufferState& captured, const BufferState& expected, int round) {
  const std::size_t element = dtype_size(expected.dtype);
  for (std::size_t rank = 0; rank < expected.ranks.size(); ++rank) {
    const ByteBuffer& mine = captured.ranks[rank];
    const ByteBuffer& theirs = expected.ranks[rank];
    for (std::size_t at = 0; at < theirs.size(); at += element)
      if (!std::equal(theirs.begin() + static_cast<std::ptrdiff_t>(at),
                      theirs.begin() + static_cast<std::ptrdiff_t>(at + element),
                      mine.begin() + static_cast<std::ptrdiff_t>(at)))
        return "round " + std::to_string(round) + ": rank " + std::to_string(rank) + " element " +
               std::to_string(at / element) + " differs from the in-process engine";
  }
  return "";
}

class RoundCapture {
 public:
  RoundCapture(const CaptureOptions& options, const CaptureContext& context, RankTransport& transport,
               TraceListener* listener)
      : options_(options), context_(context), transport_(transport), listener_(listener),
        rank_(world_rank()), root_(rank_ == 0) {}

  std::string run() {
    prepare();
    if (root_) listener_->begin(trace_);
    double origin = 0;
    const int rounds = trace_.schedule.round_count();
    for (int index = 0; index < rounds; ++index) {
      const Round& round = trace_.schedule.rounds[static_cast<std::size_t>(index)];
      const Round& executed = execution_.rounds[static_cast<std::size_t>(index)];
      const RoundPlan& plan = planner_.plan(executed, shape_);
      const double delay = options_.delay && options_.delay->rank == rank_ && sends_in(round, rank_)
                               ? static_cast<double>(options_.delay->us) * 1e-6
                               : 0.0;
      MPI_Barrier(MPI_COMM_WORLD);
      const RoundSpans spans = transport_.execute(plan, executed, delay);
      // Outside the timed region from here on.
      if (index == 0 && root_) origin = spans.start;
      gather_spans(spans, origin);
      const bool last = index + 1 == rounds;
      TraceRound traced;
      if (context_.snapshot == SnapshotMode::rounds || (last && context_.snapshot == SnapshotMode::ends))
        gather_state(traced.buffers);
      if (!root_) continue;
      traced.number = index + 1;
      traced.round = round;
      provenance_.apply(round);
      traced.provenance = provenance_;
      traced.microseconds = std::round(round_microseconds(trace_.capture->rounds.back()) * 1e3) / 1e3;
      if (engine_) {
        engine_->step_forward();
        if (mismatch_.empty()) mismatch_ = first_difference(traced.buffers, engine_->buffers(), index + 1);
      }
      if (last) final_state_ = traced.buffers;
      listener_->round(trace_, traced);
    }
    if (rounds == 0 && context_.snapshot != SnapshotMode::none) gather_state(final_state_);
    if (!root_) return "";
    if (context_.snapshot != SnapshotMode::none)
      trace_.outputs = collective_outputs(trace_.config, trace_.layout, trace_.schedule, final_state_);
    listener_->end(trace_);
    return mismatch_;
  }

 private:
  void prepare() {
    const Config& config = options_.config;
    const SlotLayout layout = make_layout(config);
    Schedule schedule = make_schedule(config);
    // The transport holds one slot per piece and runs the waves on them (docs/architecture.md,
    // "Pipelined schedules"); the trace keeps the source article's slots.
    shape_ = CollectiveShape{config.dtype, config.reduce, config.ranks,
                             piece_layout(layout, pipeline_shape_of(schedule))};
    execution_ = execution_schedule(schedule);
    std::vector<ByteBuffer> initial_buffers;
    ByteBuffer mine(static_cast<std::size_t>(shape_.layout.elements_per_rank) * dtype_size(config.dtype));
    if (root_) {
      trace_.config = config;
      trace_.backend = transport_.name();
      trace_.layout = layout;
      trace_.traffic = compute_traffic(schedule, layout, config.dtype, config.ranks);
      trace_.initial = make_initial_state(config);
      trace_.initial_provenance = Provenance::initial(config);
      provenance_ = trace_.initial_provenance;
      initial_buffers = trace_.initial.ranks;
      if (context_.snapshot == SnapshotMode::none) trace_.initial = BufferState{};
      if (options_.check_engine) engine_ = std::make_unique<Session>(config, make_cpu_backend(1), SessionOptions{0});
      trace_.capture = record_header();
    }
    trace_.schedule = std::move(schedule);
    scatter_from_root(initial_buffers, mine);
    transport_.load(shape_, rank_, mine);
    gather_devices();
  }

  void gather_devices() {
    int device = transport_.device();
    std::vector<int> devices(root_ ? static_cast<std::size_t>(options_.config.ranks) : 0);
    MPI_Gather(&device, 1, MPI_INT, devices.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!root_) return;
    for (std::size_t rank = 0; rank < devices.size(); ++rank) trace_.capture->ranks[rank].device = devices[rank];
  }

  CaptureRecord record_header() const {
    CaptureRecord record;
    record.transport = transport_.name();
    record.command = context_.command;
    record.snapshot = context_.snapshot;
    record.clock = clock_method_text();
    record.delay = options_.delay;
    record.prediction = capture_prediction(options_.config, options_.assumed);
    for (int rank = 0; rank < options_.config.ranks; ++rank) {
      const ClockOffset& clock = context_.clocks[static_cast<std::size_t>(rank)];
      record.ranks.push_back({rank, context_.hosts[static_cast<std::size_t>(rank)], -1,
                              std::round(clock.offset_seconds * 1e9) / 1e3, std::round(clock.error_seconds * 1e9) / 1e3});
    }
    return record;
  }

  void gather_spans(const RoundSpans& spans, double origin) {
    const SpanWire mine = to_wire(spans);
    std::vector<SpanWire> all(root_ ? static_cast<std::size_t>(options_.config.ranks) : 0);
    MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), static_cast<int>(mine.size()),
               MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (!root_) return;
    std::vector<CaptureSpan> aligned;
    for (std::size_t rank = 0; rank < all.size(); ++rank)
      aligned.push_back(aligned_span(all[rank], context_.clocks[rank], origin));
    trace_.capture->rounds.push_back(std::move(aligned));
  }

  // Every rank's buffer on rank 0, as a BufferState (empty elsewhere).
  void gather_state(BufferState& state) {
    transport_.fetch(fetched_);
    gather_to_root(fetched_, state.ranks);
    if (!root_) return;
    state.dtype = options_.config.dtype;
    state.elements_per_rank = shape_.layout.elements_per_rank;
  }

  // The round as the trace times it: from the earliest start to the latest end over ranks.
  static double round_microseconds(const std::vector<CaptureSpan>& spans) {
    double start = spans.front().start_us;
    double end = spans.front().end_us;
    for (const CaptureSpan& span : spans) {
      start = std::min(start, span.start_us);
      end = std::max(end, span.end_us);
    }
    return end - start;
  }

  const CaptureOptions& options_;
  const CaptureContext& context_;
  RankTransport& transport_;
  TraceListener* listener_;
  int rank_;
  bool root_;
  CollectiveShape shape_;  // the pieces' layout
  Schedule execution_;
  RoundPlanner planner_;
  Trace trace_;
  Provenance provenance_;
  BufferState final_state_;
  ByteBuffer fetched_;
  std::unique_ptr<Session> engine_;
  std::string mismatch_;
};

}  // namespace

std::string capture_collective(const CaptureOptions& options, const CaptureContext& context,
                               RankTransport& transport, TraceListener* listener) {
  RoundCapture capture(options, context, transport, listener);
  return capture.run();
}

}  // namespace ringviz::capture
