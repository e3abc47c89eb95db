#include "core/training/cost_model.h"

#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/engine/traffic.h"
#include "core/model/input_error.h"
#include "core/nccl/nccl_tuner.h"
#include "core/schedule/pipeline.h"

namespace ringviz {

namespace {

// Remembers which (sender, receiver) pairs already opened a message in the current round,
// without clearing an N x N table every round.
class MessageTracker {
 public:
  explicit MessageTracker(int ranks)
      : ranks_(ranks), stamp_(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(ranks), 0) {}
  void next_round() { ++generation_; }
  // True the first time the pair is seen in this round.
  bool opens_message(int src, int dst) {
    unsigned& stamp = stamp_[static_cast<std::size_t>(src) * static_cast<std::size_t>(ranks_) +
                             static_cast<std::size_t>(dst)];
    if (stamp == generation_) return false;
    stamp = generation_;
    return true;
  }

 private:
  int ranks_;
  unsigned generation_ = 1;
  std::vector<unsigned> stamp_;
};

// Both sides of every GPU in one round: what it sends, what it receives and folds.
struct RoundSides {
  std::vector<CostTerms> send;
  std::vector<CostTerms> receive;
};

RoundCost walk_round(const Round& round, const SlotLayout& layout, PipelineShape shape, DType dtype, int ranks,
                     const LinkModel& link, MessageTracker& tracker, RoundSides& sides,
                     bool keep_transfers) {
  tracker.next_round();
  sides.send.assign(static_cast<std::size_t>(ranks), CostTerms{});
  sides.receive.assign(static_cast<std::size_t>(ranks), CostTerms{});
  RoundCost cost;
  if (keep_transfers) cost.transfers.reserve(round.transfers.size());
  const double element = static_cast<double>(dtype_size(dtype));
  for (const Transfer& transfer : round.transfers) {
    const double bytes = static_cast<double>(transfer_span(transfer, layout, shape).count) * element;
    const double opens = tracker.opens_message(transfer.src, transfer.dst) ? 1 : 0;
    CostTerms& out = sides.send[static_cast<std::size_t>(transfer.src)];
    CostTerms& in = sides.receive[static_cast<std::size_t>(transfer.dst)];
    // Each side works through its transfers back to back, in list order.
    TransferTiming timing;
    timing.send_start = out.seconds(link);
    timing.receive_start = in.seconds(link);
    out.messages += opens;
    out.bytes += bytes;
    in.messages += opens;
    in.bytes += bytes;
    if (transfer.kind == TransferKind::reduce) in.reduced_bytes += bytes;
    timing.send_seconds = out.seconds(link) - timing.send_start;
    timing.receive_seconds = in.seconds(link) - timing.receive_start;
    if (keep_transfers) cost.transfers.push_back(timing);
  }
  // The round lasts as long as its slowest side.
  for (int rank = 0; rank < ranks; ++rank)
    for (bool receives : {false, true}) {
      const CostTerms& side = (receives ? sides.receive : sides.send)[static_cast<std::size_t>(rank)];
      const double seconds = side.seconds(link);
      if (seconds > cost.seconds) cost = {seconds, rank, receives, side, std::move(cost.transfers)};
    }
  return cost;
}

CostEstimate walk_schedule(const Config& config, const Schedule& schedule, const SlotLayout& layout,
                           const LinkModel& link, bool keep_rounds) {
  const int n = config.ranks;
  CostEstimate estimate;
  estimate.algorithm = config.algorithm;
  estimate.op = config.op;
  estimate.ranks = n;
  estimate.count = config.count;
  estimate.dtype = config.dtype;
  estimate.message_bytes = config.count * static_cast<std::int64_t>(dtype_size(config.dtype));
  estimate.rounds = schedule.round_count();
  estimate.bytes_sent.assign(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> received(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> reduced(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> messages(static_cast<std::size_t>(n), 0);

  MessageTracker tracker(n);
  RoundSides sides;
  for (const Round& round : schedule.rounds) {
    RoundCost cost = walk_round(round, layout, pipeline_shape_of(schedule), config.dtype, n, link, tracker,
                                sides, keep_rounds);
    estimate.seconds += cost.seconds;
    estimate.terms.messages += cost.terms.messages;
    estimate.terms.bytes += cost.terms.bytes;
    estimate.terms.reduced_bytes += cost.terms.reduced_bytes;
    for (std::size_t rank = 0; rank < static_cast<std::size_t>(n); ++rank) {
      estimate.bytes_sent[rank] += static_cast<std::int64_t>(sides.send[rank].bytes);
      received[rank] += static_cast<std::int64_t>(sides.receive[rank].bytes);
      reduced[rank] += static_cast<std::int64_t>(sides.receive[rank].reduced_bytes);
      messages[rank] += static_cast<std::int64_t>(sides.send[rank].messages);
    }
    if (keep_rounds) estimate.per_round.push_back(std::move(cost));
  }
  if (schedule.through_switch) {
    // Through the switch a piece sent to many crosses the sender's link once and a folded
    // piece reaches its receiver once (compute_traffic counts them so).
    const Traffic traffic = compute_traffic(schedule, layout, config.dtype, n);
    for (int rank = 0; rank < n; ++rank) {
      estimate.bytes_sent[static_cast<std::size_t>(rank)] = traffic.total_sent(rank);
      received[static_cast<std::size_t>(rank)] = traffic.total_received(rank);
    }
    // Likewise a GPU sends one message into the switch per round it sends in, whatever the
    // number of GPUs its pieces are for: the "msgs/GPU" of compare counts those.
    std::fill(messages.begin(), messages.end(), 0);
    for (const Round& round : schedule.rounds) {
      std::vector<bool> sends(static_cast<std::size_t>(n), false);
      for (const Transfer& transfer : round.transfers) sends[static_cast<std::size_t>(transfer.src)] = true;
      for (int rank = 0; rank < n; ++rank) messages[static_cast<std::size_t>(rank)] += sends[static_cast<std::size_t>(rank)] ? 1 : 0;
    }
  }
  for (std::size_t rank = 0; rank < static_cast<std::size_t>(n); ++rank) {
    estimate.messages = std::max(estimate.messages, messages[rank]);
    estimate.messages_total += messages[rank];
    estimate.max_bytes_sent = std::max(estimate.max_bytes_sent, estimate.bytes_sent[rank]);
    estimate.max_bytes_reduced = std::max(estimate.max_bytes_reduced, reduced[rank]);
    // Inbound first: on a tie the receiving side is the hot spot a reader looks for.
    for (bool inbound : {true, false}) {
      const std::int64_t bytes = inbound ? received[rank] : estimate.bytes_sent[rank];
      if (bytes > estimate.busiest_link_bytes) {
        estimate.busiest_link_bytes = bytes;
        estimate.busiest_link_rank = static_cast<int>(rank);
        estimate.busiest_link_inbound = inbound;
      }
    }
  }
  return estimate;
}

// One algorithm's schedule, built once and simulated at many message sizes.
// An algorithm that reduces inside the switch (NVLS) is priced by NCCL's NVLS model: the
// contention simulation has no switch that adds. Throws InputError when the topology has no
// such switch.
// NCCL's NVLS model knows the real switch: it stands only where every link keeps its class
// preset's bandwidth and α (no --bandwidth-gbs or --alpha-us over it).
bool links_are_their_presets(const Topology& topology) {
  for (const TopologyLink& link : topology.links) {
    const LinkModel* preset = nullptr;
    for (const LinkModel& candidate : link_presets())
      if (candidate.key == link.link_class) preset = &candidate;
    if (preset == nullptr || link.bytes_per_second != preset->bytes_per_second ||
        link.alpha_seconds != preset->alpha_seconds)
      return false;
  }
  return true;
}

// Whether `topology` has a switch that reduces whose figures NCCL's model knows.
bool switch_reduces_on(const Topology& topology) {
  return nccl_machine(topology).nvls && links_are_their_presets(topology);
}

double in_switch_seconds(const Config& config, const Topology& topology) {
  if (config.ranks < 2) return 0;  // one GPU: no rounds, as every algorithm
  if (nccl_machine(topology).nvls && !links_are_their_presets(topology))
    throw InputError("--algo " + std::string(algorithm_name(config.algorithm)) +
                     ": priced by NCCL's model of a real NVLink 4 switch, which overridden link figures are not; "
                     "drop the overrides or choose another --algo");
  const NcclMachine machine = nccl_machine(topology, config.channels > 1 ? config.channels : 0);
  std::string why;
  if (!nccl_has(machine, config.op, NcclAlgorithm::nvls, NcclProtocol::simple, &why))
    throw InputError("--algo " + std::string(algorithm_name(config.algorithm)) + ": " + why + " (topology '" +
                     topology.key + "'); choose --topology nvswitch:" + std::to_string(config.ranks) +
                     " or another --algo");
  const std::int64_t bytes = config.count * static_cast<std::int64_t>(dtype_size(config.dtype));
  return nccl_predict(machine, config.op, bytes, NcclAlgorithm::nvls, NcclProtocol::simple).seconds;
}

bool reduces_in_switch(const Config& config) { return algorithm_unit(config.algorithm).reduces_in_switch; }

struct PricedAlgorithm {
  Config config;
  Schedule schedule;
  bool simulated = true;  // false: swept with the contention-free model (kMaxSweptTransfers)
  LinkModel link;

  double seconds_at(std::int64_t count, const Topology& topology, const Routes& routes) {
    config.count = count;
    if (reduces_in_switch(config)) return in_switch_seconds(config, topology);
    if (!simulated) return walk_schedule(config, schedule, make_layout(config), link, false).seconds;
    return simulate_contention(schedule, make_layout(config), config.dtype, topology, routes, false).seconds;
  }
};

std::int64_t transfer_count(const Schedule& schedule) {
  std::int64_t count = 0;
  for (const Round& round : schedule.rounds) count += static_cast<std::int64_t>(round.transfers.size());
  return count;
}

// The fastest of `algorithms` at `count` elements. Within a part per million counts as a tie
// and goes to the earlier one: the ring and direct send the same bytes with as many α, and
// only the uneven last slot would otherwise decide between them.
std::size_t fastest_at(std::vector<PricedAlgorithm>& algorithms, std::int64_t count, const Topology& topology,
                       const Routes& routes, std::vector<double>* seconds = nullptr) {
  std::size_t best = 0;
  double best_seconds = 0;
  for (std::size_t i = 0; i < algorithms.size(); ++i) {
    const double t = algorithms[i].seconds_at(count, topology, routes);
    if (seconds) seconds->push_back(t);
    if (i == 0 || t < best_seconds * (1 - 1e-6)) {
      best = i;
      best_seconds = t;
    }
  }
  return best;
}

// The LinkModel that stands for a topology in the contention-free counts: the preset of its
// first link's class, or that link's own figures.
LinkModel representative_link(const Topology& topology) {
  if (topology.links.empty()) return LinkModel{};
  const TopologyLink& first = topology.links.front();
  for (const LinkModel& preset : link_presets())
    if (preset.key == first.link_class) return preset;
  LinkModel link;
  link.key = first.link_class;
  link.label = first.link_class;
  link.alpha_seconds = first.alpha_seconds;
  link.bytes_per_second = first.bytes_per_second;
  link.gamma_seconds_per_byte = topology.gamma_seconds_per_byte;
  link.hop_latency_seconds = first.latency_seconds;
  link.channel_bytes_per_second = first.channel_bytes_per_second;
  return link;
}

void require_topology_fits(const Config& config, const Topology& topology) {
  if (config.ranks != topology.gpus)
    throw InputError("--gpus: " + std::to_string(config.ranks) + " does not match the topology '" + topology.key +
                     "', which has " + std::to_string(topology.gpus) + (topology.gpus == 1 ? " GPU" : " GPUs") +
                     "; leave --gpus out or give " + std::to_string(topology.gpus));
}

}  // namespace

RoundCost cost_of_round(const Round& round, const SlotLayout& layout, DType dtype, int ranks,
                        const LinkModel& link) {
  MessageTracker tracker(ranks);
  RoundSides sides;
  return walk_round(round, layout, PipelineShape{}, dtype, ranks, link, tracker, sides, true);
}

CostEstimate estimate_cost(const Config& config, const Schedule& schedule, const SlotLayout& layout,
                           const LinkModel& link) {
  return walk_schedule(config, schedule, layout, link, true);
}

CostEstimate estimate_cost(const Config& config, const LinkModel& link) {
  return estimate_cost(config, make_schedule(config), make_layout(config), link);
}

std::string cost_formula(Algorithm algorithm, Op op, Language language) {
  const AlgorithmUnit& unit = algorithm_unit(algorithm);
  if (!unit.supports(op)) return "";
  return std::string(unit.cost_shape(op)) + std::string(unit.cost_note.in(language));
}

CostEstimate estimate_cost(const Config& config, const Topology& topology, bool detail) {
  require_topology_fits(config, topology);
  const Schedule schedule = make_schedule(config);
  const SlotLayout layout = make_layout(config);
  CostEstimate estimate = walk_schedule(config, schedule, layout, representative_link(topology), true);
  estimate.contention_free_seconds = estimate.seconds;
  estimate.simulation = simulate_contention(schedule, layout, config.dtype, topology, Routes(topology), detail);
  estimate.seconds = reduces_in_switch(config) ? in_switch_seconds(config, topology) : estimate.simulation.seconds;
  return estimate;
}

CostComparison compare_algorithms(const Config& config, const LinkModel& link, const SweepOptions& sweep) {
  CostComparison comparison = compare_algorithms(config, star_topology(link, config.ranks), sweep);
  comparison.link = link;
  return comparison;
}

CostComparison compare_algorithms(const Config& config, const Topology& topology, const SweepOptions& sweep) {
  require_topology_fits(config, topology);
  const Routes routes(topology);
  CostComparison comparison;
  comparison.config = config;
  comparison.link = representative_link(topology);
  comparison.topology = topology;
  std::vector<PricedAlgorithm> priced;
  const bool switch_reduces = switch_reduces_on(topology);
  for (Algorithm algorithm : kAllAlgorithms) {
    if (!algorithm_supports(algorithm, config.op)) continue;
    // An in-switch reduction is compared only on a machine whose switch can do it.
    if (algorithm_unit(algorithm).reduces_in_switch && !switch_reduces) continue;
    Config variant = config;
    variant.algorithm = algorithm;
    comparison.algorithms.push_back(algorithm);
    priced.push_back({variant, make_schedule(variant), true, comparison.link});
    if (transfer_count(priced.back().schedule) > kMaxSweptTransfers) {
      priced.back().simulated = false;
      comparison.swept_without_contention.push_back(algorithm);
    }
    const SlotLayout layout = make_layout(variant);
    CostEstimate estimate = walk_schedule(variant, priced.back().schedule, layout, comparison.link, true);
    estimate.contention_free_seconds = estimate.seconds;
    estimate.simulation = simulate_contention(priced.back().schedule, layout, config.dtype, topology, routes, true);
    estimate.seconds =
        reduces_in_switch(variant) ? in_switch_seconds(variant, topology) : estimate.simulation.seconds;
    comparison.at_count.push_back(std::move(estimate));
  }
  // Sample sizes: whole elements, geometric steps from min to max.
  const std::int64_t element = static_cast<std::int64_t>(dtype_size(config.dtype));
  const int steps_per_doubling = std::max(1, sweep.points_per_doubling);
  std::vector<std::int64_t> counts;
  for (int step = 0;; ++step) {
    const double bytes = static_cast<double>(sweep.min_bytes) * std::exp2(static_cast<double>(step) / steps_per_doubling);
    if (bytes > static_cast<double>(sweep.max_bytes) * (1 + 1e-9)) break;
    const std::int64_t count = std::max<std::int64_t>(1, std::llround(bytes / static_cast<double>(element)));
    if (counts.empty() || count > counts.back()) counts.push_back(count);
  }

  comparison.sweep_seconds.assign(priced.size(), {});
  std::vector<std::size_t> fastest;
  for (std::int64_t count : counts) {
    std::vector<double> seconds;
    fastest.push_back(fastest_at(priced, count, topology, routes, &seconds));
    for (std::size_t i = 0; i < priced.size(); ++i) comparison.sweep_seconds[i].push_back(seconds[i]);
    comparison.sweep_bytes.push_back(count * element);
    comparison.sweep_fastest.push_back(comparison.algorithms[fastest.back()]);
  }

  // Between two samples with different winners, bisect on the element count for the first size
  // where the winner changes; repeat until the later sample's winner is reached.
  for (std::size_t i = 1; i < counts.size(); ++i) {
    std::int64_t low = counts[i - 1];
    std::size_t winner = fastest[i - 1];
    while (winner != fastest[i]) {
      std::int64_t high = counts[i];
      while (high - low > 1) {
        const std::int64_t middle = low + (high - low) / 2;
        (fastest_at(priced, middle, topology, routes) == winner ? low : high) = middle;
      }
      const std::size_t next = fastest_at(priced, high, topology, routes);
      comparison.crossovers.push_back({high * element, comparison.algorithms[winner], comparison.algorithms[next]});
      winner = next;
      low = high;
    }
  }
  return comparison;
}

}  // namespace ringviz
