#include "core/job/clock_alignment.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/run/run_collectives.h"

namespace ringviz {
namespace {

// The middle value (the mean of the middle two for an even count); `values` must not be empty.
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

void shift_timeline(RankTimeline& timeline, double shift_us) {
  timeline.clock_offset_us += shift_us;
  for (CollectiveInstance& instance : timeline.collectives) {
    if (instance.measured) {
      instance.measured->start_us += shift_us;
      instance.measured->end_us += shift_us;
    }
    if (instance.bucket && instance.bucket->ready_us) *instance.bucket->ready_us += shift_us;
  }
  for (ComputeSpan& span : timeline.compute) {
    span.time.start_us += shift_us;
    span.time.end_us += shift_us;
  }
}

std::string microseconds(double us) {
  char text[64];
  std::snprintf(text, sizeof text, "%+.1f us", us);
  return text;
}

int lowest_rank_on(const Run& run, const std::string& host) {
  for (int rank = 0; rank < run.world_size(); ++rank)
    if (run.ranks[static_cast<std::size_t>(rank)].traced && run.ranks[static_cast<std::size_t>(rank)].host == host)
      return rank;
  return -1;
}

}  // namespace

ClockAlignment align_host_clocks(Run& run) {
  ClockAlignment alignment;
  std::vector<std::string> hosts;  // in order of their lowest rank
  for (const RankTimeline& timeline : run.ranks)
    if (timeline.traced && !timeline.host.empty() &&
        std::find(hosts.begin(), hosts.end(), timeline.host) == hosts.end())
      hosts.push_back(timeline.host);
  if (hosts.empty()) return alignment;
  alignment.reference_host = hosts.front();
  if (hosts.size() == 1) return alignment;

  // Per host, the differences of its end time from the reference's over the shared collectives.
  std::map<std::string, std::vector<double>> differences;
  for (const RunCollective& collective : run_collectives(run)) {
    const ProcessGroup& group = run.groups[static_cast<std::size_t>(collective.group)];
    std::map<std::string, std::vector<double>> ends;
    for (std::size_t member = 0; member < collective.members.size(); ++member) {
      const CollectiveInstance* instance = collective.members[member];
      if (!instance || !instance->measured) continue;
      const std::string& host = run.ranks[static_cast<std::size_t>(group.ranks[member])].host;
      if (!host.empty()) ends[host].push_back(instance->measured->end_us);
    }
    const auto reference = ends.find(alignment.reference_host);
    if (reference == ends.end()) continue;
    const double reference_end = median(reference->second);
    for (const auto& [host, host_ends] : ends)
      if (host != alignment.reference_host) differences[host].push_back(median(host_ends) - reference_end);
  }

  for (std::size_t h = 1; h < hosts.size(); ++h) {
    const std::string& host = hosts[h];
    const auto found = differences.find(host);
    if (found == differences.end()) {
      alignment.unmatched.push_back(host);
      continue;
    }
    const double shift = -median(found->second);
    for (RankTimeline& timeline : run.ranks)
      if (timeline.traced && timeline.host == host) shift_timeline(timeline, shift);
    alignment.shifted.push_back({host, shift, static_cast<int>(found->second.size())});
  }
  return alignment;
}

std::vector<std::string> clock_alignment_notes(const ClockAlignment& alignment, const Run& run) {
  std::vector<std::string> notes;
  if (alignment.shifted.empty() && alignment.unmatched.empty()) return notes;
  const std::string reference = "host \"" + alignment.reference_host + "\" (rank " +
                                std::to_string(lowest_rank_on(run, alignment.reference_host)) + "'s)";
  for (const HostClockShift& shift : alignment.shifted)
    notes.push_back("clock of host \"" + shift.host + "\" (from rank " + std::to_string(lowest_rank_on(run, shift.host)) +
                    ") shifted by " + microseconds(shift.shift_us) + " onto " + reference +
                    ": the median difference of the end times of the " +
                    (shift.matched == 1 ? std::string("1 collective") : std::to_string(shift.matched) + " collectives") +
                    " they share; its ranks' clock_offset_us include it");
  for (const std::string& host : alignment.unmatched)
    notes.push_back("clock of host \"" + host + "\" not aligned: it shares no measured collective with " + reference +
                    "; its times are taken as its clock gave them");
  return notes;
}

}  // namespace ringviz
