#pragma once
// α and β fitted to a recorded run (`ringviz compare --fit`; docs/architecture.md, "Topology
// and contention"): each round of a capture is put in a link class, "same host" when all its
// transfers stay on one host, else "between hosts", and within each class a least-squares line
// time = α + bytes·β runs through the rounds, where bytes is the most one GPU sends that round.
#include <optional>
#include <string>
#include <vector>

#include "core/trace/trace_read.h"

namespace ringviz {

struct FittedRound {
  int round = 0;  // 1-based, as the document numbers rounds
  std::string link_class;
  double bytes = 0;
  double measured_seconds = 0;
  double predicted_seconds = 0;
};

struct FittedLinkClass {
  std::string name;  // "same host", "between hosts"
  int rounds = 0;
  double alpha_seconds = 0;
  // Empty when every round of the class moved the same bytes: then only α + b·β is known, and
  // α holds the mean time.
  std::optional<double> beta_seconds_per_byte;
};

struct LinkFit {
  std::vector<FittedLinkClass> classes;
  std::vector<FittedRound> rounds;
};

// Throws InputError naming `source` when a round has no time (a plain trace, not a capture).
LinkFit fit_link_classes(const RecordedRun& run, const std::string& source);

}  // namespace ringviz
