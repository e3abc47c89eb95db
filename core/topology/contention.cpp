#include "core/topology/contention.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <unordered_map>

#include "core/schedule/pipeline.h"
#include "core/topology/fair_share.h"

namespace ringviz {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// One transfer as the simulation sees it.
struct Job {
  int wave = 0;
  int index = 0;  // within its wave
  int src = 0;
  int dst = 0;
  bool reduce = false;
  std::int64_t piece_key = 0;  // (dst, slot, piece): where it stores or folds
  double bytes = 0;
  double alpha = 0;
  double latency = 0;
  double cap = 0;  // the channel cap along the route; 0: none
  const std::vector<int>* route = nullptr;
  int worker = 0;
  int folder = 0;  // the receiver's worker on the same channel, which folds a reduce in
  // The first transfer of the message this one belongs to, and (at that first one) how many
  // transfers the message has and how many have arrived: a message is received whole.
  int message_head = 0;
  int message_size = 1;
  int message_arrived = 0;
  std::vector<int> message_members;
  int send_waits = 0;  // 1 while the version of its source piece it sends is unfinished
  int fold_waits = 0;  // 1 while the earlier version of its destination piece is unfinished
  bool arrived = false;
  int version = 0;  // the version of its destination piece it writes
  SimulatedTransfer time;
};

// The writes of one round into one piece, and who waits for all of them to be done.
struct PieceVersion {
  int writers_left = 0;
  std::vector<int> waiting_sends;
  std::vector<int> waiting_folds;
};

enum class EventKind { flow_starts, arrives, done };

struct Event {
  double time = 0;
  std::uint64_t order = 0;  // first scheduled, first handled: the simulation is deterministic
  EventKind kind = EventKind::done;
  int job = 0;
  bool operator>(const Event& other) const {
    return time != other.time ? time > other.time : order > other.order;
  }
};

class Simulator {
 public:
  Simulator(const Schedule& schedule, const SlotLayout& layout, DType dtype, const Topology& topology,
            const Routes& routes)
      : topology_(topology) {
    build_jobs(schedule, layout, dtype, routes);
    build_dependencies(schedule, layout);
  }

  Simulation run(bool detail) {
    link_loads_.assign(detail ? topology_.links.size() : 0, LinkTraffic{});
    for (LinkTraffic& load : link_loads_) load.bytes_per_round.assign(wave_count_, 0);
    detail_ = detail;
    for (std::size_t worker = 0; worker < queues_.size(); ++worker) try_start(static_cast<int>(worker));
    loop();
    Simulation result;
    result.round_end_seconds.assign(wave_count_, 0);
    if (detail) result.transfers.resize(wave_count_);
    for (const Job& job : jobs_) {
      result.seconds = std::max(result.seconds, job.time.done);
      double& round_end = result.round_end_seconds[static_cast<std::size_t>(job.wave)];
      round_end = std::max(round_end, job.time.done);
      if (detail) result.transfers[static_cast<std::size_t>(job.wave)].push_back(job.time);
    }
    result.links = std::move(link_loads_);
    return result;
  }

 private:
  void build_jobs(const Schedule& schedule, const SlotLayout& layout, DType dtype, const Routes& routes) {
    const PipelineShape shape = pipeline_shape_of(schedule);
    const double element = static_cast<double>(dtype_size(dtype));
    wave_count_ = schedule.rounds.size();
    const int channels = std::max(1, schedule.channels);
    queues_.assign(static_cast<std::size_t>(topology_.gpus) * static_cast<std::size_t>(channels), {});
    next_in_queue_.assign(queues_.size(), 0);
    worker_busy_.assign(queues_.size(), false);
    fold_free_at_.assign(queues_.size(), 0);
    for (std::size_t wave = 0; wave < schedule.rounds.size(); ++wave) {
      const auto& transfers = schedule.rounds[wave].transfers;
      for (std::size_t index = 0; index < transfers.size(); ++index) {
        const Transfer& transfer = transfers[index];
        Job job;
        job.wave = static_cast<int>(wave);
        job.index = static_cast<int>(index);
        job.src = transfer.src;
        job.dst = transfer.dst;
        job.reduce = transfer.kind == TransferKind::reduce;
        job.bytes = static_cast<double>(transfer_span(transfer, layout, shape).count) * element;
        job.time.bytes = job.bytes;
        job.route = &routes.route(transfer.src, transfer.dst);
        for (int link_index : *job.route) {
          const TopologyLink& link = topology_.links[static_cast<std::size_t>(link_index)];
          job.alpha = std::max(job.alpha, link.alpha_seconds);
          job.latency += link.latency_seconds;
          if (link.channel_bytes_per_second > 0)
            job.cap = job.cap > 0 ? std::min(job.cap, link.channel_bytes_per_second) : link.channel_bytes_per_second;
        }
        job.worker = transfer.src * channels + transfer.step.channel;
        job.message_head = static_cast<int>(jobs_.size());
        job.folder = transfer.dst * channels + transfer.step.channel;
        auto& queue = queues_[static_cast<std::size_t>(job.worker)];
        // Slots that one step sends one receiver travel as one message and pay α once, as in
        // the contention-free model.
        if (!queue.empty()) {
          const Job& before = jobs_[static_cast<std::size_t>(queue.back())];
          const Transfer& previous = schedule.rounds[static_cast<std::size_t>(before.wave)]
                                         .transfers[static_cast<std::size_t>(before.index)];
          if (before.wave == job.wave && before.dst == job.dst && previous.step == transfer.step) {
            job.alpha = 0;
            job.message_head = before.message_head;
            jobs_[static_cast<std::size_t>(before.message_head)].message_size += 1;
          }
        }
        queue.push_back(static_cast<int>(jobs_.size()));
        jobs_.push_back(std::move(job));
      }
    }
  }

  // Who waits for whom, walking the source article's rounds in order: a send waits for the writes of
  // the latest earlier round into its source piece; a fold also for those into its own piece.
  // The writes of one round into one piece are one version of it, which readers wait on as a
  // whole, so a slot that N-1 transfers fold into costs N-1 + readers links, not their product.
  void build_dependencies(const Schedule& schedule, const SlotLayout& layout) {
    const PipelineShape shape = pipeline_shape_of(schedule);
    const std::int64_t pieces = shape.pieces_per_slot();
    const auto key = [&](int rank, const Transfer& transfer) {
      return (static_cast<std::int64_t>(rank) * layout.size() + transfer.slot) * pieces + shape.piece_of(transfer.step);
    };
    struct Latest {
      int round = -1;
      int version = -1;
    };
    std::unordered_map<std::int64_t, Latest> latest;
    // Jobs by the source article's round (a lock-step schedule's rounds are its waves).
    std::vector<std::vector<std::pair<int, const Transfer*>>> by_round;
    int job_id = 0;
    for (std::size_t wave = 0; wave < schedule.rounds.size(); ++wave)
      for (const Transfer& transfer : schedule.rounds[wave].transfers) {
        const int round = shape.whole_slots() ? static_cast<int>(wave) : transfer.step.round;
        if (static_cast<std::size_t>(round) >= by_round.size()) by_round.resize(static_cast<std::size_t>(round) + 1);
        by_round[static_cast<std::size_t>(round)].push_back({job_id++, &transfer});
      }
    const auto wait_on = [&](std::int64_t piece, int id, bool fold) {
      const auto found = latest.find(piece);
      if (found == latest.end()) return;
      PieceVersion& version = versions_[static_cast<std::size_t>(found->second.version)];
      Job& job = jobs_[static_cast<std::size_t>(id)];
      (fold ? version.waiting_folds : version.waiting_sends).push_back(id);
      ++(fold ? job.fold_waits : job.send_waits);
    };
    for (std::size_t round = 0; round < by_round.size(); ++round) {
      for (const auto& [id, transfer] : by_round[round]) {
        Job& job = jobs_[static_cast<std::size_t>(id)];
        job.piece_key = key(transfer->dst, *transfer);
        wait_on(key(transfer->src, *transfer), id, false);
        if (job.reduce) wait_on(job.piece_key, id, true);
      }
      for (const auto& [id, transfer] : by_round[round]) {
        Job& job = jobs_[static_cast<std::size_t>(id)];
        Latest& entry = latest[job.piece_key];
        if (entry.round != static_cast<int>(round)) {
          entry = {static_cast<int>(round), static_cast<int>(versions_.size())};
          versions_.emplace_back();
        }
        job.version = entry.version;
        ++versions_[static_cast<std::size_t>(entry.version)].writers_left;
      }
    }
  }

  void schedule_event(double time, EventKind kind, int job) { events_.push({time, order_++, kind, job}); }

  void try_start(int worker) {
    if (worker_busy_[static_cast<std::size_t>(worker)]) return;
    const auto& queue = queues_[static_cast<std::size_t>(worker)];
    std::size_t& next = next_in_queue_[static_cast<std::size_t>(worker)];
    if (next >= queue.size()) return;
    Job& job = jobs_[static_cast<std::size_t>(queue[next])];
    if (job.send_waits > 0) return;
    ++next;
    worker_busy_[static_cast<std::size_t>(worker)] = true;
    job.time.start = now_;
    schedule_event(now_ + job.alpha, EventKind::flow_starts, queue[next - 1]);
  }

  void finish_flow(int id) {
    Job& job = jobs_[static_cast<std::size_t>(id)];
    job.time.flow_end = now_;
    worker_busy_[static_cast<std::size_t>(job.worker)] = false;
    schedule_event(now_ + job.latency, EventKind::arrives, id);
    try_start(job.worker);
  }

  void try_fold(int id) {
    Job& job = jobs_[static_cast<std::size_t>(id)];
    if (!job.arrived || job.fold_waits > 0) return;
    double begin = now_;
    if (job.reduce) {
      double& free_at = fold_free_at_[static_cast<std::size_t>(job.folder)];
      begin = std::max(begin, free_at);
      free_at = begin + job.bytes * topology_.gamma_seconds_per_byte;
      schedule_event(free_at, EventKind::done, id);
    } else {
      schedule_event(begin, EventKind::done, id);
    }
  }

  void handle(const Event& event) {
    Job& job = jobs_[static_cast<std::size_t>(event.job)];
    switch (event.kind) {
      case EventKind::flow_starts:
        job.time.flow_start = now_;
        if (job.bytes <= 0 || job.route->empty()) {
          finish_flow(event.job);
        } else {
          flows_.push_back({event.job, job.bytes});
          rates_stale_ = true;
        }
        break;
      case EventKind::arrives: {
        Job& head = jobs_[static_cast<std::size_t>(job.message_head)];
        head.message_members.push_back(event.job);
        if (++head.message_arrived < head.message_size) break;
        for (int member : head.message_members) {
          jobs_[static_cast<std::size_t>(member)].time.arrival = now_;
          jobs_[static_cast<std::size_t>(member)].arrived = true;
        }
        for (int member : head.message_members) try_fold(member);
        break;
      }
      case EventKind::done:
        job.time.done = now_;
        if (PieceVersion& version = versions_[static_cast<std::size_t>(job.version)]; --version.writers_left == 0) {
          for (int waiting : version.waiting_folds) {
            --jobs_[static_cast<std::size_t>(waiting)].fold_waits;
            try_fold(waiting);
          }
          for (int waiting : version.waiting_sends) {
            Job& next = jobs_[static_cast<std::size_t>(waiting)];
            if (--next.send_waits == 0) try_start(next.worker);
          }
        }
        break;
    }
  }

  void recompute_rates() {
    std::vector<FairShareFlow> demands;
    demands.reserve(flows_.size());
    for (const ActiveFlow& flow : flows_) {
      const Job& job = jobs_[static_cast<std::size_t>(flow.job)];
      demands.push_back({job.route, job.cap});
    }
    rates_ = fair_share_rates(topology_, demands, sharing_);
    rates_stale_ = false;
    if (!detail_) return;
    for (std::size_t link = 0; link < sharing_.size(); ++link)
      link_loads_[link].most_flows = std::max(link_loads_[link].most_flows, sharing_[link]);
  }

  // Moves simulated time to `time`, draining every flow at its rate.
  void advance(double time) {
    const double elapsed = time - now_;
    for (std::size_t i = 0; i < flows_.size(); ++i) {
      const double moved = std::min(flows_[i].remaining, rates_[i] * elapsed);
      flows_[i].remaining -= moved;
      if (!detail_ || moved <= 0) continue;
      const Job& job = jobs_[static_cast<std::size_t>(flows_[i].job)];
      for (int link : *job.route) {
        LinkTraffic& load = link_loads_[static_cast<std::size_t>(link)];
        load.bytes_per_round[static_cast<std::size_t>(job.wave)] += moved;
        load.bytes += moved;
      }
    }
    if (detail_ && elapsed > 0)
      for (std::size_t link = 0; link < sharing_.size(); ++link)
        if (sharing_[link] > 0) link_loads_[link].busy_seconds += elapsed;
    now_ = time;
  }

  void loop() {
    for (;;) {
      if (rates_stale_) recompute_rates();
      double next_finish = kNever;
      for (std::size_t i = 0; i < flows_.size(); ++i)
        next_finish = std::min(next_finish, now_ + flows_[i].remaining / rates_[i]);
      const double next_event = events_.empty() ? kNever : events_.top().time;
      if (next_finish == kNever && next_event == kNever) return;
      if (next_finish <= next_event) {
        advance(next_finish);
        finish_drained_flows(next_finish);
      } else {
        advance(next_event);
      }
      // Everything due now, before the rates are shared out again.
      while (!events_.empty() && events_.top().time <= now_ + simultaneous(now_)) {
        const Event event = events_.top();
        events_.pop();
        handle(event);
      }
    }
  }

  // Times closer than this to `time` count as the same moment: flows and events that differ by
  // rounding alone are handled together, so that symmetric schedules take one rate
  // computation per step rather than one per flow.
  static double simultaneous(double time) { return time * 1e-9 + 1e-15; }

  // Flows whose last byte leaves at `time` (as simultaneous() counts it) finish together.
  void finish_drained_flows(double time) {
    std::vector<int> finished;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < flows_.size(); ++i) {
      const double left_seconds = flows_[i].remaining / rates_[i];
      if (flows_[i].remaining <= 0 || left_seconds <= simultaneous(time)) {
        finished.push_back(flows_[i].job);
      } else {
        flows_[kept] = flows_[i];
        rates_[kept] = rates_[i];
        ++kept;
      }
    }
    flows_.resize(kept);
    rates_.resize(kept);
    rates_stale_ = true;
    for (int id : finished) finish_flow(id);
  }

  struct ActiveFlow {
    int job = 0;
    double remaining = 0;
  };

  const Topology& topology_;
  std::vector<Job> jobs_;
  std::vector<PieceVersion> versions_;
  std::size_t wave_count_ = 0;
  std::vector<std::vector<int>> queues_;  // per worker: jobs in schedule order
  std::vector<std::size_t> next_in_queue_;
  std::vector<bool> worker_busy_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t order_ = 0;
  std::vector<ActiveFlow> flows_;
  std::vector<double> rates_;
  std::vector<int> sharing_;  // flows on each link, from the last rate computation
  bool rates_stale_ = false;
  std::vector<double> fold_free_at_;  // per worker: folds on one channel of one GPU queue up
  double now_ = 0;
  bool detail_ = false;
  std::vector<LinkTraffic> link_loads_;
};

}  // namespace

Simulation simulate_contention(const Schedule& schedule, const SlotLayout& layout, DType dtype,
                               const Topology& topology, const Routes& routes, bool detail) {
  return Simulator(schedule, layout, dtype, topology, routes).run(detail);
}

}  // namespace ringviz
