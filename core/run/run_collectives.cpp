#include "core/run/run_collectives.h"

#include <algorithm>
#include <cstddef>

namespace ringviz {

const CollectiveInstance& RunCollective::first() const {
  return **std::find_if(members.begin(), members.end(), [](const CollectiveInstance* member) { return member; });
}

std::vector<RunCollective> run_collectives(const Run& run) {
  std::vector<RunCollective> collectives;
  for (int group = 0; group < static_cast<int>(run.groups.size()); ++group) {
    const std::vector<int>& ranks = run.groups[static_cast<std::size_t>(group)].ranks;
    // Each member's instances on this group, in the order the member issued them.
    std::vector<std::vector<const CollectiveInstance*>> issued(ranks.size());
    std::size_t sequences = 0;
    for (std::size_t member = 0; member < ranks.size(); ++member) {
      const int rank = ranks[member];
      if (rank < 0 || rank >= run.world_size()) continue;
      for (const CollectiveInstance& instance : run.ranks[static_cast<std::size_t>(rank)].collectives)
        if (instance.group == group) issued[member].push_back(&instance);
      sequences = std::max(sequences, issued[member].size());
    }
    for (std::size_t sequence = 0; sequence < sequences; ++sequence) {
      RunCollective& collective = collectives.emplace_back();
      collective.group = group;
      collective.sequence = static_cast<int>(sequence);
      for (const std::vector<const CollectiveInstance*>& list : issued)
        collective.members.push_back(sequence < list.size() ? list[sequence] : nullptr);
    }
  }
  return collectives;
}

namespace {

// An uneven AllToAll's N x N table from its members' splits: row i from member i's in_splits,
// or, where member i was not traced, from what each traced member j received from it
// (out_splits). A block between two untraced members is in no trace: it is stepped as empty.
std::vector<std::int64_t> split_table(const RunCollective& collective) {
  const std::size_t n = collective.members.size();
  std::vector<std::int64_t> table(n * n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const CollectiveInstance* sender = collective.members[i];
      const CollectiveInstance* receiver = collective.members[j];
      if (sender && !sender->in_splits.empty()) table[i * n + j] = sender->in_splits[j];
      else if (receiver && !receiver->out_splits.empty()) table[i * n + j] = receiver->out_splits[i];
    }
  return table;
}

}  // namespace

Config collective_config(const Run& run, const RunCollective& collective) {
  const CollectiveInstance& instance = collective.first();
  Config config;
  config.op = instance.op;
  config.algorithm = instance.algorithm;
  config.order = instance.order;
  config.ranks = static_cast<int>(run.groups[static_cast<std::size_t>(collective.group)].ranks.size());
  config.count = instance.count;
  config.dtype = instance.dtype;
  config.reduce = instance.reduce;
  config.channels = instance.channels;
  config.slices = instance.slices;
  // The root is a global rank; the schedule counts GPUs in the group's order.
  if (instance.op == Op::broadcast && instance.root) {
    const std::vector<int>& ranks = run.groups[static_cast<std::size_t>(collective.group)].ranks;
    const auto found = std::find(ranks.begin(), ranks.end(), *instance.root);
    if (found != ranks.end()) config.root = static_cast<int>(found - ranks.begin());
  }
  if (!instance.in_splits.empty()) {
    config.splits = split_table(collective);
    config.count = largest_split_row(config);
  }
  if (instance.recording) config.init = instance.recording->config.init;
  return config;
}

}  // namespace ringviz
