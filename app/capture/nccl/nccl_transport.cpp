#include "app/capture/nccl/nccl_transport.h"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "app/capture/nccl/nccl_join.h"
#include "core/schedule/rank_exchange.h"

namespace ringviz::capture {

namespace {

class NcclTransport final : public RankTransport {
 public:
  NcclTransport(std::unique_ptr<gpu::NcclRankEngine> engine, int rank) : rank_(rank), engine_(std::move(engine)) {}

  std::string name() const override { return "nccl"; }
  int device() const override { return engine_->device(); }

  void load(const CollectiveShape& shape, int rank, const ByteBuffer& initial) override {
    if (rank != rank_) throw std::logic_error("NcclTransport: loaded for another rank");
    shape_ = shape;
    engine_->load(shape, initial);
  }

  void fetch(ByteBuffer& buffer) override { engine_->fetch(buffer); }

  // The round's host waits are its spans: the group posted, the transfers done, the folds done.
  RoundSpans execute(const RoundPlan& plan, const Round&, double delay_seconds) override {
    RoundSpans spans;
    spans.start = capture_clock_seconds();
    plan_rank_exchange(plan, rank_, exchange_);
    if (delay_seconds > 0) {
      std::this_thread::sleep_for(std::chrono::duration<double>(delay_seconds));
      spans.delay = capture_clock_seconds() - spans.start;
    }
    engine_->post(plan, exchange_);
    spans.posted = capture_clock_seconds();
    engine_->wait_for_arrivals();
    spans.arrived = capture_clock_seconds();
    engine_->fold(plan);
    spans.end = capture_clock_seconds();
    for (const ExchangeSend& send : exchange_.sends) spans.bytes_sent += slot_bytes(send.slot);
    for (const ExchangeReceive& receive : exchange_.receives) spans.bytes_received += slot_bytes(receive.slot);
    return spans;
  }

 private:
  std::int64_t slot_bytes(int slot) const {
    return shape_.layout[slot].count * static_cast<std::int64_t>(dtype_size(shape_.dtype));
  }

  int rank_ = 0;
  CollectiveShape shape_;
  RankExchange exchange_;
  std::unique_ptr<gpu::NcclRankEngine> engine_;
};

}  // namespace

std::unique_ptr<RankTransport> make_nccl_transport(std::string& unavailable) {
  std::unique_ptr<gpu::NcclRankEngine> engine = join_nccl(unavailable);
  if (!engine) return nullptr;
  const int rank = engine->rank();
  return std::make_unique<NcclTransport>(std::move(engine), rank);
}

}  // namespace ringviz::capture
