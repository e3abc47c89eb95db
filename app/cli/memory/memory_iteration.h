#pragma once
// `ringviz memory` with a transformer: the whole iteration (activations, logits, recomputation,
// offloading, time) from core/training/iteration_model.h. The flags are added here; the command
// switches to this report when any of them is given, and prints model states alone otherwise.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/model/text.h"
#include "core/training/iteration_model.h"

namespace ringviz::cli {

struct IterationFlags {
  std::string model;  // empty: not given
  std::string layers, hidden, heads, vocab;
  std::string seq, micro_batch;
  std::string recompute, offload, accelerator, utilisation, link;
  std::string tp, attention, block;  // tensor parallelism, FlashAttention, which block is counted
  bool sp = false;                   // sequence parallelism

  bool given() const;
};

void add_iteration_options(CLI::App& parser, IterationFlags& flags);

// What the memory command already parsed, shared with the model-states report.
struct IterationReportRequest {
  MemoryQuery memory;            // Ψ (from --params, used by --model custom), N, convention, order
  bool params_given = false;     // --params typed
  std::vector<Strategy> strategies;
  ByteUnit unit = ByteUnit::gb;
  double capacity_bytes = kDefaultGpuMemoryBytes;
  bool json = false;
  bool timeline = false;
  std::int64_t bucket_bytes = kDefaultBucketBytes;
  Language language = Language::en;  // --lang: the tables' words
};

// Prints the report; throws InputError naming the flag for bad input.
void print_iteration_report(const IterationFlags& flags, const IterationReportRequest& request);

}  // namespace ringviz::cli
