#pragma once
// The Compare tab's comparison, computed off the frame (docs/architecture.md, "The Compare tab
// on a topology"): simulating every algorithm at 21 sizes with contention takes a second or
// more at 16 GPUs, so a new question starts a worker and the view shows "computing..." until
// its answer is there. A question asked again while its answer stands is answered at once.
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "core/model/config.h"
#include "core/topology/topology.h"
#include "core/training/cost_model.h"

namespace ringviz::gui {

// What a comparison depends on: the setup panel's collective, and the machine: a topology
// preset's spec, or "" and the link of the star.
struct ComparisonQuestion {
  Config config;
  std::string topology_spec;
  std::string link_key;
  bool operator==(const ComparisonQuestion& other) const;
};

struct ComparisonAnswer {
  std::optional<CostComparison> comparison;
  std::optional<Routes> routes;  // of comparison->topology
  std::string error;             // why there is no comparison
};

// Computes an answer in the calling thread.
ComparisonAnswer answer_question(const ComparisonQuestion& question);

class ComparisonJob {
 public:
  ComparisonJob() = default;
  ComparisonJob(const ComparisonJob&) = delete;
  ComparisonJob& operator=(const ComparisonJob&) = delete;
  ~ComparisonJob();

  // The answer to `question`, or null while a worker computes it (started here when the
  // question is new). `wait`: block until it is there instead (headless frames, tests).
  const ComparisonAnswer* answer(const ComparisonQuestion& question, bool wait);

 private:
  std::optional<ComparisonQuestion> asked_;
  std::future<ComparisonAnswer> pending_;
  // Workers of questions no longer asked: kept until they finish, so that dropping one never
  // blocks a frame (a std::async future waits in its destructor).
  std::vector<std::future<ComparisonAnswer>> abandoned_;
  std::optional<ComparisonAnswer> ready_;
};

}  // namespace ringviz::gui
