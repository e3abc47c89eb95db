#pragma once
// Puts the ranks of several machines on one clock (docs/job-format.md, "Clocks of several
// machines"). The ranks of one host share its clock exactly; two hosts' clocks differ by what
// their synchronisation left. A collective ends at nearly the same moment on all of its ranks
// (the last piece of data arrives everywhere within a link's latency), so the end times of the
// collectives two hosts share measure the difference between their clocks.
#include <string>
#include <vector>

#include "core/run/run.h"

namespace ringviz {

struct HostClockShift {
  std::string host;
  double shift_us = 0;  // added to every time of the host's ranks
  int matched = 0;      // collectives shared with the reference host that measured it
};

struct ClockAlignment {
  std::string reference_host;  // the host of the lowest traced rank that names one; "" if none
  std::vector<HostClockShift> shifted;    // every other host that shares a collective with it
  std::vector<std::string> unmatched;     // hosts that share none: their times are taken as they are
};

// For every host but the reference (the host of the lowest rank), the median over the
// collectives it shares with the reference (same group, same sequence) of (its ranks' end time −
// the reference's ranks' end time), each host's end time being the median over its ranks, is
// subtracted from all of the host's times and from its ranks' `clock_offset_us`. Ranks without
// a host, and every rank of a job on one host, are left as they are.
ClockAlignment align_host_clocks(Run& run);

// What the alignment did, one sentence per host, for the job's notes; none for a job on one host.
std::vector<std::string> clock_alignment_notes(const ClockAlignment& alignment, const Run& run);

}  // namespace ringviz
