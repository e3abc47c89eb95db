#include "app/capture/mpi/mpi_transport.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <stdexcept>
#include <thread>
#include <vector>

#include <mpi.h>

#include "core/engine/slot_kernels.h"

namespace ringviz::capture {

namespace {

// One message carries at most this many bytes (MPI counts are int); a larger slot travels as
// several messages under one tag, which MPI delivers in the order they were posted.
constexpr std::int64_t kMaxMessageBytes = std::int64_t{1} << 30;

class MpiTransport final : public RankTransport {
 public:
  MpiTransport() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  }

  std::string name() const override { return "mpi"; }

  void load(const CollectiveShape& shape, int rank, const ByteBuffer& initial) override {
    if (rank != rank_) throw std::logic_error("MpiTransport: loaded for another rank");
    shape_ = shape;
    buffer_ = initial;
  }

  void fetch(ByteBuffer& buffer) override { buffer = buffer_; }

  RoundSpans execute(const RoundPlan& plan, const Round& round, double delay_seconds) override {
    RoundSpans spans;
    spans.start = capture_clock_seconds();
    requests_.clear();
    stage_reads(plan);
    spans.bytes_received = post_receives(plan);
    const std::size_t receive_requests = requests_.size();
    if (delay_seconds > 0) {
      const double slept_from = capture_clock_seconds();
      std::this_thread::sleep_for(std::chrono::duration<double>(delay_seconds));
      spans.delay = capture_clock_seconds() - slept_from;
    }
    spans.bytes_sent = post_sends(plan, round);
    spans.posted = capture_clock_seconds();
    wait(0, receive_requests);
    spans.arrived = capture_clock_seconds();
    fold_arrivals(plan);
    // A send from a live slot must be done before a later round writes that slot.
    wait(receive_requests, requests_.size());
    spans.end = capture_clock_seconds();
    return spans;
  }

 private:
  std::int64_t element_bytes() const { return static_cast<std::int64_t>(dtype_size(shape_.dtype)); }
  std::int64_t slot_bytes(int slot) const { return shape_.layout[slot].count * element_bytes(); }
  std::byte* slot_data(int slot) { return buffer_.data() + shape_.layout[slot].offset * element_bytes(); }

  // A destination that takes exactly one copy and is not divided is received in place: no
  // staging buffer, no second pass over the bytes.
  static bool receives_in_place(const RoundPlan& plan, const PlannedDestination& destination) {
    return destination.transfer_count == 1 && !destination.divides_by_ranks &&
           plan.transfers_into(destination)[0].transfer.kind == TransferKind::copy;
  }

  // Slots of this rank that are read by a peer and written in the same round are sent from a
  // copy taken before anything is received (docs/architecture.md, "Collective semantics").
  void stage_reads(const RoundPlan& plan) {
    staged_slots_.clear();
    for (const RankSlot& read : plan.staged_reads()) {
      if (read.rank != rank_) continue;
      if (staged_copies_.size() <= staged_slots_.size()) staged_copies_.emplace_back();
      const std::byte* begin = slot_data(read.slot);
      staged_copies_[staged_slots_.size()].assign(begin, begin + slot_bytes(read.slot));
      staged_slots_.push_back(read.slot);
    }
  }

  const std::byte* send_source(int slot) {
    for (std::size_t i = 0; i < staged_slots_.size(); ++i)
      if (staged_slots_[i] == slot) return staged_copies_[i].data();
    return slot_data(slot);
  }

  void post(bool send, std::byte* data, std::int64_t bytes, int peer, int tag) {
    std::int64_t done = 0;
    do {  // an empty slot still sends one empty message, so both sides count alike
      const int piece = static_cast<int>(std::min(kMaxMessageBytes, bytes - done));
      requests_.emplace_back();
      const int status = send ? MPI_Isend(data + done, piece, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &requests_.back())
                              : MPI_Irecv(data + done, piece, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &requests_.back());
      if (status != MPI_SUCCESS) throw std::runtime_error("MPI could not post a message to rank " + std::to_string(peer));
      done += piece;
    } while (done < bytes);
  }

  std::int64_t post_receives(const RoundPlan& plan) {
    std::int64_t bytes = 0;
    std::size_t staging = 0;
    for (const PlannedDestination& destination : plan.destinations_of(rank_)) {
      const std::int64_t size = slot_bytes(destination.slot);
      if (receives_in_place(plan, destination)) {
        post(false, slot_data(destination.slot), size, plan.transfers_into(destination)[0].transfer.src,
             destination.slot);
        bytes += size;
        continue;
      }
      for (const PlannedTransfer& planned : plan.transfers_into(destination)) {
        if (staging_.size() <= staging) staging_.emplace_back();
        staging_[staging].resize(static_cast<std::size_t>(size));
        post(false, staging_[staging].data(), size, planned.transfer.src, destination.slot);
        bytes += size;
        ++staging;
      }
    }
    return bytes;
  }

  std::int64_t post_sends(const RoundPlan&, const Round& round) {
    std::int64_t bytes = 0;
    for (const Transfer& transfer : round.transfers) {
      if (transfer.src != rank_) continue;
      // Read from the sender's own slot, tagged with the receiver's, which it posted its receive under.
      const std::int64_t size = slot_bytes(transfer.source_slot());
      post(true, const_cast<std::byte*>(send_source(transfer.source_slot())), size, transfer.dst, transfer.slot);
      bytes += size;
    }
    return bytes;
  }

  // Folds the staged transfers into each destination in the plan's order, exactly as the CPU
  // backend does, so the bits match it.
  void fold_arrivals(const RoundPlan& plan) {
    std::size_t staging = 0;
    for (const PlannedDestination& destination : plan.destinations_of(rank_)) {
      if (receives_in_place(plan, destination)) continue;
      std::byte* local = slot_data(destination.slot);
      const std::int64_t count = shape_.layout[destination.slot].count;
      for (const PlannedTransfer& planned : plan.transfers_into(destination)) {
        const std::byte* incoming = staging_[staging++].data();
        if (planned.transfer.kind == TransferKind::copy)
          copy_elements(shape_.dtype, incoming, local, count);
        else
          reduce_elements(shape_.dtype, shape_.reduce, incoming, local, count);
      }
      if (destination.divides_by_ranks) divide_elements(shape_.dtype, local, count, shape_.ranks);
    }
  }

  void wait(std::size_t from, std::size_t to) {
    if (to <= from) return;
    if (MPI_Waitall(static_cast<int>(to - from), requests_.data() + from, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
      throw std::runtime_error("an MPI message of the round failed");
  }

  int rank_ = 0;
  CollectiveShape shape_;
  ByteBuffer buffer_;
  std::vector<MPI_Request> requests_;
  std::vector<ByteBuffer> staging_;        // kept between rounds: one per staged transfer
  std::vector<ByteBuffer> staged_copies_;  // this rank's slots read and written in one round
  std::vector<int> staged_slots_;
};

}  // namespace

std::unique_ptr<RankTransport> make_mpi_transport() { return std::make_unique<MpiTransport>(); }

}  // namespace ringviz::capture
