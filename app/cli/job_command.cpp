// `ringviz job import` and `ringviz job show`: a real training job's collectives, from PyTorch
// profiler traces or a live recording, as a job document and as a table (docs/job-format.md).
// A thin client of core/job.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/command.h"
#include "core/job/job_document.h"
#include "core/job/job_import.h"
#include "core/job/job_table.h"
#include "core/model/input_error.h"
#include "core/model/text.h"
#include "core/output/output_file.h"
#include "core/output/output_path.h"

namespace ringviz::cli {

namespace {

struct JobFlags {
  std::vector<std::string> inputs;
  std::string out;
  bool quiet = false;
  std::string document;
  std::string format = "table";
};

int run_import(const JobFlags& flags) {
  check_output_file(flags.out, "--out", ".json");
  const auto started = std::chrono::steady_clock::now();
  JobImportStats stats;
  const Job job = import_job(job_input_files(flags.inputs), &stats);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::string error;
  if (!write_output_file(flags.out, job_document_text(job), error)) {
    std::cerr << "ringviz: " << escape_for_message(error) << "\n";
    return 1;
  }
  if (flags.quiet) return 0;
  std::size_t collectives = 0, traced = 0;
  for (const RankTimeline& timeline : job.run.ranks) {
    collectives += timeline.collectives.size();
    traced += timeline.traced ? 1 : 0;
  }
  std::printf("ringviz: %s: %zu collectives of %zu traced ranks (of %d), %zu groups", flags.out.c_str(), collectives,
              traced, job.run.world_size(), job.run.groups.size());
  if (stats.text_bytes > 0)
    std::printf("; read %.1f MB of trace text in %.2f s (%.0f MB/s)", static_cast<double>(stats.text_bytes) / 1e6,
                seconds, seconds > 0 ? static_cast<double>(stats.text_bytes) / 1e6 / seconds : 0.0);
  std::printf("\n");
  for (const std::string& note : job.info.notes) std::printf("ringviz: note: %s\n", note.c_str());
  const std::vector<int> missing = untraced_ranks(job.run);
  if (!missing.empty()) {
    std::string list;
    for (const int rank : missing) list += (list.empty() ? "" : " ") + std::to_string(rank);
    std::printf("ringviz: note: ranks %s were not traced; their part of each collective is drawn from the schedule\n",
                list.c_str());
  }
  return 0;
}

int run_show(const JobFlags& flags) {
  const Job job = read_job_document(flags.document);
  const JobTable table = job_table(job);
  std::cout << (flags.format == "json" ? job_table_json(job, table) : job_table_text(job, table));
  return 0;
}

}  // namespace

Command add_job_command(CLI::App& app) {
  auto flags = std::make_shared<JobFlags>();
  CLI::App* job = app.add_subcommand("job", "import a real training job's collectives and list them");
  job->require_subcommand(1, 1);
  CLI::App* import = job->add_subcommand(
      "import", "read PyTorch profiler traces (.json, .json.gz; one per rank, or a folder) or the parts "
                "ringviz_torch.record wrote, and write one job document");
  import->add_option("inputs", flags->inputs, "trace files or folders")->required();
  import->add_option("--out", flags->out, "the job document to write (.json)")->required();
  import->add_flag("--quiet", flags->quiet, "print nothing on success");
  CLI::App* show = job->add_subcommand("show", "one row per collective (nccl-tests' columns) and a summary per op "
                                               "and group");
  show->add_option("document", flags->document, "a job document (ringviz job import --out)")->required();
  show->add_option("--format", flags->format, "table or json")->check(CLI::IsMember({"table", "json"}));
  return {job, [flags, import]() { return import->parsed() ? run_import(*flags) : run_show(*flags); }};
}

}  // namespace ringviz::cli
