#include "app/gui/compare/comparison_job.h"

#include <chrono>
#include <exception>

#include "app/platform/threads.h"

namespace ringviz::gui {

bool ComparisonQuestion::operator==(const ComparisonQuestion& other) const {
  const Config& a = config;
  const Config& b = other.config;
  return a.op == b.op && a.order == b.order && a.ranks == b.ranks && a.count == b.count && a.dtype == b.dtype &&
         a.channels == b.channels && a.slices == b.slices && a.root == b.root && topology_spec == other.topology_spec &&
         link_key == other.link_key;
}

ComparisonAnswer answer_question(const ComparisonQuestion& question) {
  ComparisonAnswer answer;
  try {
    CostComparison comparison = question.topology_spec.empty()
                                    ? compare_algorithms(question.config, find_link_preset(question.link_key))
                                    : compare_algorithms(question.config, topology_preset(question.topology_spec));
    answer.routes.emplace(comparison.topology);
    answer.comparison = std::move(comparison);
  } catch (const std::exception& error) {
    answer.error = error.what();
  }
  return answer;
}

namespace {

bool is_ready(const std::future<ComparisonAnswer>& future) {
  return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace

ComparisonJob::~ComparisonJob() {
  // Workers read only their own copy of the question; the futures wait for them here.
  for (auto& worker : abandoned_) worker.wait();
  if (pending_.valid()) pending_.wait();
}

const ComparisonAnswer* ComparisonJob::answer(const ComparisonQuestion& question, bool wait) {
  if (!asked_ || !(*asked_ == question)) {
    if (pending_.valid()) abandoned_.push_back(std::move(pending_));
    asked_ = question;
    ready_.reset();
    // Without worker threads (the browser) the answer is computed here, in this frame.
    pending_ = std::async(platform::kWorkerThreads ? std::launch::async : std::launch::deferred, answer_question,
                          question);
  }
  std::erase_if(abandoned_, [](const std::future<ComparisonAnswer>& worker) { return is_ready(worker); });
  if (pending_.valid() && (wait || !platform::kWorkerThreads || is_ready(pending_)))
    ready_ = pending_.get();
  return ready_ ? &*ready_ : nullptr;
}

}  // namespace ringviz::gui
