#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace ringviz::cli {

// A subcommand registered on the top-level parser, and what to run when it was chosen.
// `run` returns the process exit code (0 ok, 2 bad input, 1 runtime failure).
struct Command {
  CLI::App* parser = nullptr;
  std::function<int()> run;
};

Command add_trace_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_compare_command(CLI::App& app);
Command add_memory_command(CLI::App& app);
Command add_train_command(CLI::App& app);
// `job import` and `job show` (docs/job-format.md).
Command add_job_command(CLI::App& app);
// Lists the shipped lessons (also `record --list-lessons`); needs no GUI.
Command add_lessons_command(CLI::App& app);
// Needs the GUI build; without it `record` says so and exits 1.
Command add_record_command(CLI::App& app);
// Replaces the process with ringviz-capture (the MPI build); exit 2 when it is missing.
Command add_capture_command(CLI::App& app);

}  // namespace ringviz::cli
