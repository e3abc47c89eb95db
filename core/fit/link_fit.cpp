#include "core/fit/link_fit.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/model/input_error.h"
#include "core/schedule/pipeline.h"
#include "core/algorithms/registry.h"

namespace ringviz {

namespace {

struct Sample {
  double bytes = 0;
  double seconds = 0;
};

// The least-squares line through the samples; no slope when the bytes do not vary.
FittedLinkClass fit_line(const std::string& name, const std::vector<Sample>& samples) {
  FittedLinkClass fitted{name, static_cast<int>(samples.size()), 0, std::nullopt};
  double mean_bytes = 0, mean_seconds = 0;
  for (const Sample& sample : samples) {
    mean_bytes += sample.bytes / static_cast<double>(samples.size());
    mean_seconds += sample.seconds / static_cast<double>(samples.size());
  }
  double covariance = 0, variance = 0;
  for (const Sample& sample : samples) {
    covariance += (sample.bytes - mean_bytes) * (sample.seconds - mean_seconds);
    variance += (sample.bytes - mean_bytes) * (sample.bytes - mean_bytes);
  }
  // Slots of one run differ by an element at most when the bytes do not really vary: a slope
  // from such rounds would fit noise.
  if (variance <= 1e-6 * mean_bytes * mean_bytes * static_cast<double>(samples.size()) || samples.size() < 2) {
    fitted.alpha_seconds = mean_seconds;
    return fitted;
  }
  fitted.beta_seconds_per_byte = covariance / variance;
  fitted.alpha_seconds = mean_seconds - *fitted.beta_seconds_per_byte * mean_bytes;
  return fitted;
}

}  // namespace

LinkFit fit_link_classes(const RecordedRun& run, const std::string& source) {
  if (!run.every_round_timed())
    throw InputError(source + ": not every round has a measured time; --fit needs a run recorded by `ringviz capture`");
  const Schedule schedule = make_schedule(run.config);
  const PipelineShape shape = pipeline_shape_of(schedule);
  const double element = static_cast<double>(dtype_size(run.config.dtype));
  const auto host_of = [&](int rank) -> std::string {
    if (!run.capture) return "";
    for (const CaptureRank& entry : run.capture->ranks)
      if (entry.rank == rank) return entry.host;
    return "";
  };
  LinkFit fit;
  std::map<std::string, std::vector<Sample>> samples;
  const std::size_t rounds = std::min(run.rounds.size(), schedule.rounds.size());
  for (std::size_t index = 0; index < rounds; ++index) {
    std::vector<double> sent(static_cast<std::size_t>(run.config.ranks), 0);
    bool crosses_hosts = false;
    for (const Transfer& transfer : schedule.rounds[index].transfers) {
      sent[static_cast<std::size_t>(transfer.src)] +=
          static_cast<double>(transfer_span(transfer, run.layout, shape).count) * element;
      crosses_hosts = crosses_hosts || host_of(transfer.src) != host_of(transfer.dst);
    }
    FittedRound round;
    round.round = static_cast<int>(index) + 1;
    round.link_class = crosses_hosts ? "between hosts" : "same host";
    round.bytes = sent.empty() ? 0 : *std::max_element(sent.begin(), sent.end());
    round.measured_seconds = *run.rounds[index].time_us * 1e-6;
    samples[round.link_class].push_back({round.bytes, round.measured_seconds});
    fit.rounds.push_back(round);
  }
  for (const auto& [name, points] : samples) fit.classes.push_back(fit_line(name, points));
  for (FittedRound& round : fit.rounds)
    for (const FittedLinkClass& fitted : fit.classes)
      if (fitted.name == round.link_class)
        round.predicted_seconds = fitted.alpha_seconds + fitted.beta_seconds_per_byte.value_or(0) * round.bytes;
  return fit;
}

}  // namespace ringviz
