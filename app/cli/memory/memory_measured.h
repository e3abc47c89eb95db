#pragma once
// `ringviz memory --from-job job.json`: what a recorded job measured (ringviz_torch.measure)
// beside the memory model's figures for the same shapes, term by term
// (core/job/memory_comparison.h).
#include <string>

#include "core/model/text.h"
#include "core/training/memory_model.h"

namespace ringviz::cli {

// Prints the tables (or JSON); throws InputError naming --from-job for a file that is not a job
// document or measured nothing.
void print_measured_memory(const std::string& path, ByteUnit unit, bool json, Language lang);

}  // namespace ringviz::cli
