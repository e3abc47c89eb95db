#include "core/job/job_table.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "core/job/assumed_link.h"
#include "core/nccl/nccl_tuner.h"
#include "core/schedule/bus_bandwidth.h"
#include "core/run/run_collectives.h"

namespace ringviz {
namespace {

// The time of `span` that compute also covered on the rank: the GPU's busy time where the trace
// has GPU kernels (the annotated phases are the CPU's, which runs ahead of the GPU), else the
// phases (a CPU job's compute is its CPU's).
double covered_us(const TimeSpan& span, const std::vector<ComputeSpan>& compute) {
  const bool gpu = std::any_of(compute.begin(), compute.end(),
                               [](const ComputeSpan& c) { return c.kind == ComputeKind::kernel; });
  std::vector<std::pair<double, double>> parts;
  for (const ComputeSpan& c : compute) {
    if (gpu != (c.kind == ComputeKind::kernel)) continue;
    const double start = std::max(span.start_us, c.time.start_us), end = std::min(span.end_us, c.time.end_us);
    if (end > start) parts.emplace_back(start, end);
  }
  std::sort(parts.begin(), parts.end());
  double total = 0, reach = span.start_us;
  for (const auto& [start, end] : parts) {
    if (end <= reach) continue;
    total += end - std::max(start, reach);
    reach = end;
  }
  return total;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// "2,3,0": one size per member of the group.
std::string joined_sizes(const std::vector<std::int64_t>& sizes) {
  std::string text;
  for (std::int64_t size : sizes) text += (text.empty() ? "" : ",") + std::to_string(size);
  return text;
}

std::string padded(const std::string& text, std::size_t width, bool right = true) {
  if (text.size() >= width) return text;
  const std::string pad(width - text.size(), ' ');
  return right ? pad + text : text + pad;
}

// The model's time for one collective, with what NCCL recorded of its choice; 0 where the
// model has no answer (no link assumed, an op or a pair it does not cover).
double predicted_us(const LinkModel& link, const CollectiveInstance& instance, int ranks, std::int64_t size_bytes) {
  if (!nccl_models(instance.op) || ranks < 2) return 0;
  const NcclMachine machine = nccl_machine(link, ranks, instance.library.channels.value_or(0));
  const auto algorithm = find_enum(kNcclAlgorithmNames, instance.library.algorithm);
  const auto protocol = find_enum(kNcclProtocolNames, instance.library.protocol);
  if (instance.library.algorithm.empty() && instance.library.protocol.empty())
    return nccl_choose(machine, instance.op, size_bytes).seconds * 1e6;
  if (!algorithm || !protocol || !nccl_has(machine, instance.op, *algorithm, *protocol)) return 0;
  return nccl_predict(machine, instance.op, size_bytes, *algorithm, *protocol).seconds * 1e6;
}

}  // namespace

JobTable job_table(const Job& job) {
  JobTable table;
  const Run& run = job.run;
  const AssumedLink assumed = assumed_link(job.info);
  if (assumed.link) table.predicted_on = assumed.why;
  std::map<const CollectiveInstance*, std::size_t> row_of;
  for (int rank = 0; rank < run.world_size(); ++rank) {
    const RankTimeline& timeline = run.ranks[static_cast<std::size_t>(rank)];
    std::map<int, int> sequence;
    for (const CollectiveInstance& instance : timeline.collectives) {
      JobRow row;
      row.rank = rank;
      row.sequence = sequence[instance.group]++;
      row.instance = &instance;
      row.group_size = static_cast<int>(run.groups[static_cast<std::size_t>(instance.group)].ranks.size());
      row.size_bytes = nccl_tests_size_bytes(instance.op, instance.count, instance.dtype, row.group_size);
      if (assumed.link) row.predicted_us = predicted_us(*assumed.link, instance, row.group_size, row.size_bytes);
      if (instance.measured) {
        row.time_us = instance.measured->end_us - instance.measured->start_us;
        if (row.time_us > 0) {
          row.algbw_gbps = static_cast<double>(row.size_bytes) / (row.time_us * 1e-6) / 1e9;
          row.busbw_gbps = row.algbw_gbps * bus_bandwidth_factor(instance.op, row.group_size);
          row.hidden_known = std::find(instance.derived.begin(), instance.derived.end(), "duration_us") ==
                             instance.derived.end();
          if (row.hidden_known) row.hidden_fraction = covered_us(*instance.measured, timeline.compute) / row.time_us;
        }
      }
      row_of[&instance] = table.rows.size();
      table.rows.push_back(row);
    }
  }

  std::map<std::pair<Op, int>, JobSummary> summaries;
  std::map<std::pair<Op, int>, std::map<int, int>> slowest_counts;
  std::map<std::pair<Op, int>, std::pair<double, double>> hidden;  // covered, total
  for (const RunCollective& collective : run_collectives(run)) {
    const CollectiveInstance* slowest = nullptr;
    double earliest_start = 0;
    double sum_us = 0;
    int measured = 0;
    const auto key = std::make_pair(collective.first().op, collective.group);
    for (const CollectiveInstance* member : collective.members) {
      if (!member || !member->measured) continue;
      const JobRow& row = table.rows[row_of[member]];
      sum_us += row.time_us;
      ++measured;
      if (row.hidden_known) {
        hidden[key].first += row.hidden_fraction * row.time_us;
        hidden[key].second += row.time_us;
      }
      if (!slowest || member->measured->start_us > slowest->measured->start_us) slowest = member;
      if (measured == 1 || member->measured->start_us < earliest_start) earliest_start = member->measured->start_us;
    }
    JobSummary& summary = summaries[key];
    summary.op = key.first;
    summary.group = run.groups[static_cast<std::size_t>(collective.group)].name;
    ++summary.collectives;
    summary.bytes += table.rows[row_of[&collective.first()]].size_bytes;
    if (measured > 0) summary.total_us += sum_us / measured;
    // One traced rank has no one to wait for, and ranks that all started together waited for
    // nobody: "slowest" needs a rank that started later than another.
    if (slowest && measured > 1 && slowest->measured->start_us > earliest_start) {
      JobRow& row = table.rows[row_of[slowest]];
      row.slowest = true;
      ++slowest_counts[key][row.rank];
    }
  }
  for (auto& [key, summary] : summaries) {
    const auto& [covered, total] = hidden[key];
    if (total > 0) summary.hidden_share = covered / total;
    for (const auto& [rank, times] : slowest_counts[key])
      if (times > summary.slowest_times) {
        summary.slowest_rank = rank;
        summary.slowest_times = times;
      }
    table.summaries.push_back(summary);
  }
  std::stable_sort(table.rows.begin(), table.rows.end(), [](const JobRow& a, const JobRow& b) {
    const double sa = a.instance->measured ? a.instance->measured->start_us : 0;
    const double sb = b.instance->measured ? b.instance->measured->start_us : 0;
    return sa != sb ? sa < sb : a.rank < b.rank;
  });
  return table;
}

std::string job_table_text(const Job& job, const JobTable& table) {
  std::string out;
  out += "# job: " + std::to_string(job.run.world_size()) + " ranks";
  if (!job.info.backend.empty()) out += ", " + job.info.backend;
  if (!job.info.nccl_version.empty()) out += " " + job.info.nccl_version;
  if (!job.info.gpu.empty()) out += ", " + job.info.gpu;
  out += "\n";
  const std::vector<int> missing = untraced_ranks(job.run);
  if (!missing.empty()) {
    out += "# not traced: ranks";
    for (const int rank : missing) out += " " + std::to_string(rank);
    out += " (their part of each collective is the schedule's, not measured)\n";
  }
  for (const std::string& note : job.info.notes) out += "# note: " + note + "\n";
  out += "#\n# time: the collective on this rank (the NCCL kernel); algbw = size / time; busbw = algbw x nccl-tests' "
         "factor; * = the rank that started it last; root: a broadcast's source, peer: a send/recv's other side "
         "(global ranks)\n";
  if (!table.predicted_on.empty())
    out += "# pred: the NCCL model's time (docs/nccl-model.md) for the recorded algo, proto and channels, on the "
           "assumed link (" + table.predicted_on + ")\n";
  const std::vector<std::pair<const char*, std::size_t>> columns = {
      {"rank", 4},   {"group", 6}, {"seq", 4},        {"op", 13},        {"size(B)", 12}, {"count", 11},
      {"type", 5},   {"redop", 5}, {"time(us)", 10},  {"pred(us)", 9}, {"algbw(GB/s)", 11}, {"busbw(GB/s)", 11},
      {"algo", 6},   {"proto", 6}, {"channels", 8},   {"hidden", 6}, {"root", 4}, {"peer", 4}};
  out += "#";
  for (const auto& [name, width] : columns) out += " " + padded(name, width);
  out += "  label\n";
  for (const JobRow& row : table.rows) {
    const CollectiveInstance& c = *row.instance;
    const bool reduces = c.op == Op::allreduce || c.op == Op::reducescatter;
    const std::vector<std::string> cells = {
        std::to_string(row.rank) + (row.slowest ? "*" : ""),
        job.run.groups[static_cast<std::size_t>(c.group)].name,
        std::to_string(row.sequence),
        std::string(op_display_name(c.op)),
        std::to_string(row.size_bytes),
        std::to_string(c.count),
        std::string(dtype_name(c.dtype)),
        reduces ? std::string(reduce_op_name(c.reduce)) : "-",
        c.measured ? fixed(row.time_us, 1) : "-",
        row.predicted_us > 0 ? fixed(row.predicted_us, 1) : "-",
        c.measured ? fixed(row.algbw_gbps, 2) : "-",
        c.measured ? fixed(row.busbw_gbps, 2) : "-",
        c.library.algorithm.empty() ? "-" : c.library.algorithm,
        c.library.protocol.empty() ? "-" : c.library.protocol,
        c.library.channels ? std::to_string(*c.library.channels) : "-",
        row.hidden_known ? fixed(100 * row.hidden_fraction, 0) + "%" : "-",
        c.root ? std::to_string(*c.root) : "-",
        c.peer ? std::to_string(*c.peer) : "-"};
    out += " ";
    for (std::size_t i = 0; i < cells.size(); ++i) out += " " + padded(cells[i], columns[i].second);
    std::string label = c.label;
    // An uneven AllToAll's splits, which no column holds: what the rank sends each member, and receives.
    if (!c.in_splits.empty())
      label += (label.empty() ? "" : " ") + std::string("splits: sends ") + joined_sizes(c.in_splits) + ", receives " +
               joined_sizes(c.out_splits);
    if (!c.derived.empty()) {
      std::string derived;
      for (const std::string& field : c.derived) derived += (derived.empty() ? "" : ", ") + field;
      label += (label.empty() ? "" : " ") + std::string("(derived: ") + derived + ")";
    }
    out += "  " + label + "\n";
  }
  out += "#\n# per op and group: collectives, bytes, total time (each averaged over its ranks), share hidden under "
         "compute, slowest rank most often\n";
  for (const JobSummary& s : table.summaries) {
    out += "#  " + padded(std::string(op_display_name(s.op)), 13, false) + " group " + padded(s.group, 6, false) + " " +
           padded(std::to_string(s.collectives), 5) + " collectives " + padded(std::to_string(s.bytes), 13) + " B " +
           padded(fixed(s.total_us, 1), 11) + " us  hidden " +
           (s.hidden_share ? padded(fixed(100 * *s.hidden_share, 0), 3) + "%" : std::string("  -"));
    if (s.slowest_rank >= 0)
      out += "  slowest: rank " + std::to_string(s.slowest_rank) + " (" + std::to_string(s.slowest_times) + " of " +
             std::to_string(s.collectives) + ")";
    out += "\n";
  }
  return out;
}

std::string job_table_json(const Job& job, const JobTable& table) {
  using ordered = nlohmann::ordered_json;
  ordered doc;
  doc["format"] = "ringviz.job-show/1";
  doc["world_size"] = job.run.world_size();
  doc["not_traced"] = untraced_ranks(job.run);
  doc["notes"] = job.info.notes;
  doc["predicted_on"] = table.predicted_on.empty() ? ordered(nullptr) : ordered(table.predicted_on);
  doc["collectives"] = ordered::array();
  for (const JobRow& row : table.rows) {
    const CollectiveInstance& c = *row.instance;
    ordered entry;
    entry["rank"] = row.rank;
    entry["op"] = op_name(c.op);
    entry["group"] = job.run.groups[static_cast<std::size_t>(c.group)].name;
    entry["sequence"] = row.sequence;
    entry["count"] = c.count;
    entry["dtype"] = dtype_name(c.dtype);
    entry["bytes"] = c.count * static_cast<std::int64_t>(dtype_size(c.dtype));
    entry["size_bytes"] = row.size_bytes;
    entry["algorithm"] = c.library.algorithm.empty() ? ordered(nullptr) : ordered(c.library.algorithm);
    entry["protocol"] = c.library.protocol.empty() ? ordered(nullptr) : ordered(c.library.protocol);
    entry["channels"] = c.library.channels ? ordered(*c.library.channels) : ordered(nullptr);
    entry["root"] = c.root ? ordered(*c.root) : ordered(nullptr);
    entry["peer"] = c.peer ? ordered(*c.peer) : ordered(nullptr);
    entry["in_splits"] = c.in_splits.empty() ? ordered(nullptr) : ordered(c.in_splits);
    entry["out_splits"] = c.out_splits.empty() ? ordered(nullptr) : ordered(c.out_splits);
    entry["start_us"] = c.measured ? ordered(c.measured->start_us) : ordered(nullptr);
    entry["duration_us"] = c.measured ? ordered(row.time_us) : ordered(nullptr);
    entry["predicted_us"] = row.predicted_us > 0 ? ordered(row.predicted_us) : ordered(nullptr);
    entry["algbw"] = c.measured ? ordered(row.algbw_gbps) : ordered(nullptr);
    entry["busbw"] = c.measured ? ordered(row.busbw_gbps) : ordered(nullptr);
    entry["slowest"] = row.slowest;
    entry["hidden_fraction"] = row.hidden_known ? ordered(row.hidden_fraction) : ordered(nullptr);
    entry["label"] = c.label;
    entry["derived"] = c.derived;
    doc["collectives"].push_back(entry);
  }
  doc["summary"] = ordered::array();
  for (const JobSummary& s : table.summaries)
    doc["summary"].push_back({{"op", op_name(s.op)},
                              {"group", s.group},
                              {"collectives", s.collectives},
                              {"size_bytes", s.bytes},
                              {"total_us", s.total_us},
                              {"hidden_share", s.hidden_share ? ordered(*s.hidden_share) : ordered(nullptr)},
                              {"slowest_rank", s.slowest_rank < 0 ? ordered(nullptr) : ordered(s.slowest_rank)},
                              {"slowest_times", s.slowest_times}});
  return doc.dump(1) + "\n";
}

}  // namespace ringviz
