#include "core/kineto/kineto_import.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/kineto/collective_names.h"
#include "core/kineto/nccl_kernel_name.h"
#include "core/model/input_error.h"
#include "core/model/text.h"
#include "core/run/run_collectives.h"
#include "core/run/run_validate.h"

namespace ringviz {
namespace {

std::string where(const KinetoRankTrace& trace, std::int64_t event, std::string_view what) {
  return trace.path + ": traceEvents[" + std::to_string(event) + "] (" + std::string(what) + ")";
}

// A file's rank: its distributedInfo, else "rank<R>" / "rank-<R>" / "rank_<R>" in its name,
// else 0 when it is the only file.
int rank_of(const KinetoRankTrace& trace, std::size_t files) {
  if (trace.rank) return *trace.rank;
  const std::string name = trace.path.substr(trace.path.find_last_of('/') + 1);
  const std::size_t at = name.find("rank");
  if (at != std::string::npos) {
    std::size_t digit = at + 4;
    while (digit < name.size() && (name[digit] == '-' || name[digit] == '_')) ++digit;
    std::size_t end = digit;
    while (end < name.size() && end - digit < 6 && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
    if (end > digit) return std::stoi(name.substr(digit, end - digit));
  }
  if (files == 1) return 0;
  throw InputError(trace.path + ": does not say which rank it is (no \"distributedInfo\" and no \"rank<R>\" in "
                   "its name); rename it rank<R>.json");
}

std::string rank_text(const std::vector<int>& ranks) {
  std::string text;
  for (const int rank : ranks) text += (text.empty() ? "" : ", ") + std::to_string(rank);
  return "[" + text + "]";
}

// The job's groups by name, from every trace's pg_config and every collective's own words.
class GroupTable {
 public:
  int add(const std::string& name, const std::vector<int>& ranks, const std::string& description,
          const std::string& source) {
    const auto found = index_.find(name);
    if (found != index_.end()) {
      ProcessGroup& group = groups_[static_cast<std::size_t>(found->second)];
      if (group.ranks != ranks)
        throw InputError(source + ": process group \"" + escape_for_message(name) + "\" has ranks " + rank_text(ranks) +
                         ", but another trace gives it " + rank_text(group.ranks) +
                         "; are these traces of one job?");
      if (group.description.empty()) group.description = description;
      return found->second;
    }
    index_[name] = static_cast<int>(groups_.size());
    groups_.push_back({name, ranks, description});
    return index_[name];
  }
  const ProcessGroup* find(const std::string& name) const {
    const auto found = index_.find(name);
    return found == index_.end() ? nullptr : &groups_[static_cast<std::size_t>(found->second)];
  }
  int index_of(const std::string& name) const { return index_.at(name); }
  std::vector<ProcessGroup> take() { return std::move(groups_); }

 private:
  std::vector<ProcessGroup> groups_;
  std::map<std::string, int> index_;
};

// One collective of one rank, before it becomes an instance: the CPU op and the kernel(s) it
// launched.
struct Issued {
  KinetoCommOp op;
  const KinetoKernel* kernel = nullptr;
  double kernel_end = 0;
};

// The comm ops of `trace` with the NCCL kernels they launched: a kernel belongs to the CPU op
// on the launching thread whose span holds the launch. Kernels that repeat the collective's
// args but have no such op stand alone.
std::vector<Issued> issued_collectives(const KinetoRankTrace& trace, std::vector<std::string>& notes) {
  std::vector<Issued> issued;
  for (const KinetoCommOp& op : trace.comm_ops) issued.push_back({op, nullptr, 0});
  std::sort(issued.begin(), issued.end(), [](const Issued& a, const Issued& b) { return a.op.ts < b.op.ts; });
  // A `nccl:<coll>` op inside a record_param_comms is the same collective seen twice.
  std::vector<Issued> kept;
  for (const Issued& candidate : issued) {
    if (!candidate.op.from_record_param_comms) {
      const bool inside = std::any_of(issued.begin(), issued.end(), [&](const Issued& outer) {
        return outer.op.from_record_param_comms && outer.op.tid == candidate.op.tid && outer.op.pid == candidate.op.pid &&
               outer.op.ts <= candidate.op.ts && candidate.op.ts <= outer.op.ts + outer.op.dur;
      });
      if (inside) continue;
    }
    kept.push_back(candidate);
  }
  issued = std::move(kept);

  int unsized_kernels = 0;
  for (const KinetoKernel& kernel : trace.nccl_kernels) {
    Issued* owner = nullptr;
    const auto launch = trace.launches.find(kernel.correlation);
    if (launch != trace.launches.end()) {
      const KinetoLaunch& at = launch->second;
      for (Issued& candidate : issued)
        if (candidate.op.tid == at.tid && candidate.op.pid == at.pid && candidate.op.ts <= at.ts &&
            at.ts <= candidate.op.ts + candidate.op.dur)
          owner = &candidate;  // the innermost (latest-starting) op that holds the launch
    }
    if (!owner && kernel.args) {
      Issued alone{*kernel.args, nullptr, 0};
      alone.op.event = kernel.event;
      alone.op.ts = kernel.ts;
      alone.op.dur = kernel.dur;
      issued.push_back(alone);
      owner = &issued.back();
    }
    if (!owner) {
      ++unsized_kernels;
      continue;
    }
    if (!owner->kernel || kernel.ts < owner->kernel->ts) owner->kernel = &kernel;
    owner->kernel_end = std::max(owner->kernel_end, kernel.ts + kernel.dur);
  }
  if (unsized_kernels > 0)
    notes.push_back(trace.path + ": " + std::to_string(unsized_kernels) +
                    " NCCL kernels belong to no collective op with sizes; left out");
  return issued;
}

// count (elements each rank starts with, docs/job-format.md) from PyTorch's In/Out msg nelems.
std::int64_t count_of(const Issued& issued, Op op, int group_size, const KinetoRankTrace& trace) {
  const KinetoCommOp& c = issued.op;
  const std::string at = where(trace, c.event, c.collective);
  const auto contradiction = [&](const std::string& rule) {
    return InputError(at + ": In msg nelems " + (c.in_elements ? std::to_string(*c.in_elements) : "?") +
                      " and Out msg nelems " + (c.out_elements ? std::to_string(*c.out_elements) : "?") +
                      " contradict a group of " + std::to_string(group_size) + " ranks (" + rule + ")");
  };
  if (!c.in_elements && !c.out_elements) throw InputError(at + ": gives no element count");
  const std::int64_t in = c.in_elements.value_or(-1), out = c.out_elements.value_or(-1);
  if (in < -1 || out < -1) throw InputError(at + ": a negative element count");
  switch (op) {
    case Op::allgather:
      if (in >= 0 && out >= 0 && out != in * group_size) throw contradiction("AllGather: out = in x group size");
      return in >= 0 ? in : out / group_size;
    case Op::reducescatter:
      if (in >= 0 && out >= 0 && in != out * group_size) throw contradiction("ReduceScatter: in = out x group size");
      return in >= 0 ? in : out * group_size;
    case Op::sendrecv:
      return std::max(in, out);
    case Op::alltoall:
      // Uneven splits (all_to_all with In/Out split sizes) receive another total than they send.
      return in >= 0 ? in : out;
    default:
      if (in >= 0 && out >= 0 && in != out && !c.sizes_from_input_dims)
        throw contradiction(std::string(op_display_name(op)) + ": out = in");
      return in >= 0 ? in : out;
  }
}

struct Skipped {
  std::map<std::string, int> by_reason;
  void add(const std::string& reason) { ++by_reason[reason]; }
};

class RankImporter {
 public:
  RankImporter(const KinetoRankTrace& trace, int rank, int world, GroupTable& groups, Skipped& skipped,
               std::vector<std::string>& notes)
      : trace_(trace), rank_(rank), world_(world), groups_(groups), skipped_(skipped), notes_(notes) {}

  RankTimeline timeline() {
    RankTimeline timeline;
    for (const Issued& issued : issued_collectives(trace_, notes_))
      if (auto instance = instance_of(issued)) timeline.collectives.push_back(std::move(*instance));
    std::stable_sort(timeline.collectives.begin(), timeline.collectives.end(),
                     [](const CollectiveInstance& a, const CollectiveInstance& b) {
                       return a.measured->start_us < b.measured->start_us;
                     });
    timeline.compute = compute_spans();
    return timeline;
  }

 private:
  std::optional<CollectiveInstance> instance_of(const Issued& issued) {
    const KinetoCommOp& c = issued.op;
    const CollectiveName name = classify_collective(c.collective);
    if (name.kind == TracedCollective::not_data) return std::nullopt;
    if (name.kind == TracedCollective::unsupported) {
      skipped_.add(c.collective + ": ringviz does not step this collective");
      return std::nullopt;
    }
    const std::optional<DType> dtype = dtype_of_pytorch(c.dtype);
    if (!dtype) {
      skipped_.add(std::string(op_name(name.op)) + " of dtype " + (c.dtype.empty() ? "(none)" : c.dtype) +
                   ": ringviz steps f32, f64, f16, bf16, i32 and i64");
      return std::nullopt;
    }
    CollectiveInstance instance;
    instance.op = name.op;
    instance.dtype = *dtype;
    instance.group = group_of(c, instance.derived);
    const int group_size = static_cast<int>(groups_.find(group_name_)->ranks.size());
    instance.count = count_of(issued, name.op, group_size, trace_);
    if (c.sizes_from_input_dims) {
      instance.derived.push_back("count");
      instance.derived.push_back("dtype");
    }
    instance.bytes = instance.count * static_cast<std::int64_t>(dtype_size(*dtype));
    read_root_and_peer(c, instance);
    read_splits(c, instance, group_size);
    std::string library_algorithm;
    if (issued.kernel) {
      if (auto parsed = parse_nccl_kernel_name(issued.kernel->name)) {
        instance.library.algorithm = parsed->algorithm;
        instance.library.protocol = parsed->protocol;
        library_algorithm = parsed->algorithm;
      }
      instance.library.channels = issued.kernel->grid_x;
      instance.measured = TimeSpan{issued.kernel->ts, issued.kernel_end};
    } else {
      instance.measured = TimeSpan{c.ts, c.ts + c.dur};
      instance.derived.push_back("start_us");
      instance.derived.push_back("duration_us");
    }
    instance.algorithm = algorithm_for_library(name.op, library_algorithm);
    if (instance.library.channels && *instance.library.channels >= 1)
      instance.channels = std::min(*instance.library.channels, kMaxChannels);
    return instance;
  }

  // A broadcast's root from `Rank` (a rank of the group: PyTorch records the root there), and the
  // other side of a send or recv from `Dst Rank` / `Src Rank` (global ranks). Traces that predate
  // these fields leave both unknown: the broadcast is then stepped from the group's first GPU.
  void read_root_and_peer(const KinetoCommOp& c, CollectiveInstance& instance) const {
    const std::vector<int>& members = groups_.find(group_name_)->ranks;
    const std::string at = where(trace_, c.event, c.collective);
    if (instance.op == Op::broadcast && c.rank_arg) {
      if (*c.rank_arg < 0 || *c.rank_arg >= static_cast<int>(members.size()))
        throw InputError(at + ": Rank " + std::to_string(*c.rank_arg) + " as the broadcast's root, but process group \"" +
                         escape_for_message(group_name_) + "\" has " + std::to_string(members.size()) + " ranks " +
                         rank_text(members));
      instance.root = members[static_cast<std::size_t>(*c.rank_arg)];
    }
    if (instance.op == Op::sendrecv) {
      const std::optional<int> peer = c.dst_rank ? c.dst_rank : c.src_rank;
      if (peer && std::find(members.begin(), members.end(), *peer) == members.end())
        throw InputError(at + ": the other side, rank " + std::to_string(*peer) + ", is not in process group \"" +
                         escape_for_message(group_name_) + "\" " + rank_text(members));
      instance.peer = peer;
    }
  }

  // An all_to_all's uneven splits: one per member of the group, adding up to what the rank sends
  // and receives. Even splits ("[]") leave both empty.
  void read_splits(const KinetoCommOp& c, CollectiveInstance& instance, int group_size) const {
    if (instance.op != Op::alltoall) return;
    const std::string at = where(trace_, c.event, c.collective);
    for (const auto& [field, text] : {std::pair{"In split size", &c.unreadable_in_splits},
                                      std::pair{"Out split size", &c.unreadable_out_splits}})
      if (!text->empty())
        throw InputError(at + ": " + field + " '" + escape_for_message(*text) +
                         "' is not a list of element counts (e.g. [3, 1, 0, 2])");
    if (c.in_splits.empty() && c.out_splits.empty()) return;
    const auto check = [&](const std::vector<std::int64_t>& splits, const char* field,
                           const std::optional<std::int64_t>& total, const char* total_field) {
      if (static_cast<int>(splits.size()) != group_size)
        throw InputError(at + ": " + field + " lists " + std::to_string(splits.size()) + " sizes for a group of " +
                         std::to_string(group_size) + " ranks (one per member)");
      std::int64_t sum = 0;
      for (std::int64_t size : splits) sum += std::min(size, kMaxCount);
      if (total && sum != *total)
        throw InputError(at + ": " + field + " adds up to " + std::to_string(sum) + " elements, but " + total_field +
                         " is " + std::to_string(*total));
    };
    // PyTorch takes one side's sizes as None for "even": that side is its total over the group.
    const auto even_side = [&](const std::optional<std::int64_t>& total, const char* total_field, const char* name,
                               const char* document_field) {
      if (!total || *total % group_size != 0)
        throw InputError(at + ": " + name + " is empty, so even, but " + total_field + " " +
                         (total ? std::to_string(*total) : std::string("is missing and")) +
                         " does not divide among a group of " + std::to_string(group_size) + " ranks");
      instance.derived.push_back(document_field);
      return std::vector<std::int64_t>(static_cast<std::size_t>(group_size), *total / group_size);
    };
    instance.in_splits = c.in_splits.empty() ? even_side(c.in_elements, "In msg nelems", "In split size", "in_splits")
                                             : c.in_splits;
    instance.out_splits =
        c.out_splits.empty() ? even_side(c.out_elements, "Out msg nelems", "Out split size", "out_splits")
                               : c.out_splits;
    check(instance.in_splits, "In split size", c.in_elements, "In msg nelems");
    check(instance.out_splits, "Out split size", c.out_elements, "Out msg nelems");
  }

  // The group's index, adding it from the op's own words where no pg_config named it.
  int group_of(const KinetoCommOp& c, std::vector<std::string>& derived) {
    const std::string at = where(trace_, c.event, c.collective);
    group_name_ = c.group_name;
    std::optional<std::vector<int>> ranks = c.group_ranks;
    if (ranks && c.group_size && static_cast<int>(ranks->size()) != *c.group_size)
      throw InputError(at + ": Group size " + std::to_string(*c.group_size) + ", but Process Group Ranks lists " +
                       std::to_string(ranks->size()) + " ranks " + rank_text(*ranks));
    if (group_name_.empty()) {
      // No group named: the whole world, as in traces from before process groups were recorded.
      group_name_ = "0";
      derived.push_back("group");
    }
    if (!ranks) {
      if (const ProcessGroup* known = groups_.find(group_name_)) {
        ranks = known->ranks;
      } else {
        const int size = c.group_size.value_or(world_);
        if (size != world_)
          throw InputError(at + ": group \"" + escape_for_message(group_name_) + "\" of " + std::to_string(size) +
                           " ranks, but the trace names none of its ranks");
        ranks.emplace();
        for (int r = 0; r < world_; ++r) ranks->push_back(r);
        if (c.group_name.empty() == false) derived.push_back("group");
      }
    }
    if (c.group_size && *c.group_size != static_cast<int>(ranks->size()))
      throw InputError(at + ": Group size " + std::to_string(*c.group_size) + ", but process group \"" +
                       escape_for_message(group_name_) + "\" has " + std::to_string(ranks->size()) + " ranks " +
                       rank_text(*ranks));
    if (std::find(ranks->begin(), ranks->end(), rank_) == ranks->end())
      throw InputError(at + ": rank " + std::to_string(rank_) + " runs a collective on process group \"" +
                       escape_for_message(group_name_) + "\" " + rank_text(*ranks) + ", which it is not in");
    for (const int r : *ranks)
      if (r < 0 || r >= world_)
        throw InputError(at + ": process group \"" + escape_for_message(group_name_) + "\" lists rank " +
                         std::to_string(r) + ", but the job has " + std::to_string(world_) + " ranks");
    const ProcessGroup* known = groups_.find(group_name_);
    return groups_.add(group_name_, *ranks, known ? known->description : "", at);
  }

  // The annotated phases, merged where PyTorch nests two names for one phase, and the GPU's
  // compute kernels merged into busy spans (a gap under 20 us is no idle time worth drawing).
  std::vector<ComputeSpan> compute_spans() const {
    std::vector<ComputeSpan> spans = trace_.phases;
    std::vector<TimeSpan> kernels = trace_.compute_kernels;
    std::sort(kernels.begin(), kernels.end(), [](const TimeSpan& a, const TimeSpan& b) { return a.start_us < b.start_us; });
    constexpr double kJoinGapUs = 20;
    std::vector<TimeSpan> busy;
    for (const TimeSpan& kernel : kernels) {
      if (!busy.empty() && kernel.start_us <= busy.back().end_us + kJoinGapUs)
        busy.back().end_us = std::max(busy.back().end_us, kernel.end_us);
      else
        busy.push_back(kernel);
    }
    for (const TimeSpan& span : busy) spans.push_back({"GPU compute", ComputeKind::kernel, span});
    std::stable_sort(spans.begin(), spans.end(),
                     [](const ComputeSpan& a, const ComputeSpan& b) { return a.time.start_us < b.time.start_us; });
    // A phase named twice (`## optimizer ##` around `Optimizer.step#SGD.step`) is kept once: the
    // outer span.
    std::vector<ComputeSpan> kept;
    for (const ComputeSpan& span : spans) {
      const bool nested = std::any_of(kept.begin(), kept.end(), [&](const ComputeSpan& outer) {
        return outer.kind == span.kind && span.kind != ComputeKind::kernel && outer.time.start_us <= span.time.start_us &&
               span.time.end_us <= outer.time.end_us;
      });
      if (!nested) kept.push_back(span);
    }
    return kept;
  }

  const KinetoRankTrace& trace_;
  int rank_, world_;
  GroupTable& groups_;
  Skipped& skipped_;
  std::vector<std::string>& notes_;
  std::string group_name_;
};

void shift(RankTimeline& timeline, double offset) {
  timeline.clock_offset_us = offset;
  for (CollectiveInstance& instance : timeline.collectives)
    if (instance.measured) {
      instance.measured->start_us += offset;
      instance.measured->end_us += offset;
    }
  for (ComputeSpan& span : timeline.compute) {
    span.time.start_us += offset;
    span.time.end_us += offset;
  }
}

template <class Field>
void agree(const std::vector<KinetoRankTrace>& traces, Field field, const char* what) {
  const KinetoRankTrace* first = nullptr;
  for (const KinetoRankTrace& trace : traces) {
    if (field(trace).empty()) continue;
    if (first && field(trace) != field(*first))
      throw InputError(trace.path + ": " + what + " " + field(trace) + ", but " + first->path + " says " + field(*first) +
                       "; are these traces of one job?");
    if (!first) first = &trace;
  }
}

}  // namespace

Job import_kineto_traces(const std::vector<KinetoRankTrace>& traces) {
  if (traces.empty()) throw InputError("job import: no trace to read");
  Job job;
  job.info.source_kind = "kineto";
  std::map<int, const KinetoRankTrace*> by_rank;
  for (const KinetoRankTrace& trace : traces) {
    job.info.files.push_back(trace.path);
    const int rank = rank_of(trace, traces.size());
    const auto [slot, inserted] = by_rank.emplace(rank, &trace);
    if (!inserted)
      throw InputError(trace.path + ": rank " + std::to_string(rank) + " again (" + slot->second->path +
                       " is rank " + std::to_string(rank) + " too); pass one trace per rank");
  }
  agree(traces, [](const KinetoRankTrace& t) { return t.world_size ? std::to_string(*t.world_size) : std::string(); },
        "world size");
  agree(traces, [](const KinetoRankTrace& t) { return t.nccl_version; }, "NCCL version");
  agree(traces, [](const KinetoRankTrace& t) { return t.backend; }, "backend");

  int world = by_rank.rbegin()->first + 1;
  for (const KinetoRankTrace& trace : traces) {
    if (trace.world_size) world = *trace.world_size;
    if (job.info.backend.empty()) job.info.backend = trace.backend;
    if (job.info.nccl_version.empty()) job.info.nccl_version = trace.nccl_version;
    if (job.info.gpu.empty()) job.info.gpu = trace.gpu;
  }
  if (world < 1 || world > kMaxRanks)
    throw InputError(traces.front().path + ": world size " + std::to_string(world) + " is outside 1 to " +
                     std::to_string(kMaxRanks) + ", the ranks ringviz draws");
  for (const auto& [rank, trace] : by_rank)
    if (rank >= world)
      throw InputError(trace->path + ": rank " + std::to_string(rank) + ", but the job has " + std::to_string(world) +
                       " ranks");
  job.info.world_size = world;

  GroupTable groups;
  for (const KinetoRankTrace& trace : traces)
    for (const KinetoGroupConfig& config : trace.groups)
      if (!config.name.empty() && !config.ranks.empty())
        groups.add(config.name, config.ranks, config.description, trace.path + ": distributedInfo");

  Skipped skipped;
  std::vector<RankTimeline> timelines(static_cast<std::size_t>(world));
  for (RankTimeline& timeline : timelines) timeline.traced = false;
  double earliest = 0;
  bool any = false;
  for (const auto& [rank, trace] : by_rank) {
    RankImporter importer(*trace, rank, world, groups, skipped, job.info.notes);
    timelines[static_cast<std::size_t>(rank)] = importer.timeline();
    if (trace->any_event && (!any || trace->earliest_ts < earliest)) earliest = trace->earliest_ts;
    any = any || trace->any_event;
  }
  // Ranks of one machine share the profiler's clock; the job's clock starts at its first event.
  for (const auto& [rank, trace] : by_rank) shift(timelines[static_cast<std::size_t>(rank)], -earliest);

  std::size_t collectives = 0;
  for (const RankTimeline& timeline : timelines) collectives += timeline.collectives.size();
  for (const auto& [reason, number] : skipped.by_reason)
    job.info.notes.push_back("left out " + std::to_string(number) + " x " + reason);
  if (collectives == 0) {
    std::string files;
    for (const std::string& file : job.info.files) files += (files.empty() ? "" : ", ") + file;
    throw InputError(files + ": no collective to import (no record_param_comms op, NCCL kernel or nccl:<op> with "
                     "Input Dims" + (skipped.by_reason.empty() ? "" : "; " + job.info.notes.back()) +
                     "); was the job distributed while the profiler was on?");
  }
  job.run.groups = groups.take();
  job.run.ranks = std::move(timelines);
  if (auto problem = validate(job.run))
    throw InputError(job.info.files.front() + (job.info.files.size() > 1 ? " and the other traces" : "") + ": " +
                     *problem + "; are these traces of one job?");
  int rootless = 0;
  for (const RunCollective& collective : run_collectives(job.run))
    if (collective.first().op == Op::broadcast && !collective.first().root) ++rootless;
  if (rootless > 0)
    job.info.notes.push_back(std::to_string(rootless) + (rootless == 1 ? " broadcast names" : " broadcasts name") +
                             " no root (the trace has no \"Rank\" on record_param_comms, which PyTorch records from "
                             "2.4 on): stepped from the group's first GPU");
  return job;
}

}  // namespace ringviz
