#pragma once
// The "what NCCL would do" line in both languages, shared by `ringviz compare`, the GUI's
// Compare tab and the measured tables that print a prediction beside a measurement.
#include <string>

#include "core/model/text.h"
#include "core/nccl/nccl_tuner.h"
#include "core/topology/topology.h"

namespace ringviz {

// "NVLS/SIMPLE"
std::string nccl_pair_text(const NcclPrediction& prediction);
// "4.185 ms" or "15.0 µs": microseconds below a millisecond.
std::string nccl_time_text(double seconds);
// "NVLS/SIMPLE on 12 channels: 4.185 ms, busbw 449.0 GB/s (algbw 256.6 GB/s)", or in Chinese.
std::string nccl_choice_text(const NcclPrediction& prediction, Language language);
// The header line of a table that prints the model's prediction beside measured figures (bench,
// capture --iters): which machine the prediction assumes, and how to pick another.
std::string nccl_prediction_note(const Topology& assumed, Language language);

}  // namespace ringviz
