#include "core/run/run_validate.h"

#include <cmath>
#include <cstddef>
#include <set>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/model/text.h"
#include "core/run/run_collectives.h"

namespace ringviz {

namespace {

std::string group_text(const ProcessGroup& group) { return "group \"" + escape_for_message(group.name) + "\""; }

std::string rank_list(const std::vector<int>& ranks) {
  std::string text;
  for (const int rank : ranks) text += (text.empty() ? "" : ", ") + std::to_string(rank);
  return text;
}

std::string us_text(double microseconds) {
  std::ostringstream out;
  out << microseconds << " us";
  return out.str();
}

std::string plural(std::size_t number, const std::string& noun) {
  return std::to_string(number) + " " + noun + (number == 1 ? "" : "s");
}

std::optional<std::string> check_groups(const Run& run) {
  std::set<std::string> names;
  for (std::size_t index = 0; index < run.groups.size(); ++index) {
    const ProcessGroup& group = run.groups[index];
    if (group.name.empty()) return "group " + std::to_string(index) + " has no name";
    if (!names.insert(group.name).second) return "two groups are named \"" + escape_for_message(group.name) + "\"";
    if (group.ranks.empty()) return group_text(group) + " has no ranks";
    std::set<int> seen;
    for (const int rank : group.ranks) {
      if (rank < 0 || rank >= run.world_size())
        return group_text(group) + " lists rank " + std::to_string(rank) + ", but the run has " +
               std::to_string(run.world_size()) + " ranks (0 to " + std::to_string(run.world_size() - 1) + ")";
      if (!seen.insert(rank).second) return group_text(group) + " lists rank " + std::to_string(rank) + " twice";
    }
  }
  return std::nullopt;
}

bool is_member(const ProcessGroup& group, int rank) {
  for (const int member : group.ranks)
    if (member == rank) return true;
  return false;
}

std::optional<std::string> check_span(const TimeSpan& span) {
  if (!std::isfinite(span.start_us) || !std::isfinite(span.end_us)) return std::string("a time is not finite");
  if (span.end_us < span.start_us)
    return "ends at " + us_text(span.end_us) + ", before its start at " + us_text(span.start_us);
  return std::nullopt;
}

// An uneven AllToAll's splits: one per member, none negative, the sent ones adding up to count.
std::optional<std::string> check_splits(const ProcessGroup& group, const CollectiveInstance& instance) {
  if (instance.in_splits.empty() && instance.out_splits.empty()) return std::nullopt;
  if (instance.op != Op::alltoall) return std::string("split sizes, but only an alltoall has them");
  for (const auto* splits : {&instance.in_splits, &instance.out_splits}) {
    const char* name = splits == &instance.in_splits ? "in_splits" : "out_splits";
    if (splits->size() != group.ranks.size())
      return std::string(name) + " lists " + std::to_string(splits->size()) + " sizes for " + group_text(group) + " of " +
             std::to_string(group.ranks.size()) + " ranks (one per member)";
    std::int64_t sum = 0;
    for (std::int64_t size : *splits) {
      if (size < 0 || size > kMaxCount)
        return std::string(name) + ": " + std::to_string(size) + " is out of range (0 to 2^40 elements)";
      sum += size;
    }
    if (splits == &instance.in_splits && sum != instance.count)
      return "in_splits add up to " + std::to_string(sum) + " elements, but count is " + std::to_string(instance.count) +
             " (what the rank sends in all)";
  }
  return std::nullopt;
}

// Members i and j of an uneven AllToAll agree on their block: what i sends j is what j receives
// from i. Untraced members say nothing.
std::optional<std::string> check_pairwise_splits(const ProcessGroup& group, const RunCollective& collective) {
  const std::size_t n = collective.members.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const CollectiveInstance* sender = collective.members[i];
      const CollectiveInstance* receiver = collective.members[j];
      if (!sender || !receiver || sender->in_splits.empty() || receiver->out_splits.empty()) continue;
      if (sender->in_splits[j] != receiver->out_splits[i])
        return "rank " + std::to_string(group.ranks[i]) + " sends " + std::to_string(sender->in_splits[j]) +
               " elements to rank " + std::to_string(group.ranks[j]) + " (in_splits), but rank " +
               std::to_string(group.ranks[j]) + " receives " + std::to_string(receiver->out_splits[i]) +
               " from it (out_splits)";
    }
  return std::nullopt;
}

// What one instance says on its own: its group, and sizes a schedule can take.
std::optional<std::string> check_instance(const Run& run, int rank, const CollectiveInstance& instance) {
  if (instance.group < 0 || instance.group >= static_cast<int>(run.groups.size()))
    return "group " + std::to_string(instance.group) + " does not exist (the run has " +
           std::to_string(run.groups.size()) + " groups)";
  const ProcessGroup& group = run.groups[static_cast<std::size_t>(instance.group)];
  if (!is_member(group, rank))
    return "rank " + std::to_string(rank) + " is not in " + group_text(group) + " (ranks " + rank_list(group.ranks) + ")";
  if (instance.count < 0 || instance.count > kMaxCount)
    return "count " + std::to_string(instance.count) + " is out of range (0 to 2^40 elements)";
  // A job lists every collective it ran, also those no schedule steps (a send/recv is one
  // transfer); for the others, the instance's algorithm must have the op.
  if (op_has_schedule(instance.op) && !algorithm_supports(instance.algorithm, instance.op))
    return "the " + std::string(algorithm_name(instance.algorithm)) + " algorithm has no " +
           std::string(op_name(instance.op)) + " schedule";
  if (instance.channels < 1 || instance.channels > kMaxChannels)
    return "channels " + std::to_string(instance.channels) + " is out of range (1 to " + std::to_string(kMaxChannels) + ")";
  if (instance.slices < 1 || instance.slices > kMaxSlices)
    return "slices " + std::to_string(instance.slices) + " is out of range (1 to " + std::to_string(kMaxSlices) + ")";
  const auto element_bytes = static_cast<std::int64_t>(dtype_size(instance.dtype));
  if (instance.bytes && *instance.bytes != instance.count * element_bytes)
    return "bytes " + std::to_string(*instance.bytes) + " do not match count " + std::to_string(instance.count) +
           " of " + std::string(dtype_name(instance.dtype)) + " (" + std::to_string(instance.count * element_bytes) +
           " bytes)";
  if (instance.root && !is_member(group, *instance.root))
    return "root " + std::to_string(*instance.root) + " is not in " + group_text(group) + " (ranks " +
           rank_list(group.ranks) + ")";
  if (instance.root && instance.op != Op::broadcast)
    return "a root (" + std::to_string(*instance.root) + "), but only a broadcast has one";
  if (instance.peer && !is_member(group, *instance.peer))
    return "peer " + std::to_string(*instance.peer) + " is not in " + group_text(group) + " (ranks " +
           rank_list(group.ranks) + ")";
  if (instance.peer && instance.op != Op::sendrecv)
    return "a peer (" + std::to_string(*instance.peer) + "), but only a send/recv has one";
  if (auto problem = check_splits(group, instance)) return problem;
  if (instance.library.channels && *instance.library.channels < 1)
    return "the library's channels " + std::to_string(*instance.library.channels) + " must be 1 or more";
  if (instance.measured)
    if (auto problem = check_span(*instance.measured)) return "measured: " + *problem;
  return std::nullopt;
}

// One rank's timeline: its instances and compute spans, each list in order of start.
std::optional<std::string> check_rank(const Run& run, int rank) {
  const RankTimeline& timeline = run.ranks[static_cast<std::size_t>(rank)];
  const std::string who = "rank " + std::to_string(rank);
  if (!timeline.traced && (!timeline.collectives.empty() || !timeline.compute.empty()))
    return who + " is not traced, but lists " + plural(timeline.collectives.size(), "collective") + " and " +
           plural(timeline.compute.size(), "compute span");
  const CollectiveInstance* previous = nullptr;
  for (std::size_t index = 0; index < timeline.collectives.size(); ++index) {
    const CollectiveInstance& instance = timeline.collectives[index];
    const std::string where = who + ", collective " + std::to_string(index + 1) + " (" +
                              std::string(op_display_name(instance.op)) + "): ";
    if (auto problem = check_instance(run, rank, instance)) return where + *problem;
    if (instance.measured && previous && previous->measured && instance.measured->start_us < previous->measured->start_us)
      return where + "starts at " + us_text(instance.measured->start_us) + ", before collective " +
             std::to_string(index) + " (" + us_text(previous->measured->start_us) +
             "): a rank lists its collectives in the order it issued them";
    if (instance.measured) previous = &instance;
  }
  for (std::size_t index = 0; index < timeline.compute.size(); ++index) {
    const ComputeSpan& span = timeline.compute[index];
    const std::string where = who + ", compute span " + std::to_string(index + 1) + " (\"" +
                              escape_for_message(span.name) + "\"): ";
    if (span.name.empty()) return who + ", compute span " + std::to_string(index + 1) + ": has no name";
    if (auto problem = check_span(span.time)) return where + *problem;
    if (index > 0 && span.time.start_us < timeline.compute[index - 1].time.start_us)
      return where + "starts at " + us_text(span.time.start_us) + ", before compute span " + std::to_string(index) +
             " (" + us_text(timeline.compute[index - 1].time.start_us) + "): spans are listed in order of start";
  }
  return std::nullopt;
}

// The fields that make two instances one collective, each as a message names it ("count 1024").
struct DefiningField {
  const char* name;
  std::string (*value)(const CollectiveInstance&);
};
constexpr DefiningField kDefiningFields[] = {
    {"op", [](const CollectiveInstance& c) { return std::string(op_name(c.op)); }},
    {"count", [](const CollectiveInstance& c) { return std::to_string(c.count); }},
    {"dtype", [](const CollectiveInstance& c) { return std::string(dtype_name(c.dtype)); }},
    {"reduce", [](const CollectiveInstance& c) { return std::string(reduce_op_name(c.reduce)); }},
    {"algorithm", [](const CollectiveInstance& c) { return std::string(algorithm_name(c.algorithm)); }},
    {"order", [](const CollectiveInstance& c) { return std::string(order_name(c.order)); }},
    {"channels", [](const CollectiveInstance& c) { return std::to_string(c.channels); }},
    {"slices", [](const CollectiveInstance& c) { return std::to_string(c.slices); }},
    {"root", [](const CollectiveInstance& c) { return c.root ? std::to_string(*c.root) : std::string("none"); }},
};

// The recorded collective as an instance, to compare field by field.
CollectiveInstance recorded_instance(const Config& recorded) {
  CollectiveInstance instance;
  instance.op = recorded.op;
  instance.count = recorded.count;
  instance.dtype = recorded.dtype;
  instance.reduce = recorded.reduce;
  instance.algorithm = recorded.algorithm;
  instance.order = recorded.order;
  instance.channels = recorded.channels;
  instance.slices = recorded.slices;
  if (recorded.op == Op::broadcast) instance.root = recorded.root;  // a recording's group is the world
  return instance;
}

// The ranks of one collective agree on what it is, and its recording is of that collective.
std::optional<std::string> check_collective(const Run& run, const RunCollective& collective) {
  const ProcessGroup& group = run.groups[static_cast<std::size_t>(collective.group)];
  const std::string where = group_text(group) + ", collective " + std::to_string(collective.sequence + 1) + ": ";
  int first_rank = -1;
  const CollectiveInstance* first = nullptr;
  for (std::size_t member = 0; member < collective.members.size(); ++member) {
    const int rank = group.ranks[member];
    const CollectiveInstance* instance = collective.members[member];
    if (!run.ranks[static_cast<std::size_t>(rank)].traced) continue;
    if (!instance) return where + "rank " + std::to_string(rank) + " does not list it (the ranks of a group issue the same collectives)";
    if (!first) {
      first = instance;
      first_rank = rank;
      continue;
    }
    for (const DefiningField& field : kDefiningFields) {
      // Uneven splits give each rank its own count; the splits are checked pair by pair instead.
      if (field.name == std::string("count") && !instance->in_splits.empty() && !first->in_splits.empty()) continue;
      if (field.value(*instance) != field.value(*first))
        return where + "rank " + std::to_string(rank) + " has " + field.name + " " + field.value(*instance) +
               " where rank " + std::to_string(first_rank) + " has " + field.name + " " + field.value(*first);
    }
    if (instance->in_splits.empty() != first->in_splits.empty())
      return where + "rank " + std::to_string(rank) + (instance->in_splits.empty() ? " has no" : " has") +
             " split sizes where rank " + std::to_string(first_rank) + (first->in_splits.empty() ? " has none" : " has them");
  }
  if (!first) return std::nullopt;  // untraced ranks list nothing, so some rank lists it
  if (auto problem = check_pairwise_splits(group, collective)) return where + *problem;
  const auto group_size = static_cast<int>(group.ranks.size());
  for (const CollectiveInstance* instance : collective.members) {
    if (!instance || !instance->recording) continue;
    const Config& recorded = instance->recording->config;
    if (recorded.ranks != group_size)
      return where + "its recording is of " + plural(static_cast<std::size_t>(recorded.ranks), "rank") + ", the group has " +
             std::to_string(group_size);
    const CollectiveInstance as_recorded = recorded_instance(recorded);
    for (const DefiningField& field : kDefiningFields)
      if (field.value(as_recorded) != field.value(*first))
        return where + "its recording has " + field.name + " " + field.value(as_recorded) + " where the instances have " +
               field.name + " " + field.value(*first);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> validate(const Run& run) {
  if (run.world_size() < 1) return std::string("the run has no ranks");
  if (auto problem = check_groups(run)) return problem;
  for (int rank = 0; rank < run.world_size(); ++rank)
    if (auto problem = check_rank(run, rank)) return problem;
  for (const RunCollective& collective : run_collectives(run))
    if (auto problem = check_collective(run, collective)) return problem;
  return std::nullopt;
}

void validate_or_throw(const Run& run, std::string_view source) {
  if (auto problem = validate(run)) throw InputError(escape_for_message(source) + ": " + *problem);
}

}  // namespace ringviz
